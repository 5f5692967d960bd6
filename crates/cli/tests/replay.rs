//! `csc replay` runs the offline algorithms on a trace's offline log (SPEC §12): the same numbers,
//! bit for bit, as the experiment runner gets for the same parameters and seed (both build the
//! offline problem from the same generated trace), and clean refusals.
// Native only: the browser suites are tests/wasm_*.rs.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc, scratch};
use std::path::Path;

#[track_caller]
fn ok(d: &Path, args: &[&str]) -> String {
    let out = csc(args, d);
    assert!(out.status.success(), "csc {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn replay_runs_the_offline_algorithms_as_the_experiment_runner_does() {
    let d = scratch("replay-offline", "same");
    let sets = [
        "--set",
        "horizon=1",
        "--set",
        "n_eval=200",
        "--set",
        "epsilon=0.15",
        "--set",
        "log_len=120",
        "--set",
        "seed=3",
    ];
    let mut args = vec!["trace", "--dataset", "plane", "--out", "t.json"];
    args.extend_from_slice(&sets);
    ok(&d, &args);
    let stdout = ok(&d, &["replay", "t.json", "--policies", "greedy", "--offline-out", "off.json"]);
    assert!(stdout.contains("offline algorithm") && stdout.contains("CUCB-SC-Cont"), "{stdout}");
    let off: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("off.json")).unwrap()).unwrap();
    let off = off.as_array().unwrap();
    assert_eq!(off.len(), 6, "every offline algorithm by default");

    // the experiment runner on the same parameters and seed
    std::fs::write(
        d.join("one.json"),
        r#"{"id": "one", "dataset": "plane", "measure": {"kind": "offline", "algorithms":
            ["cucb-sc-cont", "cucb-sc", "greedy", "epsilon-greedy", "lfu", "oracle"]},
            "params": {"horizon": 1, "n_eval": 200, "epsilon": 0.15, "log_len": 120}, "seeds": 1, "first_seed": 3}"#,
    )
    .unwrap();
    ok(&d, &["run", "one.json", "--quiet", "--out", "r"]);
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("r/one.json")).unwrap()).unwrap();
    let obs = r["units"][0]["observations"].as_array().unwrap();
    for a in off {
        for metric in ["gap", "loss"] {
            let want = obs
                .iter()
                .find(|o| o["algorithm"] == a["algorithm"] && o["metric"] == metric)
                .unwrap_or_else(|| panic!("{} {metric} in the report", a["algorithm"]));
            assert_eq!(
                a[metric].as_f64().unwrap().to_bits(),
                want["value"].as_f64().unwrap().to_bits(),
                "{} {metric}",
                a["algorithm"]
            );
        }
    }

    // a choice of algorithms, none, and refusals
    let one = ok(&d, &["replay", "t.json", "--policies", "greedy", "--offline", "lfu,oracle"]);
    assert!(one.contains("LFU") && one.contains("Oracle") && !one.contains("CUCB-SC-Cont"), "{one}");
    let none = ok(&d, &["replay", "t.json", "--policies", "greedy", "--offline", "none"]);
    assert!(!none.contains("offline algorithm"), "{none}");
    let bad = csc(&["replay", "t.json", "--offline", "nope"], &d);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("--offline nope") && err.contains("cucb-sc-cont"), "{err}");
    // a trace without an offline log: a note by default, a refusal when asked for one
    let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("t.json")).unwrap()).unwrap();
    let obj = t.as_object_mut().unwrap();
    obj.remove("z");
    obj.remove("off_X");
    obj.remove("off_arrival_idx");
    obj.remove("off_cost");
    std::fs::write(d.join("noz.json"), serde_json::to_string(&t).unwrap()).unwrap();
    let out = ok(&d, &["replay", "noz.json", "--policies", "greedy"]);
    assert!(out.contains("no offline log"), "{out}");
    let bad = csc(&["replay", "noz.json", "--policies", "greedy", "--offline", "lfu"], &d);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("no offline log"), "{err}");
}
