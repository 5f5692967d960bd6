//! vCache's per-item model (SPEC §15, steps 3–4; Schroeder et al., "vCache: Verified Semantic
//! Prompt Caching", arXiv 2502.03771, Alg. 1 and its §4): the similarity `s`, the logistic fit
//! `P(correct | s) = σ(γ(s − t̂))` with the variance of `t̂`, and the exploration probability `τ`.
//!
//! Pure functions of an item's observations; every transcendental goes through
//! [`crate::portable`], so native and WebAssembly runs agree bit for bit.

use crate::portable;

/// An item needs this many observations before it is fitted (SPEC §15, step 2).
pub const MIN_OBSERVATIONS: usize = 6;
/// Points of the `ε` grid (SPEC §15, step 4).
pub const GRID_POINTS: usize = 50;
/// The grid's end points: `ε` runs from `1e-6` to `1 − 1e-6`.
pub const GRID_EDGE: f64 = 1e-6;
/// Newton–Raphson: at most this many iterations (SPEC §15, step 3).
pub const MAX_ITERATIONS: usize = 100;
/// Newton–Raphson stops when the step's max-norm is below this.
pub const STEP_TOLERANCE: f64 = 1e-10;
/// `H` is singular when the ratio of its eigenvalues exceeds this.
pub const MAX_CONDITION: f64 = 1e12;
/// `γ = max(b1, GAMMA_FLOOR)`.
pub const GAMMA_FLOOR: f64 = 1e-6;
/// `γ` of the separable case (SPEC §15, our convention).
pub const SEPARABLE_GAMMA: f64 = 100.0;

/// `Var(t̂)` of the separable case for `n = 6, 7, …, 48` observations (SPEC §15's table); more
/// than 48 use the last entry.
pub const SEPARABLE_VARIANCE: [f64; 43] = [
    0.035445, 0.028285, 0.026436, 0.021349, 0.019371, 0.012615, 0.011433, 0.010228, 0.009963, 0.009253,
    0.011674, 0.013015, 0.010897, 0.011841, 0.013081, 0.010585, 0.014255, 0.012058, 0.013002, 0.011715,
    0.00839, 0.008839, 0.010628, 0.009899, 0.008033, 0.00457, 0.007335, 0.008932, 0.00729, 0.007445, 0.00761,
    0.011423, 0.011233, 0.006783, 0.005233, 0.00872, 0.010005, 0.01199, 0.00977, 0.01891, 0.01513, 0.02109,
    0.01531,
];

/// `x` rounded to the decimals of `scale` (`1e3`: 3 decimals): `r(x·scale)/scale` with `r`
/// rounding halves away from zero (`f64::round`), SPEC §15 "Order and rounding".
#[inline]
pub fn round_to(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}

/// The cosine similarity of two L2-normalised rows at normalised distance `d` under distance
/// scale `D`: `s = 1 − (D·d)²/2`, rounded to 3 decimals (SPEC §15, "Similarity").
pub fn similarity(scale: f64, d: f64) -> f64 {
    let e = scale * d;
    round_to(1.0 - e * e / 2.0, 1e3)
}

/// One judged explore of an item: the similarity and whether serving the item would have been
/// correct (`y = 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    pub s: f64,
    pub correct: bool,
}

/// The fitted model of one item, as step 4 uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// `t̂`: rounded to 3 decimals and clipped to [0, 1] (delta-method case); the unrounded
    /// midpoint (separable case).
    pub t_hat: f64,
    /// `γ`, rounded to 3 decimals (100 in the separable case).
    pub gamma: f64,
    /// `Var(t̂)`.
    pub var: f64,
    /// Whether the separable convention was used.
    pub separable: bool,
}

/// Why an item could not be fitted: the round explores (SPEC §15, steps 2–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// Fewer than [`MIN_OBSERVATIONS`].
    TooFew,
    /// Only correct or only wrong observations.
    OneLabel,
    /// `det H ≤ 0` or its eigenvalue ratio above [`MAX_CONDITION`].
    Singular,
    /// A non-finite coefficient or variance.
    NonFinite,
    /// No convergence within [`MAX_ITERATIONS`].
    NoConvergence,
}

/// `H = Σ p(1−p)·z zᵀ` as `[h00, h01, h11]` and the score `Σ (y − p)·z` at `(b0, b1)`,
/// `z = (1, s)`, `p = σ(b0 + b1·s)`; sums in observation order.
fn information(obs: &[Observation], b0: f64, b1: f64) -> ([f64; 3], [f64; 2]) {
    let (mut h, mut g) = ([0.0; 3], [0.0; 2]);
    for o in obs {
        let p = portable::logistic(b0 + b1 * o.s);
        let w = p * (1.0 - p);
        let r = f64::from(u8::from(o.correct)) - p;
        h[0] += w;
        h[1] += w * o.s;
        h[2] += w * o.s * o.s;
        g[0] += r;
        g[1] += r * o.s;
    }
    (h, g)
}

/// `det H`, or `None` when `H` is singular in SPEC §15's sense: `det ≤ 0` or the ratio of its
/// eigenvalues `λ_max/λ_min = λ_max²/det` above [`MAX_CONDITION`] (or not finite).
fn regular_det(h: &[f64; 3]) -> Option<f64> {
    let det = h[0] * h[2] - h[1] * h[1];
    if det.is_nan() || det <= 0.0 || det.is_infinite() {
        return None;
    }
    let tr = h[0] + h[2];
    let lmax = (tr + (tr * tr - 4.0 * det).max(0.0).sqrt()) / 2.0;
    let cond = lmax * lmax / det;
    (cond.is_finite() && cond <= MAX_CONDITION).then_some(det)
}

/// The maximum-likelihood logistic fit `logit = b0 + b1·s` (intercept, no penalty) by
/// Newton–Raphson from `b = 0` (SPEC §15, step 3): the unrounded `(b0, b1)`.
pub fn logistic_mle(obs: &[Observation]) -> Result<(f64, f64), NoFit> {
    let (mut b0, mut b1) = (0.0f64, 0.0f64);
    for _ in 0..MAX_ITERATIONS {
        let (h, g) = information(obs, b0, b1);
        let det = regular_det(&h).ok_or(NoFit::Singular)?;
        let d0 = (h[2] * g[0] - h[1] * g[1]) / det;
        let d1 = (h[0] * g[1] - h[1] * g[0]) / det;
        b0 += d0;
        b1 += d1;
        if !(b0.is_finite() && b1.is_finite()) {
            return Err(NoFit::NonFinite);
        }
        if d0.abs().max(d1.abs()) < STEP_TOLERANCE {
            return Ok((b0, b1));
        }
    }
    Err(NoFit::NoConvergence)
}

/// Whether `min s(correct) ≥ max s(wrong)` (the MLE does not exist); `(max wrong, min correct)`.
fn separation(obs: &[Observation]) -> Option<(f64, f64)> {
    let max_wrong = obs.iter().filter(|o| !o.correct).map(|o| o.s).fold(f64::NEG_INFINITY, f64::max);
    let min_correct = obs.iter().filter(|o| o.correct).map(|o| o.s).fold(f64::INFINITY, f64::min);
    (min_correct >= max_wrong).then_some((max_wrong, min_correct))
}

/// SPEC §15, step 3: the model of an item from its observations, or why it explores.
pub fn fit(obs: &[Observation]) -> Result<Fit, NoFit> {
    if obs.len() < MIN_OBSERVATIONS {
        return Err(NoFit::TooFew);
    }
    if obs.iter().all(|o| o.correct) || obs.iter().all(|o| !o.correct) {
        return Err(NoFit::OneLabel);
    }
    if let Some((max_wrong, min_correct)) = separation(obs) {
        let i = (obs.len() - MIN_OBSERVATIONS).min(SEPARABLE_VARIANCE.len() - 1);
        return Ok(Fit {
            t_hat: (max_wrong + min_correct) / 2.0,
            gamma: SEPARABLE_GAMMA,
            var: SEPARABLE_VARIANCE[i],
            separable: true,
        });
    }
    let (b0, b1) = logistic_mle(obs)?;
    let gamma = b1.max(GAMMA_FLOOR);
    let t_hat = round_to((-b0 / gamma).clamp(0.0, 1.0), 1e3);
    // Delta method at the unrounded fit: g = ∂t̂/∂(b0, b1) = (−1/γ, b0/γ²), Var = gᵀ H⁻¹ g.
    let (h, _) = information(obs, b0, b1);
    let det = regular_det(&h).ok_or(NoFit::Singular)?;
    let (g0, g1) = (-1.0 / gamma, b0 / (gamma * gamma));
    let var = ((h[2] * g0 * g0 - 2.0 * h[1] * g0 * g1 + h[0] * g1 * g1) / det).max(0.0);
    if !(var.is_finite() && t_hat.is_finite()) {
        return Err(NoFit::NonFinite);
    }
    Ok(Fit { t_hat, gamma: round_to(gamma, 1e3), var, separable: false })
}

/// `ε_i`, `i = 0 … 49`: 50 evenly spaced values from `1e-6` to `1 − 1e-6`, computed as NumPy's
/// `linspace` does (`start + i·step`, the last one exactly the end point).
pub fn grid_epsilon(i: usize) -> f64 {
    let (start, stop) = (GRID_EDGE, 1.0 - GRID_EDGE);
    if i + 1 == GRID_POINTS {
        return stop;
    }
    let step = (stop - start) / (GRID_POINTS - 1) as f64;
    i as f64 * step + start
}

/// SPEC §15, step 4: the exploration probability `τ = min_i [1 − δ/(1 − α_i)]` with
/// `t′_i = clip(t̂ + Φ⁻¹(1 − ε_i)·√Var, 0, 1)` and `α_i = (1 − ε_i)·σ(γ(s − t′_i))`, rounded to
/// 5 decimals. It may be negative (then the round never explores).
pub fn exploration_probability(s: f64, fit: &Fit, delta: f64) -> f64 {
    let sd = fit.var.sqrt();
    let mut tau = f64::INFINITY;
    for i in 0..GRID_POINTS {
        let eps = grid_epsilon(i);
        let t_prime = (fit.t_hat + portable::norm_quantile(1.0 - eps) * sd).clamp(0.0, 1.0);
        let alpha = (1.0 - eps) * portable::logistic(fit.gamma * (s - t_prime));
        tau = tau.min(1.0 - delta / (1.0 - alpha));
    }
    round_to(tau, 1e5)
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
