//! Heap bytes of a long online run, natively (the memory line of `scripts/bench.sh`): a counting
//! global allocator reports the live heap after each set-up stage and after 10³, 10⁴, 10⁵, 10⁶
//! rounds — the browser's `tests/e2e/long_run.mjs` run (50 prompts with 8-dimensional embeddings,
//! n_eval = 1,000, seed 1, Greedy and LFU), whose wasm memory only shows the high-water mark in
//! 64 KiB pages. `cargo run --release --example bench_memory -- [rounds] [policy ids…]`; prints
//! one JSON object.
// Native only (wall-clock timing, files on disk). `wasm-pack test` builds every example for
// wasm32: there this is an empty program.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]
use csc_engine::config::Params;
use csc_engine::dataset::Dataset;
use csc_engine::online::sim::{Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, ArrivalModel};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new_size) };
        if !q.is_null() {
            if new_size >= l.size() {
                let now = LIVE.fetch_add(new_size - l.size(), Relaxed) + new_size - l.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new_size, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The data of `tests/e2e/long_run.mjs`: 50 prompts, 8-dimensional sine embeddings.
fn long_run_jsonl() -> String {
    (0..50)
        .map(|i| {
            let e: Vec<f64> = (0..8).map(|j| (i as f64 * 0.7 + j as f64 * 1.3).sin()).collect();
            serde_json::json!({ "text": format!("q{i}"), "tokens": 5 + (i % 7), "embedding": e }).to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().map_or(1_000_000, |s| s.parse().expect("rounds"));
    let ids: Vec<String> =
        if args.len() > 1 { args[1..].to_vec() } else { vec!["greedy".into(), "lfu".into()] };
    let params = Params { horizon: rounds, n_eval: 1000, seed: 1, ..Params::default() };
    let params = params.check().expect("params");
    let live = || LIVE.load(Relaxed) as f64;
    let start = live();
    let dataset =
        Arc::new(Dataset::from_jsonl("long-run", long_run_jsonl().as_bytes(), None, params.c_floor).unwrap());
    let after_dataset = live();
    let trace =
        generate_trace(dataset.clone(), ArrivalModel::default_for(&dataset, &params).unwrap(), &params)
            .unwrap();
    let after_trace = live();
    let env = Arc::new(Environment::from_trace(&trace, &params).unwrap());
    let after_env = live();
    let mut sims: Vec<Simulation> = ids
        .iter()
        .map(|id| {
            Simulation::new(env.clone(), PolicyKind::parse(id).expect("policy id"), &params, 0).unwrap()
        })
        .collect();
    let after_sims = live();
    let mut at = serde_json::Map::new();
    let milestones: Vec<usize> =
        [1_000, 10_000, 100_000, 1_000_000].into_iter().filter(|&r| r <= rounds).collect();
    for t in 0..rounds {
        let a = trace.arrival(t);
        for s in &mut sims {
            s.step(&a);
        }
        if milestones.contains(&(t + 1)) {
            at.insert((t + 1).to_string(), live().into());
        }
    }
    let counters: Vec<_> = sims
        .iter_mut()
        .map(|s| serde_json::json!({ "t": s.rounds(), "switches": s.snapshot().switches }))
        .collect();
    println!(
        "{}",
        serde_json::json!({
            "rounds": rounds, "policies": ids, "start": start, "afterDataset": after_dataset,
            "afterTrace": after_trace, "afterEnv": after_env, "afterSims": after_sims, "at": at,
            "peak": PEAK.load(Relaxed), "counters": counters,
        })
    );
}
