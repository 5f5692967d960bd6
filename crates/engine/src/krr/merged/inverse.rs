//! [`InverseKrr`]: the merged learner that keeps `A⁻¹` explicitly (the module documentation of
//! [`super`] has the algebra).

use super::super::cholesky::PIVOT_FLOOR;
use super::super::{check_cost, Krr, Posterior, RbfKernel};
use crate::error::{Error, Result};
use crate::space::{bit_key, Metric, Points};
use crate::vector_ops::{axpy, axpy4, dot};
use std::collections::HashMap;

/// Deferred rank-one terms of `A⁻¹` before they are folded into the packed matrix.
pub const PENDING: usize = 32;

/// What [`InverseKrr::posterior_and_solve`] computed at an unobserved point: `κ_x` and `A⁻¹κ_x`
/// at `version`.
#[derive(Clone, Debug)]
pub struct InvSolved {
    version: u64,
    k: Vec<f64>,
    s: Vec<f64>,
}

#[derive(Clone, Debug)]
pub(super) struct InvTracked {
    x: Vec<f32>,
    key: Vec<u32>,
    /// The observation point it is, once it is one.
    obs: Option<usize>,
    /// `κ` against the first `k.len()` observation points.
    k: Vec<f64>,
    /// `A⁻¹κ` at a version (reused by [`InverseKrr::add_observation_at_tracked`]).
    solved: Option<(u64, Vec<f64>)>,
}

/// KRR over merged repeats with an explicit inverse (see the module documentation).
#[derive(Clone, Debug)]
pub struct InverseKrr {
    kernel: RbfKernel,
    metric: Metric,
    ridge: f64,
    k_self: f64,
    pts: Points,
    by_bits: HashMap<Vec<u32>, usize>,
    n: Vec<u64>,
    sum: Vec<f64>,
    ybar: Vec<f64>,
    total: usize,
    packed: Vec<f64>,
    pending: Vec<(f64, Vec<f64>)>,
    diag: Vec<f64>,
    alpha: Vec<f64>,
    log_det: f64,
    sum_ln_n: f64,
    version: u64,
    jitter: usize,
    pub(super) tracked: Vec<InvTracked>,
}

impl InverseKrr {
    /// An empty learner (ridge `r > 0` finite, as [`Krr::new`]).
    pub fn new(kernel: RbfKernel, metric: Metric, ridge: f64, dim: usize) -> Result<Self> {
        Krr::new(kernel, metric, ridge, dim)?; // the same validation
        Ok(InverseKrr {
            kernel,
            metric,
            ridge,
            k_self: kernel.of_distance(0.0),
            pts: Points::new(dim)?,
            by_bits: HashMap::new(),
            n: Vec::new(),
            sum: Vec::new(),
            ybar: Vec::new(),
            total: 0,
            packed: Vec::new(),
            pending: Vec::new(),
            diag: Vec::new(),
            alpha: Vec::new(),
            log_det: 0.0,
            sum_ln_n: 0.0,
            version: 0,
            jitter: 0,
            tracked: Vec::new(),
        })
    }

    /// `ℓ`, all observations (repeats included).
    pub fn n_obs(&self) -> usize {
        self.total
    }
    /// `m`, the distinct observation points.
    pub fn n_points(&self) -> usize {
        self.pts.len()
    }
    pub fn dim(&self) -> usize {
        self.pts.dim()
    }
    /// Pivots or Sherman–Morrison denominators floored (never in exact arithmetic).
    pub fn jitter_events(&self) -> usize {
        self.jitter
    }

    /// `γ = ½ (log det A − m ln r + Σ ln n_i)` (with `r = λ`: `½ log det(I + K/λ)` over all rows).
    pub fn gamma(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        0.5 * (self.log_det - self.pts.len() as f64 * crate::portable::ln(self.ridge) + self.sum_ln_n)
    }

    #[inline]
    fn row(&self, j: usize) -> &[f64] {
        let s = j * (j + 1) / 2;
        &self.packed[s..s + j + 1]
    }

    /// `A⁻¹x` (x of length m): packed symmetric product plus the deferred terms. O(m²).
    fn apply_inverse(&self, x: &[f64]) -> Vec<f64> {
        let m = x.len();
        debug_assert_eq!(m, self.pts.len());
        let mut out = vec![0.0; m];
        for j in 0..m {
            let row = self.row(j);
            out[j] += dot(row, &x[..=j]);
            axpy(x[j], &row[..j], &mut out[..j]);
        }
        for (c, u) in &self.pending {
            let l = u.len();
            axpy(c * dot(u, &x[..l]), u, &mut out[..l]);
        }
        out
    }

    /// `A⁻¹e_i`. O(m·(1 + pending)).
    fn column(&self, i: usize) -> Vec<f64> {
        let m = self.pts.len();
        let mut g = vec![0.0; m];
        g[..=i].copy_from_slice(self.row(i));
        for (j, gj) in g.iter_mut().enumerate().skip(i + 1) {
            *gj = self.packed[j * (j + 1) / 2 + i];
        }
        for (c, u) in &self.pending {
            if i < u.len() {
                axpy(c * u[i], u, &mut g);
            }
        }
        g
    }

    /// Folds the deferred terms into the packed matrix, one sweep of it. The terms only grow in
    /// length (points are never removed), so those reaching row `j` are a suffix of the list;
    /// they are added four at a time, in list order.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let mut first = 0;
        for j in 0..self.pts.len() {
            while first < pending.len() && pending[first].1.len() <= j {
                first += 1;
            }
            let s = j * (j + 1) / 2;
            let row = &mut self.packed[s..s + j + 1];
            let active = &pending[first..];
            let mut groups = active.chunks_exact(4);
            for g in &mut groups {
                let t = [g[0].0 * g[0].1[j], g[1].0 * g[1].1[j], g[2].0 * g[2].1[j], g[3].0 * g[3].1[j]];
                axpy4(t, [&g[0].1, &g[1].1, &g[2].1, &g[3].1], row);
            }
            for (c, u) in groups.remainder() {
                axpy(c * u[j], &u[..=j], row);
            }
        }
    }

    fn push_term(&mut self, c: f64, u: Vec<f64>) {
        self.pending.push((c, u));
        if self.pending.len() >= PENDING {
            self.flush();
        }
        self.version += 1;
        self.total += 1;
    }

    fn kernel_column(&self, x: &[f32], from: usize) -> impl Iterator<Item = f64> + '_ {
        let x = x.to_vec();
        (from..self.pts.len()).map(move |j| self.kernel.eval(&self.metric, self.pts.row(j), &x))
    }

    /// A new point `x` with kernel column `k` and `s = A⁻¹k`.
    fn append(&mut self, x: &[f32], key: Vec<u32>, k: &[f64], s: Vec<f64>, y: f64) {
        let m = self.pts.len();
        let total = self.k_self + self.ridge;
        let floor = PIVOT_FLOOR * total;
        let mut d2 = total - dot(k, &s);
        if d2.is_nan() || d2 <= floor {
            d2 = floor;
            self.jitter += 1;
        }
        let c = 1.0 / d2;
        let mut u = s;
        u.push(-1.0);
        self.diag.push(0.0);
        for (d, ui) in self.diag.iter_mut().zip(&u) {
            *d += c * ui * ui;
        }
        self.ybar.push(y);
        self.alpha.push(0.0);
        let uy = dot(&u, &self.ybar);
        axpy(c * uy, &u, &mut self.alpha);
        self.log_det += crate::portable::ln(d2);
        self.packed.resize(self.packed.len() + m + 1, 0.0);
        self.pts.push(x).expect("validated point");
        self.by_bits.insert(key, m);
        self.n.push(1);
        self.sum.push(y);
        self.push_term(c, u);
    }

    /// A repeat at observation point `i`.
    fn repeat(&mut self, i: usize, y: f64) {
        let g = self.column(i);
        let n = self.n[i] as f64;
        let delta = self.ridge / n - self.ridge / (n + 1.0);
        let mut denom = 1.0 - delta * g[i];
        if denom.is_nan() || denom <= PIVOT_FLOOR {
            denom = PIVOT_FLOOR;
            self.jitter += 1;
        }
        let c = delta / denom;
        let new_ybar = (self.sum[i] + y) / (n + 1.0);
        let dy = new_ybar - self.ybar[i];
        let coef = dy + c * (self.alpha[i] + dy * g[i]);
        axpy(coef, &g, &mut self.alpha);
        for (d, gj) in self.diag.iter_mut().zip(&g) {
            *d += c * gj * gj;
        }
        self.log_det += crate::portable::ln(denom);
        self.sum_ln_n += crate::portable::ln((n + 1.0) / n);
        self.ybar[i] = new_ybar;
        self.sum[i] += y;
        self.n[i] += 1;
        self.push_term(c, g);
    }

    fn validate(&self, x: &[f32], y: f64) -> Result<()> {
        check_cost(y)?;
        if x.len() != self.dim() {
            return Err(Error::data(format!(
                "a vector has {} coordinates but this set is {}-dimensional",
                x.len(),
                self.dim()
            )));
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(Error::data("a vector has a non-finite entry (NaN or ±Inf)"));
        }
        Ok(())
    }

    /// Adds the observation `(x, y)`: a repeat if `x` is an observation point bit for bit, else a
    /// new point. On error nothing changes.
    pub fn add_observation(&mut self, x: &[f32], y: f64) -> Result<()> {
        self.validate(x, y)?;
        let key = bit_key(x);
        if let Some(&i) = self.by_bits.get(&key) {
            self.repeat(i, y);
        } else {
            let k: Vec<f64> = self.kernel_column(x, 0).collect();
            let s = self.apply_inverse(&k);
            self.append(x, key, &k, s, y);
        }
        Ok(())
    }

    /// The posterior at observation point `i` in O(1).
    fn posterior_observed(&self, i: usize) -> Posterior {
        let rho = self.ridge / self.n[i] as f64;
        let mean = self.ybar[i] - rho * self.alpha[i];
        let var = rho - rho * rho * self.diag[i];
        Posterior { mean, var: var.max(0.0).min(self.k_self) }
    }

    fn posterior_from(&self, k: &[f64], s: &[f64]) -> Posterior {
        let var = self.k_self - dot(k, s);
        Posterior { mean: dot(k, &self.alpha), var: var.max(0.0).min(self.k_self) }
    }

    /// `ĉ(x)`, `σ²(x)`, and the product behind them when `x` is not an observation point.
    pub fn posterior_and_solve(&self, x: &[f32]) -> (Posterior, Option<InvSolved>) {
        assert_eq!(x.len(), self.dim(), "a query of the wrong dimension");
        if self.total == 0 {
            return (Posterior::PRIOR, None);
        }
        if let Some(&i) = self.by_bits.get(&bit_key(x)) {
            return (self.posterior_observed(i), None);
        }
        let k: Vec<f64> = self.kernel_column(x, 0).collect();
        let s = self.apply_inverse(&k);
        (self.posterior_from(&k, &s), Some(InvSolved { version: self.version, k, s }))
    }

    pub fn posterior_at(&self, x: &[f32]) -> Posterior {
        self.posterior_and_solve(x).0
    }

    /// [`add_observation`](Self::add_observation) reusing `solved` when it is current for `x`.
    pub fn add_observation_solved(&mut self, x: &[f32], y: f64, solved: Option<InvSolved>) -> Result<()> {
        match solved {
            Some(sv) if sv.version == self.version && sv.k.len() == self.pts.len() => {
                self.validate(x, y)?;
                let key = bit_key(x);
                if self.by_bits.contains_key(&key) {
                    return self.add_observation(x, y);
                }
                self.append(x, key, &sv.k, sv.s, y);
                Ok(())
            }
            _ => self.add_observation(x, y),
        }
    }

    /// Tracks point `x` (an ε-net center or a universe row); returns its id.
    pub fn track(&mut self, x: &[f32]) -> usize {
        let key = bit_key(x);
        let obs = self.by_bits.get(&key).copied();
        self.tracked.push(InvTracked { x: x.to_vec(), key, obs, k: Vec::new(), solved: None });
        self.tracked.len() - 1
    }

    /// The posterior at tracked point `id`: O(1) once it is an observation point, else one
    /// product with `A⁻¹` (its kernel column is kept and extended).
    pub fn posterior_tracked(&mut self, id: usize) -> Posterior {
        if self.total == 0 {
            return Posterior::PRIOR;
        }
        let t = &mut self.tracked[id];
        if t.obs.is_none() {
            t.obs = self.by_bits.get(&t.key).copied();
        }
        let t = &self.tracked[id];
        if let Some(i) = t.obs {
            return self.posterior_observed(i);
        }
        if let Some((v, s)) = &t.solved {
            if *v == self.version && t.k.len() == self.pts.len() {
                return self.posterior_from(&t.k, s);
            }
        }
        let t = &mut self.tracked[id];
        let from = t.k.len();
        let x = std::mem::take(&mut t.x);
        let new: Vec<f64> = self.kernel_column(&x, from).collect();
        let t = &mut self.tracked[id];
        t.x = x;
        t.k.extend(new);
        let k = std::mem::take(&mut t.k);
        let s = self.apply_inverse(&k);
        let post = self.posterior_from(&k, &s);
        let t = &mut self.tracked[id];
        t.k = k;
        t.solved = Some((self.version, s));
        post
    }

    /// [`add_observation`](Self::add_observation) at `x`, reusing tracked point `id`'s last
    /// product when `x` is that point bit for bit and nothing was observed since.
    pub fn add_observation_at_tracked(&mut self, id: usize, x: &[f32], y: f64) -> Result<()> {
        let t = &mut self.tracked[id];
        let same = x.len() == t.x.len() && x.iter().zip(&t.x).all(|(a, b)| a.to_bits() == b.to_bits());
        if same && t.obs.is_none() && t.k.len() == self.pts.len() {
            if let Some((v, s)) = t.solved.take() {
                if v == self.version {
                    self.validate(x, y)?;
                    let k = std::mem::take(&mut self.tracked[id].k);
                    let key = self.tracked[id].key.clone();
                    self.append(x, key, &k, s, y);
                    let t = &mut self.tracked[id];
                    t.k = k;
                    t.obs = Some(self.pts.len() - 1);
                    return Ok(());
                }
            }
        }
        self.add_observation(x, y)
    }
}
