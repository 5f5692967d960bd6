//! The arrival models a user names ([`ArrivalSpec`]) and their resolution to one
//! [`ArrivalModel`] per run (SPEC §7): the models `uniform` (jittered), `bursty`, `popularity`,
//! `replay` and `plane`.

use super::model::ArrivalModel;
use super::sampler::{calibrate_sigma, SYNTHETIC_MEDIAN_DISTANCE};
use crate::config::Params;
use crate::dataset::Dataset;
use crate::error::{Error, Result};

/// One arrival model as a reader sees it (the one list, [`ARRIVALS`]: `csc list`, the page's
/// "Arrivals" menu and [`ArrivalSpec::parse`]'s message read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ArrivalInfo {
    /// The name `--arrival` and the `model` of a definition take.
    pub id: &'static str,
    /// A short label for a menu.
    pub label: &'static str,
    /// One line: how arrivals are drawn.
    pub doc: &'static str,
    /// The paper's numbering and/or `SPEC-NOTES#anchor` (as [`crate::config::ParamInfo`]).
    pub reference: &'static str,
    /// Whether it applies to a user's dataset (`plane` belongs to the plane dataset).
    pub user: bool,
}

/// Every arrival model, in menu order.
pub const ARRIVALS: &[ArrivalInfo] = &[
    ArrivalInfo {
        id: "uniform",
        label: "uniform (jittered)",
        doc: "A query picked uniformly, its embedding jittered by N(0, σ_e² I) and renormalised (σ_e calibrated unless set).",
        reference: "§6; SPEC-NOTES#arrival-models",
        user: true,
    },
    ArrivalInfo {
        id: "bursty",
        label: "bursty (groups by a field)",
        doc: "Bursts of Geometric length (mean burst_mean) alternating between groups, log-normal popularity within a group.",
        reference: "§6; SPEC-NOTES#arrival-models",
        user: true,
    },
    ArrivalInfo {
        id: "popularity",
        label: "popularity (log-normal)",
        doc: "Queries drawn with log-normal popularity over the whole universe, no bursts.",
        reference: "SPEC-NOTES#arrival-models",
        user: true,
    },
    ArrivalInfo {
        id: "replay",
        label: "replay (file order or an index file)",
        doc: "The file's order is the stream (T is its length), or an index file of arrivals, one record id or row per line.",
        reference: "SPEC-NOTES#arrival-models",
        user: true,
    },
    ArrivalInfo {
        id: "tenants",
        label: "tenants (own popularity each)",
        doc: "N tenants (default 2), each round's uniformly; each tenant's log-normal popularity over the universe, correlated by overlap ω (default 0.5), or a user file's records grouped by a field.",
        reference: "SPEC-NOTES#tenants",
        user: true,
    },
    ArrivalInfo {
        id: "plane",
        label: "plane (blob mixture)",
        doc: "The plane dataset's continuous density: six Gaussian blobs clamped to the unit square.",
        reference: "SPEC-NOTES#geometry-costs-datasets",
        user: false,
    },
];

/// The `tenants` model's number of tenants when none is given.
pub const DEFAULT_TENANTS: u32 = 2;
/// The `tenants` model's overlap `ω` when none is given.
pub const DEFAULT_OVERLAP: f64 = 0.5;

/// An arrival model as a user names it (CLI `--arrival`, the `arrival` of a dataset object in an
/// experiment definition). Its numbers come from the parameters (`synthetic_sigma` for
/// `uniform`, `burst_mean` for `bursty`, SPEC §7); the groups of `bursty` from the record field
/// `group_by` of a user dataset (the built-in nq-trivia's groups are its two sources).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "model", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ArrivalSpec {
    /// Pick a query uniformly, jitter it by `N(0, σ_e² I)` and renormalise; `σ_e` calibrated to
    /// a median arrival-to-query distance of 0.074 unless `synthetic_sigma` is set.
    Uniform,
    /// Bursts alternating between groups, Geometric lengths of mean `burst_mean`, log-normal
    /// popularity within a group.
    Bursty {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        group_by: Option<String>,
    },
    /// Log-normal popularity over all queries, no bursts.
    Popularity,
    /// The file's order is the stream; `T` is its length. With `index`, the stream is that index
    /// file of arrivals instead (one record id or row number per line; read with the dataset,
    /// [`crate::dataset::Dataset::set_replay_index`]); `index_checksum`, when given, must match it.
    Replay {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index_checksum: Option<String>,
    },
    /// The `plane` blob mixture (the plane dataset only).
    Plane,
    /// Tenants, each round's tenant uniform: `tenants` (default 2) with their own log-normal
    /// popularity over the universe, log-popularities correlated by `overlap` (default 0.5); or,
    /// with `tenant_by`, a user file's records grouped by that field, one tenant per value
    /// (docs/SPEC-NOTES.md, "Tenants").
    Tenants {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tenants: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        overlap: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tenant_by: Option<String>,
    },
}

/// `{"model": "uniform" | "bursty" | "popularity" | "replay" | "plane", …}` with no field but
/// the model's own, read by [`crate::json::tagged`] (the derive's `Content` path compiled every
/// field twice).
impl<'de> serde::Deserialize<'de> for ArrivalSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::Deserialize;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct NoFields {}
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Bursty {
            #[serde(default)]
            group_by: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Replay {
            #[serde(default)]
            index: Option<String>,
            #[serde(default)]
            index_checksum: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Tenants {
            #[serde(default)]
            tenants: Option<u32>,
            #[serde(default)]
            overlap: Option<f64>,
            #[serde(default)]
            tenant_by: Option<String>,
        }
        const MODELS: &[&str] = &["uniform", "bursty", "popularity", "replay", "plane", "tenants"];
        let (model, rest) = crate::json::tagged(d, "model", MODELS, "internally tagged enum ArrivalSpec")?;
        let f = &rest;
        Ok(match model {
            1 => ArrivalSpec::Bursty { group_by: crate::json::fields::<Bursty, _>(f)?.group_by },
            3 => {
                let Replay { index, index_checksum } = crate::json::fields(f)?;
                ArrivalSpec::Replay { index, index_checksum }
            }
            5 => {
                let Tenants { tenants, overlap, tenant_by } = crate::json::fields(f)?;
                ArrivalSpec::Tenants { tenants, overlap, tenant_by }
            }
            m => {
                crate::json::fields::<NoFields, _>(f)?;
                match m {
                    0 => ArrivalSpec::Uniform,
                    2 => ArrivalSpec::Popularity,
                    _ => ArrivalSpec::Plane,
                }
            }
        })
    }
}

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(ArrivalSpec);

impl ArrivalSpec {
    /// Parses a CLI name (an id of [`ARRIVALS`]).
    pub fn parse(name: &str, group_by: Option<&str>) -> Result<ArrivalSpec> {
        let spec = match name {
            "uniform" => ArrivalSpec::Uniform,
            "bursty" => ArrivalSpec::Bursty { group_by: group_by.map(str::to_string) },
            "popularity" => ArrivalSpec::Popularity,
            "replay" => ArrivalSpec::Replay { index: None, index_checksum: None },
            "plane" => ArrivalSpec::Plane,
            "tenants" => ArrivalSpec::Tenants { tenants: None, overlap: None, tenant_by: None },
            _ => {
                let known: Vec<&str> = ARRIVALS.iter().map(|a| a.id).collect();
                return Err(Error::param(
                    "arrival",
                    format!("unknown arrival model `{name}`; known: {}", known.join(", ")),
                ));
            }
        };
        if group_by.is_some() && !matches!(spec, ArrivalSpec::Bursty { .. }) {
            return Err(Error::param("group_by", "groups are for the `bursty` model only"));
        }
        Ok(spec)
    }

    /// The model in words, as a run's description names it (`popularity arrivals (log-normal)`,
    /// `bursty arrivals by source`, `arrivals replayed from order.txt`).
    pub fn words(&self) -> String {
        match self {
            ArrivalSpec::Uniform => "uniform arrivals (jittered)".into(),
            ArrivalSpec::Bursty { group_by: Some(f) } => format!("bursty arrivals by {f}"),
            ArrivalSpec::Bursty { group_by: None } => "bursty arrivals".into(),
            ArrivalSpec::Popularity => "popularity arrivals (log-normal)".into(),
            ArrivalSpec::Replay { index: Some(f), .. } => format!("arrivals replayed from {f}"),
            ArrivalSpec::Replay { index: None, .. } => "arrivals replayed in the file's order".into(),
            ArrivalSpec::Plane => "plane arrivals (blob mixture)".into(),
            ArrivalSpec::Tenants { tenant_by: Some(f), .. } => format!("tenants by {f}"),
            ArrivalSpec::Tenants { tenants, overlap, .. } => format!(
                "{} tenants (overlap {})",
                tenants.unwrap_or(DEFAULT_TENANTS),
                overlap.unwrap_or(DEFAULT_OVERLAP)
            ),
        }
    }

    /// The record field a user dataset must be grouped by.
    pub fn group_by(&self) -> Option<&str> {
        match self {
            ArrivalSpec::Bursty { group_by } => group_by.as_deref(),
            ArrivalSpec::Tenants { tenant_by, .. } => tenant_by.as_deref(),
            _ => None,
        }
    }

    /// The index file of arrivals a `replay` model names, if any.
    pub fn replay_index(&self) -> Option<&str> {
        match self {
            ArrivalSpec::Replay { index, .. } => index.as_deref(),
            _ => None,
        }
    }

    /// The model for `dataset` under `params`; `replay` sets `params.horizon` to the number of
    /// rows, or of lines of its index file (SPEC: `T` is the log's length).
    pub fn resolve(&self, dataset: &Dataset, params: &mut Params) -> Result<ArrivalModel> {
        Ok(match self {
            ArrivalSpec::Uniform => ArrivalModel::Jittered {
                sigma: match params.synthetic_sigma {
                    Some(s) => s,
                    None => calibrate_sigma(dataset, SYNTHETIC_MEDIAN_DISTANCE)?,
                },
            },
            ArrivalSpec::Bursty { group_by } => {
                if dataset.user && group_by.is_none() {
                    return Err(Error::param(
                        "arrival",
                        "`bursty` on a user dataset needs the field its groups come from: --group-by FIELD (\"group_by\" in JSON)",
                    ));
                }
                if !dataset.user && group_by.is_some() {
                    return Err(Error::param(
                        "group_by",
                        format!("the built-in `{}` has its own groups; drop group_by", dataset.name),
                    ));
                }
                ArrivalModel::Bursty { burst_mean: params.burst_mean }
            }
            ArrivalSpec::Popularity => ArrivalModel::Popularity,
            ArrivalSpec::Replay { index, index_checksum } => {
                params.horizon = match (index, &dataset.replay) {
                    (None, None) => dataset.len(),
                    (Some(f), Some(r)) => {
                        if let Some(c) = index_checksum.as_ref().filter(|c| **c != r.checksum) {
                            return Err(Error::at(
                                "",
                                format!(
                                    "its arrivals have checksum {} but the experiment was defined with an index of checksum {c}; the file changed (drop \"index_checksum\" to accept it)",
                                    r.checksum
                                ),
                            )
                            .in_file(f));
                        }
                        r.order.len()
                    }
                    (Some(f), None) => {
                        return Err(Error::param(
                            "arrival",
                            format!("the replay index `{f}` was not read with the dataset; load it with the data"),
                        ))
                    }
                    (None, Some(r)) => {
                        return Err(Error::param(
                            "arrival",
                            format!(
                                "the dataset was read with the replay index `{}`; name it (\"index\") or read the data without it",
                                r.file
                            ),
                        ))
                    }
                };
                ArrivalModel::Replay
            }
            ArrivalSpec::Tenants { tenants, overlap, tenant_by } => match tenant_by {
                Some(f) => {
                    if !dataset.user {
                        return Err(Error::param(
                            "tenant_by",
                            format!("the built-in `{}` has no record fields to group by; give tenants and overlap instead", dataset.name),
                        ));
                    }
                    if tenants.is_some() || overlap.is_some() {
                        return Err(Error::param(
                            "tenant_by",
                            format!("the tenants are the values of `{f}`; drop tenants and overlap"),
                        ));
                    }
                    ArrivalModel::Tenants { tenants: dataset.group_names.len() as u32, overlap: None }
                }
                None => ArrivalModel::Tenants {
                    tenants: tenants.unwrap_or(DEFAULT_TENANTS),
                    overlap: Some(overlap.unwrap_or(DEFAULT_OVERLAP)),
                },
            },
            ArrivalSpec::Plane => {
                if dataset.user || dataset.name != "plane" {
                    return Err(Error::param("arrival", "the `plane` model belongs to the plane dataset"));
                }
                ArrivalModel::Plane
            }
        })
    }
}

/// The model of `arrival` if given, else the dataset's SPEC §7 default (replay sets the horizon).
pub fn resolve_arrival(
    arrival: Option<&ArrivalSpec>,
    dataset: &Dataset,
    params: &mut Params,
) -> Result<ArrivalModel> {
    match arrival {
        Some(a) => a.resolve(dataset, params),
        None => ArrivalModel::default_for(dataset, params),
    }
}

impl ArrivalModel {
    /// The SPEC §7 model of a dataset: bursty for nq-trivia, the blob mixture for plane,
    /// jittered prompts otherwise (σ_e from `params` or calibrated).
    pub fn default_for(dataset: &Dataset, params: &Params) -> Result<ArrivalModel> {
        let builtin = if dataset.user { "" } else { dataset.name.as_str() };
        Ok(match builtin {
            "nq-trivia" => ArrivalModel::Bursty { burst_mean: params.burst_mean },
            "plane" => ArrivalModel::Plane,
            _ => ArrivalModel::Jittered {
                sigma: match params.synthetic_sigma {
                    Some(s) => s,
                    None => calibrate_sigma(dataset, SYNTHETIC_MEDIAN_DISTANCE)?,
                },
            },
        })
    }
}
