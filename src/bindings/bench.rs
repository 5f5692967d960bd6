//! Benchmark-only exports (the browser half of `scripts/bench.sh`, driven by `www/js/bench-worker.js`):
//! the same workloads as the native `examples/online_profile.rs` and `benches/engine.rs`, split so
//! that JavaScript can time each part with `performance.now()` — the set-up in the constructor,
//! the measured step in a method. Nothing here is used by the playground itself.

use super::convert::{js_err, string, to_js, whole, JsResult};
use super::dataset::JsDataset;
use super::params::params_from_js;
use super::types::JsPartialParams;
use crate::config::Checked;
use crate::error::Error;
use crate::krr::{Krr, RbfKernel};
use crate::mismatch::Mismatch;
use crate::online::sim::{Environment, Simulation};
use crate::online::PolicyKind;
use crate::reverse_greedy::{reverse_greedy, Instance};
use crate::space::{diameter, DistanceMatrix, Metric};
use crate::stream::{generate_trace, ArrivalModel};
use crate::trace::Trace;
use crate::workloads::{clustered, weights_costs, DIM};
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_BENCH: &'static str = r#"
/** One policy run to the horizon by `BenchOnline.run` (what `examples/online_profile` prints). */
export interface BenchPolicyRun {
  policy: string; policyId: string; avgRegret: number; switches: number; llmCalls: number;
  diagnostics: Record<string, number> | null;
}
/** What `BenchReverseGreedy.run` returned: the cache's size and its discretised loss. */
export interface BenchCache { size: number; loss: number; }
"#;

/// One seeded trace with its evaluation sample and oracle, as `examples/online_profile.rs`
/// builds it; each online policy is then run on it to the horizon, one at a time.
#[wasm_bindgen(js_name = BenchOnline)]
pub struct JsBenchOnline {
    env: Arc<Environment>,
    trace: Trace,
    params: Checked,
}

impl JsBenchOnline {
    /// `BenchOnline.run` with typed arguments, for Rust callers (the export checks each JS argument's type,
    /// then calls this).
    pub fn run(&self, policy: &str) -> JsResult<JsValue> {
        let kind = PolicyKind::parse(policy).map_err(js_err)?;
        let mut sim = Simulation::new(self.env.clone(), kind, &self.params, 0).map_err(js_err)?;
        for t in 0..self.trace.horizon() {
            sim.step(&self.trace.arrival(t));
        }
        let r = sim.result();
        to_js(&serde_json::json!({
            "policy": crate::algorithms::name_of(&r.policy).unwrap_or(&r.policy), "policyId": r.policy, "avgRegret": r.last.avg_regret,
            "switches": r.last.switches, "llmCalls": r.last.llm_calls, "diagnostics": r.diagnostics,
        }))
    }
}

#[wasm_bindgen(js_class = BenchOnline)]
impl JsBenchOnline {
    /// Generates the trace of `params` on `dataset` and the evaluation oracle (the set-up that
    /// `online_profile` reports as "trace + oracle").
    #[wasm_bindgen(constructor)]
    pub fn new(dataset: &JsDataset, params: Option<JsPartialParams>) -> JsResult<JsBenchOnline> {
        let params = params_from_js(params.map(JsValue::from))?.check().map_err(js_err)?;
        super::simulation::live_run_fits(&params, dataset.inner().points.dim())?;
        let d = dataset.inner().clone();
        let trace =
            generate_trace(d.clone(), ArrivalModel::default_for(&d, &params).map_err(js_err)?, &params)
                .map_err(js_err)?;
        let env = Arc::new(Environment::from_trace(&trace, &params).map_err(js_err)?);
        Ok(JsBenchOnline { env, trace, params })
    }

    /// The horizon `T`.
    #[wasm_bindgen(getter)]
    pub fn horizon(&self) -> usize {
        self.trace.horizon()
    }

    /// `L(M_orc)` on the evaluation sample.
    #[wasm_bindgen(getter, js_name = oracleLoss)]
    pub fn oracle_loss(&self) -> f64 {
        self.env.oracle.loss
    }

    /// Grows the ε-net that the policies keeping one share over the whole trace (the "shared
    /// ε-net" line of `online_profile`, timed apart so that no policy's run includes it); returns
    /// its number of centers.
    #[wasm_bindgen(js_name = growNet)]
    pub fn grow_net(&self) -> JsResult<usize> {
        let mut row = Vec::new();
        let mut centers = 0;
        for t in 0..self.trace.horizon() {
            let a = self.trace.arrival(t);
            let step =
                self.env.shared_net().assign(self.params.epsilon, self.env.metric, t, a.x, a.index, &mut row);
            let step =
                step.ok_or_else(|| js_err(Error::unsupported("the shared ε-net was grown already")))?;
            centers += usize::from(step.0.is_new);
        }
        Ok(centers)
    }

    /// Sets up the policy `policy` (an id such as `"greedy"`) and plays every round of the trace.
    #[wasm_bindgen(js_name = run, unchecked_return_type = "BenchPolicyRun")]
    pub fn run_js(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] policy: JsValue,
    ) -> JsResult<JsValue> {
        self.run(&string("policy", &policy)?)
    }
}

/// The `reverse_greedy/fast/m` instance of `benches/engine.rs` (clustered 384-d points, seed 1):
/// the constructor generates it and builds its distance matrix (`distance_matrix/build/m`).
#[wasm_bindgen(js_name = BenchReverseGreedy)]
pub struct JsBenchReverseGreedy {
    dist: DistanceMatrix,
    weights: Vec<f64>,
    costs: Vec<f64>,
}

#[wasm_bindgen(js_class = BenchReverseGreedy)]
impl JsBenchReverseGreedy {
    /// Generates `m` candidates and their distance matrix (m ≤ 10,000).
    #[wasm_bindgen(constructor)]
    pub fn new(m: f64) -> JsResult<JsBenchReverseGreedy> {
        let m = whole("m", m, 1)?;
        if m > 10_000 {
            return Err(js_err(Error::param("m", format!("at most 10,000 candidates, got {m}"))));
        }
        let pts = clustered(m, 1);
        let metric = Metric::new(diameter(&pts)).map_err(js_err)?;
        let dist = DistanceMatrix::from_points(&pts, &metric);
        let (weights, costs) = weights_costs(m, 1);
        Ok(JsBenchReverseGreedy { dist, weights, costs })
    }

    /// Reverse Greedy (fast form) down to `k` members, no incumbent.
    #[wasm_bindgen(unchecked_return_type = "BenchCache")]
    pub fn run(&self, k: f64) -> JsResult<JsValue> {
        let k = whole("k", k, 1)?;
        let inst =
            Instance::new(&self.dist, &self.weights, &self.costs, Mismatch::default()).map_err(js_err)?;
        let o = reverse_greedy(&inst, k, &[]);
        to_js(&serde_json::json!({ "size": o.cache.len(), "loss": o.loss }))
    }
}

/// The `krr/add_one_refresh_500_tracked/ℓ` instance of `benches/engine.rs`: a learner (ridge 0.1,
/// default RBF kernel) tracking `tracked` centers, grown to `ℓ − 1` observations with a refresh
/// after each; `prepare` copies that state, `addOne` adds the `ℓ`-th observation and refreshes
/// every center (the timed step, without the copy).
#[wasm_bindgen(js_name = BenchKrr)]
pub struct JsBenchKrr {
    base: Krr,
    work: Option<Krr>,
    fresh: bool,
    last: Vec<f32>,
    y: f64,
}

#[wasm_bindgen(js_class = BenchKrr)]
impl JsBenchKrr {
    /// Builds the `ℓ − 1` state (`l` ≤ 5,000, `tracked` ≤ 5,000).
    #[wasm_bindgen(constructor)]
    pub fn new(l: f64, tracked: f64) -> JsResult<JsBenchKrr> {
        let (l, tracked) = (whole("l", l, 1)?, whole("tracked", tracked, 0)?);
        if l > 5_000 || tracked > 5_000 {
            return Err(js_err(Error::param("l", "at most 5,000 observations and 5,000 tracked centers")));
        }
        let all = clustered(l + tracked, 2);
        let metric = Metric::new(diameter(&all)).map_err(js_err)?;
        let (_, y) = weights_costs(l, 2);
        let mut base = Krr::new(RbfKernel::default(), metric, 0.1, DIM).map_err(js_err)?;
        for j in l..l + tracked {
            base.track(all.row(j));
        }
        for (j, &yj) in y.iter().enumerate().take(l - 1) {
            base.add_observation(all.row(j), yj).map_err(js_err)?;
            base.refresh_all();
        }
        Ok(JsBenchKrr { base, work: None, fresh: false, last: all.row(l - 1).to_vec(), y: y[l - 1] })
    }

    /// Copies the `ℓ − 1` state for the next `addOne` and makes room in it for one more row
    /// (as `benches/engine.rs` does; not part of the timed step).
    pub fn prepare(&mut self) {
        let mut work = self.base.clone();
        work.reserve(1);
        self.work = Some(work);
        self.fresh = true;
    }

    /// Adds the `ℓ`-th observation to the prepared copy and refreshes every tracked center;
    /// returns the number of observations. The copy is freed by the next `prepare` (untimed).
    #[wasm_bindgen(js_name = addOne)]
    pub fn add_one(&mut self) -> JsResult<usize> {
        let krr = match (&mut self.work, self.fresh) {
            (Some(k), true) => k,
            _ => return Err(js_err(Error::unsupported("call prepare() before each addOne()"))),
        };
        self.fresh = false;
        krr.add_observation(&self.last, self.y).map_err(js_err)?;
        krr.refresh_all();
        Ok(krr.n_obs())
    }
}
