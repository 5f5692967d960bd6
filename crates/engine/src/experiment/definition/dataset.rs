//! Which dataset an experiment runs on (SPEC §7, §10): a built-in by name or a dataset object —
//! the user's files (JSONL, optional float32 embeddings) or a built-in under a chosen arrival model.

use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::stream::ArrivalSpec;
use serde::{Deserialize, Serialize};

/// Which dataset an experiment uses: a built-in by name (`"synthetic"`, `"nq-trivia"`,
/// `"plane"`) or a dataset object ([`DatasetSpec`]): the user's files, or a built-in with a
/// chosen arrival model.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(into = "DatasetRepr")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "DatasetRepr"))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

#[derive(Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DatasetId"))]
enum DatasetRepr {
    Name(#[cfg_attr(feature = "ts", ts(type = "\"synthetic\" | \"nq-trivia\" | \"plane\""))] String),
    Spec(DatasetSpec),
}

const BUILTIN_DATASETS: &str = "synthetic, nq-trivia, plane";

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(DatasetId);

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

/// A name or a dataset object, read by hand rather than as serde's untagged enum: through a JSON
/// value and the engine's one text reader ([`crate::json`]), so that [`DatasetSpec`] (and its
/// tagged [`ArrivalSpec`]) have one deserialiser in the page's wasm instead of a second one over
/// serde's buffered `Content` (docs/PERFORMANCE.md, "Where the page's wasm goes"), and a bad
/// object is told what is wrong with it (an unknown field, a wrong type) instead of that it
/// "did not match any variant".
impl<'de> Deserialize<'de> for DatasetId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let id = match &v {
            serde_json::Value::String(n) => DatasetId::parse(n),
            serde_json::Value::Object(_) => crate::json::from_value::<DatasetSpec>(&v)
                .map(|s| DatasetId::Spec(Box::new(s)))
                .map_err(|e| Error::parse(format!("dataset object: {e}"))),
            _ => Err(Error::parse(format!(
                "a dataset is a built-in's name ({BUILTIN_DATASETS}) or a dataset object, not {v}"
            ))),
        };
        id.and_then(|d| d.validate().map(|()| d)).map_err(serde::de::Error::custom)
    }
}
