//! The plain dense KRR of the pseudocode (form `K + rI`, solve; no incremental tricks): the
//! differential oracle of the fast path.

use super::{Posterior, RbfKernel};
use crate::space::{Metric, Points};
use nalgebra::{DMatrix, DVector};

fn gram(obs: &Points, kernel: RbfKernel, metric: Metric) -> DMatrix<f64> {
    let n = obs.len();
    DMatrix::from_fn(n, n, |i, j| kernel.eval(&metric, obs.row(i), obs.row(j)))
}

/// `ĉ(x) = κ_xᵀ (K + rI)⁻¹ y` and `σ²(x) = κ(x,x) − κ_xᵀ (K + rI)⁻¹ κ_x`, clamped into
/// `[0, κ(x,x)]` (Alg. 2 line 4, Alg. 4 lines 9–10). Cholesky, falling back to LU.
pub fn posterior_dense(
    obs: &Points,
    y: &[f64],
    kernel: RbfKernel,
    metric: Metric,
    ridge: f64,
    x: &[f32],
) -> Posterior {
    assert_eq!(obs.len(), y.len());
    if obs.is_empty() {
        return Posterior::PRIOR;
    }
    let n = obs.len();
    let a = gram(obs, kernel, metric) + DMatrix::identity(n, n) * ridge;
    let kx = DVector::from_iterator(n, obs.iter().map(|z| kernel.eval(&metric, z, x)));
    let rhs = DMatrix::from_fn(n, 2, |i, c| if c == 0 { y[i] } else { kx[i] });
    let sol = match a.clone().cholesky() {
        Some(ch) => ch.solve(&rhs),
        None => a.lu().solve(&rhs).expect("K + rI is singular"),
    };
    let k_self = kernel.of_distance(0.0);
    let mean = kx.dot(&sol.column(0));
    let var = k_self - kx.dot(&sol.column(1));
    Posterior { mean, var: var.max(0.0).min(k_self) }
}

/// `γ = ½ log det(I + K/λ)` (Alg. 4 line 11); 0 with no observations.
pub fn gamma_dense(obs: &Points, kernel: RbfKernel, metric: Metric, lambda: f64) -> f64 {
    let n = obs.len();
    if n == 0 {
        return 0.0;
    }
    let m = DMatrix::identity(n, n) + gram(obs, kernel, metric) / lambda;
    let ch = m.cholesky().expect("I + K/λ is positive definite");
    ch.l().diagonal().iter().map(|d| d.ln()).sum()
}
