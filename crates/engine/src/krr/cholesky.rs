//! The growing Cholesky factor of `K + rI` (SPEC §6, §13): one row per observation in O(ℓ²).

use crate::vector_ops::dot;

/// Relative floor for a new pivot² of the Cholesky factor: `1e-12 · (κ_self + r)`.
pub(super) const PIVOT_FLOOR: f64 = 1e-12;

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
    pub(super) packed: Vec<f64>,
    sum_ln_diag: f64,
    jitter_events: usize,
}

impl GrowingCholesky {
    /// The empty factor of `K + rI` for ridge `r > 0` (validated by [`Krr::new`](super::Krr::new)).
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
