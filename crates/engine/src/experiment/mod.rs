//! Experiments of SPEC §10 (the paper's §6 figures and appendix) and their aggregation over seeds.
//!
//! An experiment is a list of independent *units* (one sweep point × one seed), each a pure
//! function of (dataset, parameters, seed) producing observations `(algorithm, metric, x, value)`;
//! aggregation groups them into mean, standard deviation and 95% confidence interval per point.
//! No threads, clocks or files here: the native CLI runs units in parallel and writes files, the
//! browser runs them one at a time in a worker — the same code.
//!
//! The rooms, each with a map of its files in its `mod.rs`:
//! - [`definition`]: what an experiment is (spec, grid, dataset, metrics, the built-ins by id and
//!   the paper figures' records);
//! - [`run`]: running one unit, what it records, and the command that regenerates a report;
//! - [`stats`]: aggregation over seeds, intervals and how numbers are written;
//! - [`report`]: the finished report, its CSV and summary table, and merging shards;
//! - [`headline`]: the paper's claims per figure, each judged by a stated test, and the verdict's
//!   words;
//! - [`frontier`]: cost against error rate, the paired comparison against a reference, and P-CHR;
//! - [`theory`]: the paper's online guarantee checked on runs (fits, checks, the report's table);
//! - [`tune`]: picking a threshold τ for a target with exact binomial bounds.

pub mod definition;
pub mod frontier;
pub mod headline;
pub mod report;
pub mod run;
pub mod stats;
pub mod theory;
pub mod tune;

pub use crate::config::with_param;
pub use definition::builtins::{paper_policies, tuned_offline, TUNED_BETA_OFF, TUNED_LAMBDA};
pub use definition::dataset::{DatasetId, DatasetSpec};
pub use definition::grid::{default_values as default_sweep_values, Axis, Sweep, MAX_CELLS};
pub use definition::metrics::Metric;
pub use definition::presets::{describe, figure, frontier_quick, paper_presets, ChartKind, Preset};
pub use definition::registry::{builtin, frontier_definition, quick_spec, sweep_presets, BUILTIN_IDS};
pub use definition::spec::{check_experiment_size, ExperimentSpec, Family, Measure, Unit, MAX_UNITS};
pub use definition::threats::{attack_definition, tenants_definition};
pub use headline::{Headline, HeadlineRow, Verdict};
pub use report::{Report, ReportRecord, ShardInfo, ENGINE};
pub use run::observation::Observation;
pub use run::runner::{run_unit, UnitResult};
pub use stats::{aggregate, format_difference, format_interval, t_quantile, Interval, Stat, INTERVAL};
