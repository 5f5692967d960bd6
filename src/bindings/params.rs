//! `Params` defaults and validation, and the cross-platform determinism report.

use super::convert::{js_err, to_js, JsResult};
use super::types::JsPartialParams;
use crate::checksum;
use crate::config::Params;
use crate::error::Error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Every parameter at its SPEC default.
#[wasm_bindgen(js_name = defaultParams, unchecked_return_type = "Params")]
pub fn default_params() -> JsResult<JsValue> {
    to_js(&Params::default())
}

/// The values a sweep of parameter `param` starts from (`csc::experiment::default_sweep_values`:
/// its SPEC default halved, as is and doubled, where valid; none when it has no numeric default).
/// An unknown or non-numeric parameter throws an `Error` naming it.
#[wasm_bindgen(js_name = sweepDefaults, unchecked_return_type = "number[]")]
pub fn sweep_defaults(#[wasm_bindgen(unchecked_param_type = "string")] param: JsValue) -> JsResult<JsValue> {
    let param = super::convert::string("param", &param)?;
    to_js(&crate::experiment::default_sweep_values(&param).map_err(js_err)?)
}

/// Resolves and validates a (partial) configuration: missing keys take their defaults, unknown
/// keys, wrong types and out-of-range values throw an `Error` naming the parameter. Returns the
/// full resolved configuration. `undefined` or `null` gives the defaults.
#[wasm_bindgen(js_name = validateParams, unchecked_return_type = "Params")]
pub fn validate_params(params: Option<JsPartialParams>) -> JsResult<JsValue> {
    to_js(&params_from_js(params.map(JsValue::from))?)
}

/// A `Params` from a JS object (for this module and the simulation classes): defaults for
/// missing keys, then validated.
pub(crate) fn params_from_js(value: Option<JsValue>) -> JsResult<Params> {
    let p: Params = match value {
        Some(v) if !(v.is_undefined() || v.is_null()) => {
            reject_unknown_keys(&v)?;
            serde_wasm_bindgen::from_value(v)
                .map_err(|e| js_err(Error::parse(format!("configuration: {e}"))))?
        }
        _ => Params::default(),
    };
    p.validate().map_err(js_err)?;
    Ok(p)
}

/// serde-wasm-bindgen reads only the keys a struct declares, so `Params`'s `deny_unknown_fields`
/// never sees a misspelt key: check them here (a typo must not silently fall back to a default).
fn reject_unknown_keys(v: &JsValue) -> JsResult<()> {
    if !v.is_object() || js_sys::Array::is_array(v) {
        return Err(js_err(Error::parse("configuration: expected an object of parameters")));
    }
    let known = serde_json::to_value(Params::default()).expect("Params serialises");
    let known = known.as_object().expect("Params is an object");
    for key in js_sys::Object::keys(v.unchecked_ref::<js_sys::Object>()).iter().filter_map(|k| k.as_string())
    {
        if !known.contains_key(&key) {
            let names: Vec<String> = known.keys().map(|k| format!("`{k}`")).collect();
            return Err(js_err(Error::parse(format!(
                "configuration: unknown field `{key}`, expected one of {}",
                names.join(", ")
            ))));
        }
    }
    Ok(())
}

/// Runs the engine's fixed determinism workload for `seed` (a stream on the synthetic dataset, an
/// ε-net, Reverse Greedy, a KRR posterior; see `csc::checksum`) and returns the hash of every
/// result's bit pattern, per stage and overall. Compare with `nativeDeterminismReport()` (seed 0):
/// equal stage hashes mean this browser computed exactly what the native build computes. Takes
/// about a second.
#[wasm_bindgen(js_name = determinismReport, unchecked_return_type = "DeterminismReport")]
pub fn determinism_report(seed: Option<f64>) -> JsResult<JsValue> {
    let seed = seed.unwrap_or(0.0);
    if !(seed.is_finite() && seed.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&seed)) {
        return Err(js_err(Error::param("seed", format!("must be a safe whole number ≥ 0, got {seed}"))));
    }
    to_js(&checksum::determinism_report(seed as u64).map_err(js_err)?)
}

/// The report `determinismReport(0)` gives natively (x86-64 Linux), committed with the engine.
/// `portable` lists the stages that are bit-identical on every platform; the others (`krr`:
/// `exp`/`ln` round differently in the platform's libm) agree to about 1e-12 relative.
#[wasm_bindgen(js_name = nativeDeterminismReport, unchecked_return_type = "NativeDeterminismReport")]
pub fn native_determinism_report() -> JsResult<JsValue> {
    to_js(&super::objects::native_determinism_report())
}
