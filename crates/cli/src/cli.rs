//! The command-line interface (native only; I/O lives here, never in the engine).

mod replay;
mod run;
mod shard;
mod tune;
mod units;

use clap::{Args, Parser, Subcommand};
use csc_engine::config::Params;
use csc_engine::dataset::Dataset;
use csc_engine::experiment::{builtin, DatasetId, DatasetSpec, ExperimentSpec, BUILTIN_IDS};
use csc_engine::stream::{generate_trace, resolve_arrival, ArrivalSpec};
use replay::ReplayArgs;
use run::RunArgs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tune::TuneArgs;

#[derive(Parser)]
#[command(
    name = "csc",
    version = csc_engine::VERSION,
    about = "Continuous semantic caching: experiments, traces, replay")]
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
    /// `--arrival tenants`: the number of tenants N (default 2), each with its own popularity.
    #[arg(long, value_name = "N")]
    tenants: Option<u32>,
    /// `--arrival tenants`: the overlap ω in [0, 1] of the tenants' popularities (the correlation
    /// of their log-popularities; default 0.5).
    #[arg(long, value_name = "OMEGA")]
    overlap: Option<f64>,
    /// `--arrival tenants` on your file: the record field whose values are the tenants.
    #[arg(long, value_name = "FIELD")]
    tenant_by: Option<String>,
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
        if self.tenants.is_some() || self.overlap.is_some() || self.tenant_by.is_some() {
            let Some(ArrivalSpec::Tenants { tenants, overlap, tenant_by }) = &mut arrival else {
                return Err("--tenants, --overlap and --tenant-by go with --arrival tenants".into());
            };
            (*tenants, *overlap, *tenant_by) = (self.tenants, self.overlap, self.tenant_by.clone());
        }
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
    /// List the built-in experiments (SPEC §10), the paper presets, every parameter with its
    /// default and reference, the arrival models and the datasets.
    List {
        /// Print, as JSON, the experiments' ids, the engine's list of algorithms (id, display
        /// name, description, paper reference, chart style) — what tools/plot_figures.py reads —
        /// and the presets, parameters, arrival models and datasets.
        #[arg(long)]
        json: bool,
    },
    /// Print the default parameters (SPEC defaults) as JSON.
    Config,
    /// Run an experiment by id (fig-a … fig-f, abl-k, krr-err) or from a JSON definition, or one
    /// shard of it (--shard, or the scheduler's array index); resumes from <out>/<id>.units/.
    Run(RunArgs),
    /// Join the shard reports of one run into the report of the whole run (refused while units
    /// are missing, naming them and their shards).
    Merge {
        /// The shard reports, <id>.shard-I-of-N.json.
        files: Vec<PathBuf>,
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Write the report even if units are missing (with a warning naming them).
        #[arg(long)]
        partial: bool,
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
    /// Replay online policies on a trace (SPEC §12), and the offline algorithms on its offline
    /// log, and print their metrics.
    Replay(ReplayArgs),
    /// Pick the threshold cache's τ defensibly: the largest hit ratio whose one-sided 95%
    /// Clopper–Pearson bound meets --precision P or --error-rate E on half the seeds, reported on
    /// the other half, with τ as a cosine, vCache's δ at the same target and the paper's saving.
    TuneThreshold(TuneArgs),
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

/// A definition file (`csc run FILE`, `csc tune-threshold FILE`), validated, and the folder its
/// relative paths are read from.
fn read_definition(path: &Path) -> Res<(ExperimentSpec, PathBuf)> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
    let spec = ExperimentSpec::from_json(&text).map_err(|e| at(&e))?;
    Ok((spec, path.parent().map(Path::to_path_buf).unwrap_or_default()))
}

/// The command line's data flags applied to `spec` ([`override_dataset`]); whether they changed
/// its dataset. The flags that describe a file need `--dataset FILE` or `--arrival`.
fn dataset_flags(spec: &mut ExperimentSpec, flags: &DataArgs) -> Res<bool> {
    if flags.dataset.is_some() || flags.arrival.is_some() {
        override_dataset(spec, flags)?;
        Ok(true)
    } else if flags.embeddings.is_some()
        || flags.dim.is_some()
        || flags.group_by.is_some()
        || flags.replay_index.is_some()
        || flags.tenants.is_some()
        || flags.overlap.is_some()
        || flags.tenant_by.is_some()
    {
        Err("--embeddings, --dim, --group-by, --replay-index, --tenants, --overlap and --tenant-by go with --dataset FILE / --arrival".into())
    } else {
        Ok(false)
    }
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

pub fn main() -> Res<()> {
    match Cli::parse().cmd {
        Cmd::List { json: true } => {
            let list = serde_json::json!({
                "experiments": BUILTIN_IDS,
                "policies": csc_engine::algorithms::PolicyKind::catalog(),
                "offline": csc_engine::algorithms::OfflineKind::catalog(),
                "presets": csc_engine::experiment::paper_presets(),
                "parameters": csc_engine::config::param_list(),
                "arrivals": csc_engine::stream::ARRIVALS,
                "datasets": csc_engine::dataset::DATASETS,
            });
            println!("{}", serde_json::to_string_pretty(&list).map_err(err)?);
            Ok(())
        }
        Cmd::List { json: false } => {
            println!("Experiments (csc run ID):");
            for id in BUILTIN_IDS {
                let s = builtin(id).map_err(err)?;
                println!("  {id:16} {:>3} seeds  {}", s.seeds, s.title);
            }
            println!("\nPaper presets (the page's Paper view; quick settings there):");
            for p in csc_engine::experiment::paper_presets() {
                println!("  {:16} {}", p.id, p.label);
            }
            println!("\nParameters (--set KEY=VALUE): default, what, reference:");
            for p in csc_engine::config::param_list() {
                let unit = if p.info.unit.is_empty() { String::new() } else { format!(" ({})", p.info.unit) };
                let default = match &p.default {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                println!(
                    "  {:16} {default:>14}  {}: {}{unit} [{}]",
                    p.info.id, p.info.symbol, p.info.name, p.info.reference
                );
            }
            println!("\nArrival models (--arrival):");
            for a in csc_engine::stream::ARRIVALS {
                println!("  {:16} {} [{}]", a.id, a.doc, a.reference);
            }
            println!("\nDatasets (--dataset; `upload` is the page's name for your own file):");
            for d in csc_engine::dataset::DATASETS {
                println!("  {:16} {} [{}]", d.id, d.doc, d.reference);
            }
            println!("\nReferences: §, eq., Alg. and Fig. are the paper's numbering; SPEC-NOTES#x is docs/SPEC-NOTES.md (docs/SPEC-NOTES.html#x in the page's bundle).");
            Ok(())
        }
        Cmd::Config => {
            println!("{}", Params::default().to_json());
            Ok(())
        }
        Cmd::Run(a) => run::run(&a),
        Cmd::Merge { files, out, partial } => run::merge(&files, &out, partial),
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
            let trace = generate_trace(d.clone(), model, &params.check().map_err(err)?).map_err(err)?;
            run::write(&out, &trace.to_json())?;
            eprintln!("wrote {} (T = {}, |E| = {})", out.display(), trace.horizon(), trace.eval.len());
            Ok(())
        }
        Cmd::Replay(a) => replay::replay(&a),
        Cmd::TuneThreshold(a) => tune::tune(&a),
    }
}
