//! The fits behind the theory checks ([`crate::experiment::theory`]): what is checked
//! ([`Quantity`]), each run's series over its window ([`series`]) and the least-squares log-log
//! line ([`loglog_fit`]) with its Student-t half-width ([`t_quantile`]). The unit runner records
//! each run's fit; [`crate::experiment::theory`] makes the checks and verdicts from them.

use crate::experiment::stats::student::t_quantile;
use crate::experiment::Metric;
use crate::online::sim::Checkpoint;
use serde::{Deserialize, Serialize};

/// What is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TheoryQuantity"))]
pub enum Quantity {
    Regret,
    /// JSON `"eps_t"`, as its metric ([`Quantity::id`]).
    #[serde(rename = "eps_t")]
    Epsilon,
    /// JSON `"m_eff"`, as its metric ([`Quantity::id`]).
    #[serde(rename = "m_eff")]
    Meff,
    Switches,
    /// The information gain γ_t (Theorem 5.1's cost term `β_T·√(T·γ_T)`; JSON `"gamma"`, as its
    /// metric).
    Gamma,
    Horizon,
    /// The offline suboptimality gap against the stream length n (Theorem 4.1), one fit per
    /// algorithm and seed over the sweep of `log_len`.
    Gap,
}

impl Quantity {
    /// Every quantity checked on one run, in table order.
    pub const RUN: [Quantity; 5] =
        [Quantity::Regret, Quantity::Epsilon, Quantity::Meff, Quantity::Gamma, Quantity::Switches];

    /// Its key in metric names (`theory_slope_<id>`).
    pub const fn id(&self) -> &'static str {
        match self {
            Quantity::Regret => "regret",
            Quantity::Epsilon => Metric::EpsT.id(),
            Quantity::Meff => Metric::MEff.id(),
            Quantity::Switches => Metric::Switches.id(),
            Quantity::Gamma => Metric::Gamma.id(),
            Quantity::Horizon => "horizon",
            Quantity::Gap => Metric::Gap.id(),
        }
    }

    /// The name a reader sees.
    pub const fn name(&self) -> &'static str {
        match self {
            Quantity::Regret => "Reg(t)",
            Quantity::Epsilon => "ε_t",
            Quantity::Meff => "m_eff(t)",
            Quantity::Switches => "switches / (m_max·ln ln t)",
            Quantity::Gamma => "γ_t",
            Quantity::Horizon => "Reg(T) across horizons",
            Quantity::Gap => "offline gap against n",
        }
    }
    /// The exponent of t the paper states.
    pub const fn exponent(&self) -> f64 {
        match self {
            Quantity::Regret | Quantity::Horizon => 0.5,
            Quantity::Epsilon | Quantity::Gap => -0.5,
            Quantity::Meff | Quantity::Switches | Quantity::Gamma => 0.0,
        }
    }
    /// Whether the stated slope is an assumption of the theorem (Assumption 1's ε_t and m_eff, and
    /// the polylogarithmic γ_T its Õ(√T) needs) rather than what a theorem or lemma concludes: an
    /// assumption measured to fail is "violated here"; a conclusion measured to fail grows faster
    /// than stated at this horizon (its O(·) may hide what a longer run would show).
    pub const fn is_premise(&self) -> bool {
        matches!(self, Quantity::Epsilon | Quantity::Meff | Quantity::Gamma)
    }
    /// Whether the check is Theorem 5.1's regret (within a run or across horizons), whose verdict
    /// defers to its premises' checks on the same runs.
    pub const fn rests_on_premises(&self) -> bool {
        matches!(self, Quantity::Regret | Quantity::Horizon)
    }
    /// What the paper states, in words.
    pub const fn theorem(&self) -> &'static str {
        match self {
            Quantity::Regret => "slope ≤ ½: Reg(T) = Õ(√T)",
            Quantity::Horizon => "slope ≤ ½ in T: Reg(T) = Õ(√T)",
            Quantity::Epsilon => "slope ≤ −½: ε_t = O(1/√t)",
            Quantity::Meff => "slope ≤ 0: m_eff bounded",
            Quantity::Switches => "slope ≤ 0: switches = O(m_max log log T)",
            Quantity::Gamma => "slope ≤ 0: γ_T polylog (for Õ(√T))",
            Quantity::Gap => "slope ≤ −½ in n: SubOpt = O(n^(−1/2))",
        }
    }
    /// Where the paper states it.
    pub const fn reference(&self) -> &'static str {
        match self {
            Quantity::Regret | Quantity::Horizon => "Theorem 5.1",
            Quantity::Epsilon | Quantity::Meff => "Assumption 1",
            Quantity::Switches => "Lemma 5.3",
            Quantity::Gamma => "Theorem 5.1; appendix A.2",
            Quantity::Gap => "Theorem 4.1",
        }
    }
    /// The share of the run the slope is fitted over: `t ∈ [T·from, T]`.
    pub const fn window_from(&self) -> f64 {
        match self {
            Quantity::Regret | Quantity::Epsilon | Quantity::Gamma => 0.1,
            Quantity::Meff | Quantity::Switches => 0.5,
            Quantity::Horizon | Quantity::Gap => 0.0,
        }
    }
}

/// A least-squares line `ln y = intercept + slope·ln t` and its slope's 95% half-width
/// (`t_{0.975, p−2}·se`, NaN with fewer than 3 points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogLogFit {
    pub slope: f64,
    pub intercept: f64,
    pub half: f64,
    pub points: usize,
}

/// The least-squares slope of `ln y` on `ln t` over the points with `t > 0` and `y > 0` (finite);
/// `None` with fewer than 2 such points or a single distinct t.
pub fn loglog_fit(points: &[(f64, f64)]) -> Option<LogLogFit> {
    let xy: Vec<(f64, f64)> = points
        .iter()
        .filter(|(t, y)| t.is_finite() && y.is_finite() && *t > 0.0 && *y > 0.0)
        .map(|&(t, y)| (crate::portable::ln(t), crate::portable::ln(y)))
        .collect();
    let p = xy.len();
    if p < 2 {
        return None;
    }
    let n = p as f64;
    let mx = xy.iter().map(|v| v.0).sum::<f64>() / n;
    let my = xy.iter().map(|v| v.1).sum::<f64>() / n;
    let sxx: f64 = xy.iter().map(|v| (v.0 - mx) * (v.0 - mx)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = xy.iter().map(|v| (v.0 - mx) * (v.1 - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let half = if p < 3 {
        f64::NAN
    } else {
        let sse: f64 = xy.iter().map(|v| (v.1 - intercept - slope * v.0).powi(2)).sum();
        t_quantile(p - 2) * (sse / (n - 2.0) / sxx).sqrt()
    };
    Some(LogLogFit { slope, intercept, half, points: p })
}

/// The share of a run over which [`runtime_growth`] fits: `t ∈ [T·from, T]`, the regret's window
/// (the first rounds' fixed costs, an empty cache's cheap decisions, stay out of the slope).
pub const RUNTIME_WINDOW_FROM: f64 = 0.1;

/// How a policy's time grows with the rounds (the Efficiency view's cost per round against t):
/// the log–log slope `a` of its cumulative time against t, `runtime(t) ∝ t^a`, fitted over
/// `t ∈ [T·RUNTIME_WINDOW_FROM, T]` (`T` = the largest t of `points`, pairs `(t, ms so far)`), so
/// that a round at t costs `∝ t^(a−1)`: `a ≈ 1` a constant cost per round, `a ≈ 3` a quadratic
/// one, as the exact learner's on distinct arrivals (docs/PERFORMANCE.md). A measurement of one
/// machine, never a verdict.
pub fn runtime_growth(points: &[(f64, f64)]) -> Option<LogLogFit> {
    let last = points.iter().map(|p| p.0).filter(|t| t.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    let from = RUNTIME_WINDOW_FROM * last;
    let window: Vec<(f64, f64)> = points.iter().copied().filter(|p| p.0 >= from).collect();
    loglog_fit(&window)
}

/// The series of `q` from one run's checkpoints over its fit window (`T` = the last t).
pub fn series(q: Quantity, cps: &[Checkpoint]) -> Vec<(f64, f64)> {
    let Some(last) = cps.last() else { return Vec::new() };
    let from = q.window_from() * last.t as f64;
    cps.iter()
        .filter(|c| c.t as f64 >= from)
        .filter_map(|c| {
            let th = c.theory.as_ref();
            let y = match q {
                Quantity::Regret | Quantity::Horizon => Some(c.regret),
                // Not a quantity of an online run.
                Quantity::Gap => None,
                Quantity::Epsilon => th.and_then(|p| p.eps_t),
                Quantity::Meff => th.and_then(|p| p.m_eff),
                Quantity::Gamma => th.and_then(|p| p.gamma),
                Quantity::Switches => th
                    .filter(|_| c.t >= 16)
                    .and_then(|p| p.m_max.map(|m| c.switches as f64 / (m as f64 * p.loglog_t))),
            }?;
            Some((c.t as f64, y))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{runtime_growth, Quantity};

    /// Time ∝ t² over t = 100 … 1,000 gives slope 2 exactly on its window, and the points before
    /// T/10 (here a wild t = 1) are not fitted.
    #[test]
    fn runtime_growth_fits_the_last_decade() {
        let mut pts: Vec<(f64, f64)> =
            (1..=10).map(|i| (100.0 * i as f64, 3e-4 * (100.0 * i as f64).powi(2))).collect();
        pts.insert(0, (1.0, 1e6));
        let f = runtime_growth(&pts).unwrap();
        assert!((f.slope - 2.0).abs() < 1e-12, "{}", f.slope);
        assert_eq!(f.points, 10);
        assert!(f.half.abs() < 1e-9);
        assert!(runtime_growth(&[(1000.0, 5.0)]).is_none());
        assert!(runtime_growth(&[]).is_none());
    }

    /// A check's quantity reads in JSON as its metric's key (the page looks checks up by it).
    #[test]
    fn quantities_serialise_as_their_ids() {
        for q in [
            Quantity::Regret,
            Quantity::Epsilon,
            Quantity::Meff,
            Quantity::Switches,
            Quantity::Gamma,
            Quantity::Horizon,
            Quantity::Gap,
        ] {
            assert_eq!(serde_json::to_value(q).unwrap(), q.id());
        }
    }
}
