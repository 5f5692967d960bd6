//! The frontier experiment's table and chart data (issue 24): one row per point of every family
//! — the policy, its parameter value, and the final realised cost, error rate (SPEC §14), hit
//! rate and average regret, each as mean ± 95% interval over seeds.

use super::{Family, Measure, Report, Stat};

/// The metrics of a frontier point, in column order: (metric, column heading).
pub const FRONTIER_METRICS: [(&str, &str); 4] = [
    ("final_avg_realised_cost", "realised cost"),
    ("final_error_rate", "error rate"),
    ("final_hit_rate", "hit rate"),
    ("final_avg_regret", "avg regret"),
];

/// One point of a frontier: its family, the parameter's value (NaN for a single point) and the
/// statistics of [`FRONTIER_METRICS`] (`None` where not measured, e.g. no ground truth).
pub struct FrontierPoint<'a> {
    pub family: &'a Family,
    pub x: f64,
    pub stats: Vec<Option<&'a Stat>>,
}

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
                .filter(|s| s.algorithm == name && s.metric == "final_avg_regret")
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

    /// The chart data of a frontier: `algorithm,algorithm_id,param,x,n,` then `mean,ci95` of each
    /// of [`FRONTIER_METRICS`] (empty where not measured); `None` for other experiments.
    pub fn frontier_csv(&self) -> Option<String> {
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) {
            return None;
        }
        let mut s = String::from("algorithm,algorithm_id,param,x,n");
        for (m, _) in FRONTIER_METRICS {
            s.push_str(&format!(",{m},{m}_ci95"));
        }
        s.push('\n');
        for p in self.frontier_points() {
            let n = p.stats.iter().flatten().map(|s| s.n).max().unwrap_or(0);
            let x = if p.x.is_finite() { p.x.to_string() } else { String::new() };
            s.push_str(&format!(
                "{},{},{},{x},{n}",
                p.family.key(),
                p.family.policy.info().id,
                p.family.param.as_deref().unwrap_or("")
            ));
            for st in &p.stats {
                let num = |v: f64| if v.is_finite() { v.to_string() } else { String::new() };
                match st {
                    Some(st) => s.push_str(&format!(",{},{}", num(st.mean), num(st.ci95))),
                    None => s.push_str(",,"),
                }
            }
            s.push('\n');
        }
        Some(s)
    }

    /// The frontier's table: a row per point, mean ± 95% CI of each metric.
    pub(super) fn frontier_table(&self) -> String {
        let mut out = format!("\n{:<26}{:>22}", "algorithm", "parameter");
        for (_, h) in FRONTIER_METRICS {
            out.push_str(&format!("{h:>24}"));
        }
        out.push('\n');
        for p in self.frontier_points() {
            let param = match (&p.family.param, p.x.is_finite()) {
                (Some(name), true) => format!("{name}={}", p.x),
                _ => "–".into(),
            };
            out.push_str(&format!("{:<26}{param:>22}", p.family.name()));
            for st in &p.stats {
                let cell = match st {
                    Some(s) if s.mean.is_finite() && s.ci95.is_finite() => {
                        format!("{:.4} ± {:.4}", s.mean, s.ci95)
                    }
                    Some(s) if s.mean.is_finite() => format!("{:.4}", s.mean),
                    _ => "—".into(),
                };
                out.push_str(&format!("{cell:>24}"));
            }
            out.push('\n');
        }
        out
    }
}
