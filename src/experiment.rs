//! Experiments of SPEC §10 and their aggregation over seeds.
//!
//! An experiment is a list of independent *units* (one sweep value × one seed), each a pure
//! function of (dataset, parameters, seed) producing observations `(algorithm, metric, x, value)`;
//! aggregation groups them into mean, standard deviation and 95% confidence interval per point.
//! No threads, clocks or files here: the native CLI runs units in parallel and writes files, the
//! browser runs them one at a time in a worker — the same code.

use crate::config::Params;
use crate::dataset::{Dataset, DatasetInfo};
use crate::error::{Error, Result};
use crate::offline::{OfflineKind, OfflineProblem};
use crate::online::sim::{Environment, Simulation};
use crate::online::PolicyKind;
use crate::stream::{generate_trace, resolve_arrival, ArrivalSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which dataset an experiment uses: a built-in by name (`"synthetic"`, `"nq-trivia"`,
/// `"plane"`) or a dataset object ([`DatasetSpec`]): the user's files, or a built-in with a
/// chosen arrival model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DatasetRepr", into = "DatasetRepr")]
pub enum DatasetId {
    Synthetic,
    NqTrivia,
    Plane,
    Spec(Box<DatasetSpec>),
}

/// A dataset object of an experiment definition:
/// `{"jsonl": "my.jsonl", "embeddings": "my.emb.f32", "dim": 384, "arrival": {"model": "replay"}}`
/// or `{"builtin": "nq-trivia", "arrival": {"model": "popularity"}}`. Relative paths are read
/// from the definition's folder (CLI). `checksum`, when given, must match the loaded data (the
/// CLI fills it in, so a report names exactly the data it ran on).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonl: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embeddings: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival: Option<ArrivalSpec>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum DatasetRepr {
    Name(String),
    Spec(DatasetSpec),
}

const BUILTIN_DATASETS: &str = "synthetic, nq-trivia, plane";

impl DatasetId {
    /// A built-in by name.
    pub fn parse(name: &str) -> Result<DatasetId> {
        match name {
            "synthetic" => Ok(DatasetId::Synthetic),
            "nq-trivia" => Ok(DatasetId::NqTrivia),
            "plane" => Ok(DatasetId::Plane),
            _ => Err(Error::unsupported(format!(
                "unknown dataset `{name}`; built-in: {BUILTIN_DATASETS}, or give a file (a dataset object with \"jsonl\")"
            ))),
        }
    }

    /// The built-in this names, if any (`None` for user files).
    pub fn builtin(&self) -> Result<Option<DatasetId>> {
        Ok(match self {
            DatasetId::Spec(s) => match (&s.builtin, &s.jsonl) {
                (Some(b), None) => Some(DatasetId::parse(b)?),
                (None, Some(_)) => None,
                _ => {
                    return Err(Error::param(
                        "dataset",
                        "a dataset object names either a built-in (\"builtin\") or a file (\"jsonl\"), exactly one",
                    ))
                }
            },
            d => Some(d.clone()),
        })
    }

    /// The arrival model chosen for it (`None`: the dataset's SPEC §7 default).
    pub fn arrival(&self) -> Option<&ArrivalSpec> {
        match self {
            DatasetId::Spec(s) => s.arrival.as_ref(),
            _ => None,
        }
    }

    /// Checks the object's shape (the files themselves are checked when read).
    pub fn validate(&self) -> Result<()> {
        let b = self.builtin()?;
        if let DatasetId::Spec(s) = self {
            if b.is_some() && (s.embeddings.is_some() || s.dim.is_some()) {
                return Err(Error::param("dataset", "`embeddings` and `dim` belong with `jsonl`"));
            }
            if s.dim == Some(0) {
                return Err(Error::param("dim", "the embedding dimension must be at least 1"));
            }
            if s.dim.is_some() && s.embeddings.is_none() {
                return Err(Error::param(
                    "dim",
                    "is the dimension of the `embeddings` file; give that file too",
                ));
            }
        }
        Ok(())
    }

    /// Whether the loaded `dataset` is the one this names (its checksum, when one is recorded).
    pub fn check_loaded(&self, dataset: &Dataset) -> Result<()> {
        if let DatasetId::Spec(s) = self {
            if let Some(c) = &s.checksum {
                if *c != dataset.checksum {
                    return Err(Error::at(
                        "",
                        format!(
                            "its data has checksum {} but the experiment was defined on data with checksum {c}; the file changed (drop \"checksum\" to accept it)",
                            dataset.checksum
                        ),
                    )
                    .in_file(&dataset.name));
                }
            }
        }
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl DatasetId {
    /// Reads the dataset (native): a built-in from the code or the data folder `data`
    /// (`--data`, `$CSC_DATA`, `../shared/data`), user files relative to `base` (the
    /// definition's folder; the working directory for command-line flags).
    pub fn load(
        &self,
        base: &std::path::Path,
        data: Option<&std::path::Path>,
        c_floor: f64,
    ) -> Result<Dataset> {
        use crate::dataset::{nq_trivia, plane, synthetic, UserFiles};
        let d = match self.builtin()? {
            Some(DatasetId::Synthetic) => synthetic::universe(c_floor)?,
            Some(DatasetId::Plane) => plane::universe()?,
            Some(DatasetId::NqTrivia) => {
                nq_trivia::load(&nq_trivia::data_dir(data), nq_trivia::PER_SOURCE, c_floor)?
            }
            Some(DatasetId::Spec(_)) => unreachable!("builtin() names a built-in"),
            None => {
                let DatasetId::Spec(s) = self else { unreachable!("only objects name files") };
                let jsonl_path = s.jsonl.as_deref().expect("builtin() checked it");
                let read = |p: &str| -> Result<(String, Vec<u8>)> {
                    let path = base.join(p);
                    let bytes = std::fs::read(&path).map_err(|e| {
                        Error::data(format!(
                            "cannot read {} ({e}); check the path (relative paths are read from {})",
                            path.display(),
                            if base.as_os_str().is_empty() {
                                "the working directory".to_string()
                            } else {
                                base.display().to_string()
                            }
                        ))
                    })?;
                    let name = path.file_name().map_or(p.to_string(), |n| n.to_string_lossy().into_owned());
                    Ok((name, bytes))
                };
                let (jname, jbytes) = read(jsonl_path)?;
                let emb = s.embeddings.as_deref().map(read).transpose()?;
                let files = UserFiles {
                    jsonl_name: &jname,
                    jsonl: &jbytes,
                    embeddings: emb.as_ref().map(|(n, b)| (n.as_str(), &b[..])),
                    dim: s.dim,
                    group_by: s.arrival.as_ref().and_then(ArrivalSpec::group_by),
                    replay_index: None, // read by the caller (`Dataset::set_replay_index`)
                };
                Dataset::from_user_files(&files, c_floor)?
            }
        };
        self.check_loaded(&d)?;
        Ok(d)
    }

    /// Records the loaded data's checksum in a dataset object (so results name exactly it).
    pub fn record_checksum(&mut self, dataset: &Dataset) {
        if let DatasetId::Spec(s) = self {
            if s.jsonl.is_some() {
                s.checksum = Some(dataset.checksum.clone());
            }
        }
    }
}

impl From<DatasetId> for DatasetRepr {
    fn from(d: DatasetId) -> Self {
        match d {
            DatasetId::Synthetic => DatasetRepr::Name("synthetic".into()),
            DatasetId::NqTrivia => DatasetRepr::Name("nq-trivia".into()),
            DatasetId::Plane => DatasetRepr::Name("plane".into()),
            DatasetId::Spec(s) => DatasetRepr::Spec(*s),
        }
    }
}

impl TryFrom<DatasetRepr> for DatasetId {
    type Error = Error;
    fn try_from(r: DatasetRepr) -> Result<Self> {
        let d = match r {
            DatasetRepr::Name(n) => DatasetId::parse(&n)?,
            DatasetRepr::Spec(s) => DatasetId::Spec(Box::new(s)),
        };
        d.validate()?;
        Ok(d)
    }
}

/// What an experiment measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Measure {
    /// Offline gap and loss of `algorithms` for each value of the swept parameter.
    Offline { algorithms: Vec<OfflineKind> },
    /// Online curves and final metrics of `policies` over the horizon.
    Online { policies: Vec<PolicyKind> },
    /// Geometry of the data (paper appendix): distance distributions, token-length CDFs and a
    /// 2-D projection of the stream, over the first `stream` arrivals.
    Geometry { stream: usize },
}

/// A parameter swept over values (any `Params` field, e.g. `log_len`, `epsilon`, `k`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    pub param: String,
    pub values: Vec<serde_json::Value>,
}

/// A complete experiment definition (also readable from JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub dataset: DatasetId,
    pub measure: Measure,
    #[serde(default)]
    pub sweep: Option<Sweep>,
    /// Base parameters (SPEC defaults for anything not given).
    #[serde(default)]
    pub params: Params,
    pub seeds: usize,
    /// First seed (seeds are `first_seed .. first_seed + seeds`).
    #[serde(default)]
    pub first_seed: u64,
}

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

/// The experiments of SPEC §10 by id, with the paper's settings where it gives them.
pub fn builtin(id: &str) -> Result<ExperimentSpec> {
    let base = Params::default();
    let spec = match id {
        "fig-a" => ExperimentSpec {
            id: id.into(),
            title: "Offline suboptimality gap vs stream length (synthetic, k = 5, ε = 0.4)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Offline { algorithms: offline_all() },
            sweep: Some(Sweep {
                param: "log_len".into(),
                values: values(&[100, 200, 500, 1000, 2000, 5000]),
            }),
            params: Params { horizon: 1, ..base },
            seeds: 20,
            first_seed: 0,
        },
        "fig-b" => ExperimentSpec {
            id: id.into(),
            title: "Offline suboptimality gap vs ε (synthetic, k = 5, stream length 1000)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Offline { algorithms: offline_all() },
            sweep: Some(Sweep {
                param: "epsilon".into(),
                values: values(&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]),
            }),
            params: Params { horizon: 1, log_len: 1000, ..base },
            seeds: 20,
            first_seed: 0,
        },
        "fig-c" | "fig-d" => ExperimentSpec {
            id: id.into(),
            title: "Online average regret vs rounds and runtime vs final regret (synthetic)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: paper_policies() },
            sweep: None,
            params: base,
            seeds: 10,
            first_seed: 0,
        },
        "fig-e" | "fig-f" => ExperimentSpec {
            id: id.into(),
            title: "Online average regret vs rounds and runtime vs final regret (nq-trivia)".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Online { policies: paper_policies() },
            sweep: None,
            params: base,
            seeds: 10,
            first_seed: 0,
        },
        "abl-k" => ExperimentSpec {
            id: id.into(),
            title: "Offline gap and loss vs cache size k (synthetic, stream length 500)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Offline { algorithms: offline_all() },
            sweep: Some(Sweep { param: "k".into(), values: values(&[3, 5, 8, 10, 12, 15, 20]) }),
            params: Params { horizon: 1, log_len: 500, ..base },
            seeds: 20,
            first_seed: 0,
        },
        "geom" => ExperimentSpec {
            id: id.into(),
            title: "Geometry: distance distributions, token-length CDFs, 2-D projection of the stream".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Geometry { stream: 2000 },
            sweep: None,
            params: base,
            seeds: 1,
            first_seed: 0,
        },
        "geom-nq" => ExperimentSpec {
            id: id.into(),
            title: "Geometry of nq-trivia: distance distributions and token-length CDFs per source".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Geometry { stream: 2000 },
            sweep: None,
            params: base,
            seeds: 1,
            first_seed: 0,
        },
        "krr-err" => ExperimentSpec {
            id: id.into(),
            title: "KRR cost-estimation error at the centers over rounds (synthetic, CLCB-SC-LS-Cont)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLsCont] },
            sweep: None,
            params: base,
            seeds: 10,
            first_seed: 0,
        },
        // Tuned offline widths (docs/REPRODUCTION.md): the paper's figures a–b with the tuned
        // β_off and λ (chosen on held-out seeds 100–104), fewer seeds and without the largest,
        // slowest sweep value.
        "fig-a-tuned" => ExperimentSpec {
            id: id.into(),
            title: "Offline gap vs stream length, tuned widths (synthetic, k = 5, ε = 0.4)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Offline { algorithms: offline_all() },
            sweep: Some(Sweep { param: "log_len".into(), values: values(&[100, 200, 500, 1000, 2000]) }),
            params: Params { horizon: 1, ..tuned_offline() },
            seeds: 10,
            first_seed: 0,
        },
        "fig-b-tuned" => ExperimentSpec {
            id: id.into(),
            title: "Offline gap vs ε, tuned widths (synthetic, k = 5, stream length 1000)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Offline { algorithms: offline_all() },
            sweep: Some(Sweep { param: "epsilon".into(), values: values(&[0.2, 0.3, 0.4, 0.5, 0.6]) }),
            params: Params { horizon: 1, log_len: 1000, ..tuned_offline() },
            seeds: 10,
            first_seed: 0,
        },
        // Offline sensitivity: one unstated parameter swept at a time (synthetic, k = 5, ε = 0.4,
        // stream length 100, where the paper reports CUCB-SC-Cont's largest advantage).
        "sens-off-beta" => offline_sensitivity(
            id,
            "β_off (width scale; λ = 0.1)",
            "beta_off",
            values(&[0.0, 0.01, 0.03, 0.1, 0.3, 1.0]),
            base.clone(),
        ),
        "sens-off-lambda" => offline_sensitivity(
            id,
            "λ (tuned β_off)",
            "lambda",
            values(&[0.001, 0.01, 0.1, 1.0]),
            tuned_offline(),
        ),
        "sens-off-length" => offline_sensitivity(
            id,
            "kernel length-scale ℓ_k (tuned)",
            "kernel_length",
            values(&[0.05, 0.1, 0.2, 0.4, 0.8]),
            tuned_offline(),
        ),
        "sens-off-zeta" => offline_sensitivity(
            id,
            "mismatch slope ζ (tuned)",
            "zeta",
            values(&[0.5, 1.0, 2.0, 4.0]),
            tuned_offline(),
        ),
        "sens-off-noise" => offline_sensitivity(
            id,
            "cost noise R (tuned)",
            "noise_r",
            values(&[0.0, 0.05, 0.1, 0.2]),
            tuned_offline(),
        ),
        // Online sensitivity (synthetic, T = 2,000, n_eval = 5,000, 3 seeds).
        "sens-on-beta" => online_sensitivity(id, "β (online width scale)", "beta", values(&[0.1, 0.3, 1.0])),
        "sens-on-length" => {
            online_sensitivity(id, "kernel length-scale ℓ_k", "kernel_length", values(&[0.1, 0.2, 0.4]))
        }
        "sens-on-lambda" => online_sensitivity(id, "ridge λ", "lambda", values(&[0.01, 0.1, 1.0])),
        "sens-on-epsilon" => online_sensitivity(id, "ε", "epsilon", values(&[0.2, 0.4, 0.6])),
        // nq-trivia: the settings under which the paper's online claim could hold (SPEC §13).
        "sens-nq-epsilon" => ExperimentSpec {
            id: id.into(),
            title: "nq-trivia online: final average regret vs ε (T = 2,000)".into(),
            dataset: DatasetId::NqTrivia,
            measure: Measure::Online { policies: sensitivity_policies(true) },
            sweep: Some(Sweep { param: "epsilon".into(), values: values(&[0.4, 0.5, 0.6, 0.7, 0.8]) }),
            params: Params { horizon: 2000, n_eval: 2000, ..base },
            seeds: 2,
            first_seed: 0,
        },
        // Theory check: cache switches against the horizon T (stage thresholds depend on T).
        "thy-switch" => ExperimentSpec {
            id: id.into(),
            title: "Switches and stages vs horizon T (synthetic, low-switching policies)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLs, PolicyKind::Greedy] },
            sweep: Some(Sweep {
                param: "horizon".into(),
                values: values(&[250, 500, 1000, 2000, 5000, 10000, 20000, 50000]),
            }),
            params: Params { n_eval: 2000, ..base },
            seeds: 5,
            first_seed: 0,
        },
        "thy-switch-cont" => ExperimentSpec {
            id: id.into(),
            title: "Switches and stages vs horizon T (synthetic, CLCB-SC-LS-Cont)".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Online { policies: vec![PolicyKind::ClcbScLsCont] },
            sweep: Some(Sweep { param: "horizon".into(), values: values(&[250, 500, 1000, 2000, 5000]) }),
            params: Params { n_eval: 2000, ..base },
            seeds: 3,
            first_seed: 0,
        },
        _ => {
            return Err(Error::unsupported(format!(
                "unknown experiment `{id}`; known: {}",
                BUILTIN_IDS.join(", ")
            )))
        }
    };
    Ok(spec)
}

/// Ids accepted by [`builtin`]: SPEC §10's experiments, then the reproduction's tuned variants,
/// sensitivity sweeps and theory checks (docs/REPRODUCTION.md).
pub const BUILTIN_IDS: [&str; 24] = [
    "fig-a",
    "fig-b",
    "fig-c",
    "fig-d",
    "fig-e",
    "fig-f",
    "abl-k",
    "krr-err",
    "geom",
    "geom-nq",
    "fig-a-tuned",
    "fig-b-tuned",
    "sens-off-beta",
    "sens-off-lambda",
    "sens-off-length",
    "sens-off-zeta",
    "sens-off-noise",
    "sens-on-beta",
    "sens-on-length",
    "sens-on-lambda",
    "sens-on-epsilon",
    "sens-nq-epsilon",
    "thy-switch",
    "thy-switch-cont",
];

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
        sweep: Some(Sweep { param: param.into(), values }),
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
        sweep: Some(Sweep { param: param.into(), values }),
        params: Params { horizon: 2000, n_eval: 5000, ..Params::default() },
        seeds: 3,
        first_seed: 0,
    }
}

/// `params` with one field set from JSON (validated; unknown names rejected).
pub fn with_param(params: &Params, name: &str, value: &serde_json::Value) -> Result<Params> {
    let mut v = serde_json::to_value(params).expect("Params serialises");
    let obj = v.as_object_mut().expect("Params is an object");
    if !obj.contains_key(name) {
        return Err(Error::param(name, "no such parameter"));
    }
    obj.insert(name.to_string(), value.clone());
    let p: Params = serde_json::from_value(v).map_err(|e| Error::param(name, e.to_string()))?;
    p.validate()?;
    Ok(p)
}

/// One independent piece of work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Position in the experiment's unit list (stable: shards are slices of it).
    pub index: usize,
    /// Index into the sweep's values (0 without a sweep).
    pub point: usize,
    pub seed: u64,
}

impl ExperimentSpec {
    /// Parses a JSON definition and validates it.
    pub fn from_json(text: &str) -> Result<Self> {
        let s: ExperimentSpec =
            serde_json::from_str(text).map_err(|e| Error::parse(format!("experiment JSON: {e}")))?;
        s.validate()?;
        Ok(s)
    }

    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        self.dataset.validate()?;
        if self.seeds == 0 {
            return Err(Error::param("seeds", "run at least one seed"));
        }
        if let Some(s) = &self.sweep {
            if s.values.is_empty() {
                return Err(Error::param("sweep", "give at least one value"));
            }
            for v in &s.values {
                with_param(&self.params, &s.param, v)?;
            }
        }
        match &self.measure {
            Measure::Offline { algorithms } if algorithms.is_empty() => {
                Err(Error::param("algorithms", "name at least one"))
            }
            Measure::Online { policies } if policies.is_empty() => {
                Err(Error::param("policies", "name at least one"))
            }
            _ => Ok(()),
        }
    }

    /// All units in a fixed order: sweep point major, seed minor.
    pub fn units(&self) -> Vec<Unit> {
        let points = self.sweep.as_ref().map_or(1, |s| s.values.len());
        (0..points)
            .flat_map(|p| (0..self.seeds as u64).map(move |s| (p, s)))
            .enumerate()
            .map(|(index, (point, s))| Unit { index, point, seed: self.first_seed + s })
            .collect()
    }

    /// The units of shard `i` of `n` (0-based `i`): every n-th unit — a deterministic slice.
    pub fn shard(&self, i: usize, n: usize) -> Result<Vec<Unit>> {
        if n == 0 || i >= n {
            return Err(Error::param("shard", format!("shard {i}/{n}: need 0 ≤ i < n")));
        }
        Ok(self.units().into_iter().filter(|u| u.index % n == i).collect())
    }

    /// The fully resolved parameters of a unit.
    pub fn unit_params(&self, unit: &Unit) -> Result<Params> {
        let mut p = self.params.clone();
        if let Some(s) = &self.sweep {
            p = with_param(&p, &s.param, &s.values[unit.point])?;
        }
        p.seed = unit.seed;
        Ok(p)
    }

    /// The x value of a unit's sweep point (NaN without a sweep).
    fn unit_x(&self, unit: &Unit) -> f64 {
        self.sweep.as_ref().and_then(|s| s.values[unit.point].as_f64()).unwrap_or(f64::NAN)
    }
}

/// JSON has no NaN: non-finite numbers are written as `null` and read back as NaN.
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// One measured number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub algorithm: String,
    pub metric: String,
    #[serde(with = "nan_as_null")]
    pub x: f64,
    #[serde(with = "nan_as_null")]
    pub value: f64,
}

/// What one unit produced, with its resolved configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitResult {
    pub experiment: String,
    pub unit: Unit,
    pub params: Params,
    pub dataset: DatasetInfo,
    pub observations: Vec<Observation>,
    /// Per-algorithm extra detail (caches, diagnostics).
    pub detail: serde_json::Value,
}

fn obs(out: &mut Vec<Observation>, algorithm: &str, metric: &str, x: f64, value: f64) {
    out.push(Observation { algorithm: algorithm.into(), metric: metric.into(), x, value });
}

/// Runs one unit. `on_round` is called with the number of rounds done (online) so a caller can
/// show progress; return `false` from it to cancel (the unit then returns an error).
pub fn run_unit(
    spec: &ExperimentSpec,
    unit: &Unit,
    dataset: &Arc<Dataset>,
    on_round: &mut dyn FnMut(usize) -> bool,
) -> Result<UnitResult> {
    let mut params = spec.unit_params(unit)?;
    if let Measure::Geometry { stream } = spec.measure {
        params.horizon = stream;
    }
    spec.dataset.check_loaded(dataset)?;
    let model = resolve_arrival(spec.dataset.arrival(), dataset, &mut params)?;
    let trace = generate_trace(dataset.clone(), model, &params)?;
    let mut out = Vec::new();
    let detail = match &spec.measure {
        Measure::Offline { algorithms } => {
            let prob = OfflineProblem::from_trace(&trace, &params)?;
            let x = spec.unit_x(unit);
            let mut d = serde_json::Map::new();
            for &a in algorithms {
                let r = prob.run(a)?;
                obs(&mut out, &r.algorithm, "gap", x, r.gap);
                obs(&mut out, &r.algorithm, "loss", x, r.loss);
                d.insert(
                    r.algorithm.clone(),
                    serde_json::json!({ "cache": r.cache, "believed_costs": r.believed_costs }),
                );
            }
            d.insert("centers".into(), prob.m().into());
            d.insert("observed_costs".into(), prob.observed.len().into());
            d.insert("oracle_loss".into(), prob.oracle.loss.into());
            serde_json::Value::Object(d)
        }
        Measure::Online { policies } => {
            let env = Arc::new(Environment::from_trace(&trace, &params)?);
            let total = policies.len() * trace.horizon();
            let mut done = 0usize;
            let mut d = serde_json::Map::new();
            d.insert("oracle_loss".into(), env.oracle.loss.into());
            for &k in policies {
                let mut sim = Simulation::new(env.clone(), k, &params, 0)?;
                for t in 0..trace.horizon() {
                    sim.step(&trace.arrival(t));
                    done += 1;
                    if done.is_multiple_of(256) && !on_round(done) {
                        return Err(Error::unsupported("cancelled"));
                    }
                }
                let r = sim.result();
                let name = r.policy.as_str();
                // With a sweep, the curves of different sweep values would be averaged together:
                // only the final metrics are recorded, at x = the sweep value.
                let checkpoints = if spec.sweep.is_some() { &[][..] } else { &r.checkpoints[..] };
                for c in checkpoints {
                    let x = c.t as f64;
                    obs(&mut out, name, "avg_regret", x, c.avg_regret);
                    obs(&mut out, name, "switches", x, c.switches as f64);
                    obs(&mut out, name, "avg_realised_cost", x, c.avg_realised_cost);
                    if let (Some(a), Some(b), Some(m)) = (c.est_rmse, c.est_mae, c.est_max) {
                        obs(&mut out, name, "est_rmse", x, a);
                        obs(&mut out, name, "est_mae", x, b);
                        obs(&mut out, name, "est_max", x, m);
                    }
                }
                let l = &r.last;
                let x = if spec.sweep.is_some() { spec.unit_x(unit) } else { l.t as f64 };
                obs(&mut out, name, "final_avg_regret", x, l.avg_regret);
                obs(&mut out, name, "runtime_ms", x, l.wall_ms);
                obs(&mut out, name, "final_switches", x, l.switches as f64);
                obs(&mut out, name, "final_switch_cost", x, l.switch_cost);
                obs(&mut out, name, "final_hit_rate", x, l.hit_rate);
                obs(&mut out, name, "final_avg_realised_cost", x, l.avg_realised_cost);
                obs(&mut out, name, "final_cache_size", x, l.cache_size as f64);
                // Stage counters of the low-switching policies (SPEC §11.2) and the net's size.
                for (key, metric) in [
                    ("centers", "final_centers"),
                    ("global_stage", "final_global_stage"),
                    ("stage_advances", "final_stage_advances"),
                ] {
                    if let Some(v) = r.diagnostics.get(key).and_then(serde_json::Value::as_f64) {
                        obs(&mut out, name, metric, x, v);
                    }
                }
                d.insert(name.into(), r.diagnostics.clone());
            }
            on_round(total);
            serde_json::Value::Object(d)
        }
        Measure::Geometry { stream } => geometry(dataset, &trace, *stream, &mut out)?,
    };
    Ok(UnitResult {
        experiment: spec.id.clone(),
        unit: unit.clone(),
        params,
        dataset: dataset.info(),
        observations: out,
        detail,
    })
}

/// Quantile levels reported for every distance distribution.
const QUANTILES: [f64; 9] = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99];

fn quantiles(out: &mut Vec<Observation>, series: &str, metric: &str, mut v: Vec<f64>) {
    if v.is_empty() {
        return;
    }
    v.sort_by(f64::total_cmp);
    for q in QUANTILES {
        let i = ((v.len() - 1) as f64 * q).round() as usize;
        obs(out, series, metric, q, v[i]);
    }
}

/// The `geom` measure: distance quantiles (universe pairwise, stream pairwise, stream nearest
/// neighbour, stream to universe), token-length CDFs per source and the stream's 2-D projection.
fn geometry(
    dataset: &Arc<Dataset>,
    trace: &crate::trace::Trace,
    stream: usize,
    out: &mut Vec<Observation>,
) -> Result<serde_json::Value> {
    let m = dataset.metric();
    let n = trace.horizon().min(stream);
    let u = &dataset.points;
    let pairwise = |pts: &[&[f32]]| -> Vec<f64> {
        let k = pts.len();
        (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).map(|(i, j)| m.dist(pts[i], pts[j])).collect()
    };
    let universe_rows: Vec<&[f32]> = u.iter().collect();
    quantiles(out, "universe", "pairwise_distance", pairwise(&universe_rows[..u.len().min(2000)]));
    let stream_pts: Vec<&[f32]> = (0..n).map(|t| trace.x(t)).collect();
    let distinct: Vec<&[f32]> = {
        let mut seen = std::collections::HashSet::new();
        stream_pts.iter().copied().filter(|x| seen.insert(crate::space::bit_key(x))).collect()
    };
    quantiles(out, "stream", "pairwise_distance", pairwise(&distinct[..distinct.len().min(1500)]));
    let nn = |pts: &[&[f32]]| -> Vec<f64> {
        (0..pts.len())
            .map(|i| {
                (0..pts.len())
                    .filter(|&j| j != i)
                    .map(|j| m.dist(pts[i], pts[j]))
                    .fold(f64::INFINITY, f64::min)
            })
            .filter(|d| d.is_finite())
            .collect()
    };
    quantiles(out, "stream", "nn_distance", nn(&distinct));
    quantiles(out, "universe", "nn_distance", nn(&universe_rows));
    quantiles(
        out,
        "stream",
        "distance_to_universe",
        stream_pts.iter().map(|x| m.nearest(x, u).map_or(f64::NAN, |(_, d)| d)).collect(),
    );
    for (g, name) in dataset.group_names.iter().enumerate() {
        let mut t: Vec<u32> = dataset
            .tokens
            .iter()
            .zip(&dataset.groups)
            .filter(|(_, &gg)| gg as usize == g)
            .map(|(&t, _)| t)
            .collect();
        t.sort_unstable();
        let len = t.len() as f64;
        let mut i = 0;
        while i < t.len() {
            let v = t[i];
            while i < t.len() && t[i] == v {
                i += 1;
            }
            obs(out, name, "token_cdf", v as f64, i as f64 / len);
        }
    }
    let proj = crate::projection::Projection::fit_sample(u, 2000)?;
    let xy: Vec<[f64; 2]> = stream_pts
        .iter()
        .take(1000)
        .map(|x| if u.dim() == 2 { [x[0] as f64, x[1] as f64] } else { proj.project(x) })
        .collect();
    let uxy: Vec<[f64; 2]> =
        u.iter().map(|x| if u.dim() == 2 { [x[0] as f64, x[1] as f64] } else { proj.project(x) }).collect();
    Ok(
        serde_json::json!({ "distinct_arrivals": distinct.len(), "stream_projection": xy, "universe_projection": uxy }),
    )
}

/// Mean, spread and 95% confidence interval of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub algorithm: String,
    pub metric: String,
    #[serde(with = "nan_as_null")]
    pub x: f64,
    pub n: usize,
    #[serde(with = "nan_as_null")]
    pub mean: f64,
    #[serde(with = "nan_as_null")]
    pub std: f64,
    /// Half-width of the 95% interval (Student t; NaN for a single seed).
    #[serde(with = "nan_as_null")]
    pub ci95: f64,
}

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
pub fn t_quantile(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// Groups observations by (algorithm, metric, x) in first-seen order of algorithms.
pub fn aggregate(results: &[UnitResult]) -> Vec<Stat> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(usize, String, u64), Vec<f64>> = BTreeMap::new();
    for r in results {
        for o in &r.observations {
            let ai = order.iter().position(|a| *a == o.algorithm).unwrap_or_else(|| {
                order.push(o.algorithm.clone());
                order.len() - 1
            });
            groups.entry((ai, o.metric.clone(), o.x.to_bits())).or_default().push(o.value);
        }
    }
    let mut stats: Vec<Stat> = groups
        .into_iter()
        .map(|((ai, metric, xb), v)| {
            let n = v.len();
            let mean = v.iter().sum::<f64>() / n as f64;
            let std = if n > 1 {
                (v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
            } else {
                0.0
            };
            let ci95 = if n > 1 { t_quantile(n - 1) * std / (n as f64).sqrt() } else { f64::NAN };
            Stat { algorithm: order[ai].clone(), metric, x: f64::from_bits(xb), n, mean, std, ci95 }
        })
        .collect();
    stats.sort_by(|a, b| {
        let ia = order.iter().position(|x| *x == a.algorithm);
        let ib = order.iter().position(|x| *x == b.algorithm);
        ia.cmp(&ib).then(a.metric.cmp(&b.metric)).then(a.x.total_cmp(&b.x))
    });
    stats
}

/// A finished experiment: definition, aggregated statistics and every unit's raw result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub experiment: ExperimentSpec,
    pub engine: String,
    pub stats: Vec<Stat>,
    pub units: Vec<UnitResult>,
}

impl Report {
    pub fn new(spec: &ExperimentSpec, mut units: Vec<UnitResult>) -> Report {
        units.sort_by_key(|u| u.unit.index);
        Report {
            experiment: spec.clone(),
            engine: concat!("csc ", env!("CARGO_PKG_VERSION")).into(),
            stats: aggregate(&units),
            units,
        }
    }

    /// Joins shard reports of the same experiment (units deduplicated by index).
    pub fn merge(parts: Vec<Report>) -> Result<Report> {
        let first = parts.first().ok_or_else(|| Error::data("nothing to merge"))?;
        let spec = first.experiment.clone();
        let mut units: BTreeMap<usize, UnitResult> = BTreeMap::new();
        for p in parts {
            if p.experiment != spec {
                return Err(Error::data(format!(
                    "cannot merge different experiments (`{}` and `{}`, or different settings)",
                    spec.id, p.experiment.id
                )));
            }
            for u in p.units {
                units.insert(u.unit.index, u);
            }
        }
        Ok(Report::new(&spec, units.into_values().collect()))
    }

    /// Units of the experiment not present in this report.
    pub fn missing_units(&self) -> Vec<usize> {
        let have: Vec<usize> = self.units.iter().map(|u| u.unit.index).collect();
        self.experiment.units().into_iter().map(|u| u.index).filter(|i| !have.contains(i)).collect()
    }

    /// `experiment,algorithm,metric,x,n,mean,std,ci95` rows.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("experiment,algorithm,metric,x,n,mean,std,ci95\n");
        for st in &self.stats {
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                self.experiment.id, st.algorithm, st.metric, st.x, st.n, st.mean, st.std, st.ci95
            ));
        }
        s
    }

    /// The mean of a metric for an algorithm at the largest x (the "final" value).
    pub fn final_mean(&self, algorithm: &str, metric: &str) -> Option<&Stat> {
        self.stats
            .iter()
            .filter(|s| s.algorithm == algorithm && s.metric == metric)
            .max_by(|a, b| a.x.total_cmp(&b.x))
    }
}

impl Report {
    /// One table per metric: algorithms down, the sweep's values across (`key` gives the xs).
    fn sweep_tables(
        &self,
        algs: &[&str],
        key: &str,
        metrics: &[&str],
        cell: &dyn Fn(Option<&Stat>, usize) -> String,
    ) -> String {
        let param = self.experiment.sweep.as_ref().map_or("x".to_string(), |s| s.param.clone());
        let mut xs: Vec<f64> = self.stats.iter().filter(|s| s.metric == key).map(|s| s.x).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| a.total_cmp(b).is_eq());
        let mut out = String::new();
        for metric in metrics {
            out.push_str(&format!("\n{metric} (mean ± 95% CI) by {param}\n{:<18}", "algorithm"));
            for x in &xs {
                out.push_str(&format!("{:>22}", format!("{param}={x}")));
            }
            out.push('\n');
            for a in algs {
                if !self.stats.iter().any(|s| s.algorithm == *a && s.metric == *metric) {
                    continue;
                }
                out.push_str(&format!("{a:<18}"));
                for x in &xs {
                    let s = self
                        .stats
                        .iter()
                        .find(|s| s.algorithm == *a && s.metric == *metric && s.x.total_cmp(x).is_eq());
                    out.push_str(&format!("{:>22}", cell(s, if *metric == "runtime_ms" { 0 } else { 5 })));
                }
                out.push('\n');
            }
        }
        out
    }

    /// A plain-text table of the headline numbers: offline, the gap per algorithm at each sweep
    /// value; online, the final average regret, runtime, switches, hit rate and realised cost.
    pub fn summary(&self) -> String {
        let mut algs: Vec<&str> = Vec::new();
        for s in &self.stats {
            if !algs.contains(&s.algorithm.as_str()) {
                algs.push(&s.algorithm);
            }
        }
        let cell = |s: Option<&Stat>, digits: usize| match s {
            Some(s) if s.ci95.is_finite() => format!("{:.*} ± {:.*}", digits, s.mean, digits, s.ci95),
            Some(s) => format!("{:.*}", digits, s.mean),
            None => "–".into(),
        };
        let mut out = format!("{} — {}\n", self.experiment.id, self.experiment.title);
        if let Some(u) = self.units.first() {
            let d = &u.dataset;
            out.push_str(&format!(
                "dataset {} ({} queries, d = {}, checksum {})\n",
                d.name, d.size, d.dim, d.checksum
            ));
        }
        match &self.experiment.measure {
            Measure::Geometry { .. } => {
                out.push_str(&format!(
                    "\n{:<12}{:<24}{:>10}{:>10}{:>10}\n",
                    "series", "metric", "q10", "median", "q90"
                ));
                let mut seen = Vec::new();
                for s in self.stats.iter().filter(|s| s.metric != "token_cdf") {
                    if seen.contains(&(s.algorithm.clone(), s.metric.clone())) {
                        continue;
                    }
                    seen.push((s.algorithm.clone(), s.metric.clone()));
                    let at = |q: f64| {
                        self.stats
                            .iter()
                            .find(|t| t.algorithm == s.algorithm && t.metric == s.metric && t.x == q)
                            .map_or(f64::NAN, |t| t.mean)
                    };
                    out.push_str(&format!(
                        "{:<12}{:<24}{:>10.4}{:>10.4}{:>10.4}\n",
                        s.algorithm,
                        s.metric,
                        at(0.1),
                        at(0.5),
                        at(0.9)
                    ));
                }
                for g in self
                    .stats
                    .iter()
                    .filter(|s| s.metric == "token_cdf")
                    .map(|s| s.algorithm.clone())
                    .collect::<std::collections::BTreeSet<_>>()
                {
                    let med = self
                        .stats
                        .iter()
                        .filter(|s| s.algorithm == g && s.metric == "token_cdf" && s.mean >= 0.5)
                        .map(|s| s.x)
                        .fold(f64::INFINITY, f64::min);
                    let max = self
                        .stats
                        .iter()
                        .filter(|s| s.algorithm == g && s.metric == "token_cdf")
                        .map(|s| s.x)
                        .fold(0.0, f64::max);
                    out.push_str(&format!("tokens of {g}: median {med}, max {max}\n"));
                }
            }
            Measure::Offline { .. } => {
                out.push_str(&self.sweep_tables(&algs, "gap", &["gap", "loss"], &cell));
            }
            Measure::Online { .. } if self.experiment.sweep.is_some() => {
                let metrics = ["final_avg_regret", "final_switches", "runtime_ms"];
                out.push_str(&self.sweep_tables(&algs, "final_avg_regret", &metrics, &cell));
            }
            Measure::Online { .. } => {
                out.push_str(&format!(
                    "\n{:<26}{:>24}{:>20}{:>16}{:>18}{:>20}\n",
                    "algorithm", "final avg regret", "runtime ms", "switches", "hit rate", "avg cost"
                ));
                let mut rows: Vec<(&str, f64)> = algs
                    .iter()
                    .map(|a| (*a, self.final_mean(a, "final_avg_regret").map_or(f64::INFINITY, |s| s.mean)))
                    .collect();
                rows.sort_by(|a, b| a.1.total_cmp(&b.1));
                for (a, _) in rows {
                    let size = self.final_mean(a, "final_cache_size").map(|s| s.mean);
                    let label = size.map_or(a.to_string(), |z| {
                        crate::online::sim::sized_label(a, z, self.experiment.params.k)
                    });
                    out.push_str(&format!(
                        "{label:<26}{:>24}{:>20}{:>16}{:>18}{:>20}\n",
                        cell(self.final_mean(a, "final_avg_regret"), 5),
                        cell(self.final_mean(a, "runtime_ms"), 0),
                        cell(self.final_mean(a, "final_switches"), 0),
                        cell(self.final_mean(a, "final_hit_rate"), 3),
                        cell(self.final_mean(a, "final_avg_realised_cost"), 4),
                    ));
                }
            }
        }
        out
    }
}
