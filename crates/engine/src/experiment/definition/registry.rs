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

/// A built-in experiment: its id, how to make its definition from the SPEC defaults, and what it
/// is for.
pub struct Entry {
    pub id: &'static str,
    make: Make,
    pub role: Role,
}

/// What a built-in is for: where it is offered and whether it has quick settings ([`quick_spec`]).
pub enum Role {
    /// A paper figure's run, its second id or its tuned variant: the Paper view's, at the figure's
    /// quick settings.
    Figure(&'static Preset),
    /// A sweep the page's sweep view offers as a preset.
    SweepPreset,
    /// A run with quick settings of its own (the Theory view's `thy-horizon`).
    Quick(Quick),
    /// Run from the command line and the reproduction only.
    Other,
}

impl Entry {
    /// A figure's experiment, from its record.
    const fn figure(f: &'static Preset) -> Entry {
        Entry { id: f.id, make: f.make, role: Role::Figure(f) }
    }

    /// The second id of a figure's run (`fig-d` is `fig-c`'s).
    const fn also(f: &'static Preset) -> Entry {
        match f.also {
            Some(id) => Entry { id, make: f.make, role: Role::Figure(f) },
            None => panic!("the figure has no second id"),
        }
    }

    /// A figure's variant with tuned widths.
    const fn tuned(f: &'static Preset) -> Entry {
        match f.tuned {
            Some(t) => Entry { id: t.id, make: t.make, role: Role::Figure(f) },
            None => panic!("the figure has no tuned variant"),
        }
    }

    /// The quick settings of this entry, if it has them.
    fn quick(&'static self) -> Option<&'static Quick> {
        match &self.role {
            Role::Figure(f) => Some(&f.quick),
            Role::Quick(q) => Some(q),
            Role::SweepPreset | Role::Other => None,
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
        role: Role::Other,
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
        role: Role::SweepPreset,
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
        role: Role::SweepPreset,
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
        role: Role::SweepPreset,
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
        role: Role::SweepPreset,
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
        role: Role::SweepPreset,
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
    Entry { id: "sens-on-beta", make: sens_on_beta, role: Role::SweepPreset },
    Entry {
        id: "sens-on-length",
        role: Role::SweepPreset,
        make: |id, _| {
            online_sensitivity(id, "kernel length-scale ℓ_k", "kernel_length", values(&[0.1, 0.2, 0.4]))
        },
    },
    Entry {
        id: "sens-on-lambda",
        role: Role::SweepPreset,
        make: |id, _| online_sensitivity(id, "ridge λ", "lambda", values(&[0.01, 0.1, 1.0])),
    },
    Entry {
        id: "sens-on-epsilon",
        role: Role::SweepPreset,
        make: |id, _| online_sensitivity(id, "ε", "epsilon", values(&[0.2, 0.4, 0.6])),
    },
    // nq-trivia: the settings under which the paper's online claim could hold (SPEC §13).
    Entry {
        id: "sens-nq-epsilon",
        role: Role::SweepPreset,
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
        role: Role::SweepPreset,
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
    Entry { id: "frontier", make: frontier, role: Role::Other },
    // Tenants who must not share, and queries built to fool the cache (docs/SPEC-NOTES.md,
    // "Tenants" and "Adversarial arrivals").
    Entry { id: "tenants", make: tenants, role: Role::Quick(THREATS_QUICK) },
    Entry { id: "attack", make: attack, role: Role::Quick(THREATS_QUICK) },
    // Theory check: cache switches against the horizon T (stage thresholds depend on T).
    Entry {
        id: "thy-switch",
        role: Role::Other,
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
        role: Role::Other,
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
    // ([`crate::experiment::theory::report`]). The grid stops at 5,000 by measurement: the exact
    // learner's cost grows like T³ on this stream of distinct points (docs/PERFORMANCE.md, "The
    // exact learner's growth"); `thy-horizon-nystrom` goes on to 50,000 with the approximation.
    Entry {
        id: "thy-horizon",
        role: Role::Quick(THY_HORIZON_QUICK),
        make: |id, base| {
            horizon_sweep(
                id,
                base,
                "Regret vs horizon T: Theorem 5.1 across horizons (synthetic, CLCB-SC-LS-Cont)",
                vec![PolicyKind::ClcbScLsCont],
                &[250, 500, 1000, 2000, 5000],
                5,
            )
        },
    },
    // The same check to T = 50,000 with the Nyström learner over the ε-net centers (a named
    // approximation, `krr::nystrom`; docs/SPEC-NOTES.md, "An approximate learner over the centers").
    Entry {
        id: "thy-horizon-nystrom",
        role: Role::Other,
        make: |id, base| {
            horizon_sweep(
                id,
                base,
                "Regret vs horizon T to 50,000 with the Nyström learner (synthetic, CLCB-SC-LS-Cont (Nyström), an approximation)",
                vec![PolicyKind::ClcbScLsContNystrom],
                &[250, 500, 1000, 2000, 5000, 10000, 20000, 50000],
                5,
            )
        },
    },
];

/// `thy-horizon`'s quick settings (the page's Theory view): T = 250 … 2,000, 3 seeds,
/// n_eval = 1,000 (aimed at under a minute on 2 cores). A figure's are in its record
/// ([`crate::experiment::definition::presets`]).
const THY_HORIZON_QUICK: Quick = Quick {
    seeds: 3,
    overrides: &[("n_eval", 1000.0)],
    sweep_values: Some(&[250.0, 500.0, 1000.0, 2000.0]),
    drop: &[],
};

/// The threat experiments' quick settings: T = 1,000, n_eval = 1,000, 3 seeds.
const THREATS_QUICK: Quick =
    Quick { seeds: 3, overrides: &[("horizon", 1000.0), ("n_eval", 1000.0)], sweep_values: None, drop: &[] };

fn entry(id: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.id == id)
}

/// Whether the built-in `id` has quick settings ([`quick_spec`]): a paper figure's run (its second
/// id and tuned variant too) or an entry with quick settings of its own.
pub fn has_quick(id: &str) -> bool {
    quick_of(id).is_some()
}

/// The quick settings of `id`: its figure record's (a paper preset, also one that a test fixture
/// adds over a registry entry of another role), else its entry's own.
fn quick_of(id: &str) -> Option<&'static Quick> {
    crate::experiment::definition::presets::preset(id)
        .map(|p| &p.quick)
        .or_else(|| entry(id).and_then(Entry::quick))
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

/// The built-in sweeps the page's sweep view offers as presets (role [`Role::SweepPreset`]: the
/// reproduction's sensitivity sweeps and the `nq-tune` grid), in the registry's order.
pub fn sweep_presets() -> Vec<&'static str> {
    REGISTRY.iter().filter(|e| matches!(e.role, Role::SweepPreset)).map(|e| e.id).collect()
}

/// The experiment `id` of the registry, with the paper's settings where it gives them.
pub fn builtin(id: &str) -> Result<ExperimentSpec> {
    match entry(id) {
        Some(e) => Ok((e.make)(e.id, Params::default())),
        None => {
            Err(Error::unsupported(format!("unknown experiment `{id}`; known: {}", BUILTIN_IDS.join(", "))))
        }
    }
}

/// The definition of the built-in `id` at its quick settings (unchanged when it has none).
pub fn quick_spec(id: &str) -> Result<ExperimentSpec> {
    let spec = builtin(id)?;
    match quick_of(id) {
        Some(quick) => quick.apply(spec),
        None => Ok(spec),
    }
}

/// The frontier at the frontier view's quick settings ([`frontier_quick`]) on `dataset` (a
/// built-in or a dataset object naming the reader's file) over `horizon` rounds, with an
/// evaluation sample as large (`n_eval = T`, as the `frontier` experiment's), titled after it:
/// at T = 2,000 on nq-trivia it is the `frontier` experiment itself. `horizon` is checked as the
/// parameter is (`T`: a whole number of rounds, at least 1). The CLI runs the same definition
/// (`csc run <its JSON>`) to the same bits.
pub fn frontier_definition(dataset: DatasetId, horizon: usize) -> Result<ExperimentSpec> {
    let mut spec = frontier_quick().apply(builtin("frontier")?)?;
    // T first, so a horizon refused is named as the horizon; then n_eval = T.
    spec.params.horizon = horizon;
    spec.params.validate()?;
    spec.params.n_eval = horizon;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The roles say what each built-in is for: the sweep view's presets are the sensitivity sweeps
    /// and the nq-trivia grid, in the registry's order; quick settings belong to the paper's figures
    /// (their second ids and tuned variants too) and to `thy-horizon`.
    #[test]
    fn roles_give_the_sweep_presets_and_the_quick_settings() {
        let sweeps = sweep_presets();
        assert_eq!(sweeps.first(), Some(&"sens-off-beta"));
        assert_eq!(sweeps.last(), Some(&"nq-tune"));
        assert!(sweeps.iter().all(|id| id.starts_with("sens-") || *id == "nq-tune"), "{sweeps:?}");
        assert_eq!(sweeps.len(), BUILTIN_IDS.iter().filter(|id| id.starts_with("sens-")).count() + 1);
        for id in
            ["fig-a", "fig-a-tuned", "fig-b-tuned", "fig-c", "fig-d", "fig-e", "fig-f", "geom", "thy-horizon"]
        {
            assert!(has_quick(id), "{id}");
        }
        for id in ["sens-on-beta", "nq-tune", "frontier", "thy-switch", "geom-nq", "no-such"] {
            assert!(!has_quick(id), "{id}");
        }
        // A figure's quick settings are its record's, whichever of its ids runs.
        let quick = quick_spec("fig-d").unwrap();
        assert_eq!(quick.seeds, crate::experiment::definition::presets::FIG_C.quick.seeds);
        assert_eq!(quick_spec("thy-horizon").unwrap().seeds, 3);
        assert_eq!(quick_spec("frontier").unwrap().seeds, builtin("frontier").unwrap().seeds);
    }
}
