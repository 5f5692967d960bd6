//! A finished experiment (SPEC §10): its definition, aggregated statistics and every unit's raw
//! result; shard merging, CSV rows and the plain-text summary table.

use super::stats::aggregate;
use super::{ExperimentSpec, Measure, Stat, UnitResult};
use crate::algorithms::AlgorithmInfo;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The series an experiment records, as (name its observations are recorded under, algorithm
/// id): the display names, or a frontier's family names with their policy's id.
fn algorithm_ids(measure: &Measure) -> Vec<(String, &'static str)> {
    let named = |i: AlgorithmInfo| (i.name.to_string(), i.id);
    match measure {
        Measure::Offline { algorithms } => algorithms.iter().map(|a| named(a.info())).collect(),
        Measure::Online { policies } => policies.iter().map(|p| named(p.info())).collect(),
        Measure::Frontier { families } => families.iter().map(|f| (f.name(), f.policy.info().id)).collect(),
        Measure::Geometry { .. } => Vec::new(),
    }
}

/// A finished experiment: definition, aggregated statistics and every unit's raw result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub experiment: ExperimentSpec,
    pub engine: String,
    pub stats: Vec<Stat>,
    pub units: Vec<UnitResult>,
}

impl Report {
    pub fn new(spec: &ExperimentSpec, mut units: Vec<UnitResult>) -> Report {
        units.sort_by_key(|u| u.unit.index);
        let mut stats = aggregate(&units);
        let ids = algorithm_ids(&spec.measure);
        for s in &mut stats {
            s.algorithm_id = ids.iter().find(|(name, _)| *name == s.algorithm).map(|(_, id)| id.to_string());
        }
        Report {
            experiment: spec.clone(),
            engine: concat!("csc ", env!("CARGO_PKG_VERSION")).into(),
            stats,
            units,
        }
    }

    /// Joins shard reports of the same experiment (units deduplicated by index).
    pub fn merge(parts: Vec<Report>) -> Result<Report> {
        let first = parts.first().ok_or_else(|| Error::data("nothing to merge"))?;
        let spec = first.experiment.clone();
        let mut units: BTreeMap<usize, UnitResult> = BTreeMap::new();
        for p in parts {
            if p.experiment != spec {
                return Err(Error::data(format!(
                    "cannot merge different experiments (`{}` and `{}`, or different settings)",
                    spec.id, p.experiment.id
                )));
            }
            for u in p.units {
                units.insert(u.unit.index, u);
            }
        }
        Ok(Report::new(&spec, units.into_values().collect()))
    }

    /// Units of the experiment not present in this report.
    pub fn missing_units(&self) -> Vec<usize> {
        let have: Vec<usize> = self.units.iter().map(|u| u.unit.index).collect();
        self.experiment.units().into_iter().map(|u| u.index).filter(|i| !have.contains(i)).collect()
    }

    /// `experiment,algorithm,metric,x,n,mean,std,ci95` rows.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("experiment,algorithm,metric,x,n,mean,std,ci95\n");
        for st in &self.stats {
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                self.experiment.id, st.algorithm, st.metric, st.x, st.n, st.mean, st.std, st.ci95
            ));
        }
        s
    }

    /// The mean of a metric for an algorithm at the largest x (the "final" value).
    pub fn final_mean(&self, algorithm: &str, metric: &str) -> Option<&Stat> {
        self.stats
            .iter()
            .filter(|s| s.algorithm == algorithm && s.metric == metric)
            .max_by(|a, b| a.x.total_cmp(&b.x))
    }
}

impl Report {
    /// One table per metric: algorithms down, the sweep's values across (`key` gives the xs).
    fn sweep_tables(
        &self,
        algs: &[&str],
        key: &str,
        metrics: &[&str],
        cell: &dyn Fn(Option<&Stat>, usize) -> String,
    ) -> String {
        let param = self.experiment.sweep.as_ref().map_or("x".to_string(), |s| s.param.clone());
        let mut xs: Vec<f64> = self.stats.iter().filter(|s| s.metric == key).map(|s| s.x).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| a.total_cmp(b).is_eq());
        let mut out = String::new();
        for metric in metrics {
            out.push_str(&format!("\n{metric} (mean ± 95% CI) by {param}\n{:<18}", "algorithm"));
            for x in &xs {
                out.push_str(&format!("{:>22}", format!("{param}={x}")));
            }
            out.push('\n');
            for a in algs {
                if !self.stats.iter().any(|s| s.algorithm == *a && s.metric == *metric) {
                    continue;
                }
                out.push_str(&format!("{a:<18}"));
                for x in &xs {
                    let s = self
                        .stats
                        .iter()
                        .find(|s| s.algorithm == *a && s.metric == *metric && s.x.total_cmp(x).is_eq());
                    out.push_str(&format!("{:>22}", cell(s, if *metric == "runtime_ms" { 0 } else { 5 })));
                }
                out.push('\n');
            }
        }
        out
    }

    /// A plain-text table of the headline numbers: offline, the gap per algorithm at each sweep
    /// value; online, the final average regret, runtime, switches, hit rate and realised cost.
    pub fn summary(&self) -> String {
        let mut algs: Vec<&str> = Vec::new();
        for s in &self.stats {
            if !algs.contains(&s.algorithm.as_str()) {
                algs.push(&s.algorithm);
            }
        }
        let cell = |s: Option<&Stat>, digits: usize| match s {
            Some(s) if s.ci95.is_finite() => format!("{:.*} ± {:.*}", digits, s.mean, digits, s.ci95),
            Some(s) => format!("{:.*}", digits, s.mean),
            None => "–".into(),
        };
        let mut out = format!("{} — {}\n", self.experiment.id, self.experiment.title);
        if let Some(u) = self.units.first() {
            let d = &u.dataset;
            out.push_str(&format!(
                "dataset {} ({} queries, d = {}, checksum {})\n",
                d.name, d.size, d.dim, d.checksum
            ));
            for note in &d.notes {
                out.push_str(&format!("note: {note}\n"));
            }
        }
        // SPEC §14: correctness metrics are shown "—" with the reason where there is no ground truth.
        let no_truth = self.units.first().and_then(|u| u.dataset.no_ground_truth.clone());
        let truth_cell = |s: Option<&Stat>, digits: usize| match s {
            Some(s) => cell(Some(s), digits),
            None => "—".to_string(),
        };
        if let Some(why) = &no_truth {
            if !matches!(self.experiment.measure, Measure::Geometry { .. }) {
                out.push_str(&format!("error rate, hit precision: — ({why})\n"));
            }
        }
        match &self.experiment.measure {
            Measure::Geometry { .. } => {
                out.push_str(&format!(
                    "\n{:<12}{:<24}{:>10}{:>10}{:>10}\n",
                    "series", "metric", "q10", "median", "q90"
                ));
                let mut seen = Vec::new();
                for s in self.stats.iter().filter(|s| s.metric != "token_cdf") {
                    if seen.contains(&(s.algorithm.clone(), s.metric.clone())) {
                        continue;
                    }
                    seen.push((s.algorithm.clone(), s.metric.clone()));
                    let at = |q: f64| {
                        self.stats
                            .iter()
                            .find(|t| t.algorithm == s.algorithm && t.metric == s.metric && t.x == q)
                            .map_or(f64::NAN, |t| t.mean)
                    };
                    out.push_str(&format!(
                        "{:<12}{:<24}{:>10.4}{:>10.4}{:>10.4}\n",
                        s.algorithm,
                        s.metric,
                        at(0.1),
                        at(0.5),
                        at(0.9)
                    ));
                }
                for g in self
                    .stats
                    .iter()
                    .filter(|s| s.metric == "token_cdf")
                    .map(|s| s.algorithm.clone())
                    .collect::<std::collections::BTreeSet<_>>()
                {
                    let med = self
                        .stats
                        .iter()
                        .filter(|s| s.algorithm == g && s.metric == "token_cdf" && s.mean >= 0.5)
                        .map(|s| s.x)
                        .fold(f64::INFINITY, f64::min);
                    let max = self
                        .stats
                        .iter()
                        .filter(|s| s.algorithm == g && s.metric == "token_cdf")
                        .map(|s| s.x)
                        .fold(0.0, f64::max);
                    out.push_str(&format!("tokens of {g}: median {med}, max {max}\n"));
                }
            }
            Measure::Offline { .. } => {
                let metrics: &[&str] =
                    if no_truth.is_none() { &["gap", "loss", "error_rate"] } else { &["gap", "loss"] };
                out.push_str(&self.sweep_tables(&algs, "gap", metrics, &cell));
            }
            Measure::Frontier { .. } => out.push_str(&self.frontier_table()),
            Measure::Online { .. } if self.experiment.sweep.is_some() => {
                let metrics: &[&str] = if no_truth.is_none() {
                    &["final_avg_regret", "final_switches", "runtime_ms", "final_error_rate"]
                } else {
                    &["final_avg_regret", "final_switches", "runtime_ms"]
                };
                out.push_str(&self.sweep_tables(&algs, "final_avg_regret", metrics, &cell));
            }
            Measure::Online { .. } => {
                out.push_str(&format!(
                    "\n{:<26}{:>24}{:>20}{:>16}{:>18}{:>20}{:>18}{:>18}\n",
                    "algorithm",
                    "final avg regret",
                    "runtime ms",
                    "switches",
                    "hit rate",
                    "avg cost",
                    "error rate",
                    "hit precision"
                ));
                let mut rows: Vec<(&str, f64)> = algs
                    .iter()
                    .map(|a| (*a, self.final_mean(a, "final_avg_regret").map_or(f64::INFINITY, |s| s.mean)))
                    .collect();
                rows.sort_by(|a, b| a.1.total_cmp(&b.1));
                for (a, _) in rows {
                    let size = self.final_mean(a, "final_cache_size").map(|s| s.mean);
                    let label = size.map_or(a.to_string(), |z| {
                        crate::online::sim::sized_label(a, z, self.experiment.params.k)
                    });
                    out.push_str(&format!(
                        "{label:<26}{:>24}{:>20}{:>16}{:>18}{:>20}{:>18}{:>18}\n",
                        cell(self.final_mean(a, "final_avg_regret"), 5),
                        cell(self.final_mean(a, "runtime_ms"), 0),
                        cell(self.final_mean(a, "final_switches"), 0),
                        cell(self.final_mean(a, "final_hit_rate"), 3),
                        cell(self.final_mean(a, "final_avg_realised_cost"), 4),
                        truth_cell(self.final_mean(a, "final_error_rate"), 4),
                        truth_cell(self.final_mean(a, "final_hit_precision"), 3),
                    ));
                }
            }
        }
        out
    }
}
