//! The frontier view's comparison against a reference the reader picks (issue 33, item 3): the
//! engine's paired differences (`csc::experiment::frontier`) of a finished frontier report.

use super::convert::{js_err, to_js, JsResult};
use crate::error::Error;
use crate::experiment::{Report, ReportRecord};
use wasm_bindgen::prelude::*;

/// Every point of frontier report `report` compared with its experiment point `reference`:
/// clipped intervals, paired differences in realised cost and error rate with their words, the
/// sentence when nothing is distinguishable and the notes on flat regret. Throws one plain
/// message for a value that is not a frontier report or a point it does not have.
#[wasm_bindgen(js_name = frontierComparison, unchecked_return_type = "FrontierComparison")]
pub fn frontier_comparison_js(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] reference: JsValue,
) -> JsResult<JsValue> {
    let bad = || js_err(Error::param("report", "must be a frontier report (the frontier view's result)"));
    if !report.is_object() || js_sys::Array::is_array(&report) {
        return Err(bad());
    }
    let j: serde_json::Value = serde_wasm_bindgen::from_value(report).map_err(|_| bad())?;
    let report: Report = crate::json::from_value::<ReportRecord>(&j).map_err(|_| bad())?.into_report();
    let points = report.experiment.points();
    let point = reference.as_f64().filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v < points as f64);
    let Some(point) = point else {
        return Err(js_err(Error::param(
            "reference",
            format!("must be a point of the frontier, a whole number from 0 to {}", points.saturating_sub(1)),
        )));
    };
    to_js(&report.frontier_comparison(point as usize).ok_or_else(bad)?)
}
