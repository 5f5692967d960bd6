//! Double-double arithmetic: a number as the unevaluated sum `hi + lo` of two `f64` with
//! `|lo| ≤ ½ ulp(hi)`, about 106 bits (Dekker, "A floating-point technique for extending the
//! available precision", Numer. Math. 18, 1971; Knuth's two-sum, TAOCP vol. 2, 4.2.2). The tails of
//! [`super::beta`] need it where a continued fraction loses a factor of the parameters to
//! cancellation. Plain `+ − × ÷` in a fixed order (Rust never fuses them), so it is the same bits
//! natively and in WebAssembly.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// `hi + lo`, `|lo| ≤ ½ ulp(hi)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Dd {
    pub hi: f64,
    pub lo: f64,
}

impl Dd {
    pub const ONE: Dd = Dd { hi: 1.0, lo: 0.0 };

    /// The double-double nearest `hi + lo` (renormalised).
    pub fn new(hi: f64, lo: f64) -> Dd {
        let s = hi + lo;
        Dd { hi: s, lo: lo - (s - hi) }
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.hi + self.lo
    }

    /// `a·b` exactly, as a double-double.
    pub fn prod(a: f64, b: f64) -> Dd {
        let (p, e) = two_prod(a, b);
        Dd { hi: p, lo: e }
    }

    /// `a + b` exactly, as a double-double.
    pub fn sum(a: f64, b: f64) -> Dd {
        let (s, e) = two_sum(a, b);
        Dd { hi: s, lo: e }
    }

    /// `√self` (`self > 0`): the correctly rounded `f64` root and one Newton step.
    pub fn sqrt(self) -> Dd {
        let r = libm::sqrt(self.hi);
        Dd::new(r, (self - Dd::prod(r, r)).hi / (2.0 * r))
    }

    /// `self^n` by repeated squaring.
    pub fn powi(self, mut n: usize) -> Dd {
        let (mut acc, mut base) = (Dd::ONE, self);
        while n > 0 {
            if n & 1 == 1 {
                acc = acc * base;
            }
            base = base * base;
            n >>= 1;
        }
        acc
    }
}

impl From<f64> for Dd {
    fn from(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }
}

/// Knuth's two-sum: `a + b = s + e` exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Veltkamp's split: `a = hi + lo` with halves of 26 bits, so that their products are exact.
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let hi = c - (c - a);
    (hi, a - hi)
}

/// Dekker's product: `a·b = p + e` exactly (no overflow assumed).
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

impl Add for Dd {
    type Output = Dd;
    fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.hi, o.hi);
        let (t, f) = two_sum(self.lo, o.lo);
        let d = Dd::new(s, e + t);
        Dd::new(d.hi, d.lo + f)
    }
}

impl Neg for Dd {
    type Output = Dd;
    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }
}

impl Sub for Dd {
    type Output = Dd;
    fn sub(self, o: Dd) -> Dd {
        self + -o
    }
}

impl Mul for Dd {
    type Output = Dd;
    fn mul(self, o: Dd) -> Dd {
        let (p, e) = two_prod(self.hi, o.hi);
        Dd::new(p, e + (self.hi * o.lo + self.lo * o.hi))
    }
}

impl Div for Dd {
    type Output = Dd;
    /// Long division: a first quotient, then the remainder's.
    fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self - o * Dd::from(q1);
        let q2 = r.hi / o.hi;
        let r = r - o * Dd::from(q2);
        let q3 = r.hi / o.hi;
        let q = Dd::new(q1, q2);
        q + Dd::from(q3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_third_and_back() {
        let third = Dd::ONE / Dd::from(3.0);
        // 1/3 = 0x1.5555…p-2: hi is the nearest double, lo the next 53 bits.
        assert_eq!(third.hi, 1.0 / 3.0);
        assert_eq!(third.lo, 1.850_371_707_708_594e-17);
        let one = third * Dd::from(3.0);
        assert!((one - Dd::ONE).to_f64().abs() < 1e-31);
        // (1 + 2⁻⁶⁰)² − 1 = 2⁻⁵⁹ + 2⁻¹²⁰, which f64 alone rounds to 0.
        let e = Dd::new(1.0, libm::ldexp(1.0, -60));
        let sq = e * e - Dd::ONE;
        assert_eq!(sq.hi, libm::ldexp(1.0, -59));
        assert_eq!(Dd::prod(1.0 + f64::EPSILON, 1.0 - f64::EPSILON).lo, -f64::EPSILON * f64::EPSILON);
        assert_eq!(Dd::sum(1.0, 1e-20), Dd { hi: 1.0, lo: 1e-20 });
        // √2 to 2⁻¹⁰⁶: 0x1.6a09e667f3bcc908b2fb1366ea9p0.
        let r2 = Dd::from(2.0).sqrt();
        assert_eq!(r2.hi, std::f64::consts::SQRT_2);
        assert!((r2.lo + 9.667_293_313_452_913e-17).abs() < 1e-31);
        // 3¹⁰⁰ = 5.15377520732011331036…e47 to 32 digits, through 1/3.
        let p = Dd::from(3.0).powi(100);
        assert!(((p / Dd::from(5.153_775_207_320_113e47)).to_f64() - 1.0).abs() < 1e-15);
        assert!((third.powi(100) * p - Dd::ONE).to_f64().abs() < 1e-29);
    }
}
