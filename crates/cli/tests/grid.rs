//! Sweeps over one or two parameters: a grid's units are cell × seed; each cell is exactly the unit
//! a one-parameter sweep with the other parameter `--set` runs (so `nq-tune`, once three runs of
//! scripts/reproduce.sh, is one grid with the same numbers); `csc run --grid` shards, and
//! `csc merge` gives the unsharded report byte for byte; bad grids are refused in plain words.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;

use cli::{csc, scratch};
use csc::experiment::{builtin, run_unit, ExperimentSpec, Report, Stat, Sweep};
use serde_json::json;
use std::path::Path;

/// The report of `spec` made in this process, unit by unit (the page's path).
fn in_process(spec: &ExperimentSpec, data: Option<&Path>) -> Report {
    let d = std::sync::Arc::new(spec.dataset.load(Path::new(""), data, spec.params.c_floor).unwrap());
    let units = spec.units().iter().map(|u| run_unit(spec, u, &d, &mut |_| true).unwrap()).collect();
    Report::new(spec, units)
}

/// A statistic's numbers, bit for bit (`runtime_ms`, a wall-clock time, left out by callers).
fn bits(s: &Stat) -> (String, String, u64, usize, u64, u64, u64) {
    (
        s.algorithm.clone(),
        s.metric.clone(),
        s.x.to_bits(),
        s.n,
        s.mean.to_bits(),
        s.std.to_bits(),
        s.ci95.to_bits(),
    )
}

/// An offline grid on the plane data: 2 × 3 cells × 2 seeds, quick.
fn offline_grid() -> ExperimentSpec {
    ExperimentSpec::from_json(
        r#"{"id": "g", "dataset": "plane",
        "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "greedy", "oracle"]},
        "sweep": {"param": "log_len", "values": [40, 90],
                  "by": {"param": "epsilon", "values": [0.1, 0.2, 0.3]}},
        "params": {"horizon": 1, "n_eval": 150}, "seeds": 2, "first_seed": 5}"#,
    )
    .unwrap()
}

#[test]
fn grid_units_are_cell_times_seed_first_parameter_major() {
    let spec = offline_grid();
    let units = spec.units();
    assert_eq!(units.len(), 2 * 3 * 2);
    let cells: Vec<(usize, u64, usize, f64)> = units
        .iter()
        .map(|u| {
            let p = spec.unit_params(u).unwrap();
            (u.point, u.seed, p.log_len, p.epsilon)
        })
        .collect();
    assert_eq!(cells[0], (0, 5, 40, 0.1));
    assert_eq!(cells[1], (0, 6, 40, 0.1));
    assert_eq!(cells[2], (1, 5, 40, 0.2));
    assert_eq!(cells[6], (3, 5, 90, 0.1));
    assert_eq!(cells[11], (5, 6, 90, 0.3));
    // every shard is a slice, and the shards partition the units
    let mut all: Vec<usize> = (0..5).flat_map(|i| spec.shard(i, 5).unwrap()).map(|u| u.index).collect();
    all.sort();
    assert_eq!(all, (0..12).collect::<Vec<_>>());
}

#[test]
fn each_cell_is_the_one_parameter_run_with_the_other_set() {
    let grid = offline_grid();
    let report = in_process(&grid, None);
    assert!(report.stats.iter().all(|s| s.n == 2 && !s.y.is_nan()));
    for eps in [0.1, 0.2, 0.3] {
        let mut line = grid.clone();
        line.sweep = Some(Sweep::new("log_len", vec![json!(40), json!(90)]));
        line.params.epsilon = eps;
        let one = in_process(&line, None);
        assert!(one.stats.iter().all(|s| s.y.is_nan()));
        let cells: Vec<_> = report.stats.iter().filter(|s| s.y == eps).map(bits).collect();
        assert_eq!(cells, one.stats.iter().map(bits).collect::<Vec<_>>(), "ε = {eps}");
    }
    // the summary has one row per algorithm and ε, the CSV a y column
    let text = report.summary();
    assert!(text.contains("CUCB-SC-Cont epsilon=0.2"), "{text}");
    assert!(report.to_csv().starts_with("experiment,algorithm,metric,x,y,n,"));
    assert!(in_process(&builtin("sens-off-beta").map(small).unwrap(), None)
        .to_csv()
        .starts_with("experiment,algorithm,metric,x,n,"));
}

fn small(mut s: ExperimentSpec) -> ExperimentSpec {
    s.seeds = 2;
    s.params.n_eval = 150;
    s.params.horizon = s.params.horizon.min(150);
    s
}

/// The built-in `nq-tune` grid (β × ℓ_k) gives, cell for cell, what scripts/reproduce.sh's three
/// runs gave (one β sweep per `--set kernel_length=L`), here at T = n_eval = 150 and 2 seeds, on
/// the real data.
#[test]
fn nq_tune_grid_equals_the_three_runs_it_replaces() {
    // $CSC_DATA, else ../shared/data: missing data fails the test (the load's message says where)
    let dir = csc::dataset::nq_trivia::default_dir();
    let data = dir.as_path();
    let mut grid = builtin("nq-tune").unwrap();
    grid.seeds = 2;
    grid.params.horizon = 150;
    grid.params.n_eval = 150;
    let report = in_process(&grid, Some(data));
    let keep = |s: &&Stat| s.metric != "runtime_ms";
    for l in [0.2, 0.4, 0.8] {
        // the definition scripts/reproduce.sh wrote, with --set kernel_length=L
        let mut old = ExperimentSpec::from_json(
            r#"{"id": "nq-tune", "title": "nq-trivia online: tuning CLCB-SC-LS-Cont on held-out seeds 100-102 (T = 2,000)",
             "dataset": "nq-trivia", "measure": {"kind": "online", "policies": ["clcb-sc-ls-cont"]},
             "sweep": {"param": "beta", "values": [0.03, 0.1, 0.3, 1.0]},
             "params": {"horizon": 2000, "n_eval": 2000}, "seeds": 3, "first_seed": 100}"#,
        )
        .unwrap();
        old.params.kernel_length = l;
        old.seeds = 2;
        old.params.horizon = 150;
        old.params.n_eval = 150;
        let one = in_process(&old, Some(data));
        let cells: Vec<_> = report.stats.iter().filter(|s| s.y == l).filter(keep).map(bits).collect();
        assert!(!cells.is_empty());
        assert_eq!(cells, one.stats.iter().filter(keep).map(bits).collect::<Vec<_>>(), "ℓ_k = {l}");
    }
}

/// Every other built-in is what it was: no grid, and reports without `y`.
#[test]
fn one_parameter_presets_keep_their_definition_and_files() {
    for id in csc::experiment::BUILTIN_IDS {
        let s = builtin(id).unwrap();
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(text.contains("\"by\""), id == "nq-tune", "{id}");
    }
    let r = in_process(&small(builtin("sens-off-beta").unwrap()), None);
    let text = serde_json::to_string(&r).unwrap();
    assert!(!text.contains("\"y\""));
    assert_eq!(serde_json::to_string(&serde_json::from_str::<Report>(&text).unwrap()).unwrap(), text);
}

fn run(d: &Path, args: &[&str]) -> String {
    let mut a = args.to_vec();
    if a[0] == "run" {
        a.extend(["--quiet", "--threads", "1"]);
    }
    let out = csc(&a, d);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "csc {a:?}: {err}");
    err
}

const DEF: &str = r#"{"id": "mini", "dataset": "plane",
  "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "greedy"]},
  "sweep": {"param": "log_len", "values": [50]},
  "params": {"horizon": 1, "n_eval": 150}, "seeds": 2}"#;

#[test]
fn the_cli_grid_shards_and_merges_to_the_unsharded_report_byte_for_byte() {
    let d = scratch("grid", "cli");
    std::fs::write(d.join("mini.json"), DEF).unwrap();
    let grid = "log_len=40,90;epsilon=0.1,0.2,0.3";
    run(&d, &["run", "mini.json", "--grid", grid, "--out", "ref"]);
    let text = std::fs::read_to_string(d.join("ref/mini.json")).unwrap();
    let whole: Report = serde_json::from_str(&text).unwrap();
    assert_eq!(whole.experiment.sweep, Some(Sweep::parse(grid).unwrap()));
    assert_eq!(whole.units.len(), 12);
    // the CLI's grid is the in-process one
    let here = in_process(&whole.experiment, None);
    assert_eq!(
        whole.stats.iter().map(bits).collect::<Vec<_>>(),
        here.stats.iter().map(bits).collect::<Vec<_>>()
    );
    let mut files = Vec::new();
    for k in 0..5 {
        let shard = format!("{k}/5");
        run(&d, &["run", "mini.json", "--grid", grid, "--shard", &shard, "--out", "parts"]);
        files.push(d.join(format!("parts/mini.shard-{k}-of-5.json")).display().to_string());
    }
    let mut args = vec!["merge", "--out", "merged"];
    args.extend(files.iter().map(String::as_str));
    run(&d, &args);
    for ext in ["json", "csv"] {
        assert!(
            std::fs::read(d.join(format!("merged/mini.{ext}"))).unwrap()
                == std::fs::read(d.join(format!("ref/mini.{ext}"))).unwrap(),
            "merged mini.{ext} differs from the unsharded run's"
        );
    }
}

#[test]
fn bad_grids_are_refused_in_plain_words() {
    let d = scratch("grid", "bad");
    std::fs::write(d.join("mini.json"), DEF).unwrap();
    let cases = [
        ("epsilon", "has no '='"),
        ("a=1;b=2;c=3", "one or two parameters"),
        ("epsilon=0.1,zero", "`zero` is not a number"),
        ("nope=1,2", "no such parameter"),
        ("epsilon=0.1;epsilon=0.2", "two different parameters"),
        ("epsilon=0.1,0.1;k=3", "0.1 is given twice"),
        ("epsilon=0.1;k=0", "k"),
    ];
    for (g, want) in cases {
        let out = csc(&["run", "mini.json", "--grid", g, "--quiet"], &d);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{g}: {err}");
        assert!(err.contains("--grid") && err.contains(want), "{g}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = csc(&["run", "geom", "--grid", "epsilon=0.1", "--quiet"], &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not an online or offline experiment"), "{err}");
}
