//! `csc tune-threshold`: the answer on synthetic follows the selection rule (the chosen τ meets the
//! target on the selection seeds and has the largest hit ratio of those that do; the held-out
//! numbers are the reporting seeds'), and bad targets and data without ground truth are refused
//! with one plain message, never a panic.
// Native only: it runs the `csc` binary.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc, scratch};

/// A small run on synthetic: 2 seeds (one each way), T = 300.
const SMALL: [&str; 12] = [
    "tune-threshold",
    "--dataset",
    "synthetic",
    "--seeds",
    "2",
    "--set",
    "horizon=300",
    "--set",
    "n_eval=200",
    "--threads",
    "1",
    "--json",
];

fn small(target: &[&str], name: &str) -> std::process::Output {
    let d = scratch("tune", name);
    let mut args: Vec<&str> = SMALL.to_vec();
    args.extend_from_slice(target);
    csc(&args, &d)
}

#[test]
fn the_answer_follows_the_selection_rule() {
    let out = small(&["--precision", "0.8"], "rule");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let a: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(a["target"], serde_json::json!({ "kind": "precision", "value": 0.8 }));
    assert_eq!(
        (a["selection_seeds"].clone(), a["reporting_seeds"].clone()),
        (serde_json::json!([0]), serde_json::json!([1]))
    );
    assert!(a["bound"].as_str().unwrap().starts_with("Clopper–Pearson"));
    // The title names the run's dataset and settings (stderr, before the units run).
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Pick a threshold on synthetic (k = 10, T = 300, n_eval = 200, 2 seeds)"), "{err}");
    let rows = a["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 30);
    let meeting: Vec<&serde_json::Value> = rows.iter().filter(|r| r["meets"] == true).collect();
    let sentences = a["sentences"].as_array().unwrap();
    match a["tau"].as_f64() {
        Some(tau) => {
            // The chosen τ meets the target, and no meeting τ has a larger hit ratio.
            let row = rows.iter().find(|r| r["tau"].as_f64() == Some(tau)).unwrap();
            assert_eq!(row["meets"], true);
            assert!(row["bound"].as_f64().unwrap() >= 0.8);
            let best = meeting.iter().map(|r| r["hit_ratio"].as_f64().unwrap()).fold(0.0, f64::max);
            assert_eq!(row["hit_ratio"].as_f64().unwrap(), best);
            assert_eq!(a["threshold"]["selection"]["hit_ratio"].as_f64().unwrap(), best);
            // τ as a cosine: 1 − (D·τ)²/2.
            let d = a["dist_scale"].as_f64().unwrap();
            assert!((a["cosine"].as_f64().unwrap() - (1.0 - (d * tau).powi(2) / 2.0)).abs() < 1e-15);
            assert!(sentences[0].as_str().unwrap().starts_with(&format!("τ = {tau} (cosine similarity")));
            // The held-out half is measured on its own counts: T = 300 requests of seed 1.
            assert_eq!(a["threshold"]["reporting"]["counts"]["requests"], 300);
        }
        None => {
            assert!(meeting.is_empty());
            assert!(sentences[0].as_str().unwrap().starts_with("No τ of the grid"));
        }
    }
}

#[test]
fn an_unreachable_target_says_so_with_the_best_reachable() {
    // Precision 1 at 95% needs a lower bound of 1, which no finite count reaches.
    let out = small(&["--precision", "1"], "none");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let a: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(a["tau"].is_null() && a["threshold"].is_null());
    let s = a["sentences"][0].as_str().unwrap();
    assert!(s.starts_with("No τ of the grid (0.02 to 0.6) meets hit precision ≥ 1 at 95%"), "{s}");
    assert!(s.contains("the closest is τ = "), "{s}");
    assert!(a["best"]["selection"]["bound"].as_f64().unwrap() < 1.0);
}

#[test]
fn bad_targets_are_one_plain_message() {
    let d = scratch("tune", "bad");
    for (flag, v, want) in [
        ("--precision", "1.5", "is not a hit precision: give a number in (0, 1]"),
        ("--precision", "0", "is not a hit precision"),
        ("--precision", "NaN", "NaN is not a hit precision"),
        ("--error-rate", "1", "is not an error rate: give a number in [0, 1)"),
        ("--error-rate", "-0.1", "-0.1 is not an error rate"),
        ("--error-rate", "NaN", "NaN is not an error rate"),
    ] {
        let out = csc(&["tune-threshold", flag, v, "--dataset", "synthetic"], &d);
        assert!(!out.status.success(), "{flag} {v}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{flag} {v}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = csc(&["tune-threshold", "--dataset", "synthetic"], &d);
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a target: --precision P"));
}

#[test]
fn data_without_ground_truth_is_refused_with_one_message() {
    let d = scratch("tune", "plane");
    let out = csc(&["tune-threshold", "--precision", "0.9", "--dataset", "plane"], &d);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot pick a threshold: plane has no ground truth"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // Your own file without `answers` or `label`: the same one message, naming it.
    let rows: Vec<String> = (0..60)
        .map(|i| {
            let a = i as f64 * 0.1;
            format!(
                r#"{{"text": "q{i}", "tokens": {}, "embedding": [{}, {}, 0.5]}}"#,
                10 + i,
                a.cos(),
                a.sin()
            )
        })
        .collect();
    std::fs::write(d.join("mine.jsonl"), rows.join("\n")).unwrap();
    let out = csc(&["tune-threshold", "--error-rate", "0.01", "--dataset", "mine.jsonl"], &d);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot pick a threshold: mine.jsonl gives no `answers` or `label`"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The words of a command the engine writes (none of these is quoted), without `csc`, with the
/// test's `--threads 1 --json`.
fn words(command: &str) -> Vec<String> {
    let mut w: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    assert_eq!(w.remove(0), "csc", "{command}");
    w.extend(["--threads", "1", "--json"].map(String::from));
    w
}

#[test]
fn the_command_under_an_answer_gives_that_answer() {
    use csc::experiment::tune::{tune_command, tune_definition, Target};
    use csc::experiment::DatasetId;
    use csc::json::FromJson;
    let d = scratch("tune", "command");
    let run = |w: &[String]| {
        let out = csc(&w.iter().map(String::as_str).collect::<Vec<_>>(), &d);
        assert!(out.status.success(), "{w:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    // The small run as the page would hold it: flags, and the flags give SMALL's answer.
    let mut spec = tune_definition(DatasetId::Synthetic).unwrap();
    spec.seeds = 2;
    spec.params.horizon = 300;
    spec.params.n_eval = 200;
    let command = tune_command(&spec, Target::Precision(0.8), "t.json");
    assert_eq!(
        command,
        "csc tune-threshold --precision 0.8 --dataset synthetic --seeds 2 --set horizon=300 --set n_eval=200"
    );
    let small_answer = String::from_utf8(small(&["--precision", "0.8"], "command-small").stdout).unwrap();
    assert_eq!(run(&words(&command)), small_answer);
    // With an arrival model: the definition file, saved beside the command; its answer is the
    // one the same settings give as flags, bit for bit.
    spec.dataset = DatasetId::from_json_value(
        &serde_json::json!({ "builtin": "synthetic", "arrival": { "model": "popularity" } }),
    )
    .unwrap();
    let command = tune_command(&spec, Target::ErrorRate(0.05), "t.json");
    assert_eq!(command, "csc tune-threshold t.json --error-rate 0.05");
    std::fs::write(d.join("t.json"), serde_json::to_string_pretty(&spec).unwrap()).unwrap();
    let by_file = run(&words(&command));
    let by_flags = run(&words(
        "csc tune-threshold --error-rate 0.05 --dataset synthetic --arrival popularity --seeds 2 --set horizon=300 --set n_eval=200",
    ));
    assert_eq!(by_file, by_flags);
    let a: serde_json::Value = serde_json::from_str(&by_file).unwrap();
    assert_eq!(a["target"], serde_json::json!({ "kind": "error_rate", "value": 0.05 }));
}
