//! What a tune run aims at ([`Target`]: a hit precision or an error rate), the grids it searches,
//! and how the answer is made, in words.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The one-sided level of every bound: 95%.
pub const ALPHA: f64 = 0.05;

/// The bound, named (the CLI, the page and docs/SPEC-NOTES.md say it).
pub const TUNE_BOUND: &str = "Clopper–Pearson (exact; the root of the binomial tail, to the nearest double)";

/// How the answer is made, in words.
pub const TUNE_METHOD: &str = "τ is chosen on the selection seeds (the first half of the seeds) and \
    reported on the other half: among the threshold cache's τ with at least one hit whose one-sided \
    95% Clopper–Pearson bound (exact; the root of the binomial tail, to the nearest double) meets the \
    target, the one with the largest hit ratio (ties: the smaller τ). Counts are pooled over a half's \
    seeds; hit precision is correct hits over hits, error rate wrong hits over requests (SPEC §14). vCache's δ \
    and CLCB-SC-LS-Cont's β are chosen by the same rule; the saving is the paired difference in \
    realised cost per request over the reporting seeds (mean and 95% Student-t interval, SPEC §10).";

/// The τ grid of [`super::tune_definition`]: 0.02 to 0.60 in steps of 0.02 (`i/50`, each the nearest
/// double).
pub fn tune_taus() -> Vec<f64> {
    (1..=30).map(|i| i as f64 / 50.0).collect()
}

/// vCache's δ values of [`super::tune_definition`] (the frontier's, SPEC §15).
pub const TUNE_DELTAS: [f64; 6] = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2];
/// CLCB-SC-LS-Cont's β values of [`super::tune_definition`] (the frontier's, SPEC §6).
pub const TUNE_BETAS: [f64; 4] = [0.03, 0.1, 0.3, 1.0];
/// Seeds of [`super::tune_definition`]: two to choose on, two to report on.
pub const TUNE_SEEDS: usize = 4;

/// What the answer must meet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneTarget"))]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Target {
    /// Hit precision (correct hits over hits) at least this.
    Precision(f64),
    /// Error rate (wrong hits over requests) at most this.
    ErrorRate(f64),
}

impl Target {
    /// A target from its kind (`precision`, `error_rate` or `error-rate`) and value: refused with
    /// one plain message when the value is outside its range (precision in (0, 1], error rate in
    /// [0, 1)) or not a number.
    pub fn new(kind: &str, value: f64) -> Result<Target> {
        match kind {
            "precision" => {
                if !(value > 0.0 && value <= 1.0) {
                    return Err(Error::param(
                        "precision",
                        format!("{} is not a hit precision: give a number in (0, 1], e.g. 0.95", show(value)),
                    ));
                }
                Ok(Target::Precision(value))
            }
            "error_rate" | "error-rate" => {
                if !(0.0..1.0).contains(&value) {
                    return Err(Error::param(
                        "error_rate",
                        format!("{} is not an error rate: give a number in [0, 1), e.g. 0.01", show(value)),
                    ));
                }
                Ok(Target::ErrorRate(value))
            }
            other => Err(Error::param(
                "target",
                format!("`{other}` is not a target: give precision or error_rate"),
            )),
        }
    }

    /// The target in words: `hit precision ≥ 0.9`, `error rate ≤ 0.01`.
    pub fn words(&self) -> String {
        match self {
            Target::Precision(p) => format!("hit precision ≥ {p}"),
            Target::ErrorRate(e) => format!("error rate ≤ {e}"),
        }
    }
}

fn show(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else {
        v.to_string()
    }
}
