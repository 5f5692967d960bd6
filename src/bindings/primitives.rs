//! The engine's primitives as plain functions: the ε-net, Reverse Greedy, the exact optimum, the
//! two losses and the KRR posterior. Points are flat row-major `Float32Array`s with their
//! dimension `dim`; distances are `‖x − y‖ / distScale` (SPEC §1).

use super::convert::{
    dimension, f32s, f64s, indices, js_err, metric, mismatch, optional, per_point, to_points, u32s, u32s_in,
    unit_costs, whole, JsResult, Obj,
};
use super::types::JsPhi;
use crate::epsilon_net::EpsilonNet;
use crate::error::Error;
use crate::krr::{Krr, RbfKernel};
use crate::loss::expected_loss as loss_expected;
use crate::reverse_greedy::{self, Instance, Outcome};
use crate::space::{DistanceMatrix, Points};
use wasm_bindgen::prelude::*;

/// Largest number of candidates the quadratic-memory functions (`reverseGreedy`,
/// `discretisedLoss`) accept: their distance matrix then takes 8 · 4,096² bytes = 128 MiB.
const MAX_CANDIDATES: usize = 4_096;

/// Largest number of observations `krrPosterior` accepts: its Cholesky factor then takes
/// 8 · 5,000²/2 bytes = 100 MB (the online horizon's default is 5,000 rounds).
const MAX_OBSERVATIONS: usize = 5_000;

/// Builds the greedy ε-net over `points` in arrival order (SPEC §4, §11.1): a point becomes a new
/// center iff its distance to every existing center is `> eps`, otherwise it joins its nearest
/// center (ties to the lowest index).
#[wasm_bindgen(js_name = epsilonNet, unchecked_return_type = "EpsilonNetResult")]
pub fn epsilon_net_js(
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] points: JsValue,
    dim: f64,
    eps: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
) -> JsResult<JsValue> {
    epsilon_net(&f32s("points", &points)?, dim, eps, dist_scale)
}

/// `epsilonNet` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn epsilon_net(points: &[f32], dim: f64, eps: f64, dist_scale: f64) -> JsResult<JsValue> {
    let p = to_points("points", points, dimension(dim)?, false)?;
    let (net, assignments) = EpsilonNet::build(&p, eps, metric(dist_scale)?).map_err(js_err)?;
    let assignment: Vec<usize> = assignments.iter().map(|a| a.center).collect();
    let distances: Vec<f64> = assignments.iter().map(|a| a.distance).collect();
    Ok(Obj::new()
        .set("centers", u32s(net.origin()))
        .set("assignment", u32s(&assignment))
        .set("distances", js_sys::Float64Array::from(&distances[..]))
        .set("cells", u32s(&net.voronoi_cells(&p)))
        .build())
}

/// A validated candidate set with its distance matrix, weights and costs.
struct Problem {
    dist: DistanceMatrix,
    weights: Vec<f64>,
    costs: Vec<f64>,
    n: usize,
}

fn problem(points: &[f32], dim: f64, dist_scale: f64, weights: &[f64], costs: &[f64]) -> JsResult<Problem> {
    let p: Points = to_points("points", points, dimension(dim)?, false)?;
    let n = p.len();
    if n > MAX_CANDIDATES {
        return Err(js_err(Error::unsupported(format!(
            "at most {MAX_CANDIDATES} candidate points are accepted here (got {n}); thin them with epsilonNet first"
        ))));
    }
    per_point("weights", weights, n, "points")?;
    per_point("costs", costs, n, "points")?;
    unit_costs("costs", costs)?;
    let dist = DistanceMatrix::from_points(&p, &metric(dist_scale)?);
    Ok(Problem { dist, weights: weights.to_vec(), costs: costs.to_vec(), n })
}

fn outcome(o: &Outcome) -> JsValue {
    Obj::new().set("cache", u32s(&o.cache)).set("loss", o.loss).set("removed", u32s(&o.removed)).build()
}

/// Continuous Reverse Greedy (Alg. 1, SPEC §5): starts from every point and removes, while more
/// than `k` remain, the one whose removal raises `L̂(M) = Σ_i w_i·min(c_i, φ(d(x_i, M)))` least.
/// Among equal removals it keeps members of `incumbent` (the cache currently held), then removes
/// the lowest index. At most 4,096 points.
#[wasm_bindgen(js_name = reverseGreedy, unchecked_return_type = "CacheResult")]
#[allow(clippy::too_many_arguments)]
pub fn reverse_greedy_js(
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] points: JsValue,
    dim: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] weights: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] costs: JsValue,
    k: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "Phi | null")] phi: Option<JsPhi>,
    #[wasm_bindgen(unchecked_optional_param_type = "Uint32Array | number[] | null")] incumbent: JsValue,
) -> JsResult<JsValue> {
    let (points, weights, costs) =
        (f32s("points", &points)?, f64s("weights", &weights)?, f64s("costs", &costs)?);
    let incumbent = optional(incumbent).map(|v| u32s_in("incumbent", &v)).transpose()?;
    reverse_greedy(&points, dim, dist_scale, &weights, &costs, k, phi, incumbent)
}

/// `reverseGreedy` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
#[allow(clippy::too_many_arguments)]
pub fn reverse_greedy(
    points: &[f32],
    dim: f64,
    dist_scale: f64,
    weights: &[f64],
    costs: &[f64],
    k: f64,
    phi: Option<JsPhi>,
    incumbent: Option<Vec<u32>>,
) -> JsResult<JsValue> {
    let pr = problem(points, dim, dist_scale, weights, costs)?;
    let k = whole("k", k, 1)?;
    let incumbent = indices("incumbent", incumbent.as_deref().unwrap_or(&[]), pr.n)?;
    let inst = Instance::new(&pr.dist, &pr.weights, &pr.costs, mismatch(phi)?).map_err(js_err)?;
    Ok(outcome(&reverse_greedy::reverse_greedy(&inst, k, &incumbent)))
}

/// The exact optimum `argmin_{|M| ≤ k} L̂(M)` by enumeration (SPEC §5), for at most 25 points;
/// ties go to the lexicographically smallest cache. `removed` is empty.
#[wasm_bindgen(js_name = exactOptimum, unchecked_return_type = "CacheResult")]
pub fn exact_optimum_js(
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] points: JsValue,
    dim: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] weights: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] costs: JsValue,
    k: f64,
    phi: Option<JsPhi>,
) -> JsResult<JsValue> {
    let (points, weights, costs) =
        (f32s("points", &points)?, f64s("weights", &weights)?, f64s("costs", &costs)?);
    exact_optimum(&points, dim, dist_scale, &weights, &costs, k, phi)
}

/// `exactOptimum` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn exact_optimum(
    points: &[f32],
    dim: f64,
    dist_scale: f64,
    weights: &[f64],
    costs: &[f64],
    k: f64,
    phi: Option<JsPhi>,
) -> JsResult<JsValue> {
    let pr = problem(points, dim, dist_scale, weights, costs)?;
    let k = whole("k", k, 1)?;
    let inst = Instance::new(&pr.dist, &pr.weights, &pr.costs, mismatch(phi)?).map_err(js_err)?;
    Ok(outcome(&reverse_greedy::exact_optimum(&inst, k).map_err(js_err)?))
}

/// The discretised loss (eq. 4) of the cache `cache` (indices into `points`):
/// `L̂ = Σ_i w_i · min(c_i, φ(d(x_i, cache)))`; an empty cache costs `Σ_i w_i·min(c_i, 1)`.
#[wasm_bindgen(js_name = discretisedLoss)]
#[allow(clippy::too_many_arguments)]
pub fn discretised_loss_js(
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] points: JsValue,
    dim: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] weights: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] costs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint32Array | number[]")] cache: JsValue,
    phi: Option<JsPhi>,
) -> JsResult<f64> {
    let (points, weights, costs) =
        (f32s("points", &points)?, f64s("weights", &weights)?, f64s("costs", &costs)?);
    discretised_loss(&points, dim, dist_scale, &weights, &costs, &u32s_in("cache", &cache)?, phi)
}

/// `discretisedLoss` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
#[allow(clippy::too_many_arguments)]
pub fn discretised_loss(
    points: &[f32],
    dim: f64,
    dist_scale: f64,
    weights: &[f64],
    costs: &[f64],
    cache: &[u32],
    phi: Option<JsPhi>,
) -> JsResult<f64> {
    let pr = problem(points, dim, dist_scale, weights, costs)?;
    let cache = indices("cache", cache, pr.n)?;
    let inst = Instance::new(&pr.dist, &pr.weights, &pr.costs, mismatch(phi)?).map_err(js_err)?;
    Ok(inst.loss(&cache))
}

/// The expected loss (eq. 2) on an evaluation sample with its true costs:
/// `L(M) = (1/|E|) Σ_{x∈E} min(c(x), φ(d(x, M)))`, the cache `M` given as points (it may be empty).
#[wasm_bindgen(js_name = expectedLoss)]
pub fn expected_loss_js(
    #[wasm_bindgen(js_name = evalPoints, unchecked_param_type = "Float32Array | number[]")]
    eval_points: JsValue,
    #[wasm_bindgen(js_name = evalCosts, unchecked_param_type = "Float64Array | number[]")]
    eval_costs: JsValue,
    #[wasm_bindgen(js_name = cachePoints, unchecked_param_type = "Float32Array | number[]")]
    cache_points: JsValue,
    dim: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
    phi: Option<JsPhi>,
) -> JsResult<f64> {
    let eval_points = f32s("evalPoints", &eval_points)?;
    let eval_costs = f64s("evalCosts", &eval_costs)?;
    expected_loss(&eval_points, &eval_costs, &f32s("cachePoints", &cache_points)?, dim, dist_scale, phi)
}

/// `expectedLoss` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
pub fn expected_loss(
    eval_points: &[f32],
    eval_costs: &[f64],
    cache_points: &[f32],
    dim: f64,
    dist_scale: f64,
    phi: Option<JsPhi>,
) -> JsResult<f64> {
    let dim = dimension(dim)?;
    let eval = to_points("evalPoints", eval_points, dim, false)?;
    per_point("evalCosts", eval_costs, eval.len(), "evalPoints")?;
    unit_costs("evalCosts", eval_costs)?;
    let cache = to_points("cachePoints", cache_points, dim, true)?;
    Ok(loss_expected(&eval, eval_costs, &cache, &metric(dist_scale)?, &mismatch(phi)?))
}

/// The kernel ridge regression posterior (SPEC §6) of the observations `(obsPoints[j], y[j])`
/// with the RBF kernel `exp(−d²/(2·lengthScale²))` and ridge `r`: at each query point
/// `ĉ(x) = κ_xᵀ(K + rI)⁻¹y` and `σ(x) = √(1 − κ_xᵀ(K + rI)⁻¹κ_x)`, plus `γ = ½ log det(I + K/r)`.
/// With no observations: `ĉ = 0`, `σ = 1`, `γ = 0`. `jitterEvents` counts the pivots of the
/// Cholesky factor that had to be floored (duplicate points with a tiny ridge, huge
/// length-scales): the fit then belongs to `K + rI` plus that small diagonal jitter, stays finite,
/// and a caller can tell the user. (Offline Alg. 2 uses `r = ℓλ`, online
/// Alg. 4 `r = λ`.) At most 5,000 observations.
#[wasm_bindgen(js_name = krrPosterior, unchecked_return_type = "KrrPosterior")]
#[allow(clippy::too_many_arguments)]
pub fn krr_posterior_js(
    #[wasm_bindgen(js_name = obsPoints, unchecked_param_type = "Float32Array | number[]")]
    obs_points: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] y: JsValue,
    dim: f64,
    #[wasm_bindgen(js_name = distScale)] dist_scale: f64,
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] query: JsValue,
    #[wasm_bindgen(js_name = lengthScale)] length_scale: f64,
    ridge: f64,
) -> JsResult<JsValue> {
    let (obs_points, y, query) = (f32s("obsPoints", &obs_points)?, f64s("y", &y)?, f32s("query", &query)?);
    krr_posterior(&obs_points, &y, dim, dist_scale, &query, length_scale, ridge)
}

/// `krrPosterior` with typed arguments, for Rust callers (the export checks each JS argument's type,
/// then calls this).
#[allow(clippy::too_many_arguments)]
pub fn krr_posterior(
    obs_points: &[f32],
    y: &[f64],
    dim: f64,
    dist_scale: f64,
    query: &[f32],
    length_scale: f64,
    ridge: f64,
) -> JsResult<JsValue> {
    let dim = dimension(dim)?;
    let obs = to_points("obsPoints", obs_points, dim, true)?;
    if obs.len() > MAX_OBSERVATIONS {
        return Err(js_err(Error::unsupported(format!(
            "at most {MAX_OBSERVATIONS} observations are accepted here (got {})",
            obs.len()
        ))));
    }
    per_point("y", y, obs.len(), "obsPoints")?;
    let query = to_points("query", query, dim, true)?;
    let (lo, hi) = crate::config::KERNEL_LENGTH_RANGE;
    if !(lo..=hi).contains(&length_scale) {
        return Err(js_err(Error::param(
            "lengthScale",
            format!("the RBF length scale must lie in [{lo:e}, {hi:e}], got {length_scale}"),
        )));
    }
    let kernel = RbfKernel::new(length_scale).map_err(js_err)?;
    let krr = Krr::fit(kernel, metric(dist_scale)?, ridge, &obs, y).map_err(js_err)?;
    let (mean, sd): (Vec<f64>, Vec<f64>) = query
        .iter()
        .map(|x| {
            let p = krr.posterior_at(x);
            (p.mean, p.sd())
        })
        .unzip();
    Ok(Obj::new()
        .set("mean", js_sys::Float64Array::from(&mean[..]))
        .set("sd", js_sys::Float64Array::from(&sd[..]))
        .set("gamma", krr.gamma())
        .set("jitterEvents", krr.jitter_events() as f64)
        .build())
}
