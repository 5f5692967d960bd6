//! The paper's headline claims (paper §6 and its appendix; SPEC §10; the claims themselves are
//! listed in [`crate::experiment::headline::claims`]), each judged against a run by one function, so that the page, the
//! CLI summary, the JSON report and docs/REPRODUCTION.md give the same verdict in the same words.
//! Two steps, each tested on its own:
//! - **evaluation** ([`judge`], numbers → a typed [`Outcome`]);
//! - **wording** ([`words`], outcome → sentence).
//!
//! Every claim compares per-seed values with the 95% Student-t interval of the mean over the n
//! seeds both sides ran (paired by seed where two algorithms are compared),
//! `mean ± t_{0.975, n−1}·sd/√n` ([`crate::experiment::t_quantile`]; [`INTERVAL`]). A verdict has two parts:
//! - **direction** ("A is below B", "A is the lowest", "falls over rounds"): *holds* when the
//!   interval of the paired difference excludes zero on the claimed side, *fails* when it excludes
//!   zero on the other side, *undecided at n* otherwise (also for n < 2, where there is none);
//! - **magnitude**: the paper's number (73.32 %, 0.0083, 1.478×) *matches* when the interval of
//!   the measured number meets it (widened by half a unit of its last printed digit: 0.0083 stands
//!   for [0.00825, 0.00835]), *differs* otherwise, or is *not stated*.
//!
//! A row is **reproduced** only when both parts hold (a claim without a direction, a printed
//! number, by its magnitude alone; one without a number by its direction alone). When the compared
//! algorithms gave bit-identical values on every seed the verdict is **identical on every seed**,
//! with the reason the engine can name at the settings that ran ([`Identity`]): no number of seeds
//! will ever tell them apart. A win of an algorithm whose hit rate is 0 on every seed is flagged:
//! it wins by never serving from the cache. Each table opens with the winning policy's hit rate
//! and realised cost ([`Lead`]).
//!
//! The files:
//! - [`claim`]: a claim and the parts of its test ([`Claim`], [`Comparison`], [`Series`], [`At`]);
//! - [`verdict`]: what judging gives ([`Evaluation`], [`Outcome`], [`Verdict`]) and a run's table
//!   ([`Headline`]);
//! - [`claims`]: the paper's claims, one function per figure;
//! - [`judge`]: numbers → a typed outcome (the stated test);
//! - [`words`]: outcome → sentence, a row, and a run's table ([`evaluate`]) in words.

pub mod claim;
pub mod claims;
mod judge;
pub mod verdict;
mod words;

#[cfg(test)]
mod tests;

pub use claim::{At, Claim, Comparison, Direction, Identity, Magnitude, Series, Unit};
pub use judge::{direction, interval, judge, magnitude};
pub use verdict::{Evaluation, Headline, HeadlineRow, Lead, Outcome, Verdict};
pub use words::{evaluate, words, NEVER_HITS};

/// The interval a verdict reads (one type with the frontier's; defined in `stats`).
pub use crate::experiment::stats::Interval;
pub use crate::experiment::stats::INTERVAL;
