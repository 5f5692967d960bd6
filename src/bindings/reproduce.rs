//! Reproduce from the page: the `csc` command that regenerates a result (`cliCommand`;
//! `tuneCommand` for the "Pick a threshold" answer), and a CLI result file read back to be drawn by
//! the page's charts (`readReport`). Both are the engine's (`crate::experiment::run::reproduce`).

use super::convert::{js_err, string, to_js, JsResult};
use super::simulation::JsExperiment;
use crate::error::Error;
use crate::experiment::run::reproduce::{cli_command, read_report};
use crate::experiment::ExperimentSpec;
use wasm_bindgen::prelude::*;

/// A definition given as an object (what `ExperimentRun.spec()` returns), validated.
fn spec_of(v: JsValue) -> JsResult<ExperimentSpec> {
    if v.as_string().is_some() || !v.is_object() {
        return Err(js_err(Error::param("experiment", "must be an experiment definition (an object)")));
    }
    let j: serde_json::Value =
        serde_wasm_bindgen::from_value(v).map_err(|e| js_err(Error::parse(format!("experiment: {e}"))))?;
    ExperimentSpec::from_json(&j.to_string()).map_err(js_err)
}

/// The `csc run` command that regenerates the result of `experiment` (a resolved definition):
/// `csc run <id> [--grid …] [--seeds …] [--set …]` for a built-in changed at most in seeds,
/// parameters and sweep, else `csc run <definitionFile>`, the file holding the definition as JSON.
#[wasm_bindgen(js_name = cliCommand)]
pub fn cli_command_js(
    experiment: JsExperiment,
    #[wasm_bindgen(unchecked_param_type = "string")] definition_file: JsValue,
) -> JsResult<String> {
    let spec = spec_of(experiment.into())?;
    let file = string("definitionFile", &definition_file)?;
    Ok(cli_command(&spec, &file))
}

/// The `csc tune-threshold` command that gives the "Pick a threshold" answer for target `kind`
/// (`"precision"` or `"error_rate"`) `value` on the run of `experiment` (a tune run's resolved
/// definition): flags for the engine's tune experiment on a built-in dataset changed at most in
/// parameters and seeds, else `csc tune-threshold <definitionFile> --precision P`, the file holding
/// the definition as JSON. A bad target throws its one message, as `tuneTarget` does.
#[wasm_bindgen(js_name = tuneCommand)]
pub fn tune_command_js(
    experiment: JsExperiment,
    #[wasm_bindgen(unchecked_param_type = "\"precision\" | \"error_rate\"")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] value: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] definition_file: JsValue,
) -> JsResult<String> {
    let target = super::frontier::target(kind, value)?;
    let spec = spec_of(experiment.into())?;
    let file = string("definitionFile", &definition_file)?;
    Ok(crate::experiment::tune::tune_command(&spec, target, &file))
}

/// Reads a report file (`csc run`'s or `csc merge`'s `<id>.json`, or the page's JSON export) and
/// re-derives it from its definition and units; throws one plain message for text that is not a
/// report, a shard's report, or statistics its units do not give (an edited file).
#[wasm_bindgen(js_name = readReport, unchecked_return_type = "LoadedReport")]
pub fn read_report_js(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> JsResult<JsValue> {
    let text = string("text", &text)?;
    let r = read_report(&text).map_err(js_err)?;
    let json = serde_json::to_string(&r).map_err(|e| js_err(Error::data(format!("report: {e}"))))?;
    to_js(&super::objects::LoadedReport { report: &r, json, csv: r.to_csv(), summary: r.summary() })
}
