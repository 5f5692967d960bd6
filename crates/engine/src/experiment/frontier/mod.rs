//! The frontier experiment's table and chart data, and what decides between its points: one row per
//! point of every family — the policy, its parameter value, and the final realised cost, error rate
//! (SPEC §14), hit rate and average regret, each as mean and 95% interval over seeds — and every
//! point's *paired* difference against a reference point in realised cost and in error rate.
//!
//! Every unit of a frontier runs on the seeds `first_seed …` (SPEC §10), so point `p` and the
//! reference `r` share their arrival streams seed by seed. The paired difference is
//! `d_s = v_p(s) − v_r(s)` over the shared seeds `s`, summarised as SPEC §10 summarises a
//! sample: the mean and the 95% Student-t half-width `t_{0.975, n−1}·sd(d)/√n`
//! ([`crate::experiment::stats::mean_std_ci95`]). It removes the variation the seeds cause in both, so it
//! decides where the unpaired intervals overlap. Words, from [`Difference::words`]: an interval
//! wholly below 0 is "cheaper" / "fewer wrong answers", wholly above "dearer" / "more wrong
//! answers", one that holds 0 "not distinguishable", and a difference of exactly 0 on every seed
//! "identical on every seed" (no number of seeds would separate them). A report that does not
//! hold every unit of its experiment yet (a run in progress, a cancelled run, a shard) decides
//! nothing: every difference is "not decided (run incomplete)", and one sentence says how many
//! units it holds.

//!
//! The files:
//! - [`point`]: the frontier's metrics and ranges, a point ([`FrontierPoint`]) and the reference;
//! - `table`: the points of a report and the chart data (`<out>.frontier.csv`);
//! - [`paired`]: the types of a paired comparison and their words (held by the report);
//! - `compare`: every point's paired difference against the reference, and notes on flat regret;
//! - [`pchr`]: the types of precision against cache-hit ratio (P-CHR) and its AUC;
//! - `pchr_curves`: P-CHR computed from a report, with its common range and CSV.

mod compare;
pub mod paired;
pub mod pchr;
mod pchr_curves;
pub mod point;
mod table;

#[cfg(test)]
mod tests;

pub use crate::experiment::definition::builtins::{frontier_title, SYNTHETIC_FRONTIER_K};
pub use paired::{Difference, FrontierComparison, FrontierRow, Paired};
pub use pchr::{auc, Pchr, PchrFamily, PchrPoint, PCHR_METHOD};
pub use pchr_curves::common_range;
pub use point::{
    config_of, default_reference, FrontierPoint, FRONTIER_METHOD, FRONTIER_METRICS, FRONTIER_RANGES,
};
