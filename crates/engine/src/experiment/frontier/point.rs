//! A frontier's columns (metrics, their ranges, the method in words), one point of it, and the
//! reference point the others are compared with.

use crate::config::GPTCACHE_COSINE;
use crate::experiment::definition::builtins::frontier_title;
use crate::experiment::Metric;
use crate::experiment::{ExperimentSpec, Family, Measure, Stat};
use crate::online::PolicyKind;

/// The metrics of a frontier point, in column order: (metric, column heading).
pub const FRONTIER_METRICS: [(&str, &str); 4] = [
    (Metric::AvgRealisedCost.final_id(), "realised cost"),
    (Metric::ErrorRate.final_id(), "error rate"),
    (Metric::HitRate.final_id(), "hit rate"),
    (Metric::AvgRegret.final_id(), "avg regret"),
];

/// The range each of [`FRONTIER_METRICS`] can take, to which its drawn interval is clipped: a
/// realised cost per round is a mean of `c(x) ∈ (0, 1]` and `φ ≥ 0` (eq. (1), SPEC §2), the error
/// and hit rates are shares of requests (SPEC §14), and average regret may be negative (the
/// oracle's cache is Reverse Greedy's, not the optimum; SPEC-NOTES#online-spec-9).
pub const FRONTIER_RANGES: [(f64, f64); 4] =
    [(0.0, f64::INFINITY), (0.0, 1.0), (0.0, 1.0), (f64::NEG_INFINITY, f64::INFINITY)];

/// How the frontier's intervals are made, in words (the page and the CLI say it).
pub const FRONTIER_METHOD: &str = "Each point: mean over seeds with its 95% Student-t interval \
    (SPEC §10), clipped to the quantity's range (error and hit rate to [0, 1], realised cost to \
    ≥ 0). Against the reference: the paired difference over the seeds both ran (the runs share \
    seeds, so seed-to-seed variation cancels), mean with its paired 95% Student-t interval; it \
    decides when that interval excludes 0.";

/// One point of a frontier: its family, the parameter's value (NaN for a single point) and the
/// statistics of [`FRONTIER_METRICS`] (`None` where not measured, e.g. no ground truth).
pub struct FrontierPoint<'a> {
    pub family: &'a Family,
    pub x: f64,
    pub stats: Vec<Option<&'a Stat>>,
}

/// A family's configuration at value `x` in words: `Threshold, threshold_tau = 0.3`.
pub fn config_of(family: &Family, x: f64) -> String {
    match (&family.param, x.is_finite()) {
        (Some(name), true) => format!("{}, {name} = {x}", family.name()),
        _ => family.name(),
    }
}

/// The default reference of a frontier: the threshold cache at GPTCache's defaults
/// (`threshold_cosine` = [`GPTCACHE_COSINE`], the preset of `frontier`), the point production
/// caches ship with; else the first point.
pub fn default_reference(spec: &ExperimentSpec) -> usize {
    let Measure::Frontier { families } = &spec.measure else { return 0 };
    let mut point = 0;
    for f in families {
        let gptcache = f.policy == PolicyKind::Threshold
            && f.param.is_none()
            && f.set.get("threshold_cosine").and_then(|v| v.as_f64()) == Some(GPTCACHE_COSINE);
        if gptcache {
            return point;
        }
        point += f.points();
    }
    0
}

impl ExperimentSpec {
    /// Re-titles a frontier from its settings ([`frontier_title`]) after a change of its
    /// parameters or seeds (`csc run frontier --set horizon=1000`); other experiments keep
    /// their titles.
    pub fn retitle_frontier(&mut self, dataset: &str) {
        if matches!(self.measure, Measure::Frontier { .. }) {
            self.title = frontier_title(dataset, &self.params, self.seeds);
        }
    }
}
