//! The registry of built-in experiments: SPEC §10's figures (paper §6) with the paper's settings
//! where it gives them, then the reproduction's tuned variants, sensitivity sweeps and theory
//! checks (docs/REPRODUCTION.md). Each id appears once, in [`REGISTRY`]; [`BUILTIN_IDS`] and
//! [`builtin`] are read from it. A paper figure's entries are read from its record
//! ([`crate::experiment::definition::presets`]), which holds its definitions.

use crate::config::Params;
use crate::error::{Error, Result};
use crate::experiment::definition::builtins::*;
use crate::experiment::definition::presets::{
    frontier_quick, Make, Preset, Quick, ABL_K, FIG_A, FIG_B, FIG_C, FIG_E, GEOM, KRR_ERR,
};
use crate::experiment::{DatasetId, ExperimentSpec, Measure, Sweep};
use crate::online::PolicyKind;

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
    // Cost–correctness frontier: what each policy pays against how often it serves a wrong answer
    // (SPEC §14, §15).
    Entry { id: "frontier", make: frontier },
    // Theory check: cache switches against the horizon T (stage thresholds depend on T).
    Entry {
        id: "thy-switch",
        make: |id, base| {
            horizon_sweep(
                id,
                base,
                "Switches and stages vs horizon T (synthetic, low-switching policies)",
                vec![PolicyKind::ClcbScLs, PolicyKind::Greedy],
                &[250, 500, 1000, 2000, 5000, 10000, 20000, 50000],
                5,
            )
        },
    },
    Entry {
        id: "thy-switch-cont",
        make: |id, base| {
            horizon_sweep(
                id,
                base,
                "Switches and stages vs horizon T (synthetic, CLCB-SC-LS-Cont)",
                vec![PolicyKind::ClcbScLsCont],
                &[250, 500, 1000, 2000, 5000],
                3,
            )
        },
    },
    // Theory check: Theorem 5.1 across horizons — one CLCB-SC-LS-Cont run per T on a log grid (the
    // stage thresholds depend on T), Reg(T) fitted against T
    // ([`crate::experiment::theory::report`]).
    Entry {
        id: "thy-horizon",
        make: |id, base| {
            horizon_sweep(
                id,
                base,
                "Regret vs horizon T: Theorem 5.1 across horizons (synthetic, CLCB-SC-LS-Cont)",
                vec![PolicyKind::ClcbScLsCont],
                &[250, 500, 1000, 2000, 5000, 10000, 20000, 50000],
                5,
            )
        },
    },
];

/// The quick settings of built-ins that are not paper figures (a figure's are in its record,
/// [`crate::experiment::definition::presets`]): `thy-horizon` at T = 250 … 2,000, 3 seeds, n_eval = 1,000, the page's
/// Theory view (aimed at under a minute on 2 cores).
const QUICK: &[(&str, Quick)] = &[(
    "thy-horizon",
    Quick {
        seeds: 3,
        overrides: &[("n_eval", 1000.0)],
        sweep_values: Some(&[250.0, 500.0, 1000.0, 2000.0]),
        drop: &[],
    },
)];

/// Whether `id` (or `<id>-tuned`) has quick settings ([`quick_spec`]): a Paper-view preset or
/// one of [`QUICK`].
pub fn has_quick(id: &str) -> bool {
    let id = id.trim_end_matches("-tuned");
    crate::experiment::definition::presets::paper_presets().iter().any(|p| p.id == id)
        || QUICK.iter().any(|(q, _)| *q == id)
}

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

/// The built-in sweeps the page's sweep view offers as presets: the reproduction's sensitivity
/// sweeps (`sens-*`) and the `nq-tune` grid.
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

/// The definition of preset `id` (or `<id>-tuned`) at quick settings.
pub fn quick_spec(id: &str) -> Result<ExperimentSpec> {
    let spec = builtin(id)?;
    match crate::experiment::definition::presets::preset(id) {
        Some(p) => p.quick.apply(spec),
        None => match QUICK.iter().find(|(q, _)| *q == id) {
            Some((_, quick)) => quick.apply(spec),
            None => Ok(spec),
        },
    }
}

/// The frontier at the frontier view's quick settings ([`frontier_quick`]) on `dataset` (a
/// built-in or a dataset object naming the reader's file), titled after it. The CLI runs the same
/// definition (`csc run <its JSON>`) to the same bits.
pub fn frontier_definition(dataset: DatasetId) -> Result<ExperimentSpec> {
    let mut spec = frontier_quick().apply(builtin("frontier")?)?;
    if dataset == DatasetId::Synthetic {
        spec.params.k = SYNTHETIC_FRONTIER_K;
    }
    spec.dataset = dataset;
    spec.title = frontier_title(
        &crate::experiment::definition::presets::dataset_name(&spec.dataset),
        &spec.params,
        spec.seeds,
    );
    spec.validate()?;
    Ok(spec)
}
