//! Losses and the serving rule (SPEC §3; paper eqs. 1, 2 and 4).

use crate::mismatch::Mismatch;
use crate::space::{Distances, Metric, Points};

/// Per-query loss `g_M(x) = min(c(x), φ(d(x, M)))` given `φ(d(x, M))` (paper Assumption 1).
#[inline]
pub fn query_loss(cost: f64, phi: f64) -> f64 {
    cost.min(phi)
}

/// The serving rule with known costs (eq. 1): call the LLM iff `c(x) ≤ φ(d(x, M))`.
#[inline]
pub fn serve_from_llm(cost: f64, phi: f64) -> bool {
    cost <= phi
}

/// The discretised loss (eq. 4): `L̂(M; S, w, c) = Σ_i w_i · min(c_i, φ(d(x_i, M)))`, with the
/// cache `M` given as indices into `S` (whose distances `dist` provides).
pub fn discretised_loss<D: Distances + ?Sized>(
    dist: &D,
    weights: &[f64],
    costs: &[f64],
    mismatch: &Mismatch,
    cache: &[usize],
) -> f64 {
    (0..dist.len())
        .map(|i| {
            let d = cache.iter().map(|&j| dist.dist(i, j)).fold(f64::INFINITY, f64::min);
            weights[i] * query_loss(costs[i], mismatch.phi(d))
        })
        .sum()
}

/// The expected loss (eq. 2) estimated on an evaluation sample `E` with its true costs:
/// `L(M) ≈ (1/|E|) Σ_{x∈E} min(c(x), φ(d(x, M)))`, the cache given as vectors (SPEC §3).
pub fn expected_loss(
    eval: &Points,
    eval_costs: &[f64],
    cache: &Points,
    metric: &Metric,
    mismatch: &Mismatch,
) -> f64 {
    if eval.is_empty() {
        return 0.0;
    }
    let all: Vec<usize> = (0..cache.len()).collect();
    let total: f64 = eval
        .iter()
        .zip(eval_costs)
        .map(|(x, &c)| query_loss(c, mismatch.phi(metric.dist_to_set(x, cache, &all))))
        .sum();
    total / eval.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::DistanceMatrix;

    #[test]
    fn hand_computed_losses() {
        // Three points on a line at 0, 0.1, 0.5 (D = 1), ζ = 1.
        let s = Points::from_rows(&[[0.0f32], [0.1], [0.5]]).unwrap();
        let m = Metric::new(1.0).unwrap();
        let dm = DistanceMatrix::from_points(&s, &m);
        let phi = Mismatch::default();
        let w = [0.5, 0.3, 0.2];
        let c = [0.2, 0.05, 0.3];
        // M = {0}: point 0 → min(.2, 0) = 0; point 1 → min(.05, .1) = .05; point 2 → min(.3, .5) = .3
        let l = discretised_loss(&dm, &w, &c, &phi, &[0]);
        assert!((l - (0.3 * 0.05 + 0.2 * 0.3)).abs() < 1e-12);
        // empty cache: every point pays its cost (φ(∞) = 1 ≥ c)
        let l0 = discretised_loss(&dm, &w, &c, &phi, &[]);
        assert!((l0 - (0.5 * 0.2 + 0.3 * 0.05 + 0.2 * 0.3)).abs() < 1e-12);
        // M = {0, 2}: only point 1 pays min(.05, .1)
        assert!((discretised_loss(&dm, &w, &c, &phi, &[0, 2]) - 0.3 * 0.05).abs() < 1e-12);
        // expected loss on a sample: the same as eq. 4 with equal weights
        let cache = s.select(&[0]);
        let e = expected_loss(&s, &c, &cache, &m, &phi);
        assert!((e - (0.0 + 0.05 + 0.3) / 3.0).abs() < 1e-12);
        assert!(serve_from_llm(0.05, 0.1));
        assert!(!serve_from_llm(0.3, 0.1));
        assert!(serve_from_llm(0.1, 0.1)); // ties call the LLM (eq. 1 uses ≤)
    }
}
