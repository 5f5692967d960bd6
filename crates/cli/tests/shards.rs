//! Sweeps split into shards, through the `csc` binary: a shard named by the scheduler's environment
//! (Slurm array, Kubernetes Indexed Job), units written as they finish so that a killed shard
//! resumes, and `csc merge` checking its parts and giving, bit for bit, the report of the unsharded
//! run. The real-Slurm version of these, with a task cancelled while it runs, is
//! tests/slurm/array.sh.
// Native only: the browser suites are tests/wasm_*.rs.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/cli.rs"]
mod cli;
use cli::{csc_env, scratch};
use std::path::{Path, PathBuf};

/// 2 sweep values × 4 seeds = 8 quick, deterministic offline units on the built-in plane data.
const DEF: &str = r#"{"id": "mini", "dataset": "plane",
  "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "cucb-sc", "greedy", "lfu"]},
  "sweep": {"param": "log_len", "values": [50, 120]},
  "params": {"horizon": 1, "n_eval": 200, "epsilon": 0.15}, "seeds": 4}"#;

/// A scratch folder holding the definition `mini.json`.
fn setup(name: &str) -> PathBuf {
    let d = scratch("shards", name);
    std::fs::write(d.join("mini.json"), DEF).unwrap();
    d
}

/// Runs `csc args` with `env`; asserts success; returns stderr.
#[track_caller]
fn ok(d: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = csc_env(args, d, env);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "csc {args:?} {env:?} failed: {err}");
    err
}

/// Runs `csc args`; asserts a clean failure; returns stderr.
#[track_caller]
fn fails(d: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = csc_env(args, d, env);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "csc {args:?} {env:?} should fail cleanly: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn run(d: &Path, out: &str, extra: &[&str], env: &[(&str, &str)]) -> String {
    let mut args = vec!["run", "mini.json", "--quiet", "--threads", "1", "--out", out];
    args.extend_from_slice(extra);
    ok(d, &args, env)
}

/// The unsharded run's report, `ref/mini.json` and `.csv`.
fn reference(d: &Path) {
    run(d, "ref", &[], &[]);
    assert!(!d.join("ref/mini.units").exists(), "a whole run removes its unit files once reported");
}

fn shard_files(d: &Path, dir: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| d.join(format!("{dir}/mini.shard-{k}-of-{n}.json")).display().to_string()).collect()
}

/// `csc merge FILES --out OUT`, then the merged report must equal the unsharded one byte for byte.
#[track_caller]
fn merged_equals_reference(d: &Path, files: &[String], out: &str) {
    let mut args = vec!["merge", "--out", out];
    args.extend(files.iter().map(String::as_str));
    ok(d, &args, &[]);
    for ext in ["json", "csv"] {
        let (a, b) = (d.join(format!("{out}/mini.{ext}")), d.join(format!("ref/mini.{ext}")));
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{} differs from {}",
            a.display(),
            b.display()
        );
    }
}

/// `SLURM_ARRAY_TASK_ID=k SLURM_ARRAY_TASK_COUNT=n csc run …` for each k, then `csc merge`: the
/// unsharded report, bit for bit. Also a stepped array (`--array=1-7:3`), a re-submitted index
/// with the count set explicitly, and Kubernetes' `JOB_COMPLETION_INDEX`.
#[test]
fn env_shards_merge_to_the_unsharded_report_bit_for_bit() {
    let d = setup("env");
    reference(&d);
    for n in [1usize, 3, 8] {
        let dir = format!("slurm{n}");
        for k in 0..n {
            let (ks, ns) = (k.to_string(), n.to_string());
            let err = run(&d, &dir, &[], &[("SLURM_ARRAY_TASK_ID", &ks), ("SLURM_ARRAY_TASK_COUNT", &ns)]);
            assert!(err.contains(&format!("shard {k} of {n} (from SLURM_ARRAY_TASK_ID={k}")), "{err}");
        }
        merged_equals_reference(&d, &shard_files(&d, &dir, n), &format!("{dir}/merged"));
    }
    // --array=1-7:3: ids 1, 4, 7 are shards 0, 1, 2 of 3
    for (k, id) in [1, 4, 7].iter().enumerate() {
        let id = id.to_string();
        let env = [
            ("SLURM_ARRAY_TASK_ID", id.as_str()),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_STEP", "3"),
        ];
        let err = run(&d, "stepped", &[], &env);
        assert!(
            err.contains(&format!("shard {k} of 3 (from SLURM_ARRAY_TASK_ID={id} of --array=1-7:3)")),
            "{err}"
        );
    }
    merged_equals_reference(&d, &shard_files(&d, "stepped", 3), "stepped/merged");
    // Kubernetes: the pod's index, the count from CSC_SHARDS (or --shards)
    for k in 0..4 {
        let ks = k.to_string();
        let err = if k % 2 == 0 {
            run(&d, "k8s", &[], &[("JOB_COMPLETION_INDEX", &ks), ("CSC_SHARDS", "4")])
        } else {
            run(&d, "k8s", &["--shards", "4"], &[("JOB_COMPLETION_INDEX", &ks)])
        };
        assert!(err.contains(&format!("shard {k} of 4 (from JOB_COMPLETION_INDEX={k}")), "{err}");
    }
    merged_equals_reference(&d, &shard_files(&d, "k8s", 4), "k8s/merged");
    // a re-submitted index sees COUNT = 1: refused without the count, its own shard with it
    let single = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
        ("SLURM_ARRAY_TASK_MIN", "2"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
    ];
    let err = fails(&d, &["run", "mini.json", "--quiet", "--out", "again"], &single);
    assert!(err.contains("SLURM_ARRAY_TASK_COUNT=1") && err.contains("CSC_SHARDS"), "{err}");
    assert!(!d.join("again").exists(), "nothing written on failure");
    let mut with_count = single.to_vec();
    with_count.push(("CSC_SHARDS", "3"));
    let err = run(&d, "again", &[], &with_count);
    assert!(err.contains("shard 2 of 3 (from SLURM_ARRAY_TASK_ID=2, count from CSC_SHARDS=3)"), "{err}");
    // an explicit --shard wins over the environment
    let err = run(
        &d,
        "flag",
        &["--shard", "0/2"],
        &[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "2")],
    );
    assert!(err.contains("shard 0 of 2 (from --shard)"), "{err}");
    // a list layout is refused without the count, naming the fix
    let list = [
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
        ("SLURM_ARRAY_TASK_MIN", "2"),
        ("SLURM_ARRAY_TASK_MAX", "9"),
    ];
    let err = fails(&d, &["run", "mini.json", "--quiet", "--out", "list"], &list);
    assert!(err.contains("2,5,9") && err.contains("--shards N"), "{err}");
}

/// A shard killed after some of its units: its finished units are on disk, a re-run of the same
/// shard skips them and runs the rest, and the merge is the unsharded report bit for bit.
#[test]
fn a_killed_shard_resumes_and_nothing_is_lost() {
    let d = setup("resume");
    reference(&d);
    for k in 0..4 {
        run(&d, "parts", &["--shard", &format!("{k}/4")], &[]);
    }
    // shard 1 of 4 holds units 1 and 5; simulate a kill after unit 1: unit 5 and the report gone
    let units = d.join("parts/mini.units");
    let mut names: Vec<String> = std::fs::read_dir(&units)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = (0..8).map(|i| format!("unit-{i}.json")).collect();
    want.sort();
    assert_eq!(names, want, "one file per finished unit, no temporary file left");
    std::fs::remove_file(units.join("unit-5.json")).unwrap();
    std::fs::remove_file(d.join("parts/mini.shard-1-of-4.json")).unwrap();
    let kept = std::fs::read(units.join("unit-1.json")).unwrap();
    let err = run(&d, "parts", &["--shard", "1/4"], &[]);
    assert!(err.contains("skipped 1 of 2 units already done"), "{err}");
    assert_eq!(std::fs::read(units.join("unit-1.json")).unwrap(), kept, "a done unit is not rewritten");
    assert!(units.join("unit-5.json").is_file(), "the missing unit ran again");
    merged_equals_reference(&d, &shard_files(&d, "parts", 4), "merged");
    // a re-run of a finished shard runs nothing and writes the same report
    let before = std::fs::read(d.join("parts/mini.shard-1-of-4.json")).unwrap();
    let err = run(&d, "parts", &["--shard", "1/4"], &[]);
    assert!(err.contains("skipped 2 of 2 units"), "{err}");
    assert_eq!(std::fs::read(d.join("parts/mini.shard-1-of-4.json")).unwrap(), before);
    // unit files of other settings are not taken: the unit runs again, and says why
    let err = run(&d, "parts", &["--shard", "1/4", "--set", "k=4"], &[]);
    assert!(err.contains("made with another definition") && !err.contains("skipped"), "{err}");
    // a whole run resumes from the unit files of an earlier run into the same folder
    run(&d, "whole", &["--shard", "0/2"], &[]);
    let err = run(&d, "whole", &[], &[]);
    assert!(err.contains("skipped 4 of 8 units"), "{err}");
    for ext in ["json", "csv"] {
        let (a, b) = (d.join(format!("whole/mini.{ext}")), d.join(format!("ref/mini.{ext}")));
        assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap(), "whole/mini.{ext} differs");
    }
}

/// Missing units are named, with their shards, and the merge is refused unless `--partial`.
#[test]
fn merge_names_missing_units_and_shards() {
    let d = setup("missing");
    for k in [0, 1, 3] {
        run(&d, "parts", &["--shard", &format!("{k}/4")], &[]);
    }
    let files: Vec<String> =
        shard_files(&d, "parts", 4).into_iter().filter(|f| !f.contains("shard-2-")).collect();
    let mut args = vec!["merge", "--out", "merged"];
    args.extend(files.iter().map(String::as_str));
    let err = fails(&d, &args, &[]);
    assert!(
        err.contains("2 of 8 units of `mini` are missing: 2, 6") && err.contains("shard 2 of 4"),
        "{err}"
    );
    assert!(err.contains("--partial"), "{err}");
    assert!(!d.join("merged").exists(), "nothing written on failure");
    args.push("--partial");
    let err = ok(&d, &args, &[]);
    assert!(err.contains("warning: 2 of 8 units"), "{err}");
    assert!(d.join("merged/mini.json").is_file());
}

/// Identical duplicates are merged once; a unit whose results differ, another definition, another
/// engine or other data are refused, naming the files.
#[test]
fn merge_refuses_parts_that_disagree() {
    let d = setup("disagree");
    reference(&d);
    for k in 0..2 {
        run(&d, "a", &["--shard", &format!("{k}/2")], &[]);
    }
    run(&d, "b", &["--shard", "0/2"], &[]);
    let a = shard_files(&d, "a", 2);
    let b0 = d.join("b/mini.shard-0-of-2.json").display().to_string();
    // shard 0 twice, identical: fine, and the same report
    merged_equals_reference(&d, &[a[0].clone(), a[1].clone(), b0.clone()], "dup");
    // shard 0 of 4 overlaps shard 0 of 2 (units 0 and 4): identical, fine
    run(&d, "c", &["--shard", "0/4"], &[]);
    merged_equals_reference(
        &d,
        &[a[0].clone(), a[1].clone(), d.join("c/mini.shard-0-of-4.json").display().to_string()],
        "dup4",
    );

    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut j: serde_json::Value = serde_json::from_slice(&std::fs::read(&b0).unwrap()).unwrap();
        f(&mut j);
        let p = d.join(name);
        std::fs::write(&p, serde_json::to_string(&j).unwrap()).unwrap();
        p.display().to_string()
    };
    let merge = |other: &str| {
        let args = ["merge", "--out", "bad", &a[0], &a[1], other];
        fails(&d, &args, &[])
    };
    let v = edit("value.json", &|j| {
        let x = j["units"][1]["observations"][0]["value"].as_f64().unwrap();
        j["units"][1]["observations"][0]["value"] = (x + 1e-12).into();
    });
    let err = merge(&v);
    assert!(
        err.contains("unit 2 is in both") && err.contains("value.json") && err.contains("shard-0-of-2.json"),
        "{err}"
    );
    let s = edit("setting.json", &|j| j["experiment"]["params"]["n_eval"] = 300.into());
    let err = merge(&s);
    assert!(err.contains("setting.json") && err.contains("params.n_eval: 200 vs 300"), "{err}");
    let e = edit("engine.json", &|j| j["engine"] = "csc 9.9.9".into());
    let err = merge(&e);
    assert!(err.contains("engine.json was made by csc 9.9.9"), "{err}");
    let c = edit("data.json", &|j| {
        for u in j["units"].as_array_mut().unwrap() {
            u["dataset"]["checksum"] = "0000".into();
        }
    });
    let err = merge(&c);
    assert!(err.contains("data.json ran on data with checksum 0000"), "{err}");
    let u = edit("unit.json", &|j| j["units"][0]["unit"]["seed"] = 99.into());
    let err = merge(&u);
    assert!(err.contains("unit.json holds unit 0 (sweep point 0, seed 99)"), "{err}");
    assert!(!d.join("bad").exists(), "nothing written on failure");
}

/// Garbage in the scheduler's variables: a clean refusal naming the variable, nothing written.
#[test]
fn hostile_scheduler_variables_are_refused_readably() {
    let d = setup("hostile");
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("SLURM_ARRAY_TASK_ID", "abc"), ("SLURM_ARRAY_TASK_COUNT", "4")], "SLURM_ARRAY_TASK_ID=abc"),
        (&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "-4")], "SLURM_ARRAY_TASK_COUNT=-4"),
        (
            &[("SLURM_ARRAY_TASK_ID", "99999999999999999999999"), ("SLURM_ARRAY_TASK_COUNT", "4")],
            "SLURM_ARRAY_TASK_ID",
        ),
        (&[("SLURM_ARRAY_TASK_ID", "1"), ("CSC_SHARDS", "-3")], "CSC_SHARDS=-3"),
        (&[("SLURM_ARRAY_TASK_ID", "1"), ("CSC_SHARDS", "")], "CSC_SHARDS="),
        (&[("SLURM_ARRAY_TASK_ID", "7"), ("CSC_SHARDS", "4")], "task id 7"),
        (&[("JOB_COMPLETION_INDEX", "9"), ("CSC_SHARDS", "4")], "JOB_COMPLETION_INDEX=9"),
        (&[("JOB_COMPLETION_INDEX", "1")], "CSC_SHARDS"),
        (&[("CSC_SHARDS", "4")], "nothing names this run's shard"),
    ];
    for (env, want) in cases {
        let err = fails(&d, &["run", "mini.json", "--quiet", "--out", "out"], env);
        assert!(err.contains(want), "{env:?}: {err}");
        assert!(!d.join("out").exists(), "{env:?}: nothing written on failure");
    }
    let err =
        fails(&d, &["run", "mini.json", "--quiet", "--out", "out", "--shard", "1/4", "--shards", "3"], &[]);
    assert!(err.contains("disagree"), "{err}");
}
