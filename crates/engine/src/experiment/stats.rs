//! Aggregation over seeds (SPEC §10): mean, standard deviation and the 95% Student-t interval of
//! every (algorithm, metric, x) point.

use super::observation::{is_no_y, legacy_key, nan_as_null, no_y, same_bits};
use super::UnitResult;
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

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
pub fn t_quantile(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
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
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(usize, String, u64, u64), Vec<f64>> = BTreeMap::new();
    for r in results {
        for o in &r.observations {
            let ai = order.iter().position(|a| *a == o.algorithm).unwrap_or_else(|| {
                order.push(o.algorithm.clone());
                order.len() - 1
            });
            groups.entry((ai, o.metric.clone(), o.x.to_bits(), o.y.to_bits())).or_default().push(o.value);
        }
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
