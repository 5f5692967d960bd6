//! The one list of the parameters ([`PARAMETERS`]): every field of [`Params`](super::Params)
//! with its symbol, unit, one-line documentation and reference, and — for those the page shows —
//! its control's range. The CLI (`csc list`), the page's controls (`www/js/controls.js`, through
//! `parameters()`) and the URL codec's hide names read it; the default is always
//! `Params::default()`'s (SPEC), never written here.
//!
//! References use the paper's own numbering (`§2.1`, `eq. (2)`, `Alg. 5, line 6`, `appendix A.2`);
//! a convention the paper leaves open points into the rendered notes shipped with the page,
//! `SPEC-NOTES#anchor` (`docs/SPEC-NOTES.html#anchor`). `tests/catalog_lists.rs` checks every
//! reference against the paper's .tex and every anchor against `docs/SPEC-NOTES.md`.

use serde::Serialize;

/// How the page draws a parameter: a number input with this range and step (within the domain
/// `Params::validate` accepts). `more`: under "More parameters" rather than in the main grid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ParamControl"))]
pub struct Control {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub more: bool,
}

/// One parameter as a reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ParamFacts"))]
pub struct ParamInfo {
    /// The `Params` field: the key of `--set`, the JSON configuration and the page's link.
    pub id: &'static str,
    /// Its symbol in plain Unicode (`ε`, `ℓ_k`, `n_eval`); `_x` is a subscript.
    pub symbol: &'static str,
    /// What it is, in a few words (a control's label).
    pub name: &'static str,
    /// The unit of its values (empty: a pure number).
    pub unit: &'static str,
    /// One line: what it does.
    pub doc: &'static str,
    /// Where it is defined: the paper's numbering and/or `SPEC-NOTES#anchor`, parts joined by `; `.
    pub reference: &'static str,
    /// The page's control, if the page shows it.
    pub control: Option<Control>,
}

/// A parameter's symbol (`ε`, `n`, `T`), or `id` itself when it is not a parameter: the name
/// descriptions, sweep axes and verdicts use.
pub fn symbol_of(id: &str) -> &str {
    PARAMETERS.iter().find(|p| p.id == id).map_or(id, |p| p.symbol)
}

const fn main(min: f64, max: f64, step: f64) -> Option<Control> {
    Some(Control { min, max, step, more: false })
}
const fn more(min: f64, max: f64, step: f64) -> Option<Control> {
    Some(Control { min, max, step, more: true })
}

macro_rules! parameters {
    ($($id:literal, $sym:literal, $name:literal, $unit:literal, $doc:literal, $reference:literal, $control:expr;)+) => {
        /// Every parameter, in `Params`'s field order.
        pub const PARAMETERS: &[ParamInfo] = &[$(ParamInfo {
            id: $id, symbol: $sym, name: $name, unit: $unit, doc: $doc, reference: $reference, control: $control,
        }),+];
    };
}

parameters! {
    "k", "k", "cache size", "items",
        "Queries (with their answers) the cache holds.",
        "§2.1", main(1.0, 50.0, 1.0);
    "phi", "φ", "mismatch function", "",
        "clipped_linear: φ(d) = min(ζd, 1), the paper's example; clipped_quadratic: min((ζd)², 1).",
        "§2.1; SPEC-NOTES#mismatch-and-its-scale", None;
    "zeta", "ζ", "mismatch scale", "per unit of d",
        "The slope of φ: a cached answer at distance d ≥ 1/ζ costs as much as the worst mismatch, 1.",
        "§2.1; SPEC-NOTES#mismatch-and-its-scale", None;
    "c_floor", "c_floor", "cost floor", "",
        "The smallest cost: c = c_floor + (1 − c_floor)·(tokens − min)/(max − min), so that c > 0.",
        "§6; SPEC-NOTES#costs-floor-and-noise", None;
    "noise_r", "R", "noise level", "cost units",
        "Standard deviation of the noise on an observed LLM cost.",
        "§2.1; Alg. 4, line 11; SPEC-NOTES#costs-floor-and-noise", more(0.0, 1.0, 0.01);
    "epsilon", "ε", "ε-net radius", "normalised distance d",
        "An arrival farther than ε from every center founds a new one.",
        "§2.2; Alg. 3, line 5", main(0.01, 2.0, 0.01);
    "eps_oracle", "ε_o", "oracle net radius", "normalised distance d",
        "The fine net that thins the evaluation oracle's candidates before Reverse Greedy.",
        "SPEC-NOTES#evaluation-sample-and-oracle", None;
    "n_eval", "n_eval", "evaluation sample", "queries",
        "Draws of the arrival density on which L(M) and the regret are evaluated.",
        "eq. (2); SPEC-NOTES#evaluation-sample-and-oracle", more(100.0, 20000.0, 100.0);
    "kernel_length", "ℓ_k", "kernel length-scale", "normalised distance d",
        "Of the RBF kernel exp(−d²/(2ℓ_k²)): how far one cost observation informs.",
        "§4; SPEC-NOTES#kernel-and-confidence-widths", more(0.01, 5.0, 0.01);
    "lambda", "λ", "ridge", "",
        "Larger trusts each cost observation less.",
        "Alg. 2, line 4; Alg. 4, line 9", more(0.0001, 10.0, 0.01);
    "b", "B", "RKHS norm bound", "",
        "The bound on the cost function's RKHS norm in the confidence radius Δ(x).",
        "Alg. 2, line 5; Alg. 4, line 11", None;
    "delta", "δ", "confidence", "",
        "The confidence bounds hold with probability at least 1 − δ.",
        "Alg. 2, line 5; Alg. 4, line 11", None;
    "beta", "β", "online width scale", "",
        "Scales the width of the LCB c̲; 1 is the theory's, smaller trusts estimates sooner.",
        "Alg. 4, line 11; SPEC-NOTES#kernel-and-confidence-widths", more(0.0, 10.0, 0.1);
    "beta_off", "β_off", "offline width scale", "",
        "Scales the offline confidence radius Δ(x) of the UCB c̄; 1 is the theoretical width.",
        "Alg. 2, line 5; SPEC-NOTES#kernel-and-confidence-widths", None;
    "horizon", "T", "horizon", "rounds",
        "Rounds of a run, one arrival each.",
        "§5.1", more(100.0, 100000.0, 100.0);
    "log_len", "n", "offline log length", "arrivals",
        "Arrivals in the offline log D that the offline algorithms learn from.",
        "§4; Alg. 2, line 1", None;
    "propensity", "ν", "logging propensity", "probability",
        "The chance that a logged arrival's cost was observed (the logging policy called the LLM).",
        "§4; SPEC-NOTES#offline-log", None;
    "synthetic_sigma", "σ_e", "synthetic jitter", "per coordinate",
        "The Gaussian noise added to a sampled prompt's embedding; empty: calibrated to a median arrival-to-prompt distance of 0.074.",
        "§6; SPEC-NOTES#arrival-models", None;
    "burst_mean", "burst mean", "mean burst length", "arrivals",
        "The mean of the Geometric burst lengths of the bursty arrival model (nq-trivia alternates NQ and TriviaQA bursts).",
        "§6; SPEC-NOTES#arrival-models", None;
    "explore_rate", "ε_explore", "exploration rate", "probability",
        "Epsilon-Greedy's chance, per round (online) or per slot (offline), of a random choice instead of Greedy's.",
        "§6; SPEC-NOTES#baselines-parameters", None;
    "threshold_tau", "τ", "threshold radius", "normalised distance d",
        "The Threshold cache serves from its nearest item within τ.",
        "SPEC-NOTES#baselines-parameters", more(0.0, 2.0, 0.01);
    "threshold_cosine", "s", "threshold as a cosine", "cosine similarity",
        "The Threshold cache's radius given as a cosine s instead (τ = √(2(1 − s))/D); GPTCache's default is 0.6.",
        "SPEC-NOTES#online-spec-9", None;
    "vcache_delta", "δ_v", "vCache error bound", "probability",
        "The share of wrong hits vCache allows (needs ground truth).",
        "vCache (arXiv 2502.03771); SPEC-NOTES#vcache-spec-15", more(0.001, 0.5, 0.005);
    "eviction", "eviction", "eviction rule", "",
        "lru: the Threshold cache and vCache evict the least recently used entry; gdsf: the lowest L + frequency·cost (Greedy-Dual-Size-Frequency, Cherkasova 1998, HP Labs HPL-98-69; size 1). GPTCache's preset keeps LRU.",
        "SPEC-NOTES#online-spec-9", None;
    "lipschitz", "L_g", "Lipschitz constant", "",
        "CLCB-Frozen-Cont's Lipschitz constant of g_M(x) = min(c(x), φ(d(x, M))), which sets its pool radius.",
        "§3; appendix A.2, Alg. 6", None;
    "c_p", "C_p", "stage constant", "",
        "CLCB-Frozen-Cont's constant in the arrival-uncertainty test that ends a stage.",
        "appendix A.2, Alg. 8, line 10", None;
    "seed", "seed", "seed", "",
        "Every random draw of a run; experiments use seeds 0, 1, …",
        "SPEC-NOTES#seeds-and-random-streams", main(0.0, 9007199254740991.0, 1.0);
}

/// The entry of parameter `id`.
pub fn param_info(id: &str) -> Option<&'static ParamInfo> {
    PARAMETERS.iter().find(|p| p.id == id)
}

/// A parameter with its default: what `csc list --json` and the page's `parameters()` give.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ParamInfo"))]
pub struct ParamEntry {
    #[serde(flatten)]
    pub info: ParamInfo,
    /// `Params::default()`'s value (the SPEC default).
    pub default: serde_json::Value,
}
