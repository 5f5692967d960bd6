//! A report's theory checks: [`crate::experiment::theory`]'s checks made over the seeds of an
//! online experiment from each run's recorded fits (`theory_slope_<id>`, `theory_half_<id>`,
//! `theory_points_<id>`, `theory_intercept_<id>`, written by the unit runner), and, for a sweep
//! over the horizon (`thy-horizon`), Reg(T) fitted against T — one run per T, as the switching
//! lemma means it.

use crate::experiment::run::observation::{first_seen, Observation};
use crate::experiment::theory::{
    check_horizons, check_of_fits, checks_in_order, LogLogFit, Quantity, TheoryCheck,
};
use crate::experiment::Metric;
use crate::experiment::{ExperimentSpec, Measure, UnitResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One policy's checks at one sweep value (`x` = T without a sweep), over the seeds that ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryRuns {
    pub policy: String,
    pub x: f64,
    pub checks: Vec<TheoryCheck>,
    /// Theorem 5.1's four terms at T beside Reg(T), for the learners that measure them (the
    /// CLCB family).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<BoundAtT>,
}

/// Theorem 5.1's four terms at the run's end T, each with its `O(·)` constant set to 1 ("up to
/// constants": their shapes in T, never a bound that holds as printed), averaged over the seeds
/// that measured them ([`crate::online::theory::BoundTerms`]), beside the measured Reg(T).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BoundAtT {
    /// Reg(T), mean over the seeds.
    pub regret: f64,
    /// Cost `β_T·√(T·γ_T)`.
    pub cost: Option<f64>,
    /// Arrival `√(m_eff·T·ln T)`.
    pub arrival: Option<f64>,
    /// Discretisation `(1 + 2α)·L_g·√T` (α = 1).
    pub discretisation: Option<f64>,
    /// Switching `k·m_max·ln ln T`.
    pub switching: Option<f64>,
    /// The largest of the four: `"cost"`, `"arrival"`, `"discretisation"` or `"switching"`.
    pub largest: String,
    /// Seeds averaged.
    pub n: usize,
}

/// The bound terms' names in [`BoundAtT`] order (metric `theory_bound_<name>`).
pub const BOUND_TERMS: [&str; 4] = ["cost", "arrival", "discretisation", "switching"];

/// One policy's final regret against the horizon T (a sweep over `horizon`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryHorizon {
    pub policy: String,
    pub check: TheoryCheck,
    /// Per seed, `(T, Reg(T))` at each horizon of the grid: the points fitted.
    pub points: Vec<Vec<(f64, f64)>>,
}

/// The theory checks of an online report, or of an offline sweep of the stream length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryReport {
    pub runs: Vec<TheoryRuns>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub horizons: Vec<TheoryHorizon>,
    /// An offline sweep of the stream length (fig. 2(a)): each algorithm's gap against n
    /// (Theorem 4.1), in the same shape (`points`: per seed, `(n, gap)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offline: Vec<TheoryHorizon>,
}

/// The metric name of a recorded per-run fit value.
fn metric(kind: &str, q: Quantity) -> String {
    format!("theory_{kind}_{}", q.id())
}

/// Whether the experiment sweeps `param` (alone, not in a grid).
fn sweeps(spec: &ExperimentSpec, param: &str) -> bool {
    spec.sweep.as_ref().is_some_and(|s| s.param == param && s.by.is_none())
}

/// Whether the experiment sweeps the horizon (alone, not in a grid).
fn sweeps_horizon(spec: &ExperimentSpec) -> bool {
    sweeps(spec, "horizon")
}

/// Theorem 4.1 on an offline sweep of the stream length: each algorithm's `gap` against n, one
/// least-squares log-log fit per seed, then the check over seeds ([`check_horizons`]'s way, with
/// [`Quantity::Gap`]); the Oracle (gap 0 by construction) left out. `None` without any gap.
fn offline_report(units: &[UnitResult]) -> Option<TheoryReport> {
    let mut order: Vec<String> = Vec::new();
    let mut by: BTreeMap<usize, BTreeMap<u64, Vec<(f64, f64)>>> = BTreeMap::new();
    for u in units {
        // The Oracle is the reference M_orc itself: its gap is 0 by construction, nothing to fit.
        let oracle = crate::algorithms::OfflineKind::Oracle.id();
        for o in u.observations.iter().filter(|o| o.metric == Metric::Gap.id() && o.algorithm != oracle) {
            let ai = first_seen(&mut order, &o.algorithm);
            by.entry(ai).or_default().entry(u.unit.seed).or_default().push((o.x, o.value));
        }
    }
    let offline: Vec<TheoryHorizon> = by
        .into_iter()
        .map(|(ai, by_seed)| {
            let mut points: Vec<Vec<(f64, f64)>> = by_seed.into_values().collect();
            points.iter_mut().for_each(|s| crate::order::stable_sort_by_key(s, |a| a.0));
            let check = crate::experiment::theory::check_series(Quantity::Gap, &points, false);
            TheoryHorizon { policy: order[ai].clone(), check, points }
        })
        .collect();
    (!offline.is_empty()).then_some(TheoryReport { runs: Vec::new(), horizons: Vec::new(), offline })
}

/// Theorem 5.1's terms at T of one group of seeds (metric maps), `None` when no seed measured
/// them.
fn bound_at(seeds: &[BTreeMap<&str, f64>], horizon: f64) -> Option<BoundAtT> {
    let mean = |name: &str| -> Option<f64> {
        let key = format!("theory_bound_{name}");
        let v: Vec<f64> = seeds.iter().filter_map(|m| m.get(key.as_str()).copied()).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    let n = seeds.iter().filter(|m| m.contains_key("theory_bound_discretisation")).count();
    if n == 0 {
        return None;
    }
    let terms: Vec<Option<f64>> = BOUND_TERMS.iter().map(|t| mean(t)).collect();
    let largest = BOUND_TERMS
        .iter()
        .zip(&terms)
        .filter_map(|(name, v)| v.map(|v| (*name, v)))
        .fold(None::<(&str, f64)>, |best, (name, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((name, v)),
        })
        .map_or(String::new(), |(name, _)| name.to_string());
    let regret: Vec<f64> =
        seeds.iter().filter_map(|m| m.get(Metric::AvgRegret.final_id()).map(|r| r * horizon)).collect();
    Some(BoundAtT {
        regret: if regret.is_empty() { f64::NAN } else { regret.iter().sum::<f64>() / regret.len() as f64 },
        cost: terms[0],
        arrival: terms[1],
        discretisation: terms[2],
        switching: terms[3],
        largest,
        n,
    })
}

/// The theory checks of `units` (an online experiment's; `None` for other measures or when no
/// unit recorded a slope).
pub fn theory_report(spec: &ExperimentSpec, units: &[UnitResult]) -> Option<TheoryReport> {
    if matches!(spec.measure, Measure::Offline { .. }) && sweeps(spec, "log_len") {
        return offline_report(units);
    }
    if !matches!(spec.measure, Measure::Online { .. }) || spec.is_grid() {
        return None;
    }
    // A swept parameter other than the horizon: every run's horizon is the spec's T.
    let at = (spec.sweep.is_some() && !sweeps_horizon(spec)).then_some(spec.params.horizon as f64);
    online_theory(&mut units.iter().map(|u| (u.unit.seed, &u.observations[..])), at, sweeps_horizon(spec))
}

/// The theory checks of online runs given as `(seed, observations)`, one item per run (a unit's,
/// or an external policy's run recorded by
/// [`online_observations`](crate::experiment::run::runner::online_observations)): per policy and x
/// the checks over seeds of the recorded fits, and with `across_horizons` (one run per (T, seed),
/// x = T: a sweep over the horizon) each policy's Reg(T) fitted against T by
/// [`check_horizons`]. `at`: the horizon T of every run when x is a swept parameter's value
/// (`None`: x is each run's T). The one body behind [`theory_report`] and the web layer's
/// `OwnPolicyStats` (a `dyn` iterator: the page's wasm holds it once). `None` when no run
/// recorded a Reg(t) slope.
pub fn online_theory(
    runs: &mut dyn Iterator<Item = (u64, &[Observation])>,
    at: Option<f64>,
    across_horizons: bool,
) -> Option<TheoryReport> {
    // (policy order, x bits) → one map per unit: metric → value.
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(usize, u64), Vec<BTreeMap<&str, f64>>> = BTreeMap::new();
    let mut finals: BTreeMap<usize, BTreeMap<u64, Vec<(f64, f64)>>> = BTreeMap::new();
    for (seed, observations) in runs {
        let mut per: BTreeMap<(usize, u64), BTreeMap<&str, f64>> = BTreeMap::new();
        for o in observations {
            let ai = first_seen(&mut order, &o.algorithm);
            if o.metric.starts_with("theory_") || o.metric == Metric::AvgRegret.final_id() {
                per.entry((ai, o.x.to_bits())).or_default().insert(o.metric.as_str(), o.value);
            }
            if o.metric == Metric::AvgRegret.final_id() {
                // Reg(T) = T · Reg(T)/T.
                finals.entry(ai).or_default().entry(seed).or_default().push((o.x, o.value * o.x));
            }
        }
        for (k, v) in per {
            groups.entry(k).or_default().push(v);
        }
    }
    let mut runs = Vec::new();
    let mut premise_failed_at_largest: BTreeMap<usize, bool> = BTreeMap::new();
    for (&(ai, xb), seeds) in &groups {
        let x = f64::from_bits(xb);
        let horizon = at.unwrap_or(x);
        let fits = |q: Quantity| -> Vec<Option<LogLogFit>> {
            seeds
                .iter()
                .map(|m| {
                    let slope = *m.get(metric("slope", q).as_str())?;
                    Some(LogLogFit {
                        slope,
                        intercept: m.get(metric("intercept", q).as_str()).copied().unwrap_or(f64::NAN),
                        half: m.get(metric("half", q).as_str()).copied().unwrap_or(f64::NAN),
                        points: m.get(metric("points", q).as_str()).map_or(0, |&p| p as usize),
                    })
                })
                .collect()
        };
        if fits(Quantity::Regret).iter().all(Option::is_none) {
            continue;
        }
        let window = |q: Quantity| {
            let from = q.window_from() * horizon;
            (if q == Quantity::Switches { from.max(16.0) } else { from }, horizon)
        };
        let check = |q: Quantity, fails: bool| check_of_fits(q, &fits(q), window(q), fails);
        let (checks, fails) = checks_in_order(check, fits(Quantity::Gamma).iter().any(Option::is_some));
        premise_failed_at_largest.insert(ai, fails); // x ascends within a policy: the last one stays
        let bound = bound_at(seeds, horizon);
        runs.push(TheoryRuns { policy: order[ai].clone(), x, checks, bound });
    }
    let mut horizons = Vec::new();
    if across_horizons {
        for (ai, by_seed) in finals {
            let mut points: Vec<Vec<(f64, f64)>> = by_seed.into_values().collect();
            points.iter_mut().for_each(|s| crate::order::stable_sort_by_key(s, |a| a.0));
            let fails = premise_failed_at_largest.get(&ai).copied().unwrap_or(false);
            let check = check_horizons(&points, fails);
            horizons.push(TheoryHorizon { policy: order[ai].clone(), check, points });
        }
    }
    (!runs.is_empty()).then_some(TheoryReport { runs, horizons, offline: Vec::new() })
}

impl TheoryReport {
    /// The table as text: algorithm, T, quantity, measured, theorem, verdict, n (slopes, which
    /// the theorem's constants do not change).
    pub fn to_text(&self, name: &dyn Fn(&str) -> String) -> String {
        let mut out = String::from(
            "\nTheory checks (log-log slopes, 95% intervals; docs/SPEC-NOTES.md \"Theory diagnostics\")\n",
        );
        // The x column: the horizon T, or the largest stream length n of an offline sweep.
        let x = if self.runs.is_empty() && !self.offline.is_empty() { "n" } else { "T" };
        out.push_str(&format!(
            "{:<24}{:>8}  {:<28}{:<36}{:<64}{:<50}{:>4}\n",
            "algorithm", x, "quantity", "measured", "theorem", "verdict", "n"
        ));
        let row = |out: &mut String, policy: &str, x: f64, c: &TheoryCheck| {
            out.push_str(&format!(
                "{:<24}{:>8}  {:<28}{:<36}{:<64}{:<50}{:>4} {}\n",
                name(policy),
                x,
                c.name,
                c.measured,
                format!("{} ({})", c.theorem, c.reference),
                c.words,
                c.n,
                c.over
            ));
        };
        for r in &self.runs {
            for c in &r.checks {
                row(&mut out, &r.policy, r.x, c);
            }
        }
        for h in &self.horizons {
            row(&mut out, &h.policy, h.check.to, &h.check);
        }
        for h in &self.offline {
            row(&mut out, &h.policy, h.check.to, &h.check);
        }
        // Each quantity's stated test once, in the table's order: what every verdict is drawn by.
        let mut tests: Vec<&TheoryCheck> = Vec::new();
        let all = self
            .runs
            .iter()
            .flat_map(|r| &r.checks)
            .chain(self.horizons.iter().chain(&self.offline).map(|h| &h.check));
        for c in all {
            if !tests.iter().any(|t| t.quantity == c.quantity) {
                tests.push(c);
            }
        }
        out.push_str(&format!("\nThe tests (tolerance {}):\n", crate::experiment::theory::TOLERANCE));
        for c in tests {
            out.push_str(&format!("  {}: {}\n", c.name, c.test));
        }
        let bounds: Vec<_> = self.runs.iter().filter_map(|r| r.bound.as_ref().map(|b| (r, b))).collect();
        if !bounds.is_empty() {
            out.push_str(
                "\nTheorem 5.1's four terms at T, up to constants (every O(·) constant = 1: shapes, not a bound as printed)\n",
            );
            out.push_str(&format!(
                "{:<24}{:>8}{:>14}{:>14}{:>14}{:>16}{:>14}  {:<16}{:>4}\n",
                "algorithm", "T", "Reg(T)", "cost", "arrival", "discretisation", "switching", "largest", "n"
            ));
            let cell =
                |v: Option<f64>| v.filter(|v| v.is_finite()).map_or("—".to_string(), |v| format!("{v:.1}"));
            for (r, b) in bounds {
                out.push_str(&format!(
                    "{:<24}{:>8}{:>14}{:>14}{:>14}{:>16}{:>14}  {:<16}{:>4}\n",
                    name(&r.policy),
                    r.x,
                    cell(Some(b.regret)),
                    cell(b.cost),
                    cell(b.arrival),
                    cell(b.discretisation),
                    cell(b.switching),
                    b.largest,
                    b.n
                ));
            }
        }
        out
    }
}
