//! Hostile input to the native entry points: the `csc` binary with bad flags, bad `--set` values,
//! missing, truncated, garbage and invalid-UTF-8 files, bad experiment definitions, shard specs and
//! traces. Every case must end with a non-zero exit and a readable message on stderr — never a
//! panic (no "panicked" in stderr) and never a crash by signal. Also: the library's loaders,
//! numerical robustness of KRR (duplicate points, tiny λ, huge length-scales) and the cost domain
//! (0, 1] of every loader.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc::config::Params;
use csc::dataset::{nq_trivia, records, Dataset};
use csc::krr::{Krr, RbfKernel};
use csc::space::{Metric, Points};
use csc::trace::Trace;
use std::path::{Path, PathBuf};

// ---- helpers ------------------------------------------------------------------------------------

#[path = "support/cli.rs"]
mod cli;
use cli::csc;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    cli::scratch("hostile", name)
}

/// Runs `csc args` and asserts a clean failure: a non-zero exit code (not a signal), no panic,
/// and stderr containing every one of `parts` (case-insensitive). Returns stderr.
#[track_caller]
fn fails(args: &[&str], cwd: &Path, parts: &[&str]) -> String {
    let out = csc(args, cwd);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "csc {args:?} should fail; stderr: {err}");
    assert!(out.status.code().is_some(), "csc {args:?} died by a signal; stderr: {err}");
    assert!(!err.contains("panicked"), "csc {args:?} panicked: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "csc {args:?} panicked: {err}");
    let low = err.to_lowercase();
    for p in parts {
        assert!(low.contains(&p.to_lowercase()), "csc {args:?}: stderr {err:?} should mention {p:?}");
    }
    err
}

#[track_caller]
fn succeeds(args: &[&str], cwd: &Path) -> String {
    let out = csc(args, cwd);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "csc {args:?} failed: {err}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().to_string()
}

// ---- the CLI --------------------------------------------------------------------------------------

#[test]
fn cli_bad_flags_and_commands() {
    let d = scratch("flags");
    fails(&[], &d, &["usage"]);
    fails(&["frobnicate"], &d, &["unrecognized subcommand"]);
    fails(&["run"], &d, &["required"]);
    fails(&["run", "fig-a", "--seeds", "many"], &d, &["invalid value"]);
    fails(&["run", "fig-a", "--seeds=-3"], &d, &["--seeds"]);
    fails(&["run", "fig-a", "--first-seed", "1e99"], &d, &["invalid value"]);
    fails(&["run", "fig-a", "--bogus"], &d, &["unexpected argument"]);
    fails(&["run", "no-such-experiment"], &d, &["unknown experiment"]);
    fails(&["run", "fig-a", "--seeds", "0"], &d, &["seeds"]);
    fails(&["trace", "--dataset", "mnist", "--out", "t.json"], &d, &["unknown dataset", "synthetic"]);
    fails(&["trace"], &d, &["--out"]);
    fails(&["replay"], &d, &["required"]);
}

#[test]
fn cli_bad_set_values() {
    let d = scratch("set");
    let cases: &[(&str, &[&str])] = &[
        ("k=0", &["`k`", "at least 1"]),
        ("k=-1", &["`k`"]),
        ("k=2.5", &["`k`"]),
        ("k=five", &["`k`"]),
        ("k", &["KEY=VALUE"]),
        ("=3", &["KEY=VALUE"]),
        ("kapa=3", &["`kapa`", "no such parameter"]),
        ("lambda=NaN", &["`lambda`"]),
        ("lambda=1e999", &["`lambda`"]),
        ("lambda=0", &["ridge"]),
        ("epsilon=-0.4", &["ε-net radius"]),
        ("delta=1", &["(0, 1)"]),
        ("horizon=0", &["horizon"]),
        ("horizon=1e12", &["horizon"]),
        ("n_eval=99999999999999999999", &["n_eval"]),
        ("c_floor=0", &["c_floor"]),
        ("c_floor=1.5", &["c_floor"]),
        ("phi=cubic", &["`phi`"]),
        ("seed=-1", &["`seed`"]),
        ("synthetic_sigma=\"x\"", &["synthetic_sigma"]),
    ];
    for (set, parts) in cases {
        fails(&["trace", "--set", set, "--out", "t.json"], &d, parts);
        fails(&["run", "fig-c", "--set", set, "--quiet"], &d, parts);
    }
    assert!(!d.join("t.json").exists(), "no output is written for a rejected configuration");
}

#[test]
fn cli_shards_and_experiment_definitions() {
    let d = scratch("defs");
    for shard in ["4/4", "0/0", "x", "1/", "/2", "-1/2", "99999999999999999999/2"] {
        fails(&["run", "fig-a", &format!("--shard={shard}"), "--quiet"], &d, &["shard"]);
    }
    let garbage = write(&d, "garbage.json", b"{ this is not json");
    fails(&["run", &garbage], &d, &["experiment JSON"]);
    let utf = write(&d, "latin1.json", b"{\"id\": \"caf\xe9\"}");
    fails(&["run", &utf], &d, &["utf-8"]);
    let empty = write(&d, "empty.json", b"");
    fails(&["run", &empty], &d, &["experiment JSON"]);
    let unknown = write(
        &d,
        "unknown.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"online","policies":["nope"]},"seeds":1}"#,
    );
    fails(&["run", &unknown], &d, &["nope"]);
    let no_seeds = write(
        &d,
        "noseeds.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"online","policies":["greedy"]},"seeds":0}"#,
    );
    fails(&["run", &no_seeds], &d, &["seeds"]);
    let bad_sweep = write(
        &d,
        "sweep.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"online","policies":["greedy"]},
            "sweep":{"param":"k","values":[1, 0]},"seeds":1}"#,
    );
    fails(&["run", &bad_sweep], &d, &["`k`"]);
    // Absurd sizes are refused before anything is allocated.
    let many = write(
        &d,
        "many.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"online","policies":["greedy"]},"seeds":1000000000000}"#,
    );
    fails(&["run", &many], &d, &["units"]);
    fails(&["run", "fig-a", "--seeds", "18446744073709551615"], &d, &["units"]);
    fails(&["run", "fig-a", "--first-seed", "18446744073709551615"], &d, &["seed"]);
    let geo = write(
        &d,
        "geo.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"geometry","stream":0},"seeds":1}"#,
    );
    fails(&["run", &geo, "--quiet"], &d, &["stream"]);
    let geo = write(
        &d,
        "geo2.json",
        br#"{"id":"x","dataset":"plane","measure":{"kind":"geometry","stream":100000000000},"seeds":1}"#,
    );
    fails(&["run", &geo, "--quiet"], &d, &["stream"]);
}

#[test]
fn cli_missing_truncated_and_garbage_data() {
    let d = scratch("data");
    // No data folder at all.
    fails(&["run", "fig-e", "--data", "/no/such/folder", "--quiet"], &d, &["cannot read", "nq.jsonl"]);
    // A folder whose files are truncated, garbage or not UTF-8.
    let data = d.join("shared");
    std::fs::create_dir_all(&data).unwrap();
    let line = |i: usize| format!("{{\"text\":\"q{i}\",\"tokens\":{}}}\n", 5 + i % 7);
    let jsonl: String = (0..nq_trivia::PER_SOURCE).map(line).collect();
    write(&data, "nq.jsonl", jsonl.as_bytes());
    write(&data, "triviaqa.jsonl", jsonl.as_bytes());
    let row = nq_trivia::DIM * 4;
    write(&data, "nq.emb.f32", &vec![0u8; row * 10 + 3]);
    write(&data, "triviaqa.emb.f32", &vec![0u8; row * 10]);
    let dir = data.to_string_lossy().to_string();
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["nq.emb.f32", "embedding rows"]);
    write(&data, "nq.jsonl", b"{\"text\": \"q\", \"tokens\": 3}\n{\"text\": ");
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["nq.jsonl", "line 2"]);
    write(&data, "nq.jsonl", b"\xff\xfe\x00garbage");
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["utf-8"]);
    write(&data, "nq.jsonl", jsonl.replace("\"tokens\":5", "\"tokens\":-5").as_bytes());
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["tokens"]);
    write(&data, "nq.jsonl", b"");
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["no records"]);
    std::fs::remove_file(data.join("triviaqa.emb.f32")).unwrap();
    write(&data, "nq.jsonl", jsonl.as_bytes());
    fails(&["run", "fig-e", "--data", &dir, "--quiet"], &d, &["triviaqa.emb.f32"]);
}

#[test]
fn cli_replay_of_bad_traces() {
    let d = scratch("replay");
    fails(&["replay", "missing.json"], &d, &["missing.json"]);
    let garbage = write(&d, "garbage.json", b"\x00\x01\x02 not a trace");
    fails(&["replay", &garbage], &d, &["trace JSON"]);
    let latin = write(&d, "latin.json", b"{\"dist_scale\": 1, \"meta\": \"caf\xe9\"}");
    fails(&["replay", &latin], &d, &["utf-8"]);
    let array = write(&d, "array.json", b"[1, 2, 3]");
    fails(&["replay", &array], &d, &["trace JSON"]);

    // A real trace, then corrupted in every way the format can be.
    succeeds(
        &["trace", "--dataset", "plane", "--set", "horizon=60", "--set", "n_eval=40", "--out", "t.json"],
        &d,
    );
    let text = std::fs::read_to_string(d.join("t.json")).unwrap();
    let out = succeeds(&["replay", "t.json", "--policies", "greedy,lfu"], &d);
    assert!(out.contains("Greedy") && out.contains("LFU"), "{out}");
    // Determinism on re-run: the same trace and configuration print the same figures.
    assert_eq!(succeeds(&["replay", "t.json", "--policies", "greedy,lfu"], &d), out);
    succeeds(
        &["trace", "--dataset", "plane", "--set", "horizon=60", "--set", "n_eval=40", "--out", "t2.json"],
        &d,
    );
    assert_eq!(
        std::fs::read(d.join("t2.json")).unwrap(),
        text.as_bytes(),
        "a trace is regenerated bit for bit"
    );
    fails(&["replay", "t.json", "--policies", "greedy,nope"], &d, &["nope"]);
    fails(&["replay", "t.json", "--policies", ""], &d, &["unknown"]);
    fails(&["replay", "t.json", "--set", "k=0"], &d, &["`k`"]);

    let truncated = write(&d, "trunc.json", &text.as_bytes()[..text.len() / 2]);
    fails(&["replay", &truncated], &d, &["trace JSON", "EOF"]);
    let mut j: serde_json::Value = serde_json::from_str(&text).unwrap();
    let corrupt = |f: &dyn Fn(&mut serde_json::Value), name: &str, parts: &[&str]| {
        let mut v = j.clone();
        f(&mut v);
        let p = write(&d, name, serde_json::to_string(&v).unwrap().as_bytes());
        fails(&["replay", &p, "--policies", "greedy"], &d, parts);
    };
    corrupt(&|v| v["cost"][3] = 1.5.into(), "c1.json", &["`cost`[3]", "(0, 1]"]);
    corrupt(&|v| v["cost"][0] = 0.into(), "c2.json", &["`cost`[0]", "(0, 1]"]);
    corrupt(&|v| v["cost"][1] = (-0.2).into(), "c3.json", &["`cost`[1]"]);
    corrupt(&|v| v["eval_cost"][0] = 7.into(), "c4.json", &["eval_cost"]);
    corrupt(&|v| v["dist_scale"] = 0.into(), "d.json", &["dist_scale"]);
    corrupt(&|v| v["dist_scale"] = (-1).into(), "d2.json", &["dist_scale"]);
    corrupt(&|v| v["cost"].as_array_mut().unwrap().truncate(10), "short.json", &["`cost` has 10"]);
    corrupt(&|v| v["eta"].as_array_mut().unwrap().truncate(10), "eta.json", &["`eta`"]);
    corrupt(&|v| v["X"][2] = serde_json::json!([0.5]), "ragged.json", &["row 2"]);
    corrupt(&|v| v["X"] = serde_json::json!([]), "empty.json", &["no vectors"]);
    corrupt(&|v| v["X"][0][0] = "a".into(), "type.json", &["trace JSON"]);
    corrupt(&|v| v["X"][0][0] = 1e39.into(), "big.json", &["trace JSON"]);
    corrupt(&|v| v["E"] = serde_json::json!([[0.5, 0.5]]), "e.json", &["eval_cost"]);
    corrupt(&|v| v["z"] = serde_json::json!([2]), "z.json", &["`z`"]);
    corrupt(
        &|v| {
            v.as_object_mut().unwrap().remove("X");
            v["arrival_idx"] = serde_json::json!([0, 1]);
        },
        "idx.json",
        &["universe"],
    );
    corrupt(&|v| v["extra"] = 1.into(), "extra.json", &["unknown field"]);
    corrupt(&|v| v["meta"]["params"] = serde_json::json!({"k": 0}), "meta.json", &["`k`"]);
    // A trace with no online round at all.
    corrupt(
        &|v| {
            v.as_object_mut().unwrap().remove("X");
            v["universe"] = serde_json::json!([[0.1, 0.1]]);
            v["arrival_idx"] = serde_json::json!([]);
            v["cost"] = serde_json::json!([]);
        },
        "zero.json",
        &["horizon"],
    );
    // Enormous (but syntactically fine) JSON: a 20 MB string in `meta`.
    j["meta"]["junk"] = "x".repeat(20 << 20).into();
    j["cost"][0] = 2.into();
    let p = write(&d, "huge.json", serde_json::to_string(&j).unwrap().as_bytes());
    fails(&["replay", &p], &d, &["`cost`[0]"]);
}

#[test]
fn cli_merge_of_bad_reports() {
    let d = scratch("merge");
    fails(&["merge"], &d, &["nothing to merge"]);
    fails(&["merge", "missing.json"], &d, &["missing.json"]);
    let g = write(&d, "g.json", b"{\"experiment\": 3}");
    fails(&["merge", &g], &d, &["g.json"]);
}

// ---- the loaders, as a library ------------------------------------------------------------------

#[test]
fn loaders_reject_hostile_bytes_readably() {
    let e = |r: csc::Result<Dataset>| r.expect_err("an error").to_string();
    assert!(e(Dataset::from_jsonl("x", b"\xc3\x28", None, 0.01)).contains("UTF-8"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":1e400}", None, 0.01)).contains("line 1"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":NaN}", None, 0.01)).contains("line 1"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":2,\"embedding\":[]}", None, 0.01))
        .contains("empty"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":2}", Some((&[0u8; 7], 1)), 0.01))
        .contains("truncated"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":2}", Some((&[0u8; 8], 0)), 0.01))
        .contains("dim"));
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":2,\"embedding\":[1]}", None, 0.0))
        .contains("c_floor"));
    let nan = f32::NAN.to_le_bytes();
    assert!(e(Dataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":2}", Some((&nan, 1)), 0.01))
        .contains("non-finite"));
    // Deeply nested JSON must not overflow the stack.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(records::parse_jsonl(&deep).is_err());
    assert!(Trace::from_json(&deep).is_err());
    assert!(Params::from_json(&deep).is_err());
    // Costs of any loaded universe lie in (0, 1], whatever the token counts.
    let d = Dataset::from_jsonl(
        "x",
        b"{\"text\":\"a\",\"tokens\":0,\"embedding\":[1e-30]}\n{\"text\":\"b\",\"tokens\":4294967295,\"embedding\":[3e38]}\n{\"text\":\"c\",\"tokens\":7,\"embedding\":[-3e38]}",
        None,
        1e-300,
    )
    .unwrap();
    assert!(d.costs.iter().all(|&c| c > 0.0 && c <= 1.0), "{:?}", d.costs);
    assert!(d.dist_scale.is_finite() && d.dist_scale > 0.0);
}

#[test]
fn set_overrides_are_parsed_by_the_library() {
    let p = Params::default();
    assert_eq!(p.apply_set("k=3").unwrap().k, 3);
    assert_eq!(p.apply_set(" k =3").unwrap().k, 3);
    assert_eq!(p.apply_set("synthetic_sigma=null").unwrap().synthetic_sigma, None);
    assert_eq!(p.apply_set("phi=clipped_quadratic").unwrap().phi, csc::config::PhiKind::ClippedQuadratic);
    for text in ["[]", "[5]", " [] ", "null", "3", "\"k\""] {
        let e = Params::from_json(text).unwrap_err().to_string();
        assert!(e.contains("expected an object"), "{text}: {e}");
    }
    for bad in ["k", "=1", "k=0", "nope=1", "lambda=-1", "seed=1.5", ""] {
        let e = p.apply_set(bad).unwrap_err().to_string();
        assert!(!e.is_empty());
    }
    // a named choice given a number or JSON is told the names it takes (not serde_json's
    // "expected value" for a number where an enum is read)
    for (bad, names) in [
        ("eviction=1", "`lru` or `gdsf`"),
        ("phi=2.5", "`clipped_linear` or `clipped_quadratic`"),
        ("eviction=null", "`lru` or `gdsf`"),
    ] {
        let e = p.apply_set(bad).unwrap_err().to_string();
        assert!(e.contains("unknown variant") && e.contains(names), "{bad}: {e}");
    }
    assert_eq!(p.apply_set("eviction=gdsf").unwrap().eviction, csc::config::Eviction::Gdsf);
}

// ---- KRR numerical robustness --------------------------------------------------------------------

/// Fits `obs` with ridge `r` and checks: every posterior finite, variance in [0, 1], γ finite, and
/// the kernel matrix the factor belongs to is positive semidefinite (its Cholesky diagonal is
/// positive). Returns the number of floored pivots (the jitter the user is told about).
fn check_krr(obs: &[[f32; 2]], y: &[f64], length: f64, ridge: f64) -> usize {
    let pts = Points::from_rows(obs).unwrap();
    let krr = Krr::fit(RbfKernel::new(length).unwrap(), Metric::new(1.0).unwrap(), ridge, &pts, y).unwrap();
    for i in 0..krr.n_obs() {
        let d = krr.cholesky().row(i)[i];
        assert!(d.is_finite() && d > 0.0, "pivot {i} = {d}");
    }
    assert!(krr.gamma().is_finite(), "γ = {}", krr.gamma());
    let queries = [[0.0f32, 0.0], [0.5, 0.5], [1.0, 0.0], [1e3, -1e3], [0.25, 0.75]];
    for q in queries.iter().chain(obs) {
        let p = krr.posterior_at(q);
        assert!(p.mean.is_finite(), "mean at {q:?} = {}", p.mean);
        assert!(p.var.is_finite() && (0.0..=1.0).contains(&p.var), "var at {q:?} = {}", p.var);
    }
    krr.jitter_events()
}

#[test]
fn krr_stays_finite_and_psd_on_degenerate_inputs() {
    let dup: Vec<[f32; 2]> = vec![[0.3, 0.3]; 50];
    let y: Vec<f64> = (0..50).map(|i| 0.2 + 0.01 * i as f64).collect();
    // Duplicates with tiny λ: floored pivots, counted.
    assert!(check_krr(&dup, &y, 0.2, 1e-300) >= 1);
    assert!(check_krr(&dup, &y, 0.2, f64::MIN_POSITIVE) >= 1);
    // Duplicates with the default λ: no jitter needed.
    assert_eq!(check_krr(&dup, &y, 0.2, 0.1), 0);
    // Huge length-scales: K is all ones to rounding.
    let spread: Vec<[f32; 2]> = (0..40).map(|i| [i as f32 / 40.0, (i % 7) as f32 / 7.0]).collect();
    let y2: Vec<f64> = (0..40).map(|i| (i % 5) as f64 / 5.0 + 0.1).collect();
    check_krr(&spread, &y2, 1e300, 1e-12);
    assert!(check_krr(&spread, &y2, 1e300, 1e-300) >= 1);
    check_krr(&spread, &y2, 1e12, 1e-6);
    // Tiny length-scales: K = I, nothing to floor.
    assert_eq!(check_krr(&spread, &y2, 1e-150, 1e-12), 0);
    // Below ~1e-154, 2ℓ² underflows and κ(x, x) = exp(−0/0) is NaN: the configuration refuses it.
    for bad in [1e-300, 1e-7, 1e7, f64::MIN_POSITIVE] {
        let e = Params { kernel_length: bad, ..Params::default() }.validate().unwrap_err().to_string();
        assert!(e.contains("kernel_length"), "{e}");
    }
    // Huge ridge: the posterior is the prior.
    check_krr(&spread, &y2, 0.2, 1e300);
    // Extreme targets stay finite.
    check_krr(&spread, &vec![1e300; 40], 0.2, 0.1);
}
