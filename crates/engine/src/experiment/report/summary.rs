//! A report as plain text: one table per metric over the sweep, then the headline verdicts, the
//! frontier's comparison and the theory checks where the report has them.

use crate::experiment::Metric;
use crate::experiment::{Measure, Report, Stat};

impl Report {
    /// One table per metric: algorithms down, the sweep's values across (`key` gives the xs); in
    /// a grid, one row per algorithm and value of the second parameter.
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
        let mut ys: Vec<f64> = self.stats.iter().filter(|s| s.metric == key).map(|s| s.y).collect();
        ys.sort_by(f64::total_cmp);
        ys.dedup_by(|a, b| a.total_cmp(b).is_eq());
        if ys.is_empty() {
            ys.push(f64::NAN);
        }
        let by = self.experiment.sweep.as_ref().and_then(|s| s.by.as_ref()).map(|b| b.param.as_str());
        let mut out = String::new();
        for metric in metrics {
            out.push_str(&format!(
                "\n{metric} (mean ± 95% Student-t half-width, n seeds) by {param}\n{:<18}",
                "algorithm"
            ));
            for x in &xs {
                out.push_str(&format!("{:>22}", format!("{param}={x}")));
            }
            out.push('\n');
            for a in algs {
                if !self.stats.iter().any(|s| s.algorithm == *a && s.metric == *metric) {
                    continue;
                }
                for y in &ys {
                    match by {
                        Some(b) => out.push_str(&format!("{:<18}", format!("{} {b}={y}", self.label(a)))),
                        None => out.push_str(&format!("{:<18}", self.label(a))),
                    }
                    for x in &xs {
                        let s = self.stats.iter().find(|s| {
                            s.algorithm == *a
                                && s.metric == *metric
                                && s.x.total_cmp(x).is_eq()
                                && s.y.total_cmp(y).is_eq()
                        });
                        out.push_str(&format!(
                            "{:>22}",
                            cell(s, if *metric == Metric::RuntimeMs.id() { 0 } else { 5 })
                        ));
                    }
                    out.push('\n');
                }
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
            // At the precision the interval supports, as the headline table.
            Some(s) if s.ci95.is_finite() => crate::experiment::stats::format_interval(s.mean, s.ci95),
            Some(s) => format!("{:.*}", digits, s.mean),
            None => "–".into(),
        };
        let mut out = format!("{} — {}\n{}\n", self.experiment.id, self.experiment.title, self.description);
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
                let metrics: &[&str] = if no_truth.is_none() {
                    &[Metric::Gap.id(), Metric::Loss.id(), Metric::ErrorRate.id()]
                } else {
                    &[Metric::Gap.id(), Metric::Loss.id()]
                };
                out.push_str(&self.sweep_tables(&algs, Metric::Gap.id(), metrics, &cell));
            }
            Measure::Frontier { .. } => out.push_str(&self.frontier_table()),
            Measure::Tenants { .. } => out.push_str(&self.tenants_table(&cell, &truth_cell)),
            Measure::Attack { .. } => out.push_str(&self.attack_table(&algs, &cell)),
            Measure::Online { .. } if self.experiment.sweep.is_some() => {
                let metrics: &[&str] = if no_truth.is_none() {
                    &[
                        Metric::AvgRegret.final_id(),
                        Metric::Switches.final_id(),
                        Metric::RuntimeMs.id(),
                        Metric::ErrorRate.final_id(),
                    ]
                } else {
                    &[Metric::AvgRegret.final_id(), Metric::Switches.final_id(), Metric::RuntimeMs.id()]
                };
                out.push_str(&self.sweep_tables(&algs, Metric::AvgRegret.final_id(), metrics, &cell));
            }
            Measure::Online { .. } => {
                out.push_str(&format!(
                    "\n{:<26}{:>24}{:>20}{:>16}{:>18}{:>20}{:>18}{:>18}\n",
                    "algorithm",
                    "final avg regret",
                    "runtime ms",
                    Metric::Switches.id(),
                    "hit rate",
                    "avg cost",
                    "error rate",
                    "hit precision"
                ));
                let mut rows: Vec<(&str, f64)> = algs
                    .iter()
                    .map(|a| {
                        (
                            *a,
                            self.final_mean(a, Metric::AvgRegret.final_id())
                                .map_or(f64::INFINITY, |s| s.mean),
                        )
                    })
                    .collect();
                crate::order::stable_sort_by_key(&mut rows, |r| r.1);
                let mut sized = false;
                for (a, _) in rows {
                    let size = self.final_mean(a, Metric::CacheSize.final_id()).map(|s| s.mean);
                    let name = self.label(a);
                    let label = size.map_or(name.clone(), |z| {
                        crate::online::sim::sized_label(&name, z, self.experiment.params.k)
                    });
                    sized |= label != name;
                    out.push_str(&format!(
                        "{label:<26}{:>24}{:>20}{:>16}{:>18}{:>20}{:>18}{:>18}\n",
                        cell(self.final_mean(a, Metric::AvgRegret.final_id()), 5),
                        cell(self.final_mean(a, Metric::RuntimeMs.id()), 0),
                        cell(self.final_mean(a, Metric::Switches.final_id()), 0),
                        cell(self.final_mean(a, Metric::HitRate.final_id()), 3),
                        cell(self.final_mean(a, Metric::AvgRealisedCost.final_id()), 4),
                        truth_cell(self.final_mean(a, Metric::ErrorRate.final_id()), 4),
                        truth_cell(self.final_mean(a, Metric::HitPrecision.final_id()), 3),
                    ));
                }
                if sized {
                    out.push_str(&crate::online::sim::sized_label_note(self.experiment.params.k));
                    out.push('\n');
                }
            }
        }
        if let Some(h) = &self.headline {
            out.push_str(&h.to_text());
        }
        if let Some(t) = &self.theory {
            out.push_str(&t.to_text(&|a| self.label(a)));
        }
        out
    }
}
