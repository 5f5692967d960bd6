//! The engine's list of algorithms (`csc::algorithms`) for the page: every online policy and
//! offline algorithm with its id, display name, description and paper reference. The page builds
//! its policy choices from `policies()` and looks results up by id.

use super::convert::{js_err, optional};
use super::convert::{to_js, JsResult};
use crate::algorithms::{OfflineKind, PolicyKind};
use crate::error::Error;
use crate::experiment::{builtin, describe, frontier_definition, paper_presets, quick_spec, DatasetId};
use serde::Serialize;
use std::collections::BTreeMap;
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

/** One reported metric (Rust: `csc::experiment::metrics::MetricInfo`). */
export interface MetricInfo {
  /** The observation's metric name (`avg_regret`, …; `final_` values share the entry). */
  id: string;
  name: string;
  /** One line: what it is. */
  definition: string;
  /** Where the paper (or SPEC) defines it. */
  source: string;
}

/** One preset of the paper view (Rust: `csc::experiment::presets::Preset`). */
export interface PaperPreset {
  /** The experiment id (`fig-a`, …). */
  id: string;
  /** Which figure of the paper. */
  label: string;
  /** Whether `<id>-tuned` exists (tuned offline widths). */
  tuned: boolean;
  /** The built-in dataset it runs on. */
  dataset: "synthetic" | "nq-trivia" | "plane";
  /** The quick settings, as an experiment request takes them. */
  quick: { seeds: number; overrides: Record<string, number>; sweepValues?: number[]; drop: PolicyId[] };
  /** What the quick and the full settings run, generated from their definitions. */
  quickDescription: string;
  fullDescription: string;
}

/** A number the paper prints for a metric (Rust: `csc::experiment::claims::PaperValue`). */
export interface PaperValue {
  what: string;
  /** The observation's metric name (`final_avg_regret`, …). */
  metric: string;
  /** The algorithm id, or the series name, it is of. */
  series: string;
  /** The x it is read at; null: the final x. */
  x: number | null;
  value: number;
  /** As the paper prints it. */
  printed: string;
  source: string;
}

/** One parameter (Rust: `csc::config::ParamInfo`, plus its SPEC default). */
export interface ParamInfo {
  /** The `Params` field (`--set`, JSON configurations, links). */
  id: keyof Params & string;
  /** Plain Unicode; `_x` is a subscript. */
  symbol: string;
  name: string;
  unit: string;
  doc: string;
  /** The paper's numbering and/or `SPEC-NOTES#anchor`, parts joined by `; `. */
  reference: string;
  /** The page's number input, if the page shows it. */
  control: { min: number; max: number; step: number; more: boolean } | null;
  /** `Params.default()` (SPEC). */
  default: number | string | null;
}

/** One arrival model (Rust: `csc::stream::ArrivalInfo`). */
export interface ArrivalInfo { id: string; label: string; doc: string; reference: string; user: boolean; }

/** One dataset the page offers (Rust: `csc::dataset::DatasetEntry`). */
export interface DatasetEntry { id: "synthetic" | "plane" | "nq-trivia" | "upload"; label: string; doc: string; arrival: string; reference: string; }

/** One control of the page (Rust: `csc::bindings::controls::PageControl`). */
export interface PageControl {
  /** The element's id and its `?hide=` name. */
  id: string;
  kind: "number" | "select" | "checkbox";
  /** `params.<id>`, or a `UrlState` field; `arrival`: the uploaded data's model. */
  key: string;
  label: string;
  hint: string;
  reference: string;
  /** The container: `[data-controls="<section>"]`. */
  section: string;
  min: number | null; max: number | null; step: number | null;
  choices: { value: string; label: string; disabled: boolean }[];
  restart: boolean;
  when: "upload" | null;
  /** A number that may be left empty, meaning 0 (automatic). */
  auto: boolean;
}

/** The page's controls, the other parts a link may hide, and what `embed=1` hides by default. */
export interface PageControls {
  controls: PageControl[];
  groups: { name: string; selector: string; what: string }[];
  embedHide: string[];
  hideNames: string[];
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsQuick {
    seeds: usize,
    overrides: BTreeMap<&'static str, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_values: Option<Vec<f64>>,
    drop: Vec<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsPreset {
    id: &'static str,
    label: &'static str,
    tuned: bool,
    dataset: &'static str,
    quick: JsQuick,
    quick_description: String,
    full_description: String,
}

/// The paper view's presets, from the engine's one list (`csc::experiment::paper_presets`): the
/// page builds its menu, quick runs and descriptions from it.
#[wasm_bindgen(js_name = paperPresets, unchecked_return_type = "PaperPreset[]")]
pub fn paper_presets_js() -> JsResult<JsValue> {
    let mut out = Vec::new();
    for p in paper_presets() {
        let (Ok(full), Ok(quick)) = (builtin(p.id), quick_spec(p.id)) else { continue };
        let dataset = match full.dataset {
            DatasetId::NqTrivia => "nq-trivia",
            DatasetId::Plane => "plane",
            _ => "synthetic",
        };
        out.push(JsPreset {
            id: p.id,
            label: p.label,
            tuned: p.tuned,
            dataset,
            quick: JsQuick {
                seeds: p.quick.seeds,
                overrides: p.quick.overrides.iter().copied().collect(),
                sweep_values: p.quick.sweep_values.clone(),
                drop: p.quick.drop.iter().map(|k| k.info().id).collect(),
            },
            quick_description: describe(&quick),
            full_description: describe(&full),
        });
    }
    to_js(&out)
}

/// Every metric the engine reports, with its one-line definition and the paper's reference
/// (`csc::experiment::metrics`): the page shows them on hover, focus and tap.
#[wasm_bindgen(unchecked_return_type = "MetricInfo[]")]
pub fn metrics() -> JsResult<JsValue> {
    to_js(&crate::experiment::metrics::METRICS)
}

/// The numbers the paper prints for the metrics of a preset's figure
/// (`csc::experiment::claims::paper_values`): the page marks them on the figure. Unknown presets
/// have none.
#[wasm_bindgen(js_name = paperValues, unchecked_return_type = "PaperValue[]")]
pub fn paper_values_js(
    #[wasm_bindgen(unchecked_param_type = "string")] preset: JsValue,
) -> JsResult<JsValue> {
    let preset = super::convert::string("preset", &preset)?;
    to_js(&crate::experiment::claims::paper_values(&preset))
}

/// The frontier view's experiment (issue 24): the `frontier` definition at the engine's quick
/// settings (`csc::experiment::frontier_quick`) on `dataset` — a built-in's name, a dataset object
/// naming the reader's file, or nothing for nq-trivia. The page runs it on its worker pool and
/// exports it; `csc run` on the exported definition gives the same bits.
#[wasm_bindgen(js_name = frontierDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn frontier_definition_js(
    #[wasm_bindgen(
        unchecked_optional_param_type = "\"synthetic\" | \"nq-trivia\" | \"plane\" | DatasetSpec | null"
    )]
    dataset: JsValue,
) -> JsResult<JsValue> {
    let dataset = match optional(dataset) {
        None => DatasetId::NqTrivia,
        Some(v) if v.is_string() => DatasetId::parse(&v.as_string().unwrap_or_default()).map_err(js_err)?,
        Some(v) if v.is_object() && !js_sys::Array::is_array(&v) => {
            let j: serde_json::Value = serde_wasm_bindgen::from_value(v)
                .map_err(|e| js_err(Error::parse(format!("dataset: {e}"))))?;
            serde_json::from_value(j).map_err(|e| js_err(Error::parse(format!("dataset: {e}"))))?
        }
        Some(_) => {
            return Err(js_err(Error::param(
                "dataset",
                "must be a built-in's name (synthetic, nq-trivia, plane) or a dataset object",
            )))
        }
    };
    to_js(&frontier_definition(dataset).map_err(js_err)?)
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
    use super::controls;
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out {
        controls: Vec<controls::PageControl>,
        groups: &'static [controls::HideGroup],
        embed_hide: [&'static str; 2],
        hide_names: Vec<&'static str>,
    }
    to_js(&Out {
        controls: controls::page_controls(),
        groups: controls::HIDE_GROUPS,
        embed_hide: controls::EMBED_HIDE,
        hide_names: controls::hide_names(),
    })
}
