//! The one list of the metrics the engine reports (SPEC §8, §9; paper eqs. 2–4, §5's regret):
//! each observation's metric name, the name a reader sees, a one-line definition and where the
//! paper (or SPEC) defines it. The page shows the definition on hover, focus and tap of every
//! metric it displays; the CLI prints it with `csc list --metrics`.

use serde::{Deserialize, Serialize};

/// One metric as a reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MetricInfo {
    /// The observation's metric name (`final_avg_regret`, …); curves drop the `final_` prefix.
    pub id: &'static str,
    /// The short name shown in tables and counters.
    pub name: &'static str,
    /// One line: what it is.
    pub definition: &'static str,
    /// Where it is defined: the paper's numbering and/or `SPEC-NOTES#anchor` (as
    /// [`crate::config::ParamInfo::reference`]).
    pub source: &'static str,
}

macro_rules! metrics {
    ($($variant:ident $id:literal, $name:literal, $def:literal, $src:literal;)+) => {
        /// Every metric, in the order the page lists them.
        pub const METRICS: &[MetricInfo] = &[$(MetricInfo { id: $id, name: $name, definition: $def, source: $src }),+];

        /// A reported metric by its typed id, generated from the list below (one variant per
        /// entry, in its order), so that the engine names a metric by a variant a typo cannot
        /// make; its serde form is the id (`MetricId` in the JS API's types).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "MetricId"))]
        pub enum Metric {
            $(#[serde(rename = $id)] $variant,)+
        }

        impl Metric {
            /// Every metric, in the list's order.
            pub const ALL: &[Metric] = &[$(Metric::$variant),+];

            /// The observation's name of a curve point or a swept value (`hit_rate`).
            pub const fn id(self) -> &'static str {
                match self {
                    $(Metric::$variant => $id,)+
                }
            }

            /// The observation's name at the end of a run (`final_hit_rate`).
            pub const fn final_id(self) -> &'static str {
                match self {
                    $(Metric::$variant => concat!("final_", $id),)+
                }
            }

            /// Its entry of [`METRICS`].
            pub fn info(self) -> &'static MetricInfo {
                &METRICS[self as usize]
            }
        }
    };
}

metrics! {
    AvgRegret "avg_regret", "average regret",
        "R(t)/t: Σ_{s≤t} [L(M_s) − L(M_orc)] plus Σ switching costs, divided by the rounds t; lower is better.",
        "§5.1, Reg(T); SPEC-NOTES#online-spec-9";
    AvgLossGap "avg_loss_gap", "average loss gap",
        "Σ_{s≤t} [L(M_s) − L(M_orc)] / t: how much worse the caches that served were than the oracle's, per round (the regret without switching).",
        "§5.1, Reg(T)'s first sum; eq. (2); SPEC-NOTES#online-spec-9";
    AvgSwitchCost "avg_switch_cost", "average switching cost",
        "Σ switching costs / t: the cost c(u) of every item fetched into the cache by a switch, per round (the regret's second part).",
        "§5.1, Reg(T)'s second sum; SPEC-NOTES#online-spec-9";
    Switches "switches", "switches",
        "Rounds whose cache set differs from the previous round's (the first fill and every insertion count; a rebuild to the same set does not).",
        "§5.1; SPEC-NOTES#online-spec-9";
    HitRate "hit_rate", "hit rate",
        "The share of rounds served from the cache rather than by the LLM.",
        "eq. (1), the serving rule";
    AvgRealisedCost "avg_realised_cost", "realised cost per round",
        "What was actually paid, per round: c(x) for an LLM call, φ(d(x, M)) for a cache hit.",
        "eq. (1)";
    RealisedCost "realised_cost", "realised cost",
        "What was actually paid so far: c(x) for each LLM call plus φ(d(x, M)) for each cache hit.",
        "eq. (1)";
    RuntimeMs "runtime_ms", "runtime",
        "Time spent inside the policy so far (ms) on this machine: at T the run's total, before T (online runs without a sweep) its curve against t; comparable only within one run.",
        "§6, Fig. 2(d, f)";
    Gap "gap", "suboptimality gap",
        "L(M̂) − L(M_orc) on the evaluation sample: how much worse the returned cache is than the oracle's (negative: better, Reverse Greedy is not optimal).",
        "eq. (5); SPEC-NOTES#offline-spec-8";
    Loss "loss", "true loss",
        "L(M) = E_x[min(c(x), φ(d(x, M)))] on the evaluation sample E.",
        "eq. (2); SPEC-NOTES#evaluation-sample-and-oracle";
    EstRmse "est_rmse", "KRR RMSE",
        "Root mean squared error of the cost estimate ĉ at the policy's centers against the true costs.",
        "appendix A.3, Fig. 12";
    EstMae "est_mae", "KRR MAE",
        "Mean absolute error of ĉ at the centers against the true costs.",
        "appendix A.3, Fig. 12";
    EstMax "est_max", "KRR max error",
        "Largest absolute error of ĉ at the centers against the true costs.",
        "appendix A.3, Fig. 12";
    ErrorRate "error_rate", "error rate",
        "Wrong cache hits over all requests so far: a hit is wrong when the cached answer is not equivalent to the query's gold answer (— without ground truth).",
        "SPEC-NOTES#ground-truth-spec-14 (not in the paper, which prices a hit by φ alone)";
    HitPrecision "hit_precision", "hit precision",
        "Correct hits over all hits (— without ground truth or without hits).",
        "SPEC-NOTES#ground-truth-spec-14";
    TauMean "tau_mean", "vCache τ",
        "vCache's exploration probability τ, averaged over rounds.",
        "vCache (arXiv 2502.03771); SPEC-NOTES#vcache-spec-15";
    ExploreShare "explore_share", "vCache explore share",
        "The share of rounds vCache explored (called the LLM to judge its nearest item).",
        "vCache (arXiv 2502.03771); SPEC-NOTES#vcache-spec-15";
    CacheSize "cache_size", "cache size",
        "|M_t|: the items in the cache now (below k for a policy that has not filled it).",
        "§5.1";
    Gamma "gamma", "information gain γ_t",
        "½ log det(I + K_t/λ) over the learner's observations, from its own factor (Theorem 5.1's γ_T, measured).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    BetaT "beta_t", "confidence multiplier β_t",
        "B + R√(2(γ_t + ln(2/δ))): Lemma 5.2's radius without σ (the policy's widths are β·β_t).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    MEff "m_eff", "effective centers m_eff",
        "exp of the entropy of the arrivals' shares over the ε-net centers: the centers the stream needs (Assumption 1).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    MMax "m_max", "net size m_max",
        "|S_t|: the ε-net's centers so far (Lemma 5.3's m_max, measured).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    EpsT "eps_t", "discretisation error ε_t",
        "The largest distance from an arrival of the last checkpoint interval to its nearest center (Assumption 1).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    SumTau "sum_tau", "stages Σ τ_u",
        "The centers' stage indices summed: the quantity Lemma 5.3 bounds by O(m_max log log T).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    BoundCost "bound_cost", "cost term β_t√(tγ_t)",
        "Theorem 5.1's cost term with its constant set to 1 (up to constants: a shape in t, not a bound that holds as printed).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    BoundArrival "bound_arrival", "arrival term √(m_eff t ln t)",
        "Theorem 5.1's arrival term with its constant set to 1 (up to constants).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    BoundDiscretisation "bound_discretisation", "discretisation term (1+2α)L_g√t",
        "Theorem 5.1's discretisation term with α = 1, L_g the run's lipschitz and the constant set to 1 (up to constants).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    BoundSwitching "bound_switching", "switching term k m_max ln ln t",
        "Theorem 5.1's switching term with its constant set to 1 (up to constants; 0 below t = e).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    TheorySlopeRegret "theory_slope_regret", "slope of Reg(t)",
        "One run's log-log slope of Reg(t) over its last decade; Theorem 5.1 means ≤ ½.",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    TheorySlopeEpsT "theory_slope_eps_t", "slope of ε_t",
        "One run's log-log slope of ε_t over its last decade; Assumption 1 means ≤ −½.",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    TheorySlopeMEff "theory_slope_m_eff", "slope of m_eff",
        "One run's log-log slope of m_eff(t) over its last half; Assumption 1 means ≤ 0 (bounded).",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    TheorySlopeSwitches "theory_slope_switches", "slope of switches/(m_max ln ln t)",
        "One run's log-log slope of switches/(m_max·ln ln t) over its last half; Lemma 5.3 means ≤ 0.",
        "§5.3; SPEC-NOTES#theory-diagnostics";
    TheorySlopeGamma "theory_slope_gamma", "slope of γ_t",
        "One run's log-log slope of γ_t over its last decade; Theorem 5.1's Õ(√T) needs γ_T polylogarithmic (≤ 0), and from ½ its cost term grows like T.",
        "§5.3; appendix A.2; SPEC-NOTES#theory-diagnostics";
    CrossTenantShare "cross_tenant_share", "cross-tenant hit share",
        "Hits served by an entry another tenant founded, over all hits (— without hits); 0 by construction under partitioned and tagged isolation.",
        "SPEC-NOTES#tenants (not in the paper)";
    IsolationPrice "isolation_price", "price of isolation",
        "Realised cost per round under partitioned or tagged isolation minus under shared, paired on each seed (negative: isolation was cheaper).",
        "SPEC-NOTES#tenants (not in the paper)";
    TenantRealisedCost "tenant_avg_realised_cost", "tenant's realised cost",
        "Realised cost per request over one tenant's rounds (x = the tenant).",
        "SPEC-NOTES#tenants";
    TenantErrorRate "tenant_error_rate", "tenant's error rate",
        "Wrong hits over one tenant's requests (x = the tenant).",
        "SPEC-NOTES#tenants; SPEC-NOTES#ground-truth-spec-14";
    TenantCrossShare "tenant_cross_share", "tenant's cross-tenant hit share",
        "Of one tenant's hits, those served by an entry another tenant founded (x = the tenant; — without hits).",
        "SPEC-NOTES#tenants";
    WrongPer1000 "wrong_per_1000", "wrong hits per 1,000 requests",
        "Wrong hits (SPEC §14) per 1,000 requests: 1,000 × the error rate.",
        "SPEC-NOTES#adversarial-arrivals";
    AttackShare "attack_share", "attacked share",
        "The share of rounds whose arrival the attacker chose (its coin came up and the cache held an entry with a confuser).",
        "SPEC-NOTES#adversarial-arrivals";
    ConfusableServes "confusable_serves", "confusable serves",
        "Hits whose arrival and serving entry are a confusable pair: nearer than d, gold answers not equivalent.",
        "SPEC-NOTES#adversarial-arrivals";
}

/// The entry of `id`, with or without the `final_` prefix.
pub fn metric(id: &str) -> Option<&'static MetricInfo> {
    let id = id.strip_prefix("final_").unwrap_or(id);
    METRICS.iter().find(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_recorded_online_metric_is_defined() {
        let mut ids: Vec<_> = METRICS.iter().map(|m| m.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), METRICS.len());
        for m in [
            "final_avg_regret",
            "final_avg_loss_gap",
            "final_avg_switch_cost",
            "final_switches",
            "final_hit_rate",
            "final_avg_realised_cost",
            "runtime_ms",
            "gap",
            "loss",
            "est_rmse",
            "final_cache_size",
        ] {
            assert!(metric(m).is_some(), "{m}");
        }
        assert!(metric("nope").is_none());
    }

    #[test]
    fn the_typed_ids_are_the_list() {
        assert_eq!(Metric::ALL.len(), METRICS.len());
        for (m, info) in Metric::ALL.iter().zip(METRICS) {
            assert_eq!((m.id(), m.info().id), (info.id, info.id));
            assert_eq!(m.final_id(), format!("final_{}", info.id));
            assert_eq!(serde_json::to_value(m).unwrap(), info.id);
        }
        assert_eq!(Metric::HitRate.final_id(), "final_hit_rate");
        assert_eq!(Metric::MEff.id(), "m_eff");
    }
}
