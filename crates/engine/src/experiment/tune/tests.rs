//! Threshold tuning by hand: commands, targets and selection on constructed reports.

use super::command::*;
use super::select::*;
use super::*;
use crate::config::Params;
use crate::experiment::definition::builtins::values;
use crate::experiment::stats::binomial::*;
use crate::experiment::{DatasetId, ExperimentSpec, Family, Measure, Report};
use crate::online::PolicyKind;

#[test]
fn the_command_of_an_answer() {
    let file = "tune-threshold.definition.json";
    let nq = tune_definition(DatasetId::NqTrivia).unwrap();
    assert_eq!(tune_command(&nq, Target::Precision(0.9), file), "csc tune-threshold --precision 0.9");
    // As the page passes it back: through JSON.
    let back = ExperimentSpec::from_json(&serde_json::to_string(&nq).unwrap()).unwrap();
    assert_eq!(tune_command(&back, Target::Precision(0.9), file), "csc tune-threshold --precision 0.9");
    // As JavaScript gives it back: a family's 1.0 as the integer 1 (one number type).
    let mut js = serde_json::to_value(&nq).unwrap();
    for f in js["measure"]["families"].as_array_mut().unwrap() {
        for v in f["values"].as_array_mut().unwrap() {
            if v.as_f64().is_some_and(|x| x.fract() == 0.0) {
                *v = serde_json::json!(v.as_f64().unwrap() as u64);
            }
        }
    }
    let from_js = ExperimentSpec::from_json(&js.to_string()).unwrap();
    assert_ne!(from_js, nq, "the integers are there");
    assert_eq!(tune_command(&from_js, Target::Precision(0.9), file), "csc tune-threshold --precision 0.9");
    // The title is the CLI's to make; a changed one is no change.
    let retitled = ExperimentSpec { title: "x".into(), ..nq.clone() };
    assert_eq!(
        tune_command(&retitled, Target::ErrorRate(0.01), file),
        "csc tune-threshold --error-rate 0.01"
    );
    // Another built-in, its seeds and parameters: flags, in Params' order; f64 round-trips.
    let mut syn = tune_definition(DatasetId::Synthetic).unwrap();
    syn.seeds = 6;
    syn.first_seed = 3;
    syn.params.horizon = 300;
    syn.params.beta = 0.1 + 0.2;
    assert_eq!(
        tune_command(&syn, Target::Precision(0.95), file),
        "csc tune-threshold --precision 0.95 --dataset synthetic --seeds 6 --first-seed 3 --set beta=0.30000000000000004 --set horizon=300"
    );
    // An arrival model, the user's data or another measure: the definition file.
    let mut arrival = nq.clone();
    arrival.dataset = <DatasetId as crate::json::FromJson>::from_json_value(
        &serde_json::json!({ "builtin": "nq-trivia", "arrival": { "model": "popularity" } }),
    )
    .unwrap();
    assert_eq!(
        tune_command(&arrival, Target::Precision(0.9), file),
        "csc tune-threshold tune-threshold.definition.json --precision 0.9"
    );
    let mut fewer = nq.clone();
    if let Measure::Frontier { families } = &mut fewer.measure {
        families.pop();
    }
    assert_eq!(
        tune_command(&fewer, Target::Precision(0.9), "my tune.json"),
        "csc tune-threshold 'my tune.json' --precision 0.9"
    );
}

#[test]
fn targets_out_of_range_are_one_plain_message() {
    for (k, v) in [("precision", 0.0), ("precision", 1.5), ("precision", -0.1), ("precision", f64::NAN)] {
        let e = Target::new(k, v).unwrap_err().to_string();
        assert!(e.contains("is not a hit precision: give a number in (0, 1]"), "{e}");
    }
    for v in [1.0, 1.2, -0.01, f64::NAN, f64::INFINITY] {
        let e = Target::new("error_rate", v).unwrap_err().to_string();
        assert!(e.contains("is not an error rate: give a number in [0, 1)"), "{e}");
    }
    assert!(Target::new("precision", f64::NAN).unwrap_err().to_string().contains("NaN"));
    assert_eq!(Target::new("precision", 1.0), Ok(Target::Precision(1.0)));
    assert_eq!(Target::new("error-rate", 0.0), Ok(Target::ErrorRate(0.0)));
    assert!(Target::new("recall", 0.5).is_err());
}

#[test]
fn selection_on_a_constructed_case() {
    let c = |requests, hits, wrong_hits| Counts { requests, hits, wrong_hits };
    // Three τ in grid order, 100 requests each:
    // 0: 10 hits, all correct: lower bound 0.05^(1/10) = 0.7411;
    // 1: 40 hits, 1 wrong: lower bound of 39/40 ≈ 0.8882 (P(X ≥ 39; 40, p) = 0.05);
    // 2: 70 hits, 20 wrong: 50/70, lower bound ≈ 0.61.
    let cands = [c(100, 10, 0), c(100, 40, 1), c(100, 70, 20)];
    let b1 = cands[1].bound(Target::Precision(0.9));
    // By hand: P(X ≥ 39) = p^40 + 40 p^39 (1 − p) = 0.05 at p = b1.
    let tail = libm::pow(b1, 40.0) + 40.0 * libm::pow(b1, 39.0) * (1.0 - b1);
    assert!((tail - 0.05).abs() < 1e-12, "{tail}");
    // Precision ≥ 0.7: 0 and 1 meet it, 1 has the larger hit ratio.
    assert_eq!(select(&cands, Target::Precision(0.7)), Some(1));
    // Precision ≥ 0.75: 0's bound 0.7411 fails, 1 meets it.
    assert!(cands[0].bound(Target::Precision(0.75)) < 0.75);
    assert_eq!(select(&cands, Target::Precision(0.75)), Some(1));
    // Precision ≥ 0.9: 1's bound (≈0.888) fails, 0's too: none.
    assert!(b1 < 0.9 && b1 > 0.85, "{b1}");
    assert_eq!(select(&cands, Target::Precision(0.9)), None);
    // Precision ≥ 0.5: all meet it, 2 has the largest hit ratio.
    assert_eq!(select(&cands, Target::Precision(0.5)), Some(2));
    // Error rate ≤ 0.05: upper bounds of 0/100 (0.0295), 1/100 (0.0466), 20/100 (> 0.2).
    assert!((cands[0].bound(Target::ErrorRate(0.05)) - (1.0 - libm::pow(0.05, 0.01))).abs() < 1e-12);
    assert_eq!(select(&cands, Target::ErrorRate(0.05)), Some(1));
    assert_eq!(select(&cands, Target::ErrorRate(0.04)), Some(0));
    // A candidate without a hit never qualifies (error rate 0 but no use).
    assert_eq!(select(&[c(100, 0, 0)], Target::ErrorRate(0.5)), None);
    // Ties: the first.
    assert_eq!(select(&[c(100, 40, 0), c(100, 40, 0)], Target::Precision(0.5)), Some(0));
}

/// A report of the threshold cache over τ = 0.1, 0.2, 0.3 on 4 seeds of T = 100 requests, each
/// unit's (hits, wrong hits) given by `counts(point, seed)`; distance scale D = 1.5.
fn constructed(counts: impl Fn(usize, u64) -> (u64, u64)) -> Report {
    use super::super::{Observation, UnitResult};
    let spec = ExperimentSpec {
        id: "t".into(),
        title: "t".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Frontier {
            families: vec![Family::sweep(PolicyKind::Threshold, "threshold_tau", values(&[0.1, 0.2, 0.3]))],
        },
        sweep: None,
        params: Params { horizon: 100, ..Params::default() },
        seeds: 4,
        first_seed: 0,
    };
    let info = crate::dataset::DatasetInfo {
        name: "t".into(),
        size: 50,
        dim: 2,
        dist_scale: 1.5,
        checksum: "0".into(),
        no_ground_truth: None,
        notes: Vec::new(),
    };
    let units = spec
        .units()
        .into_iter()
        .map(|u| {
            let (h, w) = counts(u.point, u.seed);
            let x = [0.1, 0.2, 0.3][u.point];
            let o = |metric: &str, value: f64| Observation {
                algorithm: "threshold".into(),
                metric: metric.into(),
                x,
                y: f64::NAN,
                value,
            };
            UnitResult {
                experiment: "t".into(),
                params: spec.params.clone(),
                dataset: info.clone(),
                observations: vec![
                    o("final_hit_rate", h as f64 / 100.0),
                    o("final_error_rate", w as f64 / 100.0),
                    o("final_avg_realised_cost", 0.5),
                ],
                detail: serde_json::Value::Null,
                unit: u,
            }
        })
        .collect();
    Report::new(&spec, units)
}

#[test]
fn tau_is_chosen_on_the_first_half_and_reported_on_the_other() {
    // Selection seeds 0, 1 (200 requests per τ): τ = 0.1: 20 hits, none wrong (lower bound
    // 0.05^(1/20) = 0.8609); τ = 0.2: 60 hits, 2 wrong (58/60); τ = 0.3: 100 hits, 20 wrong
    // (0.8). Reporting seeds 2, 3: τ = 0.2 has 40 hits, none wrong.
    let r = constructed(|point, seed| match (point, seed < 2) {
        (0, _) => (10, 0),
        (1, true) => (30, 1),
        (1, false) => (20, 0),
        _ => (50, 10),
    });
    let b = cp_lower(58, 60, ALPHA);
    assert!(b > 0.85 && b < 0.95, "{b}");
    assert!(cp_lower(80, 100, ALPHA) < 0.85);
    let a = r.tune_threshold(Target::Precision(0.85)).unwrap();
    assert_eq!((a.selection_seeds.clone(), a.reporting_seeds.clone()), (vec![0, 1], vec![2, 3]));
    assert_eq!(a.tau, Some(0.2));
    // cosine = 1 − (1.5 · 0.2)²/2 = 1 − 0.045.
    assert!((a.cosine.unwrap() - 0.955).abs() < 1e-15);
    let c = a.threshold.as_ref().unwrap();
    assert_eq!(c.selection.counts, Counts { requests: 200, hits: 60, wrong_hits: 2 });
    assert_eq!(c.selection.bound, b);
    assert_eq!(c.reporting.counts, Counts { requests: 200, hits: 40, wrong_hits: 0 });
    assert_eq!(c.reporting.precision, 1.0);
    assert!((c.reporting.bound - libm::pow(0.05, 1.0 / 40.0)).abs() < 1e-12);
    assert!(c.reporting.holds && a.best.is_none());
    assert_eq!(a.rows.iter().map(|r| r.meets).collect::<Vec<_>>(), [true, true, false]);
    assert!(
        a.sentences[0].starts_with("τ = 0.2 (cosine similarity 0.9550): the largest hit ratio (0.3000)"),
        "{}",
        a.sentences[0]
    );
    assert!(
        a.sentences[1].ends_with(&format!(
            "the target holds there: its one-sided 95% Clopper–Pearson lower bound on hit precision on \
             these seeds, {}, is at least 0.85.",
            crate::experiment::stats::significant(c.reporting.bound, 4)
        )),
        "{}",
        a.sentences[1]
    );
    // Precision ≥ 0.95: no τ meets it; the closest bound is τ = 0.2's.
    let a = r.tune_threshold(Target::Precision(0.95)).unwrap();
    assert_eq!((a.tau, a.best.as_ref().map(|c| c.value)), (None, Some(0.2)));
    assert!(a.sentences[0].starts_with("No τ of the grid (0.02 to 0.6) meets hit precision ≥ 0.95 at 95%"));
    // One seed: refused with one message.
    let mut one = r.clone();
    one.units.retain(|u| u.unit.seed == 0);
    let e = one.tune_threshold(Target::Precision(0.9)).unwrap_err().to_string();
    assert!(e.contains("it needs at least 2 seeds"), "{e}");
}

/// "Does not hold" beside a held-out hit precision above the target is explained in the same
/// sentence: the one-sided 95% Clopper–Pearson lower bound on the held-out seeds, which is what
/// falls short, next to the target; and the bound never rounds onto the target.
#[test]
fn a_target_that_fails_on_held_out_seeds_is_said_with_its_bound() {
    // Selection as above (τ = 0.2 meets 0.85); held out, τ = 0.2 has 20 hits, 1 wrong: hit
    // precision 0.95, but its lower bound cp_lower(19, 20) = 0.7840 is below 0.85.
    let r = constructed(|point, seed| match (point, seed < 2) {
        (0, _) => (10, 0),
        (1, true) => (30, 1),
        (1, false) => (10, if seed == 2 { 1 } else { 0 }),
        _ => (50, 10),
    });
    let a = r.tune_threshold(Target::Precision(0.85)).unwrap();
    let c = a.threshold.as_ref().unwrap();
    assert_eq!((c.reporting.precision, c.reporting.holds), (0.95, false));
    let bound = cp_lower(19, 20, ALPHA);
    assert!(bound < 0.85, "{bound}");
    let said = format!(
        "hit precision 0.9500 [0.7513, 0.9987] (two-sided 95% Clopper–Pearson), error rate 0.005000 [0.0001266, \
         0.02754]; the target does not hold there: its one-sided 95% Clopper–Pearson lower bound on hit \
         precision on these seeds, {}, is below 0.85.",
        crate::experiment::stats::significant(bound, 4)
    );
    assert!(
        a.sentences[1].starts_with("On the held-out seeds 2, 3: hit ratio 0.1000, "),
        "{}",
        a.sentences[1]
    );
    assert!(a.sentences[1].ends_with(&said), "{}\nwant …{said}", a.sentences[1]);
    // Every sentence that says whether the target holds says its bound in that sentence.
    for s in a.sentences.iter().filter(|s| s.contains("the target holds") || s.contains("does not hold")) {
        assert!(s.contains("Clopper–Pearson lower bound on hit precision on these seeds, "), "{s}");
    }
    // A bound just below the target is never shown as the target: more digits until it reads below.
    let mut m = c.reporting.clone();
    m.bound = 0.849_996;
    let words = super::words::verdict(&m, Target::Precision(0.85));
    assert!(words.ends_with("on these seeds, 0.849996, is below 0.85"), "{words}");
    // An error-rate target: its upper bound, at most or above.
    let e = super::words::verdict(&c.reporting, Target::ErrorRate(0.01));
    assert!(e.starts_with("the target does not hold there: its one-sided 95% Clopper–Pearson upper bound on the error rate on these seeds, "), "{e}");
    assert!(e.ends_with("is above 0.01"), "{e}");
}

#[test]
fn the_cosine_of_tau_inverts_the_configs_resolution() {
    let d = 1.13;
    for s in [0.6, 0.8, 0.95] {
        let p = Params { threshold_cosine: Some(s), ..Params::default() };
        let tau = p.resolved_threshold_tau(d);
        assert!((cosine_of(tau, d) - s).abs() < 1e-12);
    }
}
