//! Arrival streams (SPEC §7, §8, §11.10, §12). Every stream is a pure function of
//! (dataset, parameters, seed): seeded ChaCha8 generators, one independent sub-stream per
//! purpose, no global state — so the evaluation sample is the same whatever the horizon is.
//!
//! - `Jittered` (synthetic, user data): pick a universe query uniformly, add `N(0, σ_e² I)` to its
//!   embedding, renormalise; the arrival keeps that query's cost (SPEC §2).
//! - `Bursty` (nq-trivia): bursts alternate between the sources, starting with the first;
//!   lengths are Geometric(p = 1/mean) on {1, 2, …}; within a source, query i has popularity
//!   `p_i ∝ s_i`, `s_i ~ LogNormal(0, 1)`; arrivals are exact universe queries. `E` and the
//!   offline log are i.i.d. from the stationary mixture (each source with equal probability).
//! - `Plane`: i.i.d. from the blob mixture of [`crate::dataset::plane`].
//! - `Popularity` (any dataset): query i has popularity `p_i ∝ s_i`, `s_i ~ LogNormal(0, 1)`
//!   over the whole universe, no bursts; arrivals, `E` and the log are i.i.d. exact queries.
//! - `Replay` (any dataset): the file's order is the stream, arrival t = row t, `T` at most the
//!   number of rows (repeated queries are repeated lines); `E` and the log are i.i.d. from the
//!   file's empirical distribution (each row equally likely). With an index file of arrivals
//!   ([`crate::dataset::ReplayIndex`]) arrival t is row `order[t]`, `T` at most its length, and
//!   `E` and the log are i.i.d. from the index's empirical distribution (each line equally likely).
//!
//! [`ArrivalSpec`] is how a user names one of them (`uniform`, `bursty`, `popularity`,
//! `replay`, `plane`), for any dataset.
//!
//! Files: `model.rs` (the arrival model of a run), `arrival.rs` (the models a user names and how
//! one resolves), `sampler.rs` (seeded sub-streams, the calibration of `σ_e`, drawing one query),
//! `source.rs` (the online stream, trace replay, and [`generate_trace`]: one run's randomness as a SPEC §12 trace). Every item is
//! re-exported here: its path is `crate::stream::X`.

mod arrival;
mod model;
mod sampler;
mod source;

pub use arrival::{resolve_arrival, ArrivalInfo, ArrivalSpec, ARRIVALS, DEFAULT_OVERLAP, DEFAULT_TENANTS};
pub use model::ArrivalModel;
pub use sampler::{calibrate_sigma, check_tenants, rng, Drawn, Purpose, Sampler, SYNTHETIC_MEDIAN_DISTANCE};
pub use source::{generate_trace, Arrival, ArrivalSource, OnlineStream, TraceReplay};
