//! Running an experiment: one unit ([`runner`]) and what it records ([`observation`]), the
//! geometry measure ([`geometry`]), and the `csc` command that regenerates a report
//! ([`reproduce`]).
//!
//! - [`runner`]: one unit (sweep point × seed), a pure function of dataset, parameters and seed;
//! - [`observation`]: one `(algorithm, metric, x, value)` record and its JSON form;
//! - [`geometry`]: the distances of a stream to its universe and the ε-net's shape;
//! - [`reproduce`]: the command that regenerates a report, and a report file read back;
//! - [`threats`]: the units of the tenants and attack measures.

pub mod geometry;
pub mod observation;
pub mod reproduce;
pub mod runner;
pub mod threats;
