//! The fast evaluation oracle (distinct arrivals, ball-index net, assignment and Reverse Greedy
//! neighbourhoods) against the plain one of SPEC §5/§11.7 step by step, on real streams: the same
//! candidates, the same cache and the same `L(M_orc)` to the bit. nq-trivia reads `../shared/data`
//! (or `$CSC_DATA`): its arrivals and `E` repeat universe queries exactly.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::dataset::{nq_trivia, plane, synthetic, Dataset};
use csc_engine::oracle::{evaluation_oracle, evaluation_oracle_plain, EvalSample, LossTracker};
use csc_engine::space::Points;
use csc_engine::stream::{generate_trace, ArrivalModel};
use std::sync::Arc;

fn check(
    dataset: Dataset,
    horizon: usize,
    n_eval: usize,
    seeds: std::ops::Range<u64>,
    eps: &[f64],
    ks: &[usize],
) {
    let dataset = Arc::new(dataset);
    for seed in seeds {
        let params = Params { horizon, n_eval, seed, ..Params::default() };
        let trace = generate_trace(
            dataset.clone(),
            ArrivalModel::default_for(&dataset, &params).unwrap(),
            &params.clone().check().unwrap(),
        )
        .unwrap();
        let eval = EvalSample::from_trace(&trace, params.mismatch()).unwrap();
        for &eps_o in eps {
            for &k in ks {
                let obs = || (0..trace.horizon()).map(|t| (trace.x(t), trace.cost[t]));
                let fast = evaluation_oracle(obs(), trace.dim(), &eval, eps_o, k).unwrap();
                let plain = evaluation_oracle_plain(obs(), trace.dim(), &eval, eps_o, k).unwrap();
                let what = format!("{} seed {seed} ε_o {eps_o} k {k}", dataset.name);
                assert_eq!(fast.n_candidates, plain.n_candidates, "{what}");
                assert_eq!(fast.keys, plain.keys, "{what}");
                assert_eq!(fast.cache, plain.cache, "{what}");
                assert_eq!(fast.loss.to_bits(), plain.loss.to_bits(), "{what}");
            }
        }
        // The incremental L(M_t) (range queries within each point's reach) against the full
        // computation of eq. 2, along a sequence of caches that keep and drop members.
        let mut tracker = LossTracker::new();
        for (step, size) in [0usize, 1, 3, 5, 5, 8, 2, 5, 12].into_iter().enumerate() {
            let keys: Vec<u64> =
                (0..size).map(|j| ((step * 37 + j * 101) % trace.horizon()) as u64).collect();
            let mut cache = Points::new(trace.dim()).unwrap();
            for &k in &keys {
                cache.push(trace.x(k as usize)).unwrap();
            }
            let got = tracker.loss(&eval, &keys, &cache);
            assert_eq!(
                got.to_bits(),
                eval.loss(&cache).to_bits(),
                "{} seed {seed} step {step}",
                dataset.name
            );
        }
    }
}

#[test]
fn fast_oracle_equals_plain_on_synthetic() {
    check(synthetic::universe(0.01).unwrap(), 1500, 2000, 0..3, &[0.02, 0.1], &[1, 5, 12]);
}

#[test]
fn fast_oracle_equals_plain_on_plane() {
    check(plane::universe().unwrap(), 1500, 2000, 0..3, &[0.02, 0.05], &[5]);
}

#[test]
fn fast_oracle_equals_plain_on_nq_trivia() {
    let dir = nq_trivia::default_dir();
    let d = nq_trivia::load(&dir, nq_trivia::PER_SOURCE, 0.01)
        .unwrap_or_else(|e| panic!("shared data at {}: {e}", dir.display()));
    check(d, 1500, 2000, 0..2, &[0.02, 0.3], &[5]);
}
