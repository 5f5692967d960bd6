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

/// The logistic function `σ(x) = 1/(1 + e^{−x})` (SPEC §15), through [`exp`]. For very negative
/// `x`, `e^{−x}` overflows to `∞` and the result is `0`, never NaN.
#[inline]
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + exp(-x))
}

// Coefficients of AS241 (PPND16), highest power first, as printed in Python's `statistics`.
const PPND16_A: [f64; 8] = [
    2509.0809287301227,
    33430.57558358813,
    67265.7709270087,
    45921.95393154987,
    13731.69376550946,
    1971.5909503065513,
    133.14166789178438,
    3.3871328727963665,
];
const PPND16_B: [f64; 8] = [
    5226.495278852854,
    28729.085735721943,
    39307.89580009271,
    21213.794301586597,
    5394.196021424751,
    687.1870074920579,
    42.31333070160091,
    1.0,
];
const PPND16_C: [f64; 8] = [
    0.0007745450142783414,
    0.022723844989269184,
    0.2417807251774506,
    1.2704582524523684,
    3.6478483247632045,
    5.769497221460691,
    4.630337846156546,
    1.4234371107496835,
];
const PPND16_D: [f64; 8] = [
    1.0507500716444169e-09,
    0.0005475938084995345,
    0.015198666563616457,
    0.14810397642748008,
    0.6897673349851,
    1.6763848301838038,
    2.053191626637759,
    1.0,
];
const PPND16_E: [f64; 8] = [
    2.0103343992922881e-07,
    2.7115555687434876e-05,
    0.0012426609473880784,
    0.026532189526576124,
    0.29656057182850487,
    1.7848265399172913,
    5.463784911164114,
    6.657904643501103,
];
const PPND16_F: [f64; 8] = [
    2.0442631033899397e-15,
    1.421511758316446e-07,
    1.8463183175100548e-05,
    0.0007868691311456133,
    0.014875361290850615,
    0.1369298809227358,
    0.599832206555888,
    1.0,
];

/// `((c₀·r + c₁)·r + …)·r + c₇`: Horner's rule in the order AS241 writes it.
fn horner(c: &[f64; 8], r: f64) -> f64 {
    c[1..].iter().fold(c[0], |acc, &k| acc * r + k)
}

/// The standard normal quantile `Φ⁻¹(p)` (SPEC §15, step 4): Wichura's algorithm AS241 (PPND16,
/// Applied Statistics 37(3), 1988; relative error about 1e-16), in the operation order of
/// Python's `statistics.NormalDist().inv_cdf`, with its logarithm through [`ln`]. `p ≤ 0` gives
/// `−∞`, `p ≥ 1` gives `+∞`, NaN gives NaN.
pub fn norm_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180625 - q * q;
        return horner(&PPND16_A, r) * q / horner(&PPND16_B, r);
    }
    let r = (-ln(if q <= 0.0 { p } else { 1.0 - p })).sqrt();
    let x = if r <= 5.0 {
        horner(&PPND16_C, r - 1.6) / horner(&PPND16_D, r - 1.6)
    } else {
        horner(&PPND16_E, r - 5.0) / horner(&PPND16_F, r - 5.0)
    };
    if q < 0.0 {
        -x
    } else {
        x
    }
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

    #[test]
    fn normal_quantile_matches_as241_in_python() {
        // statistics.NormalDist().inv_cdf(p) in CPython 3.11 (AS241), printed with repr.
        let cases = [
            (1e-6, -4.753424308822899),
            (0.001, -3.090232306167813),
            (0.02, -2.0537489106318225),
            (0.1, -1.2815515655446008),
            (0.3, -0.5244005127080407),
            (0.5, 0.0),
            (0.6, 0.2533471031357998),
            (0.9, 1.2815515655446008),
            (0.975, 1.9599639845400536),
            (0.999, 3.090232306167813),
            (0.999999, 4.753424308817089),
            (1e-20, -9.262340089798405),
        ];
        for (p, want) in cases {
            let got = norm_quantile(p);
            assert!(
                (got - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1.0),
                "Φ⁻¹({p}) = {got}, want {want}"
            );
        }
        assert_eq!(norm_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(norm_quantile(1.0), f64::INFINITY);
        assert!(norm_quantile(f64::NAN).is_nan());
        assert_eq!(logistic(0.0), 0.5);
        assert_eq!(logistic(-1e4), 0.0);
        assert_eq!(logistic(1e4), 1.0);
    }
}
