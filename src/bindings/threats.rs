//! The threats view's exports (docs/SPEC-NOTES.md, "Tenants" and "Adversarial arrivals"): its two
//! experiments with the reader's settings (`csc::experiment::definition::threats`) and the
//! engine's reading of their reports (`Report::threat_findings`). Every bad value throws one
//! plain message naming the setting.

use super::convert::{js_err, to_js, JsResult};
use crate::error::Error;
use crate::online::PolicyKind;
use wasm_bindgen::prelude::*;

/// Policy ids as a JS array of strings, each known.
fn policies_arg(v: &JsValue) -> JsResult<Vec<PolicyKind>> {
    let bad = || js_err(Error::param("policies", "must be an array of policy ids (strings)"));
    if !js_sys::Array::is_array(v) {
        return Err(bad());
    }
    js_sys::Array::from(v)
        .iter()
        .map(|p| p.as_string().ok_or_else(bad).and_then(|s| PolicyKind::parse(&s).map_err(js_err)))
        .collect()
}

/// A number argument: a JS number (NaN included, which the engine's check refuses by name).
fn number(name: &str, v: &JsValue, what: &str) -> JsResult<f64> {
    v.as_f64().ok_or_else(|| js_err(Error::param(name, format!("must be a number: {what}"))))
}

/// The `tenants` experiment at its quick settings (3 seeds, T = n_eval = 1,000) on `dataset` (a
/// built-in's name, a dataset object naming the reader's file, or nothing for nq-trivia) with
/// `tenants` tenants (a whole number from 1 to 256) of overlap `overlap` (in [0, 1]) and
/// `policies` (ids, at least one, none twice): every policy under `shared`, `partitioned` and
/// `tagged` (`csc::experiment::tenants_definition`; at nq-trivia's 3 tenants, ω = 0.5 and the six
/// threat policies it is `csc run tenants --quick`). On synthetic k is 10 (its universe holds 50
/// queries). One plain message for a bad value.
#[wasm_bindgen(js_name = tenantsDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn tenants_definition_js(
    #[wasm_bindgen(unchecked_param_type = "\"synthetic\" | \"nq-trivia\" | \"plane\" | DatasetSpec | null")]
    dataset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tenants: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] overlap: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PolicyId[]")] policies: JsValue,
) -> JsResult<JsValue> {
    let n = number("tenants", &tenants, "a whole number from 1 to 256")?;
    if !(n.fract() == 0.0 && (1.0..=256.0).contains(&n)) {
        return Err(js_err(Error::param("tenants", format!("must be 1 to 256, got {n}"))));
    }
    let overlap = number("overlap", &overlap, "the overlap ω in [0, 1]")?;
    let policies = policies_arg(&policies)?;
    let dataset = super::catalog::dataset_arg(dataset)?;
    to_js(&crate::experiment::tenants_definition(dataset, n as u32, overlap, policies).map_err(js_err)?)
}

/// The `attack` experiment at its quick settings on `dataset` (as [`tenants_definition_js`]'s)
/// with `policies` attacked at each probability of `p` (an array of numbers in [0, 1], at least
/// one, none twice) and confusable pairs nearer than `distance` (> 0)
/// (`csc::experiment::attack_definition`; at p = 0, 0.05, 0.2, d = 0.15 and the six threat
/// policies on nq-trivia it is `csc run attack --quick`). Data without ground truth (`plane`) is
/// refused: the attacker sends queries whose gold answer differs. One plain message for a bad
/// value.
#[wasm_bindgen(js_name = attackDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn attack_definition_js(
    #[wasm_bindgen(unchecked_param_type = "\"synthetic\" | \"nq-trivia\" | \"plane\" | DatasetSpec | null")]
    dataset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PolicyId[]")] policies: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number[]")] p: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] distance: JsValue,
) -> JsResult<JsValue> {
    let policies = policies_arg(&policies)?;
    let bad_p = || js_err(Error::param("p", "must be an array of attack probabilities (numbers in [0, 1])"));
    if !js_sys::Array::is_array(&p) {
        return Err(bad_p());
    }
    let p =
        js_sys::Array::from(&p).iter().map(|v| v.as_f64().ok_or_else(bad_p)).collect::<JsResult<Vec<_>>>()?;
    let distance = number("distance", &distance, "the confusable distance d, > 0")?;
    let dataset = super::catalog::dataset_arg(dataset)?;
    to_js(&crate::experiment::attack_definition(dataset, policies, p, distance).map_err(js_err)?)
}

/// What the threats view draws and says of a `tenants` or `attack` report (a run's `report()`):
/// each policy's intervals clipped to their range, the price of isolation as paired differences
/// against `shared` with the engine's words, vCache's δ at each p, the confusable pairs; nothing
/// is decided while units are missing. Throws one plain message for a value that is not such a
/// report.
#[wasm_bindgen(js_name = threatFindings, unchecked_return_type = "ThreatFindings")]
pub fn threat_findings_js(
    #[wasm_bindgen(unchecked_param_type = "Report")] report: JsValue,
) -> JsResult<JsValue> {
    let bad =
        || js_err(Error::param("report", "must be a tenants or attack report (the threats view's result)"));
    let report = super::frontier::report_arg(report).ok_or_else(bad)?;
    to_js(&report.threat_findings().ok_or_else(bad)?)
}
