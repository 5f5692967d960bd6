//! KRR from scratch (SPEC §6), and Reverse Greedy as written (Alg. 1), both timed.

use csc_engine::mismatch::Mismatch;
use csc_engine::reverse_greedy::{reverse_greedy_plain, Instance};
use csc_engine::space::{DistanceMatrix, Metric};
use nalgebra::DMatrix;
use std::cell::Cell;
use std::time::Instant;

/// `κ(x, y) = exp(−d(x, y)² / (2ℓ_k²))`.
pub(super) fn kernel(metric: &Metric, len: f64, x: &[f32], y: &[f32]) -> f64 {
    let d = metric.dist(x, y);
    (-(d * d) / (2.0 * len * len)).exp()
}

/// A KRR posterior `(ĉ, σ²)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Post {
    pub(super) mean: f64,
    pub(super) var: f64,
}

/// The Gram matrix `K = [κ(z_i, z_j)]` of the observations (Alg. 4 line 5), formed from scratch.
pub(super) fn gram(metric: &Metric, len: f64, obs: &[Vec<f32>]) -> DMatrix<f64> {
    let n = obs.len();
    let mut k = DMatrix::<f64>::zeros(n, n);
    for i in 0..n {
        k[(i, i)] = kernel(metric, len, &obs[i], &obs[i]);
        for j in 0..i {
            let v = kernel(metric, len, &obs[i], &obs[j]);
            k[(i, j)] = v;
            k[(j, i)] = v;
        }
    }
    k
}

/// `γ = ½ log det(I + K/λ)` (Alg. 4 line 11) by a dense Cholesky of `I + K/λ`: `Σ ln L_ii`.
/// 0 with no observations.
pub(super) fn gamma_from_scratch(k: &DMatrix<f64>, lambda: f64) -> f64 {
    let n = k.nrows();
    if n == 0 {
        return 0.0;
    }
    let t0 = Instant::now();
    let g = DMatrix::<f64>::identity(n, n) + k / lambda;
    let ch = g.cholesky().expect("I + K/λ is positive definite");
    let gamma = ch.l_dirty().diagonal().iter().map(|d| d.ln()).sum::<f64>();
    KRR_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    gamma
}

thread_local! {
    /// Time spent in KRR solves and in Reverse Greedy by this thread's plain runs (ms), and the
    /// Reverse Greedy work done ([`rg_units`]).
    pub(super) static KRR_MS: Cell<f64> = const { Cell::new(0.0) };
    pub(super) static RG_MS: Cell<f64> = const { Cell::new(0.0) };
    pub(super) static RG_UNITS: Cell<f64> = const { Cell::new(0.0) };
}

/// The work of one `reverse_greedy_plain` call on `n` candidates with cache size `k`, in inner
/// iterations of eq. 4: each removal from `s` members evaluates `L̂(M \ {q})` for all `s`
/// candidates `q`, each a pass over the `n` points and the `s − 1` remaining members, so
/// `n · Σ_{s=k+1}^{n} s(s − 1)` (≈ n⁴/3).
pub fn rg_units(n: usize, k: usize) -> f64 {
    (k + 1..=n).map(|s| (n * s * (s - 1)) as f64).sum()
}

/// Reverse Greedy (Alg. 1 as written, `reverse_greedy_plain`), timed.
pub(super) fn reverse_greedy_timed(
    dists: &DistanceMatrix,
    weights: &[f64],
    costs: &[f64],
    mismatch: Mismatch,
    k: usize,
    incumbent: &[usize],
) -> Vec<usize> {
    let t0 = Instant::now();
    let inst = Instance::new(dists, weights, costs, mismatch).expect("finite instance");
    let cache = reverse_greedy_plain(&inst, k, incumbent).cache;
    RG_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    RG_UNITS.with(|c| c.set(c.get() + rg_units(dists.len(), k)));
    cache
}

/// The KRR posterior at each of `points` and `γ = ½ log det(I + K/λ)`, solved from scratch on the
/// observations `(obs, y)` (Alg. 4 lines 4–10 and 11): `ĉ(u) = κ_uᵀ(K + λI)⁻¹y`,
/// `σ²(u) = κ(u,u) − κ_uᵀ(K + λI)⁻¹κ_u` clamped into `[0, κ(u,u)]` (SPEC §11.3). With no
/// observations every posterior is the prior `(0, 1)` and `γ = 0`.
pub(super) fn krr_from_scratch(
    metric: &Metric,
    len: f64,
    lambda: f64,
    obs: &[Vec<f32>],
    y: &[f64],
    points: &[&[f32]],
) -> (Vec<Post>, f64) {
    let n = obs.len();
    if n == 0 {
        return (vec![Post { mean: 0.0, var: 1.0 }; points.len()], 0.0);
    }
    let t0 = Instant::now();
    // Alg. 4 line 5: the Gram matrix K_{t−1}.
    let k = gram(metric, len, obs);
    // Right-hand sides: y, then κ_u for every point asked about (Alg. 4 line 7).
    let m = points.len();
    let mut rhs = DMatrix::<f64>::zeros(n, m + 1);
    for i in 0..n {
        rhs[(i, 0)] = y[i];
        for (c, u) in points.iter().enumerate() {
            rhs[(i, c + 1)] = kernel(metric, len, &obs[i], u);
        }
    }
    // Alg. 4 lines 9–10: one dense factorisation of K + λI, solved for y and every κ_u.
    let a = &k + DMatrix::<f64>::identity(n, n) * lambda;
    let sol = a.cholesky().expect("K + λI is positive definite").solve(&rhs);
    let posts = points
        .iter()
        .enumerate()
        .map(|(c, u)| {
            let k_self = kernel(metric, len, u, u);
            let (mut mean, mut quad) = (0.0, 0.0);
            for i in 0..n {
                mean += rhs[(i, c + 1)] * sol[(i, 0)];
                quad += rhs[(i, c + 1)] * sol[(i, c + 1)];
            }
            Post { mean, var: (k_self - quad).max(0.0).min(k_self) }
        })
        .collect();
    KRR_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    // Alg. 4 line 11: γ_t from the same K (SPEC §11.3).
    (posts, gamma_from_scratch(&k, lambda))
}
