//! `OnlineRun`: the engine's [`LiveRun`] (one seeded stream played by several policies side by
//! side, the live view) handed to JavaScript as typed arrays, read without copying the whole
//! state each frame; a typed question played as the next round (`ask`). SPEC §9, §12.

use super::convert::{js_err, to_js, JsResult};
use super::dataset::JsDataset;
use super::params::params_from_js;
use super::simulation::{live_run_fits, JsPolicyIds};
use super::types::JsPartialParams;
use crate::error::Error;
use crate::live::{Frame, FrameEvent, LiveRun, PlayedRound};
use crate::online::PolicyKind;
use crate::stream::{resolve_arrival, ArrivalSpec};
use wasm_bindgen::prelude::*;

/// The `arrival` argument of `OnlineRun`: a model name or an [`ArrivalSpec`] object; `None` when
/// left out (`undefined`/`null`).
pub(crate) fn arrival_from_js(v: JsValue) -> JsResult<Option<ArrivalSpec>> {
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
    <ArrivalSpec as crate::json::FromJson>::from_json_value(&j).map(Some).map_err(|e| bad(&e))
}

/// One seeded stream, its evaluation sample and oracle, and policies playing it side by side:
/// the engine's [`LiveRun`], handed to JavaScript.
#[wasm_bindgen(js_name = OnlineRun)]
pub struct JsOnlineRun {
    live: LiveRun,
}

impl JsOnlineRun {
    /// Policy `i`'s centers as a `CenterDetails`.
    fn centers_js(&mut self, i: usize) -> JsResult<JsValue> {
        let (details, xy) = self.live.centers(i).map_err(js_err)?;
        let col = |f: &dyn Fn(&crate::online::CenterInfo) -> f64| {
            js_sys::Float64Array::from(&details.iter().map(f).collect::<Vec<_>>()[..])
        };
        let keys: Vec<u64> = details.iter().map(|c| c.key).collect();
        let cached: Vec<u8> = details.iter().map(|c| c.cached as u8).collect();
        Ok(super::convert::Obj::new()
            .set("keys", keys_js(&keys))
            .set("xy", js_sys::Float64Array::from(&xy[..]))
            .set("count", col(&|c| c.count as f64))
            .set("weight", col(&|c| c.weight))
            .set("estimate", col(&|c| c.estimate))
            .set("actingCost", col(&|c| c.acting_cost))
            .set("sd", col(&|c| c.sd))
            .set("cached", js_sys::Uint8Array::from(&cached[..]))
            .set("contribution", col(&|c| c.contribution))
            .build())
    }

    /// A frame as the fields of a `LiveFrame`: its rounds, events, counters and new curve points,
    /// every policy's centers and, with `heat_n` ≥ 2 on 2-D data, its cost surface.
    fn frame_js(&mut self, frame: &Frame, heat_n: usize) -> JsResult<super::convert::Obj> {
        let n = self.live.policies().len();
        let mut batch = StepBatch::new(frame.rounds.len(), n);
        for r in &frame.rounds {
            batch.round(r);
        }
        let centers = js_sys::Array::new();
        let curves = js_sys::Array::new();
        for (i, new) in frame.curves.iter().enumerate() {
            centers.push(&self.centers_js(i)?);
            curves.push(&curves_js(new));
        }
        let heat = if heat_n >= 2 && self.live.dataset().points.dim() == 2 {
            let all = js_sys::Array::new();
            for i in 0..n {
                // Policies without a kernel model have no surface.
                all.push(&self.live.heatmap(i, heat_n).map_or(JsValue::NULL, |h| heatmap_js(&h)));
            }
            all.into()
        } else {
            JsValue::NULL
        };
        Ok(batch
            .into_obj()?
            .set("round", frame.round as f64)
            .set("counters", to_js(&frame.counters)?)
            .set("curves", curves)
            .set("centers", centers)
            .set("heat", heat))
    }

    fn policy_index(&self, p: f64) -> JsResult<usize> {
        let i = super::convert::whole("policy", p, 0)?;
        self.live.policy(i).map_err(js_err)?;
        Ok(i)
    }
}

/// Round keys as a `Uint32Array`.
fn keys_js(keys: &[u64]) -> js_sys::Uint32Array {
    js_sys::Uint32Array::from(&keys.iter().map(|&k| k as u32).collect::<Vec<_>>()[..])
}

/// A cache as a `CacheView`.
fn cache_js((keys, xy): (Vec<u64>, Vec<f64>)) -> JsValue {
    super::convert::Obj::new()
        .set("keys", keys_js(&keys))
        .set("xy", js_sys::Float64Array::from(&xy[..]))
        .build()
}

#[wasm_bindgen(js_class = OnlineRun)]
impl JsOnlineRun {
    /// Generates the stream of `params` (its `seed`, `horizon`, …) on `dataset`, its evaluation
    /// sample and the oracle `M_orc`, and sets up each policy in `policies` (ids such as
    /// `"clcb-sc-ls-cont"`). The oracle costs O(T·n_eval) distance evaluations: keep `n_eval`
    /// moderate for a live view.
    ///
    /// `arrival` chooses the arrival model (SPEC §7; docs/USAGE.md, "Your own data"): a name
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
        live_run_fits(&params, d.points.dim())?;
        let ids: Vec<String> = serde_wasm_bindgen::from_value(policies.into())
            .map_err(|e| js_err(Error::parse(format!("policies must be an array of ids: {e}"))))?;
        let kinds =
            ids.iter().map(|s| PolicyKind::parse(s)).collect::<Result<Vec<_>, _>>().map_err(js_err)?;
        if kinds.is_empty() {
            return Err(js_err(Error::param("policies", "name at least one policy")));
        }
        let projection = if d.points.dim() == 2 { None } else { Some(dataset.fitted_projection()?.clone()) };
        let live =
            LiveRun::new(d, projection, model, &params.check().map_err(js_err)?, &kinds).map_err(js_err)?;
        Ok(JsOnlineRun { live })
    }

    /// The horizon `T`.
    #[wasm_bindgen(getter)]
    pub fn horizon(&self) -> usize {
        self.live.horizon()
    }

    /// Rounds played so far.
    #[wasm_bindgen(getter)]
    pub fn round(&self) -> usize {
        self.live.round()
    }

    /// The policies' paper names, in order.
    #[wasm_bindgen(getter)]
    pub fn policies(&self) -> Vec<String> {
        self.live.policies().iter().map(|k| k.label().to_string()).collect()
    }

    /// Per policy, what its acting cost is (`AskResult.actingSymbol`): `"c̲"` (a lower
    /// confidence bound: the CLCB family), `"ĉ"` (a center's mean cost: the baselines), `""`
    /// for policies that decide otherwise.
    #[wasm_bindgen(getter, js_name = actingSymbols)]
    pub fn acting_symbols(&self) -> Vec<String> {
        self.live.policies().iter().map(|k| acting_symbol(*k, true).to_string()).collect()
    }

    /// Per policy, how it chooses its cache among its ε-net's centers, with the run's `k` ("kept
    /// 10 others"): why a center it does not cache is left out (a center's details in the live
    /// view). Empty for a policy without ε-net centers.
    #[wasm_bindgen(getter, js_name = cacheRules)]
    pub fn cache_rules(&self) -> Vec<String> {
        self.live.cache_rules()
    }

    /// What the live view's picture is, in one line for its canvas: "2-D PCA of 384-d embeddings:
    /// keeps 6% of the variance; nearby points here may be far apart" (the variance the dataset's
    /// projection keeps, measured), or on 2-D data the space itself.
    #[wasm_bindgen(getter)]
    pub fn caption(&self) -> String {
        self.live.caption()
    }

    /// `L(M_orc)` on the evaluation sample.
    #[wasm_bindgen(getter, js_name = oracleLoss)]
    pub fn oracle_loss(&self) -> f64 {
        self.live.oracle_loss()
    }

    /// `L(∅)` on the evaluation sample: the loss of sending every query to the LLM (its average
    /// regret is `L(∅) − L(M_orc)`), the live charts' "no cache" line.
    #[wasm_bindgen(getter, js_name = noCacheLoss)]
    pub fn no_cache_loss(&self) -> f64 {
        self.live.no_cache_loss()
    }

    /// The oracle's cache (keys are the rounds of its members' first arrival).
    #[wasm_bindgen(js_name = oracleCache, unchecked_return_type = "CacheView")]
    pub fn oracle_cache(&self) -> JsValue {
        cache_js(self.live.oracle_cache())
    }

    /// 2-D positions of the dataset's universe (for the background of the view).
    pub fn universe(&self) -> Vec<f64> {
        self.live.universe_xy()
    }

    /// Plays up to `n` more rounds for every policy (fewer at the end of the horizon) and returns
    /// one `LiveFrame`: what changed since the last frame (the rounds with their decisions and
    /// events, every policy's counters now, the curve points recorded since) and the views the
    /// page draws (each policy's ε-net centers; with `heatN` ≥ 2 on 2-D data, the KRR cost
    /// surfaces on an `heatN × heatN` grid, `heatN` ≤ 128). The page's one engine call per
    /// animation frame; `n = 0` draws the run as it stands.
    #[wasm_bindgen(unchecked_return_type = "LiveFrame")]
    pub fn step(
        &mut self,
        n: f64,
        #[wasm_bindgen(js_name = heatN, unchecked_optional_param_type = "number")] heat_n: JsValue,
    ) -> JsResult<JsValue> {
        let n = super::convert::whole("n", n, 0)?;
        let heat_n = match super::convert::optional(heat_n) {
            None => 0,
            Some(v) => {
                let h = v.as_f64().ok_or_else(|| js_err(Error::param("heatN", "must be a number")))?;
                super::convert::whole("heatN", h, 0)?
            }
        };
        if heat_n > 128 || heat_n == 1 {
            return Err(js_err(Error::param(
                "heatN",
                format!("the grid is 2 × 2 to 128 × 128 (0: none), got {heat_n}"),
            )));
        }
        let frame = self.live.step(n);
        Ok(self.frame_js(&frame, heat_n)?.build())
    }

    /// Plays the next round with a given arrival instead of the stream's ("Ask a question"): `x` a
    /// Float32Array or array of the dataset's dimension (e.g. an embedded question), `tokens` its
    /// GPT-2 token count, `text` its text (for `roundText`). Its cost is
    /// `c = c_floor + (1 − c_floor)·(tokens − min)/(max − min)` over the dataset's token counts
    /// (SPEC §2), clamped to `[c_floor, 1]`; an LLM call observes it with the round's planned noise
    /// `η_t`. Returns the round as a `LiveFrame` plus, per policy, the cache the question met, and
    /// the five nearest universe questions.
    #[wasm_bindgen(unchecked_return_type = "AskResult")]
    pub fn ask(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] x: JsValue,
        tokens: f64,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] text: JsValue,
    ) -> JsResult<JsValue> {
        if self.live.round() >= self.live.horizon() {
            return Err(js_err(Error::param("round", "the run has reached its horizon: no round is left")));
        }
        let x = super::convert::f32s("x", &x)?;
        let tokens = super::convert::whole("tokens", tokens, 0)?;
        let text = if text.is_undefined() || text.is_null() {
            String::new()
        } else {
            text.as_string().ok_or_else(|| js_err(Error::param("text", "must be a string")))?
        };
        let asked = self.live.ask(x, tokens, text).map_err(js_err)?;
        let kinds = self.live.policies();
        let mismatch = self.live.environment().eval.mismatch;
        let p = &asked.round.policies;
        let before_key: Vec<i32> = p.iter().map(|r| r.why.before.map_or(-1, |(k, _)| k as i32)).collect();
        let before_d: Vec<f64> = p.iter().map(|r| r.why.before.map_or(f64::INFINITY, |(_, d)| d)).collect();
        let before_phi: Vec<f64> = before_d.iter().map(|&d| mismatch.phi(d)).collect();
        let before_size: Vec<u32> = p.iter().map(|r| r.why.before_size as u32).collect();
        let symbol = js_sys::Array::new();
        for (r, k) in p.iter().zip(&kinds) {
            symbol.push(&JsValue::from_str(acting_symbol(*k, r.why.acting_cost.is_some())));
        }
        let texts = js_sys::Array::new();
        for &(i, _) in &asked.universe {
            texts.push(&JsValue::from_str(&self.live.dataset().texts.get(i).cloned().unwrap_or_default()));
        }
        let idx: Vec<u32> = asked.universe.iter().map(|&(i, _)| i as u32).collect();
        let nd: Vec<f64> = asked.universe.iter().map(|&(_, v)| v).collect();
        let universe = super::convert::Obj::new()
            .set("index", js_sys::Uint32Array::from(&idx[..]))
            .set("d", js_sys::Float64Array::from(&nd[..]))
            .set("text", texts)
            .build();
        let frame = self.live.frame(vec![asked.round]);
        Ok(self
            .frame_js(&frame, 0)?
            .set("cost", asked.cost)
            .set("actingSymbol", symbol)
            .set("beforeKey", js_sys::Int32Array::from(&before_key[..]))
            .set("beforeD", js_sys::Float64Array::from(&before_d[..]))
            .set("beforePhi", js_sys::Float64Array::from(&before_phi[..]))
            .set("beforeSize", js_sys::Uint32Array::from(&before_size[..]))
            .set("universe", universe)
            .build())
    }

    /// The question of a played round, for hovering a center or an arrival: an asked question's
    /// text, the universe text of an exact arrival, else `"≈ "` and the nearest universe text
    /// (perturbed arrivals); `undefined` for an unplayed round or a dataset without texts.
    #[wasm_bindgen(js_name = roundText)]
    pub fn round_text(&self, round: f64) -> JsResult<Option<String>> {
        let r = super::convert::whole("round", round, 0)?;
        Ok(self.live.round_text(r))
    }

    /// The gold answers (SPEC §14) of a played round's arrival, for hovering a served hit;
    /// `undefined` for an unplayed round, an asked question or data without ground truth.
    #[wasm_bindgen(js_name = roundAnswers)]
    pub fn round_answers(&self, round: f64) -> JsResult<Option<Vec<String>>> {
        let r = super::convert::whole("round", round, 0)?;
        Ok(self.live.round_answers(r))
    }

    /// Every policy's metrics now.
    #[wasm_bindgen(unchecked_return_type = "Checkpoint[]")]
    pub fn counters(&mut self) -> JsResult<JsValue> {
        to_js(&self.live.counters())
    }

    /// Policy `policy`'s current cache.
    #[wasm_bindgen(unchecked_return_type = "CacheView")]
    pub fn cache(&self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        Ok(cache_js(self.live.cache(i).map_err(js_err)?))
    }

    /// Policy `policy`'s ε-net centers with what it believes of each (empty without a net).
    #[wasm_bindgen(unchecked_return_type = "CenterDetails")]
    pub fn centers(&mut self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        self.centers_js(i)
    }

    /// Policy `policy`'s recorded curves (the whole history: the live view appends each
    /// `LiveFrame`'s new points instead).
    #[wasm_bindgen(unchecked_return_type = "Curves")]
    pub fn curves(&mut self, policy: f64) -> JsResult<JsValue> {
        let i = self.policy_index(policy)?;
        Ok(curves_js(&self.live.curves(i).map_err(js_err)?))
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
        Ok(heatmap_js(&self.live.heatmap(i, n).map_err(js_err)?))
    }

    /// Every policy's result so far (curves, last checkpoint, diagnostics) — for export.
    #[wasm_bindgen(unchecked_return_type = "RunResult[]")]
    pub fn results(&mut self) -> JsResult<JsValue> {
        to_js(&self.live.results())
    }

    /// The stream as a SPEC §12 trace (JSON text), so the run can be replayed elsewhere.
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> String {
        self.live.trace_json()
    }
}

/// Checkpoints as the columns of a `Curves`.
pub(crate) fn curves_js(cps: &[crate::online::sim::Checkpoint]) -> JsValue {
    let col = |f: &dyn Fn(&crate::online::sim::Checkpoint) -> f64| {
        js_sys::Float64Array::from(&cps.iter().map(f).collect::<Vec<_>>()[..])
    };
    super::convert::Obj::new()
        .set("t", col(&|c| c.t as f64))
        .set("avgRegret", col(&|c| c.avg_regret))
        .set("switches", col(&|c| c.switches as f64))
        .set("avgRealisedCost", col(&|c| c.avg_realised_cost))
        .set("hitRate", col(&|c| c.hit_rate))
        .set("loss", col(&|c| c.loss))
        .set("estRmse", col(&|c| c.est_rmse.unwrap_or(f64::NAN)))
        .build()
}

/// A cost surface as a `Heatmap`.
fn heatmap_js(h: &crate::live::Heatmap) -> JsValue {
    super::convert::Obj::new()
        .set("n", h.n as f64)
        .set("mean", js_sys::Float64Array::from(&h.mean[..]))
        .set("sd", js_sys::Float64Array::from(&h.sd[..]))
        .build()
}

/// The symbol of a policy's acting cost (`has`: whether the round had one).
fn acting_symbol(kind: PolicyKind, has: bool) -> &'static str {
    match (has, kind.acts_on_lcb()) {
        (false, _) => "",
        (true, true) => "c̲",
        (true, false) => "ĉ",
    }
}

/// The rounds of a frame as the typed arrays of a `LiveFrame`: per round its number and
/// projected point, per round and policy (row-major) the center, the decision, whether it
/// switched, what it cost and what it compared; the events, sparse (most rounds fire none).
struct StepBatch {
    t: Vec<u32>,
    xy: Vec<f64>,
    center: Vec<i32>,
    llm: Vec<u8>,
    switched: Vec<u8>,
    realised: Vec<f64>,
    wrong: Vec<i8>,
    nearest: Vec<i32>,
    d: Vec<f64>,
    phi: Vec<f64>,
    acting: Vec<f64>,
    events: Vec<FrameEvent>,
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
            nearest: Vec::with_capacity(n),
            d: Vec::with_capacity(n),
            phi: Vec::with_capacity(n),
            acting: Vec::with_capacity(n),
            events: Vec::new(),
        }
    }

    fn round(&mut self, r: &PlayedRound) {
        self.t.push(r.t as u32);
        self.xy.extend(r.xy);
        for p in &r.policies {
            let (o, why) = (&p.outcome, &p.why);
            let at = self.llm.len() as u32;
            self.center.push(why.center.map_or(-1, |c| c as i32));
            self.llm.push(o.llm as u8);
            self.switched.push(o.switched as u8);
            self.realised.push(o.realised);
            self.wrong.push(o.wrong.map_or(-1, i8::from));
            self.nearest.push(why.nearest.map_or(-1, |(k, _)| k as i32));
            self.d.push(why.nearest.map_or(f64::INFINITY, |(_, d)| d));
            self.phi.push(o.phi);
            self.acting.push(why.acting_cost.unwrap_or(f64::NAN));
            self.events.extend(p.events.iter().map(|e| FrameEvent { at, event: e.clone() }));
        }
    }

    fn into_obj(self) -> JsResult<super::convert::Obj> {
        Ok(super::convert::Obj::new()
            .set("t", js_sys::Uint32Array::from(&self.t[..]))
            .set("xy", js_sys::Float64Array::from(&self.xy[..]))
            .set("center", js_sys::Int32Array::from(&self.center[..]))
            .set("llm", js_sys::Uint8Array::from(&self.llm[..]))
            .set("switched", js_sys::Uint8Array::from(&self.switched[..]))
            .set("realised", js_sys::Float64Array::from(&self.realised[..]))
            .set("wrong", js_sys::Int8Array::from(&self.wrong[..]))
            .set("nearestKey", js_sys::Int32Array::from(&self.nearest[..]))
            .set("d", js_sys::Float64Array::from(&self.d[..]))
            .set("phi", js_sys::Float64Array::from(&self.phi[..]))
            .set("acting", js_sys::Float64Array::from(&self.acting[..]))
            .set("events", to_js(&self.events)?))
    }
}
