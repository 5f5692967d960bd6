//! Experiments of SPEC §10 (the paper's §6 figures and appendix) and their aggregation over seeds.
//!
//! An experiment is a list of independent *units* (one sweep point × one seed), each a pure
//! function of (dataset, parameters, seed) producing observations `(algorithm, metric, x, value)`;
//! aggregation groups them into mean, standard deviation and 95% confidence interval per point.
//! No threads, clocks or files here: the native CLI runs units in parallel and writes files, the
//! browser runs them one at a time in a worker — the same code.
//!
//! - [`registry`]: the built-in experiments by id (the only list of ids);
//! - [`spec`]: a definition, its validation and its units; [`dataset`]: which data it runs on;
//! - [`grid`]: a sweep over one parameter or a grid over two (`--grid`);
//! - [`runner`]: one unit; [`geometry`]: the geometry measure;
//! - [`stats`]: aggregation over seeds; [`report`]: the finished report, CSV and summary table;
//! - [`frontier`]: the frontier experiment's table and chart data;
//! - [`claims`]: the paper's claims per preset; [`headline`]: each judged by a stated test;
//! - [`presets`]: one record per paper figure (definition, quick settings, label, claims, chart
//!   kind) and [`presets::describe`];
//! - [`theory`]: the paper's online guarantee checked on runs (slopes, intervals, verdicts);
//! - [`metrics`]: the one list of reported metrics with their definitions;
//! - [`reproduce`]: the `csc` command that regenerates a report, and a report file read back.

pub mod claims;
pub mod dataset;
pub mod definitions;
pub mod fit;
pub mod frontier;
pub mod geometry;
pub mod grid;
pub mod headline;
pub mod metrics;
pub mod observation;
pub mod paired;
pub mod pchr;
pub mod presets;
pub mod registry;
pub mod report;
pub mod reproduce;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod theory;
pub mod theory_report;
pub mod tune;

pub use crate::config::with_param;
pub use dataset::{DatasetId, DatasetSpec};
pub use definitions::{paper_policies, tuned_offline, TUNED_BETA_OFF, TUNED_LAMBDA};
pub use grid::{default_values as default_sweep_values, Axis, Sweep, MAX_CELLS};
pub use headline::{Headline, HeadlineRow, Verdict};
pub use observation::Observation;
pub use presets::{describe, figure, frontier_quick, paper_presets, ChartKind, Preset};
pub use registry::{builtin, frontier_definition, quick_spec, sweep_presets, BUILTIN_IDS};
pub use report::{Report, ReportRecord, ShardInfo, ENGINE};
pub use runner::{run_unit, UnitResult};
pub use spec::{check_experiment_size, ExperimentSpec, Family, Measure, Unit, MAX_UNITS};
pub use stats::{aggregate, format_difference, format_interval, t_quantile, Interval, Stat, INTERVAL};
