//! An approximate online learner, named as such: kernel ridge regression restricted to the ε-net
//! centers as inducing points (the Nyström / subset-of-regressors model; its variance is the DTC
//! one — Quiñonero-Candela & Rasmussen 2005, Rasmussen & Williams §8.3). Not the paper's learner:
//! [`super::Krr`] is, and the paper's policies use it. This one exists so that the theory checks
//! can reach horizons the exact learner cannot (its cost grows like `T³` on streams of distinct
//! points, docs/PERFORMANCE.md), with its error stated and measured against the exact one
//! (docs/SPEC-NOTES.md, "An approximate learner over the centers").
//!
//! With the centers `Z` (`m` of them), the observations `X` (`ℓ`), the ridge `r` and a jitter `j`:
//!
//! ```text
//! Σ = K_ZX K_XZ + r (K_ZZ + jI)                       (m × m, kept as a Cholesky factor L)
//! ĉ(x) = k_xZ Σ⁻¹ K_ZX y = (L⁻¹k_Zx)·(L⁻¹b),          b = K_ZX y
//! σ²(x) = κ(x,x) − k_xZ (K_ZZ + jI)⁻¹ k_Zx + r‖L⁻¹k_Zx‖²   (at a center: r‖L⁻¹k_Zx‖²)
//! γ = ½ log det(I + K_XZ (K_ZZ + jI)⁻¹ K_ZX / r) = ½ (ln det Σ − m ln r − ln det(K_ZZ + jI))
//! ```
//!
//! When every observation lies on a center (`X ⊆ Z`) these are the exact posterior and `γ` of
//! [`super::Krr`] up to the jitter (tests below). Each observation is a rank-one update of `L`
//! (O(m²)); a new center adds a row and column to `Σ` from the stored `K_ZX` (O(mℓ + ℓd)); a
//! posterior at a center is two triangular solves (O(m²)). A run costs O(T·m² + m²·ℓ) instead of
//! O(T³).

use super::{check_cost, Posterior, RbfKernel};
use crate::error::Result;
use crate::space::{Metric, Points};
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

/// The diagonal jitter `j` on `K_ZZ` (relative to `κ(x,x) = 1`): centers are at least ε apart, so
/// `K_ZZ` is positive definite in exact arithmetic; the jitter keeps its factor so in rounding.
pub const JITTER: f64 = 1e-8;

/// The Nyström learner (module documentation).
#[derive(Clone, Debug)]
pub struct NystromKrr {
    kernel: RbfKernel,
    metric: Metric,
    ridge: f64,
    obs: Points,
    y: Vec<f64>,
    centers: Points,
    /// `K_ZZ` (dense, `m × m`).
    kzz: DMatrix<f64>,
    /// Row `i`: `κ(z_i, x_j)` for every observation `j`.
    kzx: Vec<Vec<f64>>,
    /// Factor of `Σ`; `None` with no center.
    sigma: Option<Cholesky<f64, Dyn>>,
    /// Factor of `K_ZZ + jI`, for `γ` and the variance away from the centers.
    kzz_chol: Option<Cholesky<f64, Dyn>>,
    b: DVector<f64>,
    /// `L⁻¹b`, until the next observation or center.
    solved_b: Option<DVector<f64>>,
}

impl NystromKrr {
    /// An empty learner with ridge `r` (`r = λ` online), for `dim`-dimensional queries.
    pub fn new(kernel: RbfKernel, metric: Metric, ridge: f64, dim: usize) -> Result<Self> {
        super::Krr::new(kernel, metric, ridge, dim)?; // the same checks of `r` and `ℓ_k`
        Ok(NystromKrr {
            kernel,
            metric,
            ridge,
            obs: Points::new(dim)?,
            y: Vec::new(),
            centers: Points::new(dim)?,
            kzz: DMatrix::zeros(0, 0),
            kzx: Vec::new(),
            sigma: None,
            kzz_chol: None,
            b: DVector::zeros(0),
            solved_b: None,
        })
    }

    /// `ℓ`, the number of cost observations.
    pub fn n_obs(&self) -> usize {
        self.y.len()
    }

    /// `m`, the number of centers (inducing points).
    pub fn n_tracked(&self) -> usize {
        self.centers.len()
    }

    fn k(&self, a: &[f32], b: &[f32]) -> f64 {
        self.kernel.eval(&self.metric, a, b)
    }

    /// Adds the center `z` (an inducing point) and returns its id (0, 1, …). Panics on a wrong
    /// dimension or a non-finite point (callers pass the ε-net's validated centers).
    pub fn track(&mut self, z: &[f32]) -> usize {
        let m = self.centers.len();
        let k_self = self.kernel.of_distance(0.0);
        let kz: Vec<f64> = self.centers.iter().map(|c| self.k(c, z)).collect();
        let row: Vec<f64> = self.obs.iter().map(|x| self.k(z, x)).collect();
        // Σ's new column: K_ZX·k_Xz + r·k_Zz, and its corner ‖k_Xz‖² + r(κ + j).
        let mut col = DVector::zeros(m + 1);
        for i in 0..m {
            col[i] = crate::vector_ops::dot(&self.kzx[i], &row) + self.ridge * kz[i];
        }
        col[m] = crate::vector_ops::dot(&row, &row) + self.ridge * (k_self + JITTER);
        let mut kzz_col = DVector::zeros(m + 1);
        kzz_col.rows_mut(0, m).copy_from_slice(&kz);
        kzz_col[m] = k_self + JITTER;
        self.sigma = Some(grow(self.sigma.take(), &col));
        self.kzz_chol = Some(grow(self.kzz_chol.take(), &kzz_col));
        self.kzz = self.kzz.clone().insert_row(m, 0.0).insert_column(m, 0.0);
        for (i, &k) in kz.iter().enumerate() {
            self.kzz[(i, m)] = k;
            self.kzz[(m, i)] = k;
        }
        self.kzz[(m, m)] = k_self;
        let by: f64 = row.iter().zip(&self.y).map(|(k, y)| k * y).sum();
        self.b = self.b.clone().insert_row(m, by);
        self.kzx.push(row);
        self.solved_b = None;
        self.centers.push(z).expect("centers are validated points")
    }

    /// Adds the observation `(x, y)` (Alg. 5 line 8, stored at `x` itself as SPEC §11.6 says):
    /// one rank-one update of `Σ`'s factor. Rejects a wrong dimension and non-finite values; on
    /// error nothing changes.
    pub fn add_observation(&mut self, x: &[f32], y: f64) -> Result<()> {
        check_cost(y)?;
        self.obs.push(x)?;
        self.y.push(y);
        let kx = DVector::from_iterator(self.centers.len(), self.centers.iter().map(|z| self.k(z, x)));
        for (row, &k) in self.kzx.iter_mut().zip(kx.iter()) {
            row.push(k);
        }
        self.b.axpy(y, &kx, 1.0);
        if let Some(l) = self.sigma.as_mut() {
            l.rank_one_update(&kx, 1.0);
        }
        self.solved_b = None;
        Ok(())
    }

    /// `L⁻¹ v` for `Σ = LLᵀ`.
    fn lower_solve(&self, v: &DVector<f64>) -> DVector<f64> {
        let l = self.sigma.as_ref().expect("a center exists");
        l.l_dirty().solve_lower_triangular(v).expect("the factor's diagonal is positive")
    }

    /// `ĉ` and `σ²` at center `id` (Alg. 4 lines 9–10 with the Nyström model).
    pub fn posterior_tracked(&mut self, id: usize) -> Posterior {
        if self.solved_b.is_none() {
            self.solved_b = Some(self.lower_solve(&self.b));
        }
        let v = self.lower_solve(&self.kzz.column(id).into_owned());
        let mean = v.dot(self.solved_b.as_ref().expect("just solved"));
        let k_self = self.kernel.of_distance(0.0);
        Posterior { mean, var: (self.ridge * v.norm_squared()).clamp(0.0, k_self) }
    }

    /// The posteriors at every center, in id order.
    pub fn posterior_tracked_all(&mut self) -> Vec<Posterior> {
        (0..self.centers.len()).map(|id| self.posterior_tracked(id)).collect()
    }

    /// `ĉ(x)` and `σ²(x)` at any point (the prior with no center).
    pub fn posterior_at(&self, x: &[f32]) -> Posterior {
        let (Some(_), Some(kzz)) = (self.sigma.as_ref(), self.kzz_chol.as_ref()) else {
            return Posterior::PRIOR;
        };
        let kx = DVector::from_iterator(self.centers.len(), self.centers.iter().map(|z| self.k(z, x)));
        let v = self.lower_solve(&kx);
        let mean = v.dot(&self.lower_solve(&self.b));
        let q = kzz.l_dirty().solve_lower_triangular(&kx).expect("positive diagonal").norm_squared();
        let k_self = self.kernel.of_distance(0.0);
        let var = k_self - q + self.ridge * v.norm_squared();
        Posterior { mean, var: var.clamp(0.0, k_self) }
    }

    /// `γ = ½ (ln det Σ − m ln r − ln det(K_ZZ + jI))`; 0 with no observation.
    pub fn gamma(&self) -> f64 {
        match (&self.sigma, &self.kzz_chol) {
            (Some(s), Some(k)) if self.n_obs() > 0 => {
                let m = self.centers.len() as f64;
                0.5 * (s.ln_determinant() - m * crate::portable::ln(self.ridge) - k.ln_determinant())
            }
            _ => 0.0,
        }
    }
}

/// The factor of a matrix grown by one last row and column `col` (its last entry the corner).
fn grow(chol: Option<Cholesky<f64, Dyn>>, col: &DVector<f64>) -> Cholesky<f64, Dyn> {
    let m = col.len() - 1;
    match chol {
        Some(c) => c.insert_column(m, col.clone()),
        None => Cholesky::new(DMatrix::from_element(1, 1, col[0])).expect("a positive corner"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::krr::Krr;

    fn pts(rows: &[[f32; 2]]) -> Vec<Vec<f32>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    /// Observations only at the centers (`X ⊆ Z`): the exact posterior and γ of `Krr`, up to the
    /// jitter — at every center, after every step, centers added before and after observations.
    #[test]
    fn on_the_centers_it_is_exact_krr() {
        let metric = Metric::new(1.0).unwrap();
        let kernel = RbfKernel::new(0.3).unwrap();
        let z = pts(&[[0.0, 0.0], [0.3, 0.1], [0.1, 0.5], [0.7, 0.7]]);
        let steps: &[(usize, f64)] = &[(0, 0.5), (1, 0.2), (0, 0.7), (2, 0.1), (3, 0.9), (1, 0.3)];
        let mut ny = NystromKrr::new(kernel, metric, 0.1, 2).unwrap();
        let mut exact = Krr::new(kernel, metric, 0.1, 2).unwrap();
        for c in &z[..2] {
            ny.track(c);
            exact.track(c);
        }
        for (s, &(at, y)) in steps.iter().enumerate() {
            if s == 3 {
                for c in &z[2..] {
                    ny.track(c);
                    exact.track(c);
                }
            }
            ny.add_observation(&z[at], y).unwrap();
            exact.add_observation(&z[at], y).unwrap();
            for (id, zi) in z.iter().enumerate().take(ny.n_tracked()) {
                let (a, b) = (ny.posterior_tracked(id), exact.posterior_tracked(id));
                assert!((a.mean - b.mean).abs() < 1e-6, "step {s}, center {id}: {a:?} vs {b:?}");
                assert!((a.var - b.var).abs() < 1e-6, "step {s}, center {id}: {a:?} vs {b:?}");
                let c = ny.posterior_at(zi);
                assert!((c.mean - a.mean).abs() < 1e-9 && (c.var - a.var).abs() < 1e-6, "{c:?} vs {a:?}");
            }
            assert!(
                (ny.gamma() - exact.gamma()).abs() < 1e-5,
                "step {s}: γ {} vs {}",
                ny.gamma(),
                exact.gamma()
            );
        }
    }

    /// Before any observation the posterior is the prior at every center; with observations off
    /// the centers the variance never exceeds the prior and the mean is a finite number.
    #[test]
    fn prior_first_and_bounded_after() {
        let metric = Metric::new(1.0).unwrap();
        let mut ny = NystromKrr::new(RbfKernel::new(0.2).unwrap(), metric, 0.5, 2).unwrap();
        assert_eq!(ny.posterior_at(&[0.0, 0.0]), Posterior::PRIOR);
        assert_eq!(ny.gamma(), 0.0);
        for c in pts(&[[0.0, 0.0], [0.5, 0.5]]) {
            ny.track(&c);
        }
        for id in 0..2 {
            let p = ny.posterior_tracked(id);
            assert!(p.mean == 0.0 && (p.var - 1.0).abs() < 1e-6, "{p:?}");
        }
        for (i, x) in pts(&[[0.05, 0.0], [0.45, 0.5], [0.2, 0.3]]).iter().enumerate() {
            ny.add_observation(x, 0.4 + 0.1 * i as f64).unwrap();
        }
        for p in ny.posterior_tracked_all() {
            assert!(p.mean.is_finite() && (0.0..=1.0).contains(&p.var), "{p:?}");
        }
        assert!(ny.gamma() > 0.0);
        assert!(ny.add_observation(&[0.0, 0.0], f64::NAN).is_err());
        assert_eq!(ny.n_obs(), 3, "a rejected observation changes nothing");
    }
}
