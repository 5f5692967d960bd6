//! The paper view's presets (src/experiment/definition/presets.rs): every preset's quick settings meet the
//! verdicts' needs (≥ 5 seeds), and every label a reader sees is the configuration that ran —
//! each preset's first unit is run and its resolved parameters compared with the description.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::dataset::{nq_trivia, synthetic, Dataset};
use csc_engine::experiment::headline::claims::Widths;
use csc_engine::experiment::{
    builtin, describe, figure, paper_presets, quick_spec, run_unit, DatasetId, Measure, BUILTIN_IDS,
};
use std::sync::Arc;

fn thousands(v: usize) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn dataset(id: &DatasetId) -> Arc<Dataset> {
    match id {
        DatasetId::NqTrivia => {
            let dir = nq_trivia::data_dir(None);
            Arc::new(nq_trivia::load(&dir, nq_trivia::PER_SOURCE, 0.01).unwrap_or_else(|e| {
                panic!("the nq-trivia preset needs the shared data ({}): {e}", dir.display())
            }))
        }
        _ => Arc::new(synthetic::universe(0.01).unwrap()),
    }
}

#[test]
fn every_preset_is_a_registered_experiment_with_enough_seeds_for_a_verdict() {
    let presets = paper_presets();
    assert_eq!(
        presets.iter().map(|p| p.id).collect::<Vec<_>>(),
        ["fig-a", "fig-b", "fig-c", "fig-e", "abl-k", "krr-err", "geom"]
    );
    for p in &presets {
        assert!(BUILTIN_IDS.contains(&p.id), "{}", p.id);
        assert!(p.quick.seeds >= 5, "{}: {} seeds", p.id, p.quick.seeds);
        // The tuned variant and the second id of a run are the figure's, by its record.
        if let Some(t) = p.tuned {
            assert!(BUILTIN_IDS.contains(&t.id), "{}", t.id);
            assert_eq!(figure(t.id).map(|(f, w)| (f.id, w)), Some((p.id, Widths::Tuned)));
        }
        if let Some(also) = p.also {
            assert!(BUILTIN_IDS.contains(&also), "{also}");
            assert_eq!(builtin(also).unwrap().measure, builtin(p.id).unwrap().measure);
            assert_eq!(figure(also).map(|(f, w)| (f.id, w)), Some((p.id, Widths::Theoretical)));
        }
        let q = quick_spec(p.id).unwrap();
        assert_eq!(q.seeds, p.quick.seeds);
        // Every preset has a headline table (abl-k, krr-err and geom too).
        assert!(csc_engine::experiment::definition::presets::claims(p.id).is_some(), "{}", p.id);
    }
}

/// The label test: the description of each preset, quick and full, states the seeds, the sweep
/// values, T, n_eval and the policies of the definition, and the first unit of the quick run
/// ran with exactly those parameters.
#[test]
fn every_label_is_the_configuration_that_ran() {
    for p in paper_presets() {
        for spec in [quick_spec(p.id).unwrap(), builtin(p.id).unwrap()] {
            let text = describe(&spec);
            let seeds = format!("{} seed", spec.seeds);
            assert!(text.contains(&seeds), "{}: {text}", p.id);
            if let Some(s) = &spec.sweep {
                let vals: Vec<String> =
                    s.values.iter().map(|v| v.as_f64().map(|f| format!("{f}")).unwrap()).collect();
                let want =
                    vals.iter().map(|v| thousands(v.parse::<f64>().unwrap() as usize)).collect::<Vec<_>>();
                let ok = text.contains(&vals.join(", ")) || text.contains(&want.join(", "));
                assert!(ok, "{}: sweep {vals:?} not in {text}", p.id);
            }
            match &spec.measure {
                Measure::Online { policies } => {
                    assert!(
                        text.contains(&format!("T = {}", thousands(spec.params.horizon))),
                        "{}: {text}",
                        p.id
                    );
                    assert!(text.contains(&format!("n_eval = {}", thousands(spec.params.n_eval))), "{text}");
                    let parts: Vec<&str> = text.split(", ").collect();
                    for k in csc_engine::online::PolicyKind::ALL {
                        assert_eq!(
                            parts.contains(&k.label()),
                            policies.contains(&k),
                            "{}: {k:?} in {text}",
                            p.id
                        );
                    }
                }
                Measure::Offline { .. } => {
                    assert!(text.contains(&format!("n_eval = {}", thousands(spec.params.n_eval))), "{text}");
                }
                Measure::Geometry { stream } => assert!(text.contains(&thousands(*stream)), "{text}"),
                Measure::Frontier { .. } | Measure::Tenants { .. } | Measure::Attack { .. } => {
                    panic!("{}: no paper preset is a frontier, tenants or attack experiment", p.id)
                }
            }
        }
        // The quick run's first unit resolves to the parameters the description states.
        let spec = quick_spec(p.id).unwrap();
        let unit = spec.units()[0].clone();
        let mut small = spec.clone();
        if matches!(small.measure, Measure::Online { .. }) {
            // One round per policy is enough to see the resolved parameters.
            small.params.horizon = 50;
        }
        let d = dataset(&spec.dataset);
        let r = run_unit(&small, &unit, &d, &mut |_| true).unwrap();
        let mut want = spec.unit_params(&unit).unwrap();
        if matches!(small.measure, Measure::Online { .. }) {
            want.horizon = 50;
        }
        if let Measure::Geometry { stream } = spec.measure {
            want.horizon = stream;
        }
        assert_eq!(r.params.n_eval, want.n_eval, "{}", p.id);
        assert_eq!(
            (r.params.k, r.params.epsilon, r.params.log_len),
            (want.k, want.epsilon, want.log_len),
            "{}",
            p.id
        );
        assert_eq!(r.params.horizon, want.horizon, "{}", p.id);
    }
}
