//! Correctness of served answers (SPEC §14): ground truth through datasets, streams and traces;
//! the online error rate and hit precision; the offline error rate of M̂; reports that show "—"
//! where there is no ground truth. The nq-trivia tests read `../shared/data` (or `$CSC_DATA`)
//! and fail, never skip, when it is missing.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::answers::Label;
use csc_engine::config::Params;
use csc_engine::dataset::{nq_trivia, plane, synthetic, Dataset, GroundTruth, UserFiles};
use csc_engine::experiment::{run_unit, ExperimentSpec, Report};
use csc_engine::offline::{OfflineKind, OfflineProblem};
use csc_engine::online::sim::{run_trace, Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::space::Points;
use csc_engine::stream::{calibrate_sigma, generate_trace, ArrivalModel};
use csc_engine::trace::{Queries, Trace, TraceLabels};
use std::sync::Arc;

/// Three points on a line (D = 1): p0 and p1 are 0.01 apart, p2 is far from both.
fn line_trace(arrivals: Vec<u32>, labels: Option<Vec<Label>>) -> Trace {
    let universe = Points::from_rows(&[[0.0f32, 0.0], [0.01, 0.0], [1.0, 0.0]]).unwrap();
    let cost = [0.9, 0.5, 0.7];
    let n = arrivals.len();
    Trace {
        dist_scale: 1.0,
        universe: Some(universe),
        universe_cost: Some(cost.to_vec()),
        cost: arrivals.iter().map(|&i| cost[i as usize]).collect(),
        arrivals: Queries::Indices(arrivals),
        eta: vec![0.0; n],
        z: Vec::new(),
        eval: Queries::Indices(vec![0, 1, 2]),
        eval_cost: cost.to_vec(),
        offline: None,
        meta: serde_json::Value::Null,
        labels: TraceLabels { universe: labels, ..TraceLabels::default() },
        tenants: None,
    }
}

fn threshold_params(horizon: usize) -> Params {
    Params { horizon, k: 10, threshold_tau: 0.05, epsilon: 0.1, ..Params::default() }
}

/// Threshold cache (hit iff the nearest cached query is within τ = 0.05), by hand:
/// t0 p0 miss (admit 0, label A); t1 p1 hit by item 0: A vs B wrong; t2 p0 hit by item 0:
/// right; t3 p2 miss (admit 3, label C); t4 p1 hit by item 0 (d 0.01 < 0.99): wrong.
/// Wrong hits 2 of 5 rounds, 1 correct of 3 hits.
#[test]
fn wrong_hits_by_hand() {
    let labels = vec![Label::Text("A".into()), Label::Text("B".into()), Label::Text("C".into())];
    let t = line_trace(vec![0, 1, 0, 2, 1], Some(labels));
    let r = &run_trace(&t, &threshold_params(5).check().unwrap(), &[PolicyKind::Threshold]).unwrap()[0];
    let l = &r.last;
    assert_eq!((l.t, l.llm_calls), (5, 2));
    assert_eq!(l.wrong_hits, Some(2));
    assert_eq!(l.error_rate, Some(0.4));
    assert_eq!(l.hit_precision, Some(1.0 / 3.0));
    // The curve: E(t) after each round (checkpoints every round at this horizon).
    let curve: Vec<Option<f64>> = r.checkpoints.iter().map(|c| c.error_rate).collect();
    assert_eq!(curve, vec![Some(0.0), Some(0.5), Some(1.0 / 3.0), Some(0.25), Some(0.4)]);
    assert_eq!(r.checkpoints[0].hit_precision, None, "no hits yet: undefined, not 0");
    // Round by round, as the live view marks them: t1 wrong, t2 right, t4 wrong; the misses none.
    let env = Arc::new(Environment::from_trace(&t, &threshold_params(5).check().unwrap()).unwrap());
    let mut sim =
        Simulation::new(env, PolicyKind::Threshold, &threshold_params(5).check().unwrap(), 0).unwrap();
    let marks: Vec<Option<bool>> = (0..5).map(|i| sim.step(&t.arrival(i)).wrong).collect();
    assert_eq!(marks, vec![None, Some(true), Some(false), None, Some(true)]);
    // Without labels no hit is judged.
    let t = line_trace(vec![0, 1, 0, 2, 1], None);
    let env = Arc::new(Environment::from_trace(&t, &threshold_params(5).check().unwrap()).unwrap());
    let mut sim =
        Simulation::new(env, PolicyKind::Threshold, &threshold_params(5).check().unwrap(), 0).unwrap();
    assert!((0..5).all(|i| sim.step(&t.arrival(i)).wrong.is_none()));
}

/// Answer lists are compared after SQuAD normalisation; an empty list matches nothing.
#[test]
fn answer_lists_by_hand() {
    let beatles = Label::answers(&["The Beatles"]);
    let also = Label::answers(&["beatles!", "Fab Four"]);
    let t = line_trace(vec![0, 1, 0], Some(vec![beatles.clone(), also, Label::answers(&["x"])]));
    let l = run_trace(&t, &threshold_params(3).check().unwrap(), &[PolicyKind::Threshold]).unwrap()[0]
        .last
        .clone();
    assert_eq!((l.wrong_hits, l.hit_precision), (Some(0), Some(1.0)));
    // Item 0 has no answer left after normalisation: every hit it serves is wrong, even its own.
    let t = line_trace(vec![0, 0, 1], Some(vec![Label::answers(&["A+", "---"]), beatles, Label::Class(0)]));
    let l = run_trace(&t, &threshold_params(3).check().unwrap(), &[PolicyKind::Threshold]).unwrap()[0]
        .last
        .clone();
    assert_eq!((l.wrong_hits, l.error_rate), (Some(2), Some(2.0 / 3.0)));
}

/// Without ground truth the metrics are absent — `None`, JSON null — never 0; the other
/// metrics do not depend on whether labels are there.
#[test]
fn no_labels_no_metrics_and_nothing_else_changes() {
    let arrivals = vec![0, 1, 0, 2, 1, 2];
    let labels = Some(vec![Label::Class(0), Label::Class(0), Label::Class(1)]);
    // Every policy that runs without labels (vCache needs them: tests/vcache.rs).
    let kinds: Vec<PolicyKind> = PolicyKind::ALL.into_iter().filter(|k| !k.needs_labels()).collect();
    let with =
        run_trace(&line_trace(arrivals.clone(), labels), &threshold_params(6).check().unwrap(), &kinds)
            .unwrap();
    let without =
        run_trace(&line_trace(arrivals, None), &threshold_params(6).check().unwrap(), &kinds).unwrap();
    for (a, b) in with.iter().zip(&without) {
        let (x, y) = (&a.last, &b.last);
        assert!(x.error_rate.is_some_and(f64::is_finite), "{}", a.policy);
        assert_eq!((y.error_rate, y.hit_precision, y.wrong_hits), (None, None, None), "{}", b.policy);
        assert_eq!(x.regret.to_bits(), y.regret.to_bits(), "{}", a.policy);
        assert_eq!((x.llm_calls, x.switches), (y.llm_calls, y.switches), "{}", a.policy);
        let j = serde_json::to_value(y).unwrap();
        assert!(j["error_rate"].is_null() && j["hit_precision"].is_null(), "{j}");
    }
}

/// Offline: `E` = {p0, p1, p2}; the oracle keeps log entries, each point is served iff
/// φ(d) < c(e) by its nearest item. Checked against a plain re-computation.
#[test]
fn offline_error_rate_matches_its_definition() {
    let labels = vec![Label::Class(0), Label::Class(1), Label::Class(2)];
    let mut t = line_trace((0..30).map(|i| i % 3).collect(), Some(labels.clone()));
    t.z = vec![true; 30];
    let p = Params { k: 1, epsilon: 0.1, horizon: 30, log_len: 30, ..Params::default() };
    let prob = OfflineProblem::from_trace(&t, &p.clone().check().unwrap()).unwrap();
    for kind in OfflineKind::ALL {
        let r = prob.run(kind).unwrap();
        let items: Vec<usize> = r.cache.clone();
        let mut cache = Points::new(2).unwrap();
        for &i in &items {
            cache.push(t.log_x(i)).unwrap();
        }
        let mut wrong = 0;
        for e in 0..3 {
            let x = t.eval_x(e);
            let (j, d) = prob.metric.nearest(x, &cache).unwrap();
            let row = (items[j] % 3) as usize;
            if prob.eval.mismatch.phi(d) < t.eval_cost[e] && labels[e] != labels[row] {
                wrong += 1;
            }
        }
        assert_eq!(r.error_rate, Some(wrong as f64 / 3.0), "{kind:?}");
    }
    let mut u = line_trace((0..30).map(|i| i % 3).collect(), None);
    u.z = vec![true; 30];
    let prob = OfflineProblem::from_trace(&u, &p.clone().check().unwrap()).unwrap();
    assert_eq!(prob.run(OfflineKind::CucbScCont).unwrap().error_rate, None);
}

/// Synthetic: an arrival's label is its source prompt; traces carry the labels and a replay
/// measures the same metrics as the generated run.
#[test]
fn synthetic_labels_travel_with_the_trace() {
    let d = Arc::new(synthetic::universe(0.01).unwrap());
    let p = Params { horizon: 200, n_eval: 50, log_len: 40, seed: 3, ..Params::default() };
    let model = ArrivalModel::default_for(&d, &p).unwrap();
    let t = generate_trace(d.clone(), model, &p.clone().check().unwrap()).unwrap();
    assert!(t.has_labels());
    let back = Trace::from_json(&t.to_json()).unwrap();
    assert_eq!(back.labels, t.labels);
    let kinds = [PolicyKind::Threshold, PolicyKind::Lfu];
    let a = run_trace(&t, &p.clone().check().unwrap(), &kinds).unwrap();
    let b = run_trace(&back, &p.clone().check().unwrap(), &kinds).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert!(x.last.error_rate.is_some());
        assert_eq!(x.last.error_rate, y.last.error_rate);
        assert_eq!(x.last.hit_precision, y.last.hit_precision);
    }
    // Labels are checked on replay.
    let mut j: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    j["labels"].as_array_mut().unwrap().pop();
    let e = Trace::from_json(&j.to_string()).unwrap_err().to_string();
    assert!(e.contains("`labels` has 199 entries for 200 queries"), "{e}");
}

/// Synthetic's offline log is jittered prompts: each entry carries its prompt's label
/// (`off_labels`), so the offline error rate of M̂ (SPEC §14) is measured there too, and a
/// replayed trace gives the same.
#[test]
fn synthetic_offline_logs_carry_their_labels() {
    let d = Arc::new(synthetic::universe(0.01).unwrap());
    let p = Params { horizon: 100, n_eval: 300, log_len: 200, seed: 2, ..Params::default() };
    let t =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    let log = t.labels.log.as_ref().expect("the log's labels");
    assert_eq!(log.len(), 200);
    // Each entry's label is that of the prompt nearest to it (the jitter is small beside the
    // prompts' spacing), as E's are.
    let all = d.ground_truth.labels().unwrap();
    let dist = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f32>();
    for (i, l) in log.iter().enumerate().step_by(17) {
        let x = t.log_x(i);
        let near = (0..d.points.len())
            .min_by(|&a, &b| dist(x, d.points.row(a)).total_cmp(&dist(x, d.points.row(b))))
            .unwrap();
        assert_eq!(l, &all[near], "log entry {i}");
    }
    let back = Trace::from_json(&t.to_json()).unwrap();
    assert_eq!(back.labels, t.labels);
    for kind in OfflineKind::ALL {
        let a = OfflineProblem::from_trace(&t, &p.clone().check().unwrap()).unwrap().run(kind).unwrap();
        let e = a.error_rate.expect("measured on synthetic");
        assert!((0.0..=1.0).contains(&e), "{kind:?}: {e}");
        assert_eq!(
            OfflineProblem::from_trace(&back, &p.clone().check().unwrap())
                .unwrap()
                .run(kind)
                .unwrap()
                .error_rate,
            Some(e)
        );
    }
    let mut j: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    j["off_labels"].as_array_mut().unwrap().pop();
    let e = Trace::from_json(&j.to_string()).unwrap_err().to_string();
    assert!(e.contains("`off_labels` has 199 entries for 200 queries"), "{e}");
}

/// plane has no ground truth: no correctness observations and "—" with the reason in the table.
#[test]
fn a_dataset_without_ground_truth_shows_a_dash_and_the_reason() {
    let spec = ExperimentSpec::from_json(
        r#"{"id": "mini", "dataset": "plane", "measure": {"kind": "online", "policies": ["threshold", "lfu"]},
            "params": {"horizon": 100, "n_eval": 50, "log_len": 10}, "seeds": 1}"#,
    )
    .unwrap();
    let d = Arc::new(plane::universe().unwrap());
    let units: Vec<_> = spec.units().iter().map(|u| run_unit(&spec, u, &d, &mut |_| true).unwrap()).collect();
    assert!(units[0]
        .observations
        .iter()
        .all(|o| !o.metric.contains("error_rate") && !o.metric.contains("precision")));
    let why = units[0].dataset.no_ground_truth.clone().unwrap();
    let table = Report::new(&spec, units).summary();
    assert!(table.contains(&format!("error rate, hit precision: — ({why})")), "{table}");
    assert!(table.lines().any(|l| l.starts_with("Threshold") && l.trim_end().ends_with("—")), "{table}");
}

/// User JSONL with `label`s gives labelled arrivals; the dataset says where labels are missing.
#[test]
fn user_labels_and_their_absence() {
    let mut jsonl = String::new();
    for i in 0..6 {
        let a = (i as f32 * 0.3).cos();
        let b = (i as f32 * 0.3).sin();
        jsonl.push_str(&format!(
            "{{\"text\":\"q{i}\",\"tokens\":{},\"embedding\":[{a},{b}],\"label\":{}}}\n",
            3 + i,
            i % 2
        ));
    }
    let d = Dataset::from_jsonl("mine.jsonl", jsonl.as_bytes(), None, 0.01).unwrap();
    assert_eq!(d.label(3), Some(&Label::Class(1)));
    assert!(d.notes.is_empty() && d.info().no_ground_truth.is_none());
    let plain =
        Dataset::from_jsonl("plain.jsonl", b"{\"text\":\"a\",\"tokens\":1,\"embedding\":[1,0]}", None, 0.01)
            .unwrap();
    assert!(
        matches!(&plain.ground_truth, GroundTruth::Absent(r) if r.contains("plain.jsonl gives no `answers` or `label`"))
    );
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A binary file holding every embedding twice, dimension left to inference, reads as rows of twice
/// the dimension and norm √2 — refused. Given the dimension, its rows of norm √2 are normalised to
/// unit length (SPEC §1) with a note, so σ_e calibrates as for unit rows (it was an error after
/// "Loaded"); a row of zeros is refused; the σ_e calibration that cannot reach its target is still
/// an error.
#[test]
fn non_unit_rows_are_normalised_and_said_or_refused_and_calibration_cannot_degenerate() {
    let n = 4;
    let rows: Vec<Vec<f32>> = (0..n)
        .map(|i| {
            let a = i as f32 * 0.5;
            vec![a.cos(), a.sin(), 0.0]
        })
        .collect();
    let jsonl: String = (0..n).map(|i| format!("{{\"text\":\"q{i}\",\"tokens\":{}}}\n", i + 1)).collect();
    // The same 4 rows written twice: 8 rows of 3 = 4 rows of 6, each of norm √2.
    let twice: Vec<f32> = rows.iter().chain(rows.iter()).flatten().copied().collect();
    let files = |bytes: &'static [u8], dim| UserFiles {
        jsonl_name: "q.jsonl",
        jsonl: jsonl.as_bytes(),
        embeddings: Some(("e.f32", bytes)),
        dim,
        group_by: None,
        replay_index: None,
    };
    let twice: &'static [u8] = Box::leak(f32_bytes(&twice).into_boxed_slice());
    let e = Dataset::from_user_files(&files(twice, None), 0.01).unwrap_err().to_string();
    assert!(
        e.starts_with("e.f32, row 0 = line 1: 4 of 4 rows are not unit-norm (norms 1.4142 to 1.4142"),
        "{e}"
    );
    assert!(e.contains("inferred dimension 6"), "{e}");
    // Declared: normalised to unit length, with a note that results carry; the same universe
    // (points, checksum) as the unit rows, so σ_e calibrates to the same value.
    let doubled: Vec<f32> = rows.iter().flatten().map(|v| v * 2f32.sqrt()).collect();
    let doubled: &'static [u8] = Box::leak(f32_bytes(&doubled).into_boxed_slice());
    let d = Dataset::from_user_files(&files(doubled, Some(3)), 0.01).unwrap();
    assert_eq!(
        d.info().notes,
        vec!["4 of 4 embedding rows were not unit-norm (norms 1.4142 to 1.4142, first row 0 (line 1)); they were normalised to unit length, as SPEC §1 assumes (their cosine similarities are unchanged)"]
    );
    let unit: &'static [u8] = Box::leak(f32_bytes(&rows.concat()).into_boxed_slice());
    let u = Dataset::from_user_files(&files(unit, None), 0.01).unwrap();
    assert!(u.notes.is_empty());
    for i in 0..n {
        for (a, b) in d.points.row(i).iter().zip(u.points.row(i)) {
            assert!((a - b).abs() < 1e-6, "row {i}: {a} vs {b}");
        }
    }
    let (sd, su) = (calibrate_sigma(&d, 0.074).unwrap(), calibrate_sigma(&u, 0.074).unwrap());
    assert!(su > 0.0 && (sd - su).abs() < 1e-4, "σ_e {sd} (normalised) vs {su} (unit)");
    let p = Params::default();
    assert!(ArrivalModel::default_for(&d, &p).is_ok());
    // A row of zeros has no direction: refused, naming the row.
    let mut zero = rows.concat();
    zero[3..6].fill(0.0);
    let zero: &'static [u8] = Box::leak(f32_bytes(&zero).into_boxed_slice());
    let e = Dataset::from_user_files(&files(zero, Some(3)), 0.01).unwrap_err().to_string();
    assert!(e.starts_with("e.f32, row 1 = line 2: the embedding is all zeros"), "{e}");
    // A target no jitter reaches is still an error, never a degenerate stream.
    let e = calibrate_sigma(&u, 10.0).unwrap_err().to_string();
    assert!(e.contains("cannot calibrate the arrival noise σ_e"), "{e}");
}

fn nq() -> Arc<Dataset> {
    let dir = nq_trivia::default_dir();
    Arc::new(
        nq_trivia::load(&dir, nq_trivia::PER_SOURCE, 0.01)
            .unwrap_or_else(|e| panic!("shared data at {}: {e}", dir.display())),
    )
}

/// nq-trivia with its gold answers: every row labelled (the README's three rows left with no
/// answer among them), and a small run measures a finite error rate.
#[test]
fn nq_trivia_answers_give_a_finite_error_rate() {
    let d = nq();
    let labels = d.ground_truth.labels().expect("the answers files are beside the data");
    assert_eq!(labels.len(), 5000);
    let empty: Vec<usize> = (0..5000).filter(|&i| labels[i].is_empty_answers()).collect();
    assert_eq!(empty.len(), 2, "nq-open-dev-00290 and -00363 (data README)");
    let p = Params { horizon: 300, n_eval: 200, log_len: 50, seed: 0, ..Params::default() };
    let t =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    assert!(t.has_labels() && t.labels.universe.is_some());
    for r in run_trace(&t, &p.clone().check().unwrap(), &[PolicyKind::Threshold, PolicyKind::Lfu]).unwrap() {
        let e = r.last.error_rate.unwrap();
        assert!((0.0..=1.0).contains(&e), "{}: {e}", r.policy);
    }
}

/// Line i of an answers file must carry the id of line i of the questions.
#[test]
fn answers_out_of_step_are_refused_with_file_and_line() {
    let recs = csc_engine::dataset::records::parse_jsonl(
        "{\"id\":\"a\",\"text\":\"x\",\"tokens\":1}\n{\"id\":\"b\",\"text\":\"y\",\"tokens\":1}",
    )
    .unwrap();
    let ok = nq_trivia::parse_answers(
        "{\"id\":\"a\",\"answers\":[\"The X\"]}\n{\"id\":\"b\",\"answers\":[]}",
        &recs,
        "nq.jsonl",
    )
    .unwrap();
    assert_eq!(ok, vec![Label::Answers(vec!["x".into()]), Label::Answers(vec![])]);
    let e = nq_trivia::parse_answers(
        "{\"id\":\"a\",\"answers\":[]}\n{\"id\":\"c\",\"answers\":[]}",
        &recs,
        "nq.jsonl",
    )
    .unwrap_err()
    .in_file("nq.answers.jsonl")
    .to_string();
    assert!(
        e.starts_with("nq.answers.jsonl, line 2: id \"c\" does not match line 2 of nq.jsonl (id \"b\")"),
        "{e}"
    );
    let e =
        nq_trivia::parse_answers("{\"id\":\"a\",\"answers\":[]}", &recs, "nq.jsonl").unwrap_err().to_string();
    assert!(e.contains("the file ends before line 2 of nq.jsonl"), "{e}");
}

/// Without the answers files beside the data, nq-trivia loads with no ground truth and says why.
#[test]
fn nq_trivia_without_answers_says_why() {
    let src = nq_trivia::default_dir();
    assert!(src.join("nq.jsonl").is_file(), "shared data missing at {}", src.display());
    let dir = std::env::temp_dir().join(format!("csc-noanswers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["nq.jsonl", "nq.emb.f32", "triviaqa.jsonl", "triviaqa.emb.f32", "triviaqa.answers.jsonl"] {
        let _ = std::fs::remove_file(dir.join(f));
        std::os::unix::fs::symlink(src.canonicalize().unwrap().join(f), dir.join(f)).unwrap();
    }
    let d = nq_trivia::load(&dir, 10, 0.01).unwrap();
    let why = d.info().no_ground_truth.unwrap();
    assert!(why.starts_with("no nq.answers.jsonl beside the data"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}
