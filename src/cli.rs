//! The command-line interface (native only; I/O lives here, never in the engine).

use clap::{Parser, Subcommand};
use csc::config::Params;
use csc::dataset::{nq_trivia, plane, synthetic, Dataset};
use csc::experiment::{builtin, run_unit, DatasetId, ExperimentSpec, Report, BUILTIN_IDS};
use csc::online::{sim::run_trace, PolicyKind};
use csc::stream::{generate_trace, ArrivalModel};
use csc::trace::Trace;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Parser)]
#[command(name = "csc", version, about = "Continuous semantic caching: experiments, traces, replay")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the built-in experiments (SPEC §10).
    List,
    /// Print the default parameters (SPEC defaults) as JSON.
    Config,
    /// Run an experiment by id (fig-a … fig-f, abl-k, krr-err) or from a JSON definition.
    Run {
        /// Experiment id or path to a JSON experiment definition.
        experiment: String,
        /// Number of seeds (default: the experiment's).
        #[arg(long)]
        seeds: Option<usize>,
        /// First seed.
        #[arg(long)]
        first_seed: Option<u64>,
        /// Run only the deterministic slice i/n (0-based i) of the units.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Override a parameter: --set horizon=2000 (repeatable; JSON values).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Output folder for <id>.json and <id>.csv.
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Folder of the shared NQ/TriviaQA data (default: $CSC_DATA or ../shared/data).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Join shard outputs of one experiment into one report.
    Merge {
        files: Vec<PathBuf>,
        #[arg(long, default_value = "results")]
        out: PathBuf,
    },
    /// Write the trace (SPEC §12) of a generated run.
    Trace {
        #[arg(long, default_value = "synthetic")]
        dataset: String,
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        #[arg(long)]
        data: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Replay online policies on a trace (SPEC §12) and print their metrics.
    Replay {
        trace: PathBuf,
        /// Comma-separated policy ids (default: all).
        #[arg(long)]
        policies: Option<String>,
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Also write the results as JSON here.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

type Res<T> = Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn apply_sets(mut p: Params, sets: &[String]) -> Res<Params> {
    for s in sets {
        p = p.apply_set(s).map_err(|e| format!("--set {s}: {e}"))?;
    }
    Ok(p)
}

fn load_dataset(id: DatasetId, data: Option<&Path>, c_floor: f64) -> Res<Arc<Dataset>> {
    Ok(Arc::new(match id {
        DatasetId::Synthetic => synthetic::universe(c_floor).map_err(err)?,
        DatasetId::Plane => plane::universe().map_err(err)?,
        DatasetId::NqTrivia => {
            let dir = data.map(Path::to_path_buf).unwrap_or_else(nq_trivia::default_dir);
            nq_trivia::load(&dir, nq_trivia::PER_SOURCE, c_floor).map_err(err)?
        }
    }))
}

fn parse_dataset(name: &str) -> Res<DatasetId> {
    serde_json::from_value(serde_json::Value::String(name.into()))
        .map_err(|_| format!("unknown dataset `{name}`; known: synthetic, nq-trivia, plane"))
}

fn write(path: &Path, text: &str) -> Res<()> {
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
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run(
    experiment: &str,
    seeds: Option<usize>,
    first_seed: Option<u64>,
    shard: Option<&str>,
    set: &[String],
    out: &Path,
    data: Option<&Path>,
    threads: Option<usize>,
    quiet: bool,
) -> Res<()> {
    let mut spec = if Path::new(experiment).is_file() {
        ExperimentSpec::from_json(&std::fs::read_to_string(experiment).map_err(err)?).map_err(err)?
    } else {
        builtin(experiment).map_err(err)?
    };
    if let Some(s) = seeds {
        spec.seeds = s;
    }
    if let Some(s) = first_seed {
        spec.first_seed = s;
    }
    spec.params = apply_sets(spec.params.clone(), set)?;
    spec.validate().map_err(err)?;
    csc::config::check_experiment_size(&spec).map_err(err)?;
    let (units, stem) = match shard {
        Some(s) => {
            let bad = |e: &dyn std::fmt::Display| format!("--shard expects I/N, e.g. 0/4, got `{s}` ({e})");
            let (i, n) = s.split_once('/').ok_or_else(|| bad(&"no `/`"))?;
            let (i, n): (usize, usize) =
                (i.trim().parse().map_err(|e| bad(&e))?, n.trim().parse().map_err(|e| bad(&e))?);
            (spec.shard(i, n).map_err(err)?, format!("{}.shard-{i}-of-{n}", spec.id))
        }
        None => (spec.units(), spec.id.clone()),
    };
    let dataset = load_dataset(spec.dataset, data, spec.params.c_floor)?;
    eprintln!(
        "{} — {} units, dataset {} ({} queries, checksum {})",
        spec.id,
        units.len(),
        dataset.name,
        dataset.len(),
        dataset.checksum
    );
    eprintln!("parameters: {}", serde_json::to_string(&spec.params).map_err(err)?);
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().map_err(err)?;
    }
    let per_unit: u64 = match &spec.measure {
        csc::experiment::Measure::Online { policies } => (policies.len() * spec.params.horizon) as u64,
        _ => 1,
    };
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(per_unit * units.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} ({eta} left) {msg}",
        )
        .map_err(err)?,
    );
    let done = AtomicU64::new(0);
    let results = units
        .par_iter()
        .map(|u| {
            let mut last = 0u64;
            let r = run_unit(&spec, u, &dataset, &mut |n| {
                bar.inc(n as u64 - last);
                last = n as u64;
                true
            });
            bar.inc(per_unit.saturating_sub(last));
            done.fetch_add(1, Ordering::Relaxed);
            bar.set_message(format!("{} units done", done.load(Ordering::Relaxed)));
            r
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    bar.finish_and_clear();
    let report = Report::new(&spec, results);
    println!("{}", report.summary());
    save(&report, out, &stem)
}

pub fn main() -> Res<()> {
    match Cli::parse().cmd {
        Cmd::List => {
            for id in BUILTIN_IDS {
                let s = builtin(id).map_err(err)?;
                println!("{id:8} {:>3} seeds  {}", s.seeds, s.title);
            }
            Ok(())
        }
        Cmd::Config => {
            println!("{}", Params::default().to_json());
            Ok(())
        }
        Cmd::Run { experiment, seeds, first_seed, shard, set, out, data, threads, quiet } => {
            run(&experiment, seeds, first_seed, shard.as_deref(), &set, &out, data.as_deref(), threads, quiet)
        }
        Cmd::Merge { files, out } => {
            let parts = files
                .iter()
                .map(|f| {
                    let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
                    serde_json::from_str::<Report>(&text).map_err(|e| format!("{}: {e}", f.display()))
                })
                .collect::<Res<Vec<_>>>()?;
            let report = Report::merge(parts).map_err(err)?;
            report.experiment.validate().map_err(err)?;
            csc::config::check_experiment_size(&report.experiment).map_err(err)?;
            let missing = report.missing_units();
            if !missing.is_empty() {
                eprintln!(
                    "warning: {} of {} units are missing",
                    missing.len(),
                    report.experiment.units().len()
                );
            }
            println!("{}", report.summary());
            let id = report.experiment.id.clone();
            save(&report, &out, &id)
        }
        Cmd::Trace { dataset, set, data, out } => {
            let params = apply_sets(Params::default(), &set)?;
            let d = load_dataset(parse_dataset(&dataset)?, data.as_deref(), params.c_floor)?;
            let trace =
                generate_trace(d.clone(), ArrivalModel::default_for(&d, &params), &params).map_err(err)?;
            write(&out, &trace.to_json())?;
            eprintln!("wrote {} (T = {}, |E| = {})", out.display(), trace.horizon(), trace.eval.len());
            Ok(())
        }
        Cmd::Replay { trace, policies, set, out } => {
            let text = std::fs::read_to_string(&trace).map_err(|e| format!("{}: {e}", trace.display()))?;
            let t = Trace::from_json(&text).map_err(err)?;
            let mut params = match t.meta.get("params") {
                Some(p) => serde_json::from_value::<Params>(p.clone()).unwrap_or_else(|e| {
                    eprintln!(
                        "note: the trace's meta.params are not this engine's ({e}); using the defaults"
                    );
                    Params::default()
                }),
                None => Params::default(),
            };
            params.horizon = t.horizon();
            let params = apply_sets(params, &set)?;
            let kinds = match policies {
                Some(s) => s.split(',').map(PolicyKind::parse).collect::<Result<Vec<_>, _>>().map_err(err)?,
                None => PolicyKind::ALL.to_vec(),
            };
            let results = run_trace(&t, &params, &kinds).map_err(err)?;
            println!(
                "{:<26}{:>14}{:>12}{:>10}{:>12}",
                "algorithm", "avg regret", "switches", "hit rate", "avg cost"
            );
            for r in &results {
                let l = &r.last;
                println!(
                    "{:<26}{:>14.6}{:>12}{:>10.3}{:>12.4}",
                    csc::online::sim::sized_label(&r.policy, l.cache_size as f64, params.k),
                    l.avg_regret,
                    l.switches,
                    l.hit_rate,
                    l.avg_realised_cost
                );
            }
            if let Some(o) = out {
                write(&o, &serde_json::to_string_pretty(&results).map_err(err)?)?;
            }
            Ok(())
        }
    }
}
