//! A report's theory checks (issue 36): [`super::theory`]'s checks made over the seeds of an
//! online experiment from each run's recorded fits (`theory_slope_<id>`, `theory_half_<id>`,
//! `theory_points_<id>`, `theory_intercept_<id>`, written by the unit runner), and, for a sweep over the horizon
//! (`thy-horizon`), Reg(T) fitted against T — one run per T, as the switching lemma means it.

use super::theory::{check_horizons, check_of_fits, LogLogFit, Quantity, TheoryCheck, TheoryVerdict};
use super::{ExperimentSpec, Measure, UnitResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One policy's checks at one sweep value (`x` = T without a sweep), over the seeds that ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryRuns {
    pub policy: String,
    pub x: f64,
    pub checks: Vec<TheoryCheck>,
}

/// One policy's final regret against the horizon T (a sweep over `horizon`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryHorizon {
    pub policy: String,
    pub check: TheoryCheck,
    /// Per seed, `(T, Reg(T))` at each horizon of the grid: the points fitted.
    pub points: Vec<Vec<(f64, f64)>>,
}

/// The theory checks of an online report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TheoryReport {
    pub runs: Vec<TheoryRuns>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub horizons: Vec<TheoryHorizon>,
}

/// The metric name of a recorded per-run fit value.
fn metric(kind: &str, q: Quantity) -> String {
    format!("theory_{kind}_{}", q.id())
}

/// Whether the experiment sweeps the horizon (alone, not in a grid).
fn sweeps_horizon(spec: &ExperimentSpec) -> bool {
    spec.sweep.as_ref().is_some_and(|s| s.param == "horizon" && s.by.is_none())
}

/// The theory checks of `units` (an online experiment's; `None` for other measures or when no
/// unit recorded a slope).
pub fn theory_report(spec: &ExperimentSpec, units: &[UnitResult]) -> Option<TheoryReport> {
    if !matches!(spec.measure, Measure::Online { .. }) || spec.is_grid() {
        return None;
    }
    // (policy order, x bits) → one map per unit: metric → value.
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(usize, u64), Vec<BTreeMap<&str, f64>>> = BTreeMap::new();
    let mut finals: BTreeMap<usize, BTreeMap<u64, Vec<(f64, f64)>>> = BTreeMap::new();
    for u in units {
        let mut per: BTreeMap<(usize, u64), BTreeMap<&str, f64>> = BTreeMap::new();
        for o in &u.observations {
            let ai = order.iter().position(|a| *a == o.algorithm).unwrap_or_else(|| {
                order.push(o.algorithm.clone());
                order.len() - 1
            });
            if o.metric.starts_with("theory_") || o.metric == "final_avg_regret" {
                per.entry((ai, o.x.to_bits())).or_default().insert(o.metric.as_str(), o.value);
            }
            if o.metric == "final_avg_regret" {
                // Reg(T) = T · Reg(T)/T.
                finals.entry(ai).or_default().entry(u.unit.seed).or_default().push((o.x, o.value * o.x));
            }
        }
        for (k, v) in per {
            groups.entry(k).or_default().push(v);
        }
    }
    let mut runs = Vec::new();
    let mut violated_at_largest: BTreeMap<usize, bool> = BTreeMap::new();
    for (&(ai, xb), seeds) in &groups {
        let x = f64::from_bits(xb);
        let horizon =
            if spec.sweep.is_none() || sweeps_horizon(spec) { x } else { spec.params.horizon as f64 };
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
        let check = |q: Quantity, violated: bool| check_of_fits(q, &fits(q), window(q), violated);
        let eps = check(Quantity::Epsilon, false);
        let meff = check(Quantity::Meff, false);
        let violated = [&eps, &meff].iter().any(|c| c.verdict == TheoryVerdict::Violated);
        violated_at_largest.insert(ai, violated); // x ascends within a policy: the last one stays
        let regret = check(Quantity::Regret, violated);
        let switches = check(Quantity::Switches, false);
        runs.push(TheoryRuns { policy: order[ai].clone(), x, checks: vec![regret, eps, meff, switches] });
    }
    let mut horizons = Vec::new();
    if sweeps_horizon(spec) {
        for (ai, by_seed) in finals {
            let mut points: Vec<Vec<(f64, f64)>> = by_seed.into_values().collect();
            points.iter_mut().for_each(|s| crate::order::stable_sort_by_key(s, |a| a.0));
            let violated = violated_at_largest.get(&ai).copied().unwrap_or(false);
            let check = check_horizons(&points, violated);
            horizons.push(TheoryHorizon { policy: order[ai].clone(), check, points });
        }
    }
    (!runs.is_empty()).then_some(TheoryReport { runs, horizons })
}

impl TheoryReport {
    /// The table as text: algorithm, T, quantity, measured, theorem, verdict, n (slopes, which
    /// the theorem's constants do not change).
    pub fn to_text(&self, name: &dyn Fn(&str) -> String) -> String {
        let mut out = String::from(
            "\nTheory checks (log-log slopes, 95% intervals; docs/SPEC-NOTES.md \"Theory diagnostics\")\n",
        );
        out.push_str(&format!(
            "{:<24}{:>8}  {:<28}{:<36}{:<58}{:<30}{:>4}\n",
            "algorithm", "T", "quantity", "measured", "theorem", "verdict", "n"
        ));
        let row = |out: &mut String, policy: &str, x: f64, c: &TheoryCheck| {
            out.push_str(&format!(
                "{:<24}{:>8}  {:<28}{:<36}{:<58}{:<30}{:>4} {}\n",
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
        out
    }
}
