//! Exact binomial bounds (Clopper–Pearson, 1934): the binomial CDF and the one-sided bounds of a
//! proportion, each found by bisection to the last bit. Threshold tuning
//! ([`crate::experiment::tune`]) states its targets with them.

/// `P(X ≤ k)` for `X ~ Binomial(n, p)`, summed in log space with `libm` (the same bits natively
/// and in the browser). `1` for `k ≥ n`, `0` for `k < 0`.
pub fn binomial_cdf(k: i64, n: u64, p: f64) -> f64 {
    if k < 0 {
        return 0.0;
    }
    if k as u64 >= n {
        return 1.0;
    }
    if p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let (lp, lq) = (libm::log(p), libm::log1p(-p));
    let nf = n as f64;
    let lg_n = libm::lgamma(nf + 1.0);
    let log_pmf = |i: u64| {
        let i = i as f64;
        lg_n - libm::lgamma(i + 1.0) - libm::lgamma(nf - i + 1.0) + i * lp + (nf - i) * lq
    };
    let terms: Vec<f64> = (0..=k as u64).map(log_pmf).collect();
    let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = terms.iter().map(|t| libm::exp(t - m)).sum();
    (libm::exp(m + libm::log(s))).min(1.0)
}

/// The root in `[0, 1]` of a monotone `f(p) − level` by bisection, to the last bit.
fn bisect(f: impl Fn(f64) -> f64, level: f64, increasing: bool) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let above = f(mid) > level;
        if above == increasing {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The one-sided `1 − alpha` Clopper–Pearson lower bound of a proportion with `x` successes in `n`
/// trials: the `p` with `P(X ≥ x; n, p) = alpha`; `0` for `x = 0` (and for `n = 0`).
pub fn cp_lower(x: u64, n: u64, alpha: f64) -> f64 {
    if x == 0 || n == 0 {
        return 0.0;
    }
    let x = x.min(n);
    bisect(|p| 1.0 - binomial_cdf(x as i64 - 1, n, p), alpha, true)
}

/// The one-sided `1 − alpha` Clopper–Pearson upper bound: the `p` with `P(X ≤ x; n, p) = alpha`;
/// `1` for `x = n` (and for `n = 0`).
pub fn cp_upper(x: u64, n: u64, alpha: f64) -> f64 {
    if n == 0 || x >= n {
        return 1.0;
    }
    bisect(|p| binomial_cdf(x as i64, n, p), alpha, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clopper_pearson_by_hand() {
        // x = n: the lower bound solves p^n = α, so it is α^(1/n).
        for n in [1u64, 2, 10, 57, 400] {
            let want = libm::pow(0.05, 1.0 / n as f64);
            assert!((cp_lower(n, n, 0.05) - want).abs() < 1e-12, "n = {n}");
            assert_eq!(cp_upper(n, n, 0.05), 1.0);
        }
        // x = 0: the upper bound solves (1 − p)^n = α, so it is 1 − α^(1/n); the lower is 0.
        let want = 1.0 - libm::pow(0.05, 0.1);
        assert!((cp_upper(0, 10, 0.05) - want).abs() < 1e-12);
        assert!((want - 0.258_866).abs() < 1e-6);
        assert_eq!(cp_lower(0, 10, 0.05), 0.0);
        // The textbook two-sided 95% interval for 5 of 10: [0.187086, 0.812914].
        assert!((cp_lower(5, 10, 0.025) - 0.187_086_1).abs() < 1e-6);
        assert!((cp_upper(5, 10, 0.025) - 0.812_913_9).abs() < 1e-6);
        // 1 of 1 at one-sided 95%: 0.05; 0 of 1: upper 0.95.
        assert!((cp_lower(1, 1, 0.05) - 0.05).abs() < 1e-14);
        assert!((cp_upper(0, 1, 0.05) - 0.95).abs() < 1e-14);
        // n = 0: no information.
        assert_eq!((cp_lower(0, 0, 0.05), cp_upper(0, 0, 0.05)), (0.0, 1.0));
    }

    #[test]
    fn the_binomial_cdf_by_hand() {
        // Binomial(4, 0.5): P(X ≤ 1) = (1 + 4)/16.
        assert!((binomial_cdf(1, 4, 0.5) - 5.0 / 16.0).abs() < 1e-14);
        // Binomial(3, 0.2): P(X ≤ 0) = 0.8³ = 0.512.
        assert!((binomial_cdf(0, 3, 0.2) - 0.512).abs() < 1e-14);
        assert_eq!((binomial_cdf(-1, 3, 0.2), binomial_cdf(3, 3, 0.2)), (0.0, 1.0));
    }
}
