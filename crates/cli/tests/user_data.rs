#![cfg(not(target_arch = "wasm32"))]
//! A researcher's own data through the `csc` binary (SPEC §7 "User data"): a dataset built here
//! from a subset of `../shared/data` (or `$CSC_DATA`), written in another layout with its own file
//! names, run with each arrival model; experiment definitions with a dataset object round-trip; and
//! each bad file gets its one exact message.

use csc::dataset::nq_trivia;
use csc::experiment::{DatasetId, DatasetSpec, ExperimentSpec, Report};
use csc::stream::ArrivalSpec;
use std::path::{Path, PathBuf};

const DIM: usize = 384;
/// Questions taken from each shared source.
const PER: usize = 60;

#[path = "support/cli.rs"]
mod cli;
use cli::csc;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    cli::scratch("user", name)
}

#[track_caller]
fn ok(args: &[&str], cwd: &Path) -> String {
    let out = csc(args, cwd);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "csc {args:?} failed: {err}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The one line of stderr of a failing run, without `error: `.
#[track_caller]
fn message(args: &[&str], cwd: &Path) -> String {
    let out = csc(args, cwd);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "csc {args:?} should fail cleanly: {err}");
    assert!(!err.contains("invalid data:") && !err.contains("panicked"), "{err}");
    err.trim_end().strip_prefix("error: ").unwrap_or(&err).to_string()
}

/// `questions.ndjson` (fields in another order, own ids, an `origin` field) and `vectors.bin`
/// (the matching rows) from the first `PER` questions of each shared source.
fn user_files(dir: &Path) {
    let data = nq_trivia::default_dir();
    let (mut jsonl, mut emb) = (String::new(), Vec::new());
    for (file, origin) in [("nq", "open-domain"), ("triviaqa", "trivia")] {
        let text = std::fs::read_to_string(data.join(format!("{file}.jsonl")))
            .unwrap_or_else(|e| panic!("shared data at {}: {e}", data.display()));
        let bytes = std::fs::read(data.join(format!("{file}.emb.f32"))).unwrap();
        for (i, line) in text.lines().take(PER).enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let rec = serde_json::json!({
                "tokens": v["tokens"], "origin": origin, "id": format!("{origin}/{i}"), "text": v["text"]
            });
            jsonl.push_str(&format!("{rec}\n"));
        }
        emb.extend_from_slice(&bytes[..PER * DIM * 4]);
    }
    std::fs::write(dir.join("questions.ndjson"), jsonl).unwrap();
    std::fs::write(dir.join("vectors.bin"), emb).unwrap();
}

fn report(path: &Path) -> Report {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_arrival_model_runs_on_user_files_through_the_cli() {
    let d = scratch("models");
    user_files(&d);
    let base = ["--dataset", "questions.ndjson", "--embeddings", "vectors.bin", "--dim", "384"];
    let small = ["--seeds", "2", "--set", "horizon=300", "--set", "n_eval=300", "--quiet"];
    let mut checksum = None;
    for (i, model) in [&["uniform"][..], &["bursty", "--group-by", "origin"], &["popularity"], &["replay"]]
        .iter()
        .enumerate()
    {
        let out = format!("out{i}");
        let mut args = vec!["run", "fig-e", "--out", &out, "--arrival"];
        args.extend_from_slice(model);
        args.extend_from_slice(&base);
        args.extend_from_slice(&small);
        let table = ok(&args, &d);
        assert!(!table.contains("nq-trivia"), "{table}");
        assert!(table.contains("dataset questions.ndjson (120 queries, d = 384, checksum "), "{table}");
        let r = report(&d.join(&out).join("fig-e-questions.json"));
        let csv = std::fs::read_to_string(d.join(&out).join("fig-e-questions.csv")).unwrap();
        assert!(csv.lines().skip(1).all(|l| l.starts_with("fig-e-questions,")), "{csv}");
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("nq-trivia"), "the report names a built-in");
        let info = &r.units[0].dataset;
        assert_eq!((info.name.as_str(), info.size, info.dim), ("questions.ndjson", 2 * PER, DIM));
        let DatasetId::Spec(s) = &r.experiment.dataset else { panic!("a dataset object") };
        assert_eq!(s.checksum.as_deref(), Some(info.checksum.as_str()));
        assert_eq!(
            s.arrival.as_ref().map(|a| serde_json::to_value(a).unwrap()["model"].clone()),
            Some(model[0].into())
        );
        if model[0] == "replay" {
            // the file is the stream: T is its length
            assert!(r.units.iter().all(|u| u.params.horizon == 2 * PER), "replay horizon");
        }
        assert!(r.stats.iter().any(|s| s.metric == "final_avg_regret" && s.mean.is_finite()));
        assert_eq!(*checksum.get_or_insert(info.checksum.clone()), info.checksum);
    }
    // bursty on a user dataset needs its group field
    let mut args = vec!["run", "fig-e", "--arrival", "bursty"];
    args.extend_from_slice(&base);
    assert!(message(&args, &d).contains("--group-by FIELD"));
    // a trace names the file and its checksum
    let mut args =
        vec!["trace", "--out", "t.json", "--arrival", "replay", "--set", "n_eval=50", "--set", "log_len=50"];
    args.extend_from_slice(&base);
    ok(&args, &d);
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("t.json")).unwrap()).unwrap();
    assert_eq!(t["meta"]["dataset"]["name"], "questions.ndjson");
    assert_eq!(t["meta"]["dataset"]["checksum"].as_str(), checksum.as_deref());
    assert_eq!(t["arrival_idx"].as_array().unwrap().len(), 2 * PER);
    let replayed = ok(&["replay", "t.json", "--policies", "greedy"], &d);
    assert!(
        replayed.contains(&format!("dataset questions.ndjson (checksum {})", checksum.unwrap())),
        "{replayed}"
    );
}

#[test]
fn experiment_json_with_a_dataset_object_round_trips_and_runs() {
    let d = scratch("json");
    std::fs::create_dir_all(d.join("defs/data")).unwrap();
    user_files(&d.join("defs/data"));
    let text = r#"{"id": "mine", "title": "my questions",
        "dataset": {"jsonl": "data/questions.ndjson", "embeddings": "data/vectors.bin", "dim": 384,
                    "arrival": {"model": "bursty", "group_by": "origin"}},
        "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "greedy", "oracle"]},
        "sweep": {"param": "log_len", "values": [50, 100]},
        "params": {"horizon": 1, "n_eval": 200}, "seeds": 2}"#;
    let spec = ExperimentSpec::from_json(text).unwrap();
    let again = ExperimentSpec::from_json(&serde_json::to_string(&spec).unwrap()).unwrap();
    assert_eq!(spec, again);
    assert_eq!(spec.dataset.arrival(), Some(&ArrivalSpec::Bursty { group_by: Some("origin".into()) }));
    // built-ins keep their string form
    let fig = csc::experiment::builtin("fig-e").unwrap();
    assert_eq!(serde_json::to_value(&fig).unwrap()["dataset"], "nq-trivia");
    assert_eq!(ExperimentSpec::from_json(&serde_json::to_string(&fig).unwrap()).unwrap(), fig);
    // relative paths are read from the definition's folder, whatever the working directory
    std::fs::write(d.join("defs/mine.json"), text).unwrap();
    ok(&["run", "defs/mine.json", "--out", "res", "--quiet"], &d);
    let r = report(&d.join("res/mine.json"));
    assert_eq!(r.units[0].dataset.name, "questions.ndjson");
    let DatasetId::Spec(s) = &r.experiment.dataset else { panic!("a dataset object") };
    assert_eq!(s.checksum.as_deref(), Some(r.units[0].dataset.checksum.as_str()));
    // the written definition (with its checksum) runs again from its own folder, same numbers
    let again = serde_json::to_string(&r.experiment).unwrap();
    std::fs::write(d.join("defs/again.json"), &again).unwrap();
    ok(&["run", "defs/again.json", "--out", "res2", "--quiet"], &d);
    assert_eq!(report(&d.join("res2/mine.json")).stats, r.stats);
    // a changed file no longer matches the recorded checksum
    let mut v: serde_json::Value = serde_json::from_str(&again).unwrap();
    v["dataset"]["checksum"] = "0000000000000000".into();
    std::fs::write(d.join("defs/stale.json"), v.to_string()).unwrap();
    assert!(message(&["run", "defs/stale.json", "--quiet"], &d).contains("the file changed"));
    // a dataset object names a built-in or a file, and a built-in is selected with a model
    let spec: ExperimentSpec = ExperimentSpec::from_json(
        r#"{"id":"b","dataset":{"builtin":"synthetic","arrival":{"model":"uniform"}},"measure":{"kind":"online","policies":["greedy"]},"seeds":1}"#,
    )
    .unwrap();
    assert_eq!(spec.dataset.builtin().unwrap(), Some(DatasetId::Synthetic));
    let both = DatasetId::Spec(Box::new(DatasetSpec {
        builtin: Some("plane".into()),
        jsonl: Some("x.jsonl".into()),
        ..Default::default()
    }));
    assert!(both.validate().is_err());
}

/// The SPEC §7 defaults of the built-ins, selected by name, give the same traces as by default.
#[test]
fn builtin_models_by_name_are_the_defaults() {
    let d = scratch("builtin");
    let set = ["--set", "horizon=200", "--set", "n_eval=50", "--set", "log_len=50"];
    let mut a = vec!["trace", "--dataset", "synthetic", "--out", "a.json"];
    a.extend_from_slice(&set);
    let mut b = vec!["trace", "--dataset", "synthetic", "--arrival", "uniform", "--out", "b.json"];
    b.extend_from_slice(&set);
    ok(&a, &d);
    ok(&b, &d);
    let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read("a.json"), read("b.json"));
}

#[test]
fn each_bad_file_gets_one_exact_message() {
    let d = scratch("bad");
    user_files(&d);
    let lines: Vec<String> = std::fs::read_to_string(d.join("questions.ndjson"))
        .unwrap()
        .lines()
        .take(4)
        .map(String::from)
        .collect();
    let emb = std::fs::read(d.join("vectors.bin")).unwrap();
    let w = |name: &str, bytes: &[u8]| std::fs::write(d.join(name), bytes).unwrap();
    w("four.jsonl", (lines.join("\n") + "\n").as_bytes());
    w("four.f32", &emb[..4 * DIM * 4]);
    w("five.f32", &emb[..5 * DIM * 4]);
    w("cut.jsonl", format!("{}\n{}\n{}\n{}", lines[0], lines[1], lines[2], &lines[3][..40]).as_bytes());
    let mut missing: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    missing.as_object_mut().unwrap().remove("tokens");
    w("missing.jsonl", format!("{}\n{}\n{missing}\n{}\n", lines[0], lines[1], lines[3]).as_bytes());
    let mut nan = emb[..4 * DIM * 4].to_vec();
    nan[(2 * DIM + 5) * 4..(2 * DIM + 6) * 4].copy_from_slice(&f32::NAN.to_le_bytes());
    w("nan.f32", &nan);
    w("empty.jsonl", b"");
    let mut dup: serde_json::Value = serde_json::from_str(&lines[3]).unwrap();
    dup["id"] = "open-domain/1".into();
    w("dup.jsonl", format!("{}\n{}\n{}\n{dup}\n", lines[0], lines[1], lines[2]).as_bytes());
    let shape = r#"{"id"?: string, "text": string, "tokens": whole number, "embedding"?: [numbers]}"#;
    let run = |jsonl: &str, emb: &str, dim: &str| {
        message(&["trace", "--out", "t.json", "--dataset", jsonl, "--embeddings", emb, "--dim", dim], &d)
    };
    assert_eq!(
        run("cut.jsonl", "four.f32", "384"),
        format!("cut.jsonl, line 4: the line ends inside a JSON object (the file looks cut short); expected one complete {shape} per line — re-export or remove the last line")
    );
    assert_eq!(
        run("missing.jsonl", "four.f32", "384"),
        format!(
            "missing.jsonl, line 3: missing field `tokens`; expected {shape} — add `tokens` to this line"
        )
    );
    assert_eq!(
        run("four.jsonl", "four.f32", "768"),
        "four.f32: four.jsonl has 4 records but only 2 embedding rows of 768 floats are in this file; the rows must equal the records exactly; 4 rows of 384 floats would fit exactly — is the dimension 384 (--dim 384)?"
    );
    assert_eq!(
        run("four.jsonl", "four.f32", "500"),
        "four.f32: 6144 bytes is not a whole number of 500-float rows (2000 bytes each); 4 rows of 384 floats would fit exactly — is the dimension 384 (--dim 384)?"
    );
    assert_eq!(
        run("four.jsonl", "five.f32", "384"),
        "five.f32: four.jsonl has 4 records but 5 embedding rows of 384 floats are in this file; the rows must equal the records exactly — remove the extra rows 4–4 or add their records"
    );
    assert_eq!(
        run("four.jsonl", "nan.f32", "384"),
        "nan.f32, row 2 = line 3 of four.jsonl: coordinate 5 is NaN (non-finite); every value must be finite — recompute this embedding"
    );
    assert_eq!(
        run("empty.jsonl", "four.f32", "384"),
        format!("empty.jsonl: the file is empty: it holds no records; expected one {shape} per line")
    );
    assert_eq!(
        run("dup.jsonl", "four.f32", "384"),
        "dup.jsonl, line 4: duplicate id \"open-domain/1\" (first on line 2); every id must be unique — rename or remove one of the two records (a repeated query in a log is a new line with its own id)"
    );
    assert_eq!(
        message(&["trace", "--out", "t.json", "--dataset", "four.jsonl"], &d),
        "four.jsonl, line 1: no `embedding`: give every record an `embedding` list, or supply the binary embedding file (--embeddings FILE --dim d)"
    );
    // the dimension is inferred when left out
    ok(&["trace", "--out", "t.json", "--dataset", "four.jsonl", "--embeddings", "four.f32"], &d);
    // the data folder: --data, then CSC_DATA, then ../shared/data from the working directory
    let m = message(&["run", "fig-e", "--data", "nowhere", "--quiet"], &d);
    assert!(
        m.starts_with("cannot read the data folder nowhere: it does not exist")
            && m.contains("--data DIR or CSC_DATA=DIR"),
        "{m}"
    );
}

/// `replay` with an index file of arrivals: the index is the stream (T = its lines, repeated
/// queries repeated lines), by record id or, without ids, by row number; the JSON form names it and
/// records its checksum; each bad index file gets one exact message.
#[test]
fn replay_follows_an_index_file_of_arrivals() {
    let d = scratch("index");
    user_files(&d);
    // by id: a log that repeats questions, in its own order
    let rows = [5usize, 61, 5, 0, 119, 61, 5, 30];
    let id = |r: usize| if r < PER { format!("open-domain/{r}") } else { format!("trivia/{}", r - PER) };
    let idx: String = rows.iter().map(|&r| id(r) + "\n").collect();
    std::fs::write(d.join("log.txt"), format!("{idx}\n")).unwrap();
    let base = ["--dataset", "questions.ndjson", "--embeddings", "vectors.bin", "--dim", "384"];
    let mut args = vec!["trace", "--out", "t.json", "--arrival", "replay", "--replay-index", "log.txt"];
    args.extend_from_slice(&base);
    args.extend_from_slice(&["--set", "n_eval=40", "--set", "log_len=40"]);
    ok(&args, &d);
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("t.json")).unwrap()).unwrap();
    let got: Vec<usize> =
        t["arrival_idx"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert_eq!(got, rows, "the index file is the stream");
    // E and the log are drawn from the index's rows
    for key in ["eval_idx", "log_idx"] {
        if let Some(a) = t[key].as_array() {
            assert!(a.iter().all(|v| rows.contains(&(v.as_u64().unwrap() as usize))), "{key}");
        }
    }
    // an experiment on it: T is the index's length, and the definition names the index + checksum
    let mut args = vec!["run", "fig-e", "--out", "res", "--arrival", "replay", "--replay-index", "log.txt"];
    args.extend_from_slice(&base);
    args.extend_from_slice(&["--seeds", "1", "--set", "n_eval=100", "--quiet"]);
    ok(&args, &d);
    let r = report(&d.join("res/fig-e-questions.json"));
    assert!(r.units.iter().all(|u| u.params.horizon == rows.len()), "T = the index's length");
    let a = serde_json::to_value(r.experiment.dataset.arrival().unwrap()).unwrap();
    assert_eq!((a["model"].as_str(), a["index"].as_str()), (Some("replay"), Some("log.txt")));
    assert_eq!(a["index_checksum"].as_str().map(str::len), Some(16));
    // the JSON definition form, read from the definition's folder, runs again to the same numbers
    std::fs::write(d.join("again.json"), serde_json::to_string(&r.experiment).unwrap()).unwrap();
    ok(&["run", "again.json", "--out", "res2", "--quiet"], &d);
    let regrets = |r: &Report| -> Vec<(String, f64, f64)> {
        let f = r.stats.iter().filter(|s| s.metric == "avg_regret");
        f.map(|s| (s.algorithm.clone(), s.x, s.mean)).collect()
    };
    let again = report(&d.join("res2/fig-e-questions.json"));
    assert!(!regrets(&r).is_empty() && regrets(&again) == regrets(&r), "the same numbers again");
    let mut v = serde_json::to_value(&r.experiment).unwrap();
    v["dataset"]["arrival"]["index_checksum"] = "0000000000000000".into();
    std::fs::write(d.join("stale.json"), v.to_string()).unwrap();
    assert_eq!(
        message(&["run", "stale.json", "--quiet"], &d),
        format!(
            "log.txt: its arrivals have checksum {} but the experiment was defined with an index of checksum 0000000000000000; the file changed (drop \"index_checksum\" to accept it)",
            a["index_checksum"].as_str().unwrap()
        )
    );
    // by row number, when the JSONL has no ids
    let text = std::fs::read_to_string(d.join("questions.ndjson")).unwrap();
    let no_ids: String = text
        .lines()
        .take(4)
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("id");
            format!("{v}\n")
        })
        .collect();
    std::fs::write(d.join("plain.jsonl"), no_ids).unwrap();
    std::fs::write(d.join("plain.f32"), &std::fs::read(d.join("vectors.bin")).unwrap()[..4 * DIM * 4])
        .unwrap();
    let w = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap();
    w("rows.txt", "3\n3\n0\n2\n");
    w("empty.txt", "\n  \n");
    w("word.txt", "1\n2\nthree\n");
    w("far.txt", "0\n1\n\n4\n");
    w("unknown.txt", "open-domain/1\nopen-domain/99\n");
    let args = |jsonl: &'static str, emb: &'static str, index: &'static str| {
        let mut a = vec!["trace", "--out", "t.json", "--dataset", jsonl, "--embeddings", emb];
        a.extend_from_slice(&["--arrival", "replay", "--replay-index", index]);
        a.extend_from_slice(&["--set", "n_eval=10", "--set", "log_len=10"]);
        a
    };
    let run = |jsonl, emb, index| message(&args(jsonl, emb, index), &d);
    ok(&args("plain.jsonl", "plain.f32", "rows.txt"), &d);
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("t.json")).unwrap()).unwrap();
    assert_eq!(t["arrival_idx"], serde_json::json!([3, 3, 0, 2]));
    let rows_msg = "one row number of plain.jsonl per line (0 to 3; row i is its i-th record, counted from 0), in arrival order";
    assert_eq!(
        run("plain.jsonl", "plain.f32", "empty.txt"),
        format!("empty.txt: the file is empty: it holds no arrivals; expected {rows_msg}")
    );
    assert_eq!(
        run("plain.jsonl", "plain.f32", "word.txt"),
        format!(
            "word.txt, line 3: \"three\" is not a row number; expected {rows_msg} — fix or remove this line"
        )
    );
    assert_eq!(
        run("plain.jsonl", "plain.f32", "far.txt"),
        "far.txt, line 4: row 4 is out of range: plain.jsonl has 4 records (rows 0 to 3) — fix or remove this line"
    );
    assert_eq!(
        run("questions.ndjson", "vectors.bin", "unknown.txt"),
        "unknown.txt, line 2: unknown id \"open-domain/99\": no record of questions.ndjson has it; expected one record `id` of questions.ndjson per line, in arrival order — fix or remove this line"
    );
    assert_eq!(
        message(&["trace", "--out", "t.json", "--arrival", "uniform", "--replay-index", "rows.txt"], &d),
        "--replay-index goes with --arrival replay"
    );
}
