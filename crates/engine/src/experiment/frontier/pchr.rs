//! Precision against cache-hit ratio, P-CHR ("Closing the Calibration Gap in Semantic Caching",
//! arXiv 2606.19719, which proposes P-CHR and its AUC as the operating metric of a semantic cache):
//! for each family of a frontier, the hit precision (y) against the cache-hit ratio (x) at each
//! value of its parameter; a single policy is one point.
//!
//! On each seed a point's hit ratio is `hits/requests` and its hit precision
//! `1 − wrong hits/hits = 1 − error rate/hit ratio` (SPEC §14; undefined, and left out, on a seed
//! with no hit). Both are summarised over seeds as SPEC §10 summarises a sample: mean and 95%
//! Student-t interval, clipped to [0, 1].
//!
//! The AUC of a family is taken over the *common* hit-ratio range `[lo, hi]`: the range that the
//! most swept families span on every seed (a family spans `[max_s min_s, min_s max_s]` of its
//! seeds' hit ratios), the widest of those
//! ([`crate::experiment::frontier::common_range`]); a family that does not span it gets no AUC and a note
//! saying what it spans (on nq-trivia, vCache's hit ratios stay below the threshold caches'). On
//! each seed, the family's points (sorted by
//! hit ratio) are joined by straight lines and the area under them over `[lo, hi]` is [`auc`];
//! the family's AUC is the mean of these areas with its 95% Student-t interval over seeds. A
//! seed whose points do not span `[lo, hi]` is not extrapolated: the family then has no AUC, and
//! a note says which seed spans what. The rule, why, and how narrow the range can be (nothing
//! bounds its width from below; 0.001 on nq-trivia): `SPEC-NOTES#p-chr-the-common-hit-ratio-range`
//! (docs/SPEC-NOTES.md). The types live here, apart from the computation
//! (`Report::pchr` in [`crate::experiment::frontier`]), so that the report, which holds a P-CHR, and the
//! frontier, which reads reports, do not import each other.

use crate::experiment::stats::Interval;
use serde::{Deserialize, Serialize};

/// One point of a P-CHR chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PchrPoint {
    /// The experiment point (as the frontier's rows).
    pub point: usize,
    /// The family's parameter value (`null` for a single policy).
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub x: f64,
    /// Cache-hit ratio over seeds, clipped to [0, 1].
    pub hit_ratio: Interval,
    /// Hit precision over the seeds with at least one hit, clipped to [0, 1].
    pub precision: Interval,
}

/// One family's P-CHR curve (or point) and its AUC.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PchrFamily {
    /// The series' key (`Family::key`: `threshold`, `threshold:threshold-gdsf`).
    pub key: String,
    /// The series' name.
    pub name: String,
    /// Its swept parameter (`null`: a single policy, drawn as a point).
    pub param: Option<String>,
    /// Points in parameter order.
    pub points: Vec<PchrPoint>,
    /// The area under its curve over the common range: mean over seeds and 95% interval
    /// (`null` for a single policy, or where a seed's points do not span the range).
    pub auc: Option<Interval>,
    /// Why there is no AUC, when a swept family has none.
    pub note: Option<String>,
    /// Its AUC in words for a legend: the AUC at its interval's precision and the mean hit
    /// precision over the range (AUC ÷ its width), "identical on every seed" where every seed
    /// gives the same area, or "no AUC" (`null` for a single policy).
    pub words: Option<String>,
}

/// A frontier's P-CHR: every family, the common hit-ratio range and the notes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Pchr {
    /// The common hit-ratio range `[lo, hi]` of the AUCs (`null` when the families share none).
    pub range: Option<[f64; 2]>,
    /// The range in words for a chart's title (`AUC over hit ratios [0.048, 0.050]`), or that
    /// the families share none.
    pub range_words: String,
    /// Why the range is what it is: the families that span it on every seed, which family's seed
    /// sets each end, and where their mean curves overlap when that is wider (`null` without a
    /// range).
    pub range_note: Option<String>,
    pub families: Vec<PchrFamily>,
    /// How it is computed, in words.
    pub method: String,
}

/// How P-CHR is computed, in words (the page and the CLI say it).
pub const PCHR_METHOD: &str = "Hit precision (1 − wrong hits/hits) against cache-hit ratio, after \
    \"Closing the Calibration Gap in Semantic Caching\" (arXiv 2606.19719). Each point: mean over \
    seeds with its 95% Student-t interval, clipped to [0, 1]. AUC: on each seed, the area under the \
    family's points joined by straight lines over the common hit-ratio range (the range that the most \
    swept families span on every seed, the widest of those), then its mean and 95% Student-t interval over seeds; a family whose points do not \
    span the range on a seed gets no AUC (never extrapolated).";

/// The area under the piecewise-linear curve through `points` (hit ratio, precision) over
/// `[lo, hi]` (P-CHR AUC, arXiv 2606.19719): the points are sorted by hit ratio (ties keep their
/// order) and joined by straight lines; `None` when they do not span `[lo, hi]` (no
/// extrapolation), when a value is not finite, or when `lo > hi`. A vertical step (two points at
/// the same hit ratio) adds no area.
pub fn auc(points: &[(f64, f64)], lo: f64, hi: f64) -> Option<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo <= hi) || points.is_empty() {
        return None;
    }
    if points.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return None;
    }
    let mut p = points.to_vec();
    crate::order::stable_sort_by_key(&mut p, |a| a.0);
    if p[0].0 > lo || p[p.len() - 1].0 < hi {
        return None;
    }
    let mut area = 0.0;
    for w in p.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        let (a, b) = (x0.max(lo), x1.min(hi));
        if b <= a || x1 <= x0 {
            continue;
        }
        let at = |x: f64| y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        area += (b - a) * (at(a) + at(b)) / 2.0;
    }
    Some(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auc_by_hand() {
        // (0, 1), (0.5, 0.8), (1, 0.4): over [0, 1], 0.5·(1 + 0.8)/2 + 0.5·(0.8 + 0.4)/2 = 0.45 + 0.3.
        let pts = [(1.0, 0.4), (0.0, 1.0), (0.5, 0.8)];
        assert!((auc(&pts, 0.0, 1.0).unwrap() - 0.75).abs() < 1e-15);
        // Over [0.25, 0.75]: y(0.25) = 0.9, y(0.75) = 0.6: 0.25·(0.9 + 0.8)/2 + 0.25·(0.8 + 0.6)/2
        // = 0.2125 + 0.175 = 0.3875.
        assert!((auc(&pts, 0.25, 0.75).unwrap() - 0.3875).abs() < 1e-15);
        // A constant precision p over a range of width w: p·w.
        assert!((auc(&[(0.1, 0.9), (0.3, 0.9)], 0.1, 0.3).unwrap() - 0.18).abs() < 1e-15);
        // A zero-width range: 0.
        assert_eq!(auc(&pts, 0.5, 0.5), Some(0.0));
        // A vertical step adds nothing: (0, 1), (0.5, 1), (0.5, 0), (1, 0) → 0.5.
        assert_eq!(auc(&[(0.0, 1.0), (0.5, 1.0), (0.5, 0.0), (1.0, 0.0)], 0.0, 1.0), Some(0.5));
    }

    /// The AUC's interval over seeds (`Interval::of` of the per-seed areas, as `Report::pchr`
    /// computes it) against a direct bootstrap of the same areas: 30 seeds of random curves, the
    /// mean of 20,000 resamples with replacement, its 2.5% and 97.5% percentiles. The Student-t
    /// interval is a little wider (t₂₉ = 2.045 against the normal's 1.96, and the bootstrap's
    /// variance divides by n); both ends agree within a tenth of the bootstrap's width.
    #[test]
    fn auc_interval_agrees_with_a_direct_bootstrap() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut uniform = move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (lo, hi) = (0.1, 0.6);
        let areas: Vec<f64> = (0..30)
            .map(|_| {
                // a falling precision curve through 6 hit ratios spanning [0.05, 0.7]
                let mut y = 0.95 - 0.1 * uniform();
                let pts: Vec<(f64, f64)> = (0..6)
                    .map(|i| {
                        y -= 0.08 * uniform();
                        (0.05 + 0.13 * i as f64, y)
                    })
                    .collect();
                auc(&pts, lo, hi).expect("the curve spans the range")
            })
            .collect();
        let t = crate::experiment::stats::Interval::of(&areas);
        let plain_mean = areas.iter().sum::<f64>() / areas.len() as f64;
        assert!((t.mean - plain_mean).abs() < 1e-15);
        let mut means: Vec<f64> = (0..20_000)
            .map(|_| {
                let draws = (0..areas.len()).map(|_| areas[(uniform() * areas.len() as f64) as usize]);
                draws.sum::<f64>() / areas.len() as f64
            })
            .collect();
        means.sort_by(f64::total_cmp);
        let (b_lo, b_hi) = (means[500], means[19_499]);
        let width = b_hi - b_lo;
        assert!(width > 0.0);
        assert!((t.lo - b_lo).abs() < 0.1 * width, "t [{}, {}] vs bootstrap [{b_lo}, {b_hi}]", t.lo, t.hi);
        assert!((t.hi - b_hi).abs() < 0.1 * width, "t [{}, {}] vs bootstrap [{b_lo}, {b_hi}]", t.lo, t.hi);
        assert!(t.hi - t.lo >= width, "Student-t is the wider");
    }

    #[test]
    fn no_extrapolation_and_no_nan() {
        let pts = [(0.2, 0.9), (0.4, 0.7)];
        assert_eq!(auc(&pts, 0.1, 0.4), None);
        assert_eq!(auc(&pts, 0.2, 0.5), None);
        assert_eq!(auc(&pts, 0.4, 0.2), None);
        assert_eq!(auc(&pts, f64::NAN, 0.3), None);
        assert_eq!(auc(&[(0.2, f64::NAN), (0.4, 0.7)], 0.2, 0.4), None);
        assert_eq!(auc(&[], 0.0, 0.0), None);
        assert!((auc(&pts, 0.2, 0.4).unwrap() - 0.2 * 0.8).abs() < 1e-15);
    }
}
