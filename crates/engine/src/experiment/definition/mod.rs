//! What an experiment is: a definition ([`spec`]) with its sweep ([`grid`]) and data ([`dataset`]),
//! the metrics it reports ([`metrics`]), and the built-in ones by id ([`registry`]) with the paper
//! figures' records ([`presets`]) and their definitions ([`builtins`]).
//!
//! - [`spec`]: [`ExperimentSpec`](spec::ExperimentSpec), its validation and its units;
//! - [`grid`]: a sweep over one parameter or a grid over two (`--grid`);
//! - [`dataset`]: which data an experiment runs on;
//! - [`metrics`]: the one list of reported metrics with their definitions;
//! - [`builtins`]: each built-in experiment's definition, a function of its id;
//! - [`presets`]: one record per paper figure (definition, quick settings, label, claims, chart);
//! - [`registry`]: the built-in experiments by id (the only list of ids);
//! - [`threats`]: the threats view's `tenants` and `attack` definitions with the reader's settings.

pub mod builtins;
pub mod dataset;
pub mod grid;
pub mod metrics;
pub mod presets;
pub mod registry;
pub mod spec;
pub mod threats;
