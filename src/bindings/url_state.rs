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
pub enum PageDataset {
    #[default]
    Synthetic,
    Plane,
    NqTrivia,
    Upload,
}

pub use super::controls::{MAX_SEEDS, MAX_WORKERS, OFFLINE_EXPERIMENTS};
/// Presets of the paper view, one per figure (fig-d is fig-c's run, fig-f is fig-e's): the ids of
/// the engine's one list, [`crate::experiment::paper_presets`].
pub fn presets() -> Vec<&'static str> {
    crate::experiment::paper_presets().iter().map(|p| p.id).collect()
}
/// Largest live speed (rounds per frame).
pub const MAX_SPEED: u32 = 10_000;
/// Largest seed a link may carry: a JavaScript safe integer.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Everything the page shows, as carried by its URL.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
const PAGE_KEYS: [&str; 19] = [
    "view", "dataset", "p1", "p2", "p3", "p4", "policies", "speed", "seeds", "offline", "preset", "full",
    "tuned", "workers", "embed", "hide", "sweep", "grid", "metric",
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
mod tests {
    use super::*;

    #[test]
    fn defaults_encode_to_nothing_and_back() {
        for d in [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload] {
            let s = UrlState::defaults(d);
            let q = encode(&s).unwrap();
            assert_eq!(decode(&q).unwrap(), s, "{q}");
        }
        assert_eq!(encode(&UrlState::defaults(PageDataset::Synthetic)).unwrap(), "");
        assert_eq!(encode(&UrlState::defaults(PageDataset::Plane)).unwrap(), "dataset=plane");
        assert_eq!(decode("").unwrap(), decode("?").unwrap());
    }

    /// The live view's third and fourth panels (issue 23, item 6): optional, empty = no panel,
    /// written only when set, any policy id, a bad one an error naming the key.
    #[test]
    fn p3_and_p4_are_optional_panels() {
        let d = UrlState::defaults(PageDataset::Synthetic);
        assert_eq!((d.p3, d.p4), (None, None));
        let s = decode("p3=lfu&p4=clcb-sc-ls").unwrap();
        assert_eq!((s.p3, s.p4), (Some(PolicyKind::Lfu), Some(PolicyKind::ClcbScLs)));
        assert_eq!(encode(&s).unwrap(), "p3=lfu&p4=clcb-sc-ls");
        assert_eq!(decode("p3=&p4=").unwrap(), d);
        let mut only4 = d.clone();
        only4.p4 = Some(PolicyKind::Threshold);
        assert_eq!(encode(&only4).unwrap(), "p4=threshold");
        assert_eq!(decode(&encode(&only4).unwrap()).unwrap(), only4);
        let e = decode("p3=nope").unwrap_err().to_string();
        assert!(e.contains("nope"), "{e}");
        let (s, errors) = decode_lossy("p3=greedy&p4=zzz");
        assert_eq!((s.p3, s.p4, errors.len()), (Some(PolicyKind::Greedy), None, 1));
        // The engine's state as the page holds it (JSON): `null` for no panel.
        let j = serde_json::to_value(&s).unwrap();
        assert_eq!((j["p3"].as_str(), j["p4"].is_null()), (Some("greedy"), true));
        let back: UrlState = serde_json::from_value(j).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn workers_and_tuned_are_in_the_link_only_when_set() {
        let mut s = UrlState::defaults(PageDataset::Synthetic);
        s.workers = 2;
        s.tuned = true;
        assert_eq!(encode(&s).unwrap(), "tuned=1&workers=2");
        assert_eq!(decode("tuned=1&workers=2").unwrap(), s);
        assert!(decode(&format!("workers={}", MAX_WORKERS + 1)).is_err());
        assert!(decode("workers=-1").is_err());
    }

    #[test]
    fn a_full_state_round_trips() {
        let q = "?view=regret&dataset=plane&p1=lfu&p2=threshold&policies=greedy,lru&speed=20&seeds=3\
                 &offline=abl-k&preset=geom&full=1&tuned=1&workers=3&embed=1&seed=42&k=3&epsilon=0.25&beta=0.1\
                 &kernel_length=0.35&phi=clipped_quadratic&synthetic_sigma=0.02&lambda=1e-7";
        let s = decode(q).unwrap();
        assert_eq!(
            (s.view, s.dataset, s.p1, s.p2),
            (View::Regret, PageDataset::Plane, PolicyKind::Lfu, PolicyKind::Threshold)
        );
        assert_eq!((s.params.seed, s.params.k, s.params.epsilon, s.params.lambda), (42, 3, 0.25, 1e-7));
        assert_eq!(s.params.synthetic_sigma, Some(0.02));
        assert!(s.full && s.embed && s.tuned);
        assert_eq!(s.workers, 3);
        let again = decode(&encode(&s).unwrap()).unwrap();
        assert_eq!(again, s);
        // Floats survive bit for bit.
        let mut t = s.clone();
        t.params.epsilon = 0.1 + 0.2;
        t.params.zeta = 1.0 / 3.0;
        assert_eq!(decode(&encode(&t).unwrap()).unwrap(), t);
    }

    #[test]
    fn plane_defaults_and_dataset_order() {
        let s = decode("k=4&dataset=plane").unwrap();
        assert_eq!((s.params.epsilon, s.params.k, s.params.horizon), (0.1, 4, 1000));
        // The SPEC's ε on plane differs from the plane default, so it is written.
        let mut t = UrlState::defaults(PageDataset::Plane);
        t.params.epsilon = 0.4;
        assert_eq!(encode(&t).unwrap(), "dataset=plane&epsilon=0.4");
    }

    #[test]
    fn readable_errors_and_lossy_decoding() {
        let e = decode("kapa=1").unwrap_err().to_string();
        assert!(e.contains("unknown key `kapa`") && e.contains("epsilon"), "{e}");
        let e = decode("k=0").unwrap_err().to_string();
        assert!(e.contains("`k`") && e.contains("at least 1"), "{e}");
        let e = decode("p1=nope").unwrap_err().to_string();
        assert!(e.contains("nope") && e.contains("greedy"), "{e}");
        let e = decode("view=x").unwrap_err().to_string();
        assert!(e.contains("view") && e.contains("paper") && e.contains("sweep"), "{e}");
        let s = decode("view=sweep").unwrap();
        assert_eq!(s.view, View::Sweep);
        assert_eq!(encode(&s).unwrap(), "view=sweep");
        assert!(decode("k=3&k=4").unwrap_err().to_string().contains("more than once"));
        assert!(
            decode("seeds=0").is_err() && decode("speed=abc").is_err() && decode("preset=fig-z").is_err()
        );
        assert!(decode("policies=greedy,greedy").is_err() && decode("policies=").is_err());
        assert!(decode("seed=9007199254740992").is_err());
        assert!(decode("k=%zz").is_err() && decode("k=%").is_err() && decode("k=%ff").is_err());
        let (s, errors) = decode_lossy("k=3&epsilon=-1&kapa=2&p2=lru");
        assert_eq!((s.params.k, s.params.epsilon, s.p2), (3, 0.4, PolicyKind::Lru));
        assert_eq!(errors.len(), 2, "{errors:?}");
    }

    #[test]
    fn fingerprints_differ_with_any_parameter() {
        let p = page_params(PageDataset::Synthetic);
        let f = fingerprint("synthetic", &p);
        assert_eq!(f.len(), 16);
        assert_eq!(f, fingerprint("synthetic", &p.clone()));
        assert_ne!(f, fingerprint("plane", &p));
        assert_ne!(f, fingerprint("synthetic", &Params { seed: 1, ..p }));
    }

    #[test]
    fn the_frontier_view_has_a_link() {
        let mut s = UrlState::defaults(PageDataset::NqTrivia);
        s.view = View::Frontier;
        assert_eq!(encode(&s).unwrap(), "view=frontier&dataset=nq-trivia");
        assert_eq!(decode("view=frontier&dataset=nq-trivia").unwrap(), s);
        let e = decode("view=frontiers").unwrap_err().to_string();
        assert!(e.contains("frontiers") && e.contains("frontier"), "{e}");
    }

    /// The sweep view's base, grid and metric (issue 25, item 5): written only when set, the grid
    /// as the CLI's `--grid` writes it, each checked by the engine with a message naming its key.
    #[test]
    fn the_sweep_view_has_a_link() {
        let d = UrlState::defaults(PageDataset::Synthetic);
        assert_eq!((d.sweep.as_str(), d.grid.as_str(), d.metric.as_str()), ("online", "", ""));
        let q =
            "view=sweep&sweep=sens-off-beta&grid=beta_off%3D0%2C%200.10%3B%20lambda%3D1e-2%2C1&metric=gap";
        let s = decode(q).unwrap();
        assert_eq!(
            (s.sweep.as_str(), s.grid.as_str(), s.metric.as_str()),
            ("sens-off-beta", "beta_off=0,0.1;lambda=0.01,1", "gap")
        );
        assert_eq!(s.grid, Sweep::parse(&s.grid).unwrap().to_arg().unwrap());
        let q2 = encode(&s).unwrap();
        assert_eq!(q2, "view=sweep&sweep=sens-off-beta&grid=beta_off%3D0,0.1%3Blambda%3D0.01,1&metric=gap");
        assert_eq!(decode(&q2).unwrap(), s);
        // Unescaped, in any order, with the `final_` prefix: the same.
        let t = decode("metric=final_hit_rate&grid=k=2,4;epsilon=0.2,0.4&sweep=online").unwrap();
        assert_eq!((t.grid.as_str(), t.metric.as_str()), ("k=2,4;epsilon=0.2,0.4", "final_hit_rate"));
        assert_eq!(encode(&t).unwrap(), "grid=k%3D2,4%3Bepsilon%3D0.2,0.4&metric=final_hit_rate");
        // A state the page holds with the form's text is written canonically.
        let mut u = d.clone();
        u.grid = "k = 2, 4".into();
        assert_eq!(encode(&u).unwrap(), "grid=k%3D2,4");
        // Bad values: one message naming the key; the rest of the link applies.
        let msg = |q: &str| decode(q).unwrap_err().to_string();
        let e = msg("grid=epsilon=0.1,x");
        assert!(e.contains("`grid`") && e.contains("`x` is not a number"), "{e}");
        let e = msg("grid=nope=1,2");
        assert!(e.contains("`grid`") && e.contains("nope") && e.contains("no such parameter"), "{e}");
        assert!(msg("grid=epsilon=0.1;epsilon=0.2").contains("two different parameters"));
        assert!(msg("grid=a=1;b=2;c=3").contains("one or two parameters"));
        let e = msg("grid=k=0,2");
        assert!(e.contains("`grid`") && e.contains("`k`"), "{e}");
        let e = msg("sweep=fig-c");
        assert!(e.contains("`sweep`") && e.contains("online") && e.contains("sens-off-beta"), "{e}");
        let e = msg("metric=nope");
        assert!(e.contains("`metric`") && e.contains("avg_regret"), "{e}");
        let (s, errors) = decode_lossy("view=sweep&grid=epsilon=0.1,x&k=3&metric=gap&sweep=nq-tune");
        assert_eq!(
            (s.view, s.params.k, s.metric.as_str(), s.sweep.as_str()),
            (View::Sweep, 3, "gap", "nq-tune")
        );
        assert_eq!((s.grid.as_str(), errors.len()), ("", 1), "{errors:?}");
        // The page's state is checked too (encodeUrlState refuses an invalid one).
        assert!(encode(&UrlState { grid: "k=0".into(), ..d.clone() }).is_err());
        assert!(encode(&UrlState { sweep: "x".into(), ..d.clone() }).is_err());
        assert!(encode(&UrlState { metric: "x".into(), ..d }).is_err());
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape("a%20b+c%2C").unwrap(), "a b c,");
        assert_eq!(escape("a b+é"), "a%20b%2B%C3%A9");
        let s = decode("embed").unwrap();
        assert!(s.embed);
        assert_eq!(decode("p2=L%52U").unwrap().p2, PolicyKind::Lru);
    }

    #[test]
    fn never_panics_on_odd_input() {
        for q in
            ["&&&", "=", "==", "?=1", "%", "%%", "k", "k=", "k=1=2", "dataset", "dataset=", "\u{0}", "é=é"]
        {
            let _ = decode(q);
        }
    }

    proptest::proptest! {
        #[test]
        fn decode_inverts_encode(
            view in 0usize..7, ds in 0usize..3, p1 in 0usize..10, p2 in 0usize..10, mask in 1u16..1024,
            speed in 1u32..=MAX_SPEED, seeds in 1usize..=MAX_SEEDS, off in 0usize..3, pre in 0usize..7,
            full: bool, embed: bool, seed in 0u64..=MAX_SEED, k in 1usize..60, eps in 1e-6f64..3.0,
            beta in 0.0f64..100.0, horizon in 1usize..1_000_000, sigma in proptest::option::of(0.0f64..10.0),
            p3 in proptest::option::of(0usize..10), p4 in proptest::option::of(0usize..10),
            sweep in 0usize..16, eps_grid in proptest::collection::btree_set(1u32..1000, 0..4),
            k_grid in proptest::collection::btree_set(1usize..40, 0..4), metric in 0usize..40,
        ) {
            let views = [View::Live, View::Regret, View::Offline, View::Efficiency, View::Paper, View::Sweep, View::Frontier];
            let sets = [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload];
            let mut s = UrlState::defaults(sets[ds]);
            s.view = views[view];
            s.p1 = PolicyKind::ALL[p1];
            s.p2 = PolicyKind::ALL[p2];
            (s.p3, s.p4) = (p3.map(|i| PolicyKind::ALL[i]), p4.map(|i| PolicyKind::ALL[i]));
            s.policies = PolicyKind::ALL.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &p)| p).collect();
            (s.speed, s.seeds, s.full, s.embed) = (speed, seeds, full, embed);
            s.offline = OFFLINE_EXPERIMENTS[off].into();
            s.preset = presets()[pre].into();
            s.params = Params { seed, k, epsilon: eps, beta, horizon, synthetic_sigma: sigma, ..s.params };
            let bases = crate::experiment::sweep_presets();
            s.sweep = bases.get(sweep).copied().unwrap_or("online").into();
            let axes: Vec<(&str, Vec<serde_json::Value>)> = [
                ("epsilon", eps_grid.iter().map(|&e| serde_json::json!(f64::from(e) / 100.0)).collect()),
                ("k", k_grid.iter().map(|&k| serde_json::json!(k)).collect()),
            ].into_iter().filter(|(_, v): &(&str, Vec<_>)| !v.is_empty()).collect();
            s.grid = match axes.as_slice() {
                [] => String::new(),
                [(p, v)] => Sweep::new(p, v.clone()).to_arg().unwrap(),
                [(p, v), (q, w), ..] => Sweep::grid(p, v.clone(), q, w.clone()).to_arg().unwrap(),
            };
            let ids = crate::experiment::metrics::METRICS;
            s.metric = match metric.checked_sub(1).map(|i| (i % 2, ids.get(i / 2))) {
                Some((0, Some(m))) => m.id.into(),
                Some((_, Some(m))) => format!("final_{}", m.id),
                _ => String::new(),
            };
            let q = encode(&s).unwrap();
            proptest::prop_assert_eq!(decode(&q).unwrap(), s, "{}", q);
        }

        #[test]
        fn decode_never_panics(q in ".{0,80}") {
            let _ = decode(&q);
        }
    }
}
