//! The engine's list of algorithms (`csc::algorithms`) for the page: every online policy and
//! offline algorithm with its id, display name, description and paper reference. The page builds
//! its policy choices from `policies()` and looks results up by id.

use super::convert::{to_js, JsResult};
use crate::algorithms::{OfflineKind, PolicyKind};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_ALGORITHMS: &'static str = r#"
/** One algorithm of the engine's list (Rust: `csc::algorithms::AlgorithmInfo`). */
export interface AlgorithmInfo<Id extends string = string> {
  /** The id used in definitions, links and results (`Stat.algorithm`). */
  id: Id;
  /** The paper's name, for tables and charts. */
  name: string;
  description: string;
  /** Where the paper (or SPEC) defines it. */
  paper: string;
  /** How charts draw it: an Okabe–Ito colour `#rrggbb`, a marker name and a dash pattern (`[]`: solid). */
  style: { colour: string; marker: string; dash: number[] };
}
"#;

/// Every online policy, in the engine's order (the order of the page's choices and of links).
#[wasm_bindgen(unchecked_return_type = "AlgorithmInfo<PolicyId>[]")]
pub fn policies() -> JsResult<JsValue> {
    to_js(&PolicyKind::catalog())
}

/// Every offline algorithm, in the engine's order.
#[wasm_bindgen(js_name = offlineAlgorithms, unchecked_return_type = "AlgorithmInfo[]")]
pub fn offline_algorithms() -> JsResult<JsValue> {
    to_js(&OfflineKind::catalog())
}
