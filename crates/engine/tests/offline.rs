//! Offline algorithms (SPEC §8, Alg. 2) on a hand-checkable instance.
//!
//! Three exact points (0,0), (1,0), (0,1) (`D = √2`, ζ = 1, so φ between c0 and the others is
//! 1/√2 ≈ 0.707 and between c1 and c2 it is 1) with costs 0.1, 0.5, 0.9; the log cycles through
//! them 10 times, every cost observed without noise; `E` = one of each; k = 1.
//! L({c2}) = (0.1 + 0.5 + 0)/3 = 0.2 is the oracle; L({c0}) = (0 + 0.5 + 0.707)/3.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::offline::{OfflineKind, OfflineProblem};
use csc_engine::space::Points;
use csc_engine::trace::{Queries, Trace};

const COST: [f64; 3] = [0.1, 0.5, 0.9];

fn problem(beta_off: f64) -> OfflineProblem {
    let n = 30;
    let idx: Vec<u32> = (0..n as u32).map(|t| t % 3).collect();
    let trace = Trace {
        dist_scale: 2f64.sqrt(),
        universe: Some(Points::from_rows(&[[0.0f32, 0.0], [1.0, 0.0], [0.0, 1.0]]).unwrap()),
        universe_cost: Some(COST.to_vec()),
        cost: idx.iter().map(|&i| COST[i as usize]).collect(),
        arrivals: Queries::Indices(idx),
        eta: vec![0.0; n],
        z: vec![true; n],
        eval: Queries::Indices(vec![0, 1, 2]),
        eval_cost: COST.to_vec(),
        offline: None,
        meta: serde_json::Value::Null,
        labels: Default::default(),
        tenants: None,
    };
    let p = Params { k: 1, epsilon: 0.1, horizon: n, log_len: n, beta_off, ..Params::default() };
    OfflineProblem::from_trace(&trace, &p.clone().check().unwrap()).unwrap()
}

#[test]
fn cells_weights_and_oracle_by_hand() {
    let p = problem(1.0);
    assert_eq!(p.m(), 3);
    assert_eq!(p.weights, vec![1.0 / 3.0; 3]);
    assert_eq!(p.observed.len(), 30);
    assert!((p.oracle.loss - 0.2).abs() < 1e-12);
    let (means, n) = p.cell_means();
    assert_eq!(n, vec![10, 10, 10]);
    assert!(means.iter().zip(COST).all(|(a, b)| (a - b).abs() < 1e-12));
}

/// Alg. 2 at the theoretical width: KRR with ridge ℓλ = 3 gives at each center
/// ĉ = 10/13·c, σ² = 3/13, width factor 1 + √(ln(120)/3) = 2.261, so c̄ = 10c/13 + 1.086 ≥ 1:
/// pessimism saturates (SPEC §13). CUCB-SC's Hoeffding width √(ln(3600)/20) = 0.640 gives
/// c̄ = c + 0.640, saturated except at c0. Either way min(c̄, φ) = φ, so Reverse Greedy sees pure
/// geometry: all three first removals cost 0.707/3 (a tie: the lowest index, c0, goes), then c1
/// and c2 tie at 1.707/3 (c1 goes): the cache is {c2} — the oracle, by the tie rule — although
/// {c0} has the lower L̂ (1.414/3) under those costs: Reverse Greedy is an approximation (α̂ > 1).
#[test]
fn saturated_pessimism_reduces_to_geometry_and_reverse_greedy_ties() {
    use csc_engine::reverse_greedy::{exact_optimum, reverse_greedy, Instance};
    let p = problem(1.0);
    let c = p.pessimistic_kernel_costs().unwrap();
    let width = 1.0 + ((2.0 * 3.0 / 0.05f64).ln() / 3.0).sqrt();
    for (i, &ci) in c.iter().enumerate() {
        let want = 10.0 / 13.0 * COST[i] + width * (3.0f64 / 13.0).sqrt();
        assert!((ci - want).abs() < 2e-3, "center {i}: {ci} vs {want}");
    }
    let sc = p.pessimistic_cell_costs();
    let h = ((2.0 * 3.0 * 30.0 / 0.05f64).ln() / 20.0).sqrt();
    assert!(sc.iter().zip(COST).all(|(a, b)| (a - (b + h)).abs() < 1e-12));
    for (kind, costs) in [(OfflineKind::CucbScCont, &c), (OfflineKind::CucbSc, &sc)] {
        let r = p.run(kind).unwrap();
        assert_eq!(r.cache, vec![2], "{kind:?}");
        assert!(r.gap.abs() < 1e-12);
        let inst = Instance::new(p.net.center_distances(), &p.weights, costs, p.params.mismatch()).unwrap();
        let rg = reverse_greedy(&inst, 1, &[]);
        assert_eq!(rg.removed, vec![0, 1]);
        let opt = exact_optimum(&inst, 1).unwrap();
        assert_eq!(opt.cache, vec![0]);
        assert!(
            (rg.loss - (1.0 + 0.5f64.sqrt()) / 3.0).abs() < 1e-9
                && (opt.loss - 2.0 * 0.5f64.sqrt() / 3.0).abs() < 1e-9
        );
    }
    let g = p.run(OfflineKind::Greedy).unwrap();
    assert_eq!(g.cache, vec![2], "Greedy: top ŵ·ĉ");
    let lfu = p.run(OfflineKind::Lfu).unwrap();
    assert_eq!(lfu.cache, vec![0], "LFU: equal counts, lowest index");
    assert!((lfu.gap - (0.5 + 0.5f64.sqrt() - 0.6) / 3.0).abs() < 1e-6);
    assert_eq!(p.run(OfflineKind::Oracle).unwrap().gap, 0.0);
}

/// With the width scaled to 0 (SPEC §13's tuned regime) CUCB-SC-Cont ranks by the shrunk KRR
/// means 10c/13 and finds the oracle's c2.
#[test]
fn unscaled_means_find_the_oracle() {
    let r = problem(0.0).run(OfflineKind::CucbScCont).unwrap();
    assert_eq!(r.cache, vec![2]);
    assert!(r.gap.abs() < 1e-12);
}
