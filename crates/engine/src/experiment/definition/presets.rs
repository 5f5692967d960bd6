//! The paper's figures, declared once: one record per figure of the paper (§6 and the appendix;
//! SPEC §10) holding its definition (and its tuned variant's), the quick settings a browser tab
//! runs, its menu label, its claims ([`crate::experiment::headline::claims`]) and the kind of chart
//! that draws it. The registry ([`crate::experiment::definition::registry`]) lists each figure's
//! experiment from its record, the page builds its menu and quick runs from [`paper_presets`], the
//! URL codec validates against it, and every description a reader sees is [`describe`] of the
//! definition that actually ran, never a hand-written string.

use crate::config::Params;
use crate::error::Result;
use crate::experiment::headline::claims::Widths;
use crate::experiment::headline::{evaluate, At, Claim, Comparison, Headline};
use crate::experiment::stats::num;
use crate::experiment::UnitResult;
use crate::experiment::{DatasetId, ExperimentSpec, Measure};
use crate::online::PolicyKind;
use serde::{Serialize, Serializer};

/// How an experiment's definition is made from the SPEC defaults: `(id, defaults) → definition`.
pub type Make = fn(&str, Params) -> ExperimentSpec;

/// The quick settings of a preset: fewer seeds, rounds and sweep values than the paper's, enough
/// seeds (≥ 5) for the headline verdicts ([`crate::experiment::headline`]) to mean something.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Quick {
    pub seeds: usize,
    /// Parameters replaced (`n_eval`, `horizon`, `log_len`).
    pub overrides: &'static [(&'static str, f64)],
    /// The sweep's values, when fewer than the paper's.
    pub sweep_values: Option<&'static [f64]>,
    /// Online policies left out (the slowest).
    pub drop: &'static [PolicyKind],
}

/// How the page draws a figure's report (www/js/views/paper.js maps each kind to its charts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ChartKind {
    /// Gap (and loss) per offline algorithm against the swept parameter (Fig. 2(a, b), Figs. 5–6).
    Offline,
    /// Average regret over rounds and runtime against final regret (Fig. 2(c–f)).
    Online,
    /// The KRR estimate's error at the centers over rounds (appendix Fig. 12).
    KrrError,
    /// Distance distributions, token-length CDFs and the 2-D projection (appendix Figs. 3–4, 8–11).
    Geometry,
    /// Whatever the report holds (the charts any experiment's report draws).
    Report,
}

/// A figure's variant with the tuned offline widths: its experiment id and definition.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub id: &'static str,
    pub make: Make,
}

/// One figure of the paper: everything the registry, the page, the CLI and the headline table
/// know about it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Preset {
    /// The experiment id (`fig-a`, …).
    pub id: &'static str,
    /// The menu label: which figure of the paper.
    pub label: &'static str,
    /// How the page draws it.
    pub chart: ChartKind,
    /// A second experiment id of the same run (`fig-d` is `fig-c`'s run: its second panel).
    #[serde(skip)]
    pub also: Option<&'static str>,
    /// The definition at the paper's settings.
    #[serde(skip)]
    pub make: Make,
    /// The variant with tuned offline widths; serialised as its experiment id (or null).
    #[serde(serialize_with = "variant_id")]
    pub tuned: Option<Variant>,
    pub quick: Quick,
    /// The paper's claims for this figure ([`crate::experiment::headline::claims`]), at the widths that ran.
    #[serde(skip)]
    pub claims: fn(Widths) -> Vec<Claim>,
}

fn variant_id<S: Serializer>(v: &Option<Variant>, s: S) -> std::result::Result<S::Ok, S::Error> {
    v.map(|t| t.id).serialize(s)
}

impl Preset {
    /// Which widths the experiment `id` of this figure runs with, if `id` is one of its runs.
    pub fn widths_of(&self, id: &str) -> Option<Widths> {
        if id == self.id || self.also == Some(id) {
            Some(Widths::Theoretical)
        } else if self.tuned.is_some_and(|t| t.id == id) {
            Some(Widths::Tuned)
        } else {
            None
        }
    }
}

/// An offline figure's quick settings: 5 seeds, these overrides and sweep values.
const fn off(overrides: &'static [(&'static str, f64)], sweep: &'static [f64]) -> Quick {
    Quick { seeds: 5, overrides, sweep_values: Some(sweep), drop: &[] }
}

/// An online figure's quick settings: 5 seeds, these overrides, without the slowest policy.
const fn online(overrides: &'static [(&'static str, f64)]) -> Quick {
    Quick { seeds: 5, overrides, sweep_values: None, drop: &[PolicyKind::ClcbFrozenCont] }
}

use crate::experiment::definition::builtins as r;
use crate::experiment::headline::claims as c;

/// Fig. 2(a): offline gap against the stream length.
pub const FIG_A: Preset = Preset {
    id: "fig-a",
    label: "Fig. 2(a): offline gap vs stream length",
    chart: ChartKind::Offline,
    also: None,
    make: r::fig_a,
    tuned: Some(Variant { id: "fig-a-tuned", make: r::fig_a_tuned }),
    quick: off(&[("n_eval", 2000.0)], &[100.0, 200.0, 500.0, 1000.0]),
    claims: c::fig_a,
};

/// Fig. 2(b): offline gap against ε.
pub const FIG_B: Preset = Preset {
    id: "fig-b",
    label: "Fig. 2(b): offline gap vs ε",
    chart: ChartKind::Offline,
    also: None,
    make: r::fig_b,
    tuned: Some(Variant { id: "fig-b-tuned", make: r::fig_b_tuned }),
    quick: off(&[("n_eval", 2000.0), ("log_len", 500.0)], &[0.2, 0.3, 0.4, 0.5, 0.6, 0.8]),
    claims: c::fig_b,
};

/// Fig. 2(c, d): online on synthetic data; `fig-d` is the same run.
pub const FIG_C: Preset = Preset {
    id: "fig-c",
    label: "Fig. 2(c, d): online, synthetic",
    chart: ChartKind::Online,
    also: Some("fig-d"),
    make: r::fig_c_d,
    tuned: None,
    quick: online(&[("n_eval", 2000.0), ("horizon", 1500.0)]),
    claims: c::online_synthetic,
};

/// Fig. 2(e, f): online on nq-trivia; `fig-f` is the same run.
pub const FIG_E: Preset = Preset {
    id: "fig-e",
    label: "Fig. 2(e, f): online, nq-trivia",
    chart: ChartKind::Online,
    also: Some("fig-f"),
    make: r::fig_e_f,
    tuned: None,
    quick: online(&[("n_eval", 1000.0), ("horizon", 1000.0)]),
    claims: c::online_nq,
};

/// Appendix Figs. 5–6: offline gap and loss against k.
pub const ABL_K: Preset = Preset {
    id: "abl-k",
    label: "Appendix Figs. 5–6: offline gap and loss vs k",
    chart: ChartKind::Offline,
    also: None,
    make: r::abl_k,
    tuned: None,
    quick: off(&[("n_eval", 2000.0)], &[3.0, 5.0, 8.0, 12.0, 20.0]),
    claims: c::abl_k,
};

/// Appendix Fig. 12: the KRR estimate's error over rounds.
pub const KRR_ERR: Preset = Preset {
    id: "krr-err",
    label: "Appendix Fig. 12: KRR error over rounds",
    chart: ChartKind::KrrError,
    also: None,
    make: r::krr_err,
    tuned: None,
    quick: Quick {
        seeds: 5,
        overrides: &[("n_eval", 1000.0), ("horizon", 1500.0)],
        sweep_values: None,
        drop: &[],
    },
    claims: c::krr_err,
};

/// Appendix Figs. 3–4, 8–11, 13–20: the geometry of the data.
pub const GEOM: Preset = Preset {
    id: "geom",
    label: "Appendix Figs. 3–4, 8–11, 13–20: geometry of the data",
    chart: ChartKind::Geometry,
    also: None,
    make: r::geom,
    tuned: None,
    quick: Quick { seeds: 5, overrides: &[], sweep_values: None, drop: &[] },
    claims: c::geom,
};

/// A fixture for tests/fixture_preset.rs (cargo feature `fixture-preset`, never in a shipped
/// build): adding a preset is this one record (and its line in [`paper_presets`]); the URL codec,
/// `csc list` and the page's menu follow. Its definition is the registry's `sens-on-beta`.
#[cfg(feature = "fixture-preset")]
pub const FIXTURE: Preset = Preset {
    id: "sens-on-beta",
    label: "Fixture: online regret vs β",
    chart: ChartKind::Report,
    also: None,
    make: r::sens_on_beta,
    tuned: None,
    quick: online(&[("n_eval", 1000.0), ("horizon", 500.0)]),
    claims: c::none,
};

/// Every preset of the paper view, in menu order (fig-d is fig-c's run, fig-f is fig-e's).
pub fn paper_presets() -> Vec<&'static Preset> {
    #[allow(unused_mut)]
    let mut presets = vec![&FIG_A, &FIG_B, &FIG_C, &FIG_E, &ABL_K, &KRR_ERR, &GEOM];
    #[cfg(feature = "fixture-preset")]
    presets.push(&FIXTURE);
    presets
}

/// The figure whose run the experiment `id` is (`fig-a`, `fig-a-tuned`, `fig-d`, …), with the
/// widths it runs at.
pub fn figure(id: &str) -> Option<(&'static Preset, Widths)> {
    paper_presets().into_iter().find_map(|p| p.widths_of(id).map(|w| (p, w)))
}

/// The preset whose run the experiment `id` is (a `-tuned` id finds its figure's preset).
pub fn preset(id: &str) -> Option<&'static Preset> {
    figure(id).map(|(p, _)| p)
}

impl Quick {
    /// `spec` with these quick settings applied.
    pub fn apply(&self, mut spec: ExperimentSpec) -> Result<ExperimentSpec> {
        spec.seeds = self.seeds;
        for (k, v) in self.overrides {
            spec.params = crate::config::with_param(&spec.params, k, &json_number(*v))?;
        }
        if let (Some(values), Some(sweep)) = (self.sweep_values, spec.sweep.as_mut()) {
            sweep.values = values.iter().map(|v| json_number(*v)).collect();
        }
        if let Measure::Online { policies }
        | Measure::Tenants { policies }
        | Measure::Attack { policies, .. } = &mut spec.measure
        {
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

/// The frontier view's quick settings: the `frontier` experiment (its k = 50, on synthetic
/// [`crate::experiment::definition::builtins::SYNTHETIC_FRONTIER_K`], and every family of
/// [`crate::experiment::definition::registry`]) and 3 seeds; its horizon is the view's (the page's
/// T, 1,000 by default as `csc::bindings::url_state::page_params`, so a browser tab on 2 cores
/// draws it in about a minute: docs/PERFORMANCE.md) with `n_eval = T`, which
/// [`crate::experiment::frontier_definition`] sets.
pub fn frontier_quick() -> Quick {
    Quick { seeds: 3, overrides: &[], sweep_values: None, drop: &[] }
}

/// The dataset as a reader knows it: a built-in's name, or "your data (file)".
pub(crate) fn dataset_name(d: &DatasetId) -> String {
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
    // The arrival model of a dataset object: the one it names, else a user file's default
    // (uniform; `stream::resolve_arrival`). A built-in's own model (SPEC §7) goes unsaid.
    if let DatasetId::Spec(s) = &spec.dataset {
        match (&s.arrival, &s.jsonl) {
            (Some(a), _) => parts.push(a.words()),
            (None, Some(_)) => parts.push(crate::stream::ArrivalSpec::Uniform.words()),
            (None, None) => {}
        }
    }
    let mut put = |key: &str, v: f64| {
        if !swept(key) {
            parts.push(format!("{} = {}", crate::config::symbol_of(key), num(v)));
        }
    };
    match &spec.measure {
        Measure::Offline { .. } => {
            put("k", p.k as f64);
            put("epsilon", p.epsilon);
            put("log_len", p.log_len as f64);
            put("n_eval", p.n_eval as f64);
            put("beta_off", p.beta_off);
            put("lambda", p.lambda);
        }
        Measure::Online { .. }
        | Measure::Frontier { .. }
        | Measure::Tenants { .. }
        | Measure::Attack { .. } => {
            put("k", p.k as f64);
            put("epsilon", p.epsilon);
            put("horizon", p.horizon as f64);
            put("n_eval", p.n_eval as f64);
            put("beta", p.beta);
        }
        Measure::Geometry { stream } => parts.push(format!("{} arrivals", num(*stream as f64))),
    }
    if let Some(s) = &spec.sweep {
        let vals = |values: &[serde_json::Value]| -> String {
            let v: Vec<String> =
                values.iter().map(|v| v.as_f64().map_or_else(|| v.to_string(), num)).collect();
            v.join(", ")
        };
        let mut axis = format!("{} = {}", crate::config::symbol_of(&s.param), vals(&s.values));
        if let Some(b) = &s.by {
            axis.push_str(&format!(" × {} = {}", crate::config::symbol_of(&b.param), vals(&b.values)));
        }
        parts.push(axis);
    }
    match &spec.measure {
        Measure::Online { policies } | Measure::Tenants { policies } => {
            let names: Vec<&str> = policies.iter().map(|p| p.label()).collect();
            parts.push(names.join(", "));
        }
        Measure::Attack { policies, p, distance } => {
            let ps: Vec<String> = p.iter().map(|v| num(*v)).collect();
            parts.push(format!("attack p = {}, confusable d = {}", ps.join(", "), num(*distance)));
            let names: Vec<&str> = policies.iter().map(|p| p.label()).collect();
            parts.push(names.join(", "));
        }
        Measure::Frontier { families } => {
            let names: Vec<String> = families
                .iter()
                .map(|f| match &f.param {
                    Some(param) => {
                        format!("{} over {} {}", f.name(), crate::config::symbol_of(param), f.values.len())
                    }
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

/// The claims of the figure whose run the experiment `id` is (`fig-a`, `fig-a-tuned`, `fig-d`, …;
/// [`figure`]); `None` for other experiments.
pub fn claims(id: &str) -> Option<Vec<Claim>> {
    let (p, widths) = figure(id)?;
    Some((p.claims)(widths)).filter(|c| !c.is_empty())
}

/// The headline table of a run whose experiment is a figure's with claims ([`claims`]), from its
/// units; `None` for other experiments and on other data than the figure's.
pub fn headline(spec: &ExperimentSpec, units: &[UnitResult]) -> Option<Headline> {
    evaluate(spec, units, &claims(&spec.id)?)
}

/// A value of a metric the paper prints, to mark on the figure that plots the metric.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PaperValue {
    /// The claim, in words.
    pub what: &'static str,
    /// The metric (an observation's metric name, e.g. `final_avg_regret`).
    pub metric: &'static str,
    /// The algorithm id, or the series name, the value is of.
    pub series: &'static str,
    /// The x it is read at; `None`: the final x (the last round or sweep value).
    pub x: Option<f64>,
    /// The paper's number.
    pub value: f64,
    /// The number as the paper prints it.
    pub printed: &'static str,
    /// Where the paper states it.
    pub source: &'static str,
}

/// The numbers the paper prints for a preset's metrics: its claims that compare a value
/// ([`Comparison::Value`], and [`Comparison::Calibrated`]: the value the run is set to give), not
/// a reduction or ratio, which no axis of the figure shows.
pub fn paper_values(preset: &str) -> Vec<PaperValue> {
    let mut out = Vec::new();
    for c in claims(preset).unwrap_or_default() {
        let (Comparison::Value { ours } | Comparison::Calibrated { ours }, Some(printed)) =
            (c.comparison, c.paper)
        else {
            continue;
        };
        let Ok(value) = printed.parse::<f64>() else { continue };
        let x = match c.at {
            At::X(x) => Some(x),
            At::Final | At::Every => None,
        };
        out.push(PaperValue {
            what: c.what,
            metric: c.metric,
            series: ours.id(),
            x,
            value,
            printed,
            source: c.source,
        });
    }
    out
}

#[cfg(test)]
mod paper_value_tests {
    use super::*;

    #[test]
    fn fig_c_marks_the_printed_final_regret_of_clcb_sc_ls_cont() {
        let v = paper_values("fig-c");
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(
            (v[0].metric, v[0].series, v[0].x, v[0].value),
            ("final_avg_regret", "clcb-sc-ls-cont", None, 0.0083)
        );
        assert_eq!(paper_values("fig-e")[0].value, 0.0061);
    }

    #[test]
    fn reductions_and_ratios_are_not_values_and_unknown_presets_have_none() {
        // fig-a prints a reduction in percent (73.32 %), which no axis of its figure shows.
        assert!(paper_values("fig-a").is_empty());
        assert!(paper_values("no-such-preset").is_empty());
        // The geometry figure prints medians, read at the quantile level 0.5.
        let g = paper_values("geom");
        assert!(!g.is_empty() && g.iter().all(|p| p.x == Some(0.5) && p.value > 0.0), "{g:?}");
    }
}
