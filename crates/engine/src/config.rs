//! The one parameter set of every run, with the SPEC defaults, validated with readable messages
//! (the symbols of SPEC §2–§9 and §13; the paper's settings of §6).
//!
//! Every result carries the resolved `Params` (SPEC preamble: "Every run must print or return its
//! fully resolved configuration"). Unknown keys are rejected so a typo never silently falls back
//! to a default. [`PARAMETERS`] documents each field once (symbol, unit, reference, page control).

use crate::error::{Error, Result};
use crate::mismatch::Mismatch;
use serde::{Deserialize, Serialize};

mod list;
pub use list::{param_info, symbol_of, Control, ParamEntry, ParamInfo, PARAMETERS};

/// Every parameter with its SPEC default, in [`PARAMETERS`] order. (Here, beside [`Params`], so
/// that `list.rs` names nothing of this file, which re-exports it: no import cycle.)
pub fn param_list() -> Vec<ParamEntry> {
    let defaults = serde_json::to_value(Params::default()).expect("Params serialises");
    PARAMETERS
        .iter()
        .map(|p| ParamEntry { info: *p, default: defaults.get(p.id).cloned().unwrap_or_default() })
        .collect()
}

/// Which `φ` (SPEC §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum PhiKind {
    /// `min(ζ·d, 1)`, the SPEC default.
    #[default]
    ClippedLinear,
    /// `min((ζ·d)², 1)`.
    ClippedQuadratic,
}

/// The eviction rule of the threshold cache and vCache (SPEC §9, §15), when they hold `k` entries
/// and admit another ([`crate::online::eviction`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Eviction {
    /// Least recently used (ties: the oldest entry), the default.
    #[default]
    Lru,
    /// Greedy-Dual-Size-Frequency (Cherkasova, "Improving WWW proxies performance with
    /// Greedy-Dual-Size-Frequency caching policy", HP Labs report HPL-98-69, 1998): evict the
    /// lowest priority `H = L + frequency·cost/size`, with size 1; the clock `L` becomes the
    /// evicted entry's priority.
    Gdsf,
}

impl Eviction {
    /// Every rule, in the order lists show them.
    pub const ALL: [Eviction; 2] = [Eviction::Lru, Eviction::Gdsf];

    /// The id (the serde name: `lru`, `gdsf`).
    pub const fn id(self) -> &'static str {
        match self {
            Eviction::Lru => "lru",
            Eviction::Gdsf => "gdsf",
        }
    }

    /// The name lists and menus show.
    pub const fn label(self) -> &'static str {
        match self {
            Eviction::Lru => "LRU (least recently used)",
            Eviction::Gdsf => "GDSF (Greedy-Dual-Size-Frequency, cost-aware)",
        }
    }

    /// What the rule evicts when the cache is full, in words (the frontier's notes say it of a
    /// threshold family; [`crate::online::eviction`]).
    pub const fn evicts(self) -> &'static str {
        match self {
            Eviction::Lru => "evicts the least recently used entry (SPEC §9)",
            Eviction::Gdsf => {
                "evicts the entry of lowest GDSF priority L + frequency × cost (Cherkasova 1998; the \
                 clock L ages entries not used for a while)"
            }
        }
    }
}

/// All parameters. Field docs give the symbol, the SPEC section and the default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Params {
    /// Cache size `k` (SPEC §3). Default 5.
    pub k: usize,
    /// Mismatch function `φ` (SPEC §3). Default clipped linear.
    pub phi: PhiKind,
    /// Mismatch scale `ζ` (SPEC §3). Default 1.
    pub zeta: f64,
    /// Floor of the min-max normalised token cost, `c_floor` (SPEC §2). Default 0.01.
    pub c_floor: f64,
    /// Observation noise standard deviation `R` (SPEC §2). Default 0.05.
    pub noise_r: f64,
    /// ε-net radius `ε` (SPEC §4). Default 0.4.
    pub epsilon: f64,
    /// Radius `ε_o` of the net that thins the evaluation oracle's candidates (SPEC §5). Default 0.02.
    pub eps_oracle: f64,
    /// Size of the evaluation sample `E`, `n_eval` (SPEC §3). Default 10,000.
    pub n_eval: usize,
    /// RBF length-scale `ℓ_k` (SPEC §6). Default 0.2.
    pub kernel_length: f64,
    /// Ridge `λ` (SPEC §6). Default 0.1.
    pub lambda: f64,
    /// RKHS norm bound `B` (SPEC §6). Default 1.
    pub b: f64,
    /// Confidence `δ` (SPEC §6). Default 0.05.
    pub delta: f64,
    /// Online confidence scale `β` (SPEC §6, §13). Default 1 (the theoretical width).
    pub beta: f64,
    /// Offline confidence scale `β_off` (SPEC §6, §13). Default 1 (the theoretical width).
    pub beta_off: f64,
    /// Online horizon `T` (SPEC §9). Default 5,000.
    pub horizon: usize,
    /// Offline log length `n` (SPEC §8). Default 1,000.
    pub log_len: usize,
    /// Logging propensity `ν` (SPEC §8). Default 0.5.
    pub propensity: f64,
    /// Synthetic arrival noise `σ_e` (SPEC §7); `None` = calibrated so that the median
    /// arrival-to-prompt distance is 0.074.
    pub synthetic_sigma: Option<f64>,
    /// Mean nq-trivia burst length (SPEC §7, §11.10). Default 100.
    pub burst_mean: f64,
    /// Epsilon-Greedy exploration rate (SPEC §9). Default 0.1.
    pub explore_rate: f64,
    /// Threshold-cache hit radius `τ` on the normalised distance (SPEC §9). Default 0.15.
    pub threshold_tau: f64,
    /// Threshold-cache hit radius given as a cosine similarity `s` instead (docs/SPEC-NOTES.md):
    /// when set, it overrides `threshold_tau` with `τ = √(2(1 − s))/D` on the run's dataset
    /// (distance scale `D`). GPTCache's defaults are `s = 0.6`
    /// ([`GPTCACHE_COSINE`]). Default `None`.
    pub threshold_cosine: Option<f64>,
    /// vCache's error bound `δ` (SPEC §15; the reference code's default 0.01). Default 0.01.
    pub vcache_delta: f64,
    /// The eviction rule of the threshold cache and vCache ([`Eviction`]): LRU, or GDSF
    /// (Cherkasova 1998, HPL-98-69). GPTCache's preset keeps LRU. Default LRU.
    pub eviction: Eviction,
    /// CLCB-Frozen-Cont Lipschitz constant `L_g` (appendix Alg. 6; radius `ρ_s = e_s/(2L_g)`). Default 1.
    pub lipschitz: f64,
    /// CLCB-Frozen-Cont constant `C_p` (appendix Alg. 8 line 10). Default 0.1.
    pub c_p: f64,
    /// Seed of every random draw of a run.
    pub seed: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k: 5,
            phi: PhiKind::ClippedLinear,
            zeta: 1.0,
            c_floor: 0.01,
            noise_r: 0.05,
            epsilon: 0.4,
            eps_oracle: 0.02,
            n_eval: 10_000,
            kernel_length: 0.2,
            lambda: 0.1,
            b: 1.0,
            delta: 0.05,
            beta: 1.0,
            beta_off: 1.0,
            horizon: 5_000,
            log_len: 1_000,
            propensity: 0.5,
            synthetic_sigma: None,
            burst_mean: 100.0,
            explore_rate: 0.1,
            threshold_tau: 0.15,
            threshold_cosine: None,
            vcache_delta: 0.01,
            eviction: Eviction::Lru,
            lipschitz: 1.0,
            c_p: 0.1,
            seed: 0,
        }
    }
}

/// GPTCache's default hit rule as a cosine similarity (docs/SPEC-NOTES.md, "GPTCache preset").
/// GPTCache (zilliztech/GPTCache) defaults to `Config(similarity_threshold = 0.8)`
/// (`gptcache/config.py`), and its similar-cache set-up (`init_similar_cache` in
/// `gptcache/adapter/api.py`) scores a candidate with `SearchDistanceEvaluation(max_distance =
/// 4.0)`, i.e. `4 − dist`, where `dist` is Faiss's `METRIC_L2` distance — the *squared*
/// Euclidean distance. A hit needs `score ≥ 0.8 · (4 − 0)`, i.e. `‖x − y‖² ≤ 0.8`, which for
/// L2-normalised embeddings is `cos(x, y) = 1 − ‖x − y‖²/2 ≥ 0.6`.
pub const GPTCACHE_COSINE: f64 = 0.6;

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(Params);

impl Params {
    /// The threshold cache's radius `τ` on a dataset of distance scale `D` (SPEC §9):
    /// `threshold_tau`, or `√(2(1 − s))/D` when `threshold_cosine = s` is set (the cosine of two
    /// unit rows at Euclidean distance `e` is `1 − e²/2`).
    pub fn resolved_threshold_tau(&self, dist_scale: f64) -> f64 {
        match self.threshold_cosine {
            Some(s) => (2.0 * (1.0 - s)).max(0.0).sqrt() / dist_scale,
            None => self.threshold_tau,
        }
    }

    /// These parameters with the threshold cache set to GPTCache's defaults ([`GPTCACHE_COSINE`])
    /// and its eviction: LRU, GPTCache's default (`eviction="LRU"` in its data manager), whatever
    /// `eviction` these parameters name.
    pub fn gptcache_preset(&self) -> Params {
        Params { threshold_cosine: Some(GPTCACHE_COSINE), eviction: Eviction::Lru, ..self.clone() }
    }
}

/// Largest horizon, log or sample the engine accepts (keeps memory bounded in a browser tab).
pub const MAX_ROUNDS: usize = 10_000_000;

/// Accepted RBF length-scales `ℓ_k` (on the normalised distance). Below about 1e-154, `2ℓ_k²`
/// underflows to 0 and `κ(x, x) = exp(−0/0)` is NaN; far outside this range the kernel is the
/// identity or all ones to rounding, which no experiment needs.
pub const KERNEL_LENGTH_RANGE: (f64, f64) = (1e-6, 1e6);

fn positive(name: &str, v: f64, what: &str) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::param(name, format!("{what} must be a positive finite number, got {v}")))
    }
}

fn in_range(name: &str, v: f64, lo: f64, hi: f64, what: &str) -> Result<()> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(Error::param(name, format!("{what} must lie in [{lo}, {hi}], got {v}")))
    }
}

pub(crate) fn count(name: &str, v: usize, lo: usize, what: &str) -> Result<()> {
    if v < lo {
        Err(Error::param(name, format!("{what} must be at least {lo}, got {v}")))
    } else if v > MAX_ROUNDS {
        Err(Error::param(name, format!("{what} must be at most {MAX_ROUNDS}, got {v}")))
    } else {
        Ok(())
    }
}

impl Params {
    /// Parses a JSON object; missing keys take their defaults; the result is validated.
    pub fn from_json(text: &str) -> Result<Self> {
        // serde's derive also reads a struct from a JSON array (by position): `[]` would silently
        // be the defaults. Only an object is a configuration.
        if !text.trim_start().starts_with('{') {
            return Err(Error::parse(
                "configuration JSON: expected an object of parameters, e.g. {\"k\": 3}",
            ));
        }
        let p: Params =
            serde_json::from_str(text).map_err(|e| Error::parse(format!("configuration JSON: {e}")))?;
        p.validate()?;
        Ok(p)
    }

    /// Applies one `KEY=VALUE` override (the CLI's `--set`): `VALUE` is read as JSON if it parses
    /// (`k=3`, `synthetic_sigma=null`, `phi="clipped_quadratic"`), else as a bare string
    /// (`phi=clipped_quadratic`). Unknown keys, wrong types and out-of-range values are errors
    /// naming the parameter; the result is validated.
    pub fn apply_set(&self, set: &str) -> Result<Params> {
        let (k, v) = set
            .split_once('=')
            .ok_or_else(|| Error::parse(format!("an override must be KEY=VALUE, got `{set}`")))?;
        let key = k.trim();
        if key.is_empty() {
            return Err(Error::parse(format!("an override must be KEY=VALUE, got `{set}` (no key)")));
        }
        // A named choice (`phi`, `eviction`, …) takes the text as its name, so `eviction=1` is
        // told the names it may take rather than serde_json's "expected value" for a number.
        let named =
            serde_json::to_value(self).ok().is_some_and(|p| p.get(key).is_some_and(|d| d.is_string()));
        let value: serde_json::Value = match serde_json::from_str(v) {
            Ok(value) if !named => value,
            _ => serde_json::Value::String(v.into()),
        };
        with_param(self, key, &value)
    }

    /// The full configuration as pretty JSON (printed with every result).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("Params always serialises")
    }

    /// Checks every value against its domain.
    pub fn validate(&self) -> Result<()> {
        count("k", self.k, 1, "the cache size k")?;
        positive("zeta", self.zeta, "the mismatch scale ζ")?;
        in_range("c_floor", self.c_floor, f64::MIN_POSITIVE, 1.0, "the cost floor c_floor")?;
        in_range("noise_r", self.noise_r, 0.0, 10.0, "the noise level R")?;
        positive("epsilon", self.epsilon, "the ε-net radius ε")?;
        positive("eps_oracle", self.eps_oracle, "the oracle net radius ε_o")?;
        count("n_eval", self.n_eval, 1, "the evaluation sample size n_eval")?;
        let (lo, hi) = KERNEL_LENGTH_RANGE;
        in_range("kernel_length", self.kernel_length, lo, hi, "the kernel length-scale ℓ_k")?;
        positive("lambda", self.lambda, "the ridge λ")?;
        in_range("b", self.b, 0.0, 1e6, "the RKHS bound B")?;
        if !(self.delta > 0.0 && self.delta < 1.0) {
            return Err(Error::param(
                "delta",
                format!("the confidence δ must lie in (0, 1), got {}", self.delta),
            ));
        }
        in_range("beta", self.beta, 0.0, 1e6, "the online confidence scale β")?;
        in_range("beta_off", self.beta_off, 0.0, 1e6, "the offline confidence scale β_off")?;
        count("horizon", self.horizon, 1, "the horizon T")?;
        count("log_len", self.log_len, 1, "the offline log length n")?;
        in_range("propensity", self.propensity, 0.0, 1.0, "the logging propensity ν")?;
        if let Some(s) = self.synthetic_sigma {
            in_range("synthetic_sigma", s, 0.0, 10.0, "the synthetic noise σ_e")?;
        }
        in_range("burst_mean", self.burst_mean, 1.0, 1e9, "the mean burst length")?;
        in_range("explore_rate", self.explore_rate, 0.0, 1.0, "the exploration rate")?;
        in_range("threshold_tau", self.threshold_tau, 0.0, 10.0, "the threshold-cache radius τ")?;
        if let Some(c) = self.threshold_cosine {
            in_range("threshold_cosine", c, -1.0, 1.0, "the threshold cache's cosine similarity")?;
        }
        if !(self.vcache_delta > 0.0 && self.vcache_delta < 1.0) {
            return Err(Error::param(
                "vcache_delta",
                format!("vCache's error bound δ must lie in (0, 1), got {}", self.vcache_delta),
            ));
        }
        positive("lipschitz", self.lipschitz, "the Lipschitz constant L_g")?;
        positive("c_p", self.c_p, "the constant C_p")?;
        Ok(())
    }

    /// The mismatch function these parameters select.
    pub fn mismatch(&self) -> Mismatch {
        match self.phi {
            PhiKind::ClippedLinear => Mismatch::ClippedLinear { zeta: self.zeta },
            PhiKind::ClippedQuadratic => Mismatch::ClippedQuadratic { zeta: self.zeta },
        }
    }
}

/// `params` with one field set from JSON (validated; unknown names rejected).
pub fn with_param(params: &Params, name: &str, value: &serde_json::Value) -> Result<Params> {
    let mut v = serde_json::to_value(params).expect("Params serialises");
    let obj = v.as_object_mut().expect("Params is an object");
    if !obj.contains_key(name) {
        return Err(Error::param(name, "no such parameter"));
    }
    obj.insert(name.to_string(), value.clone());
    let p: Params = crate::json::from_value(&v).map_err(|e| Error::param(name, e))?;
    p.validate()?;
    Ok(p)
}

/// Parameters checked once, by type (linfa's `ParamGuard`): [`Params::check`] is the one way to a
/// [`Checked`], and every run entry point — [`crate::stream::generate_trace`],
/// [`crate::online::sim::Environment::from_trace`], [`crate::online::sim::Simulation::new`],
/// [`crate::online::Context::new`], [`crate::offline::OfflineProblem::from_trace`], the live run —
/// takes a `&Checked`, so none of them checks again and none can be handed unchecked values. The
/// messages are [`Params::validate`]'s. Read the parameters through `Deref` (`checked.k`).
#[derive(Clone, Debug, PartialEq)]
pub struct Checked(Params);

impl Params {
    /// These parameters, checked against every domain ([`Params::validate`]'s messages).
    pub fn check(self) -> Result<Checked> {
        self.validate()?;
        Ok(Checked(self))
    }
}

impl Checked {
    /// The parameters themselves.
    pub fn params(&self) -> &Params {
        &self.0
    }

    /// The parameters, to change (they must be checked again to run).
    pub fn into_inner(self) -> Params {
        self.0
    }
}

impl std::ops::Deref for Checked {
    type Target = Params;
    fn deref(&self) -> &Params {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_spec_defaults_and_round_trip() {
        let p = Params::default();
        p.validate().unwrap();
        assert_eq!((p.k, p.epsilon, p.lambda, p.kernel_length, p.delta), (5, 0.4, 0.1, 0.2, 0.05));
        assert_eq!((p.noise_r, p.n_eval, p.horizon, p.propensity), (0.05, 10_000, 5_000, 0.5));
        let back = Params::from_json(&p.to_json()).unwrap();
        assert_eq!(back, p);
        let partial = Params::from_json(r#"{"k": 3, "epsilon": 0.2}"#).unwrap();
        assert_eq!((partial.k, partial.epsilon, partial.lambda), (3, 0.2, 0.1));
    }

    #[test]
    fn readable_errors() {
        let e = Params::from_json(r#"{"k": 0}"#).unwrap_err().to_string();
        assert!(e.contains("`k`") && e.contains("at least 1"), "{e}");
        let e = Params::from_json(r#"{"lambda": -1}"#).unwrap_err().to_string();
        assert!(e.contains("ridge λ"), "{e}");
        let e = Params::from_json(r#"{"epsilon": 0.4, "kapa": 1}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field") && e.contains("kapa"), "{e}");
        let e = Params::from_json(r#"{"delta": 1.5}"#).unwrap_err().to_string();
        assert!(e.contains("(0, 1)"), "{e}");
        assert!(Params::from_json("[1,2]").is_err());
        let e = Params::from_json(r#"{"vcache_delta": 0}"#).unwrap_err().to_string();
        assert!(e.contains("`vcache_delta`") && e.contains("(0, 1)"), "{e}");
        let e = Params::from_json(r#"{"threshold_cosine": 1.5}"#).unwrap_err().to_string();
        assert!(e.contains("`threshold_cosine`") && e.contains("[-1, 1]"), "{e}");
        assert!(Params::from_json(r#"{"k": "five"}"#).is_err());
    }

    #[test]
    fn gptcache_preset_is_cosine_0_6_in_our_distance() {
        // GPTCache: hit iff 4 − ‖x − y‖² ≥ 0.8·4, i.e. ‖x − y‖² ≤ 0.8 (unit rows): cos ≥ 0.6.
        assert!((1.0 - 4.0 * (1.0 - 0.8) / 2.0 - GPTCACHE_COSINE).abs() < 1e-12);
        let p = Params::default().gptcache_preset();
        p.validate().unwrap();
        // D = 2: τ = √0.8 / 2.
        assert_eq!(p.resolved_threshold_tau(2.0), 0.8f64.sqrt() / 2.0);
        assert_eq!(Params::default().resolved_threshold_tau(2.0), 0.15);
        // s = 1: only exact repeats hit; s = −1: everything within the diameter 2/D.
        let at =
            |s: f64| Params { threshold_cosine: Some(s), ..Params::default() }.resolved_threshold_tau(1.0);
        assert_eq!((at(1.0), at(-1.0)), (0.0, 2.0));
    }

    #[test]
    fn only_valid_parameters_are_checked_with_the_same_message() {
        let ok = Params::default().check().unwrap();
        assert_eq!(ok.params(), &Params::default());
        assert_eq!(ok.k, Params::default().k);
        let bad = Params { k: 0, ..Params::default() };
        let want = bad.validate().unwrap_err().to_string();
        let got = bad.check();
        assert!(matches!(&got, Err(crate::Error::InvalidParameter { name, .. }) if name == "k"), "{got:?}");
        assert_eq!(got.unwrap_err().to_string(), want);
    }
}
