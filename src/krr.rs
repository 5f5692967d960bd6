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

pub mod merged;

use crate::error::{Error, Result};
use crate::space::{Metric, Points};
use serde::{Deserialize, Serialize};

/// Relative floor for a new pivot² of the Cholesky factor: `1e-12 · (κ_self + r)`.
const PIVOT_FLOOR: f64 = 1e-12;

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
    fn from_solved(v: &[f64], a: &[f64], k_self: f64) -> Posterior {
        Posterior::from_products(dot(v, v), dot(v, a), k_self)
    }

    /// From `v·v`, `v·ã` and `κ(x,x)`: `ĉ = v·ã`, `σ² = κ(x,x) − v·v` clamped.
    fn from_products(vv: f64, va: f64, k_self: f64) -> Posterior {
        let var = k_self - vv;
        Posterior { mean: va, var: var.max(0.0).min(k_self) }
    }
}

use crate::vector_ops::{dot, RunningDot};

/// The lower Cholesky factor `L` of `K + rI`, grown one observation at a time in O(ℓ²) and never
/// refactorised. Rows are packed: row `i` holds `L[i, 0..=i]`.
///
/// Robustness: when the new pivot² `κ_self + r − ‖a‖²` is not above `1e-12·(κ_self + r)`
/// (duplicate points with a tiny ridge, where rounding can make it ≤ 0), that floor is used
/// instead (a diagonal jitter, counted by [`jitter_events`](Self::jitter_events)); the factor then
/// belongs to `K + rI` plus that jitter on the diagonal, and it never contains NaN.
#[derive(Clone, Debug)]
pub struct GrowingCholesky {
    n: usize,
    ridge: f64,
    packed: Vec<f64>,
    sum_ln_diag: f64,
    jitter_events: usize,
}

impl GrowingCholesky {
    /// The empty factor of `K + rI` for ridge `r > 0` (validated by [`Krr::new`]).
    pub fn new(ridge: f64) -> Self {
        GrowingCholesky { n: 0, ridge, packed: Vec::new(), sum_ln_diag: 0.0, jitter_events: 0 }
    }

    /// `ℓ`, the order of the factor.
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn ridge(&self) -> f64 {
        self.ridge
    }

    /// `L[i, 0..=i]`.
    #[inline]
    pub fn row(&self, i: usize) -> &[f64] {
        let start = i * (i + 1) / 2;
        &self.packed[start..start + i + 1]
    }

    /// `Σ ln L_ii = ½ ln det(K + rI)`.
    pub fn sum_ln_diag(&self) -> f64 {
        self.sum_ln_diag
    }

    /// How many pivots were floored (see the type's documentation).
    pub fn jitter_events(&self) -> usize {
        self.jitter_events
    }

    /// Makes room for `additional` more rows without reallocating (a grown factor otherwise
    /// doubles its buffer now and then, copying it: amortised O(1) per entry, but a visible
    /// spike in a single step).
    pub fn reserve(&mut self, additional: usize) {
        let n = self.n + additional;
        self.packed.reserve(n * (n + 1) / 2 - self.packed.len());
    }

    /// Solves `L x = b` in place by forward substitution, for `b` of length `ℓ` (O(ℓ²)).
    pub fn solve_lower_in_place(&self, b: &mut [f64]) {
        assert_eq!(b.len(), self.n, "the right-hand side needs one entry per observation");
        for j in 0..self.n {
            let row = self.row(j);
            b[j] = (b[j] - dot(&row[..j], &b[..j])) / row[j];
        }
    }

    /// [`push`](Self::push) with the forward solve already done: `solved = L⁻¹ k_cross` (what
    /// [`solve_lower_in_place`](Self::solve_lower_in_place) returns — the same operations as
    /// `push`'s own loop, so the factor gets the same bits). O(ℓ).
    pub fn push_solved(&mut self, solved: &[f64], k_self: f64) {
        assert_eq!(solved.len(), self.n, "a new row needs one entry per observation");
        self.packed.extend_from_slice(solved);
        self.finish_row(k_self);
    }

    /// Appends the observation whose kernel values against the previous ones are `k_cross`
    /// (length `ℓ`) and whose own value is `k_self`: solves `L a = k_cross`, then the new
    /// diagonal is `√(k_self + r − a·a)` (floored, see above). O(ℓ²).
    pub fn push(&mut self, k_cross: &[f64], k_self: f64) {
        assert_eq!(k_cross.len(), self.n, "a new row needs one kernel value per observation");
        let start = self.packed.len();
        self.packed.extend_from_slice(k_cross);
        for j in 0..self.n {
            let (head, new) = self.packed.split_at_mut(start);
            let row = &head[j * (j + 1) / 2..j * (j + 1) / 2 + j + 1];
            new[j] = (new[j] - dot(&row[..j], &new[..j])) / row[j];
        }
        self.finish_row(k_self);
    }

    /// The new diagonal entry of the row just appended after `packed[start..]`.
    fn finish_row(&mut self, k_self: f64) {
        let start = self.n * (self.n + 1) / 2;
        let total = k_self + self.ridge;
        let floor = PIVOT_FLOOR * total;
        let mut pivot2 = total - dot(&self.packed[start..], &self.packed[start..]);
        if pivot2.is_nan() || pivot2 <= floor {
            pivot2 = floor;
            self.jitter_events += 1;
        }
        let diag = pivot2.sqrt();
        self.packed.push(diag);
        self.sum_ln_diag += crate::portable::ln(diag);
        self.n += 1;
    }
}

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

/// The offline width factor `B + √(ln(2m/δ)/(ℓλ))` of Alg. 2 line 5 (`m` = number of ε-net
/// centers, taken as at least 1; `λ` is the ridge per observation, the KRR ridge being `ℓλ`).
/// Requires `n_obs ≥ 1`.
pub fn offline_width_factor(n_obs: usize, m: usize, lambda: f64, b: f64, delta: f64) -> f64 {
    let m = m.max(1) as f64;
    b + (crate::portable::ln(2.0 * m / delta) / (n_obs as f64 * lambda)).sqrt()
}

/// The pessimistic cost of Alg. 2 line 5 (SPEC §6):
/// `c̄ = ĉ + β_off·(B + √(ln(2m/δ)/(ℓλ)))·σ`; with no observations `c̄ = B` (SPEC §11.3).
pub fn pessimistic_cost(
    post: &Posterior,
    n_obs: usize,
    m: usize,
    lambda: f64,
    b: f64,
    delta: f64,
    beta_off: f64,
) -> f64 {
    if n_obs == 0 {
        return b;
    }
    post.mean + beta_off * offline_width_factor(n_obs, m, lambda, b, delta) * post.sd()
}

/// The online width factor `B + R·√(2(γ + ln(2/δ)))` of Alg. 4 line 11 (SPEC §6).
pub fn online_width_factor(gamma: f64, b: f64, r_noise: f64, delta: f64) -> f64 {
    b + r_noise * (2.0 * (gamma + crate::portable::ln(2.0 / delta))).sqrt()
}

/// The optimistic cost of Alg. 4 line 11 (SPEC §6):
/// `c̲ = ĉ − β·(B + R·√(2(γ + ln(2/δ))))·σ`, with `γ` from the same `K` as the posterior; with no
/// observations `c̲ = −B`, without `β` (SPEC §11.3, Alg. 4 "Prior").
pub fn optimistic_cost(
    post: &Posterior,
    n_obs: usize,
    gamma: f64,
    b: f64,
    r_noise: f64,
    delta: f64,
    beta: f64,
) -> f64 {
    if n_obs == 0 {
        return -b;
    }
    post.mean - beta * online_width_factor(gamma, b, r_noise, delta) * post.sd()
}

/// The plain dense KRR of the pseudocode (form `K + rI`, solve; no incremental tricks): the
/// differential oracle of the fast path.
pub mod reference {
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
}

#[cfg(test)]
mod tests {
    use super::reference::{gamma_dense, posterior_dense};
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
    }

    fn plane() -> (RbfKernel, Metric) {
        (RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap())
    }

    #[test]
    fn kernel_values_and_validation() {
        let (k, m) = plane();
        assert_eq!(k.of_distance(0.0), 1.0);
        assert!(close(k.of_distance(0.2), (-0.5f64).exp(), 1e-15));
        assert!(close(k.eval(&m, &[0.0, 0.0], &[0.25, 0.5]), (-0.3125f64 / 0.08).exp(), 1e-15));
        assert_eq!(RbfKernel::default(), k);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(RbfKernel::new(bad), Err(Error::InvalidParameter { name, .. }) if name == "kernel_length")
            );
        }
    }

    #[test]
    fn one_observation_by_hand() {
        let (k, m) = plane();
        let (r, y) = (0.1, 0.7);
        let mut krr = Krr::new(k, m, r, 2).unwrap();
        assert_eq!(krr.posterior_at(&[0.5, 0.5]), Posterior::PRIOR);
        krr.add_observation(&[0.0, 0.0], y).unwrap();
        let p = krr.posterior_at(&[0.0, 0.0]);
        assert!(close(p.mean, y / (1.0 + r), 1e-14));
        assert!(close(p.var, 1.0 - 1.0 / (1.0 + r), 1e-14));
        // a point at normalised distance 0.25
        let kap = (-0.0625f64 / 0.08).exp();
        let q = krr.posterior_at(&[0.25, 0.0]);
        assert!(close(q.mean, kap * y / (1.0 + r), 1e-14));
        assert!(close(q.var, 1.0 - kap * kap / (1.0 + r), 1e-14));
        // γ for one observation with r = λ is ½ ln(1 + 1/λ)
        assert!(close(krr.gamma(), 0.5 * (1.0 + 1.0 / r).ln(), 1e-14));
        assert!(close(krr.gamma(), 1.1989476363991853, 1e-14));
    }

    #[test]
    fn two_observations_by_hand() {
        let (k, m) = plane();
        let (r, y1, y2) = (0.05, 0.3, 0.9);
        let mut krr = Krr::new(k, m, r, 2).unwrap();
        krr.add_observation(&[0.0, 0.0], y1).unwrap();
        krr.add_observation(&[0.25, 0.0], y2).unwrap();
        let id = krr.track(&[0.5, 0.0]);
        let k12 = (-0.0625f64 / 0.08).exp();
        let (k1, k2) = ((-0.25f64 / 0.08).exp(), k12); // x at distance 0.5 and 0.25
                                                       // (K + rI)⁻¹ = 1/det · [[1+r, −k12], [−k12, 1+r]]
        let det = (1.0 + r) * (1.0 + r) - k12 * k12;
        let (i11, i12) = ((1.0 + r) / det, -k12 / det);
        let mean = k1 * (i11 * y1 + i12 * y2) + k2 * (i12 * y1 + i11 * y2);
        let var = 1.0 - (k1 * k1 * i11 + 2.0 * k1 * k2 * i12 + k2 * k2 * i11);
        for p in [krr.posterior_at(&[0.5, 0.0]), krr.posterior_tracked(id)] {
            assert!(close(p.mean, mean, 1e-13), "{} vs {mean}", p.mean);
            assert!(close(p.var, var, 1e-13), "{} vs {var}", p.var);
        }
        let g = 0.5 * ((1.0 + 1.0 / r).powi(2) - (k12 / r).powi(2)).ln();
        assert!(close(krr.gamma(), g, 1e-13));
        assert!(close(gamma_dense(krr.observations(), k, m, r), g, 1e-13));
        let d = posterior_dense(krr.observations(), krr.targets(), k, m, r, &[0.5, 0.0]);
        assert!(close(d.mean, mean, 1e-13) && close(d.var, var, 1e-13));
    }

    #[test]
    fn growing_cholesky_matches_nalgebra() {
        let a = nalgebra::DMatrix::from_row_slice(3, 3, &[1.0, 0.5, 0.2, 0.5, 1.0, 0.3, 0.2, 0.3, 1.0]);
        let r = 0.1;
        let mut g = GrowingCholesky::new(r);
        for i in 0..3 {
            let cross: Vec<f64> = (0..i).map(|j| a[(i, j)]).collect();
            g.push(&cross, a[(i, i)]);
        }
        let l = (a + nalgebra::DMatrix::identity(3, 3) * r).cholesky().unwrap().l();
        for i in 0..3 {
            for j in 0..=i {
                assert!(close(g.row(i)[j], l[(i, j)], 1e-14));
            }
        }
        assert_eq!(g.jitter_events(), 0);
        let mut b = vec![1.0, 2.0, 3.0];
        g.solve_lower_in_place(&mut b);
        let lb = &l * nalgebra::DVector::from_vec(b);
        assert!((lb - nalgebra::DVector::from_vec(vec![1.0, 2.0, 3.0])).norm() < 1e-13);
    }

    /// Reusing the posterior's solve for the observation at the same point gives the same
    /// learner, bit for bit (factor, targets, γ, posteriors), including across duplicates; a
    /// stale solve falls back to the full step.
    #[test]
    fn observation_with_reused_solve_is_identical() {
        let (kernel, metric) = plane();
        let mut plain = Krr::new(kernel, metric, 0.1, 2).unwrap();
        let mut reuse = plain.clone();
        let xs: [[f32; 2]; 6] = [[0.1, 0.2], [0.4, 0.4], [0.1, 0.2], [0.9, 0.05], [0.33, 0.71], [0.4, 0.4]];
        for (i, x) in xs.iter().enumerate() {
            let y = 0.1 + 0.13 * i as f64;
            let (post, solved) = reuse.posterior_and_solve(x);
            assert_eq!(post, plain.posterior_at(x));
            if i == 4 {
                // An observation in between makes the solve stale: the full step is taken.
                reuse.add_observation(&[0.5, 0.5], 0.2).unwrap();
                plain.add_observation(&[0.5, 0.5], 0.2).unwrap();
            }
            reuse.add_observation_solved(x, y, solved).unwrap();
            plain.add_observation(x, y).unwrap();
            assert_eq!(reuse.cholesky().packed, plain.cholesky().packed);
            assert_eq!(reuse.a, plain.a);
            assert_eq!(reuse.gamma().to_bits(), plain.gamma().to_bits());
        }
    }

    /// Observing at a tracked point through its projection gives the same learner as the full
    /// step, bit for bit (factor, targets, γ, posteriors), including duplicates, a point whose
    /// projection lags several observations behind, and a point that is not the tracked one.
    #[test]
    fn observation_at_a_tracked_point_is_identical() {
        let (kernel, metric) = plane();
        let mut plain = Krr::new(kernel, metric, 0.1, 2).unwrap();
        let mut reuse = plain.clone();
        let xs: [[f32; 2]; 7] =
            [[0.1, 0.2], [0.4, 0.4], [0.1, 0.2], [0.9, 0.05], [0.33, 0.71], [0.4, 0.4], [0.1, 0.2]];
        let ids = [reuse.track(&xs[0]), reuse.track(&xs[1]), reuse.track(&xs[3]), reuse.track(&xs[4])];
        let id_of = |x: &[f32; 2]| match x {
            [a, _] if *a == 0.1 => ids[0],
            [a, _] if *a == 0.4 => ids[1],
            [a, _] if *a == 0.9 => ids[2],
            _ => ids[3],
        };
        for (i, x) in xs.iter().enumerate() {
            let y = 0.1 + 0.13 * i as f64;
            if i % 2 == 0 {
                assert_eq!(reuse.posterior_tracked(id_of(x)), plain.posterior_at(x));
            }
            if i == 4 {
                // An observation at a point that is not the tracked one: the full step.
                reuse.add_observation_at_tracked(ids[0], &[0.5, 0.5], 0.2).unwrap();
                plain.add_observation(&[0.5, 0.5], 0.2).unwrap();
            }
            reuse.add_observation_at_tracked(id_of(x), x, y).unwrap();
            plain.add_observation(x, y).unwrap();
            assert_eq!(reuse.cholesky().packed, plain.cholesky().packed);
            assert_eq!(reuse.a, plain.a);
            assert_eq!(reuse.gamma().to_bits(), plain.gamma().to_bits());
        }
        assert!(reuse.add_observation_at_tracked(ids[0], &xs[0], f64::NAN).is_err());
        assert_eq!(reuse.n_obs(), plain.n_obs());
    }

    /// After `reserve(n)`, the next `n` observations move neither the factor nor a projection.
    #[test]
    fn reserve_prevents_reallocation() {
        let (kernel, metric) = plane();
        let mut krr = Krr::new(kernel, metric, 0.1, 2).unwrap();
        let id = krr.track(&[0.2, 0.2]);
        krr.add_observation(&[0.1, 0.1], 0.3).unwrap();
        krr.posterior_tracked(id);
        let mut grown = krr.clone();
        grown.reserve(3);
        let (factor, proj) = (grown.chol.packed.as_ptr(), grown.tracked[id].v.as_ptr());
        for (i, x) in [[0.5f32, 0.5], [0.9, 0.1], [0.3, 0.7]].iter().enumerate() {
            grown.add_observation(x, 0.1 * i as f64).unwrap();
            krr.add_observation(x, 0.1 * i as f64).unwrap();
            assert_eq!(grown.posterior_tracked(id), krr.posterior_tracked(id));
        }
        assert_eq!((grown.chol.packed.as_ptr(), grown.tracked[id].v.as_ptr()), (factor, proj));
    }

    #[test]
    fn bounds_on_fixed_numbers() {
        let p = Posterior { mean: 0.3, var: 0.04 };
        assert!(close(p.sd(), 0.2, 1e-15));
        // 0.3 + (1 + √(ln 200 / 1))·0.2
        assert!(close(pessimistic_cost(&p, 10, 5, 0.1, 1.0, 0.05, 1.0), 0.9603614826002731, 1e-14));
        assert!(close(offline_width_factor(10, 5, 0.1, 1.0, 0.05), 3.301807413001365, 1e-14));
        assert_eq!(pessimistic_cost(&Posterior::PRIOR, 0, 5, 0.1, 1.0, 0.05, 2.0), 1.0);
        // 0.3 − (1 + 0.05·√(2(2 + ln 40)))·0.2
        assert!(close(online_width_factor(2.0, 1.0, 0.05, 0.05), 1.168654668688921, 1e-14));
        assert!(close(optimistic_cost(&p, 3, 2.0, 1.0, 0.05, 0.05, 1.0), 0.06626906626221579, 1e-14));
        assert_eq!(optimistic_cost(&Posterior::PRIOR, 0, 0.0, 1.0, 0.05, 0.05, 3.0), -1.0);
        // β scales the width, β = 0 is the plain mean
        assert_eq!(optimistic_cost(&p, 3, 2.0, 1.0, 0.05, 0.05, 0.0), 0.3);
    }

    #[test]
    fn rejects_bad_input() {
        let (k, m) = plane();
        for bad in [0.0, -0.1, f64::NAN, f64::INFINITY] {
            assert!(Krr::new(k, m, bad, 2).is_err());
        }
        assert!(Krr::new(RbfKernel { length_scale: -1.0 }, m, 0.1, 2).is_err());
        assert!(Krr::new(k, m, 0.1, 0).is_err());
        let mut krr = Krr::new(k, m, 0.1, 2).unwrap();
        assert!(krr.add_observation(&[0.0], 0.5).is_err());
        assert!(krr.add_observation(&[0.0, f32::NAN], 0.5).is_err());
        assert!(krr.add_observation(&[0.0, 0.0], f64::INFINITY).is_err());
        assert!(krr.add_observation(&[0.0, 0.0], f64::NAN).is_err());
        assert_eq!(krr.n_obs(), 0);
        assert_eq!(krr.gamma(), 0.0);
        let pts = Points::from_rows(&[[0.0f32, 0.0]]).unwrap();
        assert!(Krr::fit(k, m, 0.1, &pts, &[0.1, 0.2]).is_err());
    }

    #[test]
    fn duplicates_with_tiny_ridge_jitter_and_stay_finite() {
        let (k, m) = plane();
        let mut krr = Krr::new(k, m, 1e-15, 2).unwrap();
        let id = krr.track(&[0.1, 0.1]);
        for i in 0..6 {
            krr.add_observation(&[0.1, 0.1], 0.5 + 0.01 * i as f64).unwrap();
        }
        assert!(krr.jitter_events() >= 1);
        let p = krr.posterior_tracked(id);
        assert!(p.mean.is_finite() && p.var.is_finite() && p.var >= 0.0);
        assert!(krr.gamma().is_finite());
        assert_eq!(p, krr.posterior_at(&[0.1, 0.1]));
    }
}
