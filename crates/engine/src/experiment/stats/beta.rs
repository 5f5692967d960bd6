//! The regularized incomplete beta function `I_x(a, b)` by its continued fraction, the one
//! computation behind Student's t tail ([`super::student`], A&S 26.5.27) and the binomial tail
//! ([`super::binomial`], A&S 26.5.24). Only the fraction is here: each caller multiplies it by the
//! prefactor `x^a (1 − x)^b / (a·B(a, b))`, which it can compute far more exactly for its own
//! parameters than `exp(a ln x + b ln(1 − x) − ln B(a, b))` with `lgamma` would (whose
//! cancellation costs `ln B`'s magnitude in absolute error: 10⁻¹² at `a = b = 2500`). Plain
//! arithmetic only, so it is the same bits natively and in WebAssembly.

use super::dd::Dd;

/// Numerical Recipes' floor for the modified Lentz method: a partial denominator that vanishes is
/// replaced by it.
const TINY: f64 = 1e-300;

/// The continued fraction of `I_x(a, b)` (Abramowitz & Stegun 26.5.8, DLMF 8.17.22):
///
/// `I_x(a, b) = x^a (1 − x)^b / (a·B(a, b)) · 1/(1 + d₁/(1 + d₂/(1 + …)))`,
/// `d_{2m+1} = −(a + m)(a + b + m)·x / ((a + 2m)(a + 2m + 1))`,
/// `d_{2m} = m(b − m)·x / ((a + 2m − 1)(a + 2m))`;
///
/// returns the fraction `1/(1 + d₁/(1 + d₂/(1 + …)))` as a double-double, to far below an ulp. It converges fast
/// for `x < (a + 1)/(a + b + 2)`; above, use `I_x(a, b) = 1 − I_{1−x}(b, a)`. `a` and `b` are
/// multiples of ½ below 2⁴⁰ (the products of the coefficients are then exact); `x` is given as a
/// double-double, so that a caller whose `x` is near 1 (Student's t at many degrees of freedom)
/// can pass it more exactly than an `f64` holds it.
///
/// Two passes: the modified Lentz method (Numerical Recipes' `betacf`) in `f64` finds the depth
/// at which the fraction has converged to the last bit; then the fraction is evaluated from twice
/// that depth back to its head in double-double arithmetic ([`Dd`]). Near the edge of the
/// convergence region, with large `a` and `b`, the partial denominators `1 + d_k/…` cancel to a
/// fraction of order `1/a`, so `f64` throughout would lose a factor of `a` (measured: 2,600 ulp of
/// the Student tail at 10,000 degrees of freedom); 106 bits keep that loss far below the last bit.
pub(crate) fn beta_cf(a: f64, b: f64, x: Dd) -> Dd {
    let coeff = |k: usize| -> (f64, f64, f64, f64) {
        let m = (k / 2) as f64;
        if !k.is_multiple_of(2) {
            (-(a + m), a + b + m, a + 2.0 * m, a + 2.0 * m + 1.0)
        } else {
            (m, b - m, a + 2.0 * m - 1.0, a + 2.0 * m)
        }
    };
    let d64 = |k: usize| {
        let (p, q, r, s) = coeff(k);
        p * q * x.hi / (r * s)
    };
    // Pass 1, modified Lentz in f64: the depth at which a step changes the value by < 1 ulp.
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (mut c, mut dd) = (1.0f64, 1.0 / guard(1.0 + d64(1)));
    let mut depth = 1;
    for k in 2..=100_000usize {
        let dk = d64(k);
        dd = 1.0 / guard(1.0 + dk * dd);
        c = guard(1.0 + dk / c);
        depth = k;
        if !k.is_multiple_of(2) && (dd * c - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    // Pass 2, backward in double-double from twice that depth.
    let mut tail = Dd::ONE;
    for k in (1..=2 * depth + 2).rev() {
        let (p, q, r, s) = coeff(k);
        let dk = Dd::prod(p, q) * x / Dd::prod(r, s);
        tail = Dd::ONE + dk / tail;
    }
    Dd::ONE / tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms() {
        // I_x(1, 1) = x: the prefactor is x(1 − x), so the fraction is 1/(1 − x).
        for x in [0.01, 0.1, 0.3, 0.45] {
            assert!(
                (beta_cf(1.0, 1.0, x.into()).to_f64() * x * (1.0 - x) - x).abs() <= 2.0 * f64::EPSILON * x,
                "{x}"
            );
        }
        // I_x(a, 1) = x^a: the prefactor is x^a (1 − x), so the fraction is 1/(1 − x).
        for (a, x) in [(3.0, 0.2), (10.0, 0.5), (40.0, 0.9)] {
            let f = beta_cf(a, 1.0, x.into()).to_f64();
            assert!((f * (1.0 - x) - 1.0).abs() <= 4.0 * f64::EPSILON, "{a} {x} {f}");
        }
        // I_x(½, ½) = (2/π) asin √x, prefactor √(x(1 − x))·2/π.
        for x in [0.001, 0.05, 0.2, 0.4] {
            let want = libm::asin(libm::sqrt(x)) / libm::sqrt(x * (1.0 - x));
            assert!((beta_cf(0.5, 0.5, x.into()).to_f64() / want - 1.0).abs() <= 4.0 * f64::EPSILON, "{x}");
        }
    }
}
