//! The online KRR learner with repeated observation points merged.
//!
//! A point `z_i` observed `n_i` times with mean target `ȳ_i` is one row with ridge `r/n_i`: with
//! the `ℓ × m` indicator `P` of the observations' points (`K = P K_m Pᵀ`, `N = PᵀP = diag(n_i)`),
//! `(K + rI)⁻¹P = P(K_m N + rI)⁻¹`, hence for any `x`
//!
//! ```text
//! ĉ(x) = κ_xᵀ (K_m + rN⁻¹)⁻¹ ȳ,      σ²(x) = κ(x,x) − κ_xᵀ (K_m + rN⁻¹)⁻¹ κ_x,
//! γ = ½ log det(I + K/λ) = ½ log det(I + K_m N/λ) = ½ (log det A − m ln λ + Σ ln n_i)
//! ```
//!
//! (Sylvester's identity, `A = K_m + λN⁻¹`, `r = λ` online). The same posterior and `γ` as
//! [`super::Krr`] over all `ℓ` rows, in exact arithmetic — not bit for bit.
//!
//! [`InverseKrr`] keeps `A⁻¹` explicitly (packed lower triangle plus up to [`PENDING`] deferred
//! rank-one terms, folded in together so the matrix is swept once per [`PENDING`] changes), the
//! vector `α = A⁻¹ȳ` and the diagonal `D = diag(A⁻¹)`:
//! * a new point with kernel column `k` and `w = A⁻¹k`: Schur complement `s = κ(z,z) + r − kᵀw`,
//!   `A⁻¹ ← [[A⁻¹, 0], [0, 0]] + s⁻¹ [w; −1][w; −1]ᵀ` (block inverse), `log det A += ln s`;
//! * a repeat at `z_i` lowers `A_ii` by `δ = r/n_i − r/(n_i+1)`: with `g = A⁻¹e_i`,
//!   `A⁻¹ ← A⁻¹ + δ/(1 − δ g_i) · g gᵀ` (Sherman–Morrison), `log det A += ln(1 − δ g_i)` (matrix
//!   determinant lemma); `1 − δ g_i ≥ 1/(n_i+1)` since `A ⪰ rN⁻¹`;
//! * at an observed point `z_i` (every ε-net center and universe row the LLM was called on),
//!   `κ_{z_i} = (A − (r/n_i)I)e_i`, so with `ρ = r/n_i`: `ĉ(z_i) = ȳ_i − ρ α_i` and
//!   `σ²(z_i) = ρ − ρ² D_i`, in O(1);
//! * any other point: `κ_x`, one product with `A⁻¹` (O(m²)); the product is reused when the LLM is
//!   then called there (its `w`).
//!
//! [`OnlineKrr`] starts as the row-per-observation [`super::Krr`] (bit for bit the learner before
//! this change) and switches to [`InverseKrr`] at the first exact repeat, replaying the distinct
//! observations so far. A stream without exact repeats (jittered arrivals, synthetic) never
//! switches: the plain factor's one forward solve per observation is cheaper than keeping an
//! inverse.

mod inverse;
#[cfg(test)]
mod tests;

pub use inverse::{InvSolved, InverseKrr, PENDING};

use super::{check_cost, Krr, Posterior, RbfKernel, Solved};
use crate::error::Result;
use crate::space::{bit_key, Metric};
use std::collections::HashSet;

/// The online learner: [`Krr`] until the first exact repeat, then [`InverseKrr`] (module
/// documentation).
#[derive(Clone, Debug)]
pub enum OnlineKrr {
    Rows { krr: Krr, seen: HashSet<Vec<u32>>, tracked: Vec<Vec<f32>> },
    Merged(InverseKrr),
}

/// The solve behind a posterior, for reuse when the LLM is then called at the same point.
#[derive(Clone, Debug)]
pub enum OnlineSolved {
    Rows(Solved),
    Merged(Option<InvSolved>),
}

impl OnlineKrr {
    pub fn new(kernel: RbfKernel, metric: Metric, ridge: f64, dim: usize) -> Result<Self> {
        Ok(OnlineKrr::Rows {
            krr: Krr::new(kernel, metric, ridge, dim)?,
            seen: HashSet::new(),
            tracked: Vec::new(),
        })
    }

    pub fn is_merged(&self) -> bool {
        matches!(self, OnlineKrr::Merged(_))
    }

    /// Before adding an observation at `x`: switch to the merged form if `x` repeats one.
    /// Returns whether the rows form continues.
    fn prepare(&mut self, x: &[f32]) -> bool {
        let OnlineKrr::Rows { krr, seen, tracked } = self else { return false };
        if x.len() != krr.dim() || x.iter().any(|v| !v.is_finite()) {
            return true; // the rows form reports the error
        }
        let key = bit_key(x);
        if !seen.contains(&key) {
            seen.insert(key);
            return true;
        }
        let mut inv = InverseKrr::new(krr.kernel(), krr.metric(), krr.ridge(), krr.dim()).expect("validated");
        for (z, &y) in krr.observations().iter().zip(krr.targets()) {
            inv.add_observation(z, y).expect("validated observation");
        }
        for p in tracked.iter() {
            inv.track(p);
        }
        *self = OnlineKrr::Merged(inv);
        false
    }

    pub fn n_obs(&self) -> usize {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.n_obs(),
            OnlineKrr::Merged(m) => m.n_obs(),
        }
    }

    pub fn gamma(&self) -> f64 {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.gamma(),
            OnlineKrr::Merged(m) => m.gamma(),
        }
    }

    pub fn track(&mut self, x: &[f32]) -> usize {
        match self {
            OnlineKrr::Rows { krr, tracked, .. } => {
                tracked.push(x.to_vec());
                krr.track(x)
            }
            OnlineKrr::Merged(m) => m.track(x),
        }
    }

    pub fn posterior_tracked(&mut self, id: usize) -> Posterior {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.posterior_tracked(id),
            OnlineKrr::Merged(m) => m.posterior_tracked(id),
        }
    }

    pub fn posterior_tracked_all(&mut self) -> Vec<Posterior> {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.posterior_tracked_all(),
            OnlineKrr::Merged(m) => (0..m.tracked.len()).map(|id| m.posterior_tracked(id)).collect(),
        }
    }

    pub fn posterior_at(&self, x: &[f32]) -> Posterior {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.posterior_at(x),
            OnlineKrr::Merged(m) => m.posterior_at(x),
        }
    }

    pub fn posterior_and_solve(&self, x: &[f32]) -> (Posterior, OnlineSolved) {
        match self {
            OnlineKrr::Rows { krr, .. } => {
                let (p, s) = krr.posterior_and_solve(x);
                (p, OnlineSolved::Rows(s))
            }
            OnlineKrr::Merged(m) => {
                let (p, s) = m.posterior_and_solve(x);
                (p, OnlineSolved::Merged(s))
            }
        }
    }

    pub fn add_observation(&mut self, x: &[f32], y: f64) -> Result<()> {
        check_cost(y)?;
        self.prepare(x);
        match self {
            OnlineKrr::Rows { krr, .. } => krr.add_observation(x, y),
            OnlineKrr::Merged(m) => m.add_observation(x, y),
        }
    }

    pub fn add_observation_solved(&mut self, x: &[f32], y: f64, solved: OnlineSolved) -> Result<()> {
        check_cost(y)?;
        self.prepare(x);
        match (self, solved) {
            (OnlineKrr::Rows { krr, .. }, OnlineSolved::Rows(s)) => krr.add_observation_solved(x, y, s),
            (OnlineKrr::Merged(m), OnlineSolved::Merged(s)) => m.add_observation_solved(x, y, s),
            (s, _) => s.add_observation_plain(x, y),
        }
    }

    fn add_observation_plain(&mut self, x: &[f32], y: f64) -> Result<()> {
        match self {
            OnlineKrr::Rows { krr, .. } => krr.add_observation(x, y),
            OnlineKrr::Merged(m) => m.add_observation(x, y),
        }
    }

    pub fn add_observation_at_tracked(&mut self, id: usize, x: &[f32], y: f64) -> Result<()> {
        check_cost(y)?;
        self.prepare(x);
        match self {
            OnlineKrr::Rows { krr, .. } => krr.add_observation_at_tracked(id, x, y),
            OnlineKrr::Merged(m) => m.add_observation_at_tracked(id, x, y),
        }
    }
}
