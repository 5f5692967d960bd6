//! The frontier experiment: its definition, units and parameters, validation, and a small run
//! through the runner to the table and the chart data.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::{Eviction, GPTCACHE_COSINE};
use csc_engine::dataset::{plane, synthetic};
use csc_engine::experiment::frontier::{default_reference, frontier_title, Difference, SYNTHETIC_FRONTIER_K};
use csc_engine::experiment::run::runner::check_ground_truth;
use csc_engine::experiment::{
    builtin, frontier_definition, frontier_quick, run_unit, DatasetId, DatasetSpec, ExperimentSpec, Measure,
    Report,
};
use csc_engine::online::PolicyKind;
use std::sync::Arc;

#[test]
fn the_builtin_frontier_lists_every_family_point_by_seed() {
    let spec = builtin("frontier").unwrap();
    spec.validate().unwrap();
    let Measure::Frontier { families } = &spec.measure else { panic!("not a frontier") };
    let points: usize = families.iter().map(|f| f.points()).sum();
    assert_eq!(points, 7 + 1 + 6 + 4 + 4 + 7);
    assert_eq!(spec.points(), points);
    assert_eq!(spec.units().len(), points * spec.seeds);
    let units = spec.units();
    // Point 7 is the GPTCache preset, 8–13 vCache's δ, 14–17 CLCB-SC-LS-Cont's β; 21 is LRU.
    let at = |point: usize| units.iter().find(|u| u.point == point && u.seed == 1).unwrap();
    let p = spec.unit_params(at(7)).unwrap();
    assert_eq!((p.threshold_cosine, p.seed, p.k), (Some(GPTCACHE_COSINE), 1, 50));
    assert_eq!(spec.family_of(7).unwrap().0.name(), "Threshold (GPTCache)");
    assert_eq!(spec.unit_params(at(9)).unwrap().vcache_delta, 0.01);
    assert_eq!(spec.family_of(9).unwrap().0.policy, PolicyKind::VCache);
    assert_eq!(spec.unit_params(at(17)).unwrap().beta, 1.0);
    assert_eq!(spec.family_of(21).unwrap().0.policy, PolicyKind::Lru);
    // 22–28: the threshold cache evicting by GDSF over the same τ; GPTCache's keeps LRU.
    let g = spec.unit_params(at(24)).unwrap();
    assert_eq!((g.eviction, g.threshold_tau, g.threshold_cosine), (Eviction::Gdsf, 0.2, None));
    assert_eq!(spec.family_of(24).unwrap().0.name(), "Threshold (GDSF)");
    assert_eq!(p.eviction, Eviction::Lru);
    assert!(spec.family_of(29).is_none());
    // The JSON form reads back to the same definition.
    let back = ExperimentSpec::from_json(&serde_json::to_string(&spec).unwrap()).unwrap();
    assert_eq!(back, spec);
}

fn mini(families: &str) -> String {
    format!(
        r#"{{"id": "mini-frontier", "dataset": "synthetic", "measure": {{"kind": "frontier", "families": {families}}},
            "params": {{"horizon": 80, "n_eval": 60, "k": 4}}, "seeds": 2}}"#
    )
}

#[test]
fn invalid_frontiers_are_refused_with_the_fix() {
    let e = |f: &str| ExperimentSpec::from_json(&mini(f)).unwrap_err().to_string();
    assert!(e("[]").contains("name at least one"));
    let two = r#"[{"policy": "greedy"}, {"policy": "greedy"}]"#;
    assert!(e(two).contains("two families are named `Greedy`; give one a `label`"), "{}", e(two));
    let bare = r#"[{"policy": "threshold", "values": [0.1]}]"#;
    assert!(e(bare).contains("values need a `param`"), "{}", e(bare));
    let empty = r#"[{"policy": "threshold", "param": "threshold_tau"}]"#;
    assert!(e(empty).contains("give at least one value"), "{}", e(empty));
    let bad = r#"[{"policy": "vcache", "param": "vcache_delta", "values": [1.5]}]"#;
    assert!(e(bad).contains("vcache_delta"), "{}", e(bad));
    let swept = mini(r#"[{"policy": "greedy"}]"#)
        .replace(r#""seeds": 2"#, r#""seeds": 2, "sweep": {"param": "k", "values": [3]}"#);
    let err = ExperimentSpec::from_json(&swept).unwrap_err().to_string();
    assert!(err.contains("a frontier has no sweep"), "{err}");
}

#[test]
fn a_small_frontier_runs_to_its_table_and_chart_data() {
    let families = r#"[
        {"policy": "threshold", "param": "threshold_tau", "values": [0.1, 0.3]},
        {"policy": "threshold", "label": "Threshold (GPTCache)", "set": {"threshold_cosine": 0.6}},
        {"policy": "vcache", "param": "vcache_delta", "values": [0.05, 0.2]},
        {"policy": "greedy"}
    ]"#;
    let spec = ExperimentSpec::from_json(&mini(families)).unwrap();
    let d = Arc::new(synthetic::universe(spec.params.c_floor).unwrap());
    let units: Vec<_> = spec.units().iter().map(|u| run_unit(&spec, u, &d, &mut |_| true).unwrap()).collect();
    assert_eq!(units.len(), 6 * 2);
    let report = Report::new(&spec, units);
    // Every statistic is keyed by its policy's id (a labelled family: `id:label`), the GPTCache
    // point under the threshold's; display names only in the table.
    let keys = ["threshold", "threshold:threshold-gptcache", "vcache", "greedy"];
    assert!(report.stats.iter().all(|s| keys.contains(&s.algorithm.as_str())), "an unkeyed statistic");
    let gpt = report.stats.iter().find(|s| s.algorithm == "threshold:threshold-gptcache").unwrap();
    assert!(gpt.x.is_nan());
    let csv = report.frontier_csv().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 6, "{csv}");
    assert!(lines[0].starts_with(
        "algorithm,algorithm_id,param,x,n,final_avg_realised_cost,final_avg_realised_cost_ci95"
    ));
    assert!(lines[1].starts_with("threshold,threshold,threshold_tau,0.1,2,"), "{}", lines[1]);
    assert!(lines[3].starts_with("threshold:threshold-gptcache,threshold,,,2,"), "{}", lines[3]);
    assert!(lines[5].starts_with("vcache,vcache,vcache_delta,0.2,2,"), "{}", lines[5]);
    // Synthetic data has ground truth: every point has its error rate, with an interval.
    for p in report.frontier_points() {
        let err = p.stats[1].expect("error rate measured");
        assert!(err.mean >= 0.0 && err.mean <= 1.0 && err.ci95.is_finite(), "{}", p.family.name());
    }
    let table = report.summary();
    assert!(table.contains("Threshold (GPTCache)") && table.contains("vcache_delta=0.05"), "{table}");
    assert!(table.contains("Reference: Threshold (GPTCache).") && table.contains("paired"), "{table}");
    // The table's columns: as wide as their widest cell, so every row has the header's length
    // and each column starts where the header's does (no cell runs into the next).
    let table_rows: Vec<&str> =
        table.lines().skip_while(|l| !l.starts_with("algorithm")).take_while(|l| !l.is_empty()).collect();
    assert_eq!(table_rows.len(), 1 + report.frontier_points().len(), "{table}");
    let width = table_rows[0].chars().count();
    assert!(table_rows.iter().all(|l| l.chars().count() == width), "{table}");
    // every cell is the engine's words: clipped intervals (Interval::words), signed differences
    let cmp_row =
        |point: usize| report.frontier.as_ref().unwrap().rows.iter().find(|r| r.point == point).cloned();
    let vc = cmp_row(3).unwrap();
    let d = vc.cost.as_ref().unwrap();
    let said = format!("{} {}", csc_engine::experiment::format_difference(d.mean, d.ci95), d.words);
    assert!(
        table_rows.iter().any(|l| l.contains("vcache_delta=0.05") && l.contains(&said)),
        "{said}\n{table}"
    );

    // Paired differences against the default reference, GPTCache's preset (point 2), by hand from
    // the units: vCache at δ = 0.05 is point 3, on seeds 0 and 1.
    assert_eq!(default_reference(&spec), 2);
    let cmp = report.frontier.as_ref().expect("a frontier report carries its comparison");
    assert_eq!((cmp.reference, cmp.reference_config.as_str()), (2, "Threshold (GPTCache)"));
    let value = |point: usize, seed: u64, m: &str| {
        let u = report.units.iter().find(|u| u.unit.point == point && u.unit.seed == seed).unwrap();
        u.observations.iter().find(|o| o.metric == m).unwrap().value
    };
    for (m, paired) in [("final_avg_realised_cost", 0), ("final_error_rate", 1)] {
        let d: Vec<f64> = (0..2).map(|s| value(3, s, m) - value(2, s, m)).collect();
        let mean = (d[0] + d[1]) / 2.0;
        // n = 2: sd = |d0 − d1|/√2, half-width t_{0.975,1}·sd/√2 = 12.706204736174705·|d0 − d1|/2
        // (one degree of freedom is Cauchy: t_{0.975,1} = tan(0.475π) = cot(π/40)).
        let ci = 12.706_204_736_174_705 * (d[0] - d[1]).abs() / 2.0;
        let row = cmp.rows.iter().find(|r| r.point == 3).unwrap();
        let p = if paired == 0 { row.cost.as_ref() } else { row.error.as_ref() }.unwrap();
        assert_eq!(p.n, 2);
        assert!((p.mean - mean).abs() < 1e-15 && (p.ci95 - ci).abs() < 1e-12, "{m}: {p:?} vs {mean} ± {ci}");
        let words = if d[0] == 0.0 && d[1] == 0.0 {
            "identical on every seed"
        } else if mean + ci < 0.0 {
            if paired == 0 {
                "cheaper"
            } else {
                "fewer wrong answers"
            }
        } else if mean - ci > 0.0 {
            if paired == 0 {
                "dearer"
            } else {
                "more wrong answers"
            }
        } else {
            "not distinguishable"
        };
        assert_eq!(p.words, words, "{m}");
    }
    let own = cmp.rows.iter().find(|r| r.point == 2).unwrap();
    assert_eq!(own.cost.as_ref().unwrap().difference, Difference::Reference);
    // Every drawn interval of a [0, 1] quantity stays in it; the CSV carries the same numbers.
    for r in &cmp.rows {
        for i in r.intervals[1..3].iter().flatten() {
            assert!(i.lo >= 0.0 && i.hi <= 1.0, "{}: [{}, {}]", r.config, i.lo, i.hi);
        }
    }
    let head: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[4].split(',').collect(); // vCache δ = 0.05 (lines: header, τ 0.1, 0.3, GPTCache, δ 0.05)
    let col = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
    let v = cmp.rows.iter().find(|r| r.point == 3).unwrap();
    assert_eq!(col("reference_point"), "2");
    assert_eq!(col("cost_vs_reference"), v.cost.as_ref().unwrap().mean.to_string());
    assert_eq!(col("error_verdict"), v.error.as_ref().unwrap().words);
    assert_eq!(col("final_error_rate_lo"), v.intervals[1].as_ref().unwrap().lo.to_string());
    // Another reference, the engine's comparison against it.
    let other = report.frontier_comparison(5).unwrap();
    assert_eq!(other.reference_config, "Greedy");
    assert!(report.frontier_comparison(6).is_none(), "no point 6");
    // Not a frontier: no frontier CSV.
    assert!(builtin("fig-c").map(|s| Report::new(&s, Vec::new()).frontier_csv()).unwrap().is_none());

    // P-CHR, by hand from the units: each point's hit precision per seed is 1 − error rate/hit
    // rate; each swept family's AUC over the common range is the mean over seeds of the trapezoids
    // under its seed's points.
    let pchr = report.pchr.as_ref().expect("a frontier with ground truth carries its P-CHR");
    let json = |p: &csc_engine::experiment::frontier::pchr::Pchr| serde_json::to_string(p).unwrap();
    assert_eq!(json(pchr), json(&report.pchr().unwrap()));
    assert_eq!(pchr.families.len(), 4);
    let prec = |point: usize, seed: u64| {
        let (h, e) = (value(point, seed, "final_hit_rate"), value(point, seed, "final_error_rate"));
        (h > 0.0).then(|| (h, 1.0 - e / h))
    };
    for f in &pchr.families {
        for p in &f.points {
            let ys: Vec<f64> = (0..2).filter_map(|s| prec(p.point, s)).map(|v| v.1).collect();
            assert_eq!(p.precision.n, ys.len(), "{}", f.name);
            if !ys.is_empty() {
                let mean = ys.iter().sum::<f64>() / ys.len() as f64;
                assert!(
                    (p.precision.mean - mean).abs() < 1e-15,
                    "{}: {} vs {mean}",
                    f.name,
                    p.precision.mean
                );
            }
        }
        assert_eq!(f.param.is_none(), f.auc.is_none() && f.note.is_none(), "{}: {:?}", f.name, f.note);
    }
    if let Some([lo, hi]) = pchr.range {
        for f in pchr.families.iter().filter(|f| f.auc.is_some()) {
            let areas: Vec<f64> = (0..2)
                .map(|s| {
                    let mut c: Vec<(f64, f64)> = f.points.iter().filter_map(|p| prec(p.point, s)).collect();
                    c.sort_by(|a, b| a.0.total_cmp(&b.0));
                    let mut area = 0.0;
                    for w in c.windows(2) {
                        let (a, b) = (w[0].0.max(lo), w[1].0.min(hi));
                        if b > a {
                            let y = |x: f64| w[0].1 + (w[1].1 - w[0].1) * (x - w[0].0) / (w[1].0 - w[0].0);
                            area += (b - a) * (y(a) + y(b)) / 2.0;
                        }
                    }
                    area
                })
                .collect();
            let auc = f.auc.unwrap();
            assert!(
                (auc.mean - (areas[0] + areas[1]) / 2.0).abs() < 1e-15,
                "{}: {auc:?} vs {areas:?}",
                f.name
            );
            // Two seeds: t_{0.975,1}·|a0 − a1|/2 with t_{0.975,1} = cot(π/40), as above.
            let half = 12.706_204_736_174_705 * (areas[0] - areas[1]).abs() / 2.0;
            assert!((auc.half() - half).abs() < 1e-12, "{}", f.name);
        }
    }
    let pcsv = report.pchr_csv().unwrap();
    assert!(pcsv.starts_with("family,algorithm_id,param,x,point,hit_ratio_n,hit_ratio,"), "{pcsv}");
    assert_eq!(pcsv.lines().count(), 1 + 6, "{pcsv}");
    assert!(builtin("fig-c").map(|s| Report::new(&s, Vec::new()).pchr()).unwrap().is_none());
}

#[test]
fn a_frontier_on_data_without_ground_truth_is_refused_with_the_reason() {
    // Whatever its families (vCache, which learns from labels, or Greedy, which does not): its
    // x axis, the error rate, is "—" there (SPEC §14).
    for families in
        [r#"[{"policy": "vcache", "param": "vcache_delta", "values": [0.05]}]"#, r#"[{"policy": "greedy"}]"#]
    {
        let spec = ExperimentSpec::from_json(&mini(families).replace("synthetic", "plane")).unwrap();
        let d = Arc::new(plane::universe().unwrap());
        let e = run_unit(&spec, &spec.units()[0], &d, &mut |_| true).unwrap_err().to_string();
        assert!(e.contains("error rate: — (plane has no ground truth") && e.contains("synthetic"), "{e}");
        assert_eq!(check_ground_truth(&spec, &d).unwrap_err().to_string(), e);
        let s = Arc::new(synthetic::universe(spec.params.c_floor).unwrap());
        assert!(check_ground_truth(&spec, &s).is_ok());
    }
    // Other measures run without ground truth (their correctness metrics are absent).
    let online = builtin("fig-c").unwrap();
    assert!(check_ground_truth(&online, &plane::universe().unwrap()).is_ok());
}

#[test]
fn the_frontier_view_runs_the_engine_quick_definition_on_any_dataset() {
    let full = builtin("frontier").unwrap();
    for dataset in [DatasetId::NqTrivia, DatasetId::Synthetic] {
        let q = frontier_definition(dataset.clone(), 1000).unwrap();
        q.validate().unwrap();
        assert_eq!(q.dataset, dataset);
        // The quick settings (frontier_quick): the view's T with n_eval = T, 3 seeds; every
        // family kept, and k (below synthetic's 50-query universe there).
        let k = if dataset == DatasetId::NqTrivia { 50 } else { SYNTHETIC_FRONTIER_K };
        let universe = synthetic::universe(q.params.c_floor).unwrap().len();
        assert!(SYNTHETIC_FRONTIER_K < universe, "k {SYNTHETIC_FRONTIER_K} vs {universe} queries");
        assert_eq!((q.params.horizon, q.params.n_eval, q.params.k, q.seeds), (1000, 1000, k, 3));
        assert_eq!(q.measure, full.measure);
        assert_eq!(q.units().len(), 29 * 3);
        let name = if dataset == DatasetId::NqTrivia { "nq-trivia" } else { "synthetic" };
        assert_eq!(
            q.title,
            format!("Cost–correctness frontier on {name} (k = {k}, T = 1,000, n_eval = 1,000, 3 seeds)")
        );
        let back = ExperimentSpec::from_json(&serde_json::to_string(&q).unwrap()).unwrap();
        assert_eq!(back, q);
    }
    assert_eq!(frontier_quick().seeds, 3);
    let mine =
        DatasetId::Spec(Box::new(DatasetSpec { jsonl: Some("mine.jsonl".into()), ..Default::default() }));
    assert!(frontier_definition(mine, 1000).unwrap().title.contains("your data (mine.jsonl)"));
}

/// The view's horizon is the run's: T and n_eval follow it, the title says it, and at T = 2,000 on
/// nq-trivia the view runs the `frontier` experiment itself (what `csc run frontier` runs). A
/// horizon the parameter refuses is refused with its message.
#[test]
fn the_frontier_view_follows_its_horizon() {
    let q = frontier_definition(DatasetId::Synthetic, 2500).unwrap();
    assert_eq!((q.params.horizon, q.params.n_eval), (2500, 2500));
    assert!(q.title.contains("T = 2,500, n_eval = 2,500"), "{}", q.title);
    assert_eq!(frontier_definition(DatasetId::NqTrivia, 2000).unwrap(), builtin("frontier").unwrap());
    let e = frontier_definition(DatasetId::NqTrivia, 0).unwrap_err().to_string();
    assert!(e.contains("`horizon`"), "{e}");
}

#[test]
fn a_frontier_whose_cache_holds_the_whole_universe_is_refused_with_one_plain_message() {
    // Synthetic's universe is 50 queries: k = 50 would keep all of them under every policy.
    let s = Arc::new(synthetic::universe(csc_engine::config::Params::default().c_floor).unwrap());
    assert_eq!(s.len(), 50);
    for k in [50, 60] {
        let spec = ExperimentSpec::from_json(
            &mini(r#"[{"policy": "greedy"}, {"policy": "lru"}]"#)
                .replace(r#""k": 4"#, &format!(r#""k": {k}"#)),
        )
        .unwrap();
        let e = check_ground_truth(&spec, &s).unwrap_err().to_string();
        assert!(
            e.contains(&format!("k = {k} holds the whole universe of")) && e.contains("choose k below 50"),
            "{e}"
        );
        assert_eq!(run_unit(&spec, &spec.units()[0], &s, &mut |_| true).unwrap_err().to_string(), e);
    }
    // A family's own k counts too.
    let spec = ExperimentSpec::from_json(&mini(r#"[{"policy": "greedy", "set": {"k": 50}}]"#)).unwrap();
    assert!(check_ground_truth(&spec, &s).unwrap_err().to_string().contains("k = 50"));
    let ok = ExperimentSpec::from_json(&mini(r#"[{"policy": "greedy"}]"#)).unwrap();
    assert!(check_ground_truth(&ok, &s).is_ok());
}

#[test]
fn the_frontier_is_titled_from_its_settings() {
    let mut spec = builtin("frontier").unwrap();
    assert_eq!(
        spec.title,
        "Cost–correctness frontier on nq-trivia (k = 50, T = 2,000, n_eval = 2,000, 3 seeds)"
    );
    spec.params.horizon = 1000;
    spec.seeds = 1;
    spec.retitle_frontier("nq-trivia");
    assert_eq!(spec.title, frontier_title("nq-trivia", &spec.params, 1));
    assert!(spec.title.contains("T = 1,000") && spec.title.ends_with("1 seed)"), "{}", spec.title);
    // Other experiments keep their titles.
    let mut fig = builtin("fig-c").unwrap();
    let before = fig.title.clone();
    fig.retitle_frontier("nq-trivia");
    assert_eq!(fig.title, before);
}
