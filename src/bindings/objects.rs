//! The plain objects the page layer builds from engine values before serialising them across the
//! boundary (the exports in `catalog`, `page`, `params` and `reproduce` call these and only
//! convert): a paper preset with its descriptions, the page's controls, a decoded link, a report
//! read back, the committed native determinism report. Plain Rust, compiled natively too, so that
//! their TypeScript declarations are generated from them with the engine's (`super::typescript`).

use super::controls::{self, HideGroup, PageControl};
use super::url_state::{self, UrlState};
use crate::checksum::{self, DeterminismReport};
use crate::experiment::{builtin, describe, paper_presets, quick_spec, ChartKind, DatasetId, Report};
use crate::online::PolicyKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// The quick settings of a preset, as an experiment request takes them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct PresetQuick {
    pub seeds: usize,
    /// Parameters set on top of the full definition's.
    pub overrides: BTreeMap<&'static str, f64>,
    /// The sweep's values at quick settings, when they differ from the full ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_values: Option<Vec<f64>>,
    /// Policies the quick run leaves out.
    pub drop: Vec<PolicyKind>,
}

/// One preset of the paper view (from `csc::experiment::definition::presets::Preset`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct PaperPreset {
    /// The experiment id (`fig-a`, …).
    pub id: &'static str,
    /// Which figure of the paper.
    pub label: &'static str,
    /// The experiment id of its variant with tuned offline widths (`fig-a-tuned`), if it has one.
    pub tuned: Option<&'static str>,
    /// How the page draws its report.
    pub chart: ChartKind,
    /// The built-in dataset it runs on.
    #[cfg_attr(not(target_arch = "wasm32"), ts(type = "\"synthetic\" | \"nq-trivia\" | \"plane\""))]
    pub dataset: &'static str,
    /// The quick settings, as an experiment request takes them.
    pub quick: PresetQuick,
    /// What the quick settings run, generated from their definition.
    pub quick_description: String,
    /// What the full settings run, generated from their definition.
    pub full_description: String,
}

/// The paper view's presets, from the engine's one list ([`paper_presets`]), each with its quick
/// settings and both descriptions; a preset whose definitions do not build is left out.
pub fn paper_preset_list() -> Vec<PaperPreset> {
    let mut out = Vec::new();
    for p in paper_presets() {
        let (Ok(full), Ok(quick)) = (builtin(p.id), quick_spec(p.id)) else { continue };
        let dataset = match full.dataset {
            DatasetId::NqTrivia => "nq-trivia",
            DatasetId::Plane => "plane",
            _ => "synthetic",
        };
        out.push(PaperPreset {
            id: p.id,
            label: p.label,
            tuned: p.tuned.map(|t| t.id),
            chart: p.chart,
            dataset,
            quick: PresetQuick {
                seeds: p.quick.seeds,
                overrides: p.quick.overrides.iter().copied().collect(),
                sweep_values: p.quick.sweep_values.map(<[f64]>::to_vec),
                drop: p.quick.drop.to_vec(),
            },
            quick_description: describe(&quick),
            full_description: describe(&full),
        });
    }
    out
}

/// The page's controls, the other parts a link may hide, and what `embed=1` hides by default.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct PageControls {
    pub controls: Vec<PageControl>,
    pub groups: &'static [HideGroup],
    pub embed_hide: [&'static str; 2],
    /// Every name `?hide=` takes.
    pub hide_names: Vec<&'static str>,
}

/// The page's controls as one table ([`controls`]).
pub fn page_control_table() -> PageControls {
    PageControls {
        controls: url_state::page_controls(),
        groups: controls::HIDE_GROUPS,
        embed_hide: controls::EMBED_HIDE,
        hide_names: url_state::hide_names(),
    }
}

/// A query string read leniently: the usable state and one message per key that was not used.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct DecodedUrlState {
    pub state: UrlState,
    pub errors: Vec<String>,
    /// What the page hides ([`UrlState::hidden`]: an embedded page's defaults and the link's
    /// `hide`; hide flags only ever remove).
    pub hidden: Vec<String>,
}

/// A report file read back by `readReport`: the report re-derived from its units, and its exports.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct LoadedReport<'a> {
    pub report: &'a Report,
    /// The report as JSON (the CLI's `<id>.json`).
    pub json: String,
    /// The statistics as CSV (the CLI's `<id>.csv`).
    pub csv: String,
    /// The CLI's summary table.
    pub summary: String,
}

/// The result of `nativeDeterminismReport`: the committed native report for seed 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct NativeDeterminismReport {
    #[serde(flatten)]
    pub report: DeterminismReport,
    /// Stages that are bit-identical on every platform.
    pub portable: &'static [&'static str],
}

/// The report `determinismReport(0)` gives natively (x86-64 Linux), committed with the engine.
pub fn native_determinism_report() -> NativeDeterminismReport {
    let report = DeterminismReport {
        seed: 0,
        checksum: checksum::DETERMINISM_SEED0.to_string(),
        stages: checksum::STAGES_SEED0
            .iter()
            .map(|(stage, hash)| checksum::StageHash { stage: stage.to_string(), hash: hash.to_string() })
            .collect(),
        krr_summary: checksum::KRR_SUMMARY_SEED0,
    };
    NativeDeterminismReport { report, portable: checksum::PORTABLE_STAGES }
}
