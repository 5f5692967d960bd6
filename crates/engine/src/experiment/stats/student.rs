//! Student's t: the two-sided 97.5% quantile every 95% interval of the engine uses (SPEC §10),
//! computed for each number of degrees of freedom (no table), to within an ulp of the exact value,
//! with plain arithmetic and `libm` only, so that every report is the same bits natively and in
//! every browser.

use super::beta::beta_cf;
use super::dd::Dd;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// `Φ⁻¹(0.975)` = 1.959963984540054235525…, the limit of [`t_quantile`] as `df → ∞`.
const Z975: f64 = 1.959_963_984_540_054_3;

/// From this many degrees of freedom on, [`t_quantile`] is the Cornish–Fisher expansion
/// ([`cornish_fisher`]), whose truncation error is 7·10⁻²¹ there (measured; an ulp is 2.2·10⁻¹⁶);
/// below, it inverts the exact tail ([`upper_tail`]).
const EXPANSION_FROM: usize = 10_000;

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom: the `t` with
/// `P(T ≤ t) = 0.975`; NaN for `df = 0`.
///
/// For `df < 10,000`, the root of the upper tail `P(T > t) = ½·I_{df/(df+t²)}(df/2, ½)` (Abramowitz
/// & Stegun 26.5.27; the regularized incomplete beta function, A&S 26.5.8, `upper_tail`) against
/// `1/40`, by Newton's method ending in an exactness check (`solve`). For larger `df`, the
/// Cornish–Fisher expansion in `1/df` (A&S 26.7.5, four terms; `cornish_fisher`). Measured
/// against 40-digit values (mpmath) for every `df` from 1 to 9,999: within 0.68 ulp, and the
/// correctly rounded value for 95% of them; from 10,000 on (up to `2⁴⁰`), within 0.44 ulp; see the
/// tests. Non-increasing in `df`, from `t_quantile(1)` = 12.706204736174705 to the limit
/// `Φ⁻¹(0.975)` = 1.9599639845400543.
pub fn t_quantile(df: usize) -> f64 {
    if df == 0 {
        return f64::NAN;
    }
    if df >= EXPANSION_FROM {
        return cornish_fisher(df as f64);
    }
    // Each df is solved once per process: a report asks for the same few df thousands of times.
    static SOLVED: Mutex<BTreeMap<usize, f64>> = Mutex::new(BTreeMap::new());
    let known = SOLVED.lock().unwrap_or_else(|e| e.into_inner()).get(&df).copied();
    known.unwrap_or_else(|| {
        let t = solve(df);
        SOLVED.lock().unwrap_or_else(|e| e.into_inner()).insert(df, t);
        t
    })
}

/// The root of `P(T > t) = 1/40` for `1 ≤ df < 10,000` ([`t_quantile`]): Newton's method from the
/// Cornish–Fisher value, kept inside a bracket that every step narrows (a step that would leave
/// it bisects instead), until a step is within a few ulps; then the exactness check: the
/// neighbouring floats are tried, and the one whose computed tail (to about 2⁻¹⁰⁰) is nearest
/// `1/40` is the answer.
fn solve(df: usize) -> f64 {
    let nu = df as f64;
    let c = gamma_ratio(df);
    let fortieth = Dd::ONE / Dd::from(40.0);
    let miss = |t: f64| (upper_tail(t, nu, c) - fortieth).to_f64();
    // The density `c/√ν·(1 + t²/ν)^{−(ν+1)/2}`, the tail's slope, for Newton's step.
    let density =
        |t: f64| c.to_f64() / libm::sqrt(nu) * libm::exp(-0.5 * (nu + 1.0) * libm::log1p(t * t / nu));
    // t_{0.975, df} lies in (Φ⁻¹(0.975), t_{0.975, 1}) = (1.95996…, 12.70620…).
    let (mut lo, mut hi) = (1.959f64, 12.71f64);
    let mut t = cornish_fisher(nu).clamp(lo, hi);
    for _ in 0..200 {
        let m = miss(t);
        if m > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let step = m / density(t);
        if step.abs() <= 4.0 * f64::EPSILON * t {
            // Within a few ulps: the neighbours below settle the last ones.
            t += step;
            break;
        }
        let next = t + step;
        t = if next > lo && next < hi { next } else { 0.5 * (lo + hi) };
        if t <= lo || t >= hi {
            break;
        }
    }
    let mut best = (t, miss(t).abs());
    for _ in 0..64 {
        let before = best.0;
        for n in [f64::from_bits(before.to_bits() - 1), f64::from_bits(before.to_bits() + 1)] {
            let m = miss(n).abs();
            if m < best.1 {
                best = (n, m);
            }
        }
        if best.0 == before {
            break;
        }
    }
    best.0
}

/// `P(T > t)` for `t > 0` with `nu` (an integer) degrees of freedom, in double-double:
/// `½·I_x(ν/2, ½)` with `x = ν/(ν + t²)` (A&S 26.5.27). The prefactor of the continued fraction
/// ([`beta_cf`]), `x^{ν/2} (1 − x)^{½} / ((ν/2)·B(ν/2, ½))`, is
/// `(1 + t²/ν)^{−ν/2} · t/√(ν + t²) · c/(ν/2)` with `c = Γ((ν+1)/2)/(Γ(ν/2)·√π)` ([`gamma_ratio`],
/// passed in), the power by repeated squaring (and a square root for odd `ν`): every factor to
/// about 2⁻¹⁰⁰, where `exp`, `log1p` and `lgamma` would each round (and `lgamma` lose ten bits and
/// more to cancellation at large `ν`). `x` goes to the fraction as a double-double: near 1
/// (`1 − x ≈ 3.84/ν` at the quantile) an `f64` would hold `1 − x` to only about `ν` ulps. For
/// small `t` (`x` at or above `(a + 1)/(a + b + 2)`), `½(1 − I_{1−x}(½, ν/2))`, whose prefactor
/// is the same times `ν`.
fn upper_tail(t: f64, nu: f64, c: Dd) -> Dd {
    let a = 0.5 * nu;
    let t2 = Dd::prod(t, t);
    let s = Dd::from(nu) + t2;
    // (1 + t²/ν)^{−ν/2} = base^{−m} (ν = 2m) or base^{−m}/√base (ν = 2m + 1).
    let base = Dd::ONE + t2 / Dd::from(nu);
    let df = nu as usize;
    let mut power = Dd::ONE / base.powi(df / 2);
    if !df.is_multiple_of(2) {
        power = power / base.sqrt();
    }
    let pref = power * (Dd::from(t) / s.sqrt()) * (c / Dd::from(a));
    let x = Dd::from(nu) / s;
    if x.hi < (a + 1.0) / (a + 2.5) {
        Dd::from(0.5) * pref * beta_cf(a, 0.5, x)
    } else {
        let sym = Dd::from(nu) * pref * beta_cf(0.5, a, t2 / s);
        Dd::from(0.5) * (Dd::ONE - sym)
    }
}

/// `Γ((ν+1)/2) / (Γ(ν/2)·√π)` for `ν = df ≥ 1`, as a product of ratios of small integers in
/// double-double arithmetic (to about 2⁻¹⁰⁰ for every `df` below 10,000): `½·Π_{j=1}^{m−1}
/// (2j+1)/(2j)` for `ν = 2m`, `(1/π)·Π_{j=1}^{m} (2j)/(2j−1)` for `ν = 2m + 1` (from `Γ(m + ½) =
/// (2m−1)!!·√π/2^m`).
fn gamma_ratio(df: usize) -> Dd {
    let m = df / 2;
    if df.is_multiple_of(2) {
        (1..m).fold(Dd::from(0.5), |p, j| p * (Dd::from((2 * j + 1) as f64) / Dd::from((2 * j) as f64)))
    } else {
        (1..=m).fold(FRAC_1_PI, |p, j| p * (Dd::from((2 * j) as f64) / Dd::from((2 * j - 1) as f64)))
    }
}

/// `1/π` as a double-double, to 2⁻¹⁰⁶.
const FRAC_1_PI: Dd = Dd { hi: std::f64::consts::FRAC_1_PI, lo: -1.967_867_667_518_248_6e-17 };

/// The Cornish–Fisher expansion of `t_{0.975, ν}` in `1/ν` (A&S 26.7.5): `z + g₁/ν + g₂/ν² +
/// g₃/ν³ + g₄/ν⁴` with `z = Φ⁻¹(0.975)` and `g₁ = (z³ + z)/4`, `g₂ = (5z⁵ + 16z³ + 3z)/96`,
/// `g₃ = (3z⁷ + 19z⁵ + 17z³ − 15z)/384`, `g₄ = (79z⁹ + 776z⁷ + 1482z⁵ − 1920z³ − 945z)/92160`. All
/// four are positive, so Horner's rule in `1/ν` is non-increasing in `ν`.
fn cornish_fisher(nu: f64) -> f64 {
    let z = Z975;
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    let u = 1.0 / nu;
    z + (((g4 * u + g3) * u + g2) * u + g1) * u
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance from `got` to `want` in units of the last place of `want`.
    fn ulps(got: f64, want: f64) -> f64 {
        let ulp = f64::from_bits(want.to_bits() + 1) - want;
        (got - want).abs() / ulp
    }

    /// `t_{0.975, df}` to 22 significant digits, computed with mpmath at 60 digits as the root of
    /// `½·betainc(df/2, ½, 0, df/(df+t²), regularized) = 1/40` (df = 1 and 2 also in closed form:
    /// `cot(π/40)` and `0.95/√0.04875`). More digits than an `f64` holds, on purpose.
    #[allow(clippy::excessive_precision)]
    const REFERENCE: [(usize, f64); 16] = [
        (1, 12.706_204_736_174_704_646_02),
        (2, 4.302_652_729_749_463_852_321),
        (3, 3.182_446_305_283_709_592_723),
        (4, 2.776_445_105_197_794_357_803),
        (5, 2.570_581_835_636_315_514_696),
        (10, 2.228_138_851_986_274_748_395),
        (29, 2.045_229_642_132_704_298_194),
        (30, 2.042_272_456_301_238_309_958),
        (100, 1.983_971_518_523_552_286_595),
        (1000, 1.962_339_080_826_408_484_999),
        (9999, 1.960_201_263_621_357_680_371),
        (10_000, 1.960_201_239_890_626_257_838),
        (100_000, 1.959_987_707_534_609_638_592),
        (1_000_000, 1.959_966_356_814_107_035_259),
        (1_000_000_000, 1.959_963_986_912_325_468_646),
        (4_000_000_000, 1.959_963_985_133_122_043_276),
    ];

    #[test]
    fn quantiles_against_high_precision_references() {
        for (df, want) in REFERENCE {
            let got = t_quantile(df);
            assert!(ulps(got, want) <= 1.0, "df = {df}: {got:e} against {want:e} ({} ulp)", ulps(got, want));
        }
        assert!(t_quantile(0).is_nan());
        // The limit: Φ⁻¹(0.975) = 1.959963984540054235525…, within g₁/df of it.
        assert_eq!(Some(Z975), "1.959963984540054235525".parse().ok());
        let far = t_quantile(usize::MAX);
        assert!(far >= Z975 && far - Z975 <= 2.4 / usize::MAX as f64 + 4e-16, "{far}");
    }

    #[test]
    fn non_increasing_in_df() {
        let mut prev = t_quantile(1);
        for df in (2..=2000).chain(9990..=10_010).chain([100_000, 4_000_000_000, usize::MAX]) {
            let t = t_quantile(df);
            assert!(t <= prev && t > Z975 - 1e-15, "df = {df}: {t} after {prev}");
            if df < 1_000_000 {
                assert!(t < prev, "df = {df}: {t} after {prev}");
            }
            prev = t;
        }
    }

    #[test]
    fn the_ratio_of_gammas_by_hand() {
        // ν = 1: Γ(1)/(Γ(½)√π) = 1/π; ν = 2: Γ(3/2)/(Γ(1)√π) = ½; ν = 3: Γ(2)/(Γ(3/2)√π) = 2/π;
        // ν = 4: Γ(5/2)/(Γ(2)√π) = 3/4.
        assert_eq!(gamma_ratio(1).to_f64(), std::f64::consts::FRAC_1_PI);
        assert_eq!(gamma_ratio(2).to_f64(), 0.5);
        assert_eq!(gamma_ratio(3).to_f64(), 2.0 * std::f64::consts::FRAC_1_PI);
        assert_eq!(gamma_ratio(4).to_f64(), 0.75);
        // Large ν: √(ν/2π)·(1 − 1/(4ν) + …).
        let nu = 5000.0f64;
        let want =
            libm::sqrt(nu / (2.0 * std::f64::consts::PI)) * (1.0 - 1.0 / (4.0 * nu) + 1.0 / (32.0 * nu * nu));
        assert!((gamma_ratio(5000).to_f64() / want - 1.0).abs() < 1e-10);
    }

    #[test]
    fn the_tail_in_closed_form() {
        // ν = 1: P(T > t) = atan(1/t)/π; ν = 2: ½(1 − t/√(2 + t²)).
        for t in [0.3, 1.0, 2.0, 5.0, 12.7] {
            let one = libm::atan(1.0 / t) / std::f64::consts::PI;
            assert!(
                (upper_tail(t, 1.0, gamma_ratio(1)).to_f64() / one - 1.0).abs() < 8.0 * f64::EPSILON,
                "{t}"
            );
            let two = 0.5 * (1.0 - t / libm::sqrt(2.0 + t * t));
            assert!((upper_tail(t, 2.0, gamma_ratio(2)).to_f64() / two - 1.0).abs() < 1e-13, "{t}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// At the quantile the tail is 1/40 (the CDF 0.975) to within half the step one ulp of `t`
        /// makes (and an ulp of 0.025): `t` is the float nearest the root of the computed tail,
        /// and neither neighbour's tail is nearer 1/40.
        #[test]
        fn the_tail_at_the_quantile_is_a_fortieth(df in 1usize..EXPANSION_FROM) {
            let t = t_quantile(df);
            let c = gamma_ratio(df);
            let fortieth = Dd::ONE / Dd::from(40.0);
            let tail = |t: f64| upper_tail(t, df as f64, c);
            let miss = |t: f64| (tail(t) - fortieth).to_f64().abs();
            let ulp = f64::from_bits(0.025f64.to_bits() + 1) - 0.025;
            let (below, above) = (f64::from_bits(t.to_bits() - 1), f64::from_bits(t.to_bits() + 1));
            let step = (tail(below) - tail(above)).to_f64().abs() / 2.0;
            proptest::prop_assert!(miss(t) <= step / 2.0 + ulp, "df = {}: {:e} off, step {:e}", df, miss(t), step);
            proptest::prop_assert!(miss(below) >= miss(t) && miss(above) >= miss(t), "df = {}", df);
            let cdf = 1.0 - tail(t).to_f64();
            proptest::prop_assert!((cdf - 0.975).abs() <= f64::EPSILON, "df = {}: CDF {}", df, cdf);
        }
    }
}
