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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub unsafe fn sq_euclidean(a: &[f32], b: &[f32]) -> f64 {
        super::sq_euclidean_body(a, b)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(a: &[f64], b: &[f64]) -> f64 {
        super::dot_body(a, b)
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
