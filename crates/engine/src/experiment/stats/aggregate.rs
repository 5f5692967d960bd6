//! Aggregation over seeds (SPEC §10): mean, standard deviation and the 95% Student-t interval of
//! every (algorithm, metric, x) point.

use crate::experiment::run::observation::{
    first_seen, is_no_y, legacy_key, nan_as_null, no_y, same_bits, Observation,
};
use crate::experiment::stats::student::t_quantile;
use crate::experiment::UnitResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Mean, spread and 95% confidence interval of one point. Two stats are equal when every field
/// is the same bits (so a NaN `x` or `y`, which stands for "none", equals itself; reports are
/// compared bit for bit).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Stat {
    /// The algorithm's id (`"clcb-sc-ls-cont"`, …; [`crate::algorithms`]), by which a reader
    /// looks results up, or the series name for series that are not algorithms (geometry). The
    /// display name is looked up only to draw or print ([`crate::algorithms::name_of`]). Older
    /// reports, which wrote the display name here (and the id in `algorithm_id`, now ignored),
    /// read back as ids.
    #[serde(deserialize_with = "legacy_key")]
    pub algorithm: String,
    pub metric: String,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub x: f64,
    /// The second parameter's value in a grid sweep; NaN, and absent from JSON, otherwise.
    #[serde(default = "no_y", skip_serializing_if = "is_no_y", with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub y: f64,
    pub n: usize,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub mean: f64,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub std: f64,
    /// Half-width of the 95% interval (Student t; NaN for a single seed).
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub ci95: f64,
}

impl PartialEq for Stat {
    fn eq(&self, o: &Self) -> bool {
        self.algorithm == o.algorithm
            && self.metric == o.metric
            && self.n == o.n
            && same_bits(
                &[self.x, self.y, self.mean, self.std, self.ci95],
                &[o.x, o.y, o.mean, o.std, o.ci95],
            )
    }
}

/// What the "±" of every interval the engine reports means: the one statement of it, shown with
/// every headline table (CLI, page, JSON report) and under every figure (the page reads it through
/// the bindings' `intervalWords()`).
pub const INTERVAL: &str = "mean ± 95% Student-t half-width over the n seeds (t_{0.975, n−1}·sd/√n)";

/// Whether a half-width is zero: exactly, or at the rounding noise of its mean (seeds that all
/// gave the same value whose mean is not a double: three 0.02 average to 0.019999999999999997,
/// whose standard deviation is then about 1e-18, not 0). Such an interval is shown as what it is,
/// every seed equal, never as twelve zeros of "precision".
pub fn zero_width(mean: f64, half: f64) -> bool {
    half == 0.0 || half.abs() <= 1e-12 * mean.abs()
}

/// `mean ± half` rounded to the precision the half-width supports: the half-width to two
/// significant digits and the mean to the same decimal place, so `48.66667 ± 16.54154` prints
/// `49 ± 17` and `53.894 ± 5.3212` prints `53.9 ± 5.3`. A zero half-width (every seed equal, also
/// at rounding noise: [`zero_width`]) prints `± 0` after the mean to 4 significant digits; a
/// missing one (NaN, a single seed) prints the mean alone. Every table of the page and the CLI
/// formats intervals with this.
pub fn format_interval(mean: f64, half: f64) -> String {
    if !mean.is_finite() {
        return "–".into();
    }
    if !half.is_finite() {
        return significant(mean, 4);
    }
    if zero_width(mean, half) {
        return format!("{} ± 0", significant(mean, 4));
    }
    let decimals = decimals_for(half);
    format!("{} ± {}", fixed(mean, decimals), fixed(half.abs(), decimals))
}

/// A paired difference (`point − reference`, csc::experiment::frontier::paired) as [`format_interval`]
/// with its sign: `+0.012 ± 0.004`, `−0.0031 ± 0.0012` (a minus sign, U+2212). A mean that rounds
/// to zero at the half-width's precision has no sign (`0.0000 ± 0.0021`). Its verdict hangs on
/// whether the interval excludes zero, so the shown numbers keep that ([`decimals_keeping_sign`]):
/// `0.03023 ± 0.02968` gives `+0.0302 ± 0.0297`, not `+0.030 ± 0.030`, which would read as
/// touching zero (and `0.0296 ± 0.0302`, which includes it, is not shown as touching it either). The frontier's tables, in the CLI and the page, write their differences with this.
pub fn format_difference(mean: f64, half: f64) -> String {
    let m = mean.abs();
    let body = if m.is_finite() && half.is_finite() && !zero_width(m, half) {
        let d = decimals_keeping_sign(decimals_for(half), &[(m, -half.abs())]);
        format!("{} ± {}", fixed(m, d), fixed(half.abs(), d))
    } else {
        format_interval(m, half)
    };
    let shown = body.split(' ').next().unwrap_or("");
    let zero = shown.chars().all(|c| c == '0' || c == '.');
    match mean {
        m if !m.is_finite() || zero => body,
        m if m > 0.0 => format!("+{body}"),
        _ => format!("−{body}"),
    }
}

/// At least `d` decimal places, more (up to 12) until each sum `a + b` of `terms` shown as its
/// rounded parts, `fixed(a, d) + fixed(b, d)`, has the sign of the true sum: an interval's end
/// that is not zero never shows as zero or on the other side of it. A verdict that an interval
/// excludes zero must be readable from the numbers beside it.
pub fn decimals_keeping_sign(d: usize, terms: &[(f64, f64)]) -> usize {
    let shown = |v: f64, d: usize| fixed(v, d).parse::<f64>().unwrap_or(v);
    let sign = |v: f64| {
        if v > 0.0 {
            1
        } else if v < 0.0 {
            -1
        } else {
            0
        }
    };
    let keeps = |d: usize| terms.iter().all(|&(a, b)| sign(shown(a, d) + shown(b, d)) == sign(a + b));
    (d..12).find(|&d| keeps(d)).unwrap_or(12.max(d))
}

/// The decimal places at which a half-width shows two significant digits (none left of the
/// point; one fewer where rounding carries it to a new digit, 9.96 → 10).
pub fn decimals_for(half: f64) -> usize {
    if !half.is_finite() || half == 0.0 {
        return 4;
    }
    let decimals = (1 - half.abs().log10().floor() as i32).clamp(0, 12) as usize;
    if decimals > 0
        && format!("{:.*}", decimals, half.abs()).replace('.', "").trim_start_matches('0').len() > 2
    {
        decimals - 1
    } else {
        decimals
    }
}

/// `v` to `decimals` places, without a negative zero.
pub fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// `v` to `digits` significant digits (whole numbers of that many digits or more as they are).
pub fn significant(v: f64, digits: i32) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_finite() { "0".into() } else { "–".into() };
    }
    let decimals = (digits - 1 - v.abs().log10().floor() as i32).clamp(0, 12) as usize;
    fixed(v, decimals)
}

/// Mean, sample standard deviation and half-width of the 95% Student-t interval of a non-empty
/// sample (standard deviation 0 and half-width NaN for a single value).
pub fn mean_std_ci95(v: &[f64]) -> (f64, f64, f64) {
    let n = v.len();
    let mean = v.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0, f64::NAN);
    }
    let std = (v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / (n - 1) as f64).sqrt();
    (mean, std, t_quantile(n - 1) * std / (n as f64).sqrt())
}

/// Groups observations by (algorithm, metric, x, y) in first-seen order of algorithms (`y` is NaN,
/// one group, outside a grid).
pub fn aggregate(results: &[UnitResult]) -> Vec<Stat> {
    aggregate_observations(&mut results.iter().flat_map(|r| &r.observations))
}

/// [`aggregate`] of observations in the order given (an external policy's runs, which are not
/// units of an experiment: `OwnPolicyStats` in the web layer). One body for both callers (a
/// `dyn` iterator: the page's wasm holds it once).
pub fn aggregate_observations(observations: &mut dyn Iterator<Item = &Observation>) -> Vec<Stat> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(usize, String, u64, u64), Vec<f64>> = BTreeMap::new();
    for o in observations {
        let ai = first_seen(&mut order, &o.algorithm);
        groups.entry((ai, o.metric.clone(), o.x.to_bits(), o.y.to_bits())).or_default().push(o.value);
    }
    let mut stats: Vec<Stat> = groups
        .into_iter()
        .map(|((ai, metric, xb, yb), v)| {
            let (mean, std, ci95) = mean_std_ci95(&v);
            let (x, y) = (f64::from_bits(xb), f64::from_bits(yb));
            Stat { algorithm: order[ai].clone(), metric, x, y, n: v.len(), mean, std, ci95 }
        })
        .collect();
    stats.sort_by(|a, b| {
        let ia = order.iter().position(|x| *x == a.algorithm);
        let ib = order.iter().position(|x| *x == b.algorithm);
        ia.cmp(&ib).then(a.metric.cmp(&b.metric)).then(a.x.total_cmp(&b.x)).then(a.y.total_cmp(&b.y))
    });
    stats
}

/// Thousands separated by commas (`5,000`), other numbers as they print.
pub(crate) fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() >= 1000.0 && v.abs() < 1e15 {
        let s = format!("{}", v.abs() as u64);
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0.0 {
            format!("-{out}")
        } else {
            out
        }
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod format_tests {
    use super::*;

    #[test]
    fn intervals_round_to_the_half_widths_precision() {
        // A long mean and half-width: 48.66667 ± 16.54154.
        assert_eq!(format_interval(48.66667, 16.54154), "49 ± 17");
        assert_eq!(format_interval(53.894, 5.3212), "53.9 ± 5.3");
        assert_eq!(format_interval(0.011034, 0.000912), "0.01103 ± 0.00091");
        assert_eq!(format_interval(-0.00004, 0.0021), "0.0000 ± 0.0021");
        // A carry to a new digit: 9.96 to two significant digits is 10.
        assert_eq!(format_interval(41.2, 9.96), "41 ± 10");
        assert_eq!(format_interval(0.5, 0.0996), "0.50 ± 0.10");
        assert_eq!(format_interval(1234.7, 160.0), "1235 ± 160");
    }

    #[test]
    fn differences_carry_their_sign() {
        assert_eq!(format_difference(0.01234, 0.00412), "+0.0123 ± 0.0041");
        assert_eq!(format_difference(-0.0031, 0.0012), "−0.0031 ± 0.0012");
        // rounds to zero at the half-width's precision: no sign
        assert_eq!(format_difference(-0.00004, 0.0021), "0.0000 ± 0.0021");
        assert_eq!(format_difference(0.00004, 0.0021), "0.0000 ± 0.0021");
        assert_eq!(format_difference(0.0, 0.0), "0 ± 0");
        // identical on every seed: a zero half-width; one seed: no half-width
        assert_eq!(format_difference(-0.25, 0.0), "−0.2500 ± 0");
        assert_eq!(format_difference(0.123456, f64::NAN), "+0.1235");
        assert_eq!(format_difference(f64::NAN, 1.0), "–");
    }

    #[test]
    fn a_difference_that_excludes_zero_never_reads_as_touching_it() {
        // 0.03023 − 0.02968 > 0: two significant digits of the half-width would show 0.030 ± 0.030
        assert_eq!(format_difference(0.03023, 0.02968), "+0.0302 ± 0.0297");
        assert_eq!(format_difference(-0.03023, 0.02968), "−0.0302 ± 0.0297");
        // nor does one that includes zero read as only touching it; an exact tie stays as it is
        assert_eq!(format_difference(0.0296, 0.0302), "+0.0296 ± 0.0302");
        assert_eq!(format_difference(0.030, 0.030), "+0.030 ± 0.030");
        // far from zero: the half-width's two significant digits, as before
        assert_eq!(format_difference(0.0559, 0.0071), "+0.0559 ± 0.0071");
        // bounds: a lower end of 0.0004 is not shown as 0.000
        assert_eq!(decimals_keeping_sign(3, &[(0.0004, 0.0)]), 4);
        assert_eq!(decimals_keeping_sign(3, &[(0.0, 0.0)]), 3);
        assert_eq!(decimals_keeping_sign(2, &[(-0.004, 0.0), (0.6, 0.0)]), 3);
    }

    #[test]
    fn intervals_in_words_symmetric_asymmetric_and_without_bounds() {
        assert_eq!(Interval::symmetric(53.894, 5.3212, 5).words(" %"), "53.9 ± 5.3 %");
        // clipped to [0, 1]: asymmetric, the bounds at the half-width's precision
        let c = Interval::clipped(3, 0.012, 0.0304, (0.0, 1.0));
        assert_eq!(c.words(""), "0.012 [0.000, 0.042]");
        let one = Interval::clipped(1, 0.4321, f64::NAN, (0.0, 1.0));
        assert_eq!(one.words(""), "0.4321");
        assert_eq!(Interval::of(&[]).words(""), "–");
    }

    #[test]
    fn no_spread_and_no_interval() {
        assert_eq!(format_interval(0.0, 0.0), "0 ± 0");
        assert_eq!(format_interval(0.123456, 0.0), "0.1235 ± 0");
        assert_eq!(format_interval(0.123456, f64::NAN), "0.1235");
        assert_eq!(format_interval(f64::NAN, 1.0), "–");
    }

    /// Seeds that all gave 0.02 average to 0.019999999999999997 with a half-width of rounding
    /// noise: every seed equal, "± 0", never "0.020000000000 ± 0.000000000000".
    #[test]
    fn rounding_noise_is_no_spread() {
        let (mean, _, half) = mean_std_ci95(&[0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02]);
        assert!(half.is_finite() && half.abs() < 1e-15, "{half}");
        assert_eq!(format_interval(mean, half), "0.02000 ± 0");
        assert_eq!(format_interval(0.019999999999999997, 3.5e-18), "0.02000 ± 0");
        assert_eq!(Interval::symmetric(0.019999999999999997, 3.5e-18, 4).words(""), "0.02000 ± 0");
        assert_eq!(format_difference(0.019999999999999997, 3.5e-18), "+0.02000 ± 0");
        // A real spread, however small beside a large mean, keeps its digits.
        assert_eq!(format_interval(1.0, 2e-9), "1.0000000000 ± 0.0000000020");
    }
}

/// An interval over seeds: the mean and the 95% bounds (NaN, `null` in JSON, with fewer than 2
/// seeds). A ratio's bounds are not symmetric about its mean.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Interval {
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub mean: f64,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub lo: f64,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub hi: f64,
    /// Seeds.
    pub n: usize,
}

impl Interval {
    /// `mean ± half` over `n` seeds.
    pub fn symmetric(mean: f64, half: f64, n: usize) -> Interval {
        Interval { mean, lo: mean - half, hi: mean + half, n }
    }

    /// The Student-t interval of a sample ([`mean_std_ci95`]).
    pub fn of(sample: &[f64]) -> Interval {
        if sample.is_empty() {
            return Interval { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN, n: 0 };
        }
        let (mean, _, half) = mean_std_ci95(sample);
        Interval::symmetric(mean, half, sample.len())
    }

    /// The half-width (the larger side of an asymmetric interval).
    pub fn half(&self) -> f64 {
        (self.hi - self.mean).max(self.mean - self.lo)
    }

    /// `mean ± ci95` clipped to `[min, max]`, the range of a quantity that cannot leave it (a
    /// rate to [0, 1], a cost to ≥ 0; the frontier's `FRONTIER_RANGES`); NaN ends for one seed.
    pub fn clipped(n: usize, mean: f64, ci95: f64, (min, max): (f64, f64)) -> Interval {
        let clip = |v: f64| if v.is_finite() { v.clamp(min, max) } else { f64::NAN };
        Interval { mean, lo: clip(mean - ci95), hi: clip(mean + ci95), n }
    }

    pub(crate) fn is_finite(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// The interval in words, `suffix` (a unit: `" %"`, `"×"`) after the mean: `mean ± half` at
    /// the half-width's precision ([`format_interval`]), or, for an asymmetric one (a ratio, or an
    /// interval clipped to a quantity's range), the mean and its bounds at that precision,
    /// `0.42 [0.31, 0.50]`. Without bounds (one seed), the mean alone. Every table of the CLI and
    /// the page writes an [`Interval`] with this.
    pub fn words(&self, suffix: &str) -> String {
        let symmetric =
            ((self.hi - self.mean) - (self.mean - self.lo)).abs() <= 1e-9 * self.half().abs().max(1e-300);
        if symmetric || !self.is_finite() || zero_width(self.mean, (self.hi - self.lo) / 2.0) {
            let half = if self.is_finite() { self.half() } else { f64::NAN };
            format!("{}{suffix}", format_interval(self.mean, half))
        } else {
            let d = decimals_for((self.hi - self.lo) / 2.0);
            format!("{}{suffix} [{}, {}]", fixed(self.mean, d), fixed(self.lo, d), fixed(self.hi, d))
        }
    }
}
