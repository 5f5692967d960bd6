//! One measured number of a unit, an [`Observation`], and how numbers are written to JSON
//! (`nan_as_null`). Shared by the runner, the geometry measure and the statistics.

use serde::{Deserialize, Serialize};

/// JSON has no NaN: non-finite numbers are written as `null` and read back as NaN.
pub(crate) mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// One measured number. Two observations are equal when every field is the same bits (a NaN
/// `x` or `y`, "none", equals itself).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Observation {
    /// The algorithm's id (`"clcb-sc-ls-cont"`, [`crate::algorithms`]), or the series name for
    /// series that are not algorithms (geometry). Reports written when this was the display name
    /// read back as ids.
    #[serde(deserialize_with = "legacy_key")]
    pub algorithm: String,
    pub metric: String,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub x: f64,
    /// The second parameter's value in a grid sweep ([`crate::experiment::definition::grid`]); NaN, and absent from
    /// JSON, otherwise.
    #[serde(default = "no_y", skip_serializing_if = "is_no_y", with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub y: f64,
    #[serde(with = "nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub value: f64,
}

impl PartialEq for Observation {
    fn eq(&self, o: &Self) -> bool {
        self.algorithm == o.algorithm
            && self.metric == o.metric
            && same_bits(&[self.x, self.y, self.value], &[o.x, o.y, o.value])
    }
}

/// Whether two lists of numbers are the same bits, one by one (a NaN equals itself): the equality
/// of observations and stats, whose NaN `x` or `y` stands for "none".
pub(crate) fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// `y` outside a grid: NaN.
pub(crate) fn no_y() -> f64 {
    f64::NAN
}

/// Whether `y` is absent (NaN), so that reports without a grid keep their JSON.
pub(crate) fn is_no_y(y: &f64) -> bool {
    y.is_nan()
}

/// A result key, with a display name of an older report read as its id.
pub(crate) fn legacy_key<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(crate::algorithms::key_from_legacy(String::deserialize(d)?))
}

/// The position of algorithm `name` in `order`, appended when first seen: reports list the
/// algorithms in the order their observations first name them.
pub(crate) fn first_seen(order: &mut Vec<String>, name: &str) -> usize {
    order.iter().position(|a| a == name).unwrap_or_else(|| {
        order.push(name.to_string());
        order.len() - 1
    })
}

/// Appends one observation to `out`.
pub(crate) fn obs(out: &mut Vec<Observation>, algorithm: &str, metric: &str, x: f64, value: f64) {
    out.push(Observation { algorithm: algorithm.into(), metric: metric.into(), x, y: f64::NAN, value });
}
