//! The live and batch classes: `OnlineRun` (step a seeded stream for several policies side by
//! side and read what a view needs, without copying the whole state each frame) and
//! `ExperimentRun` (an experiment of SPEC §10 run one unit at a time, with progress and cancel,
//! so a Web Worker can drive it).

use super::convert::{js_err, to_js, JsResult};
use super::dataset::JsDataset;
use super::params::params_from_js;
use super::types::JsPartialParams;
use crate::dataset::Dataset;
use crate::error::Error;
use crate::experiment::{builtin, run_unit, ExperimentSpec, Report, UnitResult};
use crate::online::sim::{Environment, Simulation};
use crate::online::PolicyKind;
use crate::projection::Projection;
use crate::stream::{generate_trace, resolve_arrival, Arrival, ArrivalSpec};
use crate::trace::Trace;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_SIM: &'static str = r#"
/** What `OnlineRun.step(n)` played: per round, and per policy in `policies` order (policy-major
 *  within a round: index `round * policies.length + p`). */
export interface StepBatch {
  /** Round index of each played round (from 0). */
  t: Uint32Array;
  /** 2-D position of each arrival (`[x0, y0, x1, y1, …]`): the plane itself for 2-D data, else the dataset's PCA projection. */
  xy: Float64Array;
  /** ε-net center of the arrival per round and policy (−1 for policies without a net). */
  center: Int32Array;
  /** 1 if the policy called the LLM, 0 if it served from its cache. */
  llm: Uint8Array;
  /** 1 if the policy's cache changed in that round. */
  switched: Uint8Array;
  /** What the round cost the policy: `c(x)` for an LLM call, `φ(d(x, M))` for a hit. */
  realised: Float64Array;
}

/** What `OnlineRun.ask(x, tokens, text)` played (issue 14, "Ask a question"): one round, as a
 *  `StepBatch`, plus what explains each policy's decision. */
export interface AskResult extends StepBatch {
  /** `c(x)`: the token count min-max normalised over the dataset (SPEC §2), clamped to `[c_floor, 1]`. */
  cost: number;
  /** Per policy, as it decided: the round key of the nearest member of its cache (−1: empty cache). */
  nearestKey: Int32Array;
  /** Per policy: `d(x, M)` to that member (`Infinity` for an empty cache) and `φ(d)`. */
  d: Float64Array;
  phi: Float64Array;
  /** Per policy: the acting cost at the round's center when it decided (`c̲` for the CLCB
   *  policies; it calls the LLM iff `c̲ ≤ φ`, Alg. 5), `NaN` for policies without an ε-net. */
  acting: Float64Array;
  /** Per policy: what `acting` is, `"c̲"` (a lower confidence bound: the CLCB family) or `"ĉ"`
   *  (a center's mean cost: the baselines); `""` for policies without one. */
  actingSymbol: string[];
  /** The five universe questions nearest to `x`: row, `d`, text. */
  universe: { index: Uint32Array; d: Float64Array; text: string[] };
}

/** The metrics of one policy at one point of a run (Rust: `csc::online::sim::Checkpoint`). */
export interface Checkpoint {
  t: number; regret: number; avg_regret: number; realised_cost: number; avg_realised_cost: number;
  hit_rate: number; llm_calls: number; switches: number; switch_cost: number; loss: number;
  cache_size: number; est_rmse: number | null; est_mae: number | null; est_max: number | null; wall_ms: number;
}

/** A policy's ε-net centers as it sees them (for hovering a center). */
export interface CenterDetails {
  /** Round whose arrival created each center. */
  keys: Uint32Array;
  xy: Float64Array;
  count: Float64Array;
  /** `ŵ = N_f / t`. */
  weight: Float64Array;
  /** KRR or empirical mean of the cost. */
  estimate: Float64Array;
  /** The cost the policy acts on (LCB for the CLCB family, mean for the baselines). */
  actingCost: Float64Array;
  /** Posterior standard deviation (KRR policies; NaN otherwise). */
  sd: Float64Array;
  cached: Uint8Array;
  /** For cached centers: how much `L̂` would rise without it. */
  contribution: Float64Array;
}

/** The recorded curves of one policy (about 200 points over the horizon). */
export interface Curves {
  t: Float64Array; avgRegret: Float64Array; switches: Float64Array; avgRealisedCost: Float64Array;
  hitRate: Float64Array; loss: Float64Array; estRmse: Float64Array;
}

/** A cache: its members' keys (arrival rounds) and 2-D positions. */
export interface CacheView { keys: Uint32Array; xy: Float64Array; }

/** A KRR cost surface on an `n × n` grid over the unit square (row-major, y outer). */
export interface Heatmap { n: number; mean: Float64Array; sd: Float64Array; }

/** One policy's finished run (Rust: `csc::online::sim::RunResult`). */
export interface RunResult {
  policy: string; policy_id: string; oracle_loss: number; checkpoints: Checkpoint[]; last: Checkpoint;
  diagnostics: Record<string, number> | null;
}

/** Online algorithm ids: the ids of `policies()` (checked against `csc::algorithms` by tests/catalog.rs). */
export type PolicyId = "clcb-sc-ls-cont" | "clcb-frozen-cont" | "clcb-sc-ls" | "greedy" | "epsilon-greedy" | "lfu" | "lru" | "threshold" | "oracle";

/** An experiment definition (Rust: `csc::experiment::ExperimentSpec`). */
export interface ExperimentSpec {
  id: string; title?: string; dataset: "synthetic" | "nq-trivia" | "plane" | DatasetSpec;
  measure: { kind: "offline"; algorithms: string[] } | { kind: "online"; policies: PolicyId[] };
  sweep?: { param: string; values: number[] } | null;
  params?: Partial<Params>; seeds: number; first_seed?: number;
}

/** Options of `Dataset.fromJsonl` (all but `onProgress` for user data only) and `Dataset.nqTrivia`. */
export interface LoadOptions {
  /** The record field whose values are the groups of the `bursty` arrival model. */
  groupBy?: string | null;
  /** An index file of arrivals for `replay`: one record id (or row number from 0) per line. */
  replayIndex?: Uint8Array | number[] | null;
  /** The index file's name, for messages. */
  replayIndexName?: string | null;
  /** Called as the distance scale is measured: rows compared so far, of all rows. */
  onProgress?: ((rowsDone: number, rows: number) => void) | null;
}

/** An arrival model by name with its parameters (Rust: `csc::stream::ArrivalSpec`; SPEC §7). */
/** A dataset object of a definition (Rust: `csc::experiment::DatasetSpec`): the user's files
 *  (named, with their checksum) or a built-in, with an arrival model. */
export interface DatasetSpec {
  builtin?: "synthetic" | "nq-trivia" | "plane"; jsonl?: string; embeddings?: string; dim?: number;
  checksum?: string; arrival?: ArrivalSpec;
}

export type ArrivalSpec =
  | { model: "uniform" | "popularity" | "plane" }
  | { model: "bursty"; group_by?: string }
  | { model: "replay"; index?: string; index_checksum?: string };

/** One aggregated point: mean, standard deviation and 95% CI half-width over seeds. */
export interface Stat { algorithm: string; algorithm_id?: string; metric: string; x: number | null; n: number; mean: number | null; std: number | null; ci95: number | null; }

/** A finished experiment (Rust: `csc::experiment::Report`); `units` holds every seed's raw result. */
export interface Report { experiment: ExperimentSpec; engine: string; stats: Stat[]; units: unknown[]; }
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "PolicyId[]")]
    pub type JsPolicyIds;
    #[wasm_bindgen(typescript_type = "ExperimentSpec | string")]
    pub type JsExperiment;
    #[wasm_bindgen(typescript_type = "(roundsDone: number) => boolean")]
    pub type JsProgress;
}

/// Largest horizon an `OnlineRun` accepts (it keeps the generated stream in memory).
pub const MAX_LIVE_HORIZON: usize = 1_000_000;

/// The limits of a run held in the page: at most [`MAX_LIVE_HORIZON`] rounds, and a stream
/// that fits the browser's memory ([`super::convert::stream_fits`]). Shared by `OnlineRun` and
/// the benchmark's `BenchOnline`.
pub(crate) fn live_run_fits(params: &crate::config::Params, dim: usize) -> JsResult<()> {
    if params.horizon > MAX_LIVE_HORIZON {
        return Err(js_err(Error::param(
            "horizon",
            format!("a live run holds at most {MAX_LIVE_HORIZON} rounds, got {}", params.horizon),
        )));
    }
    super::convert::stream_fits(params, dim)
}

/// The `arrival` argument of `OnlineRun`: a model name or an [`ArrivalSpec`] object; `None` when
/// left out (`undefined`/`null`).
fn arrival_from_js(v: JsValue) -> JsResult<Option<ArrivalSpec>> {
    let Some(v) = super::convert::optional(v) else { return Ok(None) };
    if let Some(name) = v.as_string() {
        return ArrivalSpec::parse(&name, None).map(Some).map_err(js_err);
    }
    let bad = |e: &dyn std::fmt::Display| {
        js_err(Error::param(
            "arrival",
            format!(
                "must be a model name or an object such as {{model: \"bursty\", group_by: \"source\"}} ({e})"
            ),
        ))
    };
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err(bad(&"got neither a string nor an object"));
    }
    let j: serde_json::Value = serde_wasm_bindgen::from_value(v).map_err(|e| bad(&e))?;
    serde_json::from_value(j).map(Some).map_err(|e| bad(&e))
}

/// One seeded stream, its evaluation sample and oracle, and policies playing it side by side.
#[wasm_bindgen(js_name = OnlineRun)]
pub struct JsOnlineRun {
    dataset: Arc<Dataset>,
    projection: Option<Projection>,
    trace: Trace,
    sims: Vec<Simulation>,
    t: usize,
    /// Rounds played by `ask` (issue 14): the round, its vector and its text. They replace the
    /// trace's arrival of that round (the trace, `traceJson` and the oracle keep the planned one).
    asked: Vec<(usize, Vec<f32>, String)>,
}

impl JsOnlineRun {
    /// The arrival vector of a played round (an asked question's, or the trace's).
    fn x_at(&self, r: usize) -> &[f32] {
        match self.asked.iter().find(|(k, ..)| *k == r) {
            Some((_, x, _)) => x,
            None => self.trace.x(r),
        }
    }
    /// The `k` universe rows nearest to `x` (ties to the lowest row) with their distances.
    fn nearest_universe(&self, x: &[f32], k: usize) -> Vec<(usize, f64)> {
        let m = &self.sims[0].environment().metric;
        let mut all: Vec<(usize, f64)> =
            self.dataset.points.iter().enumerate().map(|(i, y)| (i, m.dist(x, y))).collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        all.truncate(k);
        all
    }
    fn xy(&self, x: &[f32]) -> [f64; 2] {
        match &self.projection {
            Some(p) => p.project(x),
            None => [x[0] as f64, x[1] as f64],
        }
    }
    fn policy_index(&self, p: f64) -> JsResult<usize> {
        let i = super::convert::whole("policy", p, 0)?;
        if i >= self.sims.len() {
            return Err(js_err(Error::param(
                "policy",
                format!("there are {} policies, index {i} is out of range", self.sims.len()),
            )));
        }
        Ok(i)
    }
}

#[wasm_bindgen(js_class = OnlineRun)]
impl JsOnlineRun {
    /// Generates the stream of `params` (its `seed`, `horizon`, …) on `dataset`, its evaluation
    /// sample and the oracle `M_orc`, and sets up each policy in `policies` (ids such as
    /// `"clcb-sc-ls-cont"`). The oracle costs O(T·n_eval) distance evaluations: keep `n_eval`
    /// moderate for a live view.
    ///
    /// `arrival` chooses the arrival model (SPEC §7; README "Your own data"): a name
    /// (`"uniform"`, `"bursty"`, `"popularity"`, `"replay"`) or an object such as
    /// `{model: "bursty", group_by: "source"}` or `{model: "replay", index: "log.txt"}`; left out,
    /// the dataset's own SPEC §7 model. `bursty` on uploaded data needs the dataset read with its
    /// `groupBy` field, a replay index the dataset read with it (`Dataset.fromJsonl`); `replay`
    /// sets `T` to the length of the file (or index).
    #[wasm_bindgen(constructor)]
    pub fn new(
        dataset: &JsDataset,
        params: Option<JsPartialParams>,
        policies: JsPolicyIds,
        #[wasm_bindgen(unchecked_optional_param_type = "ArrivalSpec | string | null")] arrival: JsValue,
    ) -> JsResult<JsOnlineRun> {
        let mut params = params_from_js(params.map(JsValue::from))?;
        let arrival = arrival_from_js(arrival)?;
        let d = dataset.inner().clone();
        let model = resolve_arrival(arrival.as_ref(), &d, &mut params).map_err(js_err)?;
        live_run_fits(&params, dataset.inner().points.dim())?;
        let ids: Vec<String> = serde_wasm_bindgen::from_value(policies.into())
            .map_err(|e| js_err(Error::parse(format!("policies must be an array of ids: {e}"))))?;
        if ids.is_empty() {
            return Err(js_err(Error::param("policies", "name at least one policy")));
        }
        let kinds =
            ids.iter().map(|s| PolicyKind::parse(s)).collect::<Result<Vec<_>, _>>().map_err(js_err)?;
        let projection = if d.points.dim() == 2 { None } else { Some(dataset.fitted_projection()?.clone()) };
        let trace = generate_trace(d.clone(), model, &params).map_err(js_err)?;
        let env = Arc::new(Environment::from_trace(&trace, &params).map_err(js_err)?);
        let sims = kinds
            .iter()
            .map(|&k| Simulation::new(env.clone(), k, &params, 0))
            .collect::<Result<Vec<_>, _>>()
            .map_err(js_err)?;
        Ok(JsOnlineRun { dataset: d, projection, trace, sims, t: 0, asked: Vec::new() })
    }

    /// The horizon `T`.
    #[wasm_bindgen(getter)]
    pub fn horizon(&self) -> usize {
        self.trace.horizon()
    }

    /// Rounds played so far.
    #[wasm_bindgen(getter)]
    pub fn round(&self) -> usize {
        self.t
    }

    /// The policies' paper names, in order.
    #[wasm_bindgen(getter)]
    pub fn policies(&self) -> Vec<String> {
        self.sims.iter().map(|s| s.policy().kind().label().to_string()).collect()
    }

    /// `L(M_orc)` on the evaluation sample.
    #[wasm_bindgen(getter, js_name = oracleLoss)]
    pub fn oracle_loss(&self) -> f64 {
        self.sims[0].environment().oracle.loss
    }

    /// The oracle's cache (keys are the rounds of its members' first arrival).
    #[wasm_bindgen(js_name = oracleCache, unchecked_return_type = "CacheView")]
    pub fn oracle_cache(&self) -> JsValue {
        let env = self.sims[0].environment();
        let xy: Vec<f64> = env.oracle.cache.iter().flat_map(|x| self.xy(x)).collect();
        let keys: Vec<u32> = env.oracle.keys.iter().map(|&k| k as u32).collect();
        super::convert::Obj::new()
            .set("keys", js_sys::Uint32Array::from(&keys[..]))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .build()
    }

    /// 2-D positions of the dataset's universe (for the background of the view).
    pub fn universe(&self) -> Vec<f64> {
        self.dataset.points.iter().flat_map(|x| self.xy(x)).collect()
    }

    /// Plays up to `n` more rounds for every policy (fewer at the end of the horizon).
    #[wasm_bindgen(unchecked_return_type = "StepBatch")]
    pub fn step(&mut self, n: f64) -> JsResult<JsValue> {
        let n = super::convert::whole("n", n, 0)?.min(self.trace.horizon() - self.t);
        let p = self.sims.len();
        let (mut t, mut xy, mut center, mut llm, mut switched, mut realised) = (
            Vec::with_capacity(n),
            Vec::with_capacity(2 * n),
            Vec::with_capacity(n * p),
            Vec::with_capacity(n * p),
            Vec::with_capacity(n * p),
            Vec::with_capacity(n * p),
        );
        for _ in 0..n {
            let r = self.t;
            let a = self.trace.arrival(r);
            t.push(r as u32);
            xy.extend(self.xy(a.x));
            for sim in &mut self.sims {
                let o = sim.step(&a);
                center.push(sim.policy().current_center().map_or(-1, |c| c as i32));
                llm.push(o.llm as u8);
                switched.push(o.switched as u8);
                realised.push(o.realised);
            }
            self.t += 1;
        }
        Ok(super::convert::Obj::new()
            .set("t", js_sys::Uint32Array::from(&t[..]))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .set("center", js_sys::Int32Array::from(&center[..]))
            .set("llm", js_sys::Uint8Array::from(&llm[..]))
            .set("switched", js_sys::Uint8Array::from(&switched[..]))
            .set("realised", js_sys::Float64Array::from(&realised[..]))
            .build())
    }

    /// Plays the next round with a given arrival instead of the stream's (issue 14, "Ask a
    /// question"): `x` a Float32Array or array of the dataset's dimension (e.g. an embedded
    /// question), `tokens` its GPT-2 token count, `text` its text (for `roundText`). Its cost is
    /// `c = c_floor + (1 − c_floor)·(tokens − min)/(max − min)` over the dataset's token counts
    /// (SPEC §2), clamped to `[c_floor, 1]`; an LLM call observes it with the round's planned
    /// noise `η_t`. Returns the round as a `StepBatch` plus, per policy, the nearest cached member
    /// with `d` and `φ(d)`, and the five nearest universe questions.
    #[wasm_bindgen(unchecked_return_type = "AskResult")]
    pub fn ask(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] x: JsValue,
        tokens: f64,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] text: JsValue,
    ) -> JsResult<JsValue> {
        let r = self.t;
        if r >= self.trace.horizon() {
            return Err(js_err(Error::param("round", "the run has reached its horizon: no round is left")));
        }
        let dim = self.dataset.points.dim();
        let x = vector_from_js("x", &x, dim)?;
        let tokens = super::convert::whole("tokens", tokens, 0)?;
        let text = if text.is_undefined() || text.is_null() {
            String::new()
        } else {
            text.as_string().ok_or_else(|| js_err(Error::param("text", "must be a string")))?
        };
        let cost = self.dataset.cost_of_tokens(tokens);
        let eta = self.trace.arrival(r).eta;
        let a = Arrival { t: r, x: &x, cost, eta, index: None };
        let p = self.sims.len();
        let (mut center, mut llm, mut switched, mut realised) =
            (Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p));
        let (mut nearest, mut d, mut phi, mut acting) =
            (Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p));
        let symbol = js_sys::Array::new();
        for sim in &mut self.sims {
            // What the decision compared (Alg. 5 lines 4–6): taken before the policy observes the
            // LLM's answer, which may add this very question to its cache.
            let (o, why) = sim.step_explained(&a);
            center.push(why.center.map_or(-1, |c| c as i32));
            llm.push(o.llm as u8);
            switched.push(o.switched as u8);
            realised.push(o.realised);
            let (k, dist) = why.nearest.map_or((-1, f64::INFINITY), |(k, dk)| (k as i32, dk));
            nearest.push(k);
            d.push(dist);
            phi.push(o.phi);
            acting.push(why.acting_cost.unwrap_or(f64::NAN));
            let sym = match why.acting_cost {
                None => "",
                Some(_) if sim.policy().kind().acts_on_lcb() => "c̲",
                Some(_) => "ĉ",
            };
            symbol.push(&JsValue::from_str(sym));
        }
        let xy = self.xy(&x);
        let near = self.nearest_universe(&x, 5);
        let texts = js_sys::Array::new();
        for &(i, _) in &near {
            texts.push(&JsValue::from_str(&self.dataset.texts.get(i).cloned().unwrap_or_default()));
        }
        let idx: Vec<u32> = near.iter().map(|&(i, _)| i as u32).collect();
        let nd: Vec<f64> = near.iter().map(|&(_, v)| v).collect();
        let universe = super::convert::Obj::new()
            .set("index", js_sys::Uint32Array::from(&idx[..]))
            .set("d", js_sys::Float64Array::from(&nd[..]))
            .set("text", texts)
            .build();
        self.asked.push((r, x, text));
        self.t += 1;
        Ok(super::convert::Obj::new()
            .set("t", js_sys::Uint32Array::from(&[r as u32][..]))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .set("center", js_sys::Int32Array::from(&center[..]))
            .set("llm", js_sys::Uint8Array::from(&llm[..]))
            .set("switched", js_sys::Uint8Array::from(&switched[..]))
            .set("realised", js_sys::Float64Array::from(&realised[..]))
            .set("cost", cost)
            .set("nearestKey", js_sys::Int32Array::from(&nearest[..]))
            .set("d", js_sys::Float64Array::from(&d[..]))
            .set("phi", js_sys::Float64Array::from(&phi[..]))
            .set("acting", js_sys::Float64Array::from(&acting[..]))
            .set("actingSymbol", symbol)
            .set("universe", universe)
            .build())
    }

    /// The question of a played round, for hovering a center or an arrival: an asked question's
    /// text, the universe text of an exact arrival, else `"≈ "` and the nearest universe text
    /// (perturbed arrivals); `undefined` for an unplayed round or a dataset without texts.
    #[wasm_bindgen(js_name = roundText)]
    pub fn round_text(&self, round: f64) -> JsResult<Option<String>> {
        let r = super::convert::whole("round", round, 0)?;
        if r >= self.t {
            return Ok(None);
        }
        if let Some((_, _, text)) = self.asked.iter().find(|(k, ..)| *k == r) {
            return Ok(Some(text.clone()));
        }
        let a = self.trace.arrival(r);
        let (i, prefix) = match a.index {
            Some(i) => (i as usize, ""),
            None => match self.nearest_universe(a.x, 1).first() {
                Some(&(i, _)) => (i, "≈ "),
                None => return Ok(None),
            },
        };
        Ok(self.dataset.texts.get(i).filter(|t| !t.is_empty()).map(|t| format!("{prefix}{t}")))
    }

    /// Every policy's metrics now.
    #[wasm_bindgen(unchecked_return_type = "Checkpoint[]")]
    pub fn counters(&mut self) -> JsResult<JsValue> {
        let c: Vec<_> = self.sims.iter_mut().map(|s| s.snapshot()).collect();
        to_js(&c)
    }

    /// Policy `policy`'s current cache.
    #[wasm_bindgen(unchecked_return_type = "CacheView")]
    pub fn cache(&self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        let c = self.sims[i].policy().cache();
        let keys: Vec<u32> = c.keys().iter().map(|&k| k as u32).collect();
        let xy: Vec<f64> = c.points().iter().flat_map(|x| self.xy(x)).collect();
        Ok(super::convert::Obj::new()
            .set("keys", js_sys::Uint32Array::from(&keys[..]))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .build())
    }

    /// Policy `policy`'s ε-net centers with what it believes of each (empty without a net).
    #[wasm_bindgen(unchecked_return_type = "CenterDetails")]
    pub fn centers(&mut self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        let details = self.sims[i].policy_mut().center_details().unwrap_or_default();
        let n = details.len();
        let (mut keys, mut xy, mut count, mut weight, mut est, mut act, mut sd, mut cached, mut contrib) = (
            Vec::with_capacity(n),
            Vec::with_capacity(2 * n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for c in &details {
            let x = self.x_at(c.key as usize);
            keys.push(c.key as u32);
            xy.extend(self.xy(x));
            count.push(c.count as f64);
            weight.push(c.weight);
            est.push(c.estimate);
            act.push(c.acting_cost);
            sd.push(c.sd);
            cached.push(c.cached as u8);
            contrib.push(c.contribution);
        }
        Ok(super::convert::Obj::new()
            .set("keys", js_sys::Uint32Array::from(&keys[..]))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .set("count", js_sys::Float64Array::from(&count[..]))
            .set("weight", js_sys::Float64Array::from(&weight[..]))
            .set("estimate", js_sys::Float64Array::from(&est[..]))
            .set("actingCost", js_sys::Float64Array::from(&act[..]))
            .set("sd", js_sys::Float64Array::from(&sd[..]))
            .set("cached", js_sys::Uint8Array::from(&cached[..]))
            .set("contribution", js_sys::Float64Array::from(&contrib[..]))
            .build())
    }

    /// Policy `policy`'s recorded curves.
    #[wasm_bindgen(unchecked_return_type = "Curves")]
    pub fn curves(&mut self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        let cps = self.sims[i].result().checkpoints;
        let col = |f: &dyn Fn(&crate::online::sim::Checkpoint) -> f64| {
            js_sys::Float64Array::from(&cps.iter().map(f).collect::<Vec<_>>()[..])
        };
        Ok(super::convert::Obj::new()
            .set("t", col(&|c| c.t as f64))
            .set("avgRegret", col(&|c| c.avg_regret))
            .set("switches", col(&|c| c.switches as f64))
            .set("avgRealisedCost", col(&|c| c.avg_realised_cost))
            .set("hitRate", col(&|c| c.hit_rate))
            .set("loss", col(&|c| c.loss))
            .set("estRmse", col(&|c| c.est_rmse.unwrap_or(f64::NAN)))
            .build())
    }

    /// Policy `policy`'s KRR cost surface on an `n × n` grid of the unit square (2-D data and
    /// kernel policies only; `n` ≤ 128).
    #[wasm_bindgen(unchecked_return_type = "Heatmap")]
    pub fn heatmap(&self, policy: f64, n: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        let n = super::convert::whole("n", n, 2)?;
        if n > 128 {
            return Err(js_err(Error::param("n", format!("the grid is at most 128 × 128, got {n}"))));
        }
        if self.dataset.points.dim() != 2 {
            return Err(js_err(Error::unsupported(
                "the cost heatmap is drawn for 2-D data (the plane dataset) only",
            )));
        }
        let pol = self.sims[i].policy();
        let (mut mean, mut sd) = (Vec::with_capacity(n * n), Vec::with_capacity(n * n));
        for gy in 0..n {
            for gx in 0..n {
                let x = [(gx as f32 + 0.5) / n as f32, (gy as f32 + 0.5) / n as f32];
                let p = pol.posterior_at(&x).ok_or_else(|| {
                    js_err(Error::unsupported(format!("{} has no kernel cost model", pol.kind().label())))
                })?;
                mean.push(p.mean);
                sd.push(p.sd());
            }
        }
        Ok(super::convert::Obj::new()
            .set("n", n as f64)
            .set("mean", js_sys::Float64Array::from(&mean[..]))
            .set("sd", js_sys::Float64Array::from(&sd[..]))
            .build())
    }

    /// Every policy's result so far (curves, last checkpoint, diagnostics) — for export.
    #[wasm_bindgen(unchecked_return_type = "RunResult[]")]
    pub fn results(&mut self) -> JsResult<JsValue> {
        let r: Vec<_> = self.sims.iter_mut().map(|s| s.result()).collect();
        to_js(&r)
    }

    /// The stream as a SPEC §12 trace (JSON text), so the run can be replayed elsewhere.
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> String {
        self.trace.to_json()
    }
}

/// A JS Float32Array or array of numbers as a finite vector of dimension `dim`.
fn vector_from_js(what: &str, v: &JsValue, dim: usize) -> JsResult<Vec<f32>> {
    let x = super::convert::f32s(what, v)?;
    if x.len() != dim {
        return Err(js_err(Error::param(
            what,
            format!("has {} numbers but the dataset's vectors have {dim}", x.len()),
        )));
    }
    if x.iter().any(|f| !f.is_finite()) {
        return Err(js_err(Error::param(what, "has a value that is not a finite number")));
    }
    Ok(x)
}

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

/// An experiment of SPEC §10 run one unit (one sweep value × one seed) at a time.
#[wasm_bindgen(js_name = ExperimentRun)]
pub struct JsExperimentRun {
    spec: ExperimentSpec,
    dataset: Arc<Dataset>,
    units: Vec<crate::experiment::Unit>,
    done: Vec<UnitResult>,
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
        for point in 0..spec.sweep.as_ref().map_or(1, |s| s.values.len()) {
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
        Ok(JsExperimentRun { units: spec.units(), spec, dataset: dataset.inner().clone(), done: Vec::new() })
    }

    #[wasm_bindgen(getter, js_name = totalUnits)]
    pub fn total_units(&self) -> usize {
        self.units.len()
    }

    #[wasm_bindgen(getter, js_name = doneUnits)]
    pub fn done_units(&self) -> usize {
        self.done.len()
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
        let Some(unit) = self.units.get(self.done.len()).cloned() else { return Ok(false) };
        let mut cb = progress_callback(on_progress);
        let r = run_unit(&self.spec, &unit, &self.dataset, &mut cb).map_err(js_err)?;
        self.done.push(r);
        Ok(self.done.len() < self.units.len())
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
        let r: UnitResult =
            serde_json::from_str(&json).map_err(|e| js_err(Error::parse(format!("unit result: {e}"))))?;
        if r.experiment != self.spec.id || self.units.get(r.unit.index) != Some(&r.unit) {
            return Err(js_err(Error::data(format!(
                "unit {} of `{}` is not a unit of this run of `{}`",
                r.unit.index, r.experiment, self.spec.id
            ))));
        }
        if self.done.iter().any(|d| d.unit.index == r.unit.index) {
            return Err(js_err(Error::data(format!("unit {} was added twice", r.unit.index))));
        }
        self.done.push(r);
        Ok(())
    }

    /// The report over the units done so far.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn report(&self) -> JsResult<JsValue> {
        to_js(&Report::new(&self.spec, self.done.clone()))
    }

    /// The report as JSON text (for export).
    #[wasm_bindgen(js_name = reportJson)]
    pub fn report_json(&self) -> String {
        serde_json::to_string(&Report::new(&self.spec, self.done.clone())).unwrap_or_default()
    }

    /// The aggregated statistics as CSV.
    pub fn csv(&self) -> String {
        Report::new(&self.spec, self.done.clone()).to_csv()
    }

    /// The headline table as text.
    pub fn summary(&self) -> String {
        Report::new(&self.spec, self.done.clone()).summary()
    }
}
