//! Query space and distance (SPEC §1).
//!
//! Vectors are stored as `f32` and every distance is computed in `f64` (SPEC §12: "Vectors are
//! read as f32 and computed in f64"). The metric is `d(x, y) = ‖x − y‖₂ / D` with `D` the largest
//! pairwise Euclidean distance of the dataset's universe. Ties in any arg-min go to the lowest
//! index (SPEC §1), which every search here implements with strict `<` comparisons.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A set of vectors of one dimension, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Points {
    dim: usize,
    data: Vec<f32>,
}

impl Points {
    /// An empty set of `dim`-dimensional vectors (`dim ≥ 1`).
    pub fn new(dim: usize) -> Result<Self> {
        if dim == 0 {
            return Err(Error::data("vectors must have at least one dimension"));
        }
        Ok(Points { dim, data: Vec::new() })
    }

    /// From a flat row-major buffer; rejects a ragged length and NaN/±Inf entries.
    pub fn from_flat(dim: usize, data: Vec<f32>) -> Result<Self> {
        let mut p = Points::new(dim)?;
        if !data.len().is_multiple_of(dim) {
            return Err(Error::data(format!(
                "{} numbers do not make whole {dim}-dimensional vectors",
                data.len()
            )));
        }
        if let Some(pos) = data.iter().position(|v| !v.is_finite()) {
            return Err(Error::data(format!(
                "vector {} has a non-finite entry (NaN or ±Inf) at coordinate {}",
                pos / dim,
                pos % dim
            )));
        }
        p.data = data;
        Ok(p)
    }

    /// From rows; all rows must have the same, non-zero length.
    pub fn from_rows<R: AsRef<[f32]>>(rows: &[R]) -> Result<Self> {
        let first = rows.first().ok_or_else(|| Error::data("no vectors given"))?;
        let dim = first.as_ref().len();
        let mut p = Points::new(dim)?;
        for (i, r) in rows.iter().enumerate() {
            p.push(r.as_ref()).map_err(|e| Error::data(format!("row {i}: {e}")))?;
        }
        Ok(p)
    }

    /// Appends one vector (same dimension, finite entries).
    pub fn push(&mut self, x: &[f32]) -> Result<usize> {
        if x.len() != self.dim {
            return Err(Error::data(format!(
                "a vector has {} coordinates but this set is {}-dimensional",
                x.len(),
                self.dim
            )));
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(Error::data("a vector has a non-finite entry (NaN or ±Inf)"));
        }
        self.data.extend_from_slice(x);
        Ok(self.len() - 1)
    }

    pub fn dim(&self) -> usize {
        self.dim
    }
    pub fn len(&self) -> usize {
        self.data.len() / self.dim
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Row `i` (panics if out of range: an engine bug, never reachable from validated input).
    #[inline]
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }
    pub fn as_flat(&self) -> &[f32] {
        &self.data
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[f32]> + '_ {
        self.data.chunks_exact(self.dim)
    }
    /// The rows at `idx`, in that order.
    pub fn select(&self, idx: &[usize]) -> Points {
        let mut data = Vec::with_capacity(idx.len() * self.dim);
        for &i in idx {
            data.extend_from_slice(self.row(i));
        }
        Points { dim: self.dim, data }
    }
}

pub use crate::vector_ops::sq_euclidean;

/// The normalised metric `d(x, y) = ‖x − y‖₂ / D` (SPEC §1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// `D`, the dataset's diameter (`√2` for the unit square).
    pub scale: f64,
}

impl Metric {
    pub fn new(scale: f64) -> Result<Self> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Error::param("dist_scale", format!("must be a positive finite number, got {scale}")));
        }
        Ok(Metric { scale })
    }

    /// `d(x, y)`.
    #[inline]
    pub fn dist(&self, a: &[f32], b: &[f32]) -> f64 {
        sq_euclidean(a, b).sqrt() / self.scale
    }

    /// `d(x, y)` for a caller that has no use for a distance above `bound`: `None` only when
    /// `d(x, y) > bound` for certain (decided part-way through the sum, see
    /// [`sq_euclidean_bounded`](crate::vector_ops::sq_euclidean_bounded)), else `Some` of exactly
    /// [`dist`](Self::dist)'s bits (possibly above `bound`: callers test it as before).
    ///
    /// The squared limit is `(bound·D)²·(1 + 10⁻¹²)`: a sum `s` above it has
    /// `√s / D ≥ bound·(1 + 5·10⁻¹³)(1 − 3·2⁻⁵³) > bound` after the correctly rounded square root
    /// and division, so a pair cut off is one [`dist`](Self::dist) would have put above `bound`.
    /// Below the smallest normal limits (and for a `bound` of 0, ∞ or NaN) nothing is cut off.
    #[inline]
    pub fn dist_unless_above(&self, a: &[f32], b: &[f32], bound: f64) -> Option<f64> {
        crate::vector_ops::sq_euclidean_bounded(a, b, self.squared_limit(bound))
            .map(|s| s.sqrt() / self.scale)
    }

    /// `d(x, y)` when it is at most `r`, else `None` (the test on [`dist`](Self::dist)'s bits,
    /// cut short by [`dist_unless_above`](Self::dist_unless_above)): a range search's step.
    #[inline]
    pub fn dist_within(&self, a: &[f32], b: &[f32], r: f64) -> Option<f64> {
        self.dist_unless_above(a, b, r).filter(|&d| d <= r)
    }

    /// The limit on `‖a − b‖²` that [`dist_unless_above`](Self::dist_unless_above) cuts at (∞
    /// where it cuts nothing).
    #[inline]
    fn squared_limit(&self, bound: f64) -> f64 {
        let r = bound * self.scale;
        let limit = r * r * (1.0 + 1e-12);
        if limit.is_finite() && limit >= 1e-280 {
            limit
        } else {
            f64::INFINITY
        }
    }

    /// Nearest row of `set` to `x` and its distance; ties to the lowest index; `None` if empty.
    pub fn nearest(&self, x: &[f32], set: &Points) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (j, row) in set.iter().enumerate() {
            let Some(d) = self.dist_unless_above(x, row, best.map_or(f64::INFINITY, |(_, bd)| bd)) else {
                continue; // farther than the best so far: not nearer
            };
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        best
    }

    /// `d(x, M)` for a cache given as rows of `set` (`∞` for the empty cache, SPEC §3).
    pub fn dist_to_set(&self, x: &[f32], set: &Points, members: &[usize]) -> f64 {
        members.iter().map(|&j| self.dist(x, set.row(j))).fold(f64::INFINITY, f64::min)
    }
}

/// A vector's exact identity as a hashable key (its `f32` bit patterns): equal keys are the
/// same query; used to find exact repeats (nq-trivia's arrivals and `E` repeat universe rows).
pub fn bit_key(x: &[f32]) -> Vec<u32> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// `D`: the largest pairwise Euclidean distance of `points` (0 for fewer than two points).
///
/// Exact: the result is the largest `f64` distance [`sq_euclidean`] gives over all pairs, bit
/// for bit (what [`diameter_plain`] computes). Every pair is first screened with the `f32`
/// [`sq_euclidean_f32`](crate::vector_ops::sq_euclidean_f32), whose relative error is at most `γ`: the best pair `p*` has
/// `f32(p*) ≥ s(p*)(1 − γ) ≥ s(q)(1 − γ) ≥ f32(q)(1 − γ)/(1 + γ)` for every pair `q`, so only
/// pairs within that factor of the best screened value are recomputed in `f64`. O(n² d) still,
/// but about three times faster (twice the lanes, no widening); it runs once per dataset load.
/// `f32` underflow (coordinates below ~1e-19) is covered by an absolute slack; should the
/// screen keep too many pairs (points almost all at one distance), the plain pass is taken.
pub fn diameter(points: &Points) -> f64 {
    diameter_with_progress(points, &mut |_, _| {})
}

/// [`diameter`], calling `progress(rows_done, rows)` after each tile of rows has been compared
/// with every later row (a page shows it while a large upload is checked).
pub fn diameter_with_progress(points: &Points, progress: &mut dyn FnMut(usize, usize)) -> f64 {
    let n = points.len();
    let keep = {
        let g = crate::vector_ops::sq_euclidean_f32_error(points.dim());
        (1.0 - g) / (1.0 + g)
    };
    // Each term and sum can lose at most one subnormal ulp (2⁻¹⁴⁹) to underflow.
    let slack = (points.dim() as f64 + 3.0) * 2f64.powi(-149);
    let threshold = |best: f64| best * keep - slack;
    let mut best_f32 = 0.0f64;
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    // Tiles of rows small enough for the core's cache (the inner tile is re-read per row).
    let tile = (32_768 / (4 * points.dim().max(1))).clamp(8, 256);
    for i0 in (0..n).step_by(tile) {
        for j0 in (i0..n).step_by(tile) {
            let (is, js) = (i0..(i0 + tile).min(n), j0..(j0 + tile).min(n));
            screen_tile(points, is, js, &threshold, &mut best_f32, &mut candidates);
        }
        if candidates.len() > 4096 {
            candidates.retain(|c| c.0 >= threshold(best_f32));
            if candidates.len() > 1 << 16 {
                return diameter_plain(points);
            }
        }
        progress((i0 + tile).min(n), n);
    }
    candidates
        .iter()
        .filter(|c| c.0 >= threshold(best_f32))
        .map(|&(_, i, j)| sq_euclidean(points.row(i), points.row(j)))
        .fold(0.0f64, f64::max)
        .sqrt()
}

/// One tile of [`diameter`]'s screen. Not inlined on purpose: a browser's WebAssembly engine
/// optimises a function after it has run for a while and uses the optimised code from its
/// next call on, so a hot loop must live in a function that is called many times (inlined into
/// `diameter`, the whole screen ran in the baseline tier: 3.8 s instead of 2.0 s in V8).
#[inline(never)]
fn screen_tile(
    points: &Points,
    is: std::ops::Range<usize>,
    js: std::ops::Range<usize>,
    threshold: &impl Fn(f64) -> f64,
    best_f32: &mut f64,
    candidates: &mut Vec<(f64, usize, usize)>,
) {
    for i in is {
        let a = points.row(i);
        for j in js.start.max(i + 1)..js.end {
            let s = f64::from(crate::vector_ops::sq_euclidean_f32(a, points.row(j)));
            if s >= threshold(*best_f32) {
                *best_f32 = best_f32.max(s);
                candidates.push((s, i, j));
            }
        }
    }
}

/// [`diameter`] by the definition: every pair in `f64` (the differential reference).
pub fn diameter_plain(points: &Points) -> f64 {
    let n = points.len();
    let mut best = 0.0f64;
    for i in 0..n {
        let a = points.row(i);
        for j in (i + 1)..n {
            let d = sq_euclidean(a, points.row(j));
            if d > best {
                best = d;
            }
        }
    }
    best.sqrt()
}

/// Pairwise distances among a growing set of points, kept as a packed lower triangle so that
/// adding the `n`-th point costs one row of `n` distances (ε-net centers in Alg. 3 lines 5–11,
/// Reverse Greedy candidates).
#[derive(Clone, Debug, Default)]
pub struct DistanceMatrix {
    n: usize,
    tri: Vec<f64>,
}

impl DistanceMatrix {
    pub fn new() -> Self {
        Self::default()
    }

    /// All pairwise distances of `points` under `metric`.
    pub fn from_points(points: &Points, metric: &Metric) -> Self {
        let mut m = DistanceMatrix::new();
        let mut row = Vec::with_capacity(points.len());
        for i in 0..points.len() {
            row.clear();
            row.extend((0..i).map(|j| metric.dist(points.row(i), points.row(j))));
            m.push_row(&row);
        }
        m
    }

    /// Adds point `n` given its distances to points `0..n`.
    pub fn push_row(&mut self, row: &[f64]) {
        assert_eq!(row.len(), self.n, "a new row needs one distance per existing point");
        self.tri.extend_from_slice(row);
        self.n += 1;
    }

    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The distances of point `i` to points `0..i` (the row [`push_row`](Self::push_row) added).
    pub fn row(&self, i: usize) -> &[f64] {
        &self.tri[i * i.saturating_sub(1) / 2..][..i]
    }
}

/// Distances between the items `0..len()` of some set: what Reverse Greedy and the discretised
/// loss need. Implemented by a precomputed [`DistanceMatrix`] and by [`OnTheFly`] evaluation.
pub trait Distances {
    fn len(&self) -> usize;
    fn dist(&self, i: usize, j: usize) -> f64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Appends `(d(i, j), j)` for every `j` with `d(i, j) ≤ r`, possibly with others (each with
    /// its exact distance): a superset the caller filters. The default lists every `j`.
    fn candidates_within(&self, i: usize, r: f64, out: &mut Vec<(f64, u32)>) {
        let _ = r;
        out.extend((0..self.len()).map(|j| (self.dist(i, j), j as u32)));
    }
}

impl Distances for DistanceMatrix {
    fn len(&self) -> usize {
        self.n
    }
    #[inline]
    fn dist(&self, i: usize, j: usize) -> f64 {
        use std::cmp::Ordering::*;
        match i.cmp(&j) {
            Equal => 0.0,
            Greater => self.tri[i * (i - 1) / 2 + j],
            Less => self.tri[j * (j - 1) / 2 + i],
        }
    }
    /// Row `i` of the triangle, then column `i` below it, keeping only distances within `r`
    /// (plus a relative hair, so that rounding in the caller's `r` never drops a candidate).
    fn candidates_within(&self, i: usize, r: f64, out: &mut Vec<(f64, u32)>) {
        let r = r + r * 1e-9;
        let row = &self.tri[i * i.saturating_sub(1) / 2..][..i];
        out.extend(row.iter().enumerate().filter(|(_, &d)| d <= r).map(|(j, &d)| (d, j as u32)));
        out.push((0.0, i as u32));
        let mut at = (i + 1) * i / 2 + i; // (i + 1, i)
        for j in (i + 1)..self.n {
            let d = self.tri[at];
            if d <= r {
                out.push((d, j as u32));
            }
            at += j;
        }
    }
}

/// Distances computed from the vectors on each call.
pub struct OnTheFly<'a> {
    pub points: &'a Points,
    pub metric: Metric,
}

impl Distances for OnTheFly<'_> {
    fn len(&self) -> usize {
        self.points.len()
    }
    fn dist(&self, i: usize, j: usize) -> f64 {
        self.metric.dist(self.points.row(i), self.points.row(j))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screened diameter is the plain one bit for bit: random clouds at several scales
    /// (down to f32 underflow), many pairs tied at the maximum (± unit vectors), near-ties.
    #[test]
    fn diameter_equals_the_plain_pass() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (dim, n, scale) in
            [(384, 120, 1.0f32), (3, 300, 1e-3), (17, 90, 1e-25), (64, 80, 1e18), (1, 2, 1.0)]
        {
            let flat: Vec<f32> = (0..n * dim).map(|_| rng.random_range(-1.0f32..1.0) * scale).collect();
            let p = Points::from_flat(dim, flat).unwrap();
            assert_eq!(diameter(&p).to_bits(), diameter_plain(&p).to_bits(), "dim {dim}, scale {scale}");
        }
        // ± e_i in 8 dimensions: 28·2 pairs at distance 2, the rest √2; then nudged near-ties.
        let mut rows: Vec<[f32; 8]> = Vec::new();
        for i in 0..8 {
            for sign in [1.0f32, -1.0] {
                let mut r = [0.0f32; 8];
                r[i] = sign * (1.0 + i as f32 * 1e-7);
                rows.push(r);
            }
        }
        let p = Points::from_rows(&rows).unwrap();
        assert_eq!(diameter(&p).to_bits(), diameter_plain(&p).to_bits());
        let same = Points::from_rows(&[[0.5f32; 4]; 300]).unwrap();
        assert_eq!(diameter(&same), 0.0);
        assert_eq!(diameter(&Points::from_rows(&[[1.0f32, 2.0]]).unwrap()), 0.0);
    }

    /// The matrix's candidate list is the filtered full list (every pair within `r`, exact
    /// distances), at radii that hit distances exactly.
    #[test]
    fn matrix_candidates_are_the_filtered_scan() {
        let p = Points::from_rows(&[[0.0f32, 0.0], [3.0, 4.0], [1.0, 1.0], [0.0, 2.0], [6.0, 8.0]]).unwrap();
        let m = DistanceMatrix::from_points(&p, &Metric::new(5.0).unwrap());
        for i in 0..p.len() {
            for r in [0.0, 0.2, 0.4, 1.0, 2.0, f64::INFINITY] {
                let mut got = Vec::new();
                m.candidates_within(i, r, &mut got);
                got.sort_by_key(|c| c.1);
                let want: Vec<(f64, u32)> =
                    (0..p.len()).map(|j| (m.dist(i, j), j as u32)).filter(|c| c.0 <= r).collect();
                assert_eq!(got, want, "i = {i}, r = {r}");
            }
        }
    }

    #[test]
    fn hand_computed_distances() {
        let p = Points::from_rows(&[[0.0f32, 0.0], [3.0, 4.0], [1.0, 1.0]]).unwrap();
        let m = Metric::new(5.0).unwrap();
        assert_eq!(m.dist(p.row(0), p.row(1)), 1.0);
        assert!((m.dist(p.row(0), p.row(2)) - 2f64.sqrt() / 5.0).abs() < 1e-15);
        assert_eq!(diameter(&p), 5.0);
        let dm = DistanceMatrix::from_points(&p, &m);
        assert_eq!(dm.dist(1, 0), 1.0);
        assert_eq!(dm.dist(0, 1), 1.0);
        assert_eq!(dm.dist(2, 2), 0.0);
        // ties go to the lowest index
        let q = Points::from_rows(&[[1.0f32, 0.0], [-1.0, 0.0]]).unwrap();
        assert_eq!(m.nearest(&[0.0, 0.0], &q), Some((0, 0.2)));
        assert_eq!(m.dist_to_set(&[0.0, 0.0], &q, &[]), f64::INFINITY);
    }

    #[test]
    fn rejects_bad_vectors() {
        assert!(Points::from_flat(0, vec![]).is_err());
        assert!(Points::from_flat(2, vec![1.0, 2.0, 3.0]).is_err());
        assert!(Points::from_flat(2, vec![1.0, f32::NAN]).is_err());
        let mut p = Points::new(2).unwrap();
        assert!(p.push(&[1.0]).is_err());
        assert!(p.push(&[f32::INFINITY, 0.0]).is_err());
        assert!(Metric::new(0.0).is_err());
        assert!(Metric::new(f64::NAN).is_err());
    }
}
