//! `csc tune-threshold`: the engine's "pick a threshold, defensibly"
//! (`csc_engine::experiment::tune`) on a dataset — the threshold cache's τ with the largest hit
//! ratio whose one-sided 95% Clopper–Pearson bound meets the target on the selection seeds,
//! reported on the other seeds. Every word printed is the engine's.

use super::{apply_sets, dataset_flags, err, load_dataset, read_definition, rename_for, DataArgs, Res};
use clap::Args;
use csc_engine::experiment::tune::{check_tune_data, tune_definition, tune_title, Target};
use csc_engine::experiment::{run_unit, DatasetId, Report};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// A tune run's definition (JSON, as the page saves it beside its command); default: the
    /// engine's tune experiment on nq-trivia. The flags below change either.
    #[arg(value_name = "DEFINITION")]
    definition: Option<PathBuf>,
    /// The target: hit precision (correct hits over hits) at least P, P in (0, 1].
    #[arg(long, value_name = "P", allow_negative_numbers = true, conflicts_with = "error_rate")]
    precision: Option<f64>,
    /// The target: error rate (wrong hits over requests, SPEC §14) at most E, E in [0, 1).
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    error_rate: Option<f64>,
    #[command(flatten)]
    data: DataArgs,
    /// Override a parameter: --set horizon=2000 (repeatable; JSON values).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Number of seeds (default 4: the first half chooses τ, the second reports on it).
    #[arg(long)]
    seeds: Option<usize>,
    /// First seed.
    #[arg(long)]
    first_seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the answer as JSON (csc_engine::experiment::tune::TuneAnswer).
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Also write the run's report (the frontier of the τ, δ and β sweeps) to this file.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
}

pub fn tune(a: &TuneArgs) -> Res<()> {
    // The target first: a bad one is refused before any data is read.
    let target = match (a.precision, a.error_rate) {
        (Some(p), None) => Target::new("precision", p).map_err(err)?,
        (None, Some(e)) => Target::new("error_rate", e).map_err(err)?,
        _ => {
            return Err(
                "give a target: --precision P (hit precision ≥ P) or --error-rate E (error rate ≤ E)".into()
            )
        }
    };
    let flags = &a.data;
    let (mut spec, base) = match &a.definition {
        Some(path) => read_definition(path)?,
        None => (tune_definition(DatasetId::NqTrivia).map_err(err)?, PathBuf::new()),
    };
    if dataset_flags(&mut spec, flags)? && a.definition.is_none() {
        // synthetic's own k (the definition's rule for its dataset)
        spec.params.k = tune_definition(spec.dataset.clone()).map_err(err)?.params.k;
    }
    // a definition's files are read from its folder, unless --dataset names others
    let base = if flags.dataset.is_some() { PathBuf::new() } else { base };
    let dataset = load_dataset(&mut spec.dataset, &base, flags.data.as_deref(), spec.params.c_floor)?;
    check_tune_data(&dataset).map_err(err)?;
    if let Some(s) = a.seeds {
        if s < 2 {
            return Err(
                "--seeds: at least 2, one half to choose τ on and one to report on (4 or more are better)"
                    .into(),
            );
        }
        spec.seeds = s;
    }
    if let Some(s) = a.first_seed {
        spec.first_seed = s;
    }
    spec.params = apply_sets(spec.params.clone(), &a.set)?;
    // The title states the run's dataset and final settings.
    spec.title = tune_title(&dataset.name, &spec.params, spec.seeds);
    rename_for(&mut spec, &dataset);
    spec.validate().map_err(err)?;
    csc_engine::experiment::check_experiment_size(&spec).map_err(err)?;
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().map_err(err)?;
    }
    let units = spec.units();
    eprintln!(
        "{} — {} units, dataset {} ({} queries, checksum {})",
        spec.title,
        units.len(),
        dataset.name,
        dataset.len(),
        dataset.checksum
    );
    // Progress by units (each is one point of one family on one seed), on stderr.
    let bar = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(units.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} units ({eta} left)",
        )
        .map_err(err)?,
    );
    let results = units
        .par_iter()
        .map(|u| {
            let r = run_unit(&spec, u, &dataset, &mut |_| true).map_err(err);
            bar.inc(1);
            r
        })
        .collect::<Res<Vec<_>>>()?;
    bar.finish_and_clear();
    let report = Report::new(&spec, results);
    if let Some(p) = &a.report {
        super::run::write(p, &serde_json::to_string_pretty(&report).map_err(err)?)?;
        eprintln!("wrote {}", p.display());
    }
    let answer = report.tune_threshold(target).map_err(err)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&answer).map_err(err)?);
        return Ok(());
    }
    println!("{}\nTarget: {} ({}, one-sided 95%).\n", spec.title, target.words(), answer.bound);
    for s in &answer.sentences {
        println!("{s}");
    }
    println!("\nEvery τ on the selection seeds:");
    println!("{:>6} {:>8} {:>10} {:>14}  meets", "τ", "cosine", "hit ratio", "95% bound");
    for r in &answer.rows {
        println!(
            "{:>6} {:>8.4} {:>10.4} {:>14.4}  {}",
            r.tau,
            r.cosine,
            r.hit_ratio,
            r.bound,
            if r.meets { "yes" } else { "no" }
        );
    }
    println!("\n{}", answer.method);
    Ok(())
}
