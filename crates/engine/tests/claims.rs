//! The paper's empirical claims, checked over fixed seeds (deterministic; never timing).
//! Each test names the claim it checks and the settings under which it is checked.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::dataset::synthetic;
use csc_engine::experiment::{run_unit, DatasetId, ExperimentSpec, Measure, Report};
use csc_engine::online::PolicyKind;
use std::sync::Arc;

fn run(spec: &ExperimentSpec) -> Report {
    let d = Arc::new(synthetic::universe(spec.params.c_floor).unwrap());
    let units = spec.units().iter().map(|u| run_unit(spec, u, &d, &mut |_| true).unwrap()).collect();
    Report::new(spec, units)
}

/// The mean of `metric` for `alg` at the recorded x nearest to `x`.
fn mean(r: &Report, alg: &str, metric: &str, x: f64) -> f64 {
    r.stats
        .iter()
        .filter(|s| s.algorithm == alg && s.metric == metric)
        .min_by(|a, b| (a.x - x).abs().total_cmp(&(b.x - x).abs()))
        .unwrap_or_else(|| panic!("{alg} {metric} {x}"))
        .mean
}

fn online_synthetic() -> Report {
    let spec = ExperimentSpec {
        id: "claims-online".into(),
        title: String::new(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Online {
            policies: vec![PolicyKind::ClcbScLsCont, PolicyKind::Greedy, PolicyKind::Lfu],
        },
        sweep: None,
        params: Params { horizon: 1500, n_eval: 1000, ..Params::default() },
        seeds: 8,
        first_seed: 100,
    };
    run(&spec)
}

/// Paper §6 (online, synthetic): CLCB-SC-LS-Cont reaches a lower final average regret than
/// Greedy and LFU. Checked at the SPEC defaults (β = 1), T = 1,500, 8 seeds.
#[test]
fn clcb_sc_ls_cont_beats_greedy_and_lfu_and_its_regret_falls_with_t() {
    let r = online_synthetic();
    let t = 1500.0;
    let cont = mean(&r, "clcb-sc-ls-cont", "final_avg_regret", t);
    let greedy = mean(&r, "greedy", "final_avg_regret", t);
    let lfu = mean(&r, "lfu", "final_avg_regret", t);
    println!("final average regret over 8 seeds: Cont {cont:.5}, Greedy {greedy:.5}, LFU {lfu:.5}");
    assert!(cont < greedy, "Cont {cont} vs Greedy {greedy}");
    assert!(cont < lfu, "Cont {cont} vs LFU {lfu}");
    // Theorem 2 (Reg(T) = Õ(√T)): the average regret Reg(t)/t decreases along the run.
    let curve: Vec<f64> =
        [300.0, 750.0, 1500.0].iter().map(|&x| mean(&r, "clcb-sc-ls-cont", "avg_regret", x)).collect();
    println!("CLCB-SC-LS-Cont average regret at t = 300, 750, 1500: {curve:?}");
    assert!(curve[0] > curve[1] && curve[1] > curve[2], "{curve:?}");
}

/// Paper §6 (offline) claims CUCB-SC-Cont's gap is 73.32% below CUCB-SC's at stream length 100.
/// SPEC §13 measured instead that at the theoretical offline width the pessimistic costs
/// saturate (`c̄ ≥ 1` at every center, above φ's cap), so both degenerate to the same weighted
/// k-median. This pins that behaviour on 12 seeds at stream length 100: identical caches and
/// gaps, every believed cost ≥ 1. (At tuned widths the two stay within noise of each other on
/// this data — docs/REPRODUCTION.md reports the sweep; the paper's claim does not reproduce.)
#[test]
fn offline_theoretical_width_saturates_and_cucb_variants_coincide() {
    let spec = ExperimentSpec {
        id: "claims-offline".into(),
        title: String::new(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline {
            algorithms: vec![
                csc_engine::offline::OfflineKind::CucbScCont,
                csc_engine::offline::OfflineKind::CucbSc,
            ],
        },
        sweep: None,
        params: Params { horizon: 1, log_len: 100, n_eval: 1000, ..Params::default() },
        seeds: 12,
        first_seed: 0,
    };
    let r = run(&spec);
    for u in &r.units {
        let cont = &u.detail["cucb-sc-cont"];
        let sc = &u.detail["cucb-sc"];
        assert_eq!(cont["cache"], sc["cache"], "seed {}", u.unit.seed);
        assert!(cont["believed_costs"].as_array().unwrap().iter().all(|c| c.as_f64().unwrap() >= 1.0));
    }
    let x = f64::NAN;
    let gaps: Vec<f64> = ["cucb-sc-cont", "cucb-sc"]
        .iter()
        .map(|a| r.stats.iter().find(|s| s.algorithm == *a && s.metric == "gap").map(|s| s.mean).unwrap_or(x))
        .collect();
    println!(
        "stream length 100, theoretical widths: gap CUCB-SC-Cont {:.5}, CUCB-SC {:.5}",
        gaps[0], gaps[1]
    );
    assert_eq!(gaps[0], gaps[1]);
}

/// Every claim of every figure's record (crates/engine/src/experiment/headline/claims.rs) names its
/// algorithms by the enums of the engine's list, and each of them runs in the figure's full
/// definition (an online claim on a policy of the online measure, an offline claim on an
/// algorithm of the offline one), so a claim can never name an algorithm its figure does not run.
#[test]
fn every_claim_names_algorithms_its_figure_runs() {
    use csc_engine::experiment::headline::Series;
    use csc_engine::experiment::{builtin, headline::claims::Widths, paper_presets};
    for p in paper_presets() {
        let spec = builtin(p.id).unwrap();
        let widths = if p.tuned.is_some() {
            vec![Widths::Theoretical, Widths::Tuned]
        } else {
            vec![Widths::Theoretical]
        };
        for w in widths {
            let claims = (p.claims)(w);
            assert!(!claims.is_empty(), "{}", p.id);
            for c in claims {
                for s in c.comparison.series() {
                    let runs = match (&spec.measure, s) {
                        (Measure::Online { policies }, Series::Policy(k)) => policies.contains(&k),
                        (Measure::Offline { algorithms }, Series::Offline(k)) => algorithms.contains(&k),
                        (Measure::Geometry { .. }, Series::Named(n)) => ["stream", "universe"].contains(&n),
                        _ => false,
                    };
                    assert!(
                        runs,
                        "{}: claim `{}` names {s:?}, which its definition does not run",
                        p.id, c.what
                    );
                }
            }
        }
    }
}
