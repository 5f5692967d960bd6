//! The built-in experiments' definitions (SPEC §10; paper §6 and the appendix; docs/REPRODUCTION.md):
//! each a function from its id and the SPEC defaults to its [`ExperimentSpec`]. The paper figures'
//! records ([`crate::experiment::definition::presets`]) and the registry ([`crate::experiment::definition::registry`]) name them; they name
//! neither, so the three import one way.

use crate::config::{Eviction, Params};
use crate::experiment::stats::num;
use crate::experiment::{DatasetId, ExperimentSpec, Family, Measure, Sweep};
use crate::offline::OfflineKind;
use crate::online::PolicyKind;
use serde::Serialize;

pub(crate) fn offline_all() -> Vec<OfflineKind> {
    OfflineKind::ALL.to_vec()
}

/// The paper's online comparison set (figs. c–f and the appendix's Frozen variant).
pub fn paper_policies() -> Vec<PolicyKind> {
    PolicyKind::compared()
}

pub(crate) fn values<T: Serialize>(v: &[T]) -> Vec<serde_json::Value> {
    v.iter().map(|x| serde_json::to_value(x).expect("serialisable")).collect()
}

/// A theory check across horizons (docs/REPRODUCTION.md, "Theory checks"): `policies` on
/// synthetic, one run per horizon T of `horizons` (the stage thresholds depend on T), n_eval =
/// 2,000 (`thy-switch`, `thy-switch-cont`, `thy-horizon`).
pub(crate) fn horizon_sweep(
    id: &str,
    base: Params,
    title: &str,
    policies: Vec<PolicyKind>,
    horizons: &[usize],
    seeds: usize,
) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: title.into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Online { policies },
        sweep: Some(Sweep::new("horizon", values(horizons))),
        params: Params { n_eval: 2000, ..base },
        seeds,
        first_seed: 0,
    }
}

/// Fig. 2(a)'s definition ([`crate::experiment::definition::presets::FIG_A`]).
pub fn fig_a(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Offline suboptimality gap vs stream length (synthetic, k = 5, ε = 0.4)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline { algorithms: offline_all() },
        sweep: Some(Sweep::new("log_len", values(&[100, 200, 500, 1000, 2000, 5000]))),
        params: Params { horizon: 1, ..base },
        seeds: 20,
        first_seed: 0,
    }
}

/// Fig. 2(b)'s definition ([`crate::experiment::definition::presets::FIG_B`]).
pub fn fig_b(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Offline suboptimality gap vs ε (synthetic, k = 5, stream length 1000)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline { algorithms: offline_all() },
        sweep: Some(Sweep::new("epsilon", values(&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]))),
        params: Params { horizon: 1, log_len: 1000, ..base },
        seeds: 20,
        first_seed: 0,
    }
}

/// Appendix Figs. 5–6's definition ([`crate::experiment::definition::presets::ABL_K`]).
pub fn abl_k(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Offline gap and loss vs cache size k (synthetic, stream length 500)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline { algorithms: offline_all() },
        sweep: Some(Sweep::new("k", values(&[3, 5, 8, 10, 12, 15, 20]))),
        params: Params { horizon: 1, log_len: 500, ..base },
        seeds: 20,
        first_seed: 0,
    }
}

/// Appendix Fig. 12's definition ([`crate::experiment::definition::presets::KRR_ERR`]).
pub fn krr_err(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "KRR cost-estimation error at the centers over rounds (synthetic, CLCB-SC-LS-Cont)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Online { policies: vec![PolicyKind::ClcbScLsCont] },
        sweep: None,
        params: base,
        seeds: 10,
        first_seed: 0,
    }
}

/// The geometry figures' definition ([`crate::experiment::definition::presets::GEOM`]).
pub fn geom(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Geometry: distance distributions, token-length CDFs, 2-D projection of the stream".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Geometry { stream: 2000 },
        sweep: None,
        params: base,
        seeds: 1,
        first_seed: 0,
    }
}

/// Fig. 2(a) with the tuned widths ([`tuned_offline`]), fewer seeds and without the largest, slowest stream length.
pub fn fig_a_tuned(id: &str, _: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Offline gap vs stream length, tuned widths (synthetic, k = 5, ε = 0.4)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline { algorithms: offline_all() },
        sweep: Some(Sweep::new("log_len", values(&[100, 200, 500, 1000, 2000]))),
        params: Params { horizon: 1, ..tuned_offline() },
        seeds: 10,
        first_seed: 0,
    }
}

/// Fig. 2(b) with the tuned widths ([`tuned_offline`]), fewer seeds and a narrower ε range.
pub fn fig_b_tuned(id: &str, _: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Offline gap vs ε, tuned widths (synthetic, k = 5, stream length 1000)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline { algorithms: offline_all() },
        sweep: Some(Sweep::new("epsilon", values(&[0.2, 0.3, 0.4, 0.5, 0.6]))),
        params: Params { horizon: 1, log_len: 1000, ..tuned_offline() },
        seeds: 10,
        first_seed: 0,
    }
}

/// `sens-on-beta`: online regret against β (and the fixture preset's definition).
pub fn sens_on_beta(id: &str, _: Params) -> ExperimentSpec {
    online_sensitivity(id, "β (online width scale)", "beta", values(&[0.1, 0.3, 1.0]))
}

/// `fig-c` and `fig-d`: one run, two figures.
pub fn fig_c_d(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Online average regret vs rounds and runtime vs final regret (synthetic)".into(),
        dataset: DatasetId::Synthetic,
        measure: Measure::Online { policies: paper_policies() },
        sweep: None,
        params: base,
        seeds: 10,
        first_seed: 0,
    }
}

/// `fig-e` and `fig-f`: one run, two figures.
pub fn fig_e_f(id: &str, base: Params) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: "Online average regret vs rounds and runtime vs final regret (nq-trivia)".into(),
        dataset: DatasetId::NqTrivia,
        measure: Measure::Online { policies: paper_policies() },
        sweep: None,
        params: base,
        seeds: 10,
        first_seed: 0,
    }
}

/// The offline widths tuned on held-out seeds (100–104, stream length 100, ε = 0.4; the grid
/// β_off ∈ {0, 0.01, 0.03, 0.1, 0.3, 1} × λ ∈ {0.001, 0.01, 0.1}, lowest mean CUCB-SC-Cont gap):
/// the SPEC defaults with a smaller width scale `β_off` and ridge `λ` (docs/REPRODUCTION.md).
pub fn tuned_offline() -> Params {
    Params { beta_off: TUNED_BETA_OFF, lambda: TUNED_LAMBDA, ..Params::default() }
}

/// Width scale of the tuned offline configuration.
pub const TUNED_BETA_OFF: f64 = 0.03;
/// Ridge of the tuned offline configuration.
pub const TUNED_LAMBDA: f64 = 0.001;

pub(crate) fn offline_sensitivity(
    id: &str,
    what: &str,
    param: &str,
    values: Vec<serde_json::Value>,
    params: Params,
) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: format!("Offline gap vs {what}"),
        dataset: DatasetId::Synthetic,
        measure: Measure::Offline {
            algorithms: vec![
                OfflineKind::CucbScCont,
                OfflineKind::CucbSc,
                OfflineKind::Greedy,
                OfflineKind::Lfu,
                OfflineKind::Oracle,
            ],
        },
        sweep: Some(Sweep::new(param, values)),
        params: Params { horizon: 1, log_len: 100, ..params },
        seeds: 10,
        first_seed: 0,
    }
}

/// The policies of the online sweeps: the paper's method, its discrete predecessor and the
/// strongest simple baselines.
pub(crate) fn sensitivity_policies(lfu: bool) -> Vec<PolicyKind> {
    let mut v = vec![PolicyKind::ClcbScLsCont, PolicyKind::ClcbScLs, PolicyKind::Greedy];
    if lfu {
        v.push(PolicyKind::Lfu);
    }
    v
}

pub(crate) fn online_sensitivity(
    id: &str,
    what: &str,
    param: &str,
    values: Vec<serde_json::Value>,
) -> ExperimentSpec {
    ExperimentSpec {
        id: id.into(),
        title: format!("Online final average regret vs {what}"),
        dataset: DatasetId::Synthetic,
        measure: Measure::Online { policies: sensitivity_policies(false) },
        sweep: Some(Sweep::new(param, values)),
        params: Params { horizon: 2000, n_eval: 5000, ..Params::default() },
        seeds: 3,
        first_seed: 0,
    }
}

/// `frontier`: the cost–correctness frontier on nq-trivia (or any data with ground truth, SPEC §14)
/// at quick settings (T = 2,000, n_eval = 2,000, 3 seeds) and k = 50 — at the default k = 5 every
/// policy serves under 1% of nq-trivia's requests from its cache and the frontier collapses to one
/// point (docs/REPRODUCTION.md, "frontier"): the threshold cache over a τ grid (evicting LRU, and
/// GDSF: Cherkasova 1998, HPL-98-69) and at GPTCache's defaults (`threshold_cosine` = 0.6 and LRU
/// eviction, docs/SPEC-NOTES.md), vCache over its bound δ (SPEC §15), CLCB-SC-LS-Cont over its
/// width β (SPEC §6), CLCB-SC-LS, Greedy, LFU and LRU as points, and last the threshold cache
/// evicting by GDSF over the same τ. Every point: realised cost, error rate, hit rate and average
/// regret with 95% intervals over seeds.
pub(crate) fn frontier(id: &str, base: Params) -> ExperimentSpec {
    let gptcache = Family {
        label: Some("Threshold (GPTCache)".into()),
        set: [
            ("threshold_cosine".to_string(), serde_json::json!(crate::config::GPTCACHE_COSINE)),
            ("eviction".to_string(), serde_json::json!(Eviction::Lru)),
        ]
        .into_iter()
        .collect(),
        ..Family::point(PolicyKind::Threshold)
    };
    let taus = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    let gdsf = Family {
        label: Some("Threshold (GDSF)".into()),
        set: [("eviction".to_string(), serde_json::json!(Eviction::Gdsf))].into_iter().collect(),
        ..Family::sweep(PolicyKind::Threshold, "threshold_tau", values(&taus))
    };
    let params = Params { k: 50, horizon: 2000, n_eval: 2000, ..base };
    ExperimentSpec {
        id: id.into(),
        // From its settings; `csc run --set` re-titles it.
        title: frontier_title("nq-trivia", &params, 3),
        dataset: DatasetId::NqTrivia,
        measure: Measure::Frontier {
            families: vec![
                Family::sweep(PolicyKind::Threshold, "threshold_tau", values(&taus)),
                gptcache,
                Family::sweep(
                    PolicyKind::VCache,
                    "vcache_delta",
                    values(&[0.005, 0.01, 0.02, 0.05, 0.1, 0.2]),
                ),
                Family::sweep(PolicyKind::ClcbScLsCont, "beta", values(&[0.03, 0.1, 0.3, 1.0])),
                Family::point(PolicyKind::ClcbScLs),
                Family::point(PolicyKind::Greedy),
                Family::point(PolicyKind::Lfu),
                Family::point(PolicyKind::Lru),
                // Last, so that the points before keep their numbers.
                gdsf,
            ],
        },
        sweep: None,
        params,
        seeds: 3,
        first_seed: 0,
    }
}

/// The frontier's k on synthetic data at the page's quick settings
/// ([`crate::experiment::definition::registry::frontier_definition`]): synthetic's universe holds 50 queries, so the
/// `frontier` experiment's k = 50 would cache all of it and make every policy the same; at this k
/// the families separate where they differ (measured in docs/PERFORMANCE.md, "Frontier").
pub const SYNTHETIC_FRONTIER_K: usize = 10;

/// A frontier's title from its settings: the dataset, k, T, n_eval and seeds it runs with, so
/// `--set horizon=1000` is titled T = 1,000.
pub fn frontier_title(dataset: &str, p: &Params, seeds: usize) -> String {
    format!(
        "Cost–correctness frontier on {dataset} (k = {}, T = {}, n_eval = {}, {seeds} seed{})",
        p.k,
        num(p.horizon as f64),
        num(p.n_eval as f64),
        if seeds == 1 { "" } else { "s" }
    )
}

/// The policies the threat experiments compare: the paper's learners (CLCB-SC-LS-Cont, CLCB-SC-LS),
/// the count-based Greedy and LRU, and the production caches: the threshold cache and vCache.
pub fn threat_policies() -> Vec<PolicyKind> {
    vec![
        PolicyKind::ClcbScLsCont,
        PolicyKind::ClcbScLs,
        PolicyKind::Greedy,
        PolicyKind::Lru,
        PolicyKind::Threshold,
        PolicyKind::VCache,
    ]
}

/// Tenants who must not share (docs/SPEC-NOTES.md, "Tenants"): nq-trivia with 3 tenants of
/// overlap ω = 0.5, k = 48 (16 a tenant when partitioned), T = 2,000, n_eval = 2,000, 5 seeds.
pub(crate) fn tenants(id: &str, base: Params) -> ExperimentSpec {
    let params = Params { k: 48, horizon: 2000, n_eval: 2000, ..base };
    ExperimentSpec {
        id: id.into(),
        title: "Tenants who must not share: shared, partitioned and tagged caches".into(),
        dataset: DatasetId::Spec(Box::new(crate::experiment::DatasetSpec {
            builtin: Some("nq-trivia".into()),
            arrival: Some(crate::stream::ArrivalSpec::Tenants {
                tenants: Some(3),
                overlap: Some(0.5),
                tenant_by: None,
            }),
            ..Default::default()
        })),
        measure: Measure::Tenants { policies: threat_policies() },
        sweep: None,
        params,
        seeds: 5,
        first_seed: 0,
    }
}

/// Queries built to fool the cache (docs/SPEC-NOTES.md, "Adversarial arrivals"): nq-trivia's
/// bursty stream attacked with probability p = 0, 0.05, 0.2 a round; confusable pairs nearer than
/// the threshold cache's τ = 0.15; k = 50, T = 2,000, n_eval = 2,000, 5 seeds.
pub(crate) fn attack(id: &str, base: Params) -> ExperimentSpec {
    let params = Params { k: 50, horizon: 2000, n_eval: 2000, ..base };
    ExperimentSpec {
        id: id.into(),
        title: "Queries built to fool the cache: each policy attacked on its own cache".into(),
        dataset: DatasetId::NqTrivia,
        measure: Measure::Attack { policies: threat_policies(), p: vec![0.0, 0.05, 0.2], distance: 0.15 },
        sweep: None,
        params,
        seeds: 5,
        first_seed: 0,
    }
}
