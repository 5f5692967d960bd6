//! The registry of built-in experiments: SPEC §10's figures (paper §6) with the paper's settings
//! where it gives them, then the reproduction's tuned variants, sensitivity sweeps and theory
//! checks (docs/REPRODUCTION.md). Each id appears once, in [`REGISTRY`]; [`BUILTIN_IDS`] and
//! [`builtin`] are read from it. A paper figure's entries are read from its record
//! ([`super::presets`]), which holds its definitions.

use super::presets::{Make, Preset, ABL_K, FIG_A, FIG_B, FIG_C, FIG_E, GEOM, KRR_ERR};
use super::{DatasetId, ExperimentSpec, Family, Measure, Sweep};
use crate::config::Params;
use crate::error::{Error, Result};
use crate::offline::OfflineKind;
use crate::online::PolicyKind;
use serde::Serialize;

fn offline_all() -> Vec<OfflineKind> {
    OfflineKind::ALL.to_vec()
}

/// The paper's online comparison set (figs. c–f and the appendix's Frozen variant).
pub fn paper_policies() -> Vec<PolicyKind> {
    vec![
        PolicyKind::ClcbScLsCont,
        PolicyKind::ClcbFrozenCont,
        PolicyKind::ClcbScLs,
        PolicyKind::Greedy,
        PolicyKind::EpsilonGreedy,
        PolicyKind::Lfu,
    ]
}

fn values<T: Serialize>(v: &[T]) -> Vec<serde_json::Value> {
    v.iter().map(|x| serde_json::to_value(x).expect("serialisable")).collect()
}

/// A built-in experiment: its id and how to make its definition from the SPEC defaults.
pub struct Entry {
    pub id: &'static str,
    make: Make,
}

impl Entry {
    /// A figure's experiment, from its record.
    const fn figure(f: &'static Preset) -> Entry {
        Entry { id: f.id, make: f.make }
    }

    /// The second id of a figure's run (`fig-d` is `fig-c`'s).
    const fn also(f: &'static Preset) -> Entry {
        match f.also {
            Some(id) => Entry { id, make: f.make },
            None => panic!("the figure has no second id"),
        }
    }

    /// A figure's variant with tuned widths.
    const fn tuned(f: &'static Preset) -> Entry {
        match f.tuned {
            Some(t) => Entry { id: t.id, make: t.make },
            None => panic!("the figure has no tuned variant"),
        }
    }
}

/// Every built-in experiment, in the order `csc list` shows them: SPEC §10's experiments, then
/// the reproduction's tuned variants, sensitivity sweeps and theory checks (docs/REPRODUCTION.md).
pub const REGISTRY: &[Entry] = &[
    Entry::figure(&FIG_A),
    Entry::figure(&FIG_B),
    Entry::figure(&FIG_C),
    Entry::also(&FIG_C),
    Entry::figure(&FIG_E),
    Entry::also(&FIG_E),
    Entry::figure(&ABL_K),
    Entry::figure(&KRR_ERR),
    Entry::figure(&GEOM),
    Entry {
        id: "geom-nq",
        make: |id, base| ExperimentSpec {
            id: id.into(),
            title: "Geometry of nq-trivia: distance distributions and token-length CDFs per source".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Geometry { stream: 2000 },
            sweep: None,
            params: base,
            seeds: 1,
            first_seed: 0,
        },
    },
    // Tuned offline widths (docs/REPRODUCTION.md): the paper's figures a–b with the tuned
    // β_off and λ (chosen on held-out seeds 100–104), fewer seeds and without the largest,
    // slowest sweep value.
    Entry::tuned(&FIG_A),
    Entry::tuned(&FIG_B),
    // Offline sensitivity: one unstated parameter swept at a time (synthetic, k = 5, ε = 0.4,
    // stream length 100, where the paper reports CUCB-SC-Cont's largest advantage).
    Entry {
        id: "sens-off-beta",
        make: |id, base| {
            offline_sensitivity(
                id,
                "β_off (width scale; λ = 0.1)",
                "beta_off",
                values(&[0.0, 0.01, 0.03, 0.1, 0.3, 1.0]),
                base,
            )
        },
    },
    Entry {
        id: "sens-off-lambda",
        make: |id, _| {
            offline_sensitivity(
                id,
                "λ (tuned β_off)",
                "lambda",
                values(&[0.001, 0.01, 0.1, 1.0]),
                tuned_offline(),
            )
        },
    },
    Entry {
        id: "sens-off-length",
        make: |id, _| {
            offline_sensitivity(
                id,
                "kernel length-scale ℓ_k (tuned)",
                "kernel_length",
                values(&[0.05, 0.1, 0.2, 0.4, 0.8]),
                tuned_offline(),
            )
        },
    },
    Entry {
        id: "sens-off-zeta",
        make: |id, _| {
            offline_sensitivity(
                id,
                "mismatch slope ζ (tuned)",
                "zeta",
                values(&[0.5, 1.0, 2.0, 4.0]),
                tuned_offline(),
            )
        },
    },
    Entry {
        id: "sens-off-noise",
        make: |id, _| {
            offline_sensitivity(
                id,
                "cost noise R (tuned)",
                "noise_r",
                values(&[0.0, 0.05, 0.1, 0.2]),
                tuned_offline(),
            )
        },
    },
    // Online sensitivity (synthetic, T = 2,000, n_eval = 5,000, 3 seeds).
    Entry { id: "sens-on-beta", make: sens_on_beta },
    Entry {
        id: "sens-on-length",
        make: |id, _| {
            online_sensitivity(id, "kernel length-scale ℓ_k", "kernel_length", values(&[0.1, 0.2, 0.4]))
        },
    },
    Entry {
        id: "sens-on-lambda",
        make: |id, _| online_sensitivity(id, "ridge λ", "lambda", values(&[0.01, 0.1, 1.0])),
    },
    Entry {
        id: "sens-on-epsilon",
        make: |id, _| online_sensitivity(id, "ε", "epsilon", values(&[0.2, 0.4, 0.6])),
    },
    // nq-trivia: the settings under which the paper's online claim could hold (SPEC §13).
    Entry {
        id: "sens-nq-epsilon",
        make: |id, base| ExperimentSpec {
            id: id.into(),
            title: "nq-trivia online: final average regret vs ε (T = 2,000)".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Online { policies: sensitivity_policies(true) },
            sweep: Some(Sweep::new("epsilon", values(&[0.4, 0.5, 0.6, 0.7, 0.8]))),
            params: Params { horizon: 2000, n_eval: 2000, ..base },
            seeds: 2,
            first_seed: 0,
        },
    },
    // nq-trivia, CLCB-SC-LS-Cont tuned on held-out seeds 100–102 (docs/REPRODUCTION.md, "nq-tune"):
    // a grid, β × ℓ_k; each cell is the unit scripts/reproduce.sh ran as one β sweep per ℓ_k.
    Entry {
        id: "nq-tune",
        make: |id, base| ExperimentSpec {
            id: id.into(),
            title: "nq-trivia online: tuning CLCB-SC-LS-Cont on held-out seeds 100-102 (T = 2,000)".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLsCont] },
            sweep: Some(Sweep::grid(
                "beta",
                values(&[0.03, 0.1, 0.3, 1.0]),
                "kernel_length",
                values(&[0.2, 0.4, 0.8]),
            )),
            params: Params { horizon: 2000, n_eval: 2000, ..base },
            seeds: 3,
            first_seed: 100,
        },
    },
    // Issue 24: what each policy pays against how often it serves a wrong answer (SPEC §14, §15).
    Entry { id: "frontier", make: frontier },
    // Theory check: cache switches against the horizon T (stage thresholds depend on T).
    Entry {
        id: "thy-switch",
        make: |id, base| ExperimentSpec {
            id: id.into(),
            title: "Switches and stages vs horizon T (synthetic, low-switching policies)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLs, PolicyKind::Greedy] },
            sweep: Some(Sweep::new("horizon", values(&[250, 500, 1000, 2000, 5000, 10000, 20000, 50000]))),
            params: Params { n_eval: 2000, ..base },
            seeds: 5,
            first_seed: 0,
        },
    },
    Entry {
        id: "thy-switch-cont",
        make: |id, base| ExperimentSpec {
            id: id.into(),
            title: "Switches and stages vs horizon T (synthetic, CLCB-SC-LS-Cont)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLsCont] },
            sweep: Some(Sweep::new("horizon", values(&[250, 500, 1000, 2000, 5000]))),
            params: Params { n_eval: 2000, ..base },
            seeds: 3,
            first_seed: 0,
        },
    },
];

const fn ids<const N: usize>(r: &[Entry]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = r[i].id;
        i += 1;
    }
    out
}

/// Ids accepted by [`builtin`], read from [`REGISTRY`].
pub const BUILTIN_IDS: [&str; REGISTRY.len()] = ids(REGISTRY);

/// The built-in sweeps the page's sweep view offers as presets (issue 25, item 5): the
/// reproduction's sensitivity sweeps (`sens-*`) and the `nq-tune` grid.
pub fn sweep_presets() -> Vec<&'static str> {
    BUILTIN_IDS.iter().copied().filter(|id| id.starts_with("sens-") || *id == "nq-tune").collect()
}

/// The experiment `id` of the registry, with the paper's settings where it gives them.
pub fn builtin(id: &str) -> Result<ExperimentSpec> {
    match REGISTRY.iter().find(|e| e.id == id) {
        Some(e) => Ok((e.make)(e.id, Params::default())),
        None => {
            Err(Error::unsupported(format!("unknown experiment `{id}`; known: {}", BUILTIN_IDS.join(", "))))
        }
    }
}

/// Fig. 2(a)'s definition ([`super::presets::FIG_A`]).
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

/// Fig. 2(b)'s definition ([`super::presets::FIG_B`]).
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

/// Appendix Figs. 5–6's definition ([`super::presets::ABL_K`]).
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

/// Appendix Fig. 12's definition ([`super::presets::KRR_ERR`]).
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

/// The geometry figures' definition ([`super::presets::GEOM`]).
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

fn offline_sensitivity(
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
fn sensitivity_policies(lfu: bool) -> Vec<PolicyKind> {
    let mut v = vec![PolicyKind::ClcbScLsCont, PolicyKind::ClcbScLs, PolicyKind::Greedy];
    if lfu {
        v.push(PolicyKind::Lfu);
    }
    v
}

fn online_sensitivity(id: &str, what: &str, param: &str, values: Vec<serde_json::Value>) -> ExperimentSpec {
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

/// `frontier` (issue 24): the cost–correctness frontier on nq-trivia (or any data with ground
/// truth, SPEC §14) at quick settings (T = 2,000, n_eval = 2,000, 3 seeds) and k = 50 — at the
/// default k = 5 every policy serves under 1% of nq-trivia's requests from its cache and the
/// frontier collapses to one point (docs/REPRODUCTION.md, "frontier"): the threshold cache
/// over a τ grid and at GPTCache's defaults (`threshold_cosine` = 0.6, docs/SPEC-NOTES.md), vCache
/// over its bound δ (SPEC §15), CLCB-SC-LS-Cont over its width β (SPEC §6), and CLCB-SC-LS,
/// Greedy, LFU and LRU as points. Every point: realised cost, error rate, hit rate and average
/// regret with 95% intervals over seeds.
fn frontier(id: &str, base: Params) -> ExperimentSpec {
    let gptcache = Family {
        label: Some("Threshold (GPTCache)".into()),
        set: [("threshold_cosine".to_string(), serde_json::json!(crate::config::GPTCACHE_COSINE))]
            .into_iter()
            .collect(),
        ..Family::point(PolicyKind::Threshold)
    };
    let params = Params { k: 50, horizon: 2000, n_eval: 2000, ..base };
    ExperimentSpec {
        id: id.into(),
        // From its settings (issue 37, item 4); `csc run --set` re-titles it.
        title: super::frontier::frontier_title("nq-trivia", &params, 3),
        dataset: DatasetId::NqTrivia,
        measure: Measure::Frontier {
            families: vec![
                Family::sweep(
                    PolicyKind::Threshold,
                    "threshold_tau",
                    values(&[0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
                ),
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
            ],
        },
        sweep: None,
        params,
        seeds: 3,
        first_seed: 0,
    }
}
