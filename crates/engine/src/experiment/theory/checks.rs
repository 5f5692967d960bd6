//! Does the guarantee show? The checks of the paper's online guarantee on measured runs, each a
//! log-log slope with a 95% interval set against the exponent the paper states, and one verdict
//! from one function ([`judge`]), worded by [`TheoryVerdict::words_for`] — the page and the CLI only
//! print these words.
//!
//! - **Reg(t)** (Thm. 5.1: `Reg(T) = Õ(√T)`): the slope of `ln Reg(t)` on `ln t` over the run's
//!   last decade `t ∈ [T/10, T]`, against ½.
//! - **ε_t** (Assumption 1: `ε_t = O(1/√t)`): the slope of `ln ε_t` over the last decade, against −½.
//! - **m_eff(t)** (Assumption 1: bounded by a constant): the slope of `ln m_eff(t)` over the last
//!   half `t ∈ [T/2, T]`, against 0 ("bounded" or "still growing").
//! - **switches** (Lemma 5.3: `O(m_max log log T)`): the slope of
//!   `ln(switches(t) / (m_max(t)·ln ln t))` over the last half (t ≥ 16), against 0.
//! - **Reg(T) across horizons** (Thm. 5.1, one run per T as the lemma means it: the stage
//!   thresholds depend on T): the slope of `ln Reg(T)` on `ln T` over the grid, against ½.
//! - **offline gap against n** (Theorem 4.1: `SubOpt = O(n^(−1/2))` in the logged stream's
//!   length n): the slope of `ln gap` on `ln n` over the sweep of `log_len` (fig. 2(a)), against
//!   −½, per offline algorithm (the theorem is about CUCB-SC-Cont; the others are set beside it).
//!
//! **Intervals.** Over n ≥ 2 seeds, the Student-t interval of the per-seed slopes
//! ([`Interval::of`], [`crate::experiment::INTERVAL`]); for one run, the least-squares slope
//! `± t_{0.975, p−2}·se` over its p checkpoints (the checkpoints of one run are not independent,
//! so that interval is narrower than a seed interval would be: it says how well a line fits).
//!
//! **Verdicts** ([`judge`]): each check's stated test ([`stated_test`], shown beside the
//! verdict), on the slope interval `[lo, hi]` against the stated slope `s` and [`TOLERANCE`]:
//! - *consistent with the theorem*: `hi ≤ s` (no faster growth than the paper's, no slower decay);
//! - *consistent within the tolerance*: `s < hi ≤ s + 0.1` (a log factor the `Õ(·)` hides, or
//!   growth too slow to tell from it at this horizon);
//! - for a premise of the theorem (ε_t and m_eff of Assumption 1, and γ_T, which Õ(√T) needs
//!   polylogarithmic) with `lo > s + 0.1`: *assumption violated here*;
//! - for a conclusion (Reg(t), Reg(T) across horizons, the switches of Lemma 5.3, the offline gap)
//!   with `lo > s + 0.1`: *faster than stated at this horizon* (the `O(·)` may hide what a longer
//!   run would show);
//! - γ_t with `lo ≥ ½`: *the bound says nothing at this horizon*: the cost term
//!   `β_T·√(T·γ_T) ≈ γ_T·√T` then grows at least like T, and a regret never exceeds T·max cost;
//! - Reg(t) and Reg(T) across horizons when a premise check of the same runs fails (violated, or
//!   γ_t's bound says nothing): *not confirmed: a premise fails here*, whatever the slope — a
//!   bound whose assumption fails on the run cannot be confirmed by it;
//! - *not visible at this horizon*: anything else (the interval straddles a line of the test, or
//!   there are fewer than 3 points to fit).

use crate::experiment::stats::{format_interval, Interval};
pub use crate::experiment::theory::fit::{loglog_fit, series, LogLogFit, Quantity};
use crate::online::sim::Checkpoint;
use serde::{Deserialize, Serialize};

/// How far above the stated exponent a slope may be and still meet it (and how far from 0 a
/// slope must be to count as growth or decay): 0.1 in the exponent of t.
pub const TOLERANCE: f64 = 0.1;

/// The verdicts: each check says one of them ([`judge`], module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TheoryVerdict {
    /// The interval's upper end is at most the stated slope.
    Consistent,
    /// The upper end is above the stated slope by at most [`TOLERANCE`].
    Tolerated,
    NotVisible,
    /// A conclusion's interval lies wholly above the stated slope plus the tolerance.
    Faster,
    /// A premise's interval lies wholly above the stated slope plus the tolerance; for Reg(t) and
    /// Reg(T) across horizons: a premise check of the same runs fails.
    Violated,
    /// γ_t grows at least like √T: the theorem's cost term is at least linear in T.
    Vacuous,
}

/// γ_t's slope from which the theorem's cost term `β_T·√(T·γ_T)` (about `γ_T·√T`, since
/// `β_T ≈ R·√(2γ_T)` once γ_T is large) grows at least like T: the bound then says nothing.
pub const VACUOUS_GAMMA: f64 = 0.5;

impl TheoryVerdict {
    /// The verdict on a check of `q` in words (the only place they are written): the offline gap,
    /// fitted against the number of samples n, speaks of sample sizes rather than a horizon, and
    /// a conclusion's "violated" is its premise's.
    pub const fn words_for(&self, q: Quantity) -> &'static str {
        match (self, q) {
            (TheoryVerdict::Consistent, _) => "consistent with the theorem",
            (TheoryVerdict::Tolerated, _) => "consistent within the tolerance",
            (TheoryVerdict::NotVisible, Quantity::Gap) => "not visible at these sample sizes",
            (TheoryVerdict::NotVisible, _) => "not visible at this horizon",
            (TheoryVerdict::Faster, Quantity::Gap) => "decays slower than stated at these sample sizes",
            (TheoryVerdict::Faster, _) => "faster than stated at this horizon",
            (TheoryVerdict::Violated, q) if q.rests_on_premises() => "not confirmed: a premise fails here",
            (TheoryVerdict::Violated, _) => "assumption violated here",
            (TheoryVerdict::Vacuous, _) => "the bound says nothing at this horizon",
        }
    }

    /// Whether this verdict, on a premise's check, leaves the theorem's conclusion unconfirmed.
    pub const fn premise_fails(&self) -> bool {
        matches!(self, TheoryVerdict::Violated | TheoryVerdict::Vacuous)
    }
}

/// The verdict on a slope interval of `q` by its stated test (module docs, [`stated_test`]).
/// `premise_fails`: whether a premise check of the same runs fails (read for Reg(t) and Reg(T)
/// across horizons only). An interval with a NaN end is not visible.
pub fn judge(q: Quantity, slope: &Interval, premise_fails: bool) -> TheoryVerdict {
    if !(slope.lo.is_finite() && slope.hi.is_finite()) {
        return TheoryVerdict::NotVisible;
    }
    if premise_fails && q.rests_on_premises() {
        return TheoryVerdict::Violated;
    }
    let s = q.exponent();
    if q == Quantity::Gamma && slope.lo >= VACUOUS_GAMMA {
        TheoryVerdict::Vacuous
    } else if slope.hi <= s {
        TheoryVerdict::Consistent
    } else if slope.hi <= s + TOLERANCE {
        TheoryVerdict::Tolerated
    } else if slope.lo > s + TOLERANCE {
        if q.is_premise() {
            TheoryVerdict::Violated
        } else {
            TheoryVerdict::Faster
        }
    } else {
        TheoryVerdict::NotVisible
    }
}

/// The stated test of a check of `q`, in words with its numbers: the lines [`judge`] draws
/// (module docs), shown beside every verdict so that it can be read against the interval.
pub fn stated_test(q: Quantity) -> String {
    let num = |x: f64| if x < 0.0 { format!("−{:.1}", -x) } else { format!("{x:.1}") };
    let (s, t) = (q.exponent(), q.exponent() + TOLERANCE);
    let mut lines = vec![
        format!("consistent if the upper end ≤ {}", num(s)),
        format!("within the tolerance if ≤ {}", num(t)),
    ];
    if q == Quantity::Gamma {
        lines.push(format!("the bound says nothing if the lower end ≥ {}", num(VACUOUS_GAMMA)));
    }
    lines.push(if q.is_premise() {
        format!("violated if the lower end > {}", num(t))
    } else if q == Quantity::Gap {
        format!("decays slower than stated if the lower end > {}", num(t))
    } else {
        format!("faster than stated if the lower end > {}", num(t))
    });
    if q.rests_on_premises() {
        lines.push("not confirmed if ε_t or m_eff is violated or γ_t's bound says nothing".into());
    }
    lines.join("; ")
}

/// One row of the theory table: quantity, measured, theorem, verdict, n.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryCheck {
    pub quantity: Quantity,
    /// [`Quantity::name`].
    pub name: String,
    /// The fitted slope with its interval, in words (`slope 0.48 ± 0.03`; m_eff adds "bounded"
    /// or "still growing" when the interval says which).
    pub measured: String,
    /// [`Quantity::theorem`].
    pub theorem: String,
    /// [`Quantity::reference`].
    pub reference: String,
    /// The test the verdict is drawn by, with its numbers ([`stated_test`]).
    pub test: String,
    pub verdict: TheoryVerdict,
    /// [`TheoryVerdict::words_for`].
    pub words: String,
    /// The slope: mean and 95% bounds.
    pub slope: Interval,
    /// The fitted line's intercept (mean over seeds): `ln y = intercept + slope·ln t`.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
    pub intercept: f64,
    /// The fit's window `[from, to]` in t (or T across horizons).
    pub from: f64,
    pub to: f64,
    /// What the interval is over: `"seeds"` (n ≥ 2 runs) or `"checkpoints"` (one run).
    pub over: String,
    /// Seeds, or the checkpoints of the one run.
    pub n: usize,
}

/// A check from per-run series of `q` (one per seed): each run's least-squares fit, then
/// [`check_of_fits`].
fn check_of(q: Quantity, runs: &[Vec<(f64, f64)>], assumption_violated: bool) -> TheoryCheck {
    let fits: Vec<Option<LogLogFit>> = runs.iter().map(|s| loglog_fit(s)).collect();
    let ts = || runs.iter().flatten().map(|p| p.0);
    let window = (ts().fold(f64::INFINITY, f64::min), ts().fold(f64::NEG_INFINITY, f64::max));
    check_of_fits(q, &fits, window, assumption_violated)
}

/// A check from one fit per run (`None`: a run too short to fit) over the window `[from, to]`:
/// over n ≥ 2 runs the Student-t interval of their slopes (undecided if one has no fit), for one
/// run its least-squares interval (module docs); the verdict by [`judge`].
pub fn check_of_fits(
    q: Quantity,
    fits: &[Option<LogLogFit>],
    (from, to): (f64, f64),
    assumption_violated: bool,
) -> TheoryCheck {
    let have: Vec<&LogLogFit> = fits.iter().flatten().collect();
    let (slope, over, n) = if fits.len() >= 2 {
        let slopes: Vec<f64> = have.iter().map(|f| f.slope).collect();
        let i = if have.len() == fits.len() { Interval::of(&slopes) } else { Interval::of(&[]) };
        (i, "seeds", fits.len())
    } else {
        match have.first() {
            Some(f) => (Interval::symmetric(f.slope, f.half, f.points), "checkpoints", f.points),
            None => (Interval::of(&[]), "checkpoints", 0),
        }
    };
    let intercept = if have.is_empty() {
        f64::NAN
    } else {
        have.iter().map(|f| f.intercept).sum::<f64>() / have.len() as f64
    };
    let verdict = judge(q, &slope, assumption_violated);
    let mut measured = if slope.mean.is_finite() {
        format!("slope {}", format_interval(slope.mean, slope.half()))
    } else {
        "too few points to fit".to_string()
    };
    // m_eff's growth in words: "bounded" where the interval's upper end is at most 0, "still
    // growing" where the whole interval is above the tolerance, nothing otherwise.
    if q == Quantity::Meff && slope.hi.is_finite() {
        if slope.hi <= 0.0 {
            measured.push_str(" (bounded)");
        } else if slope.lo > TOLERANCE {
            measured.push_str(" (still growing)");
        }
    }
    TheoryCheck {
        quantity: q,
        name: q.name().into(),
        measured,
        theorem: q.theorem().into(),
        reference: q.reference().into(),
        test: stated_test(q),
        verdict,
        words: verdict.words_for(q).into(),
        slope,
        intercept,
        from: if from.is_finite() { from } else { 0.0 },
        to: if to.is_finite() { to } else { 0.0 },
        over: over.into(),
        n,
    }
}

/// The checks of one group of runs in [`Quantity::RUN`] order, made by `check(q, premise_fails)`:
/// the premises first (ε_t, m_eff and, where `gamma`, γ_t: a kernel learner's), so that Reg(t)'s
/// verdict defers to a failed one; with whether one failed (which Reg(T) across horizons reads).
pub fn checks_in_order(
    mut check: impl FnMut(Quantity, bool) -> TheoryCheck,
    gamma: bool,
) -> (Vec<TheoryCheck>, bool) {
    let eps = check(Quantity::Epsilon, false);
    let meff = check(Quantity::Meff, false);
    let gamma = gamma.then(|| check(Quantity::Gamma, false));
    let fails =
        [Some(&eps), Some(&meff), gamma.as_ref()].into_iter().flatten().any(|c| c.verdict.premise_fails());
    let regret = check(Quantity::Regret, fails);
    let switches = check(Quantity::Switches, false);
    ([Some(regret), Some(eps), Some(meff), gamma, Some(switches)].into_iter().flatten().collect(), fails)
}

/// The checks of one policy's runs (one checkpoint list per seed), by [`checks_in_order`]; γ_t only
/// where the policy measures it.
pub fn check_runs(runs: &[&[Checkpoint]]) -> Vec<TheoryCheck> {
    let of = |q| runs.iter().map(|c| series(q, c)).collect::<Vec<_>>();
    let gamma = of(Quantity::Gamma).iter().any(|s| !s.is_empty());
    checks_in_order(|q, fails| check_of(q, &of(q), fails), gamma).0
}

/// Reg(T) across horizons: `finals[s]` holds seed s's `(T, Reg(T))`, one per horizon of the grid;
/// `premise_fails` as for Reg(t).
pub fn check_horizons(finals: &[Vec<(f64, f64)>], premise_fails: bool) -> TheoryCheck {
    check_of(Quantity::Horizon, finals, premise_fails)
}

/// A check of `q` from per-seed series `(x, y)` fitted whole (as [`check_horizons`]; the offline
/// gap against n with [`Quantity::Gap`]).
pub fn check_series(q: Quantity, runs: &[Vec<(f64, f64)>], assumption_violated: bool) -> TheoryCheck {
    check_of(q, runs, assumption_violated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::theory::TheoryPoint;

    fn curve(f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        (1..=100).map(|i| (i as f64 * 50.0, f(i as f64 * 50.0))).collect()
    }

    /// Exact power laws are fitted exactly: y = 3·t^a has slope a, intercept ln 3, zero width.
    #[test]
    fn the_slope_fitter_recovers_known_exponents() {
        for a in [-0.5, 0.0, 0.25, 0.5, 1.0, 1.7] {
            let f = loglog_fit(&curve(|t| 3.0 * t.powf(a))).unwrap();
            assert!((f.slope - a).abs() < 1e-9, "{a}: {f:?}");
            assert!((f.intercept - 3f64.ln()).abs() < 1e-7, "{a}: {f:?}");
            assert!(f.half.abs() < 1e-6, "{a}: {f:?}");
            assert_eq!(f.points, 100);
        }
        // Two points: slope exact, no interval; zero or negative y and t ≤ 0 are left out.
        let f = loglog_fit(&[(10.0, 10.0), (100.0, 1000.0), (0.0, 5.0), (50.0, 0.0)]).unwrap();
        assert!((f.slope - 2.0).abs() < 1e-12 && f.half.is_nan() && f.points == 2);
        assert!(loglog_fit(&[(10.0, 1.0)]).is_none());
        assert!(loglog_fit(&[(10.0, 1.0), (10.0, 2.0)]).is_none());
    }

    /// Hand-computed: ln t = 0, 1, 2 (t = 1, e, e²) and ln y = 0, 1, 3: slope 1.5, intercept
    /// −1/6, residuals (1/6, −1/3, 1/6), SSE = 1/6, se = √(SSE/1 / Sxx) = √(1/12),
    /// half = t_{0.975,1}·0.288675 with t_{0.975,1} = cot(π/40) = 12.706204736174705 (one degree
    /// of freedom is Cauchy): 12.706204736174705·0.288675 = 3.667965.
    #[test]
    fn a_fit_by_hand() {
        let e = std::f64::consts::E;
        let f = loglog_fit(&[(1.0, 1.0), (e, e), (e * e, e * e * e)]).unwrap();
        assert!((f.slope - 1.5).abs() < 1e-12, "{f:?}");
        assert!((f.intercept + 1.0 / 6.0).abs() < 1e-12, "{f:?}");
        assert!((f.half - 12.706_204_736_174_705 * (1.0f64 / 12.0).sqrt()).abs() < 1e-9, "{f:?}");
    }

    fn exact(slope: f64) -> Interval {
        Interval::symmetric(slope, 0.0, 5)
    }

    /// The verdicts on constructed series: a known power law (√t), a plateau and a linear series.
    #[test]
    fn verdicts_on_a_power_law_a_plateau_and_a_linear_series() {
        use TheoryVerdict::*;
        let slope = |f: &dyn Fn(f64) -> f64| exact(loglog_fit(&curve(f)).unwrap().slope);
        let sqrt = slope(&|t: f64| t.sqrt());
        let plateau = slope(&|_| 0.4);
        let linear = slope(&|t| t);
        // Just inside the stated slopes (an exact power law fits to within rounding of them, on
        // either side): t^0.45 and t^−0.55.
        let below_sqrt = slope(&|t: f64| t.powf(0.45));
        let inverse_sqrt = slope(&|t: f64| t.powf(-0.55));
        // Reg(t): t^0.45 and a plateau meet Õ(√T); a line grows faster than stated, and with a
        // failed premise no slope confirms the theorem.
        assert_eq!(judge(Quantity::Regret, &below_sqrt, false), Consistent);
        assert_eq!(judge(Quantity::Regret, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Regret, &linear, false), Faster);
        assert_eq!(judge(Quantity::Regret, &linear, true), Violated);
        assert_eq!(judge(Quantity::Regret, &sqrt, true), Violated, "a premise fails: not confirmed");
        assert_eq!(judge(Quantity::Horizon, &sqrt, true), Violated);
        assert_eq!(judge(Quantity::Horizon, &linear, false), Faster);
        // ε_t: 1/√t meets it; a plateau or growth violates Assumption 1.
        assert_eq!(judge(Quantity::Epsilon, &inverse_sqrt, false), Consistent);
        assert_eq!(judge(Quantity::Epsilon, &plateau, false), Violated);
        assert_eq!(judge(Quantity::Epsilon, &linear, false), Violated);
        // m_eff: a plateau is bounded; √t and t keep growing.
        assert_eq!(judge(Quantity::Meff, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Meff, &sqrt, false), Violated);
        assert_eq!(judge(Quantity::Meff, &linear, false), Violated);
        // Switches against m_max·ln ln t: a plateau meets the lemma; growth is faster than stated.
        assert_eq!(judge(Quantity::Switches, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Switches, &linear, false), Faster);
        // γ_t: a plateau meets the polylog premise; growth like √t or t leaves the bound empty.
        assert_eq!(judge(Quantity::Gamma, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Gamma, &sqrt, false), Vacuous);
        assert_eq!(judge(Quantity::Gamma, &linear, false), Vacuous);
        assert_eq!(judge(Quantity::Gamma, &exact(0.3), false), Violated);
        // The lines of the test: ½ meets, up to ½ + 0.1 is within the tolerance, above it decided
        // only when the whole interval is; an interval across a line is not visible.
        assert_eq!(judge(Quantity::Regret, &exact(0.5), false), Consistent);
        assert_eq!(judge(Quantity::Regret, &exact(0.55), false), Tolerated);
        assert_eq!(judge(Quantity::Regret, &exact(0.6), false), Tolerated);
        assert_eq!(judge(Quantity::Regret, &exact(0.61), false), Faster);
        assert_eq!(judge(Quantity::Regret, &Interval::symmetric(0.6, 0.1, 5), false), NotVisible);
        // The m_eff interval of the page's quick run, [0.002, 0.054]: above 0, so within the
        // tolerance, not "consistent with the theorem".
        assert_eq!(judge(Quantity::Meff, &Interval::symmetric(0.028, 0.026, 5), false), Tolerated);
        // The switch ratio's 0.35 ± 0.30: the interval straddles 0.1, not visible; 0.35 ± 0.2
        // lies above it: faster than stated.
        assert_eq!(judge(Quantity::Switches, &Interval::symmetric(0.35, 0.30, 5), false), NotVisible);
        assert_eq!(judge(Quantity::Switches, &Interval::symmetric(0.35, 0.2, 5), false), Faster);
        assert_eq!(judge(Quantity::Epsilon, &Interval::symmetric(-0.2, 0.3, 5), false), NotVisible);
        assert_eq!(judge(Quantity::Regret, &Interval::of(&[0.3]), false), NotVisible);
        assert_eq!(Consistent.words_for(Quantity::Regret), "consistent with the theorem");
        assert_eq!(Tolerated.words_for(Quantity::Meff), "consistent within the tolerance");
        assert_eq!(NotVisible.words_for(Quantity::Regret), "not visible at this horizon");
        assert_eq!(Violated.words_for(Quantity::Epsilon), "assumption violated here");
        assert_eq!(Violated.words_for(Quantity::Regret), "not confirmed: a premise fails here");
        assert_eq!(Vacuous.words_for(Quantity::Gamma), "the bound says nothing at this horizon");
        assert_eq!(Faster.words_for(Quantity::Switches), "faster than stated at this horizon");
        // The offline gap is fitted against n, not a horizon.
        assert_eq!(NotVisible.words_for(Quantity::Gap), "not visible at these sample sizes");
        assert_eq!(Faster.words_for(Quantity::Gap), "decays slower than stated at these sample sizes");
        assert_eq!(Consistent.words_for(Quantity::Gap), "consistent with the theorem");
        // The stated test carries the numbers every verdict is drawn by.
        assert_eq!(
            stated_test(Quantity::Epsilon),
            "consistent if the upper end ≤ −0.5; within the tolerance if ≤ −0.4; violated if the lower end > −0.4"
        );
        assert_eq!(
            stated_test(Quantity::Gamma),
            "consistent if the upper end ≤ 0.0; within the tolerance if ≤ 0.1; the bound says nothing if the lower end ≥ 0.5; violated if the lower end > 0.1"
        );
        assert!(stated_test(Quantity::Regret)
            .ends_with("not confirmed if ε_t or m_eff is violated or γ_t's bound says nothing"));
    }

    fn run(t_max: usize, f: impl Fn(f64) -> (f64, f64, f64, u64, usize)) -> Vec<Checkpoint> {
        (1..=t_max / 10)
            .map(|i| {
                let t = i * 10;
                let (regret, eps, meff, switches, m_max) = f(t as f64);
                Checkpoint {
                    t,
                    regret,
                    switches,
                    theory: Some(TheoryPoint {
                        t,
                        eps_t: Some(eps),
                        m_eff: Some(meff),
                        m_max: Some(m_max),
                        loglog_t: crate::online::theory::loglog(t),
                        ..TheoryPoint::default()
                    }),
                    ..Checkpoint::default()
                }
            })
            .collect()
    }

    /// On whole runs: t^0.45 regret, t^−0.55 ε, m_eff settling to 8 and switches ∝ m_max·ln ln t
    /// are consistent on every check; with ε stuck at 0.2 and m_eff ∝ t, a linear regret is "not
    /// confirmed: a premise fails here". Over two seeds the interval is over seeds.
    #[test]
    fn checks_of_constructed_runs() {
        let good = run(2000, |t| {
            (t.powf(0.45), t.powf(-0.55), 8.0 + 100.0 / t, (30.0 * t.ln().ln()) as u64 + 30, 10)
        });
        let checks = check_runs(&[&good]);
        let words: Vec<_> = checks.iter().map(|c| (c.quantity, c.verdict)).collect();
        use Quantity::*;
        use TheoryVerdict::*;
        assert_eq!(
            words,
            [(Regret, Consistent), (Epsilon, Consistent), (Meff, Consistent), (Switches, Consistent)]
        );
        assert_eq!(checks[0].over, "checkpoints");
        assert_eq!(checks[0].n, 181, "t ∈ [200, 2000] in steps of 10");
        assert!((checks[0].slope.mean - 0.45).abs() < 1e-9);
        assert_eq!((checks[0].from, checks[0].to), (200.0, 2000.0));
        assert!(checks[2].measured.ends_with("(bounded)"), "{}", checks[2].measured);
        let bad = run(2000, |t| (t, 0.2, t / 10.0, (t * t / 10.0) as u64, t as usize));
        let checks = check_runs(&[&bad, &bad]);
        let words: Vec<_> = checks.iter().map(|c| (c.quantity, c.verdict)).collect();
        assert_eq!(words, [(Regret, Violated), (Epsilon, Violated), (Meff, Violated), (Switches, Faster)]);
        assert_eq!((checks[0].over.as_str(), checks[0].n), ("seeds", 2));
        assert!(checks[2].measured.ends_with("(still growing)"), "{}", checks[2].measured);
        assert_eq!(checks[0].words, "not confirmed: a premise fails here");
        // A kernel learner's γ_t growing like t leaves the bound empty, and Reg(t)'s √t is then
        // not confirmed by the run.
        let mut kernel = run(2000, |t| {
            (t.powf(0.45), t.powf(-0.55), 8.0 + 100.0 / t, (30.0 * t.ln().ln()) as u64 + 30, 10)
        });
        for c in &mut kernel {
            c.theory.as_mut().unwrap().gamma = Some(0.5 * c.t as f64);
        }
        let checks = check_runs(&[&kernel]);
        let words: Vec<_> = checks.iter().map(|c| (c.quantity, c.verdict)).collect();
        assert_eq!(
            words,
            [
                (Regret, Violated),
                (Epsilon, Consistent),
                (Meff, Consistent),
                (Gamma, Vacuous),
                (Switches, Consistent)
            ]
        );
    }

    /// Theorem 4.1's check on constructed offline sweeps: a gap of exactly c·n^(−0.55) on every
    /// seed (c = 1, 2, 3) has slope −0.55 with a zero-width interval over seeds and is consistent;
    /// a gap that stays at 0.3 (a plateau) decays slower than stated; one seed's n^(−0.3) and n^(−0.7) give
    /// a mean of −½ with the interval of the two slopes (sd 0.2·√2, so t_{0.975,1}·0.2).
    #[test]
    fn the_offline_gap_against_n_on_a_known_power_law() {
        let ns = [100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0];
        let seed = |c: f64, a: f64| ns.iter().map(|&n: &f64| (n, c * n.powf(a))).collect::<Vec<_>>();
        let c = check_series(Quantity::Gap, &[seed(1.0, -0.55), seed(2.0, -0.55), seed(3.0, -0.55)], false);
        assert_eq!(
            (c.quantity, c.verdict, c.n, c.over.as_str()),
            (Quantity::Gap, TheoryVerdict::Consistent, 3, "seeds")
        );
        assert!((c.slope.mean + 0.55).abs() < 1e-12 && c.slope.half() < 1e-9, "{:?}", c.slope);
        assert!((c.intercept - (2f64.ln() + 3f64.ln()) / 3.0).abs() < 1e-9, "mean of ln 1, ln 2, ln 3");
        assert_eq!((c.from, c.to, c.reference.as_str()), (100.0, 5000.0, "Theorem 4.1"));
        // A gap that does not decay at all lies wholly above −0.4.
        let flat = check_series(Quantity::Gap, &[seed(0.3, 0.0), seed(0.3, 0.0)], false);
        assert_eq!(flat.verdict, TheoryVerdict::Faster);
        assert_eq!(flat.words, "decays slower than stated at these sample sizes");
        let two = check_series(Quantity::Gap, &[seed(1.0, -0.3), seed(1.0, -0.7)], false);
        assert!((two.slope.mean + 0.5).abs() < 1e-12);
        // Two seeds: t_{0.975,1}·sd/√2 with sd = 0.2·√2, t_{0.975,1} = cot(π/40) = 12.706204736174705.
        assert!((two.slope.half() - 12.706_204_736_174_705 * 0.2).abs() < 1e-9, "{:?}", two.slope);
        assert_eq!(two.verdict, TheoryVerdict::NotVisible, "the interval reaches above −0.4");
        // One seed: its least-squares interval over the 6 points (exact: zero width).
        let one = check_series(Quantity::Gap, &[seed(1.0, -0.55)], false);
        assert_eq!((one.over.as_str(), one.n, one.verdict), ("checkpoints", 6, TheoryVerdict::Consistent));
    }

    #[test]
    fn across_horizons_over_seeds() {
        let seed = |c: f64| [500.0, 2000.0, 8000.0].map(|t: f64| (t, c * t.powf(0.45))).to_vec();
        let c = check_horizons(&[seed(1.0), seed(2.0), seed(3.0)], false);
        assert_eq!((c.quantity, c.verdict, c.n), (Quantity::Horizon, TheoryVerdict::Consistent, 3));
        assert!((c.slope.mean - 0.45).abs() < 1e-12 && c.slope.half() < 1e-9);
        // The same √T-like runs with a premise failed at the largest T: not confirmed.
        assert_eq!(check_horizons(&[seed(1.0), seed(2.0)], true).verdict, TheoryVerdict::Violated);
        assert_eq!((c.from, c.to), (500.0, 8000.0));
        // A seed without a fit (every Reg(T) ≤ 0) leaves the verdict undecided.
        let c = check_horizons(&[seed(1.0), vec![(500.0, 0.0), (2000.0, 0.0)]], false);
        assert_eq!(c.verdict, TheoryVerdict::NotVisible);
        assert_eq!(c.measured, "too few points to fit");
    }
}
