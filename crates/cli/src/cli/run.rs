//! `csc run` (an experiment, or one shard of it, resumable) and `csc merge` (shard reports into
//! the report of the whole run).

use super::shard::{self, Shard};
use super::units::{Found, UnitStore};
use super::{apply_sets, dataset_flags, err, load_dataset, read_definition, rename_for, DataArgs, Res};
use clap::Args;
use csc_engine::experiment::{builtin, run_unit, ExperimentSpec, Report, ShardInfo};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Args)]
pub struct RunArgs {
    /// Experiment id or path to a JSON experiment definition.
    experiment: String,
    /// Number of seeds (default: the experiment's).
    #[arg(long)]
    seeds: Option<usize>,
    /// First seed.
    #[arg(long)]
    first_seed: Option<u64>,
    /// Run only the deterministic slice I/N (0-based I) of the units. Without it, a Slurm array
    /// task or a Kubernetes Indexed Job takes its shard from the environment (docs/USAGE.md,
    /// "Sweeps on a cluster").
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// The number of shards, when the scheduler names only this run's index (a Kubernetes pod, a
    /// re-submitted Slurm array index); the environment variable CSC_SHARDS does the same.
    #[arg(long, value_name = "N")]
    shards: Option<usize>,
    /// Override a parameter: --set horizon=2000 (repeatable; JSON values).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Sweep one or two parameters over a grid instead of the experiment's own sweep (an online
    /// or offline experiment): 'epsilon=0.1,0.2,0.3;beta=0.5,1,2'. Units are cell × seed.
    #[arg(long, value_name = "NAME=V1,V2,…[;NAME2=W1,W2,…]")]
    grid: Option<String>,
    /// Output folder for <id>.json and <id>.csv (a shard's: <id>.shard-I-of-N.json), and for
    /// <id>.units/, each finished unit, which a re-run into the same folder does not run again.
    #[arg(long, default_value = "results")]
    out: PathBuf,
    #[command(flatten)]
    data: DataArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// At the quick settings of the page (fewer seeds, rounds and sweep values;
    /// `csc_engine::experiment::quick_spec`): a preset of the Paper view, or thy-horizon.
    #[arg(long)]
    quick: bool,
}

pub fn write(path: &Path, text: &str) -> Res<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn save(report: &Report, out: &Path, stem: &str) -> Res<()> {
    let json = serde_json::to_string_pretty(report).map_err(err)?;
    write(&out.join(format!("{stem}.json")), &json)?;
    write(&out.join(format!("{stem}.csv")), &report.to_csv())?;
    eprintln!("wrote {}/{stem}.json and .csv", out.display());
    if let Some(csv) = report.frontier_csv() {
        write(&out.join(format!("{stem}.frontier.csv")), &csv)?;
        write(&out.join(format!("{stem}.summary.txt")), &report.summary())?;
        eprintln!("wrote {}/{stem}.frontier.csv (chart data) and .summary.txt (table)", out.display());
    }
    if let Some(csv) = report.pchr_csv() {
        write(&out.join(format!("{stem}.pchr.csv")), &csv)?;
        eprintln!("wrote {}/{stem}.pchr.csv (hit precision against cache-hit ratio, AUCs)", out.display());
    }
    Ok(())
}

/// The definition `a` names, with the command line's changes applied and its dataset loaded.
fn definition(a: &RunArgs) -> Res<(ExperimentSpec, std::sync::Arc<csc_engine::dataset::Dataset>)> {
    let (flags, experiment) = (&a.data, a.experiment.as_str());
    let (mut spec, base) = if Path::new(experiment).is_file() {
        read_definition(Path::new(experiment))?
    } else if a.quick {
        if !csc_engine::experiment::definition::registry::has_quick(experiment) {
            return Err(format!(
                "--quick: `{experiment}` has no quick settings (the Paper view's presets and thy-horizon; `csc list`)"
            ));
        }
        (csc_engine::experiment::quick_spec(experiment).map_err(err)?, PathBuf::new())
    } else {
        (builtin(experiment).map_err(err)?, PathBuf::new())
    };
    if a.quick && Path::new(experiment).is_file() {
        return Err("--quick goes with a built-in experiment id, not a definition file".into());
    }
    dataset_flags(&mut spec, flags)?;
    let base = if flags.dataset.is_some() { PathBuf::new() } else { base };
    let dataset = load_dataset(&mut spec.dataset, &base, flags.data.as_deref(), spec.params.c_floor)?;
    if let Some(s) = a.seeds {
        spec.seeds = s;
    }
    if let Some(s) = a.first_seed {
        spec.first_seed = s;
    }
    spec.params = apply_sets(spec.params.clone(), &a.set)?;
    // A frontier's title states its settings: made from them once they are final.
    if !Path::new(experiment).is_file() || !a.set.is_empty() || a.seeds.is_some() {
        spec.retitle_frontier(&dataset.name);
    }
    rename_for(&mut spec, &dataset);
    if let Some(g) = &a.grid {
        let sweep = csc_engine::experiment::Sweep::parse(g).map_err(|e| format!("--grid: {e}"))?;
        spec.set_sweep(sweep).map_err(|e| format!("--grid: {e}"))?;
        spec.validate().map_err(|e| format!("--grid: {e}"))?;
    }
    spec.validate().map_err(err)?;
    csc_engine::experiment::check_experiment_size(&spec).map_err(err)?;
    Ok((spec, dataset))
}

pub fn run(a: &RunArgs) -> Res<()> {
    // the shard first: a scheduler's layout that cannot be mapped fails before any work
    let shard = shard::resolve(a.shard.as_deref(), a.shards, &|k| std::env::var(k).ok())?;
    let (spec, dataset) = definition(a)?;
    let (units, stem) = match &shard {
        Some(Shard { index, count, source }) => {
            eprintln!("shard {index} of {count} (from {source})");
            (spec.shard(*index, *count).map_err(err)?, format!("{}.shard-{index}-of-{count}", spec.id))
        }
        None => (spec.units(), spec.id.clone()),
    };
    eprintln!(
        "{} — {} units, dataset {} ({} queries, checksum {})",
        spec.id,
        units.len(),
        dataset.name,
        dataset.len(),
        dataset.checksum
    );
    eprintln!("parameters: {}", serde_json::to_string(&spec.params).map_err(err)?);

    // units already done by an earlier (preempted, cancelled) run into this folder
    let store = UnitStore::new(&a.out, &spec, &dataset.checksum);
    let mut done = Vec::new();
    let mut todo = Vec::new();
    for u in &units {
        match store.load(u) {
            Found::Done(r) => done.push(*r),
            Found::Absent => todo.push(u.clone()),
            Found::Stale(why) => {
                eprintln!(
                    "note: {} is {why}: running unit {} again",
                    store.dir.join(format!("unit-{}.json", u.index)).display(),
                    u.index
                );
                todo.push(u.clone());
            }
        }
    }
    if !done.is_empty() {
        eprintln!(
            "resuming: skipped {} of {} units already done in {}",
            done.len(),
            units.len(),
            store.dir.display()
        );
    }

    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().map_err(err)?;
    }
    let per_unit: u64 = match &spec.measure {
        csc_engine::experiment::Measure::Online { policies } => (policies.len() * spec.params.horizon) as u64,
        csc_engine::experiment::Measure::Tenants { policies } => {
            (3 * policies.len() * spec.params.horizon) as u64
        }
        csc_engine::experiment::Measure::Attack { policies, p, .. } => {
            (p.len() * policies.len() * spec.params.horizon) as u64
        }
        _ => 1,
    };
    let bar = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(per_unit * todo.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} ({eta} left) {msg}",
        )
        .map_err(err)?,
    );
    let finished = AtomicU64::new(0);
    let results = todo
        .par_iter()
        .map(|u| {
            let mut last = 0u64;
            let r = run_unit(&spec, u, &dataset, &mut |n| {
                bar.inc(n as u64 - last);
                last = n as u64;
                true
            })
            .map_err(err)?;
            // on disk as soon as it is done: a run stopped later keeps it
            store.save(&r)?;
            bar.inc(per_unit.saturating_sub(last));
            finished.fetch_add(1, Ordering::Relaxed);
            bar.set_message(format!("{} units done", finished.load(Ordering::Relaxed)));
            Ok(r)
        })
        .collect::<Res<Vec<_>>>()?;
    bar.finish_and_clear();
    done.extend(results);
    let mut report = Report::new(&spec, done);
    report.shard = shard.as_ref().map(|s| ShardInfo { index: s.index, count: s.count });
    println!("{}", report.summary());
    save(&report, &a.out, &stem)?;
    if shard.is_none() {
        // the whole report holds every unit: its unit files have served their purpose
        store.remove(&units);
    }
    Ok(())
}

/// `csc merge`: shard reports (each named by its file in messages) into the report of the whole
/// run, refused while units are missing unless `partial`.
pub fn merge(files: &[PathBuf], out: &Path, partial: bool) -> Res<()> {
    let parts = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)
                .map_err(|e| format!("cannot read {} ({e}); give the shard reports' paths", f.display()))?;
            let r = serde_json::from_str::<Report>(&text).map_err(|e| {
                format!("{} is not a csc report ({e}); give the .json files `csc run` wrote", f.display())
            })?;
            Ok((f.display().to_string(), r))
        })
        .collect::<Res<Vec<_>>>()?;
    let counts: Vec<usize> = parts.iter().filter_map(|(_, r)| r.shard.map(|s| s.count)).collect();
    let report = Report::merge_named(parts).map_err(err)?;
    report.experiment.validate().map_err(err)?;
    csc_engine::experiment::check_experiment_size(&report.experiment).map_err(err)?;
    let missing = report.missing_units();
    if !missing.is_empty() {
        let total = report.experiment.units().len();
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
        let mut msg = format!(
            "{} of {total} units of `{}` are missing: {}",
            missing.len(),
            report.experiment.id,
            list(&missing)
        );
        // the shards they belong to, when the parts say how the run was split
        if let Some(&n) = counts.first().filter(|_| counts.iter().all(|&c| c == counts[0])) {
            let mut shards: Vec<usize> = missing.iter().map(|i| i % n).collect();
            shards.dedup();
            shards.sort_unstable();
            shards.dedup();
            msg.push_str(&format!(
                " (shard{} {} of {n}: re-run {} — `csc run … --shard I/{n}`, or re-submit {} array index)",
                if shards.len() == 1 { "" } else { "s" },
                list(&shards),
                if shards.len() == 1 { "it" } else { "them" },
                if shards.len() == 1 { "its" } else { "their" },
            ));
        }
        if !partial {
            return Err(format!("{msg}; or pass --partial to write the incomplete report"));
        }
        eprintln!("warning: {msg}");
    }
    println!("{}", report.summary());
    let id = report.experiment.id.clone();
    save(&report, out, &id)
}
