//! Does the guarantee show? The checks of the paper's online guarantee on measured runs, each a
//! log-log slope with a 95% interval set against the exponent the paper states, and one verdict
//! from one function ([`judge`]), worded by [`TheoryVerdict::words`] — the page and the CLI only
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
//! **Verdicts** ([`judge`]), with slopes within [`TOLERANCE`] of the stated exponent counting as
//! meeting it:
//! - *consistent with the theorem*: the interval's upper end is at most the stated exponent plus
//!   the tolerance (no faster growth than the paper's, no slower decay);
//! - *assumption violated here*: ε_t does not decay (lower end above −tolerance) or m_eff keeps
//!   growing (lower end above the tolerance), and for Reg(t): not consistent while an
//!   Assumption 1 check of the same run is violated;
//! - *not visible at this horizon*: anything else (the interval straddles, or there are fewer
//!   than 3 points to fit).

use crate::experiment::stats::{format_interval, Interval};
pub use crate::experiment::theory::fit::{loglog_fit, series, LogLogFit, Quantity};
use crate::online::sim::Checkpoint;
use serde::{Deserialize, Serialize};

/// How far above the stated exponent a slope may be and still meet it (and how far from 0 a
/// slope must be to count as growth or decay): 0.1 in the exponent of t.
pub const TOLERANCE: f64 = 0.1;

/// The three verdicts: each check says one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TheoryVerdict {
    Consistent,
    NotVisible,
    Violated,
}

impl TheoryVerdict {
    /// The verdict in words (the only place they are written).
    pub const fn words(&self) -> &'static str {
        match self {
            TheoryVerdict::Consistent => "consistent with the theorem",
            TheoryVerdict::NotVisible => "not visible at this horizon",
            TheoryVerdict::Violated => "assumption violated here",
        }
    }

    /// The verdict in words for a check of `q`: [`TheoryVerdict::words`], but for the offline gap,
    /// fitted against the number of samples n rather than a horizon, where *not visible* is said
    /// "not visible at these sample sizes".
    pub const fn words_for(&self, q: Quantity) -> &'static str {
        match (self, q) {
            (TheoryVerdict::NotVisible, Quantity::Gap) => "not visible at these sample sizes",
            _ => self.words(),
        }
    }
}

/// The verdict on a slope interval of `q` (module docs). `assumption_violated`: whether an
/// Assumption 1 check of the same runs is violated (read for Reg(t) only). An interval with a NaN
/// end is not visible.
pub fn judge(q: Quantity, slope: &Interval, assumption_violated: bool) -> TheoryVerdict {
    if !(slope.lo.is_finite() && slope.hi.is_finite()) {
        return TheoryVerdict::NotVisible;
    }
    if slope.hi <= q.exponent() + TOLERANCE {
        return TheoryVerdict::Consistent;
    }
    let violated = match q {
        Quantity::Epsilon => slope.lo > -TOLERANCE,
        Quantity::Meff => slope.lo > TOLERANCE,
        Quantity::Regret | Quantity::Horizon => assumption_violated,
        Quantity::Switches | Quantity::Gap => false,
    };
    if violated {
        TheoryVerdict::Violated
    } else {
        TheoryVerdict::NotVisible
    }
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
    pub verdict: TheoryVerdict,
    /// [`TheoryVerdict::words`].
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
    // m_eff's growth in words: "bounded" where its check is consistent, "still growing" where
    // the whole interval is above the tolerance, nothing where the interval straddles.
    if q == Quantity::Meff && slope.hi.is_finite() {
        if slope.hi <= TOLERANCE {
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

/// The checks of one policy's runs (one checkpoint list per seed): Assumption 1's two first, so
/// that Reg(t)'s verdict can name a violated assumption; returned in [`Quantity::RUN`] order.
pub fn check_runs(runs: &[&[Checkpoint]]) -> Vec<TheoryCheck> {
    let of = |q| runs.iter().map(|c| series(q, c)).collect::<Vec<_>>();
    let eps = check_of(Quantity::Epsilon, &of(Quantity::Epsilon), false);
    let meff = check_of(Quantity::Meff, &of(Quantity::Meff), false);
    let violated = [&eps, &meff].iter().any(|c| c.verdict == TheoryVerdict::Violated);
    let regret = check_of(Quantity::Regret, &of(Quantity::Regret), violated);
    let switches = check_of(Quantity::Switches, &of(Quantity::Switches), false);
    vec![regret, eps, meff, switches]
}

/// Reg(T) across horizons: `finals[s]` holds seed s's `(T, Reg(T))`, one per horizon of the grid;
/// `assumption_violated` as for Reg(t).
pub fn check_horizons(finals: &[Vec<(f64, f64)>], assumption_violated: bool) -> TheoryCheck {
    check_of(Quantity::Horizon, finals, assumption_violated)
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
    /// half = 12.706·0.288675 = 3.66790.
    #[test]
    fn a_fit_by_hand() {
        let e = std::f64::consts::E;
        let f = loglog_fit(&[(1.0, 1.0), (e, e), (e * e, e * e * e)]).unwrap();
        assert!((f.slope - 1.5).abs() < 1e-12, "{f:?}");
        assert!((f.intercept + 1.0 / 6.0).abs() < 1e-12, "{f:?}");
        assert!((f.half - 12.706 * (1.0f64 / 12.0).sqrt()).abs() < 1e-9, "{f:?}");
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
        let inverse_sqrt = slope(&|t: f64| 1.0 / t.sqrt());
        // Reg(t): √t and a plateau meet Õ(√T); a line does not show it, and with a violated
        // assumption that is named.
        assert_eq!(judge(Quantity::Regret, &sqrt, false), Consistent);
        assert_eq!(judge(Quantity::Regret, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Regret, &linear, false), NotVisible);
        assert_eq!(judge(Quantity::Regret, &linear, true), Violated);
        assert_eq!(judge(Quantity::Horizon, &linear, false), NotVisible);
        // ε_t: 1/√t meets it; a plateau or growth violates Assumption 1.
        assert_eq!(judge(Quantity::Epsilon, &inverse_sqrt, false), Consistent);
        assert_eq!(judge(Quantity::Epsilon, &plateau, false), Violated);
        assert_eq!(judge(Quantity::Epsilon, &linear, false), Violated);
        // m_eff: a plateau is bounded; √t and t keep growing.
        assert_eq!(judge(Quantity::Meff, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Meff, &sqrt, false), Violated);
        assert_eq!(judge(Quantity::Meff, &linear, false), Violated);
        // Switches against m_max·ln ln t: a plateau meets the lemma; growth does not show it.
        assert_eq!(judge(Quantity::Switches, &plateau, false), Consistent);
        assert_eq!(judge(Quantity::Switches, &linear, false), NotVisible);
        // Tolerance and straddling: ½ + 0.1 still meets; an interval across the violation line
        // of ε_t is not visible; no interval is not visible.
        assert_eq!(judge(Quantity::Regret, &exact(0.6), false), Consistent);
        assert_eq!(judge(Quantity::Regret, &exact(0.61), false), NotVisible);
        assert_eq!(judge(Quantity::Epsilon, &Interval::symmetric(-0.2, 0.2, 5), false), NotVisible);
        assert_eq!(judge(Quantity::Regret, &Interval::of(&[0.3]), false), NotVisible);
        assert_eq!(Consistent.words(), "consistent with the theorem");
        assert_eq!(NotVisible.words(), "not visible at this horizon");
        assert_eq!(Violated.words(), "assumption violated here");
        // The offline gap is fitted against n, not a horizon.
        assert_eq!(NotVisible.words_for(Quantity::Gap), "not visible at these sample sizes");
        assert_eq!(NotVisible.words_for(Quantity::Regret), "not visible at this horizon");
        assert_eq!(Consistent.words_for(Quantity::Gap), "consistent with the theorem");
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

    /// On whole runs: √t regret, 1/√t ε, 8 effective centers and switches ∝ m_max·ln ln t are
    /// consistent on every check; with ε stuck at 0.2 and m_eff ∝ t, a linear regret is
    /// "assumption violated here". Over two seeds the interval is over seeds.
    #[test]
    fn checks_of_constructed_runs() {
        let good = run(2000, |t| (t.sqrt(), 1.0 / t.sqrt(), 8.0, (3.0 * 10.0 * t.ln().ln()) as u64 + 1, 10));
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
        assert!((checks[0].slope.mean - 0.5).abs() < 1e-9);
        assert_eq!((checks[0].from, checks[0].to), (200.0, 2000.0));
        assert!(checks[2].measured.ends_with("(bounded)"), "{}", checks[2].measured);
        let bad = run(2000, |t| (t, 0.2, t / 10.0, (t * t / 10.0) as u64, t as usize));
        let checks = check_runs(&[&bad, &bad]);
        let words: Vec<_> = checks.iter().map(|c| (c.quantity, c.verdict)).collect();
        assert_eq!(
            words,
            [(Regret, Violated), (Epsilon, Violated), (Meff, Violated), (Switches, NotVisible)]
        );
        assert_eq!((checks[0].over.as_str(), checks[0].n), ("seeds", 2));
        assert!(checks[2].measured.ends_with("(still growing)"), "{}", checks[2].measured);
        assert_eq!(checks[0].words, "assumption violated here");
    }

    /// Theorem 4.1's check on constructed offline sweeps: a gap of exactly c·n^(−1/2) on every
    /// seed (c = 1, 2, 3) has slope −½ with a zero-width interval over seeds and is consistent;
    /// a gap that stays at 0.3 (a plateau) is not visible; one seed's n^(−0.3) and n^(−0.7) give
    /// a mean of −½ with the interval of the two slopes (sd 0.2·√2, so t_{0.975,1}·0.2).
    #[test]
    fn the_offline_gap_against_n_on_a_known_power_law() {
        let ns = [100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0];
        let seed = |c: f64, a: f64| ns.iter().map(|&n: &f64| (n, c * n.powf(a))).collect::<Vec<_>>();
        let c = check_series(Quantity::Gap, &[seed(1.0, -0.5), seed(2.0, -0.5), seed(3.0, -0.5)], false);
        assert_eq!(
            (c.quantity, c.verdict, c.n, c.over.as_str()),
            (Quantity::Gap, TheoryVerdict::Consistent, 3, "seeds")
        );
        assert!((c.slope.mean + 0.5).abs() < 1e-12 && c.slope.half() < 1e-9, "{:?}", c.slope);
        assert!((c.intercept - (2f64.ln() + 3f64.ln()) / 3.0).abs() < 1e-9, "mean of ln 1, ln 2, ln 3");
        assert_eq!((c.from, c.to, c.reference.as_str()), (100.0, 5000.0, "Theorem 4.1"));
        let flat = check_series(Quantity::Gap, &[seed(0.3, 0.0), seed(0.3, 0.0)], false);
        assert_eq!(flat.verdict, TheoryVerdict::NotVisible);
        let two = check_series(Quantity::Gap, &[seed(1.0, -0.3), seed(1.0, -0.7)], false);
        assert!((two.slope.mean + 0.5).abs() < 1e-12);
        assert!((two.slope.half() - 12.706 * 0.2).abs() < 1e-9, "{:?}", two.slope);
        assert_eq!(two.verdict, TheoryVerdict::NotVisible, "the interval reaches above −0.4");
        // One seed: its least-squares interval over the 6 points (exact: zero width).
        let one = check_series(Quantity::Gap, &[seed(1.0, -0.5)], false);
        assert_eq!((one.over.as_str(), one.n, one.verdict), ("checkpoints", 6, TheoryVerdict::Consistent));
    }

    #[test]
    fn across_horizons_over_seeds() {
        let seed = |c: f64| {
            vec![(500.0, c * 500f64.sqrt()), (2000.0, c * 2000f64.sqrt()), (8000.0, c * 8000f64.sqrt())]
        };
        let c = check_horizons(&[seed(1.0), seed(2.0), seed(3.0)], false);
        assert_eq!((c.quantity, c.verdict, c.n), (Quantity::Horizon, TheoryVerdict::Consistent, 3));
        assert!((c.slope.mean - 0.5).abs() < 1e-12 && c.slope.half() < 1e-9);
        assert_eq!((c.from, c.to), (500.0, 8000.0));
        // A seed without a fit (every Reg(T) ≤ 0) leaves the verdict undecided.
        let c = check_horizons(&[seed(1.0), vec![(500.0, 0.0), (2000.0, 0.0)]], false);
        assert_eq!(c.verdict, TheoryVerdict::NotVisible);
        assert_eq!(c.measured, "too few points to fit");
    }
}
