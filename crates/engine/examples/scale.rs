//! One point of the scale curves (docs/PERFORMANCE.md, "Scale"): the set-up of one run (dataset,
//! SPEC §12 trace, evaluation oracle of SPEC §3) and, unless the policy is `setup`, one online
//! policy over the whole trace, in this process alone, so that its peak resident set is that run's.
//! `cargo run --release --example scale -- [synthetic|nq-trivia|plane] horizon seed (policy-id|setup)`;
//! prints one JSON object (`scale policies`: the engine's online policy ids). `scripts/scale.sh`
//! runs one process per (policy, T).
//!
//! Times: wall (`Instant`) and the CPU time this thread got (Linux `/proc/thread-self/schedstat`,
//! ns; the run is single-threaded), for the set-up and for the policy separately. Memory: the
//! kernel's high-water mark of the resident set (`VmHWM` of `/proc/self/status`, what
//! `/usr/bin/time -v` calls "Maximum resident set size") after the set-up and at the end. The
//! policy grows the run's shared ε-net itself (it is the only policy of the run), as a policy run
//! alone does.
// Native only (wall-clock timing, /proc). `wasm-pack test` builds every example for wasm32: there
// this is an empty program.
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
    if args.first().map(String::as_str) == Some("policies") {
        // The engine's list of online policies (`PolicyKind::ALL`), one id a line, for the script.
        PolicyKind::ALL.iter().for_each(|p| println!("{}", p.id()));
        return;
    }
    let usage = "usage: scale policies | scale [synthetic|nq-trivia|plane] horizon seed (policy-id|setup)";
    let [name, horizon, seed, policy] = args.as_slice() else { panic!("{usage}") };
    let horizon: usize = horizon.parse().expect("horizon");
    let seed: u64 = seed.parse().expect("seed");
    let kind = (policy != "setup").then(|| PolicyKind::parse(policy).expect("policy id"));
    let params = Params { horizon, seed, ..Params::default() };
    let params = params.check().expect("params");

    let (t0, c0) = (Instant::now(), cpu_ms());
    let dataset: Arc<Dataset> = Arc::new(match name.as_str() {
        "synthetic" => synthetic::universe(params.c_floor).unwrap(),
        "plane" => plane::universe().unwrap(),
        "nq-trivia" => {
            nq_trivia::load(&nq_trivia::default_dir(), nq_trivia::PER_SOURCE, params.c_floor).unwrap()
        }
        other => panic!("unknown dataset {other}; {usage}"),
    });
    let trace =
        generate_trace(dataset.clone(), ArrivalModel::default_for(&dataset, &params).unwrap(), &params)
            .unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &params).unwrap());
    let (setup_wall, setup_cpu) = (t0.elapsed().as_secs_f64() * 1e3, cpu_ms() - c0);
    let setup_hwm = hwm_kib();

    let mut run = String::from("null");
    if let Some(k) = kind {
        let (t0, c0) = (Instant::now(), cpu_ms());
        let mut sim = Simulation::new(env.clone(), k, &params, 0).unwrap();
        for t in 0..trace.horizon() {
            sim.step(&trace.arrival(t));
        }
        let r = sim.result();
        run = format!(
            r#"{{"wall_ms":{:.1},"cpu_ms":{:.1},"avg_regret":{},"switches":{}}}"#,
            t0.elapsed().as_secs_f64() * 1e3,
            cpu_ms() - c0,
            r.last.avg_regret,
            r.last.switches
        );
    }
    println!(
        r#"{{"dataset":"{name}","horizon":{horizon},"seed":{seed},"policy":"{policy}","setup":{{"wall_ms":{setup_wall:.1},"cpu_ms":{setup_cpu:.1},"hwm_kib":{setup_hwm}}},"run":{run},"hwm_kib":{},"loadavg":"{}"}}"#,
        hwm_kib(),
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
}

/// CPU time of this thread so far in ms (NaN where `/proc` does not say).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()))
        .map_or(f64::NAN, |ns| ns / 1e6)
}

/// The process's peak resident set so far in KiB (`VmHWM`; 0 where `/proc` does not say).
fn hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("VmHWM:").and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
        })
        .unwrap_or(0)
}
