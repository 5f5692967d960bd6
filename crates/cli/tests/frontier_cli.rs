//! `csc run frontier` (issue 37 item 4, issue 33 item 3): its title states the run's settings
//! (`--set horizon=…` is not titled "T = 2,000"), its summary compares every point with GPTCache's
//! preset, and a frontier whose k holds the whole universe is refused with one plain message.
// Native only: it runs the `csc` binary.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc, scratch};

#[test]
fn the_frontier_is_titled_from_the_runs_settings() {
    let d = scratch("frontier", "title");
    // Synthetic, k = 5, one seed, one unit (shard 0 of 22: the first threshold point).
    let args = [
        "run",
        "frontier",
        "--dataset",
        "synthetic",
        "--set",
        "k=5",
        "--set",
        "horizon=300",
        "--set",
        "n_eval=200",
        "--seeds",
        "1",
        "--shard",
        "0/22",
        "--quiet",
        "--threads",
        "1",
        "--out",
        "f",
    ];
    let out = csc(&args, &d);
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
    let d = scratch("frontier", "k");
    let args = [
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
    let out = csc(&args, &d);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("k = 50 holds the whole universe of synthetic (50 queries)")
            && err.contains("choose k below 50"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
