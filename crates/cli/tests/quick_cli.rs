//! `csc run <id> --quick` (the quick reproduction, `QUICK=1 scripts/reproduce.sh`): the experiment
//! that runs is the Paper view's quick definition (`quick_spec`, what the page runs) with the
//! command line's changes applied on top, and `--quick` anywhere else is a clean refusal.
// Native only: it runs the `csc` binary.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc, scratch};
use csc::experiment::{builtin, paper_presets, quick_spec};

#[test]
fn quick_runs_the_presets_quick_definition_with_the_flags_on_top() {
    let d = scratch("quick", "fig-b");
    // fig-b: synthetic, so no data needed; one unit of its quick sweep (6 values × 1 seed).
    let out = csc(
        &[
            "run",
            "fig-b-tuned",
            "--quick",
            "--seeds",
            "1",
            "--shard",
            "0/6",
            "--quiet",
            "--threads",
            "1",
            "--out",
            "q",
        ],
        &d,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(d.join("q/fig-b-tuned.shard-0-of-6.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut want = quick_spec("fig-b-tuned").unwrap();
    let full = builtin("fig-b-tuned").unwrap();
    assert_ne!(want, full, "the quick definition differs from the full one");
    assert_eq!(want.seeds, 5, "the preset's own seeds, replaced below by --seeds 1");
    want.seeds = 1;
    assert_eq!(report["experiment"], serde_json::to_value(&want).unwrap());
    assert_eq!(report["units"].as_array().map(Vec::len), Some(1), "one unit of the 6 in shard 0/6");
}

#[test]
fn quick_is_refused_for_experiments_without_a_preset_and_for_files() {
    let d = scratch("quick", "refused");
    let presets: Vec<&str> = paper_presets().iter().map(|p| p.id).collect();
    assert!(!presets.contains(&"sens-on-beta"));
    let out = csc(&["run", "sens-on-beta", "--quick", "--out", "q"], &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--quick: `sens-on-beta` has no quick settings"), "{err}");
    std::fs::write(d.join("mini.json"), serde_json::to_string(&builtin("fig-b").unwrap()).unwrap()).unwrap();
    let out = csc(&["run", "mini.json", "--quick", "--out", "q"], &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--quick goes with a built-in experiment id"), "{err}");
    assert!(!d.join("q").exists(), "nothing ran");
}
