//! The page's settings as one declarative table (after TF Playground's `state.ts`): every control
//! the page builds (`www/js/controls.js` reads [`page_controls`] through `pageControls()`), with
//! the state key it edits, its range or choices, its hint and reference, where it sits and when it
//! applies, and the names a link may hide (`?hide=seed,k`; [`check_hide`], called by the URL
//! codec). Plain Rust, tested natively; the facts come from the engine's lists:
//! [`crate::config::PARAMETERS`], [`crate::dataset::DATASETS`], [`crate::stream::ARRIVALS`],
//! the online policies of [`crate::algorithms`] and the paper presets.

use crate::algorithms::PolicyKind;
use crate::config::PARAMETERS;
use crate::dataset::DATASETS;
use crate::error::{Error, Result};
use crate::stream::ARRIVALS;
use serde::{Deserialize, Serialize};

/// Offline experiments of the offline view (SPEC §10).
pub const OFFLINE_EXPERIMENTS: [&str; 3] = ["fig-a", "fig-b", "abl-k"];
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

/// A part of the page a link may hide that is not one control: `selector` names its elements
/// (`controls` and `text` are body classes, as they cover elements the views add later).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct HideGroup {
    pub name: &'static str,
    pub selector: &'static str,
    pub what: &'static str,
}

/// Parts of the page a link may hide besides the controls of [`page_controls`].
pub const HIDE_GROUPS: &[HideGroup] = &[
    HideGroup { name: "controls", selector: "", what: "every control panel, toolbar and the tabs" },
    HideGroup { name: "text", selector: "", what: "the introductions, explanations and footer" },
    HideGroup { name: "tabs", selector: "nav.controls", what: "the view tabs" },
    HideGroup { name: "toolbar", selector: "#view-live .toolbar", what: "Play, Step and Reset" },
    HideGroup { name: "ask", selector: "#ask", what: "Ask a question" },
    HideGroup { name: "exports", selector: ".exports", what: "the export buttons" },
    HideGroup { name: "settings", selector: "#settings", what: "the run settings (dataset and parameters)" },
    HideGroup { name: "more", selector: "#more-params", what: "More parameters" },
    HideGroup { name: "upload", selector: ".upload-row", what: "Load your data" },
    HideGroup { name: "policies", selector: ".policies", what: "the regret view's policy boxes" },
    HideGroup { name: "preset", selector: "#preset", what: "the paper view's figure menu" },
];

/// What an embedded page (`embed=1`) hides when its link names nothing to hide.
pub const EMBED_HIDE: [&str; 2] = ["controls", "text"];

/// A number control with nothing but its id, key, label and hint (the others fill in the rest).
fn number(id: &'static str, key: String, label: String, hint: String) -> PageControl {
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

/// The live view's controls: the policy of each panel (p3, p4 may be none: no panel), the speed
/// and the colouring.
fn live_controls() -> Vec<PageControl> {
    let panels = [
        ("p1", "A", "First panel", "§6; Algs. 3–5 for CLCB-SC-LS-Cont"),
        ("p2", "B", "Second panel, same stream", "§6"),
        ("p3", "C", "Optional third panel, same stream", "§6"),
        ("p4", "D", "Optional fourth panel, same stream", "§6"),
    ];
    let mut out: Vec<PageControl> = panels
        .iter()
        .map(|&(id, letter, hint, reference)| {
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
        })
        .collect();
    out.push(PageControl {
        section: "live",
        min: Some(1.0),
        max: Some(MAX_SPEED as f64),
        step: Some(1.0),
        ..number("speed", "speed".into(), "Speed".into(), "Rounds per frame".into())
    });
    out.push(PageControl {
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
    });
    out
}

/// Every control the page builds, in page order.
pub fn page_controls() -> Vec<PageControl> {
    let mut out = Vec::new();
    out.push(PageControl {
        kind: Kind::Select,
        reference: "§6; SPEC-NOTES#geometry-costs-datasets",
        section: "settings",
        choices: DATASETS
            .iter()
            .map(|d| Choice { value: d.id, label: d.label.to_string(), disabled: d.id == "upload" })
            .collect(),
        restart: true,
        ..number("dataset", "dataset".into(), "Dataset".into(), "Query universe and arrivals".into())
    });
    // The seed first (it names the stream), then the parameters in the list's order.
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
    let seeds = |id, section, hint: &str| PageControl {
        reference: "SPEC-NOTES#seeds-and-random-streams",
        section,
        min: Some(1.0),
        max: Some(MAX_SEEDS as f64),
        step: Some(1.0),
        ..number(id, "seeds".into(), "Seeds".into(), hint.into())
    };
    out.push(seeds("seeds", "regret", "Independent streams per policy (mean and 95% band)"));
    let presets = crate::experiment::paper_presets();
    out.push(PageControl {
        kind: Kind::Select,
        reference: "§6; appendix A.3",
        section: "offline",
        choices: OFFLINE_EXPERIMENTS
            .iter()
            .map(|id| Choice {
                value: id,
                label: presets.iter().find(|p| p.id == *id).map_or(id.to_string(), |p| p.label.into()),
                disabled: false,
            })
            .collect(),
        ..number(
            "offline",
            "offline".into(),
            "Gap against".into(),
            "The parameter that varies; the others at their defaults".into(),
        )
    });
    out.push(seeds("seeds-offline", "offline", "Shared with the regret view"));
    out.push(seeds("seeds-sweep", "sweep", "Per cell; shared with the regret view"));
    out.push(PageControl {
        kind: Kind::Checkbox,
        reference: "§6",
        section: "paper",
        ..number(
            "full",
            "full".into(),
            "Full paper settings".into(),
            "All seeds and lengths of the paper (slow)".into(),
        )
    });
    out.push(PageControl {
        kind: Kind::Checkbox,
        reference: "SPEC-NOTES#kernel-and-confidence-widths",
        section: "paper",
        ..number(
            "tuned",
            "tuned".into(),
            "Tuned widths".into(),
            "β_off, λ chosen on held-out seeds (figs. a, b); default: theoretical".into(),
        )
    });
    out.push(PageControl {
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
    });
    out.extend(live_controls());
    out
}

/// Every name `?hide=` accepts: each control's id, then each group's name.
pub fn hide_names() -> Vec<&'static str> {
    page_controls().iter().map(|c| c.id).chain(HIDE_GROUPS.iter().map(|g| g.name)).collect()
}

/// Checks a link's hide list: every name known, none twice.
pub fn check_hide(names: &[String]) -> Result<()> {
    let known = hide_names();
    for (i, n) in names.iter().enumerate() {
        if !known.contains(&n.as_str()) {
            return Err(Error::param("hide", format!("unknown name `{n}`; known: {}", known.join(", "))));
        }
        if names[..i].contains(n) {
            return Err(Error::param("hide", format!("`{n}` is listed twice")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_hints_and_hide_names() {
        assert_eq!(sentence("cache size"), "Cache size");
        assert_eq!(sentence("ε-net radius"), "ε-net radius");
        assert_eq!(sentence("vCache error bound"), "vCache error bound");
        let table = page_controls();
        let k = table.iter().find(|c| c.id == "k").unwrap();
        assert_eq!((k.key.as_str(), k.min, k.section, k.restart), ("params.k", Some(1.0), "settings", false));
        assert!(k.hint.starts_with("Cache size (items). "), "{}", k.hint);
        assert!(table.iter().find(|c| c.id == "seed").unwrap().restart);
        assert_eq!(table.iter().position(|c| c.id == "seed"), Some(1), "the seed follows the dataset");
        let names = hide_names();
        assert!(names.contains(&"controls") && names.contains(&"k") && names.contains(&"workers"));
        assert!(check_hide(&["k".into(), "nope".into()]).unwrap_err().to_string().contains("`nope`"));
    }

    /// The live view's controls (issue 27, item 2): the policies from the engine's online list
    /// (p3, p4 with "none" first), the speed's range the codec's, the colourings; each may be hidden
    /// by its id (tests/catalog_lists.rs checks the hide names are unique).
    #[test]
    fn live_controls_from_the_engines_lists() {
        let table = page_controls();
        let get = |id: &str| table.iter().find(|c| c.id == id).unwrap();
        let ids: Vec<&str> = PolicyKind::ALL.iter().map(|p| p.info().id).collect();
        for (id, optional) in [("p1", false), ("p2", false), ("p3", true), ("p4", true)] {
            let c = get(id);
            assert_eq!((c.kind, c.key.as_str(), c.section, c.restart), (Kind::Select, id, "live", true));
            let values: Vec<&str> = c.choices.iter().map(|o| o.value).collect();
            let expected: Vec<&str> = optional.then_some("").into_iter().chain(ids.iter().copied()).collect();
            assert_eq!(values, expected, "{id}");
            let last = c.choices.last().unwrap();
            assert_eq!(last.label, PolicyKind::ALL[PolicyKind::ALL.len() - 1].label());
        }
        assert_eq!(get("p3").choices[0].label, "none (no panel)");
        let speed = get("speed");
        assert_eq!((speed.kind, speed.key.as_str(), speed.restart), (Kind::Number, "speed", false));
        assert_eq!((speed.min, speed.max, speed.step), (Some(1.0), Some(10_000.0), Some(1.0)));
        let colour = get("colour-by");
        assert_eq!((colour.kind, colour.key.as_str(), colour.reference), (Kind::Select, "colour", "§4"));
        let values: Vec<&str> = colour.choices.iter().map(|o| o.value).collect();
        assert_eq!(values, ["auto", "decision", "cell"]);
        assert_eq!(colour.choices[2].label, "ε-net cell");
        for c in &Colouring::ALL {
            let json = serde_json::to_value(c).unwrap();
            assert_eq!(json.as_str(), Some(c.id()), "the id is the serde name");
        }
        let hide: Vec<String> = ["speed", "colour-by", "p3", "p1"].map(String::from).to_vec();
        assert!(check_hide(&hide).is_ok());
        assert!(check_hide(&["p5".into()]).is_err());
    }
}
