//! The engine's list of algorithms (`csc::algorithms`) for the page: every online policy and
//! offline algorithm with its id, display name, description and paper reference. The page builds
//! its policy choices from `policies()` and looks results up by id.

use super::convert::{js_err, optional};
use super::convert::{to_js, JsResult};
use crate::algorithms::{OfflineKind, PolicyKind};
use crate::error::Error;
use crate::experiment::{frontier_definition, DatasetId};
use wasm_bindgen::prelude::*;

/// Every online policy, in the engine's order (the order of the page's choices and of links),
/// with its family, whether it is slow, and where each step of its rounds is defined.
#[wasm_bindgen(unchecked_return_type = "(PolicyInfo & { id: PolicyId })[]")]
pub fn policies() -> JsResult<JsValue> {
    to_js(&PolicyKind::ALL.iter().map(PolicyKind::policy_info).collect::<Vec<_>>())
}

/// Every offline algorithm, in the engine's order.
#[wasm_bindgen(js_name = offlineAlgorithms, unchecked_return_type = "AlgorithmInfo[]")]
pub fn offline_algorithms() -> JsResult<JsValue> {
    to_js(&OfflineKind::catalog())
}

/// The paper view's presets, from the engine's one list (`csc::experiment::paper_presets`): the
/// page builds its menu, quick runs and descriptions from it.
#[wasm_bindgen(js_name = paperPresets, unchecked_return_type = "PaperPreset[]")]
pub fn paper_presets_js() -> JsResult<JsValue> {
    to_js(&super::objects::paper_preset_list())
}

/// Every metric the engine reports, with its one-line definition and the paper's reference
/// (`csc::experiment::definition::metrics`): the page shows them on hover, focus and tap.
#[wasm_bindgen(unchecked_return_type = "MetricInfo[]")]
pub fn metrics() -> JsResult<JsValue> {
    to_js(&crate::experiment::definition::metrics::METRICS)
}

/// The numbers the paper prints for the metrics of a preset's figure
/// (`csc::experiment::definition::presets::paper_values`): the page marks them on the figure. Unknown presets
/// have none.
#[wasm_bindgen(js_name = paperValues, unchecked_return_type = "PaperValue[]")]
pub fn paper_values_js(
    #[wasm_bindgen(unchecked_param_type = "string")] preset: JsValue,
) -> JsResult<JsValue> {
    let preset = super::convert::string("preset", &preset)?;
    to_js(&crate::experiment::definition::presets::paper_values(&preset))
}

/// A number argument of the formatters, NaN for anything else (`null`, one seed's missing
/// half-width), which they write as the mean alone or "–".
fn num(v: &JsValue) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// `mean ± half` at the precision the half-width supports (`csc::experiment::format_interval`):
/// every table of the page formats its intervals with this. A half-width that is not a number
/// (`null`, one seed) prints the mean alone; a mean that is not a number, "–".
#[wasm_bindgen(js_name = formatInterval)]
pub fn format_interval(
    #[wasm_bindgen(unchecked_param_type = "number | null")] mean: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] half: JsValue,
) -> String {
    crate::experiment::format_interval(num(&mean), num(&half))
}

/// A paired difference `point − reference` in words (`csc::experiment::format_difference`): the
/// mean with its sign (`+`, or `−`, U+2212) `± half` at the half-width's precision, no sign where
/// the mean rounds to zero. The frontier's table and hover write their differences with this.
#[wasm_bindgen(js_name = formatDifference)]
pub fn format_difference(
    #[wasm_bindgen(unchecked_param_type = "number | null")] mean: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] half: JsValue,
) -> String {
    crate::experiment::format_difference(num(&mean), num(&half))
}

/// An interval given by its bounds in words (`csc::experiment::Interval::words`): `mean ± half`
/// when symmetric, else the mean and `[lo, hi]` at the half-width's precision (an interval clipped
/// to a quantity's range, a ratio's), the mean alone without bounds (`null`, one seed). The
/// frontier's and P-CHR's tables and hovers write the engine's `Interval`s with this.
#[wasm_bindgen(js_name = formatBounds)]
pub fn format_bounds(
    #[wasm_bindgen(unchecked_param_type = "number | null")] mean: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] lo: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] hi: JsValue,
) -> String {
    crate::experiment::Interval { mean: num(&mean), lo: num(&lo), hi: num(&hi), n: 0 }.words("")
}

/// What "±" means in every interval the engine reports (`csc::experiment::INTERVAL`): the
/// captions under the page's figures say this.
#[wasm_bindgen(js_name = intervalWords)]
pub fn interval_words() -> String {
    crate::experiment::INTERVAL.to_string()
}

/// A policy's name with its final cache size when that is below `k`
/// (`csc::online::sim::sized_label`): "CLCB-Frozen-Cont (1 item)", so a policy that never filled
/// its cache is not read as a k-item one. A size that is not a number gives the name as is; a
/// label that is not a string, or a `k` that is not a whole number ≥ 1, throws one plain message.
#[wasm_bindgen(js_name = sizedLabel)]
pub fn sized_label(
    #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null")] size: JsValue,
    k: f64,
) -> JsResult<String> {
    let label = super::convert::string("label", &label)?;
    Ok(crate::online::sim::sized_label(&label, num(&size), super::convert::whole("k", k, 1)?))
}

/// What a name written by `sizedLabel` means (`csc::online::sim::sized_label_note`), for the
/// caption or table that shows one. A `k` that is not a whole number ≥ 1 throws one plain message.
#[wasm_bindgen(js_name = sizedLabelNote)]
pub fn sized_label_note(k: f64) -> JsResult<String> {
    Ok(crate::online::sim::sized_label_note(super::convert::whole("k", k, 1)?))
}

/// How a policy's time grows with the rounds (`csc::experiment::theory::runtime_growth`): the
/// log–log slope of its cumulative time `ms[i]` to round `t[i]` over `t ∈ [T/10, T]` (`T` the
/// largest `t`), with its 95% half-width and the number of points, or `undefined` with
/// fewer than two usable points. Arrays that are not numbers, or of different lengths, throw one
/// plain message.
#[wasm_bindgen(js_name = runtimeGrowth, unchecked_return_type = "{ slope: number, half: number, points: number } | undefined")]
pub fn runtime_growth(
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] t: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] ms: JsValue,
) -> JsResult<JsValue> {
    let (t, ms) = (super::convert::f64s("t", &t)?, super::convert::f64s("ms", &ms)?);
    if t.len() != ms.len() {
        return Err(js_err(Error::param(
            "ms",
            format!("one time per round t: {} rounds, {} times", t.len(), ms.len()),
        )));
    }
    let points: Vec<(f64, f64)> = t.into_iter().zip(ms).collect();
    Ok(match crate::experiment::theory::runtime_growth(&points) {
        None => JsValue::UNDEFINED,
        Some(f) => super::convert::Obj::new()
            .set("slope", f.slope)
            .set("half", f.half)
            .set("points", f.points as f64)
            .build(),
    })
}

/// The frontier view's experiment: the `frontier` definition at the engine's quick settings
/// (`csc::experiment::frontier_quick`) on `dataset` — a built-in's name, a dataset object naming
/// the reader's file, or nothing for nq-trivia — over `horizon` rounds with `n_eval = T`
/// (`csc::experiment::frontier_definition`; nothing: the page's default T, 1,000; at 2,000 on
/// nq-trivia it is `csc run frontier`). The page runs it on its worker pool and exports it;
/// `csc run` on the exported definition gives the same bits. A horizon that is not a whole number
/// of rounds ≥ 1 throws one plain message.
#[wasm_bindgen(js_name = frontierDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn frontier_definition_js(
    #[wasm_bindgen(
        unchecked_optional_param_type = "\"synthetic\" | \"nq-trivia\" | \"plane\" | DatasetSpec | null"
    )]
    dataset: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] horizon: JsValue,
) -> JsResult<JsValue> {
    let horizon = match optional(horizon) {
        None => {
            crate::bindings::url_state::page_params(crate::bindings::url_state::PageDataset::default())
                .horizon
        }
        Some(v) => super::convert::whole("horizon", v.as_f64().unwrap_or(f64::NAN), 1)?,
    };
    to_js(&frontier_definition(dataset_arg(dataset)?, horizon).map_err(js_err)?)
}

/// The dataset argument of [`frontier_definition_js`] and `tuneDefinition`: a built-in's name, a
/// dataset object, or nothing for nq-trivia.
pub(crate) fn dataset_arg(dataset: JsValue) -> JsResult<DatasetId> {
    Ok(match optional(dataset) {
        None => DatasetId::NqTrivia,
        Some(v) if v.is_string() => DatasetId::parse(&v.as_string().unwrap_or_default()).map_err(js_err)?,
        Some(v) if v.is_object() && !js_sys::Array::is_array(&v) => {
            let j: serde_json::Value = serde_wasm_bindgen::from_value(v)
                .map_err(|e| js_err(Error::parse(format!("dataset: {e}"))))?;
            <DatasetId as crate::json::FromJson>::from_json_value(&j)
                .map_err(|e| js_err(Error::parse(format!("dataset: {e}"))))?
        }
        Some(_) => {
            return Err(js_err(Error::param(
                "dataset",
                "must be a built-in's name (synthetic, nq-trivia, plane) or a dataset object",
            )))
        }
    })
}

/// Every parameter with its symbol, unit, documentation, reference, page control and SPEC
/// default (`csc::config::PARAMETERS`, defaults from `Params::default()`).
#[wasm_bindgen(unchecked_return_type = "ParamInfo[]")]
pub fn parameters() -> JsResult<JsValue> {
    to_js(&crate::config::param_list())
}

/// Every arrival model (`csc::stream::ARRIVALS`).
#[wasm_bindgen(js_name = arrivalModels, unchecked_return_type = "ArrivalInfo[]")]
pub fn arrival_models() -> JsResult<JsValue> {
    to_js(&crate::stream::ARRIVALS)
}

/// Every dataset the page offers (`csc::dataset::DATASETS`).
#[wasm_bindgen(unchecked_return_type = "DatasetEntry[]")]
pub fn datasets() -> JsResult<JsValue> {
    to_js(&crate::dataset::DATASETS)
}

/// The page's controls as one table (`csc::bindings::controls`): www/js/controls.js builds the
/// settings from it and applies a link's `hide`.
#[wasm_bindgen(js_name = pageControls, unchecked_return_type = "PageControls")]
pub fn page_controls() -> JsResult<JsValue> {
    to_js(&super::objects::page_control_table())
}
