//! A claim of the paper and the parts of its stated test: what is compared ([`Comparison`]), on
//! which series ([`Series`]) and where in the sweep ([`At`]), and the paper's number's unit.

use crate::config::Params;
use crate::offline::OfflineKind;
use crate::online::PolicyKind;
use serde::{Deserialize, Serialize};

/// Where in the sweep a claim is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// The largest x of the metric (the final round, or the last sweep value).
    Final,
    /// One sweep value (stream length 100, ε = 0.4, the quantile 0.5, …).
    X(f64),
    /// Every sweep value: the claim must hold at each.
    Every,
}

/// What a claim is about: an algorithm of either list (by its id's enum), or a series that is no
/// algorithm (the geometry measure's `stream` and `universe`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Series {
    Policy(PolicyKind),
    Offline(OfflineKind),
    Named(&'static str),
}

impl Series {
    /// The key its results are recorded under: the algorithm's id, or the series' name.
    pub const fn id(&self) -> &'static str {
        match self {
            Series::Policy(p) => p.info().id,
            Series::Offline(o) => o.info().id,
            Series::Named(s) => s,
        }
    }
}

/// How a claim compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Comparison {
    /// The paper's value of the metric for `ours`, to the digits it prints.
    Value { ours: Series },
    /// `ours` below `baseline`; the paper's number is the relative reduction `1 − ours/baseline`
    /// in percent.
    Below { ours: Series, baseline: Series },
    /// `ours` has the lowest mean of every algorithm run (the oracle excepted).
    Lowest { ours: Series },
    /// The ratio `ours / baseline` (the paper's number, ×), tested on per-seed log ratios.
    Ratio { ours: Series, baseline: Series },
    /// The metric of `ours` at the final x is below its value at the first x.
    Falls { ours: Series },
    /// No claim: the paper states no number; the row shows what was measured.
    Measured { ours: Series },
    /// The paper's value of a quantity the run is set to produce (synthetic `σ_e` is calibrated
    /// to the paper's median arrival-to-source distance): a check of the calibration, never a
    /// reproduction.
    Calibrated { ours: Series },
}

impl Comparison {
    /// The series the claim compares: `ours` first.
    pub fn series(&self) -> Vec<Series> {
        match *self {
            Comparison::Value { ours }
            | Comparison::Lowest { ours }
            | Comparison::Falls { ours }
            | Comparison::Measured { ours }
            | Comparison::Calibrated { ours } => vec![ours],
            Comparison::Below { ours, baseline } | Comparison::Ratio { ours, baseline } => {
                vec![ours, baseline]
            }
        }
    }
}

/// Why two compared algorithms can give the same result on every seed, as far as the engine can
/// tell from the settings that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Offline, at the theoretical width `β_off = 1` (SPEC §13): both upper bounds saturate above
    /// φ's cap of 1 at every center, so CUCB-SC-Cont and CUCB-SC solve the same weighted k-median.
    SaturatedUpperBounds,
    /// Online, at `β = 1` (SPEC §13, Alg. 4): every lower bound is negative, every Reverse Greedy
    /// removal ties, and the keep-the-cache tie rule (SPEC §1) keeps the same first items.
    NegativeLcbs,
}

impl Identity {
    /// The reason, when the settings that ran are the ones it holds at.
    pub fn reason(&self, params: &Params) -> Option<&'static str> {
        match self {
            Identity::SaturatedUpperBounds => (params.beta_off >= 1.0).then_some(
                "at β_off = 1 both upper bounds saturate above φ's cap of 1 at every center (SPEC §13), so both reduce to the same weighted k-median and return the same cache",
            ),
            Identity::NegativeLcbs => (params.beta >= 1.0).then_some(
                "at β = 1 every lower bound is negative, every Reverse Greedy removal ties, and the keep-the-cache tie rule (SPEC §1) keeps the same first items in both",
            ),
        }
    }
}

/// One headline claim of the paper.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    /// What is claimed, in words.
    pub what: &'static str,
    /// The metric compared (an observation's metric name).
    pub metric: &'static str,
    pub at: At,
    pub comparison: Comparison,
    /// The paper's number as it prints it (`"73.32"`, `"0.0083"`, `"1.478"`), or `None` for a
    /// direction the paper states without a number.
    pub paper: Option<&'static str>,
    /// Where the paper states it.
    pub source: &'static str,
    /// The reason a measured value may differ (docs/REPRODUCTION.md, "Where we differ", by item).
    pub why: &'static str,
    /// Why the compared algorithms can give identical results, when the claim knows a reason.
    pub identical: Option<Identity>,
}

/// The direction part of a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Direction {
    /// The paired interval excludes zero on the claimed side.
    Holds,
    /// It excludes zero on the other side.
    Fails,
    /// It includes zero, or there is none (n < 2).
    Undecided,
}

/// The magnitude part of a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Magnitude {
    /// The paper's number lies in the measured interval (± half its last digit).
    Matches,
    /// It lies outside.
    Differs,
    /// The paper states no number for this claim.
    NotStated,
    /// There is no interval to compare with (n < 2).
    Undecided,
}

/// What a number is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Plain,
    Percent,
    Times,
}

impl Unit {
    pub(super) fn suffix(&self) -> &'static str {
        match self {
            Unit::Plain => "",
            Unit::Percent => " %",
            Unit::Times => "×",
        }
    }
}
