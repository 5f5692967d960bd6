//! `OnlineRun`: one seeded stream played by several policies side by side (the live view), read
//! without copying the whole state each frame; a typed question played as the next round
//! (`ask`, issue 14). SPEC §9, §12.

use super::convert::{js_err, to_js, JsResult};
use super::dataset::JsDataset;
use super::params::params_from_js;
use super::simulation::{live_run_fits, JsPolicyIds};
use super::types::JsPartialParams;
use crate::dataset::Dataset;
use crate::error::Error;
use crate::online::sim::{Environment, Simulation};
use crate::online::PolicyKind;
use crate::projection::Projection;
use crate::stream::{generate_trace, resolve_arrival, Arrival, ArrivalSpec};
use crate::trace::Trace;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

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
        let mut batch = StepBatch::new(n, self.sims.len());
        for _ in 0..n {
            let r = self.t;
            let a = self.trace.arrival(r);
            batch.round(r, self.xy(a.x));
            for sim in &mut self.sims {
                let o = sim.step(&a);
                batch.policy(sim.policy().current_center(), &o);
            }
            self.t += 1;
        }
        Ok(batch.into_obj().build())
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
        let a = Arrival { t: r, x: &x, cost, eta, index: None, label: None };
        let p = self.sims.len();
        let mut batch = StepBatch::new(1, p);
        batch.round(r, self.xy(&x));
        let (mut nearest, mut d, mut phi, mut acting) =
            (Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p));
        let (mut before_key, mut before_d, mut before_phi, mut before_size) =
            (Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p), Vec::with_capacity(p));
        let (inserted, removed) = (js_sys::Array::new(), js_sys::Array::new());
        let symbol = js_sys::Array::new();
        for sim in &mut self.sims {
            // What the decision compared (Alg. 5 lines 4–6): taken before the policy observes the
            // LLM's answer, which may add this very question to its cache; and, before that, the
            // cache the question met (M_{t−1}) and the switch it caused (Alg. 3 l. 5–11, Alg. 4).
            let (o, why) = sim.step_explained(&a);
            let (bk, bd) = why.before.map_or((-1, f64::INFINITY), |(k, dk)| (k as i32, dk));
            before_key.push(bk);
            before_d.push(bd);
            before_phi.push(sim.environment().eval.mismatch.phi(bd));
            before_size.push(why.before_size as u32);
            let keys =
                |v: &[u64]| js_sys::Uint32Array::from(&v.iter().map(|&k| k as u32).collect::<Vec<_>>()[..]);
            inserted.push(&keys(&why.inserted));
            removed.push(&keys(&why.removed));
            batch.policy(why.center, &o);
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
        Ok(batch
            .into_obj()
            .set("cost", cost)
            .set("nearestKey", js_sys::Int32Array::from(&nearest[..]))
            .set("d", js_sys::Float64Array::from(&d[..]))
            .set("phi", js_sys::Float64Array::from(&phi[..]))
            .set("acting", js_sys::Float64Array::from(&acting[..]))
            .set("actingSymbol", symbol)
            .set("beforeKey", js_sys::Int32Array::from(&before_key[..]))
            .set("beforeD", js_sys::Float64Array::from(&before_d[..]))
            .set("beforePhi", js_sys::Float64Array::from(&before_phi[..]))
            .set("beforeSize", js_sys::Uint32Array::from(&before_size[..]))
            .set("inserted", inserted)
            .set("removed", removed)
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

/// The rounds of one `step` (or `ask`) call as the typed arrays of a `StepBatch`: per round its
/// number and projected point, per round and policy (row-major) the center, the decision,
/// whether it switched, and what it cost.
struct StepBatch {
    t: Vec<u32>,
    xy: Vec<f64>,
    center: Vec<i32>,
    llm: Vec<u8>,
    switched: Vec<u8>,
    realised: Vec<f64>,
    wrong: Vec<i8>,
}

impl StepBatch {
    fn new(rounds: usize, policies: usize) -> Self {
        let n = rounds * policies;
        StepBatch {
            t: Vec::with_capacity(rounds),
            xy: Vec::with_capacity(2 * rounds),
            center: Vec::with_capacity(n),
            llm: Vec::with_capacity(n),
            switched: Vec::with_capacity(n),
            realised: Vec::with_capacity(n),
            wrong: Vec::with_capacity(n),
        }
    }

    fn round(&mut self, r: usize, xy: [f64; 2]) {
        self.t.push(r as u32);
        self.xy.extend(xy);
    }

    fn policy(&mut self, center: Option<usize>, o: &crate::online::sim::StepOutcome) {
        self.center.push(center.map_or(-1, |c| c as i32));
        self.llm.push(o.llm as u8);
        self.switched.push(o.switched as u8);
        self.realised.push(o.realised);
        self.wrong.push(o.wrong.map_or(-1, i8::from));
    }

    fn into_obj(self) -> super::convert::Obj {
        super::convert::Obj::new()
            .set("t", js_sys::Uint32Array::from(&self.t[..]))
            .set("xy", js_sys::Float64Array::from(&self.xy[..]))
            .set("center", js_sys::Int32Array::from(&self.center[..]))
            .set("llm", js_sys::Uint8Array::from(&self.llm[..]))
            .set("switched", js_sys::Uint8Array::from(&self.switched[..]))
            .set("realised", js_sys::Float64Array::from(&self.realised[..]))
            .set("wrong", js_sys::Int8Array::from(&self.wrong[..]))
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
