//! The page's state as a link carries it ([`UrlState`]) with its views, datasets and defaults;
//! the key table ([`super::keys`]) reads, writes and checks it.

use crate::bindings::controls::{offline_experiments, Colouring};
use crate::config::Params;
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
    /// A metric over one or two parameters' values (a line or a heatmap).
    Sweep,
    /// The cost–correctness frontier: error rate against realised cost per family.
    Frontier,
    /// Does the guarantee show? The regret view's run read against Theorem 5.1, Assumption 1 and
    /// Lemma 5.3, and Reg(T) across horizons.
    Theory,
    /// What breaks a cache in production: tenants who must not share, and queries built to fool
    /// it (the `tenants` and `attack` experiments).
    Threats,
}

impl View {
    /// Every view, in the order of the page's tabs.
    pub const ALL: [View; 9] = [
        View::Live,
        View::Regret,
        View::Offline,
        View::Efficiency,
        View::Paper,
        View::Sweep,
        View::Frontier,
        View::Theory,
        View::Threats,
    ];
}

/// How the page is embedded (the link's `embed=`): `1` the page without its controls and text
/// (plus whatever `hide` names), `figure` one chart of the open view with its caption and the
/// attribution link, sized to its iframe; no key (or `0`): not embedded.
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
    /// The live view's third and fourth panels, side by side with the first two ; `None` (the link's `p3=` or no key): no panel.
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
    /// The offline view's experiment (one of [`offline_experiments`]).
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
    /// embedded page hides them besides [`crate::bindings::controls::EMBED_HIDE`] ([`UrlState::hidden`]).
    #[serde(default)]
    pub hide: Vec<String>,
    /// The sweep view's base experiment: `online` (the regret view's run) or one of
    /// [`crate::experiment::sweep_presets`].
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
    /// The threats view: tenants N of the `tenants` experiment (1 to 256).
    #[serde(default = "default_tenants")]
    pub tenants: u32,
    /// Their overlap ω in [0, 1].
    #[serde(default = "default_overlap")]
    pub overlap: f64,
    /// The isolation settings its charts draw (every run plays all three: the price of isolation
    /// is against `shared`).
    #[serde(default = "all_isolations")]
    pub isolations: Vec<crate::online::Isolation>,
    /// The policies of its two experiments.
    #[serde(default = "default_threat_policies")]
    pub threat_policies: Vec<PolicyKind>,
    /// The attack probabilities p, each in [0, 1].
    #[serde(default = "default_attack_p")]
    pub attack_p: Vec<f64>,
    /// The confusable distance d (> 0).
    #[serde(default = "default_distance")]
    pub distance: f64,
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

/// The `tenants` and `attack` experiments' own settings: the threats view's defaults.
pub(super) struct ThreatDefaults {
    pub tenants: u32,
    pub overlap: f64,
    pub policies: Vec<PolicyKind>,
    pub p: Vec<f64>,
    pub distance: f64,
}

/// The built-ins' settings (`csc::experiment::builtin`), the one source of the view's defaults.
pub(super) fn threat_defaults() -> ThreatDefaults {
    use crate::experiment::{builtin, Measure};
    use crate::stream::ArrivalSpec;
    let t = builtin("tenants").expect("the tenants experiment is built in");
    let (tenants, overlap) = match t.dataset.arrival() {
        Some(ArrivalSpec::Tenants { tenants, overlap, .. }) => (
            tenants.unwrap_or(crate::stream::DEFAULT_TENANTS),
            overlap.unwrap_or(crate::stream::DEFAULT_OVERLAP),
        ),
        _ => (crate::stream::DEFAULT_TENANTS, crate::stream::DEFAULT_OVERLAP),
    };
    let a = builtin("attack").expect("the attack experiment is built in");
    let Measure::Attack { policies, p, distance } = a.measure else { unreachable!("attack is an attack") };
    ThreatDefaults { tenants, overlap, policies, p, distance }
}

fn default_tenants() -> u32 {
    threat_defaults().tenants
}
fn default_overlap() -> f64 {
    threat_defaults().overlap
}
fn all_isolations() -> Vec<crate::online::Isolation> {
    crate::online::Isolation::ALL.to_vec()
}
fn default_threat_policies() -> Vec<PolicyKind> {
    threat_defaults().policies
}
fn default_attack_p() -> Vec<f64> {
    threat_defaults().p
}
fn default_distance() -> f64 {
    threat_defaults().distance
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
        let t = threat_defaults();
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
            offline: offline_experiments()[0].into(),
            preset: "fig-c".into(),
            full: false,
            embed: None,
            tuned: false,
            workers: 0,
            hide: vec![],
            sweep: online(),
            grid: String::new(),
            metric: String::new(),
            tenants: t.tenants,
            overlap: t.overlap,
            isolations: all_isolations(),
            threat_policies: t.policies,
            attack_p: t.p,
            distance: t.distance,
            #[cfg(feature = "fixture-key")]
            fixture: 0,
        }
    }

    /// What the page hides: an embedded page's [`crate::bindings::controls::EMBED_HIDE`], then every name
    /// of `hide` not already there. Hide flags only ever remove: `embed=1&hide=x`
    /// hides all `embed=1` hides, and `x`.
    pub fn hidden(&self) -> Vec<String> {
        let base = if self.embed.is_some() { &crate::bindings::controls::EMBED_HIDE[..] } else { &[] };
        let mut out: Vec<String> = base.iter().map(|n| n.to_string()).collect();
        out.extend(self.hide.iter().filter(|n| !base.contains(&n.as_str())).cloned());
        out
    }
}
