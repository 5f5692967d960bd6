//! A frontier's points, families in order and values ascending, and its chart data.

use super::paired::Difference;
use super::point::{FrontierPoint, FRONTIER_METRICS, FRONTIER_RANGES};
use crate::experiment::stats::{format_difference, Interval};
use crate::experiment::Metric;
use crate::experiment::{Measure, Report};
use std::collections::BTreeMap;

impl Report {
    /// The points of a frontier experiment, families in order and values ascending.
    pub fn frontier_points(&self) -> Vec<FrontierPoint<'_>> {
        let Measure::Frontier { families } = &self.experiment.measure else { return Vec::new() };
        let mut out = Vec::new();
        for f in families {
            let name = f.key();
            let mut xs: Vec<f64> = self
                .stats
                .iter()
                .filter(|s| s.algorithm == name && s.metric == Metric::AvgRegret.final_id())
                .map(|s| s.x)
                .collect();
            xs.sort_by(f64::total_cmp);
            for x in xs {
                let stats = FRONTIER_METRICS
                    .iter()
                    .map(|(m, _)| {
                        self.stats
                            .iter()
                            .find(|s| s.algorithm == name && s.metric == *m && s.x.total_cmp(&x).is_eq())
                    })
                    .collect();
                out.push(FrontierPoint { family: f, x, stats });
            }
        }
        out
    }

    /// The value of `metric` on every seed of experiment point `point`, by seed.
    pub(crate) fn per_seed(&self, point: usize, metric: &str) -> BTreeMap<u64, f64> {
        crate::order::map_of(self.units.iter().filter(|u| u.unit.point == point).filter_map(|u| {
            let v = u.value(metric)?;
            v.is_finite().then_some((u.unit.seed, v))
        }))
    }

    /// The chart data of a frontier: `algorithm,algorithm_id,param,x,n,` then `mean,ci95,lo,hi`
    /// of each of [`FRONTIER_METRICS`] (the interval clipped to its range; empty where not
    /// measured), then the reference's point and each point's paired difference against it in
    /// realised cost and error rate (`mean,ci95,words`); `None` for other experiments.
    pub fn frontier_csv(&self) -> Option<String> {
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) {
            return None;
        }
        let mut s = String::from("algorithm,algorithm_id,param,x,n");
        for (m, _) in FRONTIER_METRICS {
            s.push_str(&format!(",{m},{m}_ci95,{m}_lo,{m}_hi"));
        }
        s.push_str(",reference_point,cost_vs_reference,cost_vs_reference_ci95,cost_verdict");
        s.push_str(",error_vs_reference,error_vs_reference_ci95,error_verdict\n");
        let cmp = self.default_frontier_comparison();
        let num = |v: f64| if v.is_finite() { v.to_string() } else { String::new() };
        for p in self.frontier_points() {
            let n = p.stats.iter().flatten().map(|s| s.n).max().unwrap_or(0);
            s.push_str(&format!(
                "{},{},{},{},{n}",
                p.family.key(),
                p.family.policy.info().id,
                p.family.param.as_deref().unwrap_or(""),
                num(p.x)
            ));
            for (st, range) in p.stats.iter().zip(FRONTIER_RANGES) {
                match st {
                    Some(st) => {
                        let i = Interval::clipped(st.n, st.mean, st.ci95, range);
                        s.push_str(&format!(",{},{},{},{}", num(st.mean), num(st.ci95), num(i.lo), num(i.hi)))
                    }
                    None => s.push_str(",,,,"),
                }
            }
            let row = self.point_index(&p).and_then(|i| cmp.as_ref()?.rows.iter().find(|r| r.point == i));
            s.push_str(&format!(",{}", cmp.as_ref().map_or(String::new(), |c| c.reference.to_string())));
            for d in [row.and_then(|r| r.cost.as_ref()), row.and_then(|r| r.error.as_ref())] {
                match d {
                    Some(d) => s.push_str(&format!(",{},{},{}", num(d.mean), num(d.ci95), d.words)),
                    None => s.push_str(",,,"),
                }
            }
            s.push('\n');
        }
        Some(s)
    }

    /// The frontier's table: a row per point, each metric's 95% interval clipped to its range (as
    /// in the page's table) and the paired differences against the default reference, both in
    /// the engine's words ([`Interval::words`], [`crate::experiment::stats::format_difference`]); then the
    /// method, the incomplete or undecided sentence and the notes.
    pub(crate) fn frontier_table(&self) -> String {
        let cmp = self.default_frontier_comparison();
        let mut rows: Vec<Vec<String>> = vec![["algorithm", "parameter"]
            .into_iter()
            .chain(FRONTIER_METRICS.iter().map(|(_, h)| *h))
            .chain(["cost − reference", "error rate − reference"])
            .map(String::from)
            .collect()];
        for p in self.frontier_points() {
            let param = match (&p.family.param, p.x.is_finite()) {
                (Some(name), true) => format!("{name}={}", p.x),
                _ => "–".into(),
            };
            let mut cells = vec![p.family.name(), param];
            // the page's cells: each interval clipped to its quantity's range, in its words
            for (st, range) in p.stats.iter().zip(FRONTIER_RANGES) {
                cells.push(match st {
                    Some(s) if s.mean.is_finite() => Interval::clipped(s.n, s.mean, s.ci95, range).words(""),
                    _ => "—".into(),
                });
            }
            let row = self.point_index(&p).and_then(|i| cmp.as_ref()?.rows.iter().find(|r| r.point == i));
            for d in [row.and_then(|r| r.cost.as_ref()), row.and_then(|r| r.error.as_ref())] {
                cells.push(match d {
                    Some(d) if d.difference == Difference::Reference => d.words.clone(),
                    Some(d) => format!("{} {}", format_difference(d.mean, d.ci95), d.words),
                    None => "—".into(),
                });
            }
            rows.push(cells);
        }
        // Each column as wide as its widest cell, two spaces between columns (the first left
        // aligned, the others right), so that no cell runs into the next whatever its length.
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::from("\n");
        for r in &rows {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &w))| if c == 0 { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        if let Some(c) = &cmp {
            out.push_str(&format!("\nReference: {}. {}\n", c.reference_config, c.method));
            for line in c.incomplete.iter().chain(&c.undecided).chain(&c.notes) {
                out.push_str(&format!("{line}\n"));
            }
        }
        out
    }
}
