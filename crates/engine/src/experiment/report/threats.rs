//! The text of the two threat measures' reports: tenants (each policy under each isolation
//! setting, per tenant, and the price of isolation) and the attack (each policy by attack
//! probability p, vCache's δ, the dataset's confusable pairs) (docs/SPEC-NOTES.md, "Tenants" and
//! "Adversarial arrivals").

use crate::experiment::frontier::paired::Difference;
use crate::experiment::stats::format_interval;
use crate::experiment::Metric;
use crate::experiment::{Measure, Report, Stat};

type Cell<'a> = &'a dyn Fn(Option<&Stat>, usize) -> String;

impl Report {
    /// The per-seed values of `metric` for `key` (a unit's one observation each).
    pub(super) fn per_seed_values(&self, key: &str, metric: &str) -> Vec<f64> {
        self.units
            .iter()
            .filter_map(|u| u.observations.iter().find(|o| o.algorithm == key && o.metric == metric))
            .map(|o| o.value)
            .collect()
    }

    /// The price of isolation of `key` in words: the paired difference against `shared` over seeds.
    pub fn isolation_price_words(&self, key: &str) -> Option<String> {
        let s = self.final_mean(key, Metric::IsolationPrice.final_id())?;
        let d = self.per_seed_values(key, Metric::IsolationPrice.final_id());
        let (verdict, _, _) = Difference::of(&d);
        let value =
            if s.ci95.is_finite() { format_interval(s.mean, s.ci95) } else { format!("{:.5}", s.mean) };
        Some(format!("{value} ({})", verdict.words(true)))
    }

    /// Tenants: one row per policy and isolation setting, then each tenant's numbers.
    pub(super) fn tenants_table(&self, cell: Cell, truth_cell: Cell) -> String {
        let Measure::Tenants { policies } = &self.experiment.measure else { return String::new() };
        let mut out = format!(
            "\n{:<34}{:>18} {:>16} {:>14} {:>20} {:>34}\n",
            "policy (isolation)",
            "avg cost",
            "error rate",
            "hit rate",
            "cross-tenant share",
            "price of isolation vs shared"
        );
        for p in policies {
            for iso in crate::online::Isolation::ALL {
                let key = crate::experiment::run::threats::tenant_key(*p, iso);
                let price = match iso {
                    crate::online::Isolation::Shared => "the reference".to_string(),
                    _ => self.isolation_price_words(&key).unwrap_or_else(|| "–".into()),
                };
                out.push_str(&format!(
                    "{:<34}{:>18} {:>16} {:>14} {:>20} {:>34}\n",
                    self.label(&key),
                    cell(self.final_mean(&key, Metric::AvgRealisedCost.final_id()), 4),
                    truth_cell(self.final_mean(&key, Metric::ErrorRate.final_id()), 4),
                    cell(self.final_mean(&key, Metric::HitRate.final_id()), 3),
                    cell(self.final_mean(&key, Metric::CrossTenantShare.final_id()), 3),
                    price,
                ));
            }
        }
        out.push_str(&format!(
            "\nper tenant\n{:<34}{:>8}{:>18} {:>16} {:>20}\n",
            "policy (isolation)", "tenant", "avg cost", "error rate", "cross-tenant share"
        ));
        let at = |key: &str, metric: &str, x: f64| {
            self.stats.iter().find(|s| s.algorithm == key && s.metric == metric && s.x == x)
        };
        for p in policies {
            for iso in crate::online::Isolation::ALL {
                let key = crate::experiment::run::threats::tenant_key(*p, iso);
                let mut xs: Vec<f64> = self
                    .stats
                    .iter()
                    .filter(|s| s.algorithm == key && s.metric == Metric::TenantRealisedCost.id())
                    .map(|s| s.x)
                    .collect();
                xs.sort_by(f64::total_cmp);
                for x in xs {
                    out.push_str(&format!(
                        "{:<34}{:>8}{:>18} {:>16} {:>20}\n",
                        self.label(&key),
                        x,
                        cell(at(&key, Metric::TenantRealisedCost.id(), x), 4),
                        truth_cell(at(&key, Metric::TenantErrorRate.id(), x), 4),
                        cell(at(&key, Metric::TenantCrossShare.id(), x), 3),
                    ));
                }
            }
        }
        out
    }

    /// vCache's δ at attack probability `p`: whether its error rate's interval lies below δ.
    pub fn vcache_delta_words(&self, p: f64) -> Option<String> {
        let delta = self.experiment.params.vcache_delta;
        let (s, verdict) = self.vcache_delta(p)?;
        Some(format!(
            "vCache δ = {delta} at p = {p}: error rate {} — {verdict}",
            if s.ci95.is_finite() { format_interval(s.mean, s.ci95) } else { format!("{:.4}", s.mean) }
        ))
    }

    /// The attack: per metric, policies down and attack probabilities across; vCache's δ; the
    /// dataset's confusable pairs.
    pub(super) fn attack_table(&self, algs: &[&str], cell: Cell) -> String {
        let Measure::Attack { p, distance, .. } = &self.experiment.measure else { return String::new() };
        let mut out = String::new();
        for metric in [
            Metric::ErrorRate,
            Metric::HitPrecision,
            Metric::WrongPer1000,
            Metric::AvgRealisedCost,
            Metric::HitRate,
            Metric::AttackShare,
            Metric::ConfusableServes,
        ] {
            out.push_str(&format!(
                "\n{} (mean ± 95% Student-t half-width, n seeds) by attack probability p\n{:<26}",
                metric.info().name,
                "algorithm"
            ));
            for x in p {
                out.push_str(&format!("{:>22}", format!("p={x}")));
            }
            out.push('\n');
            for a in algs {
                out.push_str(&format!("{:<26}", self.label(a)));
                for x in p {
                    let s = self
                        .stats
                        .iter()
                        .find(|s| s.algorithm == *a && s.metric == metric.final_id() && s.x == *x);
                    out.push_str(&format!("{:>22}", cell(s, 4)));
                }
                out.push('\n');
            }
        }
        out.push('\n');
        for x in p {
            if let Some(w) = self.vcache_delta_words(*x) {
                out.push_str(&format!("{w}\n"));
            }
        }
        if let Some(n) =
            self.units.first().and_then(|u| u.detail.get("confusable_pairs")).and_then(|v| v.as_u64())
        {
            out.push_str(&format!("confusable pairs (distance < {distance}, gold answers differ): {n}\n"));
        }
        out
    }
}
