//! The two inner loops everything else stands on: the squared Euclidean distance of two `f32`
//! vectors accumulated in `f64` (SPEC §12: "read as f32 and computed in f64"), and the `f64` dot
//! product of the kernel ridge regression's triangular solves.
//!
//! Both sum in a fixed order — [`LANES`] independent accumulators (lane `l` sums the terms whose
//! index is `≡ l mod LANES`), combined pairwise, then the tail in index order — so the result has
//! the same bits on every platform and in every build (IEEE `f64`, no fused multiply-add: Rust
//! never contracts `a * b + c`). Sixteen lanes break the chain of dependent additions that bounds
//! a four-lane loop, and vectorise as 8 × `f64x2` (SSE2, wasm `simd128`) or 4 × `f64x4` (AVX2).
//! On x86-64 the AVX2 copy of each loop is chosen at run time when the CPU has it; it performs
//! exactly the same operations, only more of them at once.

/// Number of independent accumulators.
pub const LANES: usize = 16;

#[inline(always)]
fn combine(acc: [f64; LANES]) -> f64 {
    let mut v = acc;
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            v[l] += v[l + width];
        }
    }
    v[0]
}

#[inline(always)]
fn sq_euclidean_body(a: &[f32], b: &[f32]) -> f64 {
    let mut acc = [0.0f64; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            let d = x[l] as f64 - y[l] as f64;
            acc[l] += d * d;
        }
    }
    let mut s = combine(acc);
    for (x, y) in ra.iter().zip(rb) {
        let d = *x as f64 - *y as f64;
        s += d * d;
    }
    s
}

/// [`sq_euclidean_body`] with an early exit: after the first [`LANES`] terms, then after blocks
/// that double up to [`BOUND_BLOCK`] terms (16, 48, 112, 176, … terms in), the lanes summed so
/// far are combined (into a copy) and compared with `limit`; above it, `None`. Otherwise the same
/// operations as [`sq_euclidean_body`] in the same order, so the same bits. The early checks
/// settle most of a range search's far pairs after 16 of 384 coordinates (the evaluation oracle's
/// ε_o-net over a cluster of jittered arrivals, whose distances are far above ε_o).
///
/// Exact as a test, not only in exact arithmetic: every term is non-negative and rounded addition
/// is monotone (`fl(a + b) ≥ a` for `b ≥ 0`), so each lane's final sum is at least its partial
/// sum, the fixed pairwise [`combine`] of the final lanes is at least that of the partial ones,
/// and the tail only adds. The computed full sum is therefore `≥` every partial value checked:
/// `None` means the full sum is above `limit` too.
#[inline(always)]
fn sq_euclidean_bounded_body(a: &[f32], b: &[f32], limit: f64) -> Option<f64> {
    let mut acc = [0.0f64; LANES];
    let full = a.len().min(b.len()) / LANES * LANES;
    let (mut start, mut block) = (0, LANES);
    while start < full {
        let end = (start + block).min(full);
        for (x, y) in a[start..end].chunks_exact(LANES).zip(b[start..end].chunks_exact(LANES)) {
            for l in 0..LANES {
                let d = x[l] as f64 - y[l] as f64;
                acc[l] += d * d;
            }
        }
        start = end;
        if start < full && combine(acc) > limit {
            return None;
        }
        block = (2 * block).min(BOUND_BLOCK);
    }
    let mut s = combine(acc);
    for (x, y) in a[full..].iter().zip(&b[full..]) {
        let d = *x as f64 - *y as f64;
        s += d * d;
    }
    Some(s)
}

/// The most terms between two early-exit checks of [`sq_euclidean_bounded`] (a multiple of
/// [`LANES`]).
pub const BOUND_BLOCK: usize = 4 * LANES;

/// The portable `f32` filter (a summation order of its own; it is never a result).
fn sq_euclidean_f32_body(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            let d = x[l] - y[l];
            acc[l] += d * d;
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        let d = x - y;
        s += d * d;
    }
    s
}

/// wasm `simd128`: four `f32x4` accumulators (the vectoriser keeps `f32` loops 2 lanes wide).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn sq_euclidean_f32_simd(a: &[f32], b: &[f32]) -> f32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len()) / 16 * 16;
    let mut acc = [f32x4_splat(0.0); 4];
    let mut i = 0;
    while i < n {
        for (k, acc_k) in acc.iter_mut().enumerate() {
            // SAFETY: i + 4k + 4 <= n <= len; v128_load has no alignment requirement.
            let (x, y) = unsafe {
                (
                    v128_load(a.as_ptr().add(i + 4 * k) as *const v128),
                    v128_load(b.as_ptr().add(i + 4 * k) as *const v128),
                )
            };
            let d = f32x4_sub(x, y);
            *acc_k = f32x4_add(*acc_k, f32x4_mul(d, d));
        }
        i += 16;
    }
    let v = f32x4_add(f32x4_add(acc[0], acc[1]), f32x4_add(acc[2], acc[3]));
    let mut s = (f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v))
        + (f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v));
    s += sq_euclidean_f32_body(&a[n..], &b[n..]);
    s
}

#[inline(always)]
fn dot_body(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            acc[l] += x[l] * y[l];
        }
    }
    let mut s = combine(acc);
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

#[inline(always)]
fn axpy_body(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// `row[l] += t0·u0[l] + … + t3·u3[l]`, added one term after the other (the bits of four
/// [`axpy`]s in a row, with one pass over `row`).
#[inline(always)]
fn axpy4_body(t: [f64; 4], u: [&[f64]; 4], row: &mut [f64]) {
    let n = row.len();
    let (u0, u1, u2, u3) = (&u[0][..n], &u[1][..n], &u[2][..n], &u[3][..n]);
    for l in 0..n {
        row[l] = row[l] + t[0] * u0[l] + t[1] * u1[l] + t[2] * u2[l] + t[3] * u3[l];
    }
}

/// `y[..x.len()] += a·x` (no fused multiply-add, so the AVX2 copy has the same bits).
#[inline]
pub fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::axpy(a, x, y) };
    }
    axpy_body(a, x, y)
}

/// `row[l] += t0·u0[l] + … + t3·u3[l]`, added one term after the other (the bits of four
/// [`axpy`]s in a row, with one pass over `row`).
#[inline]
pub fn axpy4(t: [f64; 4], u: [&[f64]; 4], row: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::axpy4(t, u, row) };
    }
    axpy4_body(t, u, row)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub unsafe fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
        super::axpy_body(a, x, y)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn axpy4(t: [f64; 4], u: [&[f64]; 4], row: &mut [f64]) {
        super::axpy4_body(t, u, row)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn sq_euclidean(a: &[f32], b: &[f32]) -> f64 {
        super::sq_euclidean_body(a, b)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn sq_euclidean_bounded(a: &[f32], b: &[f32], limit: f64) -> Option<f64> {
        super::sq_euclidean_bounded_body(a, b, limit)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(a: &[f64], b: &[f64]) -> f64 {
        super::dot_body(a, b)
    }
    /// Four `f32x8` accumulators (the vectoriser keeps `f32` loops 2 lanes wide).
    #[target_feature(enable = "avx2")]
    pub unsafe fn sq_euclidean_f32(a: &[f32], b: &[f32]) -> f32 {
        use std::arch::x86_64::*;
        let n = a.len().min(b.len()) / 32 * 32;
        let mut acc = [_mm256_setzero_ps(); 4];
        let mut i = 0;
        while i < n {
            for (k, acc_k) in acc.iter_mut().enumerate() {
                // SAFETY: i + 8k + 8 <= n <= len; loadu has no alignment requirement.
                let (x, y) = unsafe {
                    (_mm256_loadu_ps(a.as_ptr().add(i + 8 * k)), _mm256_loadu_ps(b.as_ptr().add(i + 8 * k)))
                };
                let d = _mm256_sub_ps(x, y);
                *acc_k = _mm256_add_ps(*acc_k, _mm256_mul_ps(d, d));
            }
            i += 32;
        }
        let v = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
        let mut lanes = [0.0f32; 8];
        // SAFETY: 8 floats fit `lanes`.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) };
        let s: f32 = lanes.iter().sum();
        s + super::sq_euclidean_f32_body(&a[n..], &b[n..])
    }
    #[inline]
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
    }
}

/// `‖a − b‖²` accumulated in `f64` (see the module notes for the summation order).
#[inline]
pub fn sq_euclidean(a: &[f32], b: &[f32]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::sq_euclidean(a, b) };
    }
    sq_euclidean_body(a, b)
}

/// [`sq_euclidean`] for a caller that has no use for a value above `limit`: `None` when a
/// partial sum is already above it (so the full sum is too), else `Some` of exactly
/// [`sq_euclidean`]'s bits (which may still be above `limit`). Far pairs stop after a block or two
/// instead of all `n` terms (see `sq_euclidean_bounded_body` for why the test is exact).
#[inline]
pub fn sq_euclidean_bounded(a: &[f32], b: &[f32], limit: f64) -> Option<f64> {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::sq_euclidean_bounded(a, b, limit) };
    }
    sq_euclidean_bounded_body(a, b, limit)
}

/// `‖a − b‖²` entirely in `f32`: a fast *filter* only (twice the lanes per vector register
/// and no widening), never a result. Every term `fl(fl(a_i − b_i)²)` and every addition rounds
/// once by at most a factor `1 ± u` (`u = 2⁻²⁴`), and each term passes through fewer than
/// `n + 3` roundings, so for the exact value `s` the result lies within `s · (1 ± γ)` with
/// `γ = (n + 3)u / (1 − (n + 3)u)` — [`sq_euclidean_f32_error`] (all terms are non-negative,
/// so no cancellation).
#[inline]
pub fn sq_euclidean_f32(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::sq_euclidean_f32(a, b) };
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return sq_euclidean_f32_simd(a, b);
    #[allow(unreachable_code)]
    sq_euclidean_f32_body(a, b)
}

/// The relative error bound `γ` of [`sq_euclidean_f32`] for vectors of length `n`, with a
/// margin for the `f64` rounding of [`sq_euclidean`] it is compared against.
pub fn sq_euclidean_f32_error(n: usize) -> f64 {
    let nu = (n as f64 + 3.0) * f64::from(f32::EPSILON) / 2.0;
    nu / (1.0 - nu) + 1e-12
}

/// `a · b` (see the module notes for the summation order).
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the CPU supports AVX2 (checked at run time).
        return unsafe { avx2::dot(a, b) };
    }
    dot_body(a, b)
}

/// The dot product of two vectors that only ever grow by appending (the tracked projections
/// `v = L⁻¹ κ_u` and `ã = L⁻¹ y` of the kernel ridge regression, whose entries never change once
/// written), kept up to date in O(new terms) instead of O(length) per query.
///
/// It performs exactly [`dot`]'s operations in [`dot`]'s order — the complete chunks of
/// [`LANES`] terms go into the same lane accumulators one chunk after the other, the combination
/// and the tail are redone at each query — so [`value`](Self::value) has the bits of `dot(a, b)`.
/// The caller guarantees that the first [`len`](Self::len) entries of `a` and `b` are those of the
/// previous call (checked in debug builds by length only).
#[derive(Clone, Debug, Default)]
pub struct RunningDot {
    acc: [f64; LANES],
    done: usize,
}

impl RunningDot {
    /// How many leading terms are already in the accumulators.
    pub fn len(&self) -> usize {
        self.done
    }
    pub fn is_empty(&self) -> bool {
        self.done == 0
    }

    /// `a · b` with the bits of [`dot`], adding only the chunks completed since the last call.
    pub fn value(&mut self, a: &[f64], b: &[f64]) -> f64 {
        debug_assert_eq!(a.len(), b.len());
        debug_assert!(a.len() >= self.done, "a running dot's vectors only grow");
        let full = a.len() / LANES * LANES;
        for (x, y) in a[self.done..full].chunks_exact(LANES).zip(b[self.done..full].chunks_exact(LANES)) {
            for l in 0..LANES {
                self.acc[l] += x[l] * y[l];
            }
        }
        self.done = full;
        let mut s = combine(self.acc);
        for (x, y) in a[full..].iter().zip(&b[full..]) {
            s += x * y;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summation order written out by hand: lanes, pairwise combination, tail.
    fn by_hand(terms: &[f64]) -> f64 {
        let full = terms.len() / LANES * LANES;
        let mut acc = [0.0; LANES];
        for (i, t) in terms[..full].iter().enumerate() {
            acc[i % LANES] += t;
        }
        let mut width = LANES;
        while width > 1 {
            width /= 2;
            for l in 0..width {
                acc[l] += acc[l + width];
            }
        }
        terms[full..].iter().fold(acc[0], |s, t| s + t)
    }

    #[test]
    fn same_bits_as_the_written_order_on_every_path() {
        for n in [0usize, 1, 3, 15, 16, 17, 31, 384, 385, 1000] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 7919) % 101) as f32 / 37.0 - 1.3).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 104729) % 97) as f32 / 53.0 - 0.7).collect();
            let sq: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (*x as f64 - *y as f64).powi(2)).collect();
            assert_eq!(sq_euclidean(&a, &b).to_bits(), by_hand(&sq).to_bits(), "n = {n}");
            assert_eq!(sq_euclidean_body(&a, &b).to_bits(), by_hand(&sq).to_bits());
            let (x, y): (Vec<f64>, Vec<f64>) =
                (a.iter().map(|&v| v as f64 * 1.1).collect(), b.iter().map(|&v| v as f64).collect());
            let pr: Vec<f64> = x.iter().zip(&y).map(|(p, q)| p * q).collect();
            assert_eq!(dot(&x, &y).to_bits(), by_hand(&pr).to_bits(), "n = {n}");
            assert_eq!(dot_body(&x, &y).to_bits(), by_hand(&pr).to_bits());
        }
        assert_eq!(sq_euclidean(&[0.0, 3.0], &[4.0, 0.0]), 25.0);
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]), 32.0);
    }

    /// The `f32` filter stays within its stated relative error of the `f64` distance, on every
    /// path and length (including tails shorter than a vector).
    #[test]
    fn f32_filter_within_its_bound() {
        for n in [0usize, 1, 5, 16, 31, 32, 33, 384, 1000] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 7919) % 101) as f32 / 37.0 - 1.3).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 104729) % 97) as f32 / 53.0 - 0.7).collect();
            let exact = sq_euclidean(&a, &b);
            let g = sq_euclidean_f32_error(n);
            for got in [f64::from(sq_euclidean_f32(&a, &b)), f64::from(sq_euclidean_f32_body(&a, &b))] {
                assert!((got - exact).abs() <= g * exact, "n = {n}: {got} vs {exact}");
            }
        }
    }

    /// The early-exit form: `Some` carries exactly `sq_euclidean`'s bits; `None` only when the
    /// full value is above the limit; every threshold around the value and every length
    /// around the block size.
    #[test]
    fn bounded_distance_is_the_distance_or_a_true_exceedance() {
        for n in
            [0usize, 1, 15, 16, 17, 31, 32, 47, 48, 49, 63, 64, 65, 111, 112, 113, 128, 176, 384, 385, 1000]
        {
            let a: Vec<f32> = (0..n).map(|i| ((i * 7919) % 101) as f32 / 37.0 - 1.3).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 104729) % 97) as f32 / 53.0 - 0.7).collect();
            let full = sq_euclidean(&a, &b);
            let mut stopped = 0;
            for f in [0.0, 0.01, 0.1, 0.5, 0.9, 0.999_999, 1.0, 1.000_001, 2.0] {
                let limit = full * f;
                for got in [sq_euclidean_bounded(&a, &b, limit), sq_euclidean_bounded_body(&a, &b, limit)] {
                    match got {
                        Some(s) => assert_eq!(s.to_bits(), full.to_bits(), "n = {n}, f = {f}"),
                        None => {
                            assert!(full > limit, "n = {n}, f = {f}: stopped below the limit");
                            stopped += 1;
                        }
                    }
                }
                if f >= 1.0 {
                    assert!(sq_euclidean_bounded(&a, &b, limit).is_some(), "n = {n}, f = {f}");
                }
            }
            if n >= 2 * BOUND_BLOCK {
                assert!(stopped > 0, "n = {n}: a low limit stops early");
            }
        }
    }

    #[test]
    fn running_dot_has_the_bits_of_dot_at_every_length() {
        let a: Vec<f64> = (0..300).map(|i| ((i * 7919) % 101) as f64 / 37.0 - 1.3).collect();
        let b: Vec<f64> = (0..300).map(|i| ((i * 104729) % 97) as f64 / 53.0 - 0.7).collect();
        let mut run = RunningDot::default();
        let mut n = 0;
        // Growth in uneven steps, including several queries at the same length.
        for step in [0usize, 1, 0, 5, 10, 16, 3, 29, 0, 64, 1, 15, 17, 43, 96] {
            n += step;
            assert_eq!(run.value(&a[..n], &b[..n]).to_bits(), dot(&a[..n], &b[..n]).to_bits(), "n = {n}");
            assert_eq!(run.len(), n / LANES * LANES);
        }
        assert_eq!(n, 300);
    }
}
