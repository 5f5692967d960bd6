//! A 2-D view of a query space: principal component analysis (PCA) onto the two directions of
//! largest variance, for drawing 384-dimensional embeddings in the playground (SPEC §10 "geom":
//! "2-D projection of the stream").
//!
//! A [`Projection`] is fitted once — on a dataset's universe or an evenly strided sample of it —
//! and reused for every point drawn afterwards (arrivals, centers, the cache), so a point keeps
//! its place from frame to frame. The axes are the top-2 eigenvectors of the sample covariance,
//! obtained from the `d × d` covariance or, when there are fewer points than dimensions, from the
//! `n × n` Gram matrix (same axes, smaller problem). Each axis's sign is fixed by a convention —
//! its largest-magnitude coordinate is positive (ties to the lowest coordinate) — so refitting the
//! same data gives the same picture, never a mirrored one. Directions without variance (all
//! points on a line, one point) fall back to the first canonical basis vectors orthogonal to the
//! earlier axes, so the result is always an orthonormal pair (for `d ≥ 2`).

use crate::error::{Error, Result};
use crate::space::Points;
use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// Largest number of points [`Projection::fit_sample`] uses by default: enough for a faithful
/// picture, cheap enough to fit in a browser tab in well under a second.
pub const DEFAULT_FIT_POINTS: usize = 2_000;

/// Eigenvalues at most this fraction of the largest (or of 1 if that is 0) count as no variance.
const NO_VARIANCE: f64 = 1e-12;

/// A fitted linear map `x ↦ (a₁·(x − μ), a₂·(x − μ))`.
#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    /// `μ`, the mean of the fitted points.
    pub mean: Vec<f64>,
    /// `a₁, a₂`: orthonormal (for `d ≥ 2`), first the direction of largest variance. For `d = 1`
    /// the second axis is zero.
    pub axes: [Vec<f64>; 2],
    /// Fraction of the total variance along each axis (0 when the points have no variance).
    pub explained: [f64; 2],
}

impl Projection {
    /// Fits on every point.
    pub fn fit(points: &Points) -> Result<Projection> {
        if points.is_empty() {
            return Err(Error::data("a projection needs at least one point to fit on"));
        }
        let (n, d) = (points.len(), points.dim());
        let mean: Vec<f64> =
            (0..d).map(|j| points.iter().map(|x| x[j] as f64).sum::<f64>() / n as f64).collect();
        let centred = DMatrix::from_fn(n, d, |i, j| points.row(i)[j] as f64 - mean[j]);
        let total = centred.iter().map(|v| v * v).sum::<f64>() / n as f64;

        // The top-2 eigenpairs (variance, unit direction) of the covariance Xᵀ X / n.
        let mut pairs: Vec<(f64, Option<DVector<f64>>)> = if n < d {
            // Gram path: X Xᵀ v = λ v  ⇒  (Xᵀ X)(Xᵀ v) = λ (Xᵀ v).
            let gram = &centred * centred.transpose();
            top_two(gram)?
                .into_iter()
                .map(|(lambda, v)| {
                    let a = centred.transpose() * v;
                    let norm = a.norm();
                    (lambda / n as f64, (norm > 0.0).then(|| a / norm))
                })
                .collect()
        } else {
            let cov = centred.transpose() * &centred;
            top_two(cov)?.into_iter().map(|(lambda, v)| (lambda / n as f64, Some(v))).collect()
        };
        pairs.resize(2, (0.0, None));

        let largest = pairs[0].0.max(0.0);
        let floor = NO_VARIANCE * if largest > 0.0 { largest } else { 1.0 };
        let mut axes: Vec<Vec<f64>> = Vec::with_capacity(2);
        let mut explained = [0.0; 2];
        for (slot, (lambda, dir)) in pairs.into_iter().enumerate() {
            let axis = match dir {
                Some(v) if lambda > floor => {
                    explained[slot] = if total > 0.0 { (lambda / total).clamp(0.0, 1.0) } else { 0.0 };
                    v.iter().copied().collect()
                }
                _ => canonical_complement(d, &axes),
            };
            axes.push(fix_sign(axis));
        }
        let second = axes.pop().expect("two axes");
        let first = axes.pop().expect("two axes");
        Ok(Projection { mean, axes: [first, second], explained })
    }

    /// Fits on at most `max_points` points, taken evenly strided in index order (all of them if
    /// there are no more than that). Deterministic.
    pub fn fit_sample(points: &Points, max_points: usize) -> Result<Projection> {
        let n = points.len();
        if n <= max_points.max(1) {
            return Projection::fit(points);
        }
        let m = max_points.max(1);
        let idx: Vec<usize> = (0..m).map(|i| i * n / m).collect();
        Projection::fit(&points.select(&idx))
    }

    /// The dimension of the space it projects from.
    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// The share of the fitted points' variance the picture keeps: both axes' together.
    pub fn kept(&self) -> f64 {
        (self.explained[0] + self.explained[1]).clamp(0.0, 1.0)
    }

    /// What a picture drawn with it is, in one line (the live view draws it in each canvas):
    /// "2-D PCA of 384-d embeddings: keeps 6% of the variance; nearby points here may be far
    /// apart". The second clause holds for every orthogonal projection: it never lengthens a
    /// distance, so points far apart in the space can meet in the picture, never the reverse.
    pub fn caption(&self) -> String {
        format!(
            "2-D PCA of {}-d embeddings: keeps {} of the variance; nearby points here may be far apart",
            self.dim(),
            percent(self.kept())
        )
    }

    /// The 2-D coordinates of `x`. Panics if `x` has the wrong dimension (use
    /// [`project_all`](Self::project_all) for unchecked input).
    pub fn project(&self, x: &[f32]) -> [f64; 2] {
        assert_eq!(x.len(), self.dim(), "a point of the wrong dimension");
        let mut out = [0.0; 2];
        for (o, axis) in out.iter_mut().zip(&self.axes) {
            *o = x.iter().zip(&self.mean).zip(axis).map(|((&xi, &mi), &ai)| (xi as f64 - mi) * ai).sum();
        }
        out
    }

    /// The 2-D coordinates of every point, flat `[x₀, y₀, x₁, y₁, …]`; checks the dimension.
    pub fn project_all(&self, points: &Points) -> Result<Vec<f64>> {
        if points.dim() != self.dim() {
            return Err(Error::data(format!(
                "points are {}-dimensional but the projection was fitted on {}-dimensional ones",
                points.dim(),
                self.dim()
            )));
        }
        Ok(points.iter().flat_map(|x| self.project(x)).collect())
    }
}

/// A share in `[0, 1]` as a whole percentage, never rounded to a value it is not: "under 1%"
/// above 0 and "over 99%" below 1 (within rounding error of the fit: 10⁻⁶ percentage points).
fn percent(share: f64) -> String {
    const ROUNDING: f64 = 1e-6;
    let p = 100.0 * share;
    if p > ROUNDING && p < 0.5 {
        "under 1%".to_string()
    } else if (99.5..100.0 - ROUNDING).contains(&p) {
        "over 99%".to_string()
    } else {
        format!("{p:.0}%")
    }
}

/// The two largest eigenpairs of a symmetric matrix, largest first (ties to the lower index of
/// the decomposition); fewer if the matrix is smaller.
fn top_two(m: DMatrix<f64>) -> Result<Vec<(f64, DVector<f64>)>> {
    let eig = SymmetricEigen::try_new(m, f64::EPSILON, 100_000)
        .ok_or_else(|| Error::data("the covariance eigen-decomposition did not converge"))?;
    let mut order: Vec<usize> = (0..eig.eigenvalues.len()).collect();
    crate::order::sort_indices_by(&mut order, |a| -eig.eigenvalues[a]);
    Ok(order
        .into_iter()
        .take(2)
        .map(|i| (eig.eigenvalues[i], eig.eigenvectors.column(i).into_owned()))
        .collect())
}

/// The first canonical basis vector `e_j` with a substantial component orthogonal to `earlier`,
/// orthonormalised against them (Gram–Schmidt); zero if none is left (`d = 1`).
fn canonical_complement(d: usize, earlier: &[Vec<f64>]) -> Vec<f64> {
    for j in 0..d {
        let mut v = vec![0.0; d];
        v[j] = 1.0;
        for a in earlier {
            let dot: f64 = v.iter().zip(a).map(|(x, y)| x * y).sum();
            v.iter_mut().zip(a).for_each(|(x, y)| *x -= dot * y);
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 0.5 {
            return v.into_iter().map(|x| x / norm).collect();
        }
    }
    vec![0.0; d]
}

/// The sign convention: the coordinate of largest magnitude (lowest index among ties) is positive.
fn fix_sign(mut v: Vec<f64>) -> Vec<f64> {
    let mut best = 0;
    for (j, x) in v.iter().enumerate() {
        if x.abs() > v[best].abs() {
            best = j;
        }
    }
    if v.get(best).is_some_and(|&x| x < 0.0) {
        v.iter_mut().for_each(|x| *x = -*x);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(dim: usize, data: Vec<f32>) -> Points {
        Points::from_flat(dim, data).unwrap()
    }

    fn dot(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// Points `o + t·u + s·w` in 5-D for a grid of (t, s) with `t` spread much wider than `s`.
    fn plane_in_5d() -> (Points, [f64; 5], [f64; 5]) {
        let o = [0.3, -1.0, 2.0, 0.5, 0.0];
        let u = [0.6, 0.0, 0.8, 0.0, 0.0]; // unit
        let w = [0.0, 0.0, 0.0, 0.0, -1.0]; // unit, orthogonal to u
        let mut data = Vec::new();
        for i in 0..9 {
            for j in 0..5 {
                let (t, s) = (i as f64 - 4.0, 0.25 * (j as f64 - 2.0));
                data.extend((0..5).map(|k| (o[k] + t * u[k] + s * w[k]) as f32));
            }
        }
        (pts(5, data), u, w)
    }

    #[test]
    fn recovers_the_axes_of_a_plane() {
        let (p, u, w) = plane_in_5d();
        let pr = Projection::fit(&p).unwrap();
        // sign convention: largest-magnitude coordinate positive, so a₁ = u (0.8 > 0), a₂ = −w
        for (got, want) in pr.axes[0].iter().zip(u) {
            assert!((got - want).abs() < 1e-6, "{:?}", pr.axes[0]);
        }
        for (got, want) in pr.axes[1].iter().zip(w) {
            assert!((got + want).abs() < 1e-6, "{:?}", pr.axes[1]);
        }
        assert!((dot(&pr.axes[0], &pr.axes[1])).abs() < 1e-9);
        assert!((pr.explained[0] + pr.explained[1] - 1.0).abs() < 1e-6);
        assert!(pr.explained[0] > pr.explained[1]);
        // the projection preserves distances within the plane
        let (a, b) = (pr.project(p.row(0)), pr.project(p.row(44)));
        let d2 = (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
        assert!((d2 - (8.0f64.powi(2) + 1.0f64.powi(2))).abs() < 1e-4, "{d2}");
    }

    #[test]
    fn gram_path_agrees_with_covariance_path() {
        // 3 points in 6-D (n < d: Gram path) versus the same points padded to 8 copies (covariance
        // path: same mean, same covariance).
        let rows = [
            [1.0f32, 0.0, 2.0, 0.0, 0.5, 0.0],
            [0.0, 1.0, 0.0, 3.0, 0.0, 0.0],
            [2.0, 2.0, 1.0, 0.0, 0.0, 1.0],
        ];
        let few = Points::from_rows(&rows).unwrap();
        let many_rows: Vec<[f32; 6]> = (0..8).flat_map(|_| rows).collect();
        let many = Points::from_rows(&many_rows).unwrap();
        let (a, b) = (Projection::fit(&few).unwrap(), Projection::fit(&many).unwrap());
        for k in 0..2 {
            for (x, y) in a.axes[k].iter().zip(&b.axes[k]) {
                assert!((x - y).abs() < 1e-9, "axis {k}: {:?} vs {:?}", a.axes[k], b.axes[k]);
            }
            assert!((a.explained[k] - b.explained[k]).abs() < 1e-9);
        }
    }

    #[test]
    fn points_on_a_line_and_degenerate_inputs() {
        // On the line through (1, 1, 1) with direction (−1, 2, 2)/3: first axis = ±that direction,
        // oriented so its largest coordinate (the 2, lowest index: coordinate 1) is positive.
        let data: Vec<f32> =
            (0..7).flat_map(|t| [1.0 - t as f32, 1.0 + 2.0 * t as f32, 1.0 + 2.0 * t as f32]).collect();
        let pr = Projection::fit(&pts(3, data)).unwrap();
        let want = [-1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0];
        for (g, w) in pr.axes[0].iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{:?}", pr.axes[0]);
        }
        assert!((pr.explained[0] - 1.0).abs() < 1e-9 && pr.explained[1] == 0.0);
        // no variance left: the second axis is still a unit vector orthogonal to the first
        assert!((dot(&pr.axes[1], &pr.axes[1]) - 1.0).abs() < 1e-9);
        assert!(dot(&pr.axes[0], &pr.axes[1]).abs() < 1e-9);

        // one point: mean = the point, canonical axes, projects to the origin
        let one = Projection::fit(&pts(3, vec![1.0, 2.0, 3.0])).unwrap();
        assert_eq!(one.axes, [vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]]);
        assert_eq!(one.project(&[1.0, 2.0, 3.0]), [0.0, 0.0]);
        // d = 1: the second axis is zero
        let line = Projection::fit(&pts(1, vec![0.0, 1.0, 3.0])).unwrap();
        assert_eq!(line.axes, [vec![1.0], vec![0.0]]);
        assert!(Projection::fit(&Points::new(4).unwrap()).is_err());
        let e = one.project_all(&pts(2, vec![0.0, 0.0])).unwrap_err().to_string();
        assert!(e.contains("fitted on 3-dimensional"), "{e}");
    }

    /// The caption states the dimension and the kept variance the fit measured, rounded to a
    /// whole percentage that never reads 0% or 100% when it is not.
    #[test]
    fn the_caption_states_the_kept_variance() {
        let mut pr = Projection {
            mean: vec![0.0; 384],
            axes: [vec![0.0; 384], vec![0.0; 384]],
            explained: [0.04, 0.022],
        };
        assert_eq!(
            pr.caption(),
            "2-D PCA of 384-d embeddings: keeps 6% of the variance; nearby points here may be far apart"
        );
        assert!((pr.kept() - 0.062).abs() < 1e-12);
        pr.explained = [0.003, 0.001];
        assert!(pr.caption().contains("keeps under 1% of the variance"), "{}", pr.caption());
        pr.explained = [0.9, 0.0996];
        assert!(pr.caption().contains("keeps over 99% of the variance"), "{}", pr.caption());
        pr.explained = [0.0, 0.0];
        assert!(pr.caption().contains("keeps 0% of the variance"), "{}", pr.caption());
        // A plane in 5-D: all of it.
        let (p, _, _) = plane_in_5d();
        let fitted = Projection::fit(&p).unwrap();
        assert!(
            fitted.caption().starts_with("2-D PCA of 5-d embeddings: keeps 100% of the variance"),
            "{}",
            fitted.caption()
        );
    }

    #[test]
    fn the_mean_projects_to_the_origin_and_signs_are_stable() {
        let (p, _, _) = plane_in_5d();
        let pr = Projection::fit(&p).unwrap();
        let mean: Vec<f32> = pr.mean.iter().map(|&m| m as f32).collect();
        let at = pr.project(&mean);
        assert!(at[0].abs() < 1e-6 && at[1].abs() < 1e-6, "{at:?}");
        // refitting, refitting on a reordering, and on a mirrored copy keep the orientation
        let again = Projection::fit(&p).unwrap();
        assert_eq!(again, pr);
        let rev: Vec<usize> = (0..p.len()).rev().collect();
        let shuffled = Projection::fit(&p.select(&rev)).unwrap();
        for k in 0..2 {
            assert!(dot(&shuffled.axes[k], &pr.axes[k]) > 1.0 - 1e-9);
        }
        let mirrored = pts(5, p.as_flat().iter().map(|v| -v).collect());
        let m = Projection::fit(&mirrored).unwrap();
        for k in 0..2 {
            assert!(dot(&m.axes[k], &pr.axes[k]) > 1.0 - 1e-9);
            let big = m.axes[k].iter().copied().fold(0.0f64, |a, b| if b.abs() > a.abs() { b } else { a });
            assert!(big > 0.0);
        }
        // a strided sample of a large set
        let sample = Projection::fit_sample(&p, 15).unwrap();
        assert_eq!(sample.dim(), 5);
        assert_eq!(Projection::fit_sample(&p, 1000).unwrap(), pr);
    }
}
