//! The frontier view's comparison against a reference the reader picks: the engine's paired
//! differences (`csc::experiment::frontier`) of a finished frontier report.

use super::convert::{js_err, to_js, JsResult};
use crate::error::Error;
use crate::experiment::{Report, ReportRecord};
use crate::json::FromJson;
use wasm_bindgen::prelude::*;

/// A report the page passes back (a run's `report()`), rebuilt from its record by this engine
/// ([`ReportRecord::into_report`]); `None` for anything else (each caller names what it wants).
pub(crate) fn report_arg(v: JsValue) -> Option<Report> {
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return None;
    }
    let j: serde_json::Value = serde_wasm_bindgen::from_value(v).ok()?;
    Some(ReportRecord::from_json_value(&j).ok()?.into_report())
}

/// Every point of frontier report `report` compared with its experiment point `reference`:
/// clipped intervals, paired differences in realised cost and error rate with their words, the
/// sentence when nothing is distinguishable (or, for a report still missing units, how many it
/// holds: nothing is decided then) and the notes on flat regret. Throws one plain
/// message for a value that is not a frontier report or a point it does not have.
#[wasm_bindgen(js_name = frontierComparison, unchecked_return_type = "FrontierComparison")]
pub fn frontier_comparison_js(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] reference: JsValue,
) -> JsResult<JsValue> {
    let bad = || js_err(Error::param("report", "must be a frontier report (the frontier view's result)"));
    let report = report_arg(report).ok_or_else(bad)?;
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

/// A paired difference of your own policy against a frontier point (the Frontier view's "Your
/// policy on the frontier"): `differences` holds, per seed both ran, your policy's value minus
/// the reference point's, in realised cost (`quantity` `"cost"`) or error rate (`"error_rate"`);
/// the engine's mean, 95% Student-t half-width and words, as a frontier row's (`Paired::of`).
/// Throws one plain message for no differences, a value that is not a finite number, or another
/// quantity.
#[wasm_bindgen(js_name = pairedDifference, unchecked_return_type = "Paired")]
pub fn paired_difference_js(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] differences: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"cost\" | \"error_rate\"")] quantity: JsValue,
) -> JsResult<JsValue> {
    let cost = match quantity.as_string().as_deref() {
        Some("cost") => true,
        Some("error_rate") => false,
        _ => return Err(js_err(Error::param("quantity", "must be \"cost\" or \"error_rate\""))),
    };
    let d = super::convert::f64s("differences", &differences)?;
    if d.is_empty() || d.iter().any(|v| !v.is_finite()) {
        return Err(js_err(Error::param("differences", "must be one finite number per seed, at least one")));
    }
    to_js(&crate::experiment::frontier::paired::Paired::of(&d, cost))
}

/// The experiment of the Frontier view's "Pick a threshold" form
/// (`csc::experiment::tune::tune_definition`): the threshold cache over τ, vCache over δ and
/// CLCB-SC-LS-Cont over β on `dataset` (a built-in's name, a dataset object naming the reader's
/// file, or nothing for nq-trivia), 4 seeds. `csc tune-threshold` runs the same definition. Throws
/// the engine's one message for data without ground truth: `plane`, or a dataset whose
/// `noGroundTruth` reason (its `DatasetInfo.no_ground_truth`) is given.
#[wasm_bindgen(js_name = tuneDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn tune_definition_js(
    #[wasm_bindgen(
        unchecked_optional_param_type = "\"synthetic\" | \"nq-trivia\" | \"plane\" | DatasetSpec | null"
    )]
    dataset: JsValue,
    #[wasm_bindgen(js_name = noGroundTruth, unchecked_optional_param_type = "string | null")]
    no_ground_truth: JsValue,
) -> JsResult<JsValue> {
    use crate::experiment::tune;
    use crate::experiment::DatasetId;
    if let Some(v) = super::convert::optional(no_ground_truth) {
        let why = super::convert::string("noGroundTruth", &v)?;
        return Err(js_err(tune::no_ground_truth(&why)));
    }
    let dataset = super::catalog::dataset_arg(dataset)?;
    if matches!(dataset.builtin(), Ok(Some(DatasetId::Plane))) {
        let plane = crate::dataset::plane::universe().map_err(js_err)?;
        tune::check_tune_data(&plane).map_err(js_err)?;
    }
    to_js(&tune::tune_definition(dataset).map_err(js_err)?)
}

/// "Pick a threshold, defensibly" (`csc::experiment::tune`) on a finished report of
/// [`tune_definition_js`]'s experiment: the threshold cache's τ with the largest hit ratio whose
/// one-sided 95% Clopper–Pearson bound meets the target on the first half of the seeds, reported on
/// the other half, with τ as a cosine, vCache's δ and the paper's saving, and the engine's
/// sentences. `kind` is `"precision"` (hit precision ≥ `value`, in (0, 1]) or `"error_rate"` (error
/// rate ≤ `value`, in [0, 1)). The target is checked first: a bad one throws its one message
/// whatever the report; then a value that is not such a report throws one.
#[wasm_bindgen(js_name = tuneThreshold, unchecked_return_type = "TuneAnswer")]
pub fn tune_threshold_js(
    #[wasm_bindgen(unchecked_param_type = "Report | null")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"precision\" | \"error_rate\"")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] value: JsValue,
) -> JsResult<JsValue> {
    let target = target(kind, value)?;
    let bad =
        || js_err(Error::param("report", "must be the report of the threshold form's run (tuneDefinition)"));
    let report = report_arg(report).ok_or_else(bad)?;
    to_js(&report.tune_threshold(target).map_err(js_err)?)
}

/// The target of the "Pick a threshold" form, checked by the engine
/// (`csc::experiment::tune::Target::new`): `{ kind, value }`, or one plain thrown message for a
/// value outside its range (a precision outside (0, 1], an error rate outside [0, 1), NaN) or an
/// unknown kind. The form checks its fields with it before it runs anything.
#[wasm_bindgen(js_name = tuneTarget, unchecked_return_type = "TuneTarget")]
pub fn tune_target_js(
    #[wasm_bindgen(unchecked_param_type = "\"precision\" | \"error_rate\"")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] value: JsValue,
) -> JsResult<JsValue> {
    to_js(&target(kind, value)?)
}

pub(crate) fn target(kind: JsValue, value: JsValue) -> JsResult<crate::experiment::tune::Target> {
    let kind = super::convert::string("kind", &kind)?;
    let value = value.as_f64().ok_or_else(|| {
        js_err(Error::param(&kind, "must be a number: a hit precision in (0, 1] or an error rate in [0, 1)"))
    })?;
    crate::experiment::tune::Target::new(&kind, value).map_err(js_err)
}
