//! A finished experiment (SPEC §10): its definition, aggregated statistics and every unit's raw
//! result; shard merging, CSV rows and the plain-text summary table.
//!
//! The files:
//! - this map: [`Report`], its record on disk ([`ReportRecord`]), building one and merging shards;
//! - `summary`: the plain-text summary table of a report;
//! - `threats`: the text of the tenants and attack reports; `threat_findings`: what the threats
//!   view draws and says of them.

mod summary;
pub mod threat_findings;
mod threats;

use crate::algorithms::AlgorithmInfo;
use crate::error::{Error, Result};
use crate::experiment::definition::presets::headline;
use crate::experiment::headline::Headline;
use crate::experiment::stats::aggregate;
use crate::experiment::{ExperimentSpec, Measure, Stat, UnitResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The algorithms an experiment measures (their results are keyed by id).
fn algorithm_infos(measure: &Measure) -> Vec<AlgorithmInfo> {
    match measure {
        Measure::Offline { algorithms } => algorithms.iter().map(|a| a.info()).collect(),
        Measure::Online { policies } | Measure::Tenants { policies } | Measure::Attack { policies, .. } => {
            policies.iter().map(|p| p.info()).collect()
        }
        Measure::Frontier { families } => families.iter().map(|f| f.policy.info()).collect(),
        Measure::Geometry { .. } => Vec::new(),
    }
}

/// The engine that makes reports and unit results (`engine` of a [`Report`]).
pub const ENGINE: &str = concat!("csc ", env!("CARGO_PKG_VERSION"));

/// Which slice of the units a shard report holds: units `u` with `u.index % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ShardInfo {
    pub index: usize,
    pub count: usize,
}

/// A finished experiment: definition, aggregated statistics and every unit's raw result.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Report {
    pub experiment: ExperimentSpec,
    /// What ran, in words, generated from `experiment` ([`crate::experiment::describe`]).
    #[serde(default)]
    pub description: String,
    pub engine: String,
    /// Set on a shard's report (`csc run --shard`), absent from a whole or merged one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    pub stats: Vec<Stat>,
    pub units: Vec<UnitResult>,
    /// The paper's headline claims for this preset, each with its verdict
    /// ([`crate::experiment::headline`]); absent for experiments the paper states no claim for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<Headline>,
    /// A frontier's points against its default reference, with paired differences
    /// ([`crate::experiment::frontier`]); absent for other experiments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontier: Option<crate::experiment::frontier::paired::FrontierComparison>,
    /// The paper's online guarantee checked on the runs ([`crate::experiment::theory::report`]):
    /// slopes over seeds with verdicts; absent for other measures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theory: Option<crate::experiment::theory::report::TheoryReport>,
    /// A frontier's hit precision against cache-hit ratio per family, with AUCs (arXiv 2606.19719;
    /// [`crate::experiment::frontier::pchr`]); absent for other experiments and without ground
    /// truth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pchr: Option<crate::experiment::frontier::pchr::Pchr>,
}

/// What a report file is read back as: its definition, engine, shard and units, and its
/// statistics as written (a JSON value, for [`crate::experiment::run::reproduce::read_report`] to compare with
/// what the units give). Everything else a [`Report`] holds (statistics, headline, frontier,
/// theory, P-CHR) is derived from the units by [`Report::new`] (SPEC §10), so it is never read:
/// reading it would compile a deserialiser for every derived type into the page's wasm for
/// values that are recomputed anyway (docs/PERFORMANCE.md, "Where the page's wasm goes").
#[derive(Clone, Debug, Deserialize)]
pub struct ReportRecord {
    pub experiment: ExperimentSpec,
    pub engine: String,
    #[serde(default)]
    pub shard: Option<ShardInfo>,
    /// The statistics as the file states them, with older reports' display names read as ids
    /// ([`ReportRecord::stats_as_ids`]).
    #[serde(default)]
    pub stats: serde_json::Value,
    pub units: Vec<UnitResult>,
}

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(ReportRecord);

impl ReportRecord {
    /// The record of report text (a `csc run`/`csc merge` file or the page's JSON export).
    pub fn parse(text: &str) -> serde_json::Result<ReportRecord> {
        serde_json::from_str(text)
    }

    /// The file's statistics with the keys [`Stat`] reads them by: an older report's display
    /// name in `algorithm` read as the id ([`crate::algorithms::key_from_legacy`]) and its
    /// `algorithm_id`, now ignored, dropped, so they compare with what this engine writes.
    pub fn stats_as_ids(&self) -> serde_json::Value {
        let mut stats = self.stats.clone();
        for s in stats.as_array_mut().into_iter().flatten() {
            if let Some(o) = s.as_object_mut() {
                o.remove("algorithm_id");
                if let Some(serde_json::Value::String(a)) = o.get_mut("algorithm") {
                    *a = crate::algorithms::key_from_legacy(std::mem::take(a));
                }
            }
        }
        stats
    }

    /// The report this engine makes of the record's units ([`Report::new`]), for its shard.
    pub fn into_report(self) -> Report {
        let mut r = Report::new(&self.experiment, self.units);
        r.shard = self.shard;
        r
    }
}

impl Report {
    pub fn new(spec: &ExperimentSpec, mut units: Vec<UnitResult>) -> Report {
        crate::order::stable_sort_by_key(&mut units, |u| u.unit.index as f64); // exact below 2⁵³
        let stats = aggregate(&units);
        let mut report = Report {
            experiment: spec.clone(),
            description: crate::experiment::describe(spec),
            engine: ENGINE.into(),
            shard: None,
            stats,
            units,
            headline: None,
            frontier: None,
            theory: None,
            pchr: None,
        };
        report.headline = headline(&report.experiment, &report.units);
        report.theory = crate::experiment::theory::report::theory_report(&report.experiment, &report.units);
        report.frontier = report.default_frontier_comparison();
        report.pchr = report.pchr();
        report
    }

    /// Joins shard reports of the same experiment (see [`Report::merge_named`]; parts are named
    /// `part 1`, `part 2`, … in messages).
    pub fn merge(parts: Vec<Report>) -> Result<Report> {
        Report::merge_named(
            parts.into_iter().enumerate().map(|(i, r)| (format!("part {}", i + 1), r)).collect(),
        )
    }

    /// Joins reports of the same experiment, each given with a name for messages (its file). Every
    /// part must have the same definition, engine and data checksum; a unit present in several
    /// parts must be the same result in each (identical duplicates are kept once). The result is
    /// the report the whole run would have made (missing units aside: [`Report::missing_units`]).
    pub fn merge_named(parts: Vec<(String, Report)>) -> Result<Report> {
        let (name0, first) =
            parts.first().ok_or_else(|| Error::data("nothing to merge: give the shard reports"))?;
        let (name0, spec, engine) = (name0.clone(), first.experiment.clone(), first.engine.clone());
        let all = spec.units();
        let mut checksum: Option<(String, String)> = None;
        let mut units: BTreeMap<usize, (String, UnitResult)> = BTreeMap::new();
        for (name, p) in parts {
            if p.experiment != spec {
                return Err(Error::data(format!(
                    "{name} and {name0} are different experiments or settings ({}); merge the shards of one run",
                    spec_difference(&spec, &p.experiment)
                )));
            }
            if p.engine != engine {
                return Err(Error::data(format!(
                    "{name} was made by {} and {name0} by {engine}; run every shard with one engine",
                    p.engine
                )));
            }
            for u in p.units {
                let i = u.unit.index;
                if all.get(i) != Some(&u.unit) {
                    return Err(Error::data(format!(
                        "{name} holds unit {i} (sweep point {}, seed {}), which is not unit {i} of `{}`",
                        u.unit.point, u.unit.seed, spec.id
                    )));
                }
                match &checksum {
                    None => checksum = Some((name.clone(), u.dataset.checksum.clone())),
                    Some((n, c)) if *c != u.dataset.checksum => {
                        return Err(Error::data(format!(
                        "{name} ran on data with checksum {} and {n} on data with checksum {c}; run every \
                             shard on the same data",
                        u.dataset.checksum
                    )))
                    }
                    Some(_) => {}
                }
                match units.get(&i) {
                    Some((other, v)) => {
                        if let Some(d) = unit_difference(v, &u) {
                            return Err(Error::data(format!(
                                "unit {i} is in both {other} and {name} with different results ({d}); keep \
                                 one of them (a unit run twice differs in its measured runtimes)"
                            )));
                        }
                    }
                    None => {
                        units.insert(i, (name.clone(), u));
                    }
                }
            }
        }
        Ok(Report::new(&spec, units.into_values().map(|(_, u)| u).collect()))
    }

    /// Units of the experiment not present in this report.
    pub fn missing_units(&self) -> Vec<usize> {
        let have: Vec<usize> = self.units.iter().map(|u| u.unit.index).collect();
        self.experiment.units().into_iter().map(|u| u.index).filter(|i| !have.contains(i)).collect()
    }

    /// `experiment,algorithm,metric,x,n,mean,std,ci95` rows (`algorithm`: the id, or the series
    /// name of a geometry series); a grid sweep has a `y` column after `x` (its second parameter).
    pub fn to_csv(&self) -> String {
        let grid = self.experiment.is_grid();
        let mut s = String::from(if grid {
            "experiment,algorithm,metric,x,y,n,mean,std,ci95\n"
        } else {
            "experiment,algorithm,metric,x,n,mean,std,ci95\n"
        });
        s.push_str(&csv_rows(&self.experiment.id, &self.stats, grid));
        s
    }

    /// How the summary names a result key: the algorithm's display name, or the key itself (a
    /// series that is not an algorithm).
    fn label(&self, key: &str) -> String {
        if let (Measure::Tenants { .. }, Some((id, iso))) = (&self.experiment.measure, key.split_once(':')) {
            let name = algorithm_infos(&self.experiment.measure)
                .iter()
                .find(|i| i.id == id)
                .map_or_else(|| id.to_string(), |i| i.name.to_string());
            return format!("{name} ({iso})");
        }
        if let Measure::Frontier { families } = &self.experiment.measure {
            if let Some(f) = families.iter().find(|f| f.key() == key) {
                return f.name();
            }
        }
        algorithm_infos(&self.experiment.measure)
            .iter()
            .find(|i| i.id == key)
            .map_or_else(|| key.to_string(), |i| i.name.to_string())
    }

    /// The mean of a metric for an algorithm (its id) at the largest x (the "final" value).
    pub fn final_mean(&self, algorithm: &str, metric: &str) -> Option<&Stat> {
        self.stats
            .iter()
            .filter(|s| s.algorithm == algorithm && s.metric == metric)
            .max_by(|a, b| a.x.total_cmp(&b.x))
    }
}

/// The first field (dotted path) where two definitions differ, with both values.
fn spec_difference(a: &ExperimentSpec, b: &ExperimentSpec) -> String {
    let (a, b) = (serde_json::to_value(a).unwrap_or_default(), serde_json::to_value(b).unwrap_or_default());
    fn first(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
        use serde_json::Value::Object;
        match (a, b) {
            (Object(x), Object(y)) => x.keys().chain(y.keys()).find_map(|k| {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                let null = serde_json::Value::Null;
                first(&p, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
            }),
            _ if a == b => None,
            _ => Some(format!("{path}: {a} vs {b}")),
        }
    }
    first("", &a, &b).unwrap_or_else(|| "they differ".into())
}

/// Where two results of the same unit differ (`None`: identical, bit for bit).
fn unit_difference(a: &UnitResult, b: &UnitResult) -> Option<String> {
    for (x, y) in a.observations.iter().zip(&b.observations) {
        if x.algorithm != y.algorithm
            || x.metric != y.metric
            || x.x.to_bits() != y.x.to_bits()
            || x.y.to_bits() != y.y.to_bits()
        {
            return Some("their observations differ in kind".into());
        }
        if x.value.to_bits() != y.value.to_bits() {
            return Some(format!(
                "{} {} is {} in one and {} in the other",
                x.algorithm, x.metric, x.value, y.value
            ));
        }
    }
    if a.observations.len() != b.observations.len() {
        return Some("their numbers of observations differ".into());
    }
    let json = |u: &UnitResult| serde_json::to_string(u).unwrap_or_default();
    (json(a) != json(b)).then(|| "their details differ".into())
}

/// The rows of [`Report::to_csv`] (no header) of `stats` under the experiment id `id`: also
/// statistics measured beside a report's units, in its form (the web layer's `OwnPolicyStats`,
/// whose rows the Theory view adds to its export).
pub fn csv_rows(id: &str, stats: &[Stat], grid: bool) -> String {
    let mut s = String::new();
    for st in stats {
        let xy = if grid { format!("{},{}", st.x, st.y) } else { st.x.to_string() };
        s.push_str(&format!(
            "{id},{},{},{xy},{},{},{},{}\n",
            st.algorithm, st.metric, st.n, st.mean, st.std, st.ci95
        ));
    }
    s
}
