//! The worked example of a native external policy (`examples/own_policy.rs`, LRU with a fixed
//! threshold) reproduces the built-in threshold cache round by round, on synthetic and plane data
//! and several seeds and cache sizes.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../examples/own_policy.rs"]
mod own_policy;

use csc_engine::config::{Eviction, Params};
use csc_engine::dataset::{plane, synthetic, Dataset};
use csc_engine::online::external::ExternalRun;
use csc_engine::online::sim::{Checkpoint, Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, ArrivalModel};
use std::sync::Arc;

fn untimed(cps: &[Checkpoint]) -> Vec<Checkpoint> {
    cps.iter().map(|c| Checkpoint { wall_ms: 0.0, ..c.clone() }).collect()
}

#[test]
fn lru_threshold_is_the_threshold_cache_round_by_round() {
    let worlds: Vec<(&str, Arc<Dataset>)> = vec![
        ("synthetic", Arc::new(synthetic::universe(0.1).unwrap())),
        ("plane", Arc::new(plane::universe().unwrap())),
    ];
    let mut hits = 0;
    for (name, dataset) in worlds {
        for (seed, k, tau) in [(0, 5, 0.15), (1, 20, 0.3), (2, 50, 0.05)] {
            let p = Params {
                horizon: 1500,
                seed,
                k,
                threshold_tau: tau,
                eviction: Eviction::Lru,
                ..Params::default()
            };
            let p = p.check().unwrap();
            let model = ArrivalModel::default_for(&dataset, &p).unwrap();
            let trace = generate_trace(dataset.clone(), model, &p).unwrap();
            let env = Arc::new(Environment::from_trace(&trace, &p).unwrap());
            let mine = Box::<own_policy::LruThreshold>::default();
            let mut mine = ExternalRun::new(env.clone(), mine, "lru-threshold", &p, 0).unwrap();
            let mut theirs = Simulation::new(env, PolicyKind::Threshold, &p, 0).unwrap();
            for t in 0..p.horizon {
                let a = trace.arrival(t);
                let m = mine.try_step(&a).unwrap();
                let b = theirs.step(&a);
                assert_eq!(m, b, "{name}, seed {seed}, k {k}: round {t}");
                assert_eq!(
                    mine.simulation().policy().cache().keys(),
                    theirs.policy().cache().keys(),
                    "{name}, seed {seed}: round {t}"
                );
                hits += usize::from(!m.llm);
            }
            let (m, b) = (mine.result(), theirs.result());
            assert_eq!(untimed(&m.checkpoints), untimed(&b.checkpoints), "{name}, seed {seed}");
            assert_eq!(Checkpoint { wall_ms: 0.0, ..m.last }, Checkpoint { wall_ms: 0.0, ..b.last });
        }
    }
    assert!(hits > 100, "the runs must hit often enough to test serving ({hits} hits)");
}
