//! `ExperimentRun`: an experiment of SPEC §10 run one unit at a time, with progress and cancel,
//! so that a Web Worker (or a pool of them) can drive it; `experimentDefinition`.

use super::convert::{js_err, to_js, JsResult};
use super::dataset::JsDataset;
use super::simulation::{JsExperiment, JsProgress};
use super::types::JsPartialParams;
use crate::dataset::Dataset;
use crate::error::Error;
use crate::experiment::{builtin, run_unit, ExperimentSpec, Report, UnitResult};
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// `onProgress(roundsDone)` as the engine's progress callback: `false` (or a throw) cancels.
fn progress_callback(on_progress: Option<JsProgress>) -> impl FnMut(usize) -> bool {
    let f: Option<js_sys::Function> = on_progress.map(|p| JsValue::from(p).into());
    move |n: usize| match &f {
        Some(f) => f
            .call1(&JsValue::NULL, &JsValue::from(n as f64))
            .map(|v| v.as_bool() != Some(false))
            .unwrap_or(false),
        None => true,
    }
}

/// The definition of the built-in experiment `id` (SPEC §10), without building its dataset: the
/// page runs a built-in on uploaded data by replacing its `dataset` with a dataset object.
#[wasm_bindgen(js_name = experimentDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn experiment_definition(
    #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
) -> JsResult<JsValue> {
    let id = super::convert::string("id", &id)?;
    to_js(&builtin(&id).map_err(js_err)?)
}

/// The definition of the built-in experiment `id` at its quick settings
/// (`csc::experiment::quick_spec`; `csc run <id> --quick` runs the same): the Theory view's
/// `thy-horizon`, or a Paper-view preset.
#[wasm_bindgen(js_name = quickDefinition, unchecked_return_type = "ExperimentSpec")]
pub fn quick_definition(#[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> JsResult<JsValue> {
    let id = super::convert::string("id", &id)?;
    if !crate::experiment::definition::registry::has_quick(&id) {
        return Err(js_err(Error::unsupported(format!(
            "`{id}` has no quick settings (the Paper view's presets and thy-horizon)"
        ))));
    }
    to_js(&crate::experiment::quick_spec(&id).map_err(js_err)?)
}

/// The definitions of the built-in sweeps the sweep view offers as presets (the reproduction's
/// sensitivity sweeps and the `nq-tune` grid; `csc::experiment::sweep_presets`).
#[wasm_bindgen(js_name = sweepPresets, unchecked_return_type = "ExperimentSpec[]")]
pub fn sweep_presets() -> JsResult<JsValue> {
    let specs: Vec<ExperimentSpec> = crate::experiment::sweep_presets()
        .into_iter()
        .map(builtin)
        .collect::<Result<_, _>>()
        .map_err(js_err)?;
    to_js(&specs)
}

/// A grid as the CLI's `--grid` takes it (`"epsilon=0.1,0.2;beta=0.5,1"`), parsed into the
/// definition's `sweep`, or the engine's plain message; its names and values are checked when an
/// `ExperimentRun` is made with it.
#[wasm_bindgen(js_name = parseGrid, unchecked_return_type = "Sweep")]
pub fn parse_grid(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> JsResult<JsValue> {
    let text = super::convert::string("text", &text)?;
    to_js(&crate::experiment::Sweep::parse(&text).map_err(js_err)?)
}

/// The units done so far, folded in as they arrive, in unit order, and the report over them:
/// rebuilt once when it is first asked for after a change (`report`, `reportJson`, `csv` and
/// `summary` of one state share it). The report holds the units, so they are never copied.
struct Done {
    report: Report,
    fresh: bool,
}

impl Done {
    fn new(spec: &ExperimentSpec) -> Done {
        Done { report: Report::new(spec, Vec::new()), fresh: true }
    }

    fn units(&self) -> &[UnitResult] {
        &self.report.units
    }

    /// Adds a unit in its place by index (the report is sorted by unit index, whatever the order
    /// in which units finish: `Report::new`).
    fn fold(&mut self, r: UnitResult) {
        let at = self.report.units.partition_point(|u| u.unit.index < r.unit.index);
        self.report.units.insert(at, r);
        self.fresh = false;
    }

    /// The report over the units done (rebuilt now if a unit came since it was last built).
    fn report(&mut self, spec: &ExperimentSpec) -> &Report {
        if !self.fresh {
            self.report = Report::new(spec, std::mem::take(&mut self.report.units));
            self.fresh = true;
        }
        &self.report
    }
}

/// An experiment of SPEC §10 run one unit (one sweep value × one seed) at a time.
#[wasm_bindgen(js_name = ExperimentRun)]
pub struct JsExperimentRun {
    spec: ExperimentSpec,
    dataset: Arc<Dataset>,
    units: Vec<crate::experiment::Unit>,
    done: Done,
}

#[wasm_bindgen(js_class = ExperimentRun)]
impl JsExperimentRun {
    /// `experiment` is a built-in id (`"fig-a"`, …) or a definition; `overrides` replaces
    /// parameters of its base configuration; `dataset` must be the experiment's dataset.
    #[wasm_bindgen(constructor)]
    pub fn new(
        experiment: JsExperiment,
        dataset: &JsDataset,
        overrides: Option<JsPartialParams>,
        seeds: Option<f64>,
    ) -> JsResult<JsExperimentRun> {
        let v: JsValue = experiment.into();
        let mut spec = match v.as_string() {
            Some(id) => builtin(&id).map_err(js_err)?,
            None => {
                let j: serde_json::Value = serde_wasm_bindgen::from_value(v)
                    .map_err(|e| js_err(Error::parse(format!("experiment: {e}"))))?;
                ExperimentSpec::from_json(&j.to_string()).map_err(js_err)?
            }
        };
        if let Some(o) = overrides {
            let o: serde_json::Value = serde_wasm_bindgen::from_value(o.into())
                .map_err(|e| js_err(Error::parse(format!("overrides: {e}"))))?;
            let map = o.as_object().ok_or_else(|| {
                js_err(Error::parse(format!("overrides: expected an object of parameters, got {o}")))
            })?;
            for (k, val) in map {
                spec.params = crate::config::with_param(&spec.params, k, val).map_err(js_err)?;
            }
        }
        if let Some(s) = seeds {
            spec.seeds = super::convert::whole("seeds", s, 1)?;
        }
        spec.validate().map_err(js_err)?;
        crate::experiment::check_experiment_size(&spec).map_err(js_err)?;
        // Every sweep point's stream must fit in the browser's memory (a failed allocation traps).
        for point in 0..spec.points() {
            let unit = crate::experiment::Unit { index: 0, point, seed: spec.first_seed };
            let mut p = spec.unit_params(&unit).map_err(js_err)?;
            if let crate::experiment::Measure::Geometry { stream } = spec.measure {
                p.horizon = stream;
            }
            super::convert::stream_fits(&p, dataset.inner().points.dim())?;
        }
        // A built-in experiment runs on its built-in; a dataset object naming a file runs on an
        // uploaded dataset (its recorded checksum, if any, is checked by `run_unit`).
        let want = match spec.dataset.builtin().map_err(js_err)? {
            Some(b) => {
                serde_json::to_value(&b).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
            }
            None => dataset.inner().name.clone(),
        };
        let user_ok = spec.dataset.builtin().map_err(js_err)?.is_none() == dataset.inner().user;
        if dataset.inner().name != want || !user_ok {
            return Err(js_err(Error::data(format!(
                "experiment `{}` runs on `{want}`, but the dataset given is `{}`",
                spec.id,
                dataset.inner().name
            ))));
        }
        spec.dataset.check_loaded(dataset.inner()).map_err(js_err)?;
        crate::experiment::run::runner::check_ground_truth(&spec, dataset.inner()).map_err(js_err)?;
        Ok(JsExperimentRun {
            units: spec.units(),
            done: Done::new(&spec),
            spec,
            dataset: dataset.inner().clone(),
        })
    }

    #[wasm_bindgen(getter, js_name = totalUnits)]
    pub fn total_units(&self) -> usize {
        self.units.len()
    }

    #[wasm_bindgen(getter, js_name = doneUnits)]
    pub fn done_units(&self) -> usize {
        self.done.units().len()
    }

    /// The resolved definition.
    #[wasm_bindgen(unchecked_return_type = "ExperimentSpec")]
    pub fn spec(&self) -> JsResult<JsValue> {
        to_js(&self.spec)
    }

    /// Runs the next unit. `onProgress(roundsDone)` is called during online units; returning
    /// `false` cancels (the unit is discarded and an error "cancelled" is thrown). Returns `true`
    /// while units remain.
    #[wasm_bindgen(js_name = runNext)]
    pub fn run_next(&mut self, on_progress: Option<JsProgress>) -> JsResult<bool> {
        let Some(unit) = self.units.get(self.done.units().len()).cloned() else { return Ok(false) };
        let mut cb = progress_callback(on_progress);
        let r = run_unit(&self.spec, &unit, &self.dataset, &mut cb).map_err(js_err)?;
        self.done.fold(r);
        Ok(self.done.units().len() < self.units.len())
    }

    /// Runs unit `index` (0-based, in the order of the experiment's units) and returns its result
    /// as JSON, for a pool of workers (www/js/jobs.js) in which each worker runs some units and
    /// one run collects them with `addUnit`. `onProgress` as in `runNext`.
    #[wasm_bindgen(js_name = runUnit)]
    pub fn run_unit_at(&mut self, index: f64, on_progress: Option<JsProgress>) -> JsResult<String> {
        let i = super::convert::whole("index", index, 0)?;
        let unit = self.units.get(i).cloned().ok_or_else(|| {
            js_err(Error::param("index", format!("must be below {}, got {i}", self.units.len())))
        })?;
        let mut cb = progress_callback(on_progress);
        let r = run_unit(&self.spec, &unit, &self.dataset, &mut cb).map_err(js_err)?;
        serde_json::to_string(&r).map_err(|e| js_err(Error::data(format!("unit result: {e}"))))
    }

    /// Adds a unit's result computed by `runUnit` on another run of the same experiment. The
    /// report is the same whatever the order of the units added (it is sorted by unit index).
    #[wasm_bindgen(js_name = addUnit)]
    pub fn add_unit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> JsResult<()> {
        let json = super::convert::string("json", &json)?;
        let r = <UnitResult as crate::json::FromJson>::from_json_str(&json)
            .map_err(|e| js_err(Error::parse(format!("unit result: {e}"))))?;
        if r.experiment != self.spec.id || self.units.get(r.unit.index) != Some(&r.unit) {
            return Err(js_err(Error::data(format!(
                "unit {} of `{}` is not a unit of this run of `{}`",
                r.unit.index, r.experiment, self.spec.id
            ))));
        }
        if self.done.units().iter().any(|d| d.unit.index == r.unit.index) {
            return Err(js_err(Error::data(format!("unit {} was added twice", r.unit.index))));
        }
        self.done.fold(r);
        Ok(())
    }

    /// The report over the units done so far (built once per change of the units done, and
    /// shared with `reportJson`, `csv` and `summary`).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn report(&mut self) -> JsResult<JsValue> {
        to_js(self.done.report(&self.spec))
    }

    /// The report as JSON text (for export).
    #[wasm_bindgen(js_name = reportJson)]
    pub fn report_json(&mut self) -> String {
        serde_json::to_string(self.done.report(&self.spec)).unwrap_or_default()
    }

    /// The aggregated statistics as CSV.
    pub fn csv(&mut self) -> String {
        self.done.report(&self.spec).to_csv()
    }

    /// The headline table as text.
    pub fn summary(&mut self) -> String {
        self.done.report(&self.spec).summary()
    }
}
