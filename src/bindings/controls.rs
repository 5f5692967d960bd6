//! The page's controls, one builder per link key of the key table
//! ([`super::url_state::url_keys`], after TF Playground's `PROPS`, whose entries name these): the
//! state key each edits, its range or choices, its hint and reference, where it sits and when it
//! applies; and the parts of the page besides the controls a link may hide ([`HIDE_GROUPS`], by
//! name only). Plain Rust, tested natively; the facts come from the engine's lists:
//! [`crate::config::PARAMETERS`], [`crate::dataset::DATASETS`], [`crate::stream::ARRIVALS`],
//! the online policies of [`crate::algorithms`] and the paper presets.

use crate::algorithms::PolicyKind;
use crate::config::{param_info, Eviction, PARAMETERS};
use crate::dataset::DATASETS;
use crate::stream::ARRIVALS;
use serde::{Deserialize, Serialize};

/// The offline view's experiments (SPEC §10): the paper figures the engine draws as offline ones,
/// in the order of its preset records.
pub fn offline_experiments() -> Vec<&'static str> {
    use crate::experiment::ChartKind;
    crate::experiment::paper_presets()
        .iter()
        .filter(|p| p.chart == ChartKind::Offline)
        .map(|p| p.id)
        .collect()
}
/// Largest number of seeds the page runs.
pub const MAX_SEEDS: usize = 100;
/// Largest number of experiment workers a link may ask for (the page's pool, www/js/jobs.js).
pub const MAX_WORKERS: usize = 32;
/// Largest live speed (rounds per animation frame): the speed control's range and the URL
/// codec's check.
pub const MAX_SPEED: u32 = 10_000;

/// How the live view colours the arrivals (the page state's `colour`, the link's `colour=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub enum Colouring {
    /// By decision on the 2-D plane, by ε-net cell in a projection of higher dimension.
    #[default]
    Auto,
    /// Served from the cache or sent to the LLM.
    Decision,
    /// By the true nearest ε-net center (its Voronoi cell, §4).
    Cell,
}

impl Colouring {
    /// Every colouring, in the order the page lists them.
    pub const ALL: [Colouring; 3] = [Colouring::Auto, Colouring::Decision, Colouring::Cell];

    /// The id (the serde name: `auto`, `decision`, `cell`).
    pub const fn id(self) -> &'static str {
        match self {
            Colouring::Auto => "auto",
            Colouring::Decision => "decision",
            Colouring::Cell => "cell",
        }
    }

    /// The name the page shows.
    pub const fn label(self) -> &'static str {
        match self {
            Colouring::Auto => "auto",
            Colouring::Decision => "decision",
            Colouring::Cell => "ε-net cell",
        }
    }

    /// The ids, for messages.
    pub fn ids() -> String {
        Colouring::ALL.map(Colouring::id).join(", ")
    }
}

/// One choice of a select.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS), ts(rename = "PageChoice"))]
pub struct Choice {
    pub value: &'static str,
    pub label: String,
    /// Shown but not selectable until the page enables it (the user's data before a file is loaded).
    pub disabled: bool,
}

/// What kind of input a control is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS), ts(rename = "PageControlKind"))]
pub enum Kind {
    Number,
    Select,
    Checkbox,
}

/// One control of the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct PageControl {
    /// The element's id, and its name in `?hide=`.
    pub id: &'static str,
    pub kind: Kind,
    /// The field of the page state it edits: `params.<id>` for a parameter, else a `UrlState`
    /// field (`dataset`, `seeds`, `offline`, `full`, `p1`…`p4`, `speed`, `colour`); `arrival` is
    /// the uploaded data's model, which only the link's fragment carries. A select's empty choice
    /// (p3, p4: no panel) is `null` in the state.
    pub key: String,
    /// The label: a parameter's symbol (`_x` a subscript) or a name.
    pub label: String,
    /// One line under the control.
    pub hint: String,
    /// The paper's numbering and/or `SPEC-NOTES#anchor`.
    pub reference: &'static str,
    /// The container it is built into: `[data-controls="<section>"]` in index.html.
    pub section: &'static str,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
    pub choices: Vec<Choice>,
    /// A change restarts the live run at once (others apply on Reset).
    pub restart: bool,
    /// `Some("upload")`: shown only while the user's data is the dataset.
    pub when: Option<&'static str>,
    /// A number that may be left empty, meaning 0 ("automatic"; below `min`).
    pub auto: bool,
}

/// A part of the page a link may hide that is not one control. The engine names it; the page
/// maps the name to its elements (`data-hide="<name>"` in www/index.html and on the elements the
/// views add, hidden by www/css/style.css), so editing the HTML needs no wasm rebuild. `controls`
/// and `text` are broader: every element of class `controls` or `text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct HideGroup {
    pub name: &'static str,
    pub what: &'static str,
}

/// Parts of the page a link may hide besides the controls of the key table
/// ([`super::url_state::page_controls`]).
pub const HIDE_GROUPS: &[HideGroup] = &[
    HideGroup { name: "controls", what: "every control panel, toolbar and the tabs" },
    HideGroup { name: "text", what: "the introductions, explanations, citation and footer" },
    HideGroup { name: "tabs", what: "the view tabs" },
    HideGroup { name: "toolbar", what: "Play, Step and Reset" },
    HideGroup { name: "ask", what: "Ask a question" },
    HideGroup { name: "exports", what: "the export buttons" },
    HideGroup { name: "settings", what: "the run settings (dataset and parameters)" },
    HideGroup { name: "more", what: "More parameters" },
    HideGroup { name: "upload", what: "Load your data" },
    HideGroup { name: "policies", what: "the regret view's policy boxes" },
    HideGroup { name: "preset", what: "the paper view's figure menu" },
];

/// What an embedded page (`embed=1`) hides, with whatever else its link's `hide` names (hide flags
/// only ever remove: [`super::url_state::UrlState::hidden`]).
pub const EMBED_HIDE: [&str; 2] = ["controls", "text"];

/// A number control with nothing but its id, key, label and hint (the others fill in the rest).
pub(crate) fn number(id: &'static str, key: String, label: String, hint: String) -> PageControl {
    PageControl {
        id,
        kind: Kind::Number,
        key,
        label,
        hint,
        reference: "",
        section: "",
        min: None,
        max: None,
        step: None,
        choices: vec![],
        restart: false,
        when: None,
        auto: false,
    }
}

/// `name` with its first letter capitalised if it is an ASCII letter and its first word has no
/// capital already (`ε-net radius` and `vCache error bound` stay as they are).
fn sentence(name: &str) -> String {
    if name.split(' ').next().is_some_and(|w| w.chars().any(char::is_uppercase)) {
        return name.to_string();
    }
    let mut c = name.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// The select of one live panel's policy (`p1`…`p4`; p3, p4 may be none: no panel).
pub fn panel_control(id: &'static str) -> PageControl {
    let (letter, hint, reference) = match id {
        "p1" => ("A", "First panel", "§6; Algs. 3–5 for CLCB-SC-LS-Cont"),
        "p2" => ("B", "Second panel, same stream", "§6"),
        "p3" => ("C", "Optional third panel, same stream", "§6"),
        _ => ("D", "Optional fourth panel, same stream", "§6"),
    };
    let none = (id == "p3" || id == "p4").then(|| Choice {
        value: "",
        label: "none (no panel)".into(),
        disabled: false,
    });
    let policies = PolicyKind::ALL.iter().map(|p| p.info()).map(|p| Choice {
        value: p.id,
        label: p.name.into(),
        disabled: false,
    });
    PageControl {
        kind: Kind::Select,
        reference,
        section: "live",
        choices: none.into_iter().chain(policies).collect(),
        restart: true,
        ..number(id, id.into(), format!("Policy {letter}"), hint.into())
    }
}

/// The live view's speed (rounds per animation frame).
pub fn speed_control() -> PageControl {
    PageControl {
        section: "live",
        min: Some(1.0),
        max: Some(MAX_SPEED as f64),
        step: Some(1.0),
        ..number("speed", "speed".into(), "Speed".into(), "Rounds per frame".into())
    }
}

/// How the live view colours the arrivals.
pub fn colour_control() -> PageControl {
    PageControl {
        kind: Kind::Select,
        reference: "§4",
        section: "live",
        choices: Colouring::ALL
            .iter()
            .map(|c| Choice { value: c.id(), label: c.label().into(), disabled: false })
            .collect(),
        ..number(
            "colour-by",
            "colour".into(),
            "Colour arrivals by".into(),
            "Auto: decision on the 2-D plane, ε-net cell (Voronoi cell) otherwise".into(),
        )
    }
}

/// The dataset, then every parameter the page shows (the seed first: it names the stream; then
/// [`PARAMETERS`]' order; then the eviction rule's select), then the uploaded data's arrival model.
pub fn run_settings_controls() -> Vec<PageControl> {
    let mut out = vec![PageControl {
        kind: Kind::Select,
        reference: "§6; SPEC-NOTES#geometry-costs-datasets",
        section: "settings",
        choices: DATASETS
            .iter()
            .map(|d| Choice { value: d.id, label: d.label.to_string(), disabled: d.id == "upload" })
            .collect(),
        restart: true,
        ..number("dataset", "dataset".into(), "Dataset".into(), "Query universe and arrivals".into())
    }];
    let seed_first =
        PARAMETERS.iter().filter(|p| p.id == "seed").chain(PARAMETERS.iter().filter(|p| p.id != "seed"));
    for p in seed_first {
        let Some(c) = p.control else { continue };
        let unit = if p.unit.is_empty() { String::new() } else { format!(" ({})", p.unit) };
        out.push(PageControl {
            reference: p.reference,
            section: if c.more { "more" } else { "settings" },
            min: Some(c.min),
            max: (c.max < 9.0e15).then_some(c.max),
            step: Some(c.step),
            restart: p.id == "seed",
            ..number(
                p.id,
                format!("params.{}", p.id),
                p.symbol.into(),
                format!("{}{unit}. {}", sentence(p.name), p.doc),
            )
        });
    }
    out.push(eviction_control());
    out.push(frontier_horizon_control());
    out.push(PageControl {
        kind: Kind::Select,
        reference: "SPEC-NOTES#arrival-models",
        section: "arrival",
        choices: ARRIVALS
            .iter()
            .filter(|a| a.user)
            .map(|a| Choice { value: a.id, label: a.label.into(), disabled: false })
            .collect(),
        when: Some("upload"),
        ..number(
            "arrival",
            "arrival".into(),
            "Arrivals".into(),
            "Arrival model of your data in every view".into(),
        )
    });
    out
}

/// The select of the threshold cache's and vCache's eviction rule (`params.eviction`, under More
/// parameters): its choices are [`Eviction::ALL`], its text the parameter's entry.
pub fn eviction_control() -> PageControl {
    let p = param_info("eviction").expect("eviction is a parameter");
    PageControl {
        kind: Kind::Select,
        reference: p.reference,
        section: "more",
        choices: Eviction::ALL
            .iter()
            .map(|e| Choice { value: e.id(), label: e.label().into(), disabled: false })
            .collect(),
        ..number(
            p.id,
            format!("params.{}", p.id),
            p.symbol.into(),
            format!("{}. {}", sentence(p.name), p.doc),
        )
    }
}

/// The frontier view's own input of the one `params.horizon` state (the others sit under More
/// parameters): the frontier runs the engine's settings but this T, with `n_eval = T`
/// (`csc::experiment::frontier_definition`), so a link's `horizon` runs there too. Its range and
/// reference are the parameter's.
pub fn frontier_horizon_control() -> PageControl {
    let p = param_info("horizon").expect("horizon is a parameter");
    let c = p.control.expect("the horizon has a page control");
    PageControl {
        reference: p.reference,
        section: "frontier",
        min: Some(c.min),
        max: Some(c.max),
        step: Some(c.step),
        ..number(
            "frontier-horizon",
            format!("params.{}", p.id),
            p.symbol.into(),
            "Rounds of every run of the frontier, with n_eval = T (csc run frontier is T = 2,000); shared with the other views"
                .into(),
        )
    }
}

/// The three inputs of the one `seeds` state: the regret view's, the offline view's, the sweep's.
pub fn seeds_controls() -> Vec<PageControl> {
    let seeds = |id, section, hint: &str| PageControl {
        reference: "SPEC-NOTES#seeds-and-random-streams",
        section,
        min: Some(1.0),
        max: Some(MAX_SEEDS as f64),
        step: Some(1.0),
        ..number(id, "seeds".into(), "Seeds".into(), hint.into())
    };
    vec![
        seeds("seeds", "regret", "Independent streams per policy (mean and 95% band)"),
        seeds("seeds-offline", "offline", "Shared with the regret view"),
        seeds("seeds-sweep", "sweep", "Per cell; shared with the regret view"),
    ]
}

/// The offline view's experiment (labels from the paper presets).
pub fn offline_control() -> PageControl {
    let presets = crate::experiment::paper_presets();
    PageControl {
        kind: Kind::Select,
        reference: "§6; appendix A.3",
        section: "offline",
        choices: offline_experiments()
            .into_iter()
            .map(|id| Choice {
                value: id,
                label: presets.iter().find(|p| p.id == id).map_or(id.to_string(), |p| p.label.into()),
                disabled: false,
            })
            .collect(),
        ..number(
            "offline",
            "offline".into(),
            "Gap against".into(),
            "The parameter that varies; the others at their defaults".into(),
        )
    }
}

/// A checkbox of the paper view (`full`, `tuned`).
pub fn paper_checkbox(id: &'static str, reference: &'static str, label: &str, hint: &str) -> PageControl {
    PageControl {
        kind: Kind::Checkbox,
        reference,
        section: "paper",
        ..number(id, id.into(), label.into(), hint.into())
    }
}

/// The number of experiment workers (empty: automatic).
pub fn workers_control() -> PageControl {
    PageControl {
        section: "paper",
        min: Some(1.0),
        max: Some(MAX_WORKERS as f64),
        step: Some(1.0),
        auto: true,
        ..number(
            "workers",
            "workers".into(),
            "Workers".into(),
            "Experiment units in parallel (empty: as many as the browser has cores, capped)".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_sentences() {
        assert_eq!(sentence("cache size"), "Cache size");
        assert_eq!(sentence("ε-net radius"), "ε-net radius");
        assert_eq!(sentence("vCache error bound"), "vCache error bound");
    }
}
