//! "Pick a threshold, defensibly": the threshold cache's `τ` (SPEC §9) with the largest hit ratio
//! whose one-sided 95% bound on a target holds, chosen on one half of the seeds and reported on the
//! other.
//!
//! - **Ground truth.** A hit is wrong when the cached answer is not equivalent to the query's gold
//!   answer (SPEC §14), as in the frontier and P-CHR ([`crate::experiment::frontier::pchr`]). The counts of a run are
//!   its hits `h = hit rate·T` and wrong hits `w = error rate·T` (both rates are over the `T`
//!   requests; rounded to whole numbers, which they are).
//! - **Targets.** Hit precision `≥ p` (`1 − w/h`, correct hits over hits, `p ∈ (0, 1]`), or error
//!   rate `≤ e` (`w/T`, wrong hits over requests, `e ∈ [0, 1)`).
//! - **Bound.** Clopper–Pearson (1934), exact: the one-sided 95% lower bound of a proportion with
//!   `x` successes in `n` trials is the `p` with `P(X ≥ x; n, p) = 0.05` (`0` for `x = 0`; `0.05^(1/n)`
//!   for `x = n`), the upper bound the `p` with `P(X ≤ x; n, p) = 0.05` (`1` for `x = n`), each
//!   the double nearest the root of the binomial tail, an incomplete beta function evaluated in
//!   double-double arithmetic ([`crate::experiment::stats::binomial`]). The two-sided 95%
//!   interval takes 0.025 on each side. A point's counts are pooled over the seeds of a half, and
//!   its requests treated as independent trials (the rounds of one run are not quite: the bound is
//!   the usual one for a measured proportion).
//! - **Selection.** On the *selection* seeds (the first half of the run's seeds, in order), every
//!   `τ` of the grid with at least one hit whose one-sided bound meets the target is eligible; the
//!   answer is the eligible `τ` with the largest hit ratio (ties: the smaller `τ`). On the
//!   *reporting* seeds (the other half) the answer's hit ratio, precision with its two-sided
//!   interval and one-sided bound are measured, so the reported precision is not fitted to the data
//!   it is measured on.
//! - **Cosine.** GPTCache and Redis set a cosine similarity: for unit rows at normalised distance
//!   `τ`, `s = 1 − (D·τ)²/2` (SPEC §15's relation; [`crate::config::Params::resolved_threshold_tau`]
//!   is its inverse), with `D` the dataset's distance scale (SPEC §1).
//! - **The others.** vCache's `δ` (SPEC §15) and the paper's CLCB-SC-LS-Cont's `β` (SPEC §6) are
//!   chosen by the same rule on the same seeds, so the answer can say which `δ` reaches the same
//!   target, and what the paper's policy saves in realised cost against the threshold cache at that
//!   target: the paired difference over the reporting seeds (SPEC §10's Student-t interval, as the
//!   frontier's [`crate::experiment::frontier::paired::Difference`]).
//!
//! Every sentence of the answer is made here; the CLI and the page print them.
//!
//! The files:
//! - `target`: the target ([`Target`]), the grids searched and the method in words;
//! - [`select`]: the counts of a run and the choice of τ (and of vCache's δ and the paper's β);
//! - `words`: the answer's sentences;
//! - `command`: the tune run's definition and the `csc tune-threshold` command that gives the answer.
//!
//! The exact binomial bounds are statistics: [`crate::experiment::stats::binomial`].

mod command;
mod select;
mod target;
mod words;

#[cfg(test)]
mod tests;

pub use command::{check_tune_data, cosine_of, no_ground_truth, tune_command, tune_definition, tune_title};
pub use select::{select, Choice, Counts, Measured, TuneAnswer, TuneRow};
pub use target::{tune_taus, Target, ALPHA, TUNE_BETAS, TUNE_BOUND, TUNE_DELTAS, TUNE_METHOD, TUNE_SEEDS};
