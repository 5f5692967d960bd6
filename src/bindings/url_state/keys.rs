//! The key table, after TF Playground's `PROPS`: one entry per key of the link ([`url_keys`]),
//! each with its kind ([`Kind`]: how its text is read and written), what it allows in plain
//! words, its check within the state and the page's controls that edit it; every `Params` field is
//! a key too ([`param_keys`]). Adding a key is its entry and its field of [`UrlState`].

pub use super::entry::UrlKey;
use super::entry::{by_id, id_of, unless};
use super::state::{presets, Embed, PageDataset, UrlState, View, MAX_SEED};
use crate::bindings::controls::{
    self, offline_experiments, Colouring, PageControl, HIDE_GROUPS, MAX_SEEDS, MAX_SPEED, MAX_WORKERS,
};
use crate::config::Params;
use crate::error::{Error, Result};
use crate::experiment::Sweep;
use crate::online::PolicyKind;
use serde::{Deserialize, Serialize};

fn no_check(_: &UrlState) -> Result<()> {
    Ok(())
}
fn no_controls() -> Vec<PageControl> {
    vec![]
}
fn policy_ids() -> String {
    PolicyKind::ALL.iter().map(|p| p.info().id).collect::<Vec<_>>().join(", ")
}
fn view_ids() -> String {
    View::ALL.iter().map(id_of).collect::<Vec<_>>().join(", ")
}
fn sweep_bases() -> Vec<&'static str> {
    let mut bases = vec!["online"];
    bases.extend(crate::experiment::sweep_presets());
    bases
}
fn metric_ids() -> String {
    crate::experiment::definition::metrics::METRICS.iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
}

/// How a key's value is spelled in the link, after TF Playground's `Type`: a key declares its
/// kind, and the kind reads the text into the state's field and writes it back.
trait Kind<T> {
    /// The value in `v`; `Err(detail)` (may be empty) when `v` is not one.
    fn read(v: &str) -> std::result::Result<T, String>;
    /// The value's text in the link.
    fn write(v: &T) -> String;
}

/// A unit enum by its serde id (`view=sweep`).
struct Id;
impl<T: Serialize + for<'de> Deserialize<'de>> Kind<T> for Id {
    fn read(v: &str) -> std::result::Result<T, String> {
        by_id(v)
    }
    fn write(v: &T) -> String {
        id_of(v)
    }
}

/// A whole number (`seeds=5`).
struct Whole;
impl<T: std::str::FromStr + std::fmt::Display> Kind<T> for Whole {
    fn read(v: &str) -> std::result::Result<T, String> {
        v.parse().map_err(|_| String::new())
    }
    fn write(v: &T) -> String {
        v.to_string()
    }
}

/// A flag: `1`, `true` or nothing for on, `0` or `false` for off; written `1` (off is the default).
struct Flag;
impl Kind<bool> for Flag {
    fn read(v: &str) -> std::result::Result<bool, String> {
        match v {
            "" | "1" | "true" => Ok(true),
            "0" | "false" => Ok(false),
            _ => Err(String::new()),
        }
    }
    fn write(_: &bool) -> String {
        "1".into()
    }
}

/// Text, checked within the state (`preset=fig-c`).
struct Text;
impl Kind<String> for Text {
    fn read(v: &str) -> std::result::Result<String, String> {
        Ok(v.to_string())
    }
    fn write(v: &String) -> String {
        v.clone()
    }
}

/// A policy by its id (`p1=greedy`).
struct Policy;
impl Kind<PolicyKind> for Policy {
    fn read(v: &str) -> std::result::Result<PolicyKind, String> {
        PolicyKind::parse(v).map_err(|_| String::new())
    }
    fn write(v: &PolicyKind) -> String {
        id_of(v)
    }
}

/// An optional panel's policy: empty for none (`p3=`).
struct OptionalPolicy;
impl Kind<Option<PolicyKind>> for OptionalPolicy {
    fn read(v: &str) -> std::result::Result<Option<PolicyKind>, String> {
        if v.is_empty() {
            Ok(None)
        } else {
            Policy::read(v).map(Some)
        }
    }
    fn write(v: &Option<PolicyKind>) -> String {
        id_of(v)
    }
}

/// Policies by their ids, separated by commas (`policies=greedy,lfu`).
struct Policies;
impl Kind<Vec<PolicyKind>> for Policies {
    fn read(v: &str) -> std::result::Result<Vec<PolicyKind>, String> {
        v.split(',').map(Policy::read).collect()
    }
    fn write(v: &Vec<PolicyKind>) -> String {
        v.iter().map(id_of).collect::<Vec<_>>().join(",")
    }
}

/// Names separated by commas, empty ones dropped (`hide=seed,k`).
struct Names;
impl Kind<Vec<String>> for Names {
    fn read(v: &str) -> std::result::Result<Vec<String>, String> {
        Ok(v.split(',').filter(|n| !n.is_empty()).map(str::to_string).collect())
    }
    fn write(v: &Vec<String>) -> String {
        v.join(",")
    }
}

/// The entry of the state's field `$field` of kind `$kind`: the link's key is the field's name,
/// the kind reads and writes it, and it is written only when it differs from the default.
macro_rules! key {
    ($field:ident: $kind:ty, allowed: $allowed:expr, check: $check:expr, controls: $controls:expr $(,)?) => {
        UrlKey {
            name: stringify!($field),
            allowed: $allowed,
            read: |s, v| {
                s.$field = <$kind as Kind<_>>::read(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.$field, &d.$field, || <$kind as Kind<_>>::write(&s.$field)),
            check: $check,
            controls: $controls,
        }
    };
}

/// Every page key, in the order [`super::encode`] writes them (the parameters follow).
pub fn url_keys() -> Vec<UrlKey> {
    let mut keys = vec![
        key!(view: Id, allowed: || format!("one of {}", view_ids()), check: no_check, controls: no_controls),
        UrlKey {
            name: "dataset",
            allowed: || format!("one of {}", dataset_ids()),
            // Read first, by decode_lossy: it sets the defaults the other keys are applied to.
            read: |s, v| {
                s.dataset = by_id(v)?;
                Ok(())
            },
            // Against the page's default dataset: the defaults `d` are this dataset's own.
            write: |s, _| unless(&s.dataset, &PageDataset::default(), || id_of(&s.dataset)),
            check: no_check,
            controls: controls::run_settings_controls,
        },
        key!(p1: Policy, allowed: || format!("one of {}", policy_ids()), check: no_check,
            controls: || vec![controls::panel_control("p1")]),
        key!(p2: Policy, allowed: || format!("one of {}", policy_ids()), check: no_check,
            controls: || vec![controls::panel_control("p2")]),
        key!(p3: OptionalPolicy, allowed: || format!("empty (no third panel) or one of {}", policy_ids()),
            check: no_check, controls: || vec![controls::panel_control("p3")]),
        key!(p4: OptionalPolicy, allowed: || format!("empty (no fourth panel) or one of {}", policy_ids()),
            check: no_check, controls: || vec![controls::panel_control("p4")]),
        key!(policies: Policies,
            allowed: || format!("one or more of {}, separated by commas, none twice", policy_ids()),
            check: |s| {
                if s.policies.is_empty() {
                    return Err(Error::param("policies", "name at least one policy"));
                }
                for (i, p) in s.policies.iter().enumerate() {
                    if s.policies[..i].contains(p) {
                        return Err(Error::param("policies", format!("`{}` is listed twice", p.label())));
                    }
                }
                Ok(())
            },
            controls: no_controls),
        key!(speed: Whole, allowed: || format!("a whole number from 1 to {MAX_SPEED}"),
            check: |s| in_range("speed", s.speed, 1, MAX_SPEED), controls: || vec![controls::speed_control()]),
        key!(colour: Id, allowed: || format!("one of {}", Colouring::ids()), check: no_check,
            controls: || vec![controls::colour_control()]),
        key!(offline: Text, allowed: || format!("one of {}", offline_experiments().join(", ")),
            check: |s| one_of("offline", &s.offline, &offline_experiments()),
            controls: || vec![controls::offline_control()]),
        key!(seeds: Whole, allowed: || format!("a whole number from 1 to {MAX_SEEDS}"),
            check: |s| in_range("seeds", s.seeds, 1, MAX_SEEDS), controls: controls::seeds_controls),
        // The paper view's menu is its control (views/paper.js, from paperPresets()).
        key!(preset: Text, allowed: || format!("one of {}", presets().join(", ")),
            check: |s| one_of("preset", &s.preset, &presets()), controls: no_controls),
        key!(full: Flag, allowed: || "1 (the paper's full settings) or 0".into(), check: no_check,
        controls: || {
            let hint = "All seeds and lengths of the paper (slow)";
            vec![controls::paper_checkbox("full", "§6", "Full paper settings", hint)]
        }),
        key!(tuned: Flag, allowed: || "1 (the tuned widths) or 0".into(), check: no_check,
        controls: || {
            let hint = "β_off, λ chosen on held-out seeds (figs. a, b); default: theoretical";
            let reference = "SPEC-NOTES#kernel-and-confidence-widths";
            vec![controls::paper_checkbox("tuned", reference, "Tuned widths", hint)]
        }),
        key!(workers: Whole,
            allowed: || format!("a whole number from 0 (as many as the browser has cores) to {MAX_WORKERS}"),
            check: |s| in_range("workers", s.workers, 0, MAX_WORKERS), controls: || vec![controls::workers_control()]),
        // The sweep view's own form is its control (views/sweep.js).
        key!(sweep: Text, allowed: || format!("one of {}", sweep_bases().join(", ")),
            check: |s| one_of("sweep", &s.sweep, &sweep_bases()), controls: no_controls),
        UrlKey {
            name: "grid",
            allowed: || "a grid as `csc run --grid` takes it, e.g. epsilon=0.1,0.2;k=2,4".into(),
            // Written back as `--grid` writes it (`Sweep::to_arg`), so `grid=k=2, 4` reads as `k=2,4`.
            read: |s, v| {
                // The reason alone: `apply` names the key once.
                let g = Sweep::parse(v).map_err(|e| match grid_error(e) {
                    Error::InvalidParameter { reason, .. } => reason,
                    other => other.to_string(),
                })?;
                s.grid = g.to_arg().unwrap_or_default();
                Ok(())
            },
            write: |s, _| (!s.grid.is_empty()).then(|| canonical_grid(&s.grid)),
            check: UrlState::validate_grid,
            controls: no_controls,
        },
        key!(metric: Text, allowed: || format!("one of {} (or with `final_` before it)", metric_ids()),
            check: |s| {
                if s.metric.is_empty() || crate::experiment::definition::metrics::metric(&s.metric).is_some() {
                    return Ok(());
                }
                Err(Error::param("metric", format!("unknown metric `{}`; known: {}", s.metric, metric_ids())))
            },
            controls: no_controls),
        UrlKey {
            name: "embed",
            allowed: || "1 (the page without its controls and text), figure (one chart) or 0".into(),
            read: |s, v| {
                s.embed = match v {
                    "figure" => Some(Embed::Figure),
                    _ => Flag::read(v)?.then_some(Embed::Page),
                };
                Ok(())
            },
            write: |s, _| {
                s.embed.map(|e| match e {
                    Embed::Page => "1".into(),
                    Embed::Figure => "figure".into(),
                })
            },
            check: no_check,
            controls: no_controls,
        },
        key!(hide: Names, allowed: || format!("names separated by commas, each one of {}", hide_names().join(", ")),
            check: |s| check_hide(&s.hide), controls: no_controls),
    ];
    keys.extend(super::threat_keys::threat_keys());
    #[cfg(feature = "fixture-key")]
    keys.push(key!(fixture: Whole, allowed: || "a whole number from 0 to 9".into(),
    check: |s| in_range("fixture", s.fixture, 0, 9),
    controls: || {
        let hint = "Test only: the fixture key (cargo feature fixture-key)";
        vec![PageControl {
            section: "live",
            min: Some(0.0),
            max: Some(9.0),
            step: Some(1.0),
            ..controls::number("fixture", "fixture".into(), "Fixture".into(), hint.into())
        }]
    }));
    keys
}

/// `v` within `[lo, hi]`, else an error naming the key, the value and the range.
fn in_range<T: PartialOrd + std::fmt::Display>(name: &str, v: T, lo: T, hi: T) -> Result<()> {
    if lo <= v && v <= hi {
        Ok(())
    } else {
        Err(Error::param(name, format!("must lie in [{lo}, {hi}], got {v}")))
    }
}

/// The `Params` fields, keys of the link too (their serde names, in `Params`' order).
pub fn param_keys() -> Vec<String> {
    let p = serde_json::to_value(Params::default()).expect("Params serialises");
    p.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

/// What a parameter's value may be, in plain words, from its default's JSON type (for a named
/// choice, serde's list of the names).
fn param_allowed(key: &str, default: &serde_json::Value) -> String {
    let what = crate::config::param_info(key).map(|p| format!(" ({})", p.name)).unwrap_or_default();
    let kind = match default {
        serde_json::Value::Number(n) if n.is_u64() => "a whole number, 0 or more".to_string(),
        serde_json::Value::Number(_) => "a number".to_string(),
        serde_json::Value::Null => "a number, or null for none".to_string(),
        // A named choice: serde lists them when given a name it does not know.
        _ => {
            let mut probe = serde_json::to_value(Params::default()).expect("Params serialises");
            probe[key] = serde_json::Value::String(String::new());
            let e = <Params as crate::json::FromJson>::from_json_value(&probe).err().unwrap_or_default();
            match e.split_once("expected ") {
                Some((_, list)) => list.replace('`', ""),
                None => "another value".to_string(),
            }
        }
    };
    format!("{kind}{what}")
}

/// Reads one parameter of the link into `s.params`: its text as JSON (a number, `null`), else as a
/// string (a named choice); a value of the wrong type names what the key takes, one of the right
/// type out of range gets the engine's check ([`Params::validate`]).
fn read_param(s: &mut UrlState, key: &str, v: &str) -> Result<()> {
    let mut obj = serde_json::to_value(&s.params).expect("Params serialises");
    let default = obj.get(key).cloned().unwrap_or_default();
    let value = crate::json::parse(v).unwrap_or_else(|_| serde_json::Value::String(v.into()));
    obj[key] = value;
    let p = <Params as crate::json::FromJson>::from_json_value(&obj).map_err(|_| {
        Error::param(key, format!("`{v}` is not allowed; allowed: {}", param_allowed(key, &default)))
    })?;
    p.validate()?;
    s.params = p;
    Ok(())
}

/// Applies one key of a query to `s`.
pub(super) fn apply(s: &mut UrlState, key: &str, v: &str) -> Result<()> {
    if let Some(k) = url_keys().into_iter().find(|k| k.name == key) {
        return (k.read)(s, v).map_err(|detail| {
            let detail = if detail.is_empty() { String::new() } else { format!(" ({detail})") };
            Error::param(key, format!("`{v}` is not allowed{detail}; allowed: {}", (k.allowed)()))
        });
    }
    if !param_keys().iter().any(|k| k == key) {
        let mut names: Vec<String> = url_keys().iter().map(|k| k.name.to_string()).collect();
        names.extend(param_keys());
        return Err(Error::parse(format!("unknown key `{key}` in the link; known: {}", names.join(", "))));
    }
    read_param(s, key, v)
}

/// Every control the page builds, in page order: each key's, in the table's order (the dataset's
/// brings the run settings: the dataset, the parameters and the uploaded data's arrival model).
pub fn page_controls() -> Vec<PageControl> {
    url_keys().iter().flat_map(|k| (k.controls)()).collect()
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

/// The page's dataset ids (the engine's one list, [`crate::dataset::DATASETS`]), for messages.
pub fn dataset_ids() -> String {
    crate::dataset::DATASETS.iter().map(|d| d.id).collect::<Vec<_>>().join(", ")
}

/// A grid's error under the link's key `grid` (the grid's own messages name `grid`, `sweep` or
/// the parameter at fault).
fn grid_error(e: Error) -> Error {
    match e {
        Error::InvalidParameter { name, reason } if name == "grid" || name == "sweep" => {
            Error::param("grid", reason)
        }
        Error::InvalidParameter { name, reason } => Error::param("grid", format!("`{name}` {reason}")),
        other => Error::param("grid", other.to_string()),
    }
}

/// The grid as the CLI's `--grid` writes it ([`Sweep::to_arg`]); the text itself if it does not
/// parse (then [`UrlState::validate`] refuses it).
fn canonical_grid(text: &str) -> String {
    Sweep::parse(text).ok().and_then(|g| g.to_arg()).unwrap_or_else(|| text.to_string())
}

fn one_of(name: &str, v: &str, known: &[&str]) -> Result<()> {
    if known.contains(&v) {
        Ok(())
    } else {
        Err(Error::param(name, format!("unknown value `{v}`; known: {}", known.join(", "))))
    }
}

impl UrlState {
    /// Checks every field (the parameters as the engine does).
    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        if self.params.seed > MAX_SEED {
            return Err(Error::param("seed", format!("must be at most 2^53 − 1, got {}", self.params.seed)));
        }
        url_keys().iter().try_for_each(|k| (k.check)(self))
    }

    /// The sweep view's grid: one the CLI's `--grid` accepts whose every cell is valid on the
    /// base's parameters (the page's for `online`, the preset's own otherwise).
    pub(super) fn validate_grid(&self) -> Result<()> {
        if !self.grid.is_empty() {
            let base = match self.sweep.as_str() {
                "online" => self.params.clone(),
                id => crate::experiment::builtin(id)?.params,
            };
            Sweep::parse(&self.grid).and_then(|g| g.validate(&base)).map_err(grid_error)?;
        }
        Ok(())
    }
}
