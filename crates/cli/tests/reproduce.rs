//! Reproduce from the page: the command `csc::experiment::run::reproduce::cli_command` prints, run
//! by the real CLI, regenerates the report of the definition it was made from — every statistic
//! equal bit for bit except the wall-clock runtime; and a report file read back (`read_report`) is
//! re-derived from its units, refusing shards and edited statistics.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;

use cli::{csc, scratch};
use csc::experiment::run::reproduce::{cli_command, read_report};
use csc::experiment::{builtin, run_unit, ExperimentSpec, Measure, Report};
use std::path::Path;

/// The report of `spec` made in this process (the page's path: unit by unit, then `Report::new`).
fn in_process(spec: &ExperimentSpec) -> Report {
    let data = std::sync::Arc::new(spec.dataset.load(Path::new(""), None, spec.params.c_floor).unwrap());
    let units = spec.units().iter().map(|u| run_unit(spec, u, &data, &mut |_| true).unwrap()).collect();
    Report::new(spec, units)
}

/// Every statistic but the wall-clock runtime, as JSON values (NaN as null).
fn comparable(r: &Report) -> Vec<serde_json::Value> {
    r.stats.iter().filter(|s| s.metric != "runtime_ms").map(|s| serde_json::to_value(s).unwrap()).collect()
}

/// Runs `command` (as `cli_command` printed it; no quoted words here) in `dir`; its report.
fn run_command(command: &str, dir: &Path, id: &str) -> (Report, String) {
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(&words[..2], ["csc", "run"], "{command}");
    let mut args: Vec<&str> = words[1..].to_vec();
    args.extend(["--out", "out", "--quiet", "--threads", "1"]);
    let out = csc(&args, dir);
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.join(format!("out/{id}.json"))).unwrap();
    (serde_json::from_str(&text).unwrap(), text)
}

fn small(mut spec: ExperimentSpec) -> ExperimentSpec {
    spec.seeds = 2;
    spec.first_seed = 3;
    spec.params.horizon = 150;
    spec.params.n_eval = 150;
    spec
}

#[test]
fn a_changed_builtin_reruns_from_its_flags() {
    let spec = small(builtin("fig-c").unwrap());
    let command = cli_command(&spec, "unused.json");
    assert!(command.starts_with("csc run fig-c --seeds 2 --first-seed 3 --set "), "{command}");
    let dir = scratch("reproduce", "flags");
    let (cli, _) = run_command(&command, &dir, "fig-c");
    assert_eq!(cli.experiment, spec, "the command did not rebuild the definition");
    let here = in_process(&spec);
    assert!(!comparable(&here).is_empty());
    assert_eq!(comparable(&cli), comparable(&here));
}

#[test]
fn a_reshaped_builtin_reruns_from_its_definition_file() {
    // quick settings: fewer policies than the built-in (what the page's `drop` does)
    let mut spec = small(builtin("fig-c").unwrap());
    let Measure::Online { policies } = &mut spec.measure else { panic!("fig-c is online") };
    policies.truncate(2);
    let command = cli_command(&spec, "fig-c-quick.json");
    assert_eq!(command, "csc run fig-c-quick.json");
    let dir = scratch("reproduce", "file");
    std::fs::write(dir.join("fig-c-quick.json"), serde_json::to_string(&spec).unwrap()).unwrap();
    let (cli, text) = run_command(&command, &dir, "fig-c");
    assert_eq!(cli.experiment, spec);
    assert_eq!(comparable(&cli), comparable(&in_process(&spec)));

    // … and the CLI's file reads back as the page would draw it: the same statistics, all of them
    let back = read_report(&text).unwrap();
    let all = |r: &Report| serde_json::to_value(&r.stats).unwrap();
    assert_eq!(all(&back), all(&cli));
    assert_eq!(back.units.len(), spec.units().len());
    assert_eq!(back.units.len(), 2, "one point × 2 seeds");
}

#[test]
fn a_report_file_is_refused_when_edited_sharded_or_not_a_report() {
    let spec = small(builtin("fig-c").unwrap());
    let report = in_process(&spec);
    let text = serde_json::to_string(&report).unwrap();
    assert!(read_report(&text).is_ok());

    let mut edited = report.clone();
    edited.stats[0].mean += 1.0;
    let e = read_report(&serde_json::to_string(&edited).unwrap()).unwrap_err().to_string();
    assert!(e.contains("was it edited"), "{e}");
    // One ulp is an edit too: numbers compare by value, exactly.
    let mut nudged = report.clone();
    let i = nudged.stats.iter().position(|s| s.mean.is_finite() && s.mean != 0.0).expect("a non-zero mean");
    nudged.stats[i].mean = f64::from_bits(nudged.stats[i].mean.to_bits() + 1);
    let e = read_report(&serde_json::to_string(&nudged).unwrap()).unwrap_err().to_string();
    assert!(e.contains("was it edited"), "{e}");

    // The same report re-saved by JavaScript (`JSON.stringify(JSON.parse(text))`), which writes
    // every integral `f64` as an integer (`250.0` as `250`), is the same report.
    fn as_javascript_writes(v: &mut serde_json::Value) -> usize {
        use serde_json::Value;
        match v {
            Value::Number(n) if n.is_f64() => {
                let x = n.as_f64().unwrap();
                if x.fract() == 0.0 && x.abs() < 9.0e15 {
                    *v = Value::from(x as i64);
                    return 1;
                }
                0
            }
            Value::Array(a) => a.iter_mut().map(as_javascript_writes).sum(),
            Value::Object(o) => o.values_mut().map(as_javascript_writes).sum(),
            _ => 0,
        }
    }
    let mut js: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(as_javascript_writes(&mut js) > 10, "the report has integral floats to rewrite");
    let back = read_report(&serde_json::to_string(&js).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&back.stats).unwrap(), serde_json::to_value(&report.stats).unwrap());

    let mut shard = report.clone();
    shard.shard = Some(csc::experiment::ShardInfo { index: 1, count: 3 });
    let e = read_report(&serde_json::to_string(&shard).unwrap()).unwrap_err().to_string();
    assert!(e.contains("shard 1 of 3") && e.contains("csc merge"), "{e}");

    for bad in ["", "{}", "[1, 2]", "{\"experiment\": 3}"] {
        let e = read_report(bad).unwrap_err().to_string();
        assert!(e.contains("not a csc report"), "{bad}: {e}");
    }
}
