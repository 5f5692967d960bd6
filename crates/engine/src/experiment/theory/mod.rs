//! Does the guarantee show? The paper's online guarantee (Thm. 5.1 with Assumption 1 and Lemma
//! 5.3) and its offline one (Thm. 4.1) checked on measured runs.
//!
//! The files:
//! - [`fit`]: what is checked ([`Quantity`]), each run's series and its log-log fit;
//! - [`checks`]: the checks and their verdicts by the stated test ([`judge`], [`TheoryVerdict`]);
//! - [`report`]: a report's theory table over seeds and horizons.

pub mod checks;
pub mod fit;
pub mod report;

pub use checks::{
    check_horizons, check_of_fits, check_runs, check_series, checks_in_order, judge, TheoryCheck,
    TheoryVerdict, TOLERANCE,
};
pub use fit::{loglog_fit, runtime_growth, series, LogLogFit, Quantity, RUNTIME_WINDOW_FROM};
