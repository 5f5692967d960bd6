//! The playground page's state as a URL: `decodeUrlState`, `encodeUrlState`, the per-dataset
//! defaults and the configuration fingerprint (`csc::bindings::url_state` does the work; this is the
//! boundary).

use super::convert::{js_err, string, to_js, JsResult};
use super::url_state::{self, PageDataset, UrlState};
use crate::config::Params;
use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "UrlState")]
    pub type JsUrlState;
    #[wasm_bindgen(typescript_type = "Params")]
    pub type JsParams;
}

/// A JS value of this crate's types through JSON, so that `deny_unknown_fields` applies
/// (serde-wasm-bindgen reads only the keys a struct declares and would ignore a misspelt one). The
/// engine's types are read by their own reader ([`crate::json::FromJson`]), compiled once.
fn from_js_json<T: serde::de::DeserializeOwned>(what: &str, v: JsValue) -> JsResult<T> {
    let bad = |e: serde_json::Error| js_err(Error::parse(format!("{what}: {e}")));
    let value = crate::json::parse(&json_text(what, v)?).map_err(bad)?;
    T::deserialize(&value).map_err(bad)
}

/// A JS value as JSON text (`JSON.stringify`), for the readers above.
fn json_text(what: &str, v: JsValue) -> JsResult<String> {
    js_sys::JSON::stringify(&v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| js_err(Error::parse(format!("{what}: expected an object"))))
}

/// Reads a query string (`location.search`, with or without `?`) leniently: every usable key is
/// applied to the defaults of the link's dataset, and each unusable one (unknown, repeated,
/// invalid) gives a readable message in `errors`. Throws only if `query` is not a string.
#[wasm_bindgen(js_name = decodeUrlState, unchecked_return_type = "DecodedUrlState")]
pub fn decode_url_state_js(
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
) -> JsResult<JsValue> {
    decode_url_state(&string("query", &query)?)
}

/// `decodeUrlState` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn decode_url_state(query: &str) -> JsResult<JsValue> {
    let (state, errors) = url_state::decode_lossy(query);
    let hidden = state.hidden();
    to_js(&super::objects::DecodedUrlState { state, errors, hidden })
}

/// The query string of a state (without `?`; only values that differ from the defaults of its
/// dataset). Throws a readable `Error` for an invalid state.
#[wasm_bindgen(js_name = encodeUrlState)]
pub fn encode_url_state(state: JsUrlState) -> JsResult<String> {
    let s: UrlState = from_js_json("page state", state.into())?;
    url_state::encode(&s).map_err(js_err)
}

/// The state of a plain link to the page with `dataset` (`"synthetic"`, `"plane"`, `"nq-trivia"`, `"upload"`).
#[wasm_bindgen(js_name = urlStateDefaults, unchecked_return_type = "UrlState")]
pub fn url_state_defaults_js(
    #[wasm_bindgen(unchecked_param_type = "string")] dataset: JsValue,
) -> JsResult<JsValue> {
    url_state_defaults(&string("dataset", &dataset)?)
}

/// `urlStateDefaults` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn url_state_defaults(dataset: &str) -> JsResult<JsValue> {
    let d: PageDataset = url_state::by_id(dataset).map_err(|_| {
        js_err(Error::param("dataset", format!("unknown `{dataset}`; known: {}", url_state::dataset_ids())))
    })?;
    to_js(&UrlState::defaults(d))
}

/// A 16-hex-digit fingerprint of a configuration: the dataset name and checksum and the fully
/// resolved parameters (see `csc::bindings::fingerprint`).
#[wasm_bindgen(js_name = configFingerprint)]
pub fn config_fingerprint_js(
    #[wasm_bindgen(unchecked_param_type = "string")] dataset: JsValue,
    params: JsParams,
) -> JsResult<String> {
    config_fingerprint(&string("dataset", &dataset)?, params)
}

/// `configFingerprint` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn config_fingerprint(dataset: &str, params: JsParams) -> JsResult<String> {
    let text = json_text("parameters", params.into())?;
    let p = <Params as crate::json::FromJson>::from_json_str(&text)
        .map_err(|e| js_err(Error::parse(format!("parameters: {e}"))))?;
    p.validate().map_err(js_err)?;
    Ok(super::fingerprint::fingerprint(dataset, &p))
}
