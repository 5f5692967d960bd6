//! Statistics over seeds: the mean, spread and 95% Student-t interval of every point
//! ([`mod@aggregate`]), and how intervals and differences are written.
//!
//! - `beta`: the regularized incomplete beta function's continued fraction, behind both tails,
//!   evaluated in double-double arithmetic (`dd`);
//! - [`binomial`]: exact binomial bounds (Clopper–Pearson), the roots of the binomial tails;
//! - [`student`]: Student's t quantile for the 95% intervals, computed for every df;
//! - [`mod@aggregate`]: [`Stat`], [`Interval`], [`aggregate`](aggregate::aggregate) and the number
//!   formats ([`format_interval`], [`format_difference`]).

pub mod aggregate;
mod beta;
pub mod binomial;
mod dd;
pub mod student;

pub(crate) use aggregate::num;
pub use aggregate::{
    aggregate, aggregate_observations, decimals_for, decimals_keeping_sign, fixed, format_difference,
    format_interval, mean_std_ci95, significant, Interval, Stat, INTERVAL,
};
pub use student::t_quantile;
