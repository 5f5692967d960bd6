//! What the live and batch classes share: the JS argument types and the limits of a run held in
//! the page (their TypeScript types are in `types.rs`). The classes are `OnlineRun` (`online_run.rs`,
//! the live view) and `ExperimentRun` (`experiment_run.rs`, SPEC §10 in workers); both build on
//! this file, which names neither (no import cycle, tests/architecture.rs).

use super::convert::{js_err, JsResult};
use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "PolicyId[]")]
    pub type JsPolicyIds;
    #[wasm_bindgen(typescript_type = "ExperimentSpec | string")]
    pub type JsExperiment;
    #[wasm_bindgen(typescript_type = "(roundsDone: number) => boolean")]
    pub type JsProgress;
}

/// Largest horizon an `OnlineRun` accepts (it keeps the generated stream in memory).
pub const MAX_LIVE_HORIZON: usize = 1_000_000;

/// The limits of a run held in the page: at most [`MAX_LIVE_HORIZON`] rounds, and a stream
/// that fits the browser's memory ([`super::convert::stream_fits`]). Shared by `OnlineRun` and
/// the benchmark's `BenchOnline`.
pub(crate) fn live_run_fits(params: &crate::config::Params, dim: usize) -> JsResult<()> {
    if params.horizon > MAX_LIVE_HORIZON {
        return Err(js_err(Error::param(
            "horizon",
            format!("a live run holds at most {MAX_LIVE_HORIZON} rounds, got {}", params.horizon),
        )));
    }
    super::convert::stream_fits(params, dim)
}
