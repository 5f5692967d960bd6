//! Sweeps over one or two parameters: a [`Sweep`] is one parameter over its values, or, with `by`,
//! the grid of every pair of two parameters' values. Its points are the grid's cells, first
//! parameter major (`point = i_x · n_y + i_y`); an experiment's units are cell × seed
//! ([`ExperimentSpec::units`](crate::experiment::ExperimentSpec::units)), so `--shard` splits a
//! grid and `csc merge` joins it like any sweep. Observations carry the cell's first value as `x`
//! and its second as `y` ([`Observation`](crate::experiment::Observation)).
//!
//! The command line's `--grid 'epsilon=0.1,0.2,0.3;beta=0.5,1,2'` is [`Sweep::parse`], and
//! [`Sweep::to_arg`] writes it back; [`ExperimentSpec::set_sweep`](crate::experiment::ExperimentSpec::set_sweep)
//! puts it in a definition.

use crate::config::{with_param, Params};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A parameter swept over values (any `Params` field that [`with_param`] sets, e.g. `log_len`,
/// `epsilon`, `k`), optionally crossed with a second one (`by`) into a grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Sweep {
    pub param: String,
    pub values: Vec<Value>,
    /// A second parameter: the sweep is then the grid of every (value, `by` value) pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Axis>,
}

/// The second parameter of a grid and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SweepAxis"))]
pub struct Axis {
    pub param: String,
    pub values: Vec<Value>,
}

/// Most cells a grid may have (the page draws each one; the unit count is checked separately).
pub const MAX_CELLS: usize = 10_000;

const GRID_SYNTAX: &str =
    "give one or two parameters as NAME=V1,V2,… separated by ';', e.g. 'epsilon=0.1,0.2,0.3;beta=0.5,1,2'";

impl Sweep {
    /// One parameter over `values`.
    pub fn new(param: &str, values: Vec<Value>) -> Self {
        Sweep { param: param.into(), values, by: None }
    }

    /// The grid of `param` over `values` crossed with `by` over `by_values`.
    pub fn grid(param: &str, values: Vec<Value>, by: &str, by_values: Vec<Value>) -> Self {
        Sweep { by: Some(Axis { param: by.into(), values: by_values }), ..Sweep::new(param, values) }
    }

    /// The number of points (cells): values × `by` values.
    pub fn points(&self) -> usize {
        self.values.len() * self.by.as_ref().map_or(1, |b| b.values.len())
    }

    /// The first and (in a grid) second value index of point `point`.
    pub fn cell(&self, point: usize) -> (usize, Option<usize>) {
        match &self.by {
            None => (point, None),
            Some(b) => (point / b.values.len(), Some(point % b.values.len())),
        }
    }

    /// `base` with point `point`'s value(s) set.
    pub fn apply(&self, base: &Params, point: usize) -> Result<Params> {
        let (i, j) = self.cell(point);
        let p = with_param(base, &self.param, &self.values[i])?;
        match (&self.by, j) {
            (Some(b), Some(j)) => with_param(&p, &b.param, &b.values[j]),
            _ => Ok(p),
        }
    }

    /// Point `point`'s first value as a number (NaN when it is not one).
    pub fn x(&self, point: usize) -> f64 {
        self.values[self.cell(point).0].as_f64().unwrap_or(f64::NAN)
    }

    /// Point `point`'s second value (NaN without a second parameter).
    pub fn y(&self, point: usize) -> f64 {
        match (&self.by, self.cell(point).1) {
            (Some(b), Some(j)) => b.values[j].as_f64().unwrap_or(f64::NAN),
            _ => f64::NAN,
        }
    }

    /// Checks the sweep against the base parameters: values given, every cell's parameters valid,
    /// and in a grid two different parameters with distinct numeric values (a cell is found by
    /// its pair of numbers).
    pub fn validate(&self, base: &Params) -> Result<()> {
        if self.values.is_empty() {
            return Err(Error::param("sweep", "give at least one value"));
        }
        let Some(b) = &self.by else {
            for v in &self.values {
                with_param(base, &self.param, v)?;
            }
            return Ok(());
        };
        if b.values.is_empty() {
            return Err(Error::param("sweep", format!("give at least one value of `{}`", b.param)));
        }
        if b.param == self.param {
            return Err(Error::param(
                "sweep",
                format!("a grid crosses two different parameters, not `{}` twice", b.param),
            ));
        }
        for (name, values) in [(&self.param, &self.values), (&b.param, &b.values)] {
            for (i, v) in values.iter().enumerate() {
                let Some(n) = v.as_f64() else {
                    return Err(Error::param(
                        "sweep",
                        format!("`{name}`: a grid's values are numbers, got {v}"),
                    ));
                };
                if values[..i].iter().any(|w| w.as_f64() == Some(n)) {
                    return Err(Error::param("sweep", format!("`{name}`: {v} is given twice")));
                }
            }
        }
        if self.points() > MAX_CELLS {
            return Err(Error::param(
                "sweep",
                format!("{} × {} is too many cells (at most {MAX_CELLS})", self.values.len(), b.values.len()),
            ));
        }
        for point in 0..self.points() {
            self.apply(base, point)?;
        }
        Ok(())
    }

    /// Parses the command line's grid: `NAME=V1,V2,…`, optionally `;NAME2=W1,W2,…`, values as
    /// JSON numbers. Parameter names and values are checked later, against the experiment's
    /// parameters ([`Sweep::validate`]).
    pub fn parse(text: &str) -> Result<Sweep> {
        let axes: Vec<&str> = text.split(';').map(str::trim).collect();
        if axes.len() > 2 || axes.iter().any(|a| a.is_empty()) {
            return Err(Error::param("grid", format!("`{text}`: {GRID_SYNTAX}")));
        }
        let mut parsed = Vec::new();
        for a in axes {
            let Some((name, list)) = a.split_once('=') else {
                return Err(Error::param("grid", format!("`{a}` has no '=': {GRID_SYNTAX}")));
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(Error::param("grid", format!("`{a}` names no parameter: {GRID_SYNTAX}")));
            }
            let mut values = Vec::new();
            for v in list.split(',').map(str::trim) {
                match serde_json::from_str::<Value>(v) {
                    Ok(n @ Value::Number(_)) => values.push(n),
                    _ => {
                        return Err(Error::param(
                            "grid",
                            format!("`{name}`: `{v}` is not a number (values are separated by ',')"),
                        ))
                    }
                }
            }
            parsed.push((name.to_string(), values));
        }
        let mut it = parsed.into_iter();
        let (param, values) = it.next().expect("one axis at least");
        Ok(Sweep { param, values, by: it.next().map(|(param, values)| Axis { param, values }) })
    }

    /// The sweep as `--grid`'s text, if every value is a number (the inverse of [`Sweep::parse`]).
    pub fn to_arg(&self) -> Option<String> {
        let list = |v: &[Value]| -> Option<String> {
            v.iter()
                .map(|x| x.is_number().then(|| x.to_string()))
                .collect::<Option<Vec<_>>>()
                .map(|v| v.join(","))
        };
        let mut s = format!("{}={}", self.param, list(&self.values)?);
        if let Some(b) = &self.by {
            s.push_str(&format!(";{}={}", b.param, list(&b.values)?));
        }
        Some(s)
    }
}

/// The values a sweep of `param` starts from when the reader picks the parameter (the page's
/// sweep view): its SPEC default (`Params::default()`) halved, as is and doubled — rounded for an
/// integer parameter, and only the values [`with_param`] accepts on the defaults (a probability
/// stays ≤ 1), in increasing order without repeats. A default of 0 gives 0, 1, 2; a parameter
/// without a numeric default (`synthetic_sigma`, `threshold_cosine`: unset by default) gives none,
/// and the reader types them. An unknown or non-numeric parameter is an error naming it.
pub fn default_values(param: &str) -> Result<Vec<Value>> {
    let defaults = serde_json::to_value(Params::default()).expect("Params serialises");
    let Some(d) = defaults.get(param) else {
        return Err(Error::param(param, "no such parameter"));
    };
    let integer = d.is_u64() || d.is_i64();
    let centre = match d {
        Value::Null => return Ok(Vec::new()),
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        _ => return Err(Error::param(param, format!("is not a number ({d}): it cannot be swept"))),
    };
    let candidates = if centre == 0.0 { [0.0, 1.0, 2.0] } else { [centre / 2.0, centre, centre * 2.0] };
    let mut out: Vec<f64> = Vec::new();
    for c in candidates {
        let v = if integer { c.round() } else { c };
        let value = if integer { Value::from(v as i64) } else { Value::from(v) };
        if with_param(&Params::default(), param, &value).is_ok() && !out.contains(&v) {
            out.push(v);
        }
    }
    out.sort_by(f64::total_cmp);
    Ok(out.into_iter().map(|v| if integer { Value::from(v as i64) } else { Value::from(v) }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn default_values_are_half_the_default_the_default_and_twice_it_where_valid() {
        // β = 1 (SPEC §6), ε = 0.4 (SPEC §4): ½×, 1×, 2×.
        assert_eq!(default_values("beta").unwrap(), vec![json!(0.5), json!(1.0), json!(2.0)]);
        assert_eq!(default_values("epsilon").unwrap(), vec![json!(0.2), json!(0.4), json!(0.8)]);
        // k = 5, an integer: 2.5 rounds to 3 (half away from zero).
        assert_eq!(default_values("k").unwrap(), vec![json!(3), json!(5), json!(10)]);
        // ν = 0.5 is a probability: 1.0 is still one, so all three stay.
        assert_eq!(default_values("propensity").unwrap(), vec![json!(0.25), json!(0.5), json!(1.0)]);
        // The seed's default is 0: 0, 1, 2.
        assert_eq!(default_values("seed").unwrap(), vec![json!(0), json!(1), json!(2)]);
        // Unset by default: no value to start from.
        assert!(default_values("synthetic_sigma").unwrap().is_empty());
        assert!(default_values("no_such").unwrap_err().to_string().contains("no such parameter"));
        assert!(default_values("phi").unwrap_err().to_string().contains("cannot be swept"));
        // Every value offered is one the sweep accepts.
        for p in crate::config::PARAMETERS {
            let v = default_values(p.id).unwrap_or_default();
            if !v.is_empty() {
                Sweep::new(p.id, v).validate(&Params::default()).unwrap();
            }
        }
    }

    #[test]
    fn cells_are_first_parameter_major() {
        let g = Sweep::grid(
            "epsilon",
            vec![json!(0.1), json!(0.2)],
            "beta",
            vec![json!(0.5), json!(1), json!(2)],
        );
        assert_eq!(g.points(), 6);
        let cells: Vec<_> = (0..6).map(|p| (g.x(p), g.y(p))).collect();
        assert_eq!(cells, [(0.1, 0.5), (0.1, 1.0), (0.1, 2.0), (0.2, 0.5), (0.2, 1.0), (0.2, 2.0)]);
        let p = g.apply(&Params::default(), 5).unwrap();
        assert_eq!((p.epsilon, p.beta), (0.2, 2.0));
        let one = Sweep::new("k", vec![json!(3), json!(5)]);
        assert_eq!((one.points(), one.cell(1), one.x(1)), (2, (1, None), 5.0));
        assert!(one.y(1).is_nan());
    }

    #[test]
    fn the_grid_argument_round_trips() {
        let g = Sweep::parse("epsilon=0.1,0.2,0.3; beta=0.5,1,2").unwrap();
        assert_eq!(
            g,
            Sweep::grid(
                "epsilon",
                vec![json!(0.1), json!(0.2), json!(0.3)],
                "beta",
                vec![json!(0.5), json!(1), json!(2)]
            )
        );
        assert_eq!(g.to_arg().unwrap(), "epsilon=0.1,0.2,0.3;beta=0.5,1,2");
        assert_eq!(Sweep::parse(&g.to_arg().unwrap()).unwrap(), g);
        let one = Sweep::parse("k=3,5").unwrap();
        assert_eq!(one, Sweep::new("k", vec![json!(3), json!(5)]));
        assert_eq!(Sweep::new("x", vec![json!("a")]).to_arg(), None);
    }

    #[test]
    fn bad_grids_are_refused_in_plain_words() {
        let msg = |t: &str| Sweep::parse(t).unwrap_err().to_string();
        assert!(msg("a=1;b=2;c=3").contains("one or two parameters"));
        assert!(msg("epsilon").contains("has no '='"));
        assert!(msg("=1,2").contains("names no parameter"));
        assert!(msg("epsilon=0.1,x").contains("`x` is not a number"));
        assert!(msg("epsilon=0.1,,0.2").contains("`` is not a number"));
        assert!(msg("").contains("one or two parameters"));
        let base = Params::default();
        let bad = |t: &str| Sweep::parse(t).unwrap().validate(&base).unwrap_err().to_string();
        assert!(bad("nope=1,2").contains("no such parameter"), "{}", bad("nope=1,2"));
        assert!(bad("epsilon=0.1;epsilon=0.2").contains("two different parameters"));
        assert!(bad("epsilon=0.1,0.1;beta=1").contains("0.1 is given twice"));
        assert!(bad("k=0;beta=1").contains('k'), "{}", bad("k=0;beta=1"));
        Sweep::parse("epsilon=0.1,0.2;beta=0.5,1").unwrap().validate(&base).unwrap();
    }
}
