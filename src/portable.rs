//! Portable numerics (SPEC §11, §12 conventions): every transcendental function and every
//! non-uniform random draw of the engine goes through here, so results are bit-identical natively
//! and in WebAssembly.
//!
//! Why: natively `f64::exp`/`ln`/`sin` come from the platform's C library, in WebAssembly from
//! Rust's port of musl's `libm`; they round differently on ~8% of arguments (measured). `rand_distr`'s
//! samplers call the std functions internally, so a single differently rounded accept/reject test
//! would fork a whole random stream between a browser and a native run. `libm` is the same code on
//! every target. (`sqrt` is correctly rounded by IEEE 754 everywhere and needs no wrapper.)

use rand::Rng;

#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}
#[inline]
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}
#[inline]
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}
/// `2^x`.
#[inline]
pub fn exp2(x: f64) -> f64 {
    libm::exp2(x)
}

/// A uniform draw in (0, 1] (never 0, so its logarithm is finite).
#[inline]
fn open_unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    1.0 - rng.random::<f64>()
}

/// A standard normal draw by the Box–Muller transform (two uniforms per draw, no state, so the
/// stream position depends only on the number of draws).
pub fn std_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = open_unit(rng);
    let u2 = rng.random::<f64>();
    (-2.0 * ln(u1)).sqrt() * cos(2.0 * std::f64::consts::PI * u2)
}

/// `N(mean, sd²)`.
pub fn normal<R: Rng + ?Sized>(rng: &mut R, mean: f64, sd: f64) -> f64 {
    mean + sd * std_normal(rng)
}

/// `LogNormal(mu, sigma)`: `exp(mu + sigma·Z)`.
pub fn lognormal<R: Rng + ?Sized>(rng: &mut R, mu: f64, sigma: f64) -> f64 {
    exp(mu + sigma * std_normal(rng))
}

/// Geometric on {1, 2, …} with success probability `p ∈ (0, 1]` (mean `1/p`), by inversion:
/// `1 + ⌊ln U / ln(1 − p)⌋`.
pub fn geometric<R: Rng + ?Sized>(rng: &mut R, p: f64) -> u64 {
    if p >= 1.0 {
        return 1;
    }
    let k = (ln(open_unit(rng)) / ln(1.0 - p)).floor();
    1 + if k.is_finite() && k < u64::MAX as f64 { k as u64 } else { u64::MAX - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn samplers_have_the_right_moments() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let n = 200_000;
        let z: Vec<f64> = (0..n).map(|_| std_normal(&mut r)).collect();
        let m = z.iter().sum::<f64>() / n as f64;
        let v = z.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
        assert!(m.abs() < 0.01 && (v - 1.0).abs() < 0.01, "{m} {v}");
        let g: f64 = (0..n).map(|_| geometric(&mut r, 0.01) as f64).sum::<f64>() / n as f64;
        assert!((g - 100.0).abs() < 1.5, "geometric mean {g}");
        assert_eq!(geometric(&mut r, 1.0), 1);
        let ln_mean: f64 = (0..n).map(|_| ln(lognormal(&mut r, 0.0, 1.0))).sum::<f64>() / n as f64;
        assert!(ln_mean.abs() < 0.01);
        assert_eq!(exp2(-4.0), 1.0 / 16.0);
    }
}
