//! The command-line interface (native only; I/O lives here, never in the engine).

use clap::{Args, Parser, Subcommand};
use csc::config::Params;
use csc::dataset::Dataset;
use csc::experiment::{builtin, run_unit, DatasetId, DatasetSpec, ExperimentSpec, Report, BUILTIN_IDS};
use csc::online::{sim::run_trace, PolicyKind};
use csc::stream::{generate_trace, resolve_arrival, ArrivalSpec};
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

/// Which data, and how it arrives (every command that generates arrivals).
#[derive(Args, Default)]
struct DataArgs {
    /// A built-in dataset (synthetic, nq-trivia, plane) or the path of your JSONL, one
    /// {"id"?, "text", "tokens", "embedding"?} per line. `run`: replaces the experiment's dataset.
    #[arg(long)]
    dataset: Option<String>,
    /// Raw little-endian float32 embeddings, one row per JSONL record (with --dataset FILE).
    #[arg(long, value_name = "FILE")]
    embeddings: Option<PathBuf>,
    /// Dimension of the --embeddings rows (inferred from the record count if left out).
    #[arg(long)]
    dim: Option<usize>,
    /// Arrival model: uniform, bursty, popularity, replay (or plane); default: the dataset's
    /// SPEC §7 model (uniform for your files).
    #[arg(long)]
    arrival: Option<String>,
    /// The record field whose values are the groups of `--arrival bursty` (e.g. source).
    #[arg(long, value_name = "FIELD")]
    group_by: Option<String>,
    /// An index file of arrivals for `--arrival replay`: one record id (or row number from 0,
    /// when the JSONL has no ids) per line, in arrival order; T is its number of lines.
    #[arg(long, value_name = "FILE")]
    replay_index: Option<PathBuf>,
    /// Folder of the shared NQ/TriviaQA data (default: $CSC_DATA, else ../shared/data from the
    /// working directory).
    #[arg(long)]
    data: Option<PathBuf>,
}

impl DataArgs {
    /// The dataset these flags select, or `None` to keep the experiment's own.
    fn dataset_id(&self) -> Res<Option<DatasetId>> {
        let mut arrival = match &self.arrival {
            Some(a) => Some(ArrivalSpec::parse(a, self.group_by.as_deref()).map_err(err)?),
            None if self.group_by.is_some() => return Err("--group-by goes with --arrival bursty".into()),
            None => None,
        };
        if let Some(p) = &self.replay_index {
            let Some(ArrivalSpec::Replay { index, .. }) = &mut arrival else {
                return Err("--replay-index goes with --arrival replay".into());
            };
            // read from the working directory, whatever folder the experiment's files are in
            let p = if self.dataset.is_none() { std::path::absolute(p).map_err(err)? } else { p.clone() };
            *index = Some(p.display().to_string());
        }
        let Some(name) = &self.dataset else {
            if self.embeddings.is_some() || self.dim.is_some() {
                return Err("--embeddings and --dim go with --dataset FILE.jsonl".into());
            }
            return Ok(arrival
                .map(|a| DatasetId::Spec(Box::new(DatasetSpec { arrival: Some(a), ..Default::default() }))));
        };
        let builtin = !Path::new(name).exists() && DatasetId::parse(name).is_ok();
        let spec = if builtin {
            if self.embeddings.is_some() || self.dim.is_some() {
                return Err(format!(
                    "`{name}` is a built-in dataset; --embeddings and --dim go with your own JSONL"
                ));
            }
            match arrival {
                None => return Ok(Some(DatasetId::parse(name).map_err(err)?)),
                Some(a) => {
                    DatasetSpec { builtin: Some(name.clone()), arrival: Some(a), ..Default::default() }
                }
            }
        } else {
            if !Path::new(name).is_file() {
                return Err(format!(
                    "unknown dataset `{name}`: not a built-in (synthetic, nq-trivia, plane) and no such file; give a built-in's name or the path of your JSONL"
                ));
            }
            DatasetSpec {
                jsonl: Some(name.clone()),
                embeddings: self.embeddings.as_ref().map(|p| p.display().to_string()),
                dim: self.dim,
                arrival,
                ..Default::default()
            }
        };
        let id = DatasetId::Spec(Box::new(spec));
        id.validate().map_err(err)?;
        Ok(Some(id))
    }
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
        #[command(flatten)]
        data: DataArgs,
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
        #[command(flatten)]
        data: DataArgs,
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
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

/// Reads `id` (files relative to `base`) with the index file of arrivals its `replay` model
/// names, and records their checksums in `id`.
fn load_dataset(id: &mut DatasetId, base: &Path, data: Option<&Path>, c_floor: f64) -> Res<Arc<Dataset>> {
    let mut d = id.load(base, data, c_floor).map_err(err)?;
    id.record_checksum(&d);
    if let Some(p) = id.arrival().and_then(ArrivalSpec::replay_index) {
        let path = base.join(p);
        let bytes = std::fs::read(&path).map_err(|e| {
            format!("cannot read the replay index {} ({e}); check the path (--replay-index FILE, \"index\" in JSON)", path.display())
        })?;
        let name = path.file_name().map_or(p.to_string(), |n| n.to_string_lossy().into_owned());
        d.set_replay_index(&name, &bytes).map_err(err)?;
        if let DatasetId::Spec(s) = id {
            if let Some(ArrivalSpec::Replay { index_checksum, .. }) = &mut s.arrival {
                if index_checksum.is_none() {
                    *index_checksum = d.replay.as_ref().map(|r| r.checksum.clone());
                }
            }
        }
        // a recorded index checksum that no longer matches fails here, before any work
        resolve_arrival(id.arrival(), &d, &mut Params::default()).map_err(err)?;
    }
    Ok(Arc::new(d))
}

/// The experiment's dataset replaced by (or given the arrival model of) the command line's.
fn override_dataset(spec: &mut ExperimentSpec, flags: &DataArgs) -> Res<()> {
    let Some(mut id) = flags.dataset_id()? else { return Ok(()) };
    if flags.dataset.is_none() {
        // only --arrival: the experiment's own built-in, with that model
        let name: String = match spec.dataset.builtin().map_err(err)? {
            Some(DatasetId::Synthetic) => "synthetic".into(),
            Some(DatasetId::NqTrivia) => "nq-trivia".into(),
            Some(DatasetId::Plane) => "plane".into(),
            _ => {
                let DatasetId::Spec(own) = &mut spec.dataset else { unreachable!() };
                own.arrival = id.arrival().cloned();
                return Ok(());
            }
        };
        if let DatasetId::Spec(s) = &mut id {
            s.builtin = Some(name);
        }
    }
    spec.dataset = id;
    Ok(())
}

/// Titles and ids of built-in experiments name their data: on other data, name that instead.
fn rename_for(spec: &mut ExperimentSpec, dataset: &Dataset) {
    if !dataset.user {
        return;
    }
    for b in ["nq-trivia", "synthetic", "plane"] {
        spec.title = spec.title.replace(b, &dataset.name);
    }
    if !spec.title.contains(&dataset.name) {
        spec.title = format!("{} ({})", spec.title, dataset.name);
    }
    let stem = Path::new(&dataset.name)
        .file_stem()
        .map_or(dataset.name.clone(), |s| s.to_string_lossy().into_owned());
    if !spec.id.ends_with(&format!("-{stem}")) && BUILTIN_IDS.contains(&spec.id.as_str()) {
        spec.id = format!("{}-{stem}", spec.id);
    }
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
    if let Some(csv) = report.frontier_csv() {
        write(&out.join(format!("{stem}.frontier.csv")), &csv)?;
        write(&out.join(format!("{stem}.summary.txt")), &report.summary())?;
        eprintln!("wrote {}/{stem}.frontier.csv (chart data) and .summary.txt (table)", out.display());
    }
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
    flags: &DataArgs,
    threads: Option<usize>,
    quiet: bool,
) -> Res<()> {
    let (mut spec, base) = if Path::new(experiment).is_file() {
        let text = std::fs::read_to_string(experiment).map_err(|e| format!("{experiment}: {e}"))?;
        let spec = ExperimentSpec::from_json(&text).map_err(|e| format!("{experiment}: {e}"))?;
        (spec, Path::new(experiment).parent().map(Path::to_path_buf).unwrap_or_default())
    } else {
        (builtin(experiment).map_err(err)?, PathBuf::new())
    };
    if flags.dataset.is_some() || flags.arrival.is_some() {
        override_dataset(&mut spec, flags)?;
    } else if flags.embeddings.is_some()
        || flags.dim.is_some()
        || flags.group_by.is_some()
        || flags.replay_index.is_some()
    {
        return Err(
            "--embeddings, --dim, --group-by and --replay-index go with --dataset FILE / --arrival".into()
        );
    }
    let base = if flags.dataset.is_some() { PathBuf::new() } else { base };
    let dataset = load_dataset(&mut spec.dataset, &base, flags.data.as_deref(), spec.params.c_floor)?;
    rename_for(&mut spec, &dataset);
    if let Some(s) = seeds {
        spec.seeds = s;
    }
    if let Some(s) = first_seed {
        spec.first_seed = s;
    }
    spec.params = apply_sets(spec.params.clone(), set)?;
    spec.validate().map_err(err)?;
    csc::experiment::check_experiment_size(&spec).map_err(err)?;
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
            run(&experiment, seeds, first_seed, shard.as_deref(), &set, &out, &data, threads, quiet)
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
            csc::experiment::check_experiment_size(&report.experiment).map_err(err)?;
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
        Cmd::Trace { data, set, out } => {
            let mut params = apply_sets(Params::default(), &set)?;
            let mut id = data.dataset_id()?.unwrap_or(DatasetId::Synthetic);
            if data.dataset.is_none() {
                if let DatasetId::Spec(s) = &mut id {
                    s.builtin = Some("synthetic".into());
                }
            }
            let d = load_dataset(&mut id, Path::new(""), data.data.as_deref(), params.c_floor)?;
            let model = resolve_arrival(id.arrival(), &d, &mut params).map_err(err)?;
            let trace = generate_trace(d.clone(), model, &params).map_err(err)?;
            write(&out, &trace.to_json())?;
            eprintln!("wrote {} (T = {}, |E| = {})", out.display(), trace.horizon(), trace.eval.len());
            Ok(())
        }
        Cmd::Replay { trace, policies, set, out } => {
            let text = std::fs::read_to_string(&trace).map_err(|e| format!("{}: {e}", trace.display()))?;
            let t = Trace::from_json(&text).map_err(err)?;
            if let Some(d) = t.meta.get("dataset") {
                let field = |k: &str| d.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
                println!("dataset {} (checksum {})", field("name"), field("checksum"));
            }
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
                // Every policy that can run on the trace (vCache needs ground truth labels).
                None => {
                    let labelled = (0..t.horizon()).all(|i| t.label(i).is_some());
                    PolicyKind::ALL.into_iter().filter(|k| labelled || !k.needs_labels()).collect()
                }
            };
            let results = run_trace(&t, &params, &kinds).map_err(err)?;
            println!(
                "{:<26}{:>14}{:>12}{:>10}{:>12}{:>12}{:>15}",
                "algorithm", "avg regret", "switches", "hit rate", "avg cost", "error rate", "hit precision"
            );
            // SPEC §14: "—" where the trace carries no ground truth (or, for precision, no hits).
            let opt =
                |v: Option<f64>, digits: usize| v.map_or("—".to_string(), |v| format!("{v:.digits$}"));
            for r in &results {
                let l = &r.last;
                println!(
                    "{:<26}{:>14.6}{:>12}{:>10.3}{:>12.4}{:>12}{:>15}",
                    csc::online::sim::sized_label(&r.policy, l.cache_size as f64, params.k),
                    l.avg_regret,
                    l.switches,
                    l.hit_rate,
                    l.avg_realised_cost,
                    opt(l.error_rate, 4),
                    opt(l.hit_precision, 3)
                );
            }
            if !t.has_labels() {
                println!("error rate, hit precision: — (the trace has no labels, SPEC §14)");
            }
            if let Some(o) = out {
                write(&o, &serde_json::to_string_pretty(&results).map_err(err)?)?;
            }
            Ok(())
        }
    }
}
