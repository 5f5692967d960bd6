//! The experiment runner (SPEC §10): units, shards, merge, aggregation, JSON definitions.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::dataset::plane;
use csc_engine::experiment::{
    builtin, run_unit, t_quantile, with_param, ExperimentSpec, Report, BUILTIN_IDS,
};
use std::sync::Arc;

fn small_spec() -> ExperimentSpec {
    ExperimentSpec::from_json(
        r#"{"id": "mini", "dataset": "plane", "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "cucb-sc", "greedy", "lfu"]},
            "sweep": {"param": "log_len", "values": [50, 120]}, "params": {"horizon": 1, "n_eval": 200, "epsilon": 0.15}, "seeds": 3}"#,
    )
    .unwrap()
}

fn run_units(spec: &ExperimentSpec, units: &[csc_engine::experiment::Unit]) -> Report {
    let d = Arc::new(plane::universe().unwrap());
    Report::new(spec, units.iter().map(|u| run_unit(spec, u, &d, &mut |_| true).unwrap()).collect())
}

/// `--shard i/n` slices partition the units deterministically, and merging the shard reports
/// gives exactly the report of the whole run.
#[test]
fn shards_partition_and_merge_to_the_full_report() {
    let spec = small_spec();
    let all = spec.units();
    assert_eq!(all.len(), 6);
    let shards: Vec<_> = (0..4).map(|i| spec.shard(i, 4).unwrap()).collect();
    let mut idx: Vec<usize> = shards.iter().flatten().map(|u| u.index).collect();
    idx.sort_unstable();
    assert_eq!(idx, (0..6).collect::<Vec<_>>());
    assert_eq!(spec.shard(1, 4).unwrap(), spec.shard(1, 4).unwrap());
    assert!(spec.shard(4, 4).is_err());
    let full = run_units(&spec, &all);
    let parts: Vec<Report> = shards.iter().map(|s| run_units(&spec, s)).collect();
    let json: Vec<Report> =
        parts.iter().map(|r| serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap()).collect();
    let merged = Report::merge(json).unwrap();
    assert!(merged.missing_units().is_empty());
    assert_eq!(serde_json::to_value(&merged.stats).unwrap(), serde_json::to_value(&full.stats).unwrap());
    let partial = Report::merge(vec![parts[0].clone()]).unwrap();
    assert_eq!(partial.missing_units().len(), 6 - shards[0].len());
    // every unit carries its resolved configuration and seed
    for u in &full.units {
        assert_eq!(u.params.seed, u.unit.seed);
        assert_eq!(u.params.log_len, [50, 120][u.unit.point]);
    }
    let csv = full.to_csv();
    assert!(csv.starts_with("experiment,algorithm,metric,x,n,mean,std,ci95\n"));
    assert!(csv.lines().count() > 8);
    assert!(full.summary().contains("CUCB-SC-Cont"));
}

#[test]
fn aggregation_by_hand() {
    use csc_engine::experiment::{aggregate, Observation, Unit, UnitResult};
    let mk = |v: f64, seed: u64| UnitResult {
        experiment: "x".into(),
        unit: Unit { index: seed as usize, point: 0, seed },
        params: Params::default(),
        dataset: plane::universe().unwrap().info(),
        observations: vec![Observation {
            algorithm: "A".into(),
            metric: "gap".into(),
            x: 1.0,
            y: f64::NAN,
            value: v,
        }],
        detail: serde_json::Value::Null,
    };
    let s = aggregate(&[mk(1.0, 0), mk(2.0, 1), mk(3.0, 2)]);
    assert_eq!(s.len(), 1);
    assert_eq!((s[0].n, s[0].mean, s[0].std), (3, 2.0, 1.0));
    // sd 1 over 3 seeds: t_{0.975,2}/√3, t_{0.975,2} = 0.95/√0.04875 = 4.302652729749464 (two
    // degrees of freedom in closed form: t = (2p − 1)/√(2p(1 − p)) at p = 0.975).
    assert!((s[0].ci95 - 4.302_652_729_749_464 / 3f64.sqrt()).abs() < 1e-12);
    // Computed for every df, not read from a table that stops at 30 (mpmath: 1.96233908082640848…).
    assert_eq!(t_quantile(1000), 1.962_339_080_826_408_5);
}

#[test]
fn definitions_are_validated_with_readable_errors() {
    for id in BUILTIN_IDS {
        builtin(id).unwrap().validate().unwrap();
    }
    assert!(builtin("fig-z").unwrap_err().to_string().contains("fig-a"));
    let e = with_param(&Params::default(), "epsilonn", &serde_json::json!(0.3)).unwrap_err().to_string();
    assert!(e.contains("epsilonn"), "{e}");
    let e = with_param(&Params::default(), "k", &serde_json::json!(0)).unwrap_err().to_string();
    assert!(e.contains("at least 1"), "{e}");
    let bad = r#"{"id": "b", "dataset": "plane", "measure": {"kind": "online", "policies": []}, "seeds": 1}"#;
    assert!(ExperimentSpec::from_json(bad).unwrap_err().to_string().contains("policies"));
    let bad = r#"{"id": "b", "dataset": "mars", "measure": {"kind": "online", "policies": ["greedy"]}, "seeds": 1}"#;
    assert!(ExperimentSpec::from_json(bad).is_err());
    let bad = r#"{"id": "b", "dataset": "plane", "measure": {"kind": "online", "policies": ["greedy"]}, "seeds": 0}"#;
    assert!(ExperimentSpec::from_json(bad).unwrap_err().to_string().contains("seed"));
}

/// The `geom` measure (paper appendix figures): quantiles of each distance distribution are
/// ordered, the token CDF ends at 1, and the stream's projection is returned.
#[test]
fn geometry_measure() {
    let spec = ExperimentSpec::from_json(
        r#"{"id": "g", "dataset": "plane", "measure": {"kind": "geometry", "stream": 300}, "seeds": 1}"#,
    )
    .unwrap();
    let r = run_units(&spec, &spec.units());
    for metric in ["pairwise_distance", "nn_distance", "distance_to_universe"] {
        let q: Vec<f64> = r
            .stats
            .iter()
            .filter(|s| s.metric == metric && s.algorithm == "stream")
            .map(|s| s.mean)
            .collect();
        assert_eq!(q.len(), 9, "{metric}");
        assert!(q.windows(2).all(|w| w[0] <= w[1]), "{metric}: {q:?}");
    }
    let cdf: Vec<f64> = r.stats.iter().filter(|s| s.metric == "token_cdf").map(|s| s.mean).collect();
    assert_eq!(cdf.last().copied(), Some(1.0));
    assert_eq!(r.units[0].detail["stream_projection"].as_array().unwrap().len(), 300);
    assert!(r.summary().contains("nn_distance"));
}

#[test]
fn algorithm_names_parse_by_id_or_paper_name() {
    use csc_engine::offline::OfflineKind;
    use csc_engine::online::PolicyKind;
    assert_eq!(PolicyKind::parse(" CLCB-SC-LS-Cont ").unwrap(), PolicyKind::ClcbScLsCont);
    assert_eq!(PolicyKind::parse("epsilon-greedy").unwrap(), PolicyKind::EpsilonGreedy);
    assert_eq!(OfflineKind::parse("cucb-sc").unwrap(), OfflineKind::CucbSc);
    assert_eq!(OfflineKind::CucbScCont.id(), "cucb-sc-cont");
    let e = PolicyKind::parse("nope").unwrap_err().to_string();
    assert!(e.contains("unknown online algorithm `nope`") && e.contains("clcb-frozen-cont"), "{e}");
    let e = OfflineKind::parse("clcb-sc-ls").unwrap_err().to_string();
    assert!(e.contains("unknown offline algorithm") && e.contains("cucb-sc-cont"), "{e}");
}

/// An online unit records the oracle's loss and the no-cache loss `E_x[c(x)]` on the evaluation
/// sample; the oracle serves each query at most at its LLM cost, so it is never above.
#[test]
fn online_units_record_the_oracle_and_no_cache_losses() {
    let spec = ExperimentSpec::from_json(
        r#"{"id": "mini-online", "dataset": "plane", "measure": {"kind": "online", "policies": ["greedy"]},
            "params": {"horizon": 60, "n_eval": 150, "epsilon": 0.15}, "seeds": 2}"#,
    )
    .unwrap();
    let r = run_units(&spec, &spec.units());
    for u in &r.units {
        let (orc, none) =
            (u.detail["oracle_loss"].as_f64().unwrap(), u.detail["no_cache_loss"].as_f64().unwrap());
        assert!(
            orc.is_finite() && none.is_finite() && orc > 0.0 && orc <= none,
            "L(M_orc) {orc}, no cache {none}"
        );
    }
    assert_eq!(csc_engine::experiment::run::runner::no_cache_loss(&[1.0, 2.0, 6.0]), 3.0);
    assert_eq!(csc_engine::experiment::run::runner::no_cache_loss(&[]), 0.0);
}

/// `spec` at tiny settings (2 seeds, n_eval = 200) run unit by unit on synthetic, and its report.
fn tiny_synthetic(spec: &mut csc_engine::experiment::ExperimentSpec) -> Report {
    spec.seeds = 2;
    spec.params.n_eval = 200;
    let d = Arc::new(csc_engine::dataset::synthetic::universe(spec.params.c_floor).unwrap());
    let units: Vec<_> = spec.units().iter().map(|u| run_unit(spec, u, &d, &mut |_| true).unwrap()).collect();
    Report::new(spec, units)
}

/// Seed `seed`'s points `(x, y)` of the observations `keep` picks (one per sweep value, 3),
/// fitted on log-log.
fn seed_fit(
    report: &Report,
    seed: u64,
    keep: impl Fn(&csc_engine::experiment::Observation) -> Option<(f64, f64)>,
) -> Option<csc_engine::experiment::theory::fit::LogLogFit> {
    let pts: Vec<(f64, f64)> = report
        .units
        .iter()
        .filter(|u| u.unit.seed == seed)
        .flat_map(|u| u.observations.iter())
        .filter_map(keep)
        .collect();
    assert_eq!(pts.len(), 3);
    csc_engine::experiment::theory::loglog_fit(&pts)
}

/// `thy-horizon` at tiny settings (T = 100, 200, 400; 2 seeds): every run's checks over the 2
/// seeds, and Reg(T) = T·R(T)/T fitted against T per seed, the interval over the seeds — the slope
/// recomputed here from the units' own final average regrets.
#[test]
fn thy_horizon_fits_final_regret_against_the_horizon() {
    let mut spec = csc_engine::experiment::quick_spec("thy-horizon").unwrap();
    assert_eq!(spec.seeds, 3);
    spec.sweep =
        Some(csc_engine::experiment::Sweep::new("horizon", vec![100.into(), 200.into(), 400.into()]));
    let report = tiny_synthetic(&mut spec);
    let th = report.theory.as_ref().expect("an online report has its theory checks");
    assert_eq!(th.runs.len(), 3, "one group per horizon");
    for r in &th.runs {
        assert_eq!(r.policy, "clcb-sc-ls-cont");
        let q: Vec<_> = r.checks.iter().map(|c| c.quantity).collect();
        assert_eq!(q, csc_engine::experiment::theory::Quantity::RUN);
        assert!(r.checks.iter().all(|c| c.over == "seeds" && c.n == 2), "{:?}", r.checks);
        assert_eq!(r.checks[0].to, r.x);
        // Theorem 5.1's terms at T (up to constants), over both seeds: the discretisation term
        // is (1 + 2·1)·L_g·√T exactly; Reg(T) is the seeds' mean T·R(T)/T.
        let b = r.bound.as_ref().expect("CLCB-SC-LS-Cont measures the bound terms");
        assert_eq!(b.n, 2);
        let d = b.discretisation.unwrap();
        assert!((d - 3.0 * spec.params.lipschitz * r.x.sqrt()).abs() < 1e-9 * d, "{b:?}");
        assert!(b.cost.unwrap() > 0.0 && b.arrival.unwrap() > 0.0 && b.switching.unwrap() > 0.0, "{b:?}");
        let terms = [b.cost, b.arrival, b.discretisation, b.switching].map(Option::unwrap);
        let top = csc_engine::experiment::theory::report::BOUND_TERMS
            [(0..4).max_by(|&i, &j| terms[i].total_cmp(&terms[j])).unwrap()];
        assert_eq!(b.largest, top);
        let reg: Vec<f64> = report
            .units
            .iter()
            .flat_map(|u| u.observations.iter())
            .filter(|o| o.metric == "final_avg_regret" && o.x == r.x)
            .map(|o| o.x * o.value)
            .collect();
        assert_eq!(reg.len(), 2);
        assert!((b.regret - (reg[0] + reg[1]) / 2.0).abs() < 1e-9 * b.regret.abs().max(1.0));
    }
    assert!(
        report.summary().contains("Theorem 5.1's four terms at T, up to constants"),
        "{}",
        report.summary()
    );
    assert_eq!(th.horizons.len(), 1);
    let h = &th.horizons[0];
    assert_eq!(
        (h.check.quantity, h.check.n, h.check.over.as_str()),
        (csc_engine::experiment::theory::Quantity::Horizon, 2, "seeds")
    );
    assert_eq!((h.check.from, h.check.to), (100.0, 400.0));
    let per_seed: Vec<f64> = [0u64, 1]
        .iter()
        .map(|&seed| {
            seed_fit(&report, seed, |o| (o.metric == "final_avg_regret").then_some((o.x, o.x * o.value)))
                .unwrap()
                .slope
        })
        .collect();
    let mean = (per_seed[0] + per_seed[1]) / 2.0;
    assert!((h.check.slope.mean - mean).abs() < 1e-12, "{} vs {mean}", h.check.slope.mean);
    assert_eq!(h.points.len(), 2);
    assert!(report.summary().contains("Reg(T) across horizons"), "{}", report.summary());
    // The report reads back with its theory section.
    let back: Report = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(back.theory.as_ref().map(|t| t.horizons.len()), Some(1));
}

/// Theorem 4.1: fig. 2(a) at tiny settings (n = 100, 200, 400; 2 seeds): each offline algorithm's
/// gap against n, fitted per seed on log-log, the interval over the seeds — the slopes recomputed
/// here from the units' own gaps; the verdict is [`judge`]'s on that interval.
///
/// [`judge`]: csc_engine::experiment::theory::judge
#[test]
fn fig_a_fits_the_offline_gap_against_n() {
    use csc_engine::experiment::theory::{judge, Quantity};
    let mut spec = csc_engine::experiment::quick_spec("fig-a").unwrap();
    spec.sweep =
        Some(csc_engine::experiment::Sweep::new("log_len", vec![100.into(), 200.into(), 400.into()]));
    let report = tiny_synthetic(&mut spec);
    let th = report.theory.as_ref().expect("an offline sweep of n has the gap's check");
    assert!(th.runs.is_empty() && th.horizons.is_empty());
    // Every algorithm but the Oracle, the reference itself (gap 0 by construction).
    assert_eq!(th.offline.len(), csc_engine::algorithms::OfflineKind::ALL.len() - 1);
    assert!(th.offline.iter().all(|o| o.policy != "oracle"));
    for o in &th.offline {
        assert_eq!((o.check.quantity, o.check.reference.as_str()), (Quantity::Gap, "Theorem 4.1"));
        assert_eq!((o.check.from, o.check.to), (100.0, 400.0));
        let slopes: Vec<Option<f64>> = [0u64, 1]
            .iter()
            .map(|&seed| {
                let gap = |o2: &csc_engine::experiment::Observation| {
                    (o2.metric == "gap" && o2.algorithm == o.policy).then_some((o2.x, o2.value))
                };
                seed_fit(&report, seed, gap).map(|f| f.slope)
            })
            .collect();
        if let [Some(a), Some(b)] = slopes[..] {
            assert!((o.check.slope.mean - (a + b) / 2.0).abs() < 1e-12, "{:?}", o.check);
        } else {
            assert!(o.check.slope.mean.is_nan(), "a seed without a fit leaves it undecided");
        }
        assert_eq!(o.check.verdict, judge(Quantity::Gap, &o.check.slope, false));
        assert_eq!(o.check.words, o.check.verdict.words_for(Quantity::Gap));
    }
    assert!(report.summary().contains("offline gap against n"), "{}", report.summary());
    let back: Report = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    let json = |r: &Report| serde_json::to_string(&r.theory).unwrap();
    assert_eq!(json(&back), json(&report), "the report reads back with its offline checks");
}
