//! An experiment definition (SPEC §10): what it measures, over which sweep and seeds, and its
//! list of independent units.

use crate::config::{count, with_param, Params};
use crate::error::{Error, Result};
pub use crate::experiment::definition::grid::{Axis, Sweep};
use crate::experiment::DatasetId;
use crate::offline::OfflineKind;
use crate::online::PolicyKind;
use crate::stream::ArrivalSpec;
use serde::{Deserialize, Serialize};

/// What an experiment measures.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Measure {
    /// Offline gap and loss of `algorithms` for each value of the swept parameter.
    Offline { algorithms: Vec<OfflineKind> },
    /// Online curves and final metrics of `policies` over the horizon.
    Online { policies: Vec<PolicyKind> },
    /// Geometry of the data (paper appendix): distance distributions, token-length CDFs and a
    /// 2-D projection of the stream, over the first `stream` arrivals.
    Geometry { stream: usize },
    /// A cost–correctness frontier: each family is one policy over the values of one of its
    /// parameters (or a single point), and every point records the final realised cost, error rate,
    /// hit rate and average regret over seeds (x = the family's parameter value, NaN for a single
    /// point). The experiment's points are the families' points in order; a unit is one point × one
    /// seed. No `sweep` (each family carries its own).
    Frontier { families: Vec<Family> },
    /// Tenants who must not share (docs/SPEC-NOTES.md, "Tenants"): each of `policies` under each
    /// isolation setting (shared, partitioned, tagged) on one stream with tenants (the dataset's
    /// arrival model must be `tenants`); results keyed `policy:isolation`, per-tenant metrics at
    /// x = the tenant, the price of isolation as a paired difference against `shared`.
    Tenants { policies: Vec<PolicyKind> },
    /// Queries built to fool the cache (docs/SPEC-NOTES.md, "Adversarial arrivals"): each of
    /// `policies` attacked on its own cache with probability each of `p` per round (x = p), and
    /// the dataset's confusable pairs nearer than `distance`.
    Attack { policies: Vec<PolicyKind>, p: Vec<f64>, distance: f64 },
}

/// `{"kind": "offline" | "online" | "geometry" | "frontier", …}`, read by
/// [`crate::json::tagged`] (the derive's `Content` path compiled every field twice).
impl<'de> Deserialize<'de> for Measure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Offline {
            algorithms: Vec<OfflineKind>,
        }
        #[derive(Deserialize)]
        struct Online {
            policies: Vec<PolicyKind>,
        }
        #[derive(Deserialize)]
        struct Geometry {
            stream: usize,
        }
        #[derive(Deserialize)]
        struct Frontier {
            families: Vec<Family>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Attack {
            policies: Vec<PolicyKind>,
            p: Vec<f64>,
            distance: f64,
        }
        const KINDS: &[&str] = &["offline", "online", "geometry", "frontier", "tenants", "attack"];
        let (kind, rest) = crate::json::tagged(d, "kind", KINDS, "internally tagged enum Measure")?;
        let f = &rest;
        Ok(match kind {
            0 => Measure::Offline { algorithms: crate::json::fields::<Offline, _>(f)?.algorithms },
            1 => Measure::Online { policies: crate::json::fields::<Online, _>(f)?.policies },
            2 => Measure::Geometry { stream: crate::json::fields::<Geometry, _>(f)?.stream },
            4 => Measure::Tenants { policies: crate::json::fields::<Online, _>(f)?.policies },
            5 => {
                let Attack { policies, p, distance } = crate::json::fields(f)?;
                Measure::Attack { policies, p, distance }
            }
            _ => Measure::Frontier { families: crate::json::fields::<Frontier, _>(f)?.families },
        })
    }
}

/// One family of a [`Measure::Frontier`]: a policy with one parameter over values, or a point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Family {
    pub policy: PolicyKind,
    /// The series' name in tables and charts (default: the policy's name); results stay keyed
    /// by the policy's id (`Stat.algorithm_id`). Names must differ between families.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The parameter swept; `None`: a single point at the (family's) base parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<serde_json::Value>,
    /// Parameters set for this family only (e.g. the GPTCache preset's `threshold_cosine`).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub set: serde_json::Map<String, serde_json::Value>,
}

/// `text` as an identifier: lowercased, each run of characters other than a–z and 0–9 one `-`,
/// none at either end (`"Where we differ, and why"` → `where-we-differ-and-why`). Frontier
/// series keys and the anchors of the rendered documents (`csc-doc`) use it; its one source is
/// crates/doc (the engine depends on it without its Markdown renderer).
pub use csc_doc::slug;

impl Family {
    /// A family sweeping `param` over `values`.
    pub fn sweep(policy: PolicyKind, param: &str, values: Vec<serde_json::Value>) -> Self {
        Family { policy, label: None, param: Some(param.into()), values, set: Default::default() }
    }
    /// A single point at the base parameters.
    pub fn point(policy: PolicyKind) -> Self {
        Family { policy, label: None, param: None, values: Vec::new(), set: Default::default() }
    }
    /// The series' name, for people (tables, charts).
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.policy.label().to_string())
    }
    /// The series' key in results (observations, statistics, CSV): the policy's id, and for a
    /// labelled family `id:label` with the label lowercased and every run of other characters
    /// than a–z and 0–9 one `-` (`threshold:gptcache`), so that results are keyed by id.
    pub fn key(&self) -> String {
        let id = self.policy.info().id;
        match &self.label {
            None => id.to_string(),
            Some(l) => format!("{id}:{}", slug(l)),
        }
    }
    /// Its number of points.
    pub fn points(&self) -> usize {
        if self.param.is_some() {
            self.values.len()
        } else {
            1
        }
    }
    /// The x of point `i` as the frontier records it: the swept parameter's value, NaN for a
    /// single point.
    pub fn x(&self, i: usize) -> f64 {
        self.param.as_ref().and_then(|_| self.values.get(i)?.as_f64()).unwrap_or(f64::NAN)
    }

    /// `base` with this family's settings and its point `i`'s value.
    pub fn params(&self, base: &Params, i: usize) -> Result<Params> {
        let mut p = base.clone();
        for (k, v) in &self.set {
            p = with_param(&p, k, v)?;
        }
        if let Some(param) = &self.param {
            p = with_param(&p, param, &self.values[i])?;
        }
        Ok(p)
    }
}

/// A complete experiment definition (also readable from JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExperimentSpec {
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub dataset: DatasetId,
    pub measure: Measure,
    #[serde(default)]
    pub sweep: Option<Sweep>,
    /// Base parameters (SPEC defaults for anything not given).
    #[serde(default)]
    pub params: Params,
    pub seeds: usize,
    /// First seed (seeds are `first_seed .. first_seed + seeds`).
    #[serde(default)]
    pub first_seed: u64,
}

/// One independent piece of work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Unit {
    /// Position in the experiment's unit list (stable: shards are slices of it).
    pub index: usize,
    /// Index into the sweep's points (a grid's cells; 0 without a sweep).
    pub point: usize,
    pub seed: u64,
}

impl ExperimentSpec {
    /// Parses a JSON definition and validates it.
    pub fn from_json(text: &str) -> Result<Self> {
        let s: ExperimentSpec =
            serde_json::from_str(text).map_err(|e| Error::parse(format!("experiment JSON: {e}")))?;
        s.validate()?;
        Ok(s)
    }

    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        self.dataset.validate()?;
        if self.seeds == 0 {
            return Err(Error::param("seeds", "run at least one seed"));
        }
        if let Measure::Frontier { families } = &self.measure {
            if families.is_empty() {
                return Err(Error::param("families", "name at least one"));
            }
            if self.sweep.is_some() {
                return Err(Error::param("sweep", "a frontier has no sweep: each family carries its own"));
            }
            for (i, f) in families.iter().enumerate() {
                if f.param.is_some() && f.values.is_empty() {
                    return Err(Error::param(
                        "families",
                        format!("family `{}`: give at least one value", f.name()),
                    ));
                }
                if f.param.is_none() && !f.values.is_empty() {
                    return Err(Error::param(
                        "families",
                        format!("family `{}`: values need a `param`", f.name()),
                    ));
                }
                if families[..i].iter().any(|g| g.name() == f.name()) {
                    return Err(Error::param(
                        "families",
                        format!("two families are named `{}`; give one a `label`", f.name()),
                    ));
                }
                for j in 0..f.points() {
                    f.params(&self.params, j)?;
                }
            }
        }
        if let Some(s) = &self.sweep {
            s.validate(&self.params)?;
        }
        match &self.measure {
            Measure::Offline { algorithms } if algorithms.is_empty() => {
                Err(Error::param("algorithms", "name at least one"))
            }
            Measure::Online { policies }
            | Measure::Tenants { policies }
            | Measure::Attack { policies, .. }
                if policies.is_empty() =>
            {
                Err(Error::param("policies", "name at least one"))
            }
            Measure::Tenants { .. }
                if !matches!(self.dataset.arrival(), Some(ArrivalSpec::Tenants { .. })) =>
            {
                Err(Error::param(
                    "arrival",
                    "a tenants experiment runs on a stream with tenants: the `tenants` arrival model",
                ))
            }
            Measure::Tenants { .. } | Measure::Attack { .. } if self.sweep.is_some() => {
                Err(Error::param("sweep", "a tenants or attack experiment has no sweep"))
            }
            Measure::Attack { p, .. }
                if p.is_empty() || p.iter().any(|v| !(v.is_finite() && (0.0..=1.0).contains(v))) =>
            {
                Err(Error::param("p", "give attack probabilities in [0, 1], at least one"))
            }
            Measure::Attack { distance, .. } if !(distance.is_finite() && *distance > 0.0) => {
                Err(Error::param(
                    "distance",
                    format!("the confusable distance d must be positive, got {distance}"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Replaces the experiment's sweep with `sweep` (the command line's `--grid`, the page's sweep
    /// view): an online or offline measure only (a frontier's families carry their own values, a
    /// geometry has nothing to sweep). The result is validated by [`ExperimentSpec::validate`].
    pub fn set_sweep(&mut self, sweep: Sweep) -> Result<()> {
        if !matches!(self.measure, Measure::Online { .. } | Measure::Offline { .. }) {
            return Err(Error::param(
                "grid",
                format!("`{}` is not an online or offline experiment; a grid sweeps one of those", self.id),
            ));
        }
        self.sweep = Some(sweep);
        Ok(())
    }

    /// The number of points: the sweep's values (a grid's cells), a frontier's points over its
    /// families, else 1.
    pub fn points(&self) -> usize {
        match &self.measure {
            Measure::Frontier { families } => families.iter().map(Family::points).sum(),
            _ => self.sweep.as_ref().map_or(1, Sweep::points),
        }
    }

    /// A frontier's family and the index within it of experiment point `point`.
    pub fn family_of(&self, point: usize) -> Option<(&Family, usize)> {
        let (start, f) = self
            .frontier_families()
            .into_iter()
            .find(|(start, f)| (*start..start + f.points()).contains(&point))?;
        Some((f, point - start))
    }

    /// A frontier's families, each with its first experiment point (the families' points are
    /// numbered in order); empty for other measures.
    pub fn frontier_families(&self) -> Vec<(usize, &Family)> {
        let Measure::Frontier { families } = &self.measure else { return Vec::new() };
        let mut start = 0;
        families
            .iter()
            .map(|f| {
                start += f.points();
                (start - f.points(), f)
            })
            .collect()
    }

    /// All units in a fixed order: sweep point major, seed minor.
    pub fn units(&self) -> Vec<Unit> {
        let points = self.points();
        (0..points)
            .flat_map(|p| (0..self.seeds as u64).map(move |s| (p, s)))
            .enumerate()
            .map(|(index, (point, s))| Unit { index, point, seed: self.first_seed + s })
            .collect()
    }

    /// The units of shard `i` of `n` (0-based `i`): every n-th unit — a deterministic slice.
    pub fn shard(&self, i: usize, n: usize) -> Result<Vec<Unit>> {
        if n == 0 || i >= n {
            return Err(Error::param("shard", format!("shard {i}/{n}: need 0 ≤ i < n")));
        }
        Ok(self.units().into_iter().filter(|u| u.index % n == i).collect())
    }

    /// The fully resolved parameters of a unit.
    pub fn unit_params(&self, unit: &Unit) -> Result<Params> {
        let mut p = self.params.clone();
        if let Some(s) = &self.sweep {
            p = s.apply(&p, unit.point)?;
        }
        if let Some((f, i)) = self.family_of(unit.point) {
            p = f.params(&p, i)?;
        }
        p.seed = unit.seed;
        Ok(p)
    }

    /// The x value of a unit's sweep point (NaN without a sweep).
    pub(crate) fn unit_x(&self, unit: &Unit) -> f64 {
        if let Some((f, i)) = self.family_of(unit.point) {
            return f.param.as_ref().and_then(|_| f.values[i].as_f64()).unwrap_or(f64::NAN);
        }
        self.sweep.as_ref().map_or(f64::NAN, |s| s.x(unit.point))
    }

    /// The second value of a unit's grid cell (NaN without a second swept parameter).
    pub(crate) fn unit_y(&self, unit: &Unit) -> f64 {
        self.sweep.as_ref().map_or(f64::NAN, |s| s.y(unit.point))
    }

    /// Whether the sweep crosses two parameters (observations then carry `y`).
    pub fn is_grid(&self) -> bool {
        self.sweep.as_ref().is_some_and(|s| s.by.is_some())
    }
}

/// Largest number of units (sweep points × seeds) one experiment may list: the unit list is
/// allocated up front, so an absurd `seeds` must be refused, not attempted.
pub const MAX_UNITS: usize = 1_000_000;

/// Size checks of an experiment definition that its own validation leaves open, shared by every
/// entry point (`csc run`, the JS API's `ExperimentRun`): at most [`MAX_UNITS`] units, seeds
/// `first_seed .. first_seed + seeds` representable, and a geometry stream of 1 to
/// [`MAX_ROUNDS`](crate::config::MAX_ROUNDS) arrivals.
pub fn check_experiment_size(spec: &ExperimentSpec) -> Result<()> {
    let points = spec.points();
    match points.checked_mul(spec.seeds) {
        Some(n) if n <= MAX_UNITS => {}
        _ => {
            return Err(Error::param(
                "seeds",
                format!(
                    "{} seeds × {points} sweep values is too many units (at most {MAX_UNITS})",
                    spec.seeds
                ),
            ))
        }
    }
    if spec.first_seed.checked_add(spec.seeds as u64).is_none() {
        return Err(Error::param(
            "first_seed",
            format!("seeds {} + {} overflow a 64-bit seed", spec.first_seed, spec.seeds),
        ));
    }
    if let Measure::Geometry { stream } = spec.measure {
        count("stream", stream, 1, "the geometry stream length")?;
    }
    Ok(())
}
