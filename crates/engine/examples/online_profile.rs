//! Times every online policy on one seeded trace: `cargo run --release --example online_profile
//! -- [synthetic|nq-trivia|plane] [horizon] [seed] [policy ids…]`. For profiling (perf, callgrind).
//!
//! The first line is the ε-net the policies that keep one share (grown once per run; the policies'
//! lines do not include it — `runtime_ms` in experiments does, see `Checkpoint::wall_ms`). Each
//! line gives the wall time and, at the end, the CPU time this thread got (Linux
//! `/proc/thread-self/schedstat`, in ns): on a loaded machine the CPU time is the steadier figure.
// Native only (wall-clock timing, files on disk). `wasm-pack test` builds every example for
// wasm32: there this is an empty program.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]
use csc_engine::config::Params;
use csc_engine::dataset::{nq_trivia, plane, synthetic, Dataset};
use csc_engine::online::sim::{Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, ArrivalModel};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("nq-trivia", String::as_str);
    let horizon: usize = args.get(1).map_or(5000, |s| s.parse().expect("horizon"));
    let seed: u64 = args.get(2).map_or(0, |s| s.parse().expect("seed"));
    let params = Params { horizon, seed, ..Params::default() };
    let params = params.check().expect("params");
    let t_load = Instant::now();
    let dataset: Arc<Dataset> = Arc::new(match name {
        "synthetic" => synthetic::universe(params.c_floor).unwrap(),
        "plane" => plane::universe().unwrap(),
        _ => nq_trivia::load(&nq_trivia::default_dir(), nq_trivia::PER_SOURCE, params.c_floor).unwrap(),
    });
    println!("dataset load {:.0} ms (reading, D, checksum)", t_load.elapsed().as_secs_f64() * 1e3);
    let t0 = Instant::now();
    let trace =
        generate_trace(dataset.clone(), ArrivalModel::default_for(&dataset, &params).unwrap(), &params)
            .unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &params).unwrap());
    println!("{name}: T = {horizon}, seed {seed}; trace + oracle {:.0} ms", t0.elapsed().as_secs_f64() * 1e3);
    let kinds: Vec<PolicyKind> = if args.len() > 3 {
        args[3..].iter().map(|s| PolicyKind::parse(s).expect("policy id")).collect()
    } else {
        csc_engine::experiment::paper_policies()
    };
    // The ε-net the policies that keep one share: grown here over the whole trace, so that its scan
    // is reported once on its own line rather than inside the first such policy.
    let (t0, c0) = (Instant::now(), cpu_ms());
    let mut row = Vec::new();
    let mut centers = 0;
    if kinds.iter().any(PolicyKind::keeps_net) {
        for t in 0..trace.horizon() {
            let a = trace.arrival(t);
            let step = env.shared_net().assign(params.epsilon, env.metric, t, a.x, a.index, &mut row);
            centers += usize::from(step.expect("the shared net grows in order").0.is_new);
        }
    }
    let (mut total, mut total_cpu) = (t0.elapsed().as_secs_f64() * 1e3, cpu_ms() - c0);
    println!("{:<18} {total:>9.1} ms  centers {centers}  cpu {total_cpu:.1} ms", "shared ε-net");
    for k in kinds {
        let (t0, c0) = (Instant::now(), cpu_ms());
        let mut sim = Simulation::new(env.clone(), k, &params, 0).unwrap();
        for t in 0..trace.horizon() {
            sim.step(&trace.arrival(t));
        }
        let r = sim.result();
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let cpu = cpu_ms() - c0;
        total += ms;
        total_cpu += cpu;
        println!(
            "{:<18} {:>9.1} ms  avg regret {:.6}  switches {:>5}  {}  cpu {:.1} ms",
            r.policy, ms, r.last.avg_regret, r.last.switches, r.diagnostics, cpu
        );
    }
    println!("all policies {total:.0} ms  cpu {total_cpu:.0} ms");
}

/// CPU time of this thread so far in ms (NaN where `/proc` does not say).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()))
        .map_or(f64::NAN, |ns| ns / 1e6)
}
