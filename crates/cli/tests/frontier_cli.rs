//! `csc run frontier`: its title states the run's settings (`--set horizon=…` is not titled
//! "T = 2,000"), and a frontier whose k holds the whole universe is refused with one plain message.
// Native only: it runs the `csc` binary.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc, scratch};

/// `csc run frontier --dataset synthetic --seeds 1 --quiet --threads 1 --out f` with `extra`, in a
/// fresh folder.
fn run_frontier(name: &str, extra: &[&str]) -> (std::path::PathBuf, std::process::Output) {
    let d = scratch("frontier", name);
    let mut args = vec![
        "run",
        "frontier",
        "--dataset",
        "synthetic",
        "--seeds",
        "1",
        "--quiet",
        "--threads",
        "1",
        "--out",
        "f",
    ];
    args.extend_from_slice(extra);
    let out = csc(&args, &d);
    (d, out)
}

#[test]
fn the_frontier_is_titled_from_the_runs_settings() {
    // k = 5, one unit (shard 0 of 22: the first threshold point).
    let sets = ["--set", "k=5", "--set", "horizon=300", "--set", "n_eval=200", "--shard", "0/22"];
    let (d, out) = run_frontier("title", &sets);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(d.join("f/frontier.shard-0-of-22.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        report["experiment"]["title"],
        "Cost–correctness frontier on synthetic (k = 5, T = 300, n_eval = 200, 1 seed)"
    );
}

#[test]
fn a_frontier_whose_k_holds_the_whole_universe_is_refused() {
    let (_, out) = run_frontier("k", &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("k = 50 holds the whole universe of synthetic (50 queries)")
            && err.contains("choose k below 50"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
