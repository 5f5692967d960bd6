//! Your own caching policy, natively: one file implementing the engine's
//! [`ExternalPolicy`](csc_engine::online::external::ExternalPolicy), played beside the paper's
//! policies on the same stream, noise and evaluation sample, measured by the same code
//! (docs/USAGE.md, "Your own policy").
//!
//! `LruThreshold` is the threshold cache of production semantic caches written as an outside
//! policy: serve from the nearest member when it is within `τ`, else call the LLM and admit the
//! arrival, evicting the least recently used member when `k` are held. It reproduces the built-in
//! threshold cache (LRU eviction) round by round — `tests/own_policy.rs` checks it.
//!
//! `cargo run --release -p csc-engine --example own_policy -- [horizon] [seed]`
// `wasm-pack test` builds every example for wasm32: there this is an empty program.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::online::external::{Answer, ExternalPolicy, ExternalRound, Setup};

/// The threshold cache with LRU eviction, as an external policy.
#[derive(Default)]
pub struct LruThreshold {
    k: usize,
    tau: f64,
    /// The members' rounds, in admission order (the order the engine shows them back).
    members: Vec<u64>,
    /// Each member's last round of admission or use.
    last_use: Vec<usize>,
    why: String,
}

impl ExternalPolicy for LruThreshold {
    fn start(&mut self, setup: &Setup) -> Result<(), String> {
        (self.k, self.tau) = (setup.k, setup.tau);
        Ok(())
    }

    fn decide(&mut self, r: &ExternalRound) -> Result<Answer, String> {
        // The nearest member, ties to the lowest index.
        let mut near: Option<(usize, f64)> = None;
        for (i, &d) in r.distances.iter().enumerate() {
            if near.is_none_or(|(_, b)| d < b) {
                near = Some((i, d));
            }
        }
        Ok(match near {
            Some((i, d)) if d <= self.tau => {
                self.last_use[i] = r.t;
                self.why = format!("nearest member {} at {d:.3} ≤ τ = {:.3}: a hit", r.members[i], self.tau);
                Answer::Serve(i)
            }
            _ => {
                self.why = format!("no member within τ = {:.3}: call the LLM", self.tau);
                Answer::CallLlm
            }
        })
    }

    fn observe(&mut self, t: usize, _cost: f64) -> Result<Option<Vec<u64>>, String> {
        if self.members.len() >= self.k {
            // The least recently used, ties to the oldest.
            let victim = (0..self.members.len()).min_by_key(|&j| (self.last_use[j], j)).unwrap_or(0);
            self.members.remove(victim);
            self.last_use.remove(victim);
        }
        self.members.push(t as u64);
        self.last_use.push(t);
        Ok(Some(self.members.clone()))
    }

    fn explain(&mut self) -> Option<String> {
        Some(self.why.clone())
    }
}

#[allow(dead_code)]
fn main() {
    use csc_engine::config::Params;
    use csc_engine::dataset::synthetic;
    use csc_engine::online::external::ExternalRun;
    use csc_engine::online::sim::{Environment, Simulation};
    use csc_engine::online::PolicyKind;
    use csc_engine::stream::{generate_trace, ArrivalModel};
    use std::sync::Arc;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let horizon: usize = args.first().map_or(2000, |s| s.parse().expect("horizon"));
    let seed: u64 = args.get(1).map_or(0, |s| s.parse().expect("seed"));
    let params = Params { horizon, seed, ..Params::default() }.check().expect("params");
    let dataset = Arc::new(synthetic::universe(params.c_floor).expect("synthetic data"));
    let model = ArrivalModel::default_for(&dataset, &params).expect("arrival model");
    let trace = generate_trace(dataset, model, &params).expect("trace");
    let env = Arc::new(Environment::from_trace(&trace, &params).expect("environment"));
    let mut mine = ExternalRun::new(env.clone(), Box::<LruThreshold>::default(), "lru-threshold", &params, 0)
        .expect("external run");
    let mut theirs = Simulation::new(env, PolicyKind::Threshold, &params, 0).expect("simulation");
    for t in 0..horizon {
        let a = trace.arrival(t);
        if let Err(e) = mine.try_step(&a) {
            println!("{e}");
            break;
        }
        theirs.step(&a);
    }
    for r in [mine.result(), theirs.result()] {
        let l = &r.last;
        println!(
            "{:<14} regret {:>9.3}  realised {:.4}/round  hit rate {:.3}  switches {}",
            r.policy, l.regret, l.avg_realised_cost, l.hit_rate, l.switches
        );
    }
}
