//! What the threats view draws and says of a `tenants` or `attack` report, in the engine's
//! numbers and words (docs/SPEC-NOTES.md, "Tenants" and "Adversarial arrivals"): each policy's
//! intervals clipped to their quantity's range (a rate to [0, 1], a cost to ≥ 0, as the
//! frontier's), the price of isolation as paired differences against `shared` with the
//! frontier's words, and vCache's δ at each attack probability. A report that does not hold every
//! unit of its experiment decides nothing: every verdict says so.

use crate::experiment::frontier::paired::{Difference, Paired};
use crate::experiment::run::threats::tenant_key;
use crate::experiment::{Interval, Measure, Metric, Report, Stat};
use crate::online::{Isolation, PolicyKind};
use serde::Serialize;

/// A rate's range.
const RATE: (f64, f64) = (0.0, 1.0);
/// A cost's or a count's range.
const NON_NEGATIVE: (f64, f64) = (0.0, f64::INFINITY);

/// One policy under one isolation setting of a `tenants` report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TenantRow {
    pub policy: PolicyKind,
    pub isolation: Isolation,
    /// "LRU (tagged)".
    pub label: String,
    /// Realised cost per request.
    pub cost: Option<Interval>,
    /// Wrong hits over requests (SPEC §14); none without ground truth.
    pub error_rate: Option<Interval>,
    pub hit_rate: Option<Interval>,
    /// Hits served by an entry another tenant founded, over hits; none when no seed had a hit.
    pub cross_share: Option<Interval>,
    /// Realised cost per request minus `shared`'s on the same seeds; none for `shared` itself.
    pub price: Option<Paired>,
}

/// One policy at one attack probability of an `attack` report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AttackPoint {
    pub policy: PolicyKind,
    pub p: f64,
    pub error_rate: Option<Interval>,
    /// Right hits over judged hits, over the seeds with a hit.
    pub hit_precision: Option<Interval>,
    pub wrong_per_1000: Option<Interval>,
    pub cost: Option<Interval>,
    pub hit_rate: Option<Interval>,
    /// Rounds attacked over rounds.
    pub attack_share: Option<Interval>,
    /// Wrong hits whose arrival lies below d from the entry that served it.
    pub confusable_serves: Option<Interval>,
}

/// vCache's δ at one attack probability: its error rate's interval over seeds against δ.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DeltaCheck {
    pub p: f64,
    pub delta: f64,
    pub error_rate: Interval,
    /// `holds`, `violated`, `not decided` or `not decided (one seed)`;
    /// `not decided (run incomplete)` while units are missing.
    pub verdict: String,
    /// The sentence of the CLI's report.
    pub words: String,
}

/// The threats view's reading of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ThreatFindings {
    /// `tenants` or `attack`.
    pub kind: String,
    /// Units the report holds, and its experiment's.
    pub units: usize,
    pub total: usize,
    pub tenants: Vec<TenantRow>,
    pub attack: Vec<AttackPoint>,
    pub delta: Vec<DeltaCheck>,
    /// Pairs of universe rows nearer than `distance` whose gold answers differ (attack).
    pub confusable_pairs: Option<u64>,
    pub distance: Option<f64>,
    /// How the intervals and verdicts are made.
    pub method: String,
}

/// How the numbers are read, for the view's note.
pub const THREATS_METHOD: &str = "Each interval is the mean over seeds ± its 95% Student-t half-width, clipped to the quantity's range (a rate to [0, 1], a cost or count to ≥ 0). The price of isolation is, on each seed, the realised cost per request under partitioned (or tagged) minus under shared on the same trace; its mean over seeds ± the paired 95% half-width is called cheaper or dearer only when that interval lies wholly on one side of 0. vCache's δ holds at p when the upper end of its error rate's interval is ≤ δ, is violated when the lower end is above δ, and is not decided otherwise.";

impl Report {
    fn clipped(&self, key: &str, metric: Metric, x: Option<f64>, range: (f64, f64)) -> Option<Interval> {
        let id = metric.final_id();
        let s: Option<&Stat> = match x {
            Some(x) => self.stats.iter().find(|s| s.algorithm == key && s.metric == id && s.x == x),
            None => self.final_mean(key, id),
        };
        s.map(|s| Interval::clipped(s.n, s.mean, s.ci95, range))
    }

    fn complete(&self) -> bool {
        self.units.len() >= self.experiment.units().len()
    }

    /// vCache's error rate at attack probability `p` and the verdict on its δ (SPEC-NOTES,
    /// "Adversarial arrivals").
    pub(super) fn vcache_delta(&self, p: f64) -> Option<(&Stat, &'static str)> {
        let delta = self.experiment.params.vcache_delta;
        let s = self.stats.iter().find(|s| {
            s.algorithm == PolicyKind::VCache.id() && s.metric == Metric::ErrorRate.final_id() && s.x == p
        })?;
        let verdict = if !s.ci95.is_finite() {
            "not decided (one seed)"
        } else if s.mean + s.ci95 <= delta {
            "holds"
        } else if s.mean - s.ci95 > delta {
            "violated"
        } else {
            "not decided"
        };
        Some((s, verdict))
    }

    /// The threats view's reading of this report; `None` for a report of another measure.
    pub fn threat_findings(&self) -> Option<ThreatFindings> {
        let complete = self.complete();
        let mut f = ThreatFindings {
            kind: String::new(),
            units: self.units.len(),
            total: self.experiment.units().len(),
            tenants: Vec::new(),
            attack: Vec::new(),
            delta: Vec::new(),
            confusable_pairs: None,
            distance: None,
            method: THREATS_METHOD.into(),
        };
        match &self.experiment.measure {
            Measure::Tenants { policies } => {
                f.kind = "tenants".into();
                for &policy in policies {
                    for isolation in Isolation::ALL {
                        let key = tenant_key(policy, isolation);
                        let price =
                            (isolation != Isolation::Shared).then(|| self.price(&key, complete)).flatten();
                        f.tenants.push(TenantRow {
                            policy,
                            isolation,
                            label: self.label(&key),
                            cost: self.clipped(&key, Metric::AvgRealisedCost, None, NON_NEGATIVE),
                            error_rate: self.clipped(&key, Metric::ErrorRate, None, RATE),
                            hit_rate: self.clipped(&key, Metric::HitRate, None, RATE),
                            cross_share: self.clipped(&key, Metric::CrossTenantShare, None, RATE),
                            price,
                        });
                    }
                }
            }
            Measure::Attack { policies, p, distance } => {
                f.kind = "attack".into();
                f.distance = Some(*distance);
                f.confusable_pairs = self
                    .units
                    .first()
                    .and_then(|u| u.detail.get("confusable_pairs"))
                    .and_then(|v| v.as_u64());
                for &policy in policies {
                    let key = policy.id();
                    for &x in p {
                        let at = |m, range| self.clipped(&key, m, Some(x), range);
                        f.attack.push(AttackPoint {
                            policy,
                            p: x,
                            error_rate: at(Metric::ErrorRate, RATE),
                            hit_precision: at(Metric::HitPrecision, RATE),
                            wrong_per_1000: at(Metric::WrongPer1000, (0.0, 1000.0)),
                            cost: at(Metric::AvgRealisedCost, NON_NEGATIVE),
                            hit_rate: at(Metric::HitRate, RATE),
                            attack_share: at(Metric::AttackShare, RATE),
                            confusable_serves: at(Metric::ConfusableServes, NON_NEGATIVE),
                        });
                    }
                }
                for &x in p {
                    let Some((s, verdict)) = self.vcache_delta(x) else { continue };
                    let verdict = if complete { verdict } else { Difference::Pending.words(false) };
                    f.delta.push(DeltaCheck {
                        p: x,
                        delta: self.experiment.params.vcache_delta,
                        error_rate: Interval::clipped(s.n, s.mean, s.ci95, RATE),
                        verdict: verdict.into(),
                        words: self.vcache_delta_words(x).unwrap_or_default(),
                    });
                }
            }
            _ => return None,
        }
        Some(f)
    }

    /// The price of isolation of `key` as a paired difference against `shared` (pending while
    /// units are missing).
    fn price(&self, key: &str, complete: bool) -> Option<Paired> {
        let d = self.per_seed_values(key, Metric::IsolationPrice.final_id());
        if d.is_empty() {
            return None;
        }
        let price = Paired::of(&d, true);
        Some(if complete { price } else { price.pending() })
    }
}

#[cfg(test)]
mod tests {
    use crate::experiment::frontier::paired::Difference;
    use crate::experiment::{quick_spec, run_unit, Report};

    /// A small tenants run and a small attack run read back: every row is there, the intervals
    /// stay in their ranges, and a report missing a unit decides nothing.
    #[test]
    fn findings_of_small_runs_stay_in_range_and_wait_for_every_unit() {
        let data = std::sync::Arc::new(
            crate::dataset::synthetic::universe(crate::config::Params::default().c_floor).unwrap(),
        );
        for id in ["tenants", "attack"] {
            let mut spec = quick_spec(id).unwrap();
            spec.dataset = match id {
                "tenants" => {
                    crate::experiment::tenants_definition(
                        crate::experiment::DatasetId::Synthetic,
                        2,
                        0.5,
                        vec![crate::online::PolicyKind::Lru, crate::online::PolicyKind::VCache],
                    )
                    .unwrap()
                    .dataset
                }
                _ => crate::experiment::DatasetId::Synthetic,
            };
            spec.params.horizon = 200;
            spec.params.n_eval = 200;
            spec.params.k = 10;
            spec.seeds = 3;
            let units: Vec<_> =
                spec.units().iter().map(|u| run_unit(&spec, u, &data, &mut |_| true).unwrap()).collect();
            let full = Report::new(&spec, units.clone());
            let f = full.threat_findings().unwrap();
            assert_eq!((f.units, f.total), (3, 3));
            let rate = |i: &Option<crate::experiment::Interval>| {
                if let Some(i) = i {
                    // One seed has no bounds (NaN); any other stays in [0, 1].
                    let inside = |v: f64| v.is_nan() || (0.0..=1.0).contains(&v);
                    assert!(inside(i.lo) && inside(i.hi) && (i.n < 2 || i.lo.is_finite()), "{i:?}");
                }
            };
            for r in &f.tenants {
                rate(&r.error_rate);
                rate(&r.cross_share);
                assert_eq!(r.price.is_some(), r.isolation != crate::online::Isolation::Shared);
            }
            for a in &f.attack {
                rate(&a.hit_precision);
                rate(&a.error_rate);
            }
            let partial = Report::new(&spec, units[..2].to_vec()).threat_findings().unwrap();
            assert!(partial
                .tenants
                .iter()
                .filter_map(|r| r.price.as_ref())
                .all(|p| p.difference == Difference::Pending));
            assert!(partial.delta.iter().all(|d| d.verdict == Difference::Pending.words(false)));
            if id == "tenants" {
                assert_eq!(f.tenants.len(), 6 * 3);
                assert!(partial.tenants.iter().any(|r| r.price.is_some()));
            } else {
                assert_eq!(f.attack.len(), 6 * 3);
                assert_eq!(f.delta.len(), 3);
                assert!(f.confusable_pairs.is_some());
                assert_eq!(partial.delta.len(), 3);
            }
        }
    }
}
