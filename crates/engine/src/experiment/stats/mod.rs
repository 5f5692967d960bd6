//! Statistics over seeds: the mean, spread and 95% Student-t interval of every point
//! ([`aggregate`]), and how intervals and differences are written.
//!
//! - [`binomial`]: exact binomial bounds (Clopper–Pearson) by bisection on the CDF;
//! - [`student`]: Student's t quantile for the 95% intervals;
//! - [`aggregate`]: [`Stat`], [`Interval`], [`aggregate`](aggregate::aggregate) and the number
//!   formats ([`format_interval`], [`format_difference`]).

pub mod aggregate;
pub mod binomial;
pub mod student;

pub(crate) use aggregate::num;
pub use aggregate::{
    aggregate, decimals_for, decimals_keeping_sign, fixed, format_difference, format_interval, mean_std_ci95,
    significant, Interval, Stat, INTERVAL,
};
pub use student::t_quantile;
