//! A frontier point's paired difference against a reference point, and the words for it: the types
//! the frontier's comparison is made of ([`crate::experiment::frontier`] computes it; the report
//! carries it). Their own file, so that the report, which holds a comparison, and the frontier,
//! which reads reports, do not import each other.

use crate::experiment::run::observation::nan_as_null;
use crate::experiment::stats::{mean_std_ci95, Interval};
use serde::{Deserialize, Serialize};

/// How a point compares with the reference in one quantity (lower is better for both cost and
/// error rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Difference {
    /// The point is the reference.
    Reference,
    /// The difference is exactly 0 on every shared seed.
    Identical,
    /// The paired interval lies wholly below 0.
    Lower,
    /// The paired interval holds 0 (or one seed only: no interval).
    NotDistinguishable,
    /// The paired interval lies wholly above 0.
    Higher,
    /// Not decided: the report does not hold every unit of its experiment yet (a run in progress,
    /// a cancelled run, a shard), so more seeds may still move the interval.
    Pending,
}

impl Difference {
    /// The outcome of the paired differences `d` (point minus reference) of a non-reference point.
    pub fn of(d: &[f64]) -> (Difference, f64, f64) {
        if d.is_empty() {
            return (Difference::NotDistinguishable, f64::NAN, f64::NAN);
        }
        let (mean, _, ci95) = mean_std_ci95(d);
        let verdict = if d.iter().all(|v| *v == 0.0) {
            Difference::Identical
        } else if !ci95.is_finite() {
            Difference::NotDistinguishable
        } else if mean + ci95 < 0.0 {
            Difference::Lower
        } else if mean - ci95 > 0.0 {
            Difference::Higher
        } else {
            Difference::NotDistinguishable
        };
        (verdict, mean, ci95)
    }

    /// The words for this outcome in realised cost (`cost`) or in error rate.
    pub fn words(self, cost: bool) -> &'static str {
        match (self, cost) {
            (Difference::Reference, _) => "the reference",
            (Difference::Identical, _) => "identical on every seed",
            (Difference::NotDistinguishable, _) => "not distinguishable",
            (Difference::Lower, true) => "cheaper",
            (Difference::Higher, true) => "dearer",
            (Difference::Lower, false) => "fewer wrong answers",
            (Difference::Higher, false) => "more wrong answers",
            (Difference::Pending, _) => "not decided (run incomplete)",
        }
    }

    /// Whether the data separate the point from the reference.
    pub fn decided(self) -> bool {
        matches!(self, Difference::Lower | Difference::Higher)
    }
}

/// A point's paired difference against the reference in one quantity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Paired {
    /// The seeds both ran.
    pub n: usize,
    /// Mean of (point − reference) over those seeds.
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub mean: f64,
    /// Half-width of its paired 95% Student-t interval (NaN for one seed).
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub ci95: f64,
    pub difference: Difference,
    /// [`Difference::words`], for the table and the hover.
    pub words: String,
}

impl Paired {
    /// The paired difference of a non-reference point from its per-seed differences `d` (point
    /// minus reference, one per seed both ran) in realised cost (`cost`) or error rate: their
    /// mean, 95% Student-t half-width and [`Difference::of`]'s outcome with its words.
    pub fn of(d: &[f64], cost: bool) -> Paired {
        let (difference, mean, ci95) = Difference::of(d);
        Paired { n: d.len(), mean, ci95, difference, words: difference.words(cost).into() }
    }

    /// The same difference undecided, [`Difference::Pending`] with its words: what a report that
    /// lacks units of its experiment says (more seeds may still move the interval).
    pub fn pending(self) -> Paired {
        Paired { difference: Difference::Pending, words: Difference::Pending.words(true).into(), ..self }
    }
}

/// One row of the comparison: a point, its intervals, and its paired differences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrontierRow {
    /// The experiment point ([`crate::experiment::ExperimentSpec::family_of`]).
    pub point: usize,
    /// Its configuration in words: `Threshold, threshold_tau = 0.3`.
    pub config: String,
    /// The intervals of [`crate::experiment::frontier::FRONTIER_METRICS`] in order (`None` where not measured).
    pub intervals: Vec<Option<Interval>>,
    /// Realised cost minus the reference's.
    pub cost: Option<Paired>,
    /// Error rate minus the reference's (`None` without ground truth).
    pub error: Option<Paired>,
}

/// A frontier's points compared with one reference point (the JSON report's `frontier`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrontierComparison {
    /// The reference's experiment point.
    pub reference: usize,
    /// Its configuration in words.
    pub reference_config: String,
    /// [`crate::experiment::frontier::FRONTIER_METHOD`].
    pub method: String,
    pub rows: Vec<FrontierRow>,
    /// One sentence when no point is distinguishable from the reference in either quantity
    /// (only for a report that holds every unit of its experiment).
    pub undecided: Option<String>,
    /// One sentence when the report does not hold every unit of its experiment yet (a run in
    /// progress, a cancelled run, a shard): how many it holds, and that nothing is decided.
    pub incomplete: Option<String>,
    /// Why a family's average regret is the same at every value of its parameter, where it is
    /// ([`crate::experiment::Report::flat_regret_notes`]); none while the report is incomplete.
    pub notes: Vec<String>,
}
