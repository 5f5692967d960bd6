//! The playground's state as a URL query string: which view, which dataset, every parameter of
//! the run, the policies, the seed, the experiment settings and the embed flag. A link carries
//! exactly what the page shows, and the page reads it back with [`decode`].
//!
//! One table drives it both ways, after TF Playground's `PROPS`: [`url_keys`] has one entry per
//! page key, which reads ([`decode`]) and writes ([`encode`]) it, checks it within the state
//! ([`UrlState::validate`]), says in plain words what it takes (the message for a bad value names
//! the key, the value and that), and builds the page's controls for it ([`page_controls`]), whose
//! ids are names `hide` takes ([`hide_names`]). Adding a key is its entry and its field of
//! [`UrlState`] (the storage); cargo feature `fixture-key` adds one to show it. Every `Params`
//! field is a key too (by its serde name, checked as the engine checks it).
//!
//! Only values that differ from the defaults of the state's dataset are written ([`encode`]), so
//! links stay short. Unknown keys, repeated keys and bad values are errors with a readable
//! message; [`decode_lossy`] keeps every valid key and reports the others, so a page given a
//! damaged link still opens with as much of it as can be used.
//!
//! Round trip: `decode(&encode(&s)) == Ok(s)` for every valid state `s`.

use crate::config::Params;
use crate::error::{Error, Result};
use crate::experiment::Sweep;
use crate::online::PolicyKind;
use serde::{Deserialize, Serialize};

/// The views of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS), ts(rename = "PageView"))]
pub enum View {
    /// The stream played live, two policies side by side (the default).
    #[default]
    Live,
    /// Average regret against rounds over several seeds.
    Regret,
    /// Offline suboptimality: gap against stream length, ε or k.
    Offline,
    /// Runtime against final average regret.
    Efficiency,
    /// One preset per figure of the paper.
    Paper,
    /// A metric over one or two parameters' values (a line or a heatmap; issue 25, item 5).
    Sweep,
    /// The cost–correctness frontier (issue 24): error rate against realised cost per family.
    Frontier,
    /// Does the guarantee show? The regret view's run read against Theorem 5.1, Assumption 1 and
    /// Lemma 5.3, and Reg(T) across horizons (issue 36).
    Theory,
}

impl View {
    /// Every view, in the order of the page's tabs.
    pub const ALL: [View; 8] = [
        View::Live,
        View::Regret,
        View::Offline,
        View::Efficiency,
        View::Paper,
        View::Sweep,
        View::Frontier,
        View::Theory,
    ];
}

/// How the page is embedded (the link's `embed=`): `1` the page without its controls and text
/// (plus whatever `hide` names), `figure` one chart of the open view with its caption and the
/// attribution link, sized to its iframe (issue 33, item 5); no key (or `0`): not embedded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub enum Embed {
    /// `embed=1`: the pictures of the open view, without controls and text.
    Page,
    /// `embed=figure`: one chart, its caption and the attribution.
    Figure,
}

/// The datasets the page can play: the two built in, the nq-trivia universe of SPEC §7 (bundled
/// with the page by scripts/dist.sh, or loaded from the shared data's four files), or data the
/// user loaded (which never leaves the browser, so a link can only say that it was used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub enum PageDataset {
    #[default]
    Synthetic,
    Plane,
    NqTrivia,
    Upload,
}

pub use super::controls::{Colouring, MAX_SEEDS, MAX_SPEED, MAX_WORKERS, OFFLINE_EXPERIMENTS};
use super::controls::{PageControl, HIDE_GROUPS};
/// Presets of the paper view, one per figure (fig-d is fig-c's run, fig-f is fig-e's): the ids of
/// the engine's one list, [`crate::experiment::paper_presets`].
pub fn presets() -> Vec<&'static str> {
    crate::experiment::paper_presets().iter().map(|p| p.id).collect()
}
/// Largest seed a link may carry: a JavaScript safe integer.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Everything the page shows, as carried by its URL.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(not(target_arch = "wasm32"), derive(ts_rs::TS))]
pub struct UrlState {
    pub view: View,
    pub dataset: PageDataset,
    /// Every parameter of the run, the seed included (defaults: [`page_params`]).
    // read by the engine's reader (`engine_json`), so `Params` has one deserialiser in the module
    #[serde(deserialize_with = "engine_json")]
    pub params: Params,
    /// The live view's left and right policies.
    pub p1: PolicyKind,
    pub p2: PolicyKind,
    /// The live view's third and fourth panels, side by side with the first two (issue 23,
    /// item 6); `None` (the link's `p3=` or no key): no panel.
    #[serde(default)]
    pub p3: Option<PolicyKind>,
    #[serde(default)]
    pub p4: Option<PolicyKind>,
    /// The policies of the regret and efficiency views.
    pub policies: Vec<PolicyKind>,
    /// Rounds played per animation frame in the live view.
    pub speed: u32,
    /// How the live view colours the arrivals (the link's `colour=`; default auto).
    #[serde(default)]
    pub colour: Colouring,
    /// Seeds of the regret, efficiency and offline views.
    pub seeds: usize,
    /// The offline view's experiment (one of [`OFFLINE_EXPERIMENTS`]).
    pub offline: String,
    /// The paper view's preset (one of [`presets`]).
    pub preset: String,
    /// Run the paper preset at the paper's full settings instead of the quick ones.
    pub full: bool,
    /// Embedded in another page (an iframe): `None` not embedded.
    #[serde(default)]
    pub embed: Option<Embed>,
    /// Run the paper preset with the tuned widths of docs/REPRODUCTION.md (`<preset>-tuned` of
    /// `csc::experiment::builtin`, where it exists) instead of the theoretical ones.
    #[serde(default)]
    pub tuned: bool,
    /// Experiment workers run in parallel (www/js/jobs.js); 0 = as many as the browser has cores
    /// (`navigator.hardwareConcurrency`), capped. In the link only when the user set it.
    #[serde(default)]
    pub workers: usize,
    /// Parts of the page the link hides (`hide=seed,k,tabs`: names of [`hide_names`]); an
    /// embedded page hides them besides [`super::controls::EMBED_HIDE`] ([`UrlState::hidden`]).
    #[serde(default)]
    pub hide: Vec<String>,
    /// The sweep view's base experiment: `online` (the regret view's run) or one of
    /// [`crate::experiment::sweep_presets`] (issue 25, item 5).
    #[serde(default = "online")]
    pub sweep: String,
    /// The sweep view's grid, as the CLI's `--grid` text ([`Sweep::parse`], e.g.
    /// `epsilon=0.1,0.2;beta=0.5,1`); empty: the base's own grid (the preset's sweep, or the
    /// view's default for `online`). Checked against the base's parameters ([`Sweep::validate`]).
    #[serde(default)]
    pub grid: String,
    /// The metric the sweep view draws (a [`crate::experiment::definition::metrics::METRICS`] id, with or
    /// without `final_`); empty: the report's default.
    #[serde(default)]
    pub metric: String,
    /// Test only (cargo feature `fixture-key`): a key that exists to show that adding one is one
    /// entry of [`url_keys`] (and this field, its storage), seen in parse, encode, validation, the
    /// hide flags and the page's controls. Never in a shipped build.
    #[cfg(feature = "fixture-key")]
    #[serde(default)]
    pub fixture: u32,
}

/// A field of an engine type read as a JSON value, then by the engine's own reader
/// ([`crate::json::FromJson`]): the derive would compile the type's deserialiser once more in this
/// crate (docs/PERFORMANCE.md, "Where the page's wasm goes").
fn engine_json<'de, D: serde::Deserializer<'de>, T: crate::json::FromJson>(
    d: D,
) -> std::result::Result<T, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    T::from_json_value(&v).map_err(serde::de::Error::custom)
}

fn online() -> String {
    "online".into()
}

/// The page's parameter defaults for a dataset: the SPEC defaults, with a horizon and evaluation
/// sample sized for a browser tab (the oracle over the distinct arrivals of `T = 1,000` takes
/// about 2 s in WebAssembly, over 2,000 about 7 s), and on `plane` a radius `ε = 0.1` (about 25
/// centers; at the SPEC's 0.4 the unit square holds only 4).
pub fn page_params(dataset: PageDataset) -> Params {
    let p = Params { horizon: 1000, n_eval: 1000, ..Params::default() };
    match dataset {
        PageDataset::Plane => Params { epsilon: 0.1, ..p },
        _ => p,
    }
}

impl UrlState {
    /// The state of a plain link to the page with `dataset`.
    pub fn defaults(dataset: PageDataset) -> UrlState {
        UrlState {
            view: View::Live,
            dataset,
            params: page_params(dataset),
            p1: PolicyKind::ClcbScLsCont,
            p2: PolicyKind::Greedy,
            p3: None,
            p4: None,
            policies: vec![
                PolicyKind::ClcbScLsCont,
                PolicyKind::ClcbScLs,
                PolicyKind::Greedy,
                PolicyKind::EpsilonGreedy,
                PolicyKind::Lfu,
            ],
            speed: 5,
            colour: Colouring::Auto,
            seeds: 3,
            offline: OFFLINE_EXPERIMENTS[0].into(),
            preset: "fig-c".into(),
            full: false,
            embed: None,
            tuned: false,
            workers: 0,
            hide: vec![],
            sweep: online(),
            grid: String::new(),
            metric: String::new(),
            #[cfg(feature = "fixture-key")]
            fixture: 0,
        }
    }

    /// What the page hides: an embedded page's [`super::controls::EMBED_HIDE`], then every name
    /// of `hide` not already there. Hide flags only ever remove (issue 33, item 4): `embed=1&hide=x`
    /// hides all `embed=1` hides, and `x`.
    pub fn hidden(&self) -> Vec<String> {
        let base = if self.embed.is_some() { &super::controls::EMBED_HIDE[..] } else { &[] };
        let mut out: Vec<String> = base.iter().map(|n| n.to_string()).collect();
        out.extend(self.hide.iter().filter(|n| !base.contains(&n.as_str())).cloned());
        out
    }

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
    fn validate_grid(&self) -> Result<()> {
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

/// One key of the link, after TF Playground's `PROPS`: the one entry from which the link is read
/// ([`decode`]) and written ([`encode`]), the state checked ([`UrlState::validate`]), the bad
/// value explained, and the page's controls built ([`page_controls`]), whose ids are names a link
/// may hide ([`hide_names`]). Every `Params` field is a key too (read and written by its serde
/// name, checked as the engine checks it): [`param_keys`].
#[derive(Clone, Copy)]
pub struct UrlKey {
    /// The key as the link spells it.
    pub name: &'static str,
    /// What a value may be, in plain words (the message for a bad value names the key, the value
    /// and this).
    pub allowed: fn() -> String,
    /// Reads a value into the state; `Err(detail)` (may be empty) when it is not one of
    /// [`UrlKey::allowed`].
    pub read: fn(&mut UrlState, &str) -> std::result::Result<(), String>,
    /// The value the link writes; `None` when it is the default (`d`, of the state's dataset).
    pub write: fn(&UrlState, &UrlState) -> Option<String>,
    /// Checks the value within the whole state (a range, a known id, a grid on its base).
    pub check: fn(&UrlState) -> Result<()>,
    /// The page's controls that edit it (their ids are names `hide` takes).
    pub controls: fn() -> Vec<PageControl>,
}

fn no_check(_: &UrlState) -> Result<()> {
    Ok(())
}
fn no_controls() -> Vec<PageControl> {
    vec![]
}
/// `d`'s value is the default: written only when it differs.
fn unless<T: PartialEq>(now: &T, default: &T, text: impl FnOnce() -> String) -> Option<String> {
    (now != default).then(text)
}
/// The serde id of a unit enum (`View::Sweep` → `sweep`).
fn id_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
/// A unit enum from its serde id; `Err("")` for another text.
pub(crate) fn by_id<T: for<'de> Deserialize<'de>>(v: &str) -> std::result::Result<T, String> {
    use serde::de::IntoDeserializer;
    T::deserialize(IntoDeserializer::<serde::de::value::Error>::into_deserializer(v))
        .map_err(|_| String::new())
}
fn whole<T: std::str::FromStr>(v: &str) -> std::result::Result<T, String> {
    v.parse().map_err(|_| String::new())
}
fn flag(v: &str) -> std::result::Result<bool, String> {
    match v {
        "" | "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(String::new()),
    }
}
fn policy(v: &str) -> std::result::Result<PolicyKind, String> {
    PolicyKind::parse(v).map_err(|_| String::new())
}
/// An optional panel's policy: empty for none.
fn optional_policy(v: &str) -> std::result::Result<Option<PolicyKind>, String> {
    if v.is_empty() {
        Ok(None)
    } else {
        policy(v).map(Some)
    }
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

/// The entry of a live panel's policy key (`p1`…`p4`, the state's field of that name): `$read`
/// parses the value (an optional panel's may be empty: no panel).
macro_rules! panel_key {
    ($field:ident, $allowed:expr, $read:expr) => {
        UrlKey {
            name: stringify!($field),
            allowed: $allowed,
            read: |s, v| {
                s.$field = $read(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.$field, &d.$field, || id_of(&s.$field)),
            check: no_check,
            controls: || vec![super::controls::panel_control(stringify!($field))],
        }
    };
}

/// Every page key, in the order [`encode`] writes them (the parameters follow).
pub fn url_keys() -> Vec<UrlKey> {
    #[allow(unused_mut)]
    let mut keys = vec![
        UrlKey {
            name: "view",
            allowed: || format!("one of {}", view_ids()),
            read: |s, v| {
                s.view = by_id(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.view, &d.view, || id_of(&s.view)),
            check: no_check,
            controls: no_controls,
        },
        UrlKey {
            name: "dataset",
            allowed: || format!("one of {}", dataset_ids()),
            // Read first, by decode_lossy: it sets the defaults the other keys are applied to.
            read: |s, v| {
                s.dataset = by_id(v)?;
                Ok(())
            },
            write: |s, _| unless(&s.dataset, &PageDataset::default(), || id_of(&s.dataset)),
            check: no_check,
            controls: super::controls::run_settings_controls,
        },
        panel_key!(p1, || format!("one of {}", policy_ids()), policy),
        panel_key!(p2, || format!("one of {}", policy_ids()), policy),
        panel_key!(p3, || format!("empty (no third panel) or one of {}", policy_ids()), optional_policy),
        panel_key!(p4, || format!("empty (no fourth panel) or one of {}", policy_ids()), optional_policy),
        UrlKey {
            name: "policies",
            allowed: || format!("one or more of {}, separated by commas, none twice", policy_ids()),
            read: |s, v| {
                s.policies = v.split(',').map(policy).collect::<std::result::Result<_, _>>()?;
                Ok(())
            },
            write: |s, d| {
                unless(&s.policies, &d.policies, || {
                    s.policies.iter().map(id_of).collect::<Vec<_>>().join(",")
                })
            },
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
            controls: no_controls,
        },
        UrlKey {
            name: "speed",
            allowed: || format!("a whole number from 1 to {MAX_SPEED}"),
            read: |s, v| {
                s.speed = whole(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.speed, &d.speed, || s.speed.to_string()),
            check: |s| in_range("speed", s.speed, 1, MAX_SPEED),
            controls: || vec![super::controls::speed_control()],
        },
        UrlKey {
            name: "colour",
            allowed: || format!("one of {}", Colouring::ids()),
            read: |s, v| {
                s.colour = by_id(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.colour, &d.colour, || s.colour.id().into()),
            check: no_check,
            controls: || vec![super::controls::colour_control()],
        },
        UrlKey {
            name: "offline",
            allowed: || format!("one of {}", OFFLINE_EXPERIMENTS.join(", ")),
            read: |s, v| {
                s.offline = v.to_string();
                Ok(())
            },
            write: |s, d| unless(&s.offline, &d.offline, || s.offline.clone()),
            check: |s| one_of("offline", &s.offline, &OFFLINE_EXPERIMENTS),
            controls: || vec![super::controls::offline_control()],
        },
        UrlKey {
            name: "seeds",
            allowed: || format!("a whole number from 1 to {MAX_SEEDS}"),
            read: |s, v| {
                s.seeds = whole(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.seeds, &d.seeds, || s.seeds.to_string()),
            check: |s| in_range("seeds", s.seeds, 1, MAX_SEEDS),
            controls: super::controls::seeds_controls,
        },
        UrlKey {
            name: "preset",
            allowed: || format!("one of {}", presets().join(", ")),
            read: |s, v| {
                s.preset = v.to_string();
                Ok(())
            },
            write: |s, d| unless(&s.preset, &d.preset, || s.preset.clone()),
            check: |s| one_of("preset", &s.preset, &presets()),
            controls: no_controls, // the paper view's menu (views/paper.js, from paperPresets())
        },
        UrlKey {
            name: "full",
            allowed: || "1 (the paper's full settings) or 0".into(),
            read: |s, v| {
                s.full = flag(v)?;
                Ok(())
            },
            write: |s, _| s.full.then(|| "1".into()),
            check: no_check,
            controls: || {
                let hint = "All seeds and lengths of the paper (slow)";
                vec![super::controls::paper_checkbox("full", "§6", "Full paper settings", hint)]
            },
        },
        UrlKey {
            name: "tuned",
            allowed: || "1 (the tuned widths) or 0".into(),
            read: |s, v| {
                s.tuned = flag(v)?;
                Ok(())
            },
            write: |s, _| s.tuned.then(|| "1".into()),
            check: no_check,
            controls: || {
                let hint = "β_off, λ chosen on held-out seeds (figs. a, b); default: theoretical";
                let reference = "SPEC-NOTES#kernel-and-confidence-widths";
                vec![super::controls::paper_checkbox("tuned", reference, "Tuned widths", hint)]
            },
        },
        UrlKey {
            name: "workers",
            allowed: || format!("a whole number from 0 (as many as the browser has cores) to {MAX_WORKERS}"),
            read: |s, v| {
                s.workers = whole(v)?;
                Ok(())
            },
            write: |s, d| unless(&s.workers, &d.workers, || s.workers.to_string()),
            check: |s| in_range("workers", s.workers, 0, MAX_WORKERS),
            controls: || vec![super::controls::workers_control()],
        },
        UrlKey {
            name: "sweep",
            allowed: || format!("one of {}", sweep_bases().join(", ")),
            read: |s, v| {
                s.sweep = v.to_string();
                Ok(())
            },
            write: |s, d| unless(&s.sweep, &d.sweep, || s.sweep.clone()),
            check: |s| one_of("sweep", &s.sweep, &sweep_bases()),
            controls: no_controls, // the sweep view's own form (views/sweep.js)
        },
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
        UrlKey {
            name: "metric",
            allowed: || format!("one of {} (or with `final_` before it)", metric_ids()),
            read: |s, v| {
                s.metric = v.to_string();
                Ok(())
            },
            write: |s, _| (!s.metric.is_empty()).then(|| s.metric.clone()),
            check: |s| {
                if s.metric.is_empty() || crate::experiment::definition::metrics::metric(&s.metric).is_some()
                {
                    return Ok(());
                }
                Err(Error::param("metric", format!("unknown metric `{}`; known: {}", s.metric, metric_ids())))
            },
            controls: no_controls,
        },
        UrlKey {
            name: "embed",
            allowed: || "1 (the page without its controls and text), figure (one chart) or 0".into(),
            read: |s, v| {
                s.embed = match v {
                    "figure" => Some(Embed::Figure),
                    _ => flag(v)?.then_some(Embed::Page),
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
        UrlKey {
            name: "hide",
            allowed: || format!("names separated by commas, each one of {}", hide_names().join(", ")),
            read: |s, v| {
                s.hide = v.split(',').filter(|n| !n.is_empty()).map(str::to_string).collect();
                Ok(())
            },
            write: |s, _| (!s.hide.is_empty()).then(|| s.hide.join(",")),
            check: |s| check_hide(&s.hide),
            controls: no_controls,
        },
    ];
    #[cfg(feature = "fixture-key")]
    keys.push(UrlKey {
        name: "fixture",
        allowed: || "a whole number from 0 to 9".into(),
        read: |s, v| {
            s.fixture = whole(v)?;
            Ok(())
        },
        write: |s, d| unless(&s.fixture, &d.fixture, || s.fixture.to_string()),
        check: |s| in_range("fixture", s.fixture, 0, 9),
        controls: || {
            let hint = "Test only: the fixture key (cargo feature fixture-key)";
            vec![PageControl {
                section: "live",
                min: Some(0.0),
                max: Some(9.0),
                step: Some(1.0),
                ..super::controls::number("fixture", "fixture".into(), "Fixture".into(), hint.into())
            }]
        },
    });
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
fn apply(s: &mut UrlState, key: &str, v: &str) -> Result<()> {
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

/// Percent-decodes one query component (`+` is a space).
fn unescape(part: &str) -> Result<String> {
    let b = part.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b.get(i + 1..i + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
                let hex = hex.and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| {
                    Error::parse(format!("bad percent escape in the link near `{}`", &part[i..]))
                })?;
                out.push(byte);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| Error::parse("the link is not valid UTF-8 once unescaped"))
}

/// Percent-encodes a value: everything but letters, digits and `-._~,` is escaped.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~,".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a query (`?` optional) into unescaped key–value pairs.
fn pairs(query: &str) -> Vec<Result<(String, String)>> {
    let q = query.strip_prefix('?').unwrap_or(query);
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Ok((unescape(k)?, unescape(v)?))
        })
        .collect()
}

/// Reads a query string, keeping every valid key: returns the state and one message per key that
/// could not be used (unknown, repeated or invalid; the default stands for it).
pub fn decode_lossy(query: &str) -> (UrlState, Vec<String>) {
    let mut errors = Vec::new();
    let mut kv = Vec::new();
    for p in pairs(query) {
        match p {
            Ok((k, _)) if kv.iter().any(|(k2, _): &(String, String)| *k2 == k) => {
                errors.push(Error::param(&k, "is given more than once").to_string());
            }
            Ok(p) => kv.push(p),
            Err(e) => errors.push(e.to_string()),
        }
    }
    // The dataset first: it sets the defaults the other keys are applied to.
    let mut s = UrlState::defaults(PageDataset::default());
    if let Some((k, v)) = kv.iter().find(|(k, _)| k == "dataset") {
        match apply(&mut s, k, v) {
            Ok(()) => s = UrlState::defaults(s.dataset),
            Err(e) => errors.push(e.to_string()),
        }
    }
    // The grid last: it is checked against the base and parameters the other keys set.
    let (grid, rest): (Vec<_>, Vec<_>) = kv.iter().partition(|(k, _)| k == "grid");
    for (k, v) in rest.into_iter().chain(grid).filter(|(k, _)| k != "dataset") {
        let mut next = s.clone();
        match apply(&mut next, k, v).and_then(|_| next.validate()) {
            Ok(()) => s = next,
            Err(e) => errors.push(e.to_string()),
        }
    }
    (s, errors)
}

/// Reads a query string (with or without its `?`); any unusable key is an error naming it.
pub fn decode(query: &str) -> Result<UrlState> {
    let (s, errors) = decode_lossy(query);
    if errors.is_empty() {
        Ok(s)
    } else {
        Err(Error::parse(errors.join("; ")))
    }
}

/// The query string of a state (without `?`; empty for the defaults): only the values that
/// differ from the defaults of its dataset, in a fixed order.
pub fn encode(s: &UrlState) -> Result<String> {
    s.validate()?;
    let d = UrlState::defaults(s.dataset);
    let mut out: Vec<(String, String)> =
        url_keys().iter().filter_map(|k| Some((k.name.to_string(), (k.write)(s, &d)?))).collect();
    let now = serde_json::to_value(&s.params).expect("Params serialises");
    let def = serde_json::to_value(&d.params).expect("Params serialises");
    if let (Some(now), Some(def)) = (now.as_object(), def.as_object()) {
        for (k, v) in now.iter().filter(|(k, v)| def.get(*k) != Some(v)) {
            let text = match v {
                serde_json::Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            out.push((k.clone(), text));
        }
    }
    Ok(out.iter().map(|(k, v)| format!("{}={}", escape(k), escape(v))).collect::<Vec<_>>().join("&"))
}

/// A short fingerprint of what a run computes: the first 16 hex digits of the sha256 of the
/// dataset and the fully resolved parameters (seed included) as JSON. Two pages, or a page and
/// the CLI, showing the same fingerprint ran the same configuration.
pub fn fingerprint(dataset: &str, params: &Params) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(dataset.as_bytes());
    h.update([0]);
    h.update(serde_json::to_string(params).expect("Params serialises").as_bytes());
    h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests;
