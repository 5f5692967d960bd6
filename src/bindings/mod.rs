//! The page layer: the JavaScript API, a thin, typed layer over the engine, compiled only for
//! `wasm32` and the only place in the crate that uses `#[wasm_bindgen]`, and the page's view
//! state (`url_state`, plain Rust, also compiled natively so that it is tested there). Nothing
//! in the engine uses this module.
//!
//! Conventions of every export:
//! - long-lived objects are classes (`dataset::JsDataset` is `Dataset` in JS); primitives are
//!   plain functions (`epsilonNet`, `reverseGreedy`, …);
//! - bulk data goes in and out as typed arrays (points as a flat row-major `Float32Array` with its
//!   dimension, indices as `Uint32Array`, weights and costs as `Float64Array`), always copied, so a
//!   returned array stays valid after the wasm memory grows;
//! - configuration and small results are plain objects converted with serde-wasm-bindgen, their
//!   TypeScript declarations generated from the Rust types (`typescript`, included by `types`);
//! - string and array parameters are taken as `JsValue` and checked in `convert` (`string`,
//!   `f32s`, …): the release JS glue passes any value on unchecked, and a number where a `&str`
//!   was declared would trap the module. Each such export (`*_js` in Rust) checks its arguments,
//!   then calls the typed form Rust callers use (scripts/hostile_pkg.mjs sweeps them all);
//! - every invalid input is a thrown `Error` carrying the engine's readable message — nothing
//!   panics across the boundary (inputs are validated before any indexing); a panic hook logs
//!   the unexpected to the console.
//!
//! Submodules: `dataset` (the `Dataset` class), `primitives` (ε-net, Reverse Greedy, exact
//! optimum, losses, KRR posterior), `params` (defaults and validation of `Params`, the
//! determinism report). The online-simulation and chunked-experiment classes are added as further
//! submodules here.

// The browser benchmark's classes: only in the benchmark's package (cargo feature `bench`,
// www/pkg-bench from scripts/bench.sh), never in the page's.
#[cfg(all(target_arch = "wasm32", feature = "bench"))]
pub mod bench;
#[cfg(target_arch = "wasm32")]
pub mod catalog;
#[cfg(target_arch = "wasm32")]
mod convert;
#[cfg(target_arch = "wasm32")]
pub mod dataset;
#[cfg(target_arch = "wasm32")]
pub mod experiment_run;
#[cfg(target_arch = "wasm32")]
pub mod frontier;
#[cfg(target_arch = "wasm32")]
pub mod online_run;
#[cfg(target_arch = "wasm32")]
pub mod own_policy;
#[cfg(target_arch = "wasm32")]
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod params;
#[cfg(target_arch = "wasm32")]
pub mod primitives;
#[cfg(target_arch = "wasm32")]
pub mod reproduce;
#[cfg(target_arch = "wasm32")]
pub mod simulation;
#[cfg(target_arch = "wasm32")]
pub mod threats;
#[cfg(target_arch = "wasm32")]
pub mod types;
// The page's view state as a URL and its controls' table (plain Rust, tested natively;
// exported by `page` and `catalog`).
pub mod controls;
pub mod fingerprint;
pub mod objects;
#[cfg(not(target_arch = "wasm32"))]
pub mod typescript;
pub mod url_state;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, monotonic, in the page and in its workers alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Installs the panic hook (a panic, which would be an engine bug, is printed to the console
/// with its message instead of an opaque `unreachable` trap) and gives the engine its clock for
/// the measured runtimes (`csc::clock`: the engine asks no JavaScript itself). Runs once, when
/// the module is initialised (not part of the typed API).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start, skip_typescript)]
pub fn start() {
    console_error_panic_hook::set_once();
    crate::clock::set_clock(performance_now);
}

/// The version of the engine (the crate version), e.g. `"0.1.0"`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The commit the engine was built from (12 hex digits; `"unknown"` when built outside a git
/// checkout), shown in the page's footer beside [`version`].
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn commit() -> String {
    crate::COMMIT.to_string()
}
