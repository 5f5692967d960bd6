//! What judging a claim gives: the typed outcome and its verdict, the evaluation behind it, and a
//! run's headline table (rows and lead).

use super::claim::{Direction, Magnitude, Unit};
use crate::experiment::stats::Interval;
use serde::{Deserialize, Serialize};

/// What evaluating a claim on a run found ([`super::judge()`]); [`super::words()`] says it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Outcome {
    /// An algorithm the claim compares did not run (e.g. dropped from quick settings).
    NotRun,
    /// No claim to test: a quantity the paper gives no number for, as measured.
    Measured,
    /// The paper's number of a quantity the run is calibrated to produce, and whether the
    /// measured interval holds it (a check of the calibration, not a reproduction).
    Calibrated { magnitude: Magnitude },
    /// The compared algorithms gave bit-identical values on every seed.
    Identical {
        /// The algorithms `ours` equals (display names).
        with: Vec<String>,
        /// Why, when the engine can name it at these settings ([`super::Identity::reason`]).
        reason: Option<String>,
    },
    /// The claim judged in its two parts.
    Judged {
        /// The claimed direction, with the paired interval it was read from (positive on the
        /// claim's side; for "lowest", the closest competitor's); `None` for a printed number.
        direction: Option<Direction>,
        /// The paired interval of the direction, when there is a direction.
        difference: Option<Interval>,
        magnitude: Magnitude,
        /// The claimed winner's hit rate is 0 on every seed: it wins by never serving from the
        /// cache (set only when the direction holds).
        never_hits: bool,
    },
}

/// A claim's verdict, the one class of its outcome ([`Outcome::verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Verdict {
    /// Direction and magnitude both hold.
    Reproduced,
    /// Direction and magnitude hold, but the winner's hit rate is 0 on every seed: it wins by never
    /// serving from the cache, which is not the caching the claim is about (docs/SPEC-NOTES.md,
    /// "Headline verdicts").
    NeverServes,
    /// The direction holds (or there is none) but the paper's number lies outside the interval.
    Differs,
    /// The direction fails.
    NotReproduced,
    /// The interval includes both outcomes (or n < 2).
    Undecided,
    /// Identical on every seed.
    Identical,
    /// An algorithm the claim needs did not run.
    NotRun,
    /// No claim to test.
    Measured,
    /// A quantity the run is calibrated to produce: not evidence for or against the paper.
    Calibrated,
}

impl Outcome {
    /// The verdict: reproduced only when both parts hold, and not by a winner that never serves
    /// from the cache.
    pub fn verdict(&self) -> Verdict {
        match self {
            Outcome::NotRun => Verdict::NotRun,
            Outcome::Measured => Verdict::Measured,
            Outcome::Calibrated { .. } => Verdict::Calibrated,
            Outcome::Identical { .. } => Verdict::Identical,
            Outcome::Judged { direction, magnitude, never_hits, .. } => match (direction, magnitude) {
                (Some(Direction::Fails), _) => Verdict::NotReproduced,
                (Some(Direction::Undecided), _) | (_, Magnitude::Undecided) => Verdict::Undecided,
                (_, Magnitude::Differs) => Verdict::Differs,
                (Some(Direction::Holds), Magnitude::Matches | Magnitude::NotStated) if *never_hits => {
                    Verdict::NeverServes
                }
                (Some(Direction::Holds), Magnitude::Matches | Magnitude::NotStated) => Verdict::Reproduced,
                (None, Magnitude::Matches) => Verdict::Reproduced,
                (None, Magnitude::NotStated) => Verdict::Measured,
            },
        }
    }
}

/// Everything [`super::judge()`] measured for one claim: the outcome and the numbers the wording shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub outcome: Outcome,
    /// Seeds the test used.
    pub n: usize,
    /// The x it was read at (the last one, for a claim read at every x).
    pub x: Option<f64>,
    /// The measured number in the paper's unit, with its interval (value, reduction, ratio).
    pub measured: Option<Interval>,
    pub unit: Unit,
    /// "lowest": the algorithms with the lowest mean (one per x read), display names.
    pub lowest: Vec<String>,
    /// "falls": (first x, its mean, final x, its mean).
    pub falls: Option<(f64, f64, f64, f64)>,
    /// The paired intervals the direction was read from, against whom (display names, with the
    /// x where the claim reads several).
    pub pairs: Vec<(String, Interval)>,
    /// Against whom the direction's interval (`Outcome::Judged::difference`) was read, when it
    /// is one of several pairs ("lowest": the closest competitor).
    pub versus: Option<String>,
}

/// One row of a headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeadlineRow {
    pub what: String,
    pub metric: String,
    /// The x the claim is read at (`None` for the final value).
    pub x: Option<f64>,
    /// The paper's number with its unit (`"73.32 %"`), or its words (`"lowest"`).
    pub paper: String,
    /// The measured number (reduction in %, ratio, value), when the claim has one.
    pub measured: Option<Interval>,
    /// The measured outcome in words (`"0.0110 ± 0.0009"`, `"lowest mean: Greedy"`).
    pub measured_text: String,
    /// Seeds the test used.
    pub n: usize,
    /// What the evaluation found, both parts.
    pub outcome: Outcome,
    pub verdict: Verdict,
    /// The verdict in words ([`super::words()`]).
    pub verdict_text: String,
    /// The test and its interval, stated.
    pub test: String,
    pub source: String,
    pub why: String,
}

/// What a practitioner sees first: the policy with the lowest mean of the table's "lowest" claim,
/// with its hit rate and realised cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Lead {
    /// The winner's id.
    pub algorithm: String,
    pub metric: String,
    pub value: Interval,
    /// Its final hit rate, where the run records one (online).
    pub hit_rate: Option<Interval>,
    /// Its realised cost per round, where the run records one (online).
    pub realised_cost: Option<Interval>,
    /// It served no request from its cache on any seed.
    pub never_hits: bool,
    /// All of it in words.
    pub text: String,
}

/// A run's headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Headline {
    /// The preset the claims belong to (`fig-a`, …).
    pub preset: String,
    /// What "±" means ([`super::INTERVAL`]).
    pub interval: String,
    /// The winner, first (absent when no claim names a lowest).
    #[serde(default)]
    pub lead: Option<Lead>,
    pub rows: Vec<HeadlineRow>,
}
