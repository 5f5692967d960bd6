//! The tune run's definition on a dataset, its title, the checks of its data, and the
//! `csc tune-threshold` command that gives an answer.

use super::target::{tune_taus, Target, TUNE_BETAS, TUNE_DELTAS, TUNE_SEEDS};
use crate::config::Params;
use crate::dataset::Dataset;
use crate::experiment::definition::builtins::values;
use crate::experiment::{DatasetId, ExperimentSpec, Family, Measure};
use crate::online::PolicyKind;
use crate::{Error, Result};

/// The experiment `csc tune-threshold` and the page run (the frontier's measure, SPEC §14, at the
/// frontier's quick settings, k = 50, T = 1,000, n_eval = 1,000, [`TUNE_SEEDS`] seeds; synthetic at
/// its k = 10, [`crate::experiment::frontier::SYNTHETIC_FRONTIER_K`]): the threshold cache over [`tune_taus`], vCache
/// over [`TUNE_DELTAS`] and CLCB-SC-LS-Cont over [`TUNE_BETAS`].
pub fn tune_definition(dataset: DatasetId) -> Result<ExperimentSpec> {
    let synthetic = matches!(dataset.builtin(), Ok(Some(DatasetId::Synthetic)));
    let k = if synthetic { crate::experiment::frontier::SYNTHETIC_FRONTIER_K } else { 50 };
    let params = Params { k, horizon: 1000, n_eval: 1000, ..Params::default() };
    let name = crate::experiment::definition::presets::dataset_name(&dataset);
    let spec = ExperimentSpec {
        id: "tune-threshold".into(),
        title: tune_title(&name, &params, TUNE_SEEDS),
        dataset,
        measure: Measure::Frontier {
            families: vec![
                Family::sweep(PolicyKind::Threshold, "threshold_tau", values(&tune_taus())),
                Family::sweep(PolicyKind::VCache, "vcache_delta", values(&TUNE_DELTAS)),
                Family::sweep(PolicyKind::ClcbScLsCont, "beta", values(&TUNE_BETAS)),
            ],
        },
        sweep: None,
        params,
        seeds: TUNE_SEEDS,
        first_seed: 0,
    };
    spec.validate()?;
    Ok(spec)
}

/// The `csc tune-threshold` command that gives `target`'s answer on the run of `spec` (the same
/// engine on the same data gives the same answer, bit for bit):
///
/// - `spec` is [`tune_definition`] of a built-in dataset changed at most in its parameters, seeds
///   and first seed: flags, `--dataset` (but for nq-trivia, the command's default), `--seeds`,
///   `--first-seed` and one `--set key=value` per parameter that differs;
/// - anything else (an arrival model, the user's data, an edited definition):
///   `csc tune-threshold <definition_file>`, where the file holds `spec` as JSON.
///
/// The target is `--precision P` or `--error-rate E` (`f64`'s shortest text, which round-trips).
pub fn tune_command(spec: &ExperimentSpec, target: Target, definition_file: &str) -> String {
    let flag = match target {
        Target::Precision(p) => format!("--precision {p}"),
        Target::ErrorRate(e) => format!("--error-rate {e}"),
    };
    let builtin = match spec.dataset {
        DatasetId::Synthetic | DatasetId::NqTrivia | DatasetId::Plane => {
            tune_definition(spec.dataset.clone()).ok()
        }
        DatasetId::Spec(_) => None,
    };
    let flags = builtin.and_then(|base| {
        let same_otherwise = crate::experiment::run::reproduce::same_definition(
            &ExperimentSpec {
                title: base.title.clone(),
                params: base.params.clone(),
                seeds: base.seeds,
                first_seed: base.first_seed,
                ..spec.clone()
            },
            &base,
        );
        if !same_otherwise {
            return None;
        }
        let mut args = Vec::new();
        if spec.dataset != DatasetId::NqTrivia {
            args.push(format!(
                "--dataset {}",
                crate::experiment::definition::presets::dataset_name(&spec.dataset)
            ));
        }
        args.extend(crate::experiment::run::reproduce::run_flags(spec, &base)?);
        Some(args)
    });
    match flags {
        Some(args) => {
            std::iter::once(format!("csc tune-threshold {flag}")).chain(args).collect::<Vec<_>>().join(" ")
        }
        None => format!(
            "csc tune-threshold {} {flag}",
            crate::experiment::run::reproduce::shell_word(definition_file)
        ),
    }
}

/// The title of a tune run from its settings: `Pick a threshold on nq-trivia (k = 50, T = 1,000,
/// n_eval = 1,000, 4 seeds)`.
pub fn tune_title(dataset: &str, p: &Params, seeds: usize) -> String {
    format!(
        "Pick a threshold on {dataset} (k = {}, T = {}, n_eval = {}, {seeds} seed{})",
        p.k,
        crate::experiment::stats::num(p.horizon as f64),
        crate::experiment::stats::num(p.n_eval as f64),
        if seeds == 1 { "" } else { "s" }
    )
}

/// Refuses data without ground truth with one plain message (before anything runs).
pub fn check_tune_data(dataset: &Dataset) -> Result<()> {
    match dataset.ground_truth.absent_reason() {
        None => Ok(()),
        Some(why) => Err(no_ground_truth(why)),
    }
}

/// The one message refusing data without ground truth, `why` being the dataset's reason
/// (`DatasetInfo::no_ground_truth`, SPEC §14).
pub fn no_ground_truth(why: &str) -> Error {
    Error::unsupported(format!(
        "cannot pick a threshold: {why}; hit precision and error rate need the answers' ground \
         truth (SPEC §14): use nq-trivia, synthetic, or a file with `answers` or `label` on every record"
    ))
}

/// `1 − (D·τ)²/2`: the cosine similarity of unit rows at normalised distance `τ` (SPEC §15).
pub fn cosine_of(tau: f64, dist_scale: f64) -> f64 {
    1.0 - (dist_scale * tau).powi(2) / 2.0
}
