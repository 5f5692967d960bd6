//! `OwnPolicyRun`: a caching policy written in JavaScript, played by the engine's simulator
//! ([`ExternalRun`]) on the stream an `OnlineRun` or an experiment's seed of the same parameters
//! plays, measured by the same code (docs/SPEC-NOTES.md, "External policies"; docs/JS-API.md,
//! "Your own policy"). `JsPolicy` is the thin wrapper: it calls the policy object's methods with
//! `js_sys::Function` and reads each answer; anything unreadable (an exception, a wrong type,
//! NaN, a fraction) is a [`Fault::Policy`](crate::online::external::Fault) naming the round, never
//! a trap.

use super::convert::{js_err, to_js, JsResult};
use super::dataset::JsDataset;
use super::online_run::{arrival_from_js, curves_js};
use super::params::params_from_js;
use super::simulation::live_run_fits;
use super::types::JsPartialParams;
use crate::error::Error;
use crate::experiment::report::csv_rows;
use crate::experiment::run::observation::Observation;
use crate::experiment::run::runner::online_observations;
use crate::experiment::stats::aggregate_observations;
use crate::experiment::theory::checks::check_runs;
use crate::experiment::theory::report::online_theory;
use crate::online::external::{Answer, ExternalPolicy, ExternalRound, ExternalRun, Fault, Setup};
use crate::online::sim::{Checkpoint, Environment};
use crate::stream::{generate_trace, resolve_arrival};
use crate::trace::Trace;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The policy object (`OwnPolicy` in the `.d.ts`), checked when read.
    #[wasm_bindgen(typescript_type = "OwnPolicy")]
    pub type JsOwnPolicy;
}

/// What a JS value is, for messages (never calls into it: no getter or `toString` runs).
fn kind(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(v) {
        return "an array".into();
    }
    if let Some(n) = v.as_f64() {
        return if n.is_nan() { "NaN".into() } else { format!("{n}") };
    }
    if let Some(s) = v.as_string() {
        let short: String = s.chars().take(40).collect();
        return format!("the string {short:?}");
    }
    match v.js_typeof().as_string().unwrap_or_default().as_str() {
        "undefined" => "undefined".into(),
        "object" => "an object".into(),
        t => format!("a {t}"),
    }
}

/// A thrown value in words: an `Error`'s name and message (read without running a getter that
/// could throw again), else its kind.
fn thrown(what: &str, e: &JsValue) -> String {
    let field = |k: &str| js_sys::Reflect::get(e, &JsValue::from_str(k)).ok().and_then(|v| v.as_string());
    if e.is_instance_of::<js_sys::Error>() {
        let name = field("name").unwrap_or_else(|| "Error".into());
        let message: String = field("message").unwrap_or_default().chars().take(200).collect();
        return format!("{what} threw {name}: {message}");
    }
    format!("{what} threw {}", kind(e))
}

/// A method of the policy object, if it has one (a `Proxy` whose trap throws has none).
fn method(obj: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(obj, &JsValue::from_str(name)).ok()?.dyn_into::<js_sys::Function>().ok()
}

/// A JavaScript policy object: `decide(arrival)` and `observe(cost, round)`, optional
/// `start(setup)` and `explain()`.
struct JsPolicy {
    this: JsValue,
    decide: js_sys::Function,
    observe: js_sys::Function,
    start: Option<js_sys::Function>,
    explain: Option<js_sys::Function>,
    k: usize,
}

impl JsPolicy {
    fn new(obj: JsValue) -> JsResult<Self> {
        let shape = "must be an object with the methods decide(arrival) and observe(cost, round) \
                     (docs/JS-API.md, \"Your own policy\")";
        if !obj.is_object() || obj.is_function() {
            return Err(js_err(Error::param("policy", format!("{shape}, got {}", kind(&obj)))));
        }
        let need = |name: &str| {
            method(&obj, name)
                .ok_or_else(|| js_err(Error::param("policy", format!("{shape}; it has no {name}"))))
        };
        Ok(JsPolicy {
            decide: need("decide")?,
            observe: need("observe")?,
            start: method(&obj, "start"),
            explain: method(&obj, "explain"),
            this: obj,
            k: 0,
        })
    }
}

/// A whole number ≥ 0 that fits an index, from a JS number.
fn index(v: &JsValue) -> Option<u64> {
    let n = v.as_f64()?;
    (n >= 0.0 && n.fract() == 0.0 && n <= u32::MAX as f64).then_some(n as u64)
}

impl ExternalPolicy for JsPolicy {
    fn start(&mut self, setup: &Setup) -> Result<(), String> {
        self.k = setup.k;
        if let Some(f) = &self.start {
            let s = to_js(setup).map_err(|_| "its setup could not be given to it".to_string())?;
            f.call1(&self.this, &s).map_err(|e| thrown("start", &e))?;
        }
        Ok(())
    }

    fn decide(&mut self, r: &ExternalRound) -> Result<Answer, String> {
        let members: Vec<u32> = r.members.iter().map(|&k| k as u32).collect();
        // SAFETY: the view is read by `decide` during this call only; nothing in this function
        // allocates in the wasm memory between its creation and the end of the call (the policy's
        // contract, docs/JS-API.md: copy `x` to keep it).
        let x = unsafe { js_sys::Float32Array::view(r.x) };
        let arrival = super::convert::Obj::new()
            .set("round", r.t as f64)
            .set("x", x)
            .set("members", js_sys::Uint32Array::from(&members[..]))
            .set("distances", js_sys::Float64Array::from(r.distances))
            .build();
        let out = self.decide.call1(&self.this, &arrival).map_err(|e| thrown("decide", &e))?;
        if out.as_string().as_deref() == Some("llm") {
            return Ok(Answer::CallLlm);
        }
        match index(&out) {
            Some(i) => Ok(Answer::Serve(i as usize)),
            None => Err(format!(
                "decide must return the index of a cache member (0, 1, …) or \"llm\", got {}",
                kind(&out)
            )),
        }
    }

    fn observe(&mut self, t: usize, cost: f64) -> Result<Option<Vec<u64>>, String> {
        let out = self
            .observe
            .call2(&self.this, &JsValue::from_f64(cost), &JsValue::from_f64(t as f64))
            .map_err(|e| thrown("observe", &e))?;
        if out.is_undefined() || out.is_null() {
            return Ok(None);
        }
        let bad = |what: String| {
            format!("observe must return nothing (keep the cache) or an array of rounds (0, 1, …), {what}")
        };
        let Some(arr) = out.dyn_ref::<js_sys::Array>() else {
            return Err(bad(format!("got {}", kind(&out))));
        };
        let size = arr.length() as usize;
        if size > self.k {
            return Err(Fault::TooMany { size, k: self.k }.to_string());
        }
        arr.iter()
            .enumerate()
            .map(|(i, v)| index(&v).ok_or_else(|| bad(format!("got {} at [{i}]", kind(&v)))))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    fn explain(&mut self) -> Option<String> {
        let out = self.explain.as_ref()?.call0(&self.this).ok()?;
        Some(out.as_string()?.chars().take(500).collect())
    }
}

/// A caching policy written in JavaScript, played on one seeded stream: the one an `OnlineRun`
/// or an experiment's seed of the same dataset, parameters and arrival model plays (same
/// arrivals, noise and evaluation sample). Each round it is called as docs/JS-API.md, "Your own
/// policy", says; its first fault stops it with one message naming the round (`stopped`).
#[wasm_bindgen(js_name = OwnPolicyRun)]
pub struct JsOwnPolicyRun {
    run: ExternalRun,
    trace: Trace,
    /// The checkpoints already handed out by `step`.
    sent: usize,
    notes: bool,
    /// The seed of its stream (which run of an experiment's it replays).
    seed: u64,
}

#[wasm_bindgen(js_class = OwnPolicyRun)]
impl JsOwnPolicyRun {
    /// `dataset`, `params` and `arrival` as `OnlineRun`'s; `policy` the policy object (the
    /// default export of its module, or an instance of it). Its `start(setup)` is called here; a
    /// throw there stops it in round 0 (`stopped`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        dataset: &JsDataset,
        params: Option<JsPartialParams>,
        policy: JsOwnPolicy,
        #[wasm_bindgen(unchecked_optional_param_type = "ArrivalSpec | string | null")] arrival: JsValue,
    ) -> JsResult<JsOwnPolicyRun> {
        let policy = JsPolicy::new(policy.into())?;
        let notes = policy.explain.is_some();
        let mut params = params_from_js(params.map(JsValue::from))?;
        let arrival = arrival_from_js(arrival)?;
        let d = dataset.inner().clone();
        let model = resolve_arrival(arrival.as_ref(), &d, &mut params).map_err(js_err)?;
        live_run_fits(&params, d.points.dim())?;
        let checked = params.check().map_err(js_err)?;
        let trace = generate_trace(d, model, &checked).map_err(js_err)?;
        let env = Arc::new(Environment::from_trace(&trace, &checked).map_err(js_err)?);
        let run = ExternalRun::new(env, Box::new(policy), OWN_ID, &checked, 0).map_err(js_err)?;
        Ok(JsOwnPolicyRun { run, trace, sent: 0, notes, seed: checked.seed })
    }

    /// The horizon `T`.
    #[wasm_bindgen(getter)]
    pub fn horizon(&self) -> usize {
        self.trace.horizon()
    }

    /// Rounds played so far.
    #[wasm_bindgen(getter)]
    pub fn round(&self) -> usize {
        self.run.rounds()
    }

    /// Why the policy stopped ("the policy stopped in round 7: …"), or `undefined`.
    #[wasm_bindgen(getter)]
    pub fn stopped(&self) -> Option<String> {
        self.run.stopped().map(|e| e.to_string())
    }

    /// Plays up to `n` more rounds (fewer at the horizon or at a fault) and returns an
    /// `OwnPolicyFrame`: per round its decision, switch, cost and judgement, the policy's
    /// explanation of each (when it has `explain`), its counters now, the curve points recorded
    /// since the last frame, and `stopped` once it has faulted.
    #[wasm_bindgen(unchecked_return_type = "OwnPolicyFrame")]
    pub fn step(&mut self, n: f64) -> JsResult<JsValue> {
        let n = super::convert::whole("n", n, 0)?;
        let (mut t, mut llm, mut switched, mut realised, mut wrong) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let notes = js_sys::Array::new();
        let end = self.trace.horizon().min(self.run.rounds().saturating_add(n));
        while self.run.stopped().is_none() && self.run.rounds() < end {
            let Ok(o) = self.run.try_step(&self.trace.arrival(self.run.rounds())) else { break };
            t.push(o.t as u32);
            llm.push(o.llm as u8);
            switched.push(o.switched as u8);
            realised.push(o.realised);
            wrong.push(o.wrong.map_or(-1, i8::from));
            if self.notes {
                notes.push(&self.run.explain().map_or(JsValue::NULL, |s| JsValue::from_str(&s)));
            }
        }
        let cps = self.run.simulation().checkpoints();
        let new = cps[self.sent.min(cps.len())..].to_vec();
        self.sent = cps.len();
        Ok(super::convert::Obj::new()
            .set("round", self.run.rounds() as f64)
            .set("t", js_sys::Uint32Array::from(&t[..]))
            .set("llm", js_sys::Uint8Array::from(&llm[..]))
            .set("switched", js_sys::Uint8Array::from(&switched[..]))
            .set("realised", js_sys::Float64Array::from(&realised[..]))
            .set("wrong", js_sys::Int8Array::from(&wrong[..]))
            .set("notes", notes)
            .set("counters", to_js(&self.run.snapshot())?)
            .set("curves", curves_js(&new))
            .set("stopped", self.stopped().map_or(JsValue::NULL, JsValue::from))
            .build())
    }

    /// The policy's result so far (checkpoints, last checkpoint), as every policy's `RunResult`.
    #[wasm_bindgen(unchecked_return_type = "RunResult")]
    pub fn result(&mut self) -> JsResult<JsValue> {
        to_js(&self.run.result())
    }
}

/// Your policy's runs measured together, as an experiment's units are (the Regret, Sweep and
/// Theory views): the observations of each run added, by the code an online unit records its
/// policies' with ([`online_observations`]), under the id `own-policy`, aggregated over seeds by
/// the same code ([`aggregate_observations`]: mean, standard deviation, 95% Student-t
/// half-width), the Theory view's checks of its runs ([`check_runs`]), and its checks across
/// horizons by the code a report's are made with ([`online_theory`]).
#[wasm_bindgen(js_name = OwnPolicyStats)]
#[derive(Default)]
pub struct JsOwnPolicyStats {
    /// Per run added, in order: its seed and observations.
    added: Vec<(u64, Vec<Observation>)>,
    runs: Vec<Vec<Checkpoint>>,
    /// The first run added at an `x` other than its horizon T (a value of a parameter of yours).
    swept: Option<f64>,
}

#[wasm_bindgen(js_class = OwnPolicyStats)]
impl JsOwnPolicyStats {
    /// No runs yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsOwnPolicyStats {
        JsOwnPolicyStats::default()
    }

    /// Adds `run` as it is now (played to its horizon by the caller). `x` undefined: its curves
    /// at every checkpoint (x = t) and its final metrics at x = T, as the Regret view's units;
    /// a number: only its final metrics, at x = that value — of a swept parameter of yours, as a
    /// sweep's units, or its horizon T, as a unit of a sweep over the horizon (`thy-horizon`).
    /// Throws one plain message for an `x` that is not a finite number.
    pub fn add(&mut self, run: &mut JsOwnPolicyRun, x: Option<f64>) -> JsResult<()> {
        if x.is_some_and(|v| !v.is_finite()) {
            return Err(js_err(Error::param(
                "x",
                "must be a finite number (a value of your parameter, or the run's horizon) or undefined",
            )));
        }
        let r = run.run.result();
        let mut observations = Vec::new();
        online_observations(&mut observations, OWN_ID, x, &r);
        self.added.push((run.seed, observations));
        match x {
            None => self.runs.push(r.checkpoints),
            Some(v) if v != run.horizon() as f64 => {
                self.swept.get_or_insert(v);
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// The statistics of the runs added, as a report's `stats` (algorithm `own-policy`).
    #[wasm_bindgen(unchecked_return_type = "Stat[]")]
    pub fn stats(&self) -> JsResult<JsValue> {
        to_js(&aggregate_observations(&mut self.added.iter().flat_map(|(_, o)| o)))
    }

    /// The statistics of the runs added as rows of a report's CSV export under the experiment id
    /// `experiment` (no header; the columns of a report without a grid:
    /// `experiment,algorithm,metric,x,n,mean,std,ci95`). Throws one plain message for an
    /// `experiment` that is not a string.
    pub fn csv(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] experiment: JsValue,
    ) -> JsResult<String> {
        let id = super::convert::string("experiment", &experiment)?;
        Ok(csv_rows(&id, &aggregate_observations(&mut self.added.iter().flat_map(|(_, o)| o)), false))
    }

    /// The Theory view's checks of the runs added without `x` (Reg(t), ε_t, m_eff, γ_t where
    /// measured, switches), as a report's `theory.runs[].checks`: a quantity the policy does not
    /// expose has no points and is said so.
    #[wasm_bindgen(unchecked_return_type = "TheoryCheck[]")]
    pub fn theory(&self) -> JsResult<JsValue> {
        let runs: Vec<&[Checkpoint]> = self.runs.iter().map(Vec::as_slice).collect();
        to_js(&check_runs(&runs))
    }

    /// The theory checks of the runs added as a sweep over the horizon (one run per (T, seed),
    /// each added at x = its horizon T, or without x), as a report's `theory` of such a sweep
    /// (`thy-horizon`'s): each T's checks over seeds (`runs`) and Reg(T) fitted against T
    /// (`horizons`), made by the function that makes a report's ([`online_theory`]); `null` before
    /// a run. Throws one plain message if a run was added at a value of a parameter of yours.
    #[wasm_bindgen(js_name = theoryAcrossHorizons, unchecked_return_type = "TheoryReport | null")]
    pub fn theory_across_horizons(&self) -> JsResult<JsValue> {
        if let Some(x) = self.swept {
            return Err(js_err(Error::param(
                "x",
                format!(
                    "Reg(T) across horizons reads runs added at x = their horizon T (or without x); \
                     a run was added at x = {x}, which is not its horizon"
                ),
            )));
        }
        to_js(&online_theory(&mut self.added.iter().map(|(seed, o)| (*seed, &o[..])), None, true))
    }
}

/// Your policy's id in statistics (`Stat.algorithm`).
pub const OWN_ID: &str = "own-policy";
