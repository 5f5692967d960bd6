//! Traces (SPEC §12): an explicit record of everything random in a run — online arrivals and
//! their true costs, the noise an LLM call observes, the offline log with its observation draws,
//! and the evaluation sample — so that any policy can be replayed on identical inputs and
//! results compared exactly with another implementation.
//!
//! JSON keys are exactly SPEC §12's. Interpretations (docs/SPEC-NOTES.md): when `off_X` /
//! `off_arrival_idx` is present, `z` has one entry per offline log entry and `eta` must cover
//! both the online rounds and the log entries (entry t of either observes `cost + eta[t]`).

use crate::answers::Label;
use crate::error::{Error, Result};
use crate::space::Points;
use serde::{Deserialize, Serialize};

/// Queries given as vectors or as rows of the trace's universe.
#[derive(Clone, Debug, PartialEq)]
pub enum Queries {
    Vectors(Points),
    Indices(Vec<u32>),
}

impl Queries {
    pub fn len(&self) -> usize {
        match self {
            Queries::Vectors(p) => p.len(),
            Queries::Indices(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Query `t` as a vector (`universe` must be given for indices; checked by `Trace::validate`).
    #[inline]
    pub fn get<'a>(&'a self, t: usize, universe: Option<&'a Points>) -> &'a [f32] {
        match self {
            Queries::Vectors(p) => p.row(t),
            Queries::Indices(v) => universe.expect("indices need a universe").row(v[t] as usize),
        }
    }
    /// The universe row of query `t`, when queries are indices.
    pub fn index(&self, t: usize) -> Option<u32> {
        match self {
            Queries::Vectors(_) => None,
            Queries::Indices(v) => Some(v[t]),
        }
    }
}

/// A complete, replayable record of a run's inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// `D` (SPEC §1).
    pub dist_scale: f64,
    pub universe: Option<Points>,
    pub universe_cost: Option<Vec<f64>>,
    /// Online arrivals `x_t`, t = 0..T.
    pub arrivals: Queries,
    /// True expected cost `c(x_t)`.
    pub cost: Vec<f64>,
    /// Noise: an LLM call in round t observes `cost[t] + eta[t]`.
    pub eta: Vec<f64>,
    /// Offline log: the cost of entry t is observed iff `z[t]`.
    pub z: Vec<bool>,
    /// Evaluation sample `E` and its true costs.
    pub eval: Queries,
    pub eval_cost: Vec<f64>,
    /// Offline log arrivals and costs; `None` = the online arrivals serve as the log.
    pub offline: Option<(Queries, Vec<f64>)>,
    pub meta: serde_json::Value,
    /// Ground truth (SPEC §14), so that a replay measures correctness.
    pub labels: TraceLabels,
    /// The tenant of each online arrival (JSON `tenants`), when the stream has tenants
    /// (docs/SPEC-NOTES.md, "Tenants"); `None`: one tenant.
    pub tenants: Option<Vec<u32>>,
}

/// A trace's ground truth (SPEC §12 + §14): JSON keys `labels` (one per arrival),
/// `universe_labels` (one per universe row, for arrivals given as indices) and `eval_labels`
/// (one per point of `E`), and `off_labels` (one per entry of a separate offline log given as
/// vectors, SPEC §8). Each entry is a string, an integer or a list of answer strings.
/// A trace without them has no correctness metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceLabels {
    pub arrivals: Option<Vec<Label>>,
    pub universe: Option<Vec<Label>>,
    pub eval: Option<Vec<Label>>,
    /// The offline log's labels (its entries' source prompts' labels), so that the offline
    /// error rate of `M̂` (SPEC §14) is measured on jittered logs too.
    pub log: Option<Vec<Label>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceJson {
    dist_scale: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    universe: Option<Vec<Vec<f32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    universe_cost: Option<Vec<f64>>,
    #[serde(rename = "X", default, skip_serializing_if = "Option::is_none")]
    x: Option<Vec<Vec<f32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    arrival_idx: Option<Vec<u32>>,
    cost: Vec<f64>,
    eta: Vec<f64>,
    #[serde(default)]
    z: Vec<u8>,
    #[serde(rename = "E", default, skip_serializing_if = "Option::is_none")]
    e: Option<Vec<Vec<f32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval_idx: Option<Vec<u32>>,
    eval_cost: Vec<f64>,
    #[serde(rename = "off_X", default, skip_serializing_if = "Option::is_none")]
    off_x: Option<Vec<Vec<f32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    off_arrival_idx: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    off_cost: Option<Vec<f64>>,
    #[serde(default)]
    meta: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    labels: Option<Vec<Label>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    universe_labels: Option<Vec<Label>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval_labels: Option<Vec<Label>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    off_labels: Option<Vec<Label>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tenants: Option<Vec<u32>>,
}

/// Labels read from JSON with answer lists put in canonical (normalised) form.
fn canonical(v: Vec<Label>) -> Vec<Label> {
    v.into_iter().map(Label::canonical).collect()
}

fn rows(p: &Points) -> Vec<Vec<f32>> {
    p.iter().map(|r| r.to_vec()).collect()
}

fn queries(name: &str, vecs: Option<Vec<Vec<f32>>>, idx: Option<Vec<u32>>) -> Result<Option<Queries>> {
    match (vecs, idx) {
        (Some(_), Some(_)) => {
            Err(Error::data(format!("give either the {name} vectors or their indices, not both")))
        }
        (Some(v), None) => Points::from_rows(&v)
            .map(|p| Some(Queries::Vectors(p)))
            .map_err(|e| Error::data(format!("{name}: {e}"))),
        (None, Some(i)) => Ok(Some(Queries::Indices(i))),
        (None, None) => Ok(None),
    }
}

fn check_costs(name: &str, c: &[f64], n: usize) -> Result<()> {
    if c.len() != n {
        return Err(Error::data(format!("`{name}` has {} entries for {n} queries", c.len())));
    }
    if let Some(i) = c.iter().position(|v| !(v.is_finite() && *v > 0.0 && *v <= 1.0)) {
        return Err(Error::data(format!("`{name}`[{i}] = {} is outside (0, 1] (SPEC §2)", c[i])));
    }
    Ok(())
}

impl Trace {
    /// Online horizon `T`.
    pub fn horizon(&self) -> usize {
        self.cost.len()
    }
    /// Dimension of the queries.
    pub fn dim(&self) -> usize {
        match (&self.arrivals, &self.universe) {
            (Queries::Vectors(p), _) => p.dim(),
            (_, Some(u)) => u.dim(),
            _ => 0,
        }
    }
    /// Online arrival `x_t`.
    #[inline]
    pub fn x(&self, t: usize) -> &[f32] {
        self.arrivals.get(t, self.universe.as_ref())
    }
    /// Evaluation query `i`.
    #[inline]
    pub fn eval_x(&self, i: usize) -> &[f32] {
        self.eval.get(i, self.universe.as_ref())
    }
    /// The offline log's arrivals and costs (the online ones if no separate log is given).
    pub fn log(&self) -> (&Queries, &[f64]) {
        match &self.offline {
            Some((q, c)) => (q, c),
            None => (&self.arrivals, &self.cost),
        }
    }
    /// The ground truth of online arrival `t` (SPEC §14): its entry of `labels`, else its
    /// universe row's entry of `universe_labels`; `None` when the trace has neither.
    pub fn label(&self, t: usize) -> Option<&Label> {
        match (&self.labels.arrivals, &self.labels.universe, self.arrivals.index(t)) {
            (Some(l), _, _) => l.get(t),
            (None, Some(u), Some(i)) => u.get(i as usize),
            _ => None,
        }
    }
    /// The ground truth of point `i` of `E`: its entry of `eval_labels`, else (for indices)
    /// its universe row's entry of `universe_labels`.
    pub fn eval_label(&self, i: usize) -> Option<&Label> {
        match (&self.labels.eval, &self.labels.universe, self.eval.index(i)) {
            (Some(l), _, _) => l.get(i),
            (None, Some(u), Some(r)) => u.get(r as usize),
            _ => None,
        }
    }
    /// Whether every online arrival and every point of `E` has a label (SPEC §14: then the
    /// correctness metrics are measured).
    pub fn has_labels(&self) -> bool {
        (0..self.horizon()).all(|t| self.label(t).is_some())
            && (0..self.eval.len()).all(|i| self.eval_label(i).is_some())
    }

    /// Offline log entry t as a vector.
    pub fn log_x(&self, t: usize) -> &[f32] {
        self.log().0.get(t, self.universe.as_ref())
    }

    /// Checks every SPEC §12 constraint with a readable message.
    pub fn validate(&self) -> Result<()> {
        if !(self.dist_scale.is_finite() && self.dist_scale > 0.0) {
            return Err(Error::data(format!(
                "`dist_scale` must be positive and finite, got {}",
                self.dist_scale
            )));
        }
        let dim = self.dim();
        let check_q = |name: &str, q: &Queries| -> Result<()> {
            match q {
                Queries::Vectors(p) if p.dim() != dim => Err(Error::data(format!(
                    "`{name}` vectors are {}-dimensional but the arrivals are {dim}-dimensional",
                    p.dim()
                ))),
                Queries::Vectors(_) => Ok(()),
                Queries::Indices(v) => {
                    let u = self.universe.as_ref().ok_or_else(|| {
                        Error::data(format!("`{name}` uses indices but no `universe` is given"))
                    })?;
                    if let Some(i) = v.iter().find(|&&i| i as usize >= u.len()) {
                        return Err(Error::data(format!(
                            "`{name}` index {i} is out of range (universe has {} rows)",
                            u.len()
                        )));
                    }
                    Ok(())
                }
            }
        };
        if let Some(u) = &self.universe {
            if u.dim() != dim {
                return Err(Error::data("`universe` and the arrivals differ in dimension"));
            }
            if let Some(c) = &self.universe_cost {
                check_costs("universe_cost", c, u.len())?;
            }
        }
        check_q("arrivals", &self.arrivals)?;
        check_costs("cost", &self.cost, self.arrivals.len())?;
        check_q("E", &self.eval)?;
        if self.eval.is_empty() {
            return Err(Error::data("the evaluation sample `E` is empty"));
        }
        check_costs("eval_cost", &self.eval_cost, self.eval.len())?;
        let log_len = match &self.offline {
            Some((q, c)) => {
                check_q("off_X", q)?;
                check_costs("off_cost", c, q.len())?;
                q.len()
            }
            None => self.horizon(),
        };
        let need = self.horizon().max(log_len);
        if self.eta.len() < need {
            return Err(Error::data(format!("`eta` has {} entries, {need} needed", self.eta.len())));
        }
        if let Some(i) = self.eta.iter().position(|v| !v.is_finite()) {
            return Err(Error::data(format!("`eta`[{i}] is not finite")));
        }
        let count = |name: &str, l: &Option<Vec<Label>>, n: usize| match l {
            Some(l) if l.len() != n => Err(Error::data(format!(
                "`{name}` has {} entries for {n} queries; give one label per query",
                l.len()
            ))),
            _ => Ok(()),
        };
        count("labels", &self.labels.arrivals, self.horizon())?;
        if let Some(v) = &self.tenants {
            if v.len() != self.horizon() {
                return Err(Error::data(format!(
                    "`tenants` has {} entries for {} arrivals",
                    v.len(),
                    self.horizon()
                )));
            }
        }
        count("eval_labels", &self.labels.eval, self.eval.len())?;
        if self.labels.log.is_some() {
            let log =
                self.offline.as_ref().ok_or_else(|| Error::data("`off_labels` needs an offline log"))?;
            count("off_labels", &self.labels.log, log.0.len())?;
        }
        if self.labels.universe.is_some() {
            let u =
                self.universe.as_ref().ok_or_else(|| Error::data("`universe_labels` needs a `universe`"))?;
            count("universe_labels", &self.labels.universe, u.len())?;
        }
        if !self.z.is_empty() && self.z.len() != log_len {
            return Err(Error::data(format!(
                "`z` has {} entries for an offline log of {log_len}",
                self.z.len()
            )));
        }
        Ok(())
    }

    /// Reads a SPEC §12 JSON trace and validates it.
    pub fn from_json(text: &str) -> Result<Trace> {
        let j: TraceJson =
            serde_json::from_str(text).map_err(|e| Error::parse(format!("trace JSON: {e}")))?;
        if let Some(i) = j.z.iter().position(|&v| v > 1) {
            return Err(Error::data(format!("`z`[{i}] must be 0 or 1")));
        }
        let universe = match j.universe {
            Some(u) => Some(Points::from_rows(&u).map_err(|e| Error::data(format!("universe: {e}")))?),
            None => None,
        };
        let arrivals = queries("X", j.x, j.arrival_idx)?
            .ok_or_else(|| Error::data("the trace needs `X` or `arrival_idx`"))?;
        let eval =
            queries("E", j.e, j.eval_idx)?.ok_or_else(|| Error::data("the trace needs `E` or `eval_idx`"))?;
        let offline = match (queries("off_X", j.off_x, j.off_arrival_idx)?, j.off_cost) {
            (Some(q), Some(c)) => Some((q, c)),
            (None, None) => None,
            _ => return Err(Error::data("`off_cost` goes with `off_X` or `off_arrival_idx`")),
        };
        let t = Trace {
            dist_scale: j.dist_scale,
            universe,
            universe_cost: j.universe_cost,
            arrivals,
            cost: j.cost,
            eta: j.eta,
            z: j.z.into_iter().map(|v| v == 1).collect(),
            eval,
            eval_cost: j.eval_cost,
            offline,
            meta: j.meta,
            labels: TraceLabels {
                arrivals: j.labels.map(canonical),
                universe: j.universe_labels.map(canonical),
                eval: j.eval_labels.map(canonical),
                log: j.off_labels.map(canonical),
            },
            tenants: j.tenants,
        };
        t.validate()?;
        Ok(t)
    }

    /// Writes the trace as SPEC §12 JSON (floats round-trip exactly).
    pub fn to_json(&self) -> String {
        let split = |q: &Queries| match q {
            Queries::Vectors(p) => (Some(rows(p)), None),
            Queries::Indices(v) => (None, Some(v.clone())),
        };
        let (x, arrival_idx) = split(&self.arrivals);
        let (e, eval_idx) = split(&self.eval);
        let (off_x, off_arrival_idx, off_cost) = match &self.offline {
            Some((q, c)) => {
                let (a, b) = split(q);
                (a, b, Some(c.clone()))
            }
            None => (None, None, None),
        };
        let j = TraceJson {
            dist_scale: self.dist_scale,
            universe: self.universe.as_ref().map(rows),
            universe_cost: self.universe_cost.clone(),
            x,
            arrival_idx,
            cost: self.cost.clone(),
            eta: self.eta.clone(),
            z: self.z.iter().map(|&b| b as u8).collect(),
            e,
            eval_idx,
            eval_cost: self.eval_cost.clone(),
            off_x,
            off_arrival_idx,
            off_cost,
            meta: self.meta.clone(),
            labels: self.labels.arrivals.clone(),
            universe_labels: self.labels.universe.clone(),
            eval_labels: self.labels.eval.clone(),
            off_labels: self.labels.log.clone(),
            tenants: self.tenants.clone(),
        };
        serde_json::to_string(&j).expect("a trace always serialises")
    }
}
