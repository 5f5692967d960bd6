//! The frontier by hand: paired differences, clipped intervals, the common range, titles.

use super::*;
use crate::config::Params;
use crate::experiment::stats::Interval;

#[test]
fn a_paired_difference_and_its_interval_on_a_hand_computed_case() {
    // d = (−0.02, −0.01, −0.03): mean −0.02, sd 0.01, half-width t_{0.975,2}·0.01/√3 with
    // t_{0.975,2} = 0.95/√0.04875 = 4.302652729749464 (two degrees of freedom in closed form:
    // t = (2p − 1)/√(2p(1 − p)) at p = 0.975), so 4.302652729749464 × 0.01 / 1.7320508 = 0.0248414…:
    // the interval [−0.0448, 0.0048] holds 0.
    let (v, mean, ci) = Difference::of(&[-0.02, -0.01, -0.03]);
    assert!((mean + 0.02).abs() < 1e-15, "{mean}");
    assert!((ci - 4.302_652_729_749_464 * 0.01 / 3f64.sqrt()).abs() < 1e-12, "{ci}");
    assert_eq!(v, Difference::NotDistinguishable);
    // A tighter spread decides: d = (−0.020, −0.021, −0.019), sd 0.001, half-width 0.00248.
    let (v, mean, ci) = Difference::of(&[-0.020, -0.021, -0.019]);
    assert!((mean + 0.02).abs() < 1e-12 && (ci - 4.302_652_729_749_464 * 0.001 / 3f64.sqrt()).abs() < 1e-12);
    assert_eq!((v, v.words(true), v.words(false)), (Difference::Lower, "cheaper", "fewer wrong answers"));
    let (v, ..) = Difference::of(&[0.020, 0.021, 0.019]);
    assert_eq!((v.words(true), v.words(false)), ("dearer", "more wrong answers"));
    // Exactly equal on every seed: identical, never "not distinguishable".
    assert_eq!(Difference::of(&[0.0, 0.0, 0.0]).0, Difference::Identical);
    // One seed: no interval, so nothing is decided.
    let (v, mean, ci) = Difference::of(&[0.5]);
    assert_eq!((v, mean), (Difference::NotDistinguishable, 0.5));
    assert!(ci.is_nan());
    // A constant non-zero difference has sd 0: decided.
    assert_eq!(Difference::of(&[0.01, 0.01]).0, Difference::Higher);
    assert!(!Difference::NotDistinguishable.decided() && Difference::Lower.decided());
}

#[test]
fn intervals_are_clipped_to_the_quantitys_range() {
    // Unclipped, error rate 0.00367 ± 0.003798 runs to −0.000128.
    let i = Interval::clipped(3, 0.00367, 0.003798, FRONTIER_RANGES[1]);
    assert_eq!((i.lo, i.mean), (0.0, 0.00367));
    assert!((i.hi - 0.007468).abs() < 1e-12);
    let hit = Interval::clipped(3, 0.99, 0.05, FRONTIER_RANGES[2]);
    assert_eq!(hit.hi, 1.0);
    let cost = Interval::clipped(3, 0.01, 0.02, FRONTIER_RANGES[0]);
    assert_eq!((cost.lo, cost.hi), (0.0, 0.03));
    // Regret may be negative: not clipped.
    let regret = Interval::clipped(3, -0.001, 0.002, FRONTIER_RANGES[3]);
    assert_eq!((regret.lo, regret.hi), (-0.003, 0.001));
    // One seed: no interval.
    let one = Interval::clipped(1, 0.2, f64::NAN, FRONTIER_RANGES[1]);
    assert!(one.lo.is_nan() && one.hi.is_nan());
}

#[test]
fn the_common_range_is_the_one_most_families_span() {
    // Threshold-like [0.046, 0.064] and [0.045, 0.058], vCache-like [0, 0.0023], a point.
    let spans = [Some((0.046, 0.064)), Some((0.045, 0.058)), Some((0.0, 0.0023)), None];
    assert_eq!(common_range(&spans), Some((0.046, 0.058)));
    // Two families each: the wider range wins.
    let spans = [Some((0.0, 0.1)), Some((0.05, 0.2)), Some((0.3, 0.5)), Some((0.35, 0.6))];
    assert_eq!(common_range(&spans), Some((0.35, 0.5)));
    // All nest: the innermost.
    assert_eq!(common_range(&[Some((0.0, 1.0)), Some((0.2, 0.4))]), Some((0.2, 0.4)));
    // Single points only: no range.
    assert_eq!(common_range(&[Some((0.1, 0.1)), None]), None);
}

#[test]
fn titles_come_from_the_settings() {
    let p = Params { k: 50, horizon: 1000, n_eval: 2000, ..Params::default() };
    assert_eq!(
        frontier_title("nq-trivia", &p, 3),
        "Cost–correctness frontier on nq-trivia (k = 50, T = 1,000, n_eval = 2,000, 3 seeds)"
    );
    assert!(frontier_title("x", &Params { horizon: 123456, ..p }, 1)
        .contains("T = 123,456, n_eval = 2,000, 1 seed)"));
}

/// A frontier's report made by hand: every unit of `spec` (or those `keep` keeps) with the
/// final realised cost, error rate, hit rate and average regret that `at(point, seed)` gives.
fn report_of(
    spec: &crate::experiment::ExperimentSpec,
    at: impl Fn(usize, u64) -> [f64; 4],
    keep: impl Fn(&crate::experiment::Unit) -> bool,
) -> crate::experiment::Report {
    use crate::experiment::run::observation::Observation;
    let units = spec
        .units()
        .into_iter()
        .filter(|u| keep(u))
        .map(|u| {
            let (f, _) = spec.family_of(u.point).unwrap();
            let values = at(u.point, u.seed);
            let observations = FRONTIER_METRICS
                .iter()
                .zip(values)
                .map(|((metric, _), value)| Observation {
                    algorithm: f.key(),
                    metric: metric.to_string(),
                    x: spec.unit_x(&u),
                    y: f64::NAN,
                    value,
                })
                .collect();
            crate::experiment::UnitResult {
                experiment: spec.id.clone(),
                params: spec.unit_params(&u).unwrap(),
                unit: u,
                dataset: crate::dataset::DatasetInfo {
                    name: "hand".into(),
                    size: 100,
                    dim: 2,
                    dist_scale: 2.0,
                    checksum: "0".into(),
                    no_ground_truth: None,
                    notes: vec![],
                },
                observations,
                detail: serde_json::json!({}),
            }
        })
        .collect();
    crate::experiment::Report::new(spec, units)
}

/// Two threshold families (LRU, the default, and GDSF) over τ, GPTCache's preset and Greedy.
fn two_evictions() -> crate::experiment::ExperimentSpec {
    crate::experiment::ExperimentSpec::from_json(
        r#"{"id": "hand-frontier", "dataset": "synthetic", "measure": {"kind": "frontier", "families": [
            {"policy": "threshold", "param": "threshold_tau", "values": [0.1, 0.3]},
            {"policy": "threshold", "label": "Threshold (GPTCache)", "set": {"threshold_cosine": 0.6}},
            {"policy": "greedy"},
            {"policy": "threshold", "label": "Threshold (GDSF)", "set": {"eviction": "gdsf"},
             "param": "threshold_tau", "values": [0.1, 0.3]}
        ]}, "params": {"horizon": 100, "n_eval": 100, "k": 4}, "seeds": 3}"#,
    )
    .unwrap()
}

/// A run in progress decides nothing: while units remain, every difference is pending, the
/// sentence says how many units are in (never "no point is distinguishable … over the 0 shared
/// seeds"), and no note states what more seeds may change; once every unit is in, the same
/// numbers decide.
#[test]
fn a_report_missing_units_decides_nothing() {
    let spec = two_evictions();
    // Greedy (point 3) is much cheaper than GPTCache's preset (point 2) on every seed.
    let at = |point: usize, seed: u64| {
        let cost = if point == 3 { 0.1 } else { 0.5 } + 0.001 * seed as f64;
        [cost, 0.01, 0.05, 0.02]
    };
    for keep in [1, 10, 17] {
        let partial = report_of(&spec, at, |u| u.index < keep);
        let c = partial.frontier.as_ref().unwrap();
        assert_eq!(c.undecided, None);
        assert_eq!(
            c.incomplete.as_deref(),
            Some(
                format!(
                    "{keep} of 18 units measured: no point is compared with Threshold (GPTCache) until every \
                     point has run all 3 seeds."
                )
                .as_str()
            )
        );
        for r in &c.rows {
            for d in [&r.cost, &r.error].into_iter().flatten() {
                assert!(matches!(d.difference, Difference::Pending | Difference::Reference), "{r:?}");
                assert!(d.difference == Difference::Reference || d.words == "not decided (run incomplete)");
            }
        }
        assert!(c.notes.is_empty(), "{:?}", c.notes);
        assert!(partial.summary().contains(c.incomplete.as_deref().unwrap()));
    }
    let full = report_of(&spec, at, |_| true);
    let c = full.frontier.as_ref().unwrap();
    assert_eq!(c.incomplete, None);
    let greedy = c.rows.iter().find(|r| r.point == 3).unwrap();
    assert_eq!(greedy.cost.as_ref().unwrap().words, "cheaper");
    // Another reference picked mid-run: pending too.
    let other = report_of(&spec, at, |u| u.index < 17).frontier_comparison(3).unwrap();
    assert!(other.incomplete.is_some() && other.undecided.is_none());
}

/// Each threshold family's note on its flat regret names the eviction rule its units ran with:
/// LRU's "least recently used" is never said of the GDSF family, nor GDSF's priority of LRU's.
#[test]
fn each_threshold_familys_note_names_its_own_eviction() {
    let spec = two_evictions();
    // Flat regret in τ, 95% misses: both threshold families get the note.
    let report = report_of(&spec, |_, seed| [0.5, 0.01, 0.05, 0.02 + 0.0001 * seed as f64], |_| true);
    let notes = &report.frontier.as_ref().unwrap().notes;
    assert_eq!(notes.len(), 2, "{notes:?}");
    let lru = notes.iter().find(|n| n.starts_with("Threshold's")).unwrap();
    let gdsf = notes.iter().find(|n| n.starts_with("Threshold (GDSF)'s")).unwrap();
    assert!(lru.contains(crate::config::Eviction::Lru.evicts()), "{lru}");
    assert!(lru.contains("nearly the 4 most recent requests"), "{lru}");
    assert!(gdsf.contains(crate::config::Eviction::Gdsf.evicts()), "{gdsf}");
    assert!(gdsf.contains("GDSF keeps the 4 of highest L + frequency × cost"), "{gdsf}");
    assert!(!gdsf.contains("least recently used") && !gdsf.contains("most recent"), "{gdsf}");
    assert!(!lru.contains("GDSF"), "{lru}");
    // The same words in the CLI's summary and the JSON report.
    assert!(report.summary().contains(gdsf.as_str()));
    assert!(serde_json::to_string(&report).unwrap().contains(crate::config::Eviction::Gdsf.evicts()));
}

/// P-CHR's range in words: which family's seed sets each end, and that the mean curves overlap
/// more widely (a seed's curve is never extrapolated); each AUC at its interval's precision with
/// the mean hit precision over the range, and an AUC equal on every seed read as such, not as
/// twelve zeros.
#[test]
fn pchr_says_why_its_range_is_narrow_and_words_its_aucs() {
    let spec = two_evictions();
    // Hit ratios by (point, seed): Threshold (points 0, 1) spans [0.04, 0.08] on seeds 0, 1 and
    // [0.05, 0.08] on seed 2; Threshold (GDSF) (points 4, 5) spans [0.04, 0.07] but only
    // [0.04, 0.055] on seed 2. Precision 1 at the low end, 0.5 at the high end.
    let hit = |point: usize, seed: u64| match (point, seed) {
        (0, 2) => 0.05,
        (0, _) => 0.04,
        (1, _) => 0.08,
        (4, _) => 0.04,
        (5, 2) => 0.055,
        (5, _) => 0.07,
        _ => 0.06,
    };
    let at = |point: usize, seed: u64| {
        let h = hit(point, seed);
        let precision = if point == 1 || point == 5 { 0.5 } else { 1.0 };
        [0.5, h * (1.0 - precision), h, 0.02]
    };
    let report = report_of(&spec, at, |_| true);
    let p = report.pchr.as_ref().unwrap();
    assert_eq!(p.range, Some([0.05, 0.055]));
    assert_eq!(p.range_words, "AUC over hit ratios [0.0500, 0.0550]");
    let note = p.range_note.as_deref().unwrap();
    assert!(
        note.starts_with(
            "The AUC's range [0.0500, 0.0550] is the hit ratios that Threshold and Threshold (GDSF) each span \
             on every seed: it starts where Threshold's curve starts on seed 2 and ends where Threshold \
             (GDSF)'s ends on seed 2."
        ),
        "{note}"
    );
    assert!(note.contains("their mean curves overlap over [0.043, 0.065]"), "{note}");
    let words = |name: &str| p.families.iter().find(|f| f.name == name).unwrap().words.clone();
    assert_eq!(words("Greedy"), None);
    let t = words("Threshold").unwrap();
    assert!(t.starts_with("AUC ") && t.contains(" ± ") && t.contains("mean hit precision"), "{t}");
    // Threshold (GDSF)'s curve is the same on seeds 0 and 1 but not 2: an interval. With every
    // seed equal, the AUC reads as identical on every seed.
    let same = report_of(&spec, |point, _| at(point, 0), |_| true);
    let p = same.pchr.as_ref().unwrap();
    let g = p.families.iter().find(|f| f.name == "Threshold").unwrap();
    let a = g.auc.unwrap();
    assert!(a.half().abs() < 1e-12, "{a:?}");
    let w = g.words.as_deref().unwrap();
    assert!(w.contains("identical on every seed") && !w.contains("000000"), "{w}");
}
