//! The RBF kernel of the serving cost and the KRR posterior at a point (SPEC §6).

use crate::error::{Error, Result};
use crate::space::Metric;
use crate::vector_ops::dot;
use serde::{Deserialize, Serialize};

/// The RBF kernel `κ(x, y) = exp(−d(x, y)² / (2 ℓ_k²))` on the normalised distance (SPEC §6);
/// `κ(x, x) = 1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RbfKernel {
    /// `ℓ_k`, in units of the normalised distance (SPEC §6 default 0.2).
    pub length_scale: f64,
}

impl Default for RbfKernel {
    /// `ℓ_k = 0.2` (SPEC §6).
    fn default() -> Self {
        RbfKernel { length_scale: 0.2 }
    }
}

impl RbfKernel {
    /// A kernel of length scale `ℓ_k`; rejects `ℓ_k ≤ 0`, NaN and ±Inf.
    pub fn new(length_scale: f64) -> Result<Self> {
        if !(length_scale.is_finite() && length_scale > 0.0) {
            return Err(Error::param(
                "kernel_length",
                format!("the RBF length scale must be a positive finite number, got {length_scale}"),
            ));
        }
        Ok(RbfKernel { length_scale })
    }

    /// `κ` as a function of the normalised distance `d`.
    #[inline]
    pub fn of_distance(&self, d: f64) -> f64 {
        crate::portable::exp(-(d * d) / (2.0 * self.length_scale * self.length_scale))
    }

    /// `κ(a, b)` under `metric`.
    #[inline]
    pub fn eval(&self, metric: &Metric, a: &[f32], b: &[f32]) -> f64 {
        self.of_distance(metric.dist(a, b))
    }
}

/// Posterior mean `ĉ(x)` and variance `σ²(x)` of the KRR fit (SPEC §6).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Posterior {
    pub mean: f64,
    /// Clamped into `[0, κ(x,x)]` (SPEC §11.3).
    pub var: f64,
}

impl Posterior {
    /// No observations: `ĉ = 0`, `σ² = κ(x,x) = 1` (SPEC §11.3, Alg. 4 "Prior").
    pub const PRIOR: Posterior = Posterior { mean: 0.0, var: 1.0 };

    /// `σ(x)`.
    pub fn sd(&self) -> f64 {
        self.var.sqrt()
    }

    /// From `v = L⁻¹ κ_x`, `ã = L⁻¹ y` and `κ(x,x)`.
    pub(super) fn from_solved(v: &[f64], a: &[f64], k_self: f64) -> Posterior {
        Posterior::from_products(dot(v, v), dot(v, a), k_self)
    }

    /// From `v·v`, `v·ã` and `κ(x,x)`: `ĉ = v·ã`, `σ² = κ(x,x) − v·v` clamped.
    pub(super) fn from_products(vv: f64, va: f64, k_self: f64) -> Posterior {
        let var = k_self - vv;
        Posterior { mean: va, var: var.max(0.0).min(k_self) }
    }
}
