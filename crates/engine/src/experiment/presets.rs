//! The paper view's presets, declared once: one per figure of the paper (§6 and the appendix;
//! SPEC §10), each an experiment of [`super::registry`] with the quick settings a browser tab runs
//! and a label. The page builds its menu and quick runs from [`PAPER_PRESETS`], the URL codec
//! validates against it, and every description a reader sees is [`describe`] of the definition
//! that actually ran, never a hand-written string.

use super::{builtin, DatasetId, ExperimentSpec, Measure};
use crate::error::Result;
use crate::online::PolicyKind;
use serde::Serialize;

/// The quick settings of a preset: fewer seeds, rounds and sweep values than the paper's, enough
/// seeds (≥ 5) for the headline verdicts ([`super::headline`]) to mean something.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Quick {
    pub seeds: usize,
    /// Parameters replaced (`n_eval`, `horizon`, `log_len`).
    pub overrides: Vec<(&'static str, f64)>,
    /// The sweep's values, when fewer than the paper's.
    pub sweep_values: Option<Vec<f64>>,
    /// Online policies left out (the slowest).
    pub drop: Vec<PolicyKind>,
}

/// One preset of the paper view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preset {
    /// The experiment id (`fig-a`, …).
    pub id: &'static str,
    /// The menu label: which figure of the paper.
    pub label: &'static str,
    /// Whether `<id>-tuned` exists (tuned offline widths, docs/REPRODUCTION.md).
    pub tuned: bool,
    pub quick: Quick,
}

/// Every preset of the paper view, in menu order (fig-d is fig-c's run, fig-f is fig-e's).
pub fn paper_presets() -> Vec<Preset> {
    let off = |n_eval: f64, extra: Option<(&'static str, f64)>, sweep: &[f64]| Quick {
        seeds: 5,
        overrides: std::iter::once(("n_eval", n_eval)).chain(extra).collect(),
        sweep_values: Some(sweep.to_vec()),
        drop: vec![],
    };
    let online = |n_eval: f64, horizon: f64| Quick {
        seeds: 5,
        overrides: vec![("n_eval", n_eval), ("horizon", horizon)],
        sweep_values: None,
        drop: vec![PolicyKind::ClcbFrozenCont],
    };
    #[allow(unused_mut)]
    let mut presets = vec![
        Preset {
            id: "fig-a",
            label: "Fig. 2(a): offline gap vs stream length",
            tuned: true,
            quick: off(2000.0, None, &[100.0, 200.0, 500.0, 1000.0]),
        },
        Preset {
            id: "fig-b",
            label: "Fig. 2(b): offline gap vs ε",
            tuned: true,
            quick: off(2000.0, Some(("log_len", 500.0)), &[0.2, 0.3, 0.4, 0.5, 0.6, 0.8]),
        },
        Preset {
            id: "fig-c",
            label: "Fig. 2(c, d): online, synthetic",
            tuned: false,
            quick: online(2000.0, 1500.0),
        },
        Preset {
            id: "fig-e",
            label: "Fig. 2(e, f): online, nq-trivia",
            tuned: false,
            quick: online(1000.0, 1000.0),
        },
        Preset {
            id: "abl-k",
            label: "Appendix Figs. 5–6: offline gap and loss vs k",
            tuned: false,
            quick: off(2000.0, None, &[3.0, 5.0, 8.0, 12.0, 20.0]),
        },
        Preset {
            id: "krr-err",
            label: "Appendix Fig. 12: KRR error over rounds",
            tuned: false,
            quick: Quick {
                seeds: 5,
                overrides: vec![("n_eval", 1000.0), ("horizon", 1500.0)],
                sweep_values: None,
                drop: vec![],
            },
        },
        Preset {
            id: "geom",
            label: "Appendix Figs. 3–4, 8–11, 13–20: geometry of the data",
            tuned: false,
            quick: Quick { seeds: 5, overrides: vec![], sweep_values: None, drop: vec![] },
        },
    ];
    // A fixture for tests/fixture_preset.rs (cargo feature `fixture-preset`, never in a shipped
    // build): adding a preset is this one entry; the URL codec, `csc list` and the page's menu
    // follow.
    #[cfg(feature = "fixture-preset")]
    presets.push(Preset {
        id: "sens-on-beta",
        label: "Fixture: online regret vs β",
        tuned: false,
        quick: online(1000.0, 500.0),
    });
    presets
}

/// The preset `id` (a `-tuned` id finds its figure's preset).
pub fn preset(id: &str) -> Option<Preset> {
    paper_presets().into_iter().find(|p| p.id == id.trim_end_matches("-tuned"))
}

impl Quick {
    /// `spec` with these quick settings applied.
    pub fn apply(&self, mut spec: ExperimentSpec) -> Result<ExperimentSpec> {
        spec.seeds = self.seeds;
        for (k, v) in &self.overrides {
            spec.params = crate::config::with_param(&spec.params, k, &json_number(*v))?;
        }
        if let (Some(values), Some(sweep)) = (&self.sweep_values, spec.sweep.as_mut()) {
            sweep.values = values.iter().map(|v| json_number(*v)).collect();
        }
        if let Measure::Online { policies } = &mut spec.measure {
            policies.retain(|p| !self.drop.contains(p));
        }
        spec.validate()?;
        Ok(spec)
    }
}

/// A whole number as a JSON integer (counts such as `k` and `n_eval` parse only from those).
fn json_number(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        serde_json::json!(v as i64)
    } else {
        serde_json::json!(v)
    }
}

/// The definition of preset `id` (or `<id>-tuned`) at quick settings.
pub fn quick_spec(id: &str) -> Result<ExperimentSpec> {
    let spec = builtin(id)?;
    match preset(id) {
        Some(p) => p.quick.apply(spec),
        None => Ok(spec),
    }
}

/// The frontier view's quick settings (issue 24, item 4): the `frontier` experiment (its k = 50,
/// on synthetic [`super::frontier::SYNTHETIC_FRONTIER_K`], and every family of
/// [`super::registry`]) over the page's horizon and evaluation sample
/// (T = 1,000, n_eval = 1,000, as `csc::bindings::url_state::page_params`) and 3 seeds, so a
/// browser tab on 2 cores draws it in about a minute (docs/PERFORMANCE.md).
pub fn frontier_quick() -> Quick {
    Quick {
        seeds: 3,
        overrides: vec![("horizon", 1000.0), ("n_eval", 1000.0)],
        sweep_values: None,
        drop: vec![],
    }
}

/// The frontier at the frontier view's quick settings ([`frontier_quick`]) on `dataset` (a
/// built-in or a dataset object naming the reader's file), titled after it. The CLI runs the same
/// definition (`csc run <its JSON>`) to the same bits.
pub fn frontier_definition(dataset: DatasetId) -> Result<ExperimentSpec> {
    let mut spec = frontier_quick().apply(builtin("frontier")?)?;
    if dataset == DatasetId::Synthetic {
        spec.params.k = super::frontier::SYNTHETIC_FRONTIER_K;
    }
    spec.dataset = dataset;
    spec.title = super::frontier::frontier_title(&dataset_name(&spec.dataset), &spec.params, spec.seeds);
    spec.validate()?;
    Ok(spec)
}

/// The dataset as a reader knows it: a built-in's name, or "your data (file)".
fn dataset_name(d: &DatasetId) -> String {
    match d {
        DatasetId::Synthetic => "synthetic".to_string(),
        DatasetId::NqTrivia => "nq-trivia".to_string(),
        DatasetId::Plane => "plane".to_string(),
        DatasetId::Spec(s) => match (&s.builtin, &s.jsonl) {
            (_, Some(file)) => format!("your data ({file})"),
            (Some(b), None) => b.clone(),
            (None, None) => "your data".to_string(),
        },
    }
}

/// Thousands separated by commas (`5,000`), other numbers as they print.
pub(super) fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() >= 1000.0 && v.abs() < 1e15 {
        let s = format!("{}", v.abs() as u64);
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0.0 {
            format!("-{out}")
        } else {
            out
        }
    } else {
        format!("{v}")
    }
}

/// The name a reader knows a swept parameter by.
pub fn param_label(param: &str) -> &str {
    match param {
        "log_len" => "stream length",
        "epsilon" => "ε",
        "k" => "k",
        "horizon" => "T",
        "beta" => "β",
        "beta_off" => "β_off",
        "lambda" => "λ",
        "kernel_length" => "ℓ_k",
        "zeta" => "ζ",
        "noise_r" => "R",
        "threshold_tau" => "τ",
        other => other,
    }
}

/// What ran, in words, from the resolved definition: dataset, the parameters that matter for its
/// measure, the sweep, the algorithms and the seeds. Every title and description of a result on
/// the page is this text of the definition that ran.
pub fn describe(spec: &ExperimentSpec) -> String {
    let p = &spec.params;
    let dataset = dataset_name(&spec.dataset);
    let swept = |key: &str| {
        spec.sweep.as_ref().is_some_and(|s| s.param == key || s.by.as_ref().is_some_and(|b| b.param == key))
    };
    let mut parts = vec![dataset];
    let mut put = |name: &str, key: &str, v: f64| {
        if !swept(key) {
            parts.push(format!("{name} = {}", num(v)));
        }
    };
    match &spec.measure {
        Measure::Offline { .. } => {
            put("k", "k", p.k as f64);
            put("ε", "epsilon", p.epsilon);
            put("stream length", "log_len", p.log_len as f64);
            put("n_eval", "n_eval", p.n_eval as f64);
            put("β_off", "beta_off", p.beta_off);
            put("λ", "lambda", p.lambda);
        }
        Measure::Online { .. } | Measure::Frontier { .. } => {
            put("k", "k", p.k as f64);
            put("ε", "epsilon", p.epsilon);
            put("T", "horizon", p.horizon as f64);
            put("n_eval", "n_eval", p.n_eval as f64);
            put("β", "beta", p.beta);
        }
        Measure::Geometry { stream } => parts.push(format!("{} arrivals", num(*stream as f64))),
    }
    if let Some(s) = &spec.sweep {
        let vals = |values: &[serde_json::Value]| -> String {
            let v: Vec<String> =
                values.iter().map(|v| v.as_f64().map_or_else(|| v.to_string(), num)).collect();
            v.join(", ")
        };
        let mut axis = format!("{} = {}", param_label(&s.param), vals(&s.values));
        if let Some(b) = &s.by {
            axis.push_str(&format!(" × {} = {}", param_label(&b.param), vals(&b.values)));
        }
        parts.push(axis);
    }
    match &spec.measure {
        Measure::Online { policies } => {
            let names: Vec<&str> = policies.iter().map(|p| p.label()).collect();
            parts.push(names.join(", "));
        }
        Measure::Frontier { families } => {
            let names: Vec<String> = families
                .iter()
                .map(|f| match &f.param {
                    Some(param) => format!("{} over {} {}", f.name(), param_label(param), f.values.len()),
                    None => f.name(),
                })
                .collect();
            parts.push(names.join(", "));
        }
        _ => {}
    }
    parts.push(format!(
        "{} seed{} ({}…)",
        spec.seeds,
        if spec.seeds == 1 { "" } else { "s" },
        spec.first_seed
    ));
    parts.join(", ")
}
