//! The frontier by hand: paired differences, clipped intervals, the common range, titles.

use super::*;
use crate::config::Params;
use crate::experiment::stats::Interval;

#[test]
fn a_paired_difference_and_its_interval_on_a_hand_computed_case() {
    // d = (−0.02, −0.01, −0.03): mean −0.02, sd 0.01, half-width t_{0.975,2}·0.01/√3
    // = 4.303 × 0.01 / 1.7320508 = 0.0248434…: the interval [−0.0448, 0.0048] holds 0.
    let (v, mean, ci) = Difference::of(&[-0.02, -0.01, -0.03]);
    assert!((mean + 0.02).abs() < 1e-15, "{mean}");
    assert!((ci - 4.303 * 0.01 / 3f64.sqrt()).abs() < 1e-12, "{ci}");
    assert_eq!(v, Difference::NotDistinguishable);
    // A tighter spread decides: d = (−0.020, −0.021, −0.019), sd 0.001, half-width 0.00248.
    let (v, mean, ci) = Difference::of(&[-0.020, -0.021, -0.019]);
    assert!((mean + 0.02).abs() < 1e-12 && (ci - 4.303 * 0.001 / 3f64.sqrt()).abs() < 1e-12);
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
