//! The playground's state as a URL query string: which view, which dataset, every parameter of
//! the run, the policies, the seed, the experiment settings and the embed flag. A link carries
//! exactly what the page shows, and the page reads it back with [`decode`].
//!
//! Only values that differ from the defaults of the state's dataset are written ([`encode`]), so
//! links stay short; any `Params` field can be given by its name (`?kernel_length=0.3`), validated
//! as the engine validates it. Unknown keys, repeated keys and bad values are errors with a
//! readable message; [`decode_lossy`] keeps every valid key and reports the others, so a page
//! given a damaged link still opens with as much of it as can be used.
//!
//! Round trip: `decode(&encode(&s)) == Ok(s)` for every valid state `s`.

use crate::config::with_param;
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
    /// Hide the controls and text (for an iframe).
    pub embed: bool,
    /// Run the paper preset with the tuned widths of docs/REPRODUCTION.md (`<preset>-tuned` of
    /// `csc::experiment::builtin`, where it exists) instead of the theoretical ones.
    #[serde(default)]
    pub tuned: bool,
    /// Experiment workers run in parallel (www/js/jobs.js); 0 = as many as the browser has cores
    /// (`navigator.hardwareConcurrency`), capped. In the link only when the user set it.
    #[serde(default)]
    pub workers: usize,
    /// Parts of the page the link hides (`hide=seed,k,tabs`: names of
    /// [`super::controls::hide_names`]); empty in an embedded page hides
    /// [`super::controls::EMBED_HIDE`].
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
    /// The metric the sweep view draws (a [`crate::experiment::metrics::METRICS`] id, with or
    /// without `final_`); empty: the report's default.
    #[serde(default)]
    pub metric: String,
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
            embed: false,
            tuned: false,
            workers: 0,
            hide: vec![],
            sweep: online(),
            grid: String::new(),
            metric: String::new(),
        }
    }

    /// Checks every field (the parameters as the engine does).
    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        if self.params.seed > MAX_SEED {
            return Err(Error::param("seed", format!("must be at most 2^53 − 1, got {}", self.params.seed)));
        }
        if self.policies.is_empty() {
            return Err(Error::param("policies", "name at least one policy"));
        }
        for (i, p) in self.policies.iter().enumerate() {
            if self.policies[..i].contains(p) {
                return Err(Error::param("policies", format!("`{}` is listed twice", p.label())));
            }
        }
        if !(1..=MAX_SPEED).contains(&self.speed) {
            return Err(Error::param("speed", format!("must lie in [1, {MAX_SPEED}], got {}", self.speed)));
        }
        if !(1..=MAX_SEEDS).contains(&self.seeds) {
            return Err(Error::param("seeds", format!("must lie in [1, {MAX_SEEDS}], got {}", self.seeds)));
        }
        if self.workers > MAX_WORKERS {
            return Err(Error::param(
                "workers",
                format!("must lie in [0, {MAX_WORKERS}], got {}", self.workers),
            ));
        }
        super::controls::check_hide(&self.hide)?;
        one_of("offline", &self.offline, &OFFLINE_EXPERIMENTS)?;
        one_of("preset", &self.preset, &presets())?;
        self.validate_sweep()
    }

    /// The sweep view's choices: a known base, a grid the CLI's `--grid` accepts whose every cell
    /// is valid on the base's parameters (the page's for `online`, the preset's own otherwise),
    /// and a known metric.
    fn validate_sweep(&self) -> Result<()> {
        let mut bases = vec!["online"];
        bases.extend(crate::experiment::sweep_presets());
        one_of("sweep", &self.sweep, &bases)?;
        if !self.grid.is_empty() {
            let base = match self.sweep.as_str() {
                "online" => self.params.clone(),
                id => crate::experiment::builtin(id)?.params,
            };
            Sweep::parse(&self.grid).and_then(|g| g.validate(&base)).map_err(grid_error)?;
        }
        if !self.metric.is_empty() && crate::experiment::metrics::metric(&self.metric).is_none() {
            let known: Vec<_> = crate::experiment::metrics::METRICS.iter().map(|m| m.id).collect();
            return Err(Error::param(
                "metric",
                format!("unknown metric `{}`; known: {}", self.metric, known.join(", ")),
            ));
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

/// Page keys (the `Params` fields are keys too).
const PAGE_KEYS: [&str; 20] = [
    "view", "dataset", "p1", "p2", "p3", "p4", "policies", "speed", "colour", "seeds", "offline", "preset",
    "full", "tuned", "workers", "embed", "hide", "sweep", "grid", "metric",
];

/// A unit enum from its serde id.
fn from_id<T: for<'de> Deserialize<'de>>(name: &str, v: &str, known: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(v.to_string()))
        .map_err(|_| Error::param(name, format!("unknown value `{v}`; known: {known}")))
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T> {
    v.parse().map_err(|_| Error::param(name, format!("expected a whole number, got `{v}`")))
}

fn flag(name: &str, v: &str) -> Result<bool> {
    match v {
        "" | "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(Error::param(name, format!("expected 1 or 0, got `{v}`"))),
    }
}

/// An optional panel's policy: empty for none.
fn optional_policy(v: &str) -> Result<Option<PolicyKind>> {
    if v.is_empty() {
        Ok(None)
    } else {
        PolicyKind::parse(v).map(Some)
    }
}

/// Applies one key of a query to `s`.
fn apply(s: &mut UrlState, key: &str, v: &str) -> Result<()> {
    match key {
        "view" => s.view = from_id(key, v, "live, regret, offline, efficiency, paper, sweep, frontier")?,
        "dataset" => {} // read first, by decode_lossy
        "p1" => s.p1 = PolicyKind::parse(v)?,
        "p2" => s.p2 = PolicyKind::parse(v)?,
        "p3" => s.p3 = optional_policy(v)?,
        "p4" => s.p4 = optional_policy(v)?,
        "policies" => {
            s.policies = v.split(',').map(PolicyKind::parse).collect::<Result<Vec<_>>>()?;
        }
        "speed" => s.speed = number(key, v)?,
        "colour" => s.colour = from_id(key, v, &Colouring::ids())?,
        "seeds" => s.seeds = number(key, v)?,
        "offline" => s.offline = v.to_string(),
        "preset" => s.preset = v.to_string(),
        "full" => s.full = flag(key, v)?,
        "tuned" => s.tuned = flag(key, v)?,
        "workers" => s.workers = number(key, v)?,
        "embed" => s.embed = flag(key, v)?,
        "hide" => s.hide = v.split(',').filter(|n| !n.is_empty()).map(str::to_string).collect(),
        "sweep" => s.sweep = v.to_string(),
        // Written back as `--grid` writes it (`Sweep::to_arg`), so `grid=k=2, 4` reads as `k=2,4`.
        "grid" => s.grid = Sweep::parse(v).map_err(grid_error)?.to_arg().unwrap_or_default(),
        "metric" => s.metric = v.to_string(),
        _ => {
            let known = serde_json::to_value(&s.params).expect("Params serialises");
            if !known.as_object().is_some_and(|o| o.contains_key(key)) {
                let mut names: Vec<String> = PAGE_KEYS.iter().map(|k| k.to_string()).collect();
                names.extend(known.as_object().into_iter().flat_map(|o| o.keys().cloned()));
                return Err(Error::parse(format!(
                    "unknown key `{key}` in the link; known: {}",
                    names.join(", ")
                )));
            }
            let value = serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::String(v.into()));
            s.params = with_param(&s.params, key, &value)?;
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
    let dataset = match kv.iter().find(|(k, _)| k == "dataset") {
        Some((k, v)) => from_id(k, v, &dataset_ids()).unwrap_or_else(|e: Error| {
            errors.push(e.to_string());
            PageDataset::default()
        }),
        None => PageDataset::default(),
    };
    let mut s = UrlState::defaults(dataset);
    // The grid last: it is checked against the base and parameters the other keys set.
    kv.sort_by_key(|(k, _)| k == "grid");
    for (k, v) in &kv {
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
    let mut out: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, v: String, same: bool| {
        if !same {
            out.push((k.to_string(), v));
        }
    };
    let id = |v: &dyn ErasedId| v.id();
    put("view", id(&s.view), s.view == d.view);
    put("dataset", id(&s.dataset), s.dataset == PageDataset::default());
    put("p1", id(&s.p1), s.p1 == d.p1);
    put("p2", id(&s.p2), s.p2 == d.p2);
    put("p3", s.p3.as_ref().map(|p| id(p)).unwrap_or_default(), s.p3 == d.p3);
    put("p4", s.p4.as_ref().map(|p| id(p)).unwrap_or_default(), s.p4 == d.p4);
    let list = s.policies.iter().map(|p| id(p)).collect::<Vec<_>>().join(",");
    put("policies", list, s.policies == d.policies);
    put("speed", s.speed.to_string(), s.speed == d.speed);
    put("colour", s.colour.id().into(), s.colour == d.colour);
    put("seeds", s.seeds.to_string(), s.seeds == d.seeds);
    put("offline", s.offline.clone(), s.offline == d.offline);
    put("preset", s.preset.clone(), s.preset == d.preset);
    put("full", "1".into(), !s.full);
    put("tuned", "1".into(), !s.tuned);
    put("workers", s.workers.to_string(), s.workers == d.workers);
    let now = serde_json::to_value(&s.params).expect("Params serialises");
    let def = serde_json::to_value(&d.params).expect("Params serialises");
    if let (Some(now), Some(def)) = (now.as_object(), def.as_object()) {
        for (k, v) in now {
            let text = match v {
                serde_json::Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            put(k, text, def.get(k) == Some(v));
        }
    }
    put("sweep", s.sweep.clone(), s.sweep == d.sweep);
    put("grid", canonical_grid(&s.grid), s.grid.is_empty());
    put("metric", s.metric.clone(), s.metric.is_empty());
    put("embed", "1".into(), !s.embed);
    put("hide", s.hide.join(","), s.hide.is_empty());
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

/// The serde id of the page's unit enums (object-safe, so one closure serves them all).
trait ErasedId {
    fn id(&self) -> String;
}
impl<T: Serialize> ErasedId for T {
    fn id(&self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
