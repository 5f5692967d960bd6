//! Kernel ridge regression of the serving cost (SPEC §6).
//!
//! Both learners of the paper fit the unknown cost `c(x)` by KRR with an RBF kernel on the
//! normalised distance of `space.rs`:
//!
//! * offline, CUCB-SC-Cont (Alg. 2 line 4) uses the ridge `r = ℓλ` (`ℓ` = number of cost
//!   observations, known before fitting) and the pessimistic cost of Alg. 2 line 5;
//! * online, Switch Cache Continuous (Alg. 4 lines 9–11) and Serve and Update Continuous
//!   (Alg. 5 line 4) use `r = λ`, the information gain `γ` and the optimistic cost.
//!
//! The pseudocode re-solves `(K + rI)⁻¹` at every center on every switch (SPEC §13: that is what
//! dominates the plain implementation's run time). Here the lower Cholesky factor `L` of
//! `K + rI` grows by one row per observation in O(ℓ²) ([`GrowingCholesky`]), and every tracked
//! point `u` (an ε-net center) keeps `v_u = L⁻¹ κ_u`, which also grows by one component per
//! observation in O(ℓ). With the running vector `ã = L⁻¹ y`,
//!
//! ```text
//! ĉ(u) = κ_uᵀ (K + rI)⁻¹ y = v_u · ã,      σ²(u) = κ(u,u) − κ_uᵀ (K + rI)⁻¹ κ_u = κ(u,u) − ‖v_u‖²,
//! ```
//!
//! and `γ = ½ log det(I + K/λ) = Σ ln L_ii − (ℓ/2) ln λ` comes from the same factor.
//! [`reference`](mod@reference) is the plain dense solve, used as the differential oracle.

mod bounds;
mod cholesky;
mod kernel;
pub mod merged;
pub mod nystrom;
pub mod reference;
#[cfg(test)]
mod tests;

pub use bounds::{offline_width_factor, online_width_factor, optimistic_cost, pessimistic_cost};
pub use cholesky::GrowingCholesky;
pub use kernel::{Posterior, RbfKernel};

use crate::error::{Error, Result};
use crate::space::{Metric, Points};
use crate::vector_ops::{dot, RunningDot};

/// An observed cost must be finite (checked before anything changes).
fn check_cost(y: f64) -> Result<()> {
    if y.is_finite() {
        Ok(())
    } else {
        Err(Error::data(format!("an observed cost must be a finite number, got {y}")))
    }
}

/// `L⁻¹ κ_x` for one point `x` against the observations at the time it was computed.
#[derive(Clone, Debug)]
pub struct Solved {
    v: Vec<f64>,
}

/// A point whose posterior is kept up to date lazily: `v = L⁻¹ κ_u` for the first `v.len()`
/// observations, and the running dot products `v·v` and `v·ã` (both vectors only grow, so
/// [`RunningDot`] gives the bits of the full products in O(new entries)).
#[derive(Clone, Debug)]
struct Tracked {
    k_self: f64,
    v: Vec<f64>,
    vv: RunningDot,
    va: RunningDot,
}

/// The KRR learner (SPEC §6): observations `(z_j, y_j)`, the growing factor of `K + rI`,
/// `ã = L⁻¹ y`, and the tracked points (ε-net centers).
#[derive(Clone, Debug)]
pub struct Krr {
    kernel: RbfKernel,
    metric: Metric,
    obs: Points,
    y: Vec<f64>,
    chol: GrowingCholesky,
    a: Vec<f64>,
    tracked_points: Points,
    tracked: Vec<Tracked>,
}

impl Krr {
    /// An empty learner for `dim`-dimensional queries with ridge `r` (`r > 0`, finite).
    /// Offline (Alg. 2 line 4) pass `r = ℓλ`; online (Alg. 4 lines 9–10) pass `r = λ`.
    pub fn new(kernel: RbfKernel, metric: Metric, ridge: f64, dim: usize) -> Result<Self> {
        if !(ridge.is_finite() && ridge > 0.0) {
            return Err(Error::param(
                "lambda",
                format!("the KRR ridge must be a positive finite number, got {ridge}"),
            ));
        }
        RbfKernel::new(kernel.length_scale)?;
        Ok(Krr {
            kernel,
            metric,
            obs: Points::new(dim)?,
            y: Vec::new(),
            chol: GrowingCholesky::new(ridge),
            a: Vec::new(),
            tracked_points: Points::new(dim)?,
            tracked: Vec::new(),
        })
    }

    /// The offline fit of Alg. 2 line 4 in one call: all observations `(points[j], y[j])` with
    /// ridge `r` (for Alg. 2, `r = ℓλ` with `ℓ = y.len()`).
    pub fn fit(kernel: RbfKernel, metric: Metric, ridge: f64, points: &Points, y: &[f64]) -> Result<Self> {
        if points.len() != y.len() {
            return Err(Error::data(format!(
                "{} observation points but {} observed costs",
                points.len(),
                y.len()
            )));
        }
        let mut krr = Krr::new(kernel, metric, ridge, points.dim())?;
        for (x, &c) in points.iter().zip(y) {
            krr.add_observation(x, c)?;
        }
        Ok(krr)
    }

    pub fn kernel(&self) -> RbfKernel {
        self.kernel
    }
    pub fn metric(&self) -> Metric {
        self.metric
    }
    pub fn dim(&self) -> usize {
        self.obs.dim()
    }
    /// `r`.
    pub fn ridge(&self) -> f64 {
        self.chol.ridge()
    }
    /// `ℓ`, the number of cost observations.
    pub fn n_obs(&self) -> usize {
        self.y.len()
    }
    /// The observed points `z_j` (stored at the arrival itself, SPEC §11.6).
    pub fn observations(&self) -> &Points {
        &self.obs
    }
    /// The observed costs `y_j`.
    pub fn targets(&self) -> &[f64] {
        &self.y
    }
    pub fn cholesky(&self) -> &GrowingCholesky {
        &self.chol
    }
    /// Pivots floored so far (duplicate observations with a tiny ridge).
    pub fn jitter_events(&self) -> usize {
        self.chol.jitter_events()
    }

    /// Adds the observation `(x, y)` (Alg. 5 line 8): one row of `L` in O(ℓ²) and one entry of
    /// `ã = L⁻¹ y` in O(ℓ). Tracked points catch up lazily. Rejects a wrong dimension and
    /// non-finite `x` or `y`; on error nothing changes.
    pub fn add_observation(&mut self, x: &[f32], y: f64) -> Result<()> {
        check_cost(y)?;
        self.obs.push(x)?;
        let l = self.n_obs();
        let k_cross: Vec<f64> = (0..l).map(|j| self.kernel.eval(&self.metric, self.obs.row(j), x)).collect();
        self.chol.push(&k_cross, self.kernel.of_distance(0.0));
        self.record_target(y);
        Ok(())
    }

    /// After the factor grew by the new observation's row: `ã_ℓ = (y − L[ℓ, :ℓ]·ã) / L[ℓ, ℓ]`.
    fn record_target(&mut self, y: f64) {
        let l = self.n_obs();
        let row = self.chol.row(l);
        self.a.push((y - dot(&row[..l], &self.a)) / row[l]);
        self.y.push(y);
    }

    /// `ĉ(x)` and `σ²(x)` from scratch in O(ℓ d + ℓ²) (Alg. 4 lines 9–10 for an untracked
    /// point). With no observations: [`Posterior::PRIOR`].
    pub fn posterior_at(&self, x: &[f32]) -> Posterior {
        self.posterior_and_solve(x).0
    }

    /// [`posterior_at`](Self::posterior_at) and the solve `L⁻¹ κ_x` behind it, which
    /// [`add_observation_solved`](Self::add_observation_solved) can reuse when the LLM is then
    /// called on the same `x` (CLCB-Frozen-Cont at an arrival that is no universe row).
    pub fn posterior_and_solve(&self, x: &[f32]) -> (Posterior, Solved) {
        assert_eq!(x.len(), self.dim(), "a query of the wrong dimension");
        let mut v: Vec<f64> = self.obs.iter().map(|z| self.kernel.eval(&self.metric, z, x)).collect();
        self.chol.solve_lower_in_place(&mut v);
        (Posterior::from_solved(&v, &self.a, self.kernel.of_distance(0.0)), Solved { v })
    }

    /// [`add_observation`](Self::add_observation) at the `x` that `solved` was computed for by
    /// [`posterior_and_solve`](Self::posterior_and_solve) with no observation added since (else it
    /// falls back to the full step). The result has the same bits.
    pub fn add_observation_solved(&mut self, x: &[f32], y: f64, solved: Solved) -> Result<()> {
        if solved.v.len() != self.n_obs() {
            return self.add_observation(x, y);
        }
        self.push_with_row(x, y, &solved.v)
    }

    /// [`add_observation`](Self::add_observation) at `x`, reusing tracked point `id`'s projection
    /// when `x` is that point bit for bit: the new row of `L` is `L⁻¹ κ_x`, which is exactly `v_id`
    /// caught up to `ℓ` (the same kernel values, the same operations in the same order as
    /// [`GrowingCholesky::push`]), so the factor, `ã` and every posterior keep their bits while
    /// the O(ℓ²) solve is shared with the posterior the policy asked for at `x` (Alg. 5 line 4
    /// then line 8; Alg. 7). Any other `x` takes the full step.
    pub fn add_observation_at_tracked(&mut self, id: usize, x: &[f32], y: f64) -> Result<()> {
        let same = x.len() == self.dim()
            && x.iter().zip(self.tracked_points.row(id)).all(|(a, b)| a.to_bits() == b.to_bits());
        if !same {
            return self.add_observation(x, y);
        }
        self.catch_up(id);
        let v = std::mem::take(&mut self.tracked[id].v);
        let done = self.push_with_row(x, y, &v);
        self.tracked[id].v = v;
        done
    }

    /// The common tail of the solve-reusing additions: observation `(x, y)` whose new factor row
    /// `L⁻¹ κ_x` is `row` (length ℓ). Checks `y` before anything changes.
    fn push_with_row(&mut self, x: &[f32], y: f64, row: &[f64]) -> Result<()> {
        check_cost(y)?;
        self.obs.push(x)?;
        self.chol.push_solved(row, self.kernel.of_distance(0.0));
        self.record_target(y);
        Ok(())
    }

    /// `γ = ½ log det(I + K/λ) = Σ ln L_ii − (ℓ/2) ln λ` (SPEC §6, Alg. 4 line 11), from the
    /// same factor as the posterior (SPEC §11.3); 0 with no observations. It is the information
    /// gain of the online learner only when the ridge is `λ` (not `ℓλ`).
    pub fn gamma(&self) -> f64 {
        if self.n_obs() == 0 {
            return 0.0;
        }
        self.chol.sum_ln_diag() - 0.5 * self.n_obs() as f64 * crate::portable::ln(self.ridge())
    }

    /// Makes room for `additional` more observations in the factor, the targets and every
    /// tracked projection, so that the next additions do not reallocate (see
    /// [`GrowingCholesky::reserve`]; the benchmarks call it on a cloned learner).
    pub fn reserve(&mut self, additional: usize) {
        self.chol.reserve(additional);
        self.a.reserve(additional);
        self.y.reserve(additional);
        for t in &mut self.tracked {
            t.v.reserve(self.chol.len() + additional - t.v.len());
        }
    }

    /// Starts tracking `x` (an ε-net center) and returns its id (0, 1, …). Costs nothing until
    /// the point is queried. Panics on a wrong dimension (callers pass validated points).
    pub fn track(&mut self, x: &[f32]) -> usize {
        assert_eq!(x.len(), self.dim(), "a tracked point of the wrong dimension");
        let id = self.tracked_points.push(x).expect("tracked points must be finite");
        self.tracked.push(Tracked {
            k_self: self.kernel.of_distance(0.0),
            v: Vec::new(),
            vv: RunningDot::default(),
            va: RunningDot::default(),
        });
        id
    }

    /// How many points are tracked.
    pub fn n_tracked(&self) -> usize {
        self.tracked.len()
    }

    /// The tracked point `id`.
    pub fn tracked_point(&self, id: usize) -> &[f32] {
        self.tracked_points.row(id)
    }

    /// Brings `v_u` of tracked point `id` up to `ℓ` components: for each missing `j`,
    /// `v_u[j] = (κ(z_j, u) − L[j, :j]·v_u[:j]) / L[j, j]` — O(ℓ) per observation added since the
    /// last catch-up.
    fn catch_up(&mut self, id: usize) {
        let u = self.tracked_points.row(id);
        let v = &mut self.tracked[id].v;
        for j in v.len()..self.chol.len() {
            let row = self.chol.row(j);
            let k = self.kernel.eval(&self.metric, self.obs.row(j), u);
            let vj = (k - dot(&row[..j], &v[..j])) / row[j];
            v.push(vj);
        }
    }

    /// `ĉ(u)` and `σ²(u)` of tracked point `id` (Alg. 4 lines 9–10, Alg. 5 line 4), catching
    /// `v_u` up first. Bit-for-bit equal to [`posterior_at`](Self::posterior_at) at that point.
    pub fn posterior_tracked(&mut self, id: usize) -> Posterior {
        self.catch_up(id);
        let t = &mut self.tracked[id];
        let (vv, va) = (t.vv.value(&t.v, &t.v), t.va.value(&t.v, &self.a));
        Posterior::from_products(vv, va, t.k_self)
    }

    /// Catches every tracked point up to `ℓ`.
    pub fn refresh_all(&mut self) {
        for id in 0..self.tracked.len() {
            self.catch_up(id);
        }
    }

    /// The posteriors of all tracked points, in id order (the switch step, Alg. 4 lines 6–11).
    pub fn posterior_tracked_all(&mut self) -> Vec<Posterior> {
        (0..self.tracked.len()).map(|id| self.posterior_tracked(id)).collect()
    }
}
