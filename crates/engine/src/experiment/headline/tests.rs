//! Verdicts by hand: direction, magnitude, outcomes in words, and identities.

use super::judge::*;
use super::words::*;
use super::*;
use crate::config::Params;

fn eval(outcome: Outcome, measured: Option<Interval>, unit: Unit) -> Evaluation {
    Evaluation {
        outcome,
        n: 5,
        x: None,
        measured,
        unit,
        lowest: vec![],
        falls: None,
        pairs: vec![],
        versus: None,
    }
}

#[test]
fn direction_holds_fails_or_is_undecided_by_the_side_of_zero() {
    assert_eq!(direction(&Interval::symmetric(1.0, 0.5, 5)), Direction::Holds);
    assert_eq!(direction(&Interval::symmetric(-1.0, 0.5, 5)), Direction::Fails);
    assert_eq!(direction(&Interval::symmetric(0.2, 0.5, 5)), Direction::Undecided);
    assert_eq!(direction(&Interval::symmetric(0.2, f64::NAN, 1)), Direction::Undecided);
}

#[test]
fn magnitude_matches_inside_the_interval_widened_by_half_the_last_digit() {
    // A fig-c row: 53.9 ± 5.3 against the paper's 72.41: differs.
    assert_eq!(magnitude(Some("72.41"), &Interval::symmetric(53.89, 5.32, 10)), Magnitude::Differs);
    assert_eq!(magnitude(Some("72.41"), &Interval::symmetric(70.0, 3.0, 10)), Magnitude::Matches);
    // 0.0083 stands for [0.00825, 0.00835].
    assert_eq!(
        magnitude(Some("0.0083"), &Interval { mean: 0.007, lo: 0.006, hi: 0.00825, n: 5 }),
        Magnitude::Matches
    );
    assert_eq!(
        magnitude(Some("0.0083"), &Interval { mean: 0.0087, lo: 0.00836, hi: 0.009, n: 5 }),
        Magnitude::Differs
    );
    assert_eq!(magnitude(None, &Interval::symmetric(1.0, 0.1, 5)), Magnitude::NotStated);
    assert_eq!(magnitude(Some("0.88"), &Interval::symmetric(0.9, f64::NAN, 1)), Magnitude::Undecided);
}

#[test]
fn reproduced_only_when_both_parts_hold() {
    let holds = Interval::symmetric(0.01, 0.002, 10);
    let v = |d: Option<&Interval>, m| judged(d, m, false).verdict();
    assert_eq!(v(Some(&holds), Magnitude::Matches), Verdict::Reproduced);
    assert_eq!(v(Some(&holds), Magnitude::NotStated), Verdict::Reproduced);
    assert_eq!(v(Some(&holds), Magnitude::Differs), Verdict::Differs);
    assert_eq!(v(Some(&Interval::symmetric(-0.01, 0.002, 10)), Magnitude::Matches), Verdict::NotReproduced);
    assert_eq!(v(Some(&Interval::symmetric(0.0, 0.002, 10)), Magnitude::Matches), Verdict::Undecided);
    assert_eq!(v(None, Magnitude::Matches), Verdict::Reproduced);
    assert_eq!(v(None, Magnitude::Differs), Verdict::Differs);
    assert_eq!(v(None, Magnitude::Undecided), Verdict::Undecided);
    assert_eq!(Outcome::Identical { with: vec![], reason: None }.verdict(), Verdict::Identical);
    // The zero-hit flag is raised only on a win.
    let win = judged(Some(&holds), Magnitude::Matches, true);
    assert!(matches!(win, Outcome::Judged { never_hits: true, .. }), "{win:?}");
    let tie = judged(Some(&Interval::symmetric(0.0, 1.0, 5)), Magnitude::NotStated, true);
    assert!(matches!(tie, Outcome::Judged { never_hits: false, .. }), "{tie:?}");
}

#[test]
fn each_outcome_in_words() {
    let size = Some(Interval::symmetric(53.894, 5.3212, 10));
    let holds = Interval::symmetric(0.004, 0.001, 10);
    let w = |o, m: Option<Interval>, u, p| words(&eval(o, m, u), p);
    assert_eq!(
        w(judged(Some(&holds), Magnitude::Differs, false), size, Unit::Percent, Some("72.41")),
        "direction holds; differs: 53.9 ± 5.3 % vs 72.41 %"
    );
    assert_eq!(
        w(judged(Some(&holds), Magnitude::Matches, false), size, Unit::Percent, Some("52.95")),
        "reproduced: direction holds, size matches the paper's 52.95 %"
    );
    assert_eq!(
        w(judged(Some(&holds), Magnitude::NotStated, true), None, Unit::Plain, None),
        format!("not a caching win: direction holds, size not stated; {NEVER_HITS}")
    );
    assert_eq!(
        w(
            judged(Some(&Interval::symmetric(0.1, 0.3, 5)), Magnitude::Differs, false),
            size,
            Unit::Percent,
            Some("72.41")
        ),
        "undecided at n = 5: paired interval [-0.20, 0.40] includes 0"
    );
    assert_eq!(
        w(
            judged(Some(&Interval::symmetric(-1.0, 0.3, 5)), Magnitude::NotStated, false),
            None,
            Unit::Plain,
            None
        ),
        "not reproduced: direction fails, paired interval [-1.30, -0.70]"
    );
    let value = Some(Interval::symmetric(0.01103, 0.00091, 5));
    assert_eq!(
        w(judged(None, Magnitude::Differs, false), value, Unit::Plain, Some("0.0083")),
        "differs: 0.01103 ± 0.00091 vs 0.0083"
    );
    assert_eq!(
        w(judged(None, Magnitude::Matches, false), value, Unit::Plain, Some("0.011")),
        "reproduced: 0.01103 ± 0.00091 matches the paper's 0.011"
    );
    let ratio = Some(Interval { mean: 1.52, lo: 1.31, hi: 1.76, n: 5 });
    assert_eq!(
        w(judged(None, Magnitude::Differs, false), ratio, Unit::Times, Some("1.0")),
        "differs: 1.52× [1.31, 1.76] vs 1.0×"
    );
    let same =
        Outcome::Identical { with: vec!["CLCB-SC-LS".into()], reason: Some("every LCB is negative".into()) };
    let s = w(same, None, Unit::Percent, Some("43.14"));
    assert_eq!(s, "identical on every seed (with CLCB-SC-LS): every LCB is negative");
    assert!(!s.contains("distinguishable"));
    assert_eq!(w(Outcome::NotRun, None, Unit::Plain, None), "not run");
    assert_eq!(w(Outcome::Measured, None, Unit::Plain, None), "no claim (measured)");
    assert_eq!(
        w(Outcome::Calibrated { magnitude: Magnitude::Matches }, value, Unit::Plain, Some("0.011")),
        "calibrated, not reproduced: the run is set to give the paper's 0.011; 0.01103 ± 0.00091 holds it"
    );
    // A ratio the paper does not state is measured, not judged.
    assert_eq!(
        w(judged(None, Magnitude::NotStated, false), ratio, Unit::Times, None),
        "measured: the paper states no number to compare"
    );
}

#[test]
fn identity_names_its_reason_only_at_the_settings_it_holds_at() {
    let p = Params::default();
    assert!(Identity::NegativeLcbs.reason(&p).unwrap().contains("β = 1"));
    assert!(Identity::NegativeLcbs.reason(&Params { beta: 0.1, ..p.clone() }).is_none());
    assert!(Identity::SaturatedUpperBounds.reason(&p).unwrap().contains("saturate"));
    assert!(Identity::SaturatedUpperBounds.reason(&Params { beta_off: 0.03, ..p }).is_none());
}
