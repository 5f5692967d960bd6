//! Every point's paired difference against the reference over the seeds both ran (the rule is in
//! [`super`]'s map), and the notes on families whose regret stays flat.

use super::paired::{Difference, FrontierComparison, FrontierRow, Paired};
use super::point::{
    config_of, default_reference, FrontierPoint, FRONTIER_METHOD, FRONTIER_METRICS, FRONTIER_RANGES,
};
use crate::config::Eviction;
use crate::experiment::stats::Interval;
use crate::experiment::{Measure, Report};
use crate::online::PolicyKind;

impl Report {
    /// Point `point`'s paired difference in `metric` against point `reference` over the seeds
    /// both ran (`None` when either lacks the metric).
    pub fn paired_difference(
        &self,
        point: usize,
        reference: usize,
        metric: &str,
        cost: bool,
    ) -> Option<Paired> {
        let (a, b) = (self.per_seed(point, metric), self.per_seed(reference, metric));
        if a.is_empty() || b.is_empty() {
            return None;
        }
        let d: Vec<f64> = a.iter().filter_map(|(s, v)| b.get(s).map(|r| v - r)).collect();
        if point == reference {
            let difference = Difference::Reference;
            return Some(Paired {
                n: d.len(),
                mean: 0.0,
                ci95: 0.0,
                difference,
                words: difference.words(cost).into(),
            });
        }
        Some(Paired::of(&d, cost))
    }

    /// The experiment point of every frontier point, in [`Report::frontier_points`]' order.
    pub(super) fn point_index(&self, p: &FrontierPoint<'_>) -> Option<usize> {
        let families = self.experiment.frontier_families();
        let (start, f) = families.into_iter().find(|(_, f)| std::ptr::eq(*f, p.family))?;
        let i = match &f.param {
            None => 0,
            Some(_) => f.values.iter().position(|v| v.as_f64().is_some_and(|v| v.total_cmp(&p.x).is_eq()))?,
        };
        Some(start + i)
    }

    /// Every point compared with point `reference` (an experiment point of this frontier;
    /// `None` for another experiment or a point it does not have). A report that does not hold
    /// every unit of its experiment (a run in progress, a cancelled run, a shard) decides nothing:
    /// every difference is [`Difference::Pending`], it says how many units it holds instead of
    /// the undecided sentence, and it gives no notes (more seeds may change what they state).
    pub fn frontier_comparison(&self, reference: usize) -> Option<FrontierComparison> {
        let (rf, ri) = self.experiment.family_of(reference)?;
        let rx = rf.x(ri);
        let (have, total) = (self.units.len(), self.experiment.units().len());
        let complete = have >= total;
        let settle = |p: Option<Paired>| {
            p.map(|p| if !complete && p.difference != Difference::Reference { p.pending() } else { p })
        };
        let mut rows = Vec::new();
        for p in self.frontier_points() {
            let Some(point) = self.point_index(&p) else { continue };
            let intervals = p
                .stats
                .iter()
                .zip(FRONTIER_RANGES)
                .map(|(s, range)| s.map(|s| Interval::clipped(s.n, s.mean, s.ci95, range)))
                .collect();
            rows.push(FrontierRow {
                point,
                config: config_of(p.family, p.x),
                intervals,
                cost: settle(self.paired_difference(point, reference, FRONTIER_METRICS[0].0, true)),
                error: settle(self.paired_difference(point, reference, FRONTIER_METRICS[1].0, false)),
            });
        }
        let reference_config = config_of(rf, rx);
        let decided = rows.iter().any(|r| {
            r.cost.as_ref().is_some_and(|c| c.difference.decided())
                || r.error.as_ref().is_some_and(|e| e.difference.decided())
        });
        let seeds = rows.iter().filter_map(|r| r.cost.as_ref()).map(|c| c.n).max().unwrap_or(0);
        let undecided = (complete && !decided && rows.len() > 1).then(|| {
            format!(
                "No point is distinguishable from {reference_config} in realised cost or in error rate: \
                 every paired 95% interval over the {seeds} shared seed{} holds 0.",
                if seeds == 1 { "" } else { "s" }
            )
        });
        let incomplete = (!complete).then(|| {
            let n = self.experiment.seeds;
            format!(
                "{have} of {total} units measured: no point is compared with {reference_config} until \
                 every point has run all {n} seed{}.",
                if n == 1 { "" } else { "s" }
            )
        });
        Some(FrontierComparison {
            reference,
            reference_config,
            method: FRONTIER_METHOD.into(),
            rows,
            undecided,
            incomplete,
            notes: if complete { self.flat_regret_notes() } else { Vec::new() },
        })
    }

    /// The comparison against [`default_reference`], for a frontier report.
    pub fn default_frontier_comparison(&self) -> Option<FrontierComparison> {
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) || self.units.is_empty() {
            return None;
        }
        self.frontier_comparison(default_reference(&self.experiment))
    }

    /// Why a swept family's average regret reads the same at every value of its parameter
    /// (to the table's 4 decimals), where it does. Regret (§5.1) prices the cache a policy *keeps*,
    /// `L(M_t) − L(M_orc)`, not the requests it serves. The threshold cache admits every miss and
    /// evicts by its family's rule ([`Eviction::evicts`]: LRU, SPEC §9, or GDSF): when it misses
    /// nearly every request at every τ (on nq-trivia 94–95%), it admits nearly the same requests
    /// whatever τ, so what its rule keeps — under LRU nearly the `k` most recent requests, under
    /// GDSF the `k` of highest priority among entries hardly ever used — hardly moves while τ
    /// changes which requests are served (hit rate, realised cost, error rate). The note names
    /// the rule the family's units ran with, gives the measured miss shares and, for scale, what
    /// an empty cache scores, `L(∅) − L(M_orc)` (each unit's `no_cache_loss` and
    /// `oracle_loss`). Other families get the general reason.
    pub fn flat_regret_notes(&self) -> Vec<String> {
        let Measure::Frontier { families } = &self.experiment.measure else { return Vec::new() };
        let points = self.frontier_points();
        let mut notes = Vec::new();
        let mut start = 0;
        for f in families {
            let range = start..start + f.points();
            start = range.end;
            let Some(param) = &f.param else { continue };
            let mine: Vec<&FrontierPoint<'_>> = points.iter().filter(|p| std::ptr::eq(p.family, f)).collect();
            let regrets: Vec<String> =
                mine.iter().filter_map(|p| p.stats[3].map(|s| format!("{:.4}", s.mean))).collect();
            if regrets.len() < 2 || regrets.iter().any(|r| *r != regrets[0]) {
                continue;
            }
            let mut gaps = Vec::new();
            for u in self.units.iter().filter(|u| range.contains(&u.unit.point)) {
                let get = |k: &str| u.detail.get(k).and_then(serde_json::Value::as_f64);
                if let (Some(none), Some(orc)) = (get("no_cache_loss"), get("oracle_loss")) {
                    gaps.push(none - orc);
                }
            }
            let empty = if gaps.is_empty() {
                String::new()
            } else {
                let gap = gaps.iter().sum::<f64>() / gaps.len() as f64;
                format!(" (An empty cache would score L(∅) − L(M_orc) = {gap:.4}.)")
            };
            let misses: Vec<f64> = mine.iter().filter_map(|p| p.stats[2].map(|s| 1.0 - s.mean)).collect();
            let (lo, hi) =
                misses.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), m| (a.min(*m), b.max(*m)));
            let (name, r) = (f.name(), &regrets[0]);
            // The rule and k the family's units ran with (its `set`, else the experiment's).
            let ran = self
                .units
                .iter()
                .find(|u| range.contains(&u.unit.point))
                .map(|u| (u.params.eviction, u.params.k));
            let why = match ran {
                Some((rule, k)) if f.policy == PolicyKind::Threshold && !misses.is_empty() && lo >= 0.5 => {
                    let kept = match rule {
                        Eviction::Lru => {
                            format!("what it keeps is nearly the {k} most recent requests whatever {param}")
                        }
                        Eviction::Gdsf => format!(
                            "GDSF keeps the {k} of highest L + frequency × cost among entries hardly ever \
                             used, nearly the same whatever {param}"
                        ),
                    };
                    format!(
                        "this cache admits every miss and {}, and it misses {:.1}–{:.1}% of requests at \
                         every {param}, so it admits nearly the same requests and {kept}: {param} changes \
                         which requests are served from it (hit rate, realised cost, error rate), hardly \
                         the cache.",
                        rule.evicts(),
                        100.0 * lo,
                        100.0 * hi
                    )
                }
                _ => format!(
                    "{param} changes which requests are served from the cache, not that cache's loss."
                ),
            };
            notes.push(format!(
                "{name}'s average regret is {r} at every {param}: regret (§5.1) prices the cache a policy keeps, \
                 L(M_t) − L(M_orc), not the requests it serves; {why}{empty}"
            ));
        }
        notes
    }
}
