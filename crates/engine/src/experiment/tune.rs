//! "Pick a threshold, defensibly" (issue 37, item 3): the threshold cache's `τ` (SPEC §9) with the
//! largest hit ratio whose one-sided 95% bound on a target holds, chosen on one half of the seeds
//! and reported on the other.
//!
//! - **Ground truth.** A hit is wrong when the cached answer is not equivalent to the query's gold
//!   answer (SPEC §14), as in the frontier and P-CHR ([`super::pchr`]). The counts of a run are
//!   its hits `h = hit rate·T` and wrong hits `w = error rate·T` (both rates are over the `T`
//!   requests; rounded to whole numbers, which they are).
//! - **Targets.** Hit precision `≥ p` (`1 − w/h`, correct hits over hits, `p ∈ (0, 1]`), or error
//!   rate `≤ e` (`w/T`, wrong hits over requests, `e ∈ [0, 1)`).
//! - **Bound.** Clopper–Pearson (1934), exact: the one-sided 95% lower bound of a proportion with
//!   `x` successes in `n` trials is the `p` with `P(X ≥ x; n, p) = 0.05` (`0` for `x = 0`; `0.05^(1/n)`
//!   for `x = n`), the upper bound the `p` with `P(X ≤ x; n, p) = 0.05` (`1` for `x = n`), each
//!   found by bisection on the binomial CDF ([`binomial_cdf`]) to the last bit. The two-sided 95%
//!   interval takes 0.025 on each side. A point's counts are pooled over the seeds of a half, and
//!   its requests treated as independent trials (the rounds of one run are not quite: the bound is
//!   the usual one for a measured proportion).
//! - **Selection.** On the *selection* seeds (the first half of the run's seeds, in order), every
//!   `τ` of the grid with at least one hit whose one-sided bound meets the target is eligible; the
//!   answer is the eligible `τ` with the largest hit ratio (ties: the smaller `τ`). On the
//!   *reporting* seeds (the other half) the answer's hit ratio, precision with its two-sided
//!   interval and one-sided bound are measured, so the reported precision is not fitted to the data
//!   it is measured on.
//! - **Cosine.** GPTCache and Redis set a cosine similarity: for unit rows at normalised distance
//!   `τ`, `s = 1 − (D·τ)²/2` (SPEC §15's relation; [`crate::config::Params::resolved_threshold_tau`]
//!   is its inverse), with `D` the dataset's distance scale (SPEC §1).
//! - **The others.** vCache's `δ` (SPEC §15) and the paper's CLCB-SC-LS-Cont's `β` (SPEC §6) are
//!   chosen by the same rule on the same seeds, so the answer can say which `δ` reaches the same
//!   target, and what the paper's policy saves in realised cost against the threshold cache at that
//!   target: the paired difference over the reporting seeds (SPEC §10's Student-t interval, as the
//!   frontier's [`super::paired::Difference`]).
//!
//! Every sentence of the answer is made here; the CLI and the page print them.

use super::definitions::values;
use super::paired::{Difference, Paired};
use super::{DatasetId, ExperimentSpec, Family, Measure, Report};
use crate::config::Params;
use crate::dataset::Dataset;
use crate::online::PolicyKind;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The one-sided level of every bound: 95%.
pub const ALPHA: f64 = 0.05;

/// The bound, named (the CLI, the page and docs/SPEC-NOTES.md say it).
pub const TUNE_BOUND: &str = "Clopper–Pearson (exact; bisection on the binomial CDF)";

/// How the answer is made, in words.
pub const TUNE_METHOD: &str = "τ is chosen on the selection seeds (the first half of the seeds) and \
    reported on the other half: among the threshold cache's τ with at least one hit whose one-sided \
    95% Clopper–Pearson bound (exact; bisection on the binomial CDF) meets the target, the one with \
    the largest hit ratio (ties: the smaller τ). Counts are pooled over a half's seeds; hit \
    precision is correct hits over hits, error rate wrong hits over requests (SPEC §14). vCache's δ \
    and CLCB-SC-LS-Cont's β are chosen by the same rule; the saving is the paired difference in \
    realised cost per request over the reporting seeds (mean and 95% Student-t interval, SPEC §10).";

/// The τ grid of [`tune_definition`]: 0.02 to 0.60 in steps of 0.02 (`i/50`, each the nearest
/// double).
pub fn tune_taus() -> Vec<f64> {
    (1..=30).map(|i| i as f64 / 50.0).collect()
}

/// vCache's δ values of [`tune_definition`] (the frontier's, SPEC §15).
pub const TUNE_DELTAS: [f64; 6] = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2];
/// CLCB-SC-LS-Cont's β values of [`tune_definition`] (the frontier's, SPEC §6).
pub const TUNE_BETAS: [f64; 4] = [0.03, 0.1, 0.3, 1.0];
/// Seeds of [`tune_definition`]: two to choose on, two to report on.
pub const TUNE_SEEDS: usize = 4;

/// What the answer must meet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneTarget"))]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Target {
    /// Hit precision (correct hits over hits) at least this.
    Precision(f64),
    /// Error rate (wrong hits over requests) at most this.
    ErrorRate(f64),
}

impl Target {
    /// A target from its kind (`precision`, `error_rate` or `error-rate`) and value: refused with
    /// one plain message when the value is outside its range (precision in (0, 1], error rate in
    /// [0, 1)) or not a number.
    pub fn new(kind: &str, value: f64) -> Result<Target> {
        match kind {
            "precision" => {
                if !(value > 0.0 && value <= 1.0) {
                    return Err(Error::param(
                        "precision",
                        format!("{} is not a hit precision: give a number in (0, 1], e.g. 0.95", show(value)),
                    ));
                }
                Ok(Target::Precision(value))
            }
            "error_rate" | "error-rate" => {
                if !(0.0..1.0).contains(&value) {
                    return Err(Error::param(
                        "error_rate",
                        format!("{} is not an error rate: give a number in [0, 1), e.g. 0.01", show(value)),
                    ));
                }
                Ok(Target::ErrorRate(value))
            }
            other => Err(Error::param(
                "target",
                format!("`{other}` is not a target: give precision or error_rate"),
            )),
        }
    }

    /// The target in words: `hit precision ≥ 0.9`, `error rate ≤ 0.01`.
    pub fn words(&self) -> String {
        match self {
            Target::Precision(p) => format!("hit precision ≥ {p}"),
            Target::ErrorRate(e) => format!("error rate ≤ {e}"),
        }
    }
}

fn show(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else {
        v.to_string()
    }
}

/// `P(X ≤ k)` for `X ~ Binomial(n, p)`, summed in log space with `libm` (the same bits natively
/// and in the browser). `1` for `k ≥ n`, `0` for `k < 0`.
pub fn binomial_cdf(k: i64, n: u64, p: f64) -> f64 {
    if k < 0 {
        return 0.0;
    }
    if k as u64 >= n {
        return 1.0;
    }
    if p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let (lp, lq) = (libm::log(p), libm::log1p(-p));
    let nf = n as f64;
    let lg_n = libm::lgamma(nf + 1.0);
    let log_pmf = |i: u64| {
        let i = i as f64;
        lg_n - libm::lgamma(i + 1.0) - libm::lgamma(nf - i + 1.0) + i * lp + (nf - i) * lq
    };
    let terms: Vec<f64> = (0..=k as u64).map(log_pmf).collect();
    let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = terms.iter().map(|t| libm::exp(t - m)).sum();
    (libm::exp(m + libm::log(s))).min(1.0)
}

/// The root in `[0, 1]` of a monotone `f(p) − level` by bisection, to the last bit.
fn bisect(f: impl Fn(f64) -> f64, level: f64, increasing: bool) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let above = f(mid) > level;
        if above == increasing {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The one-sided `1 − alpha` Clopper–Pearson lower bound of a proportion with `x` successes in `n`
/// trials: the `p` with `P(X ≥ x; n, p) = alpha`; `0` for `x = 0` (and for `n = 0`).
pub fn cp_lower(x: u64, n: u64, alpha: f64) -> f64 {
    if x == 0 || n == 0 {
        return 0.0;
    }
    let x = x.min(n);
    bisect(|p| 1.0 - binomial_cdf(x as i64 - 1, n, p), alpha, true)
}

/// The one-sided `1 − alpha` Clopper–Pearson upper bound: the `p` with `P(X ≤ x; n, p) = alpha`;
/// `1` for `x = n` (and for `n = 0`).
pub fn cp_upper(x: u64, n: u64, alpha: f64) -> f64 {
    if n == 0 || x >= n {
        return 1.0;
    }
    bisect(|p| binomial_cdf(x as i64, n, p), alpha, false)
}

/// A point's counts over some seeds: requests, hits and wrong hits (SPEC §14).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneCounts"))]
pub struct Counts {
    pub requests: u64,
    pub hits: u64,
    pub wrong_hits: u64,
}

impl Counts {
    /// Hits over requests.
    pub fn hit_ratio(&self) -> f64 {
        if self.requests == 0 {
            f64::NAN
        } else {
            self.hits as f64 / self.requests as f64
        }
    }

    /// The one-sided 95% bound on the target's quantity: the lower bound of the hit precision, or
    /// the upper bound of the error rate.
    pub fn bound(&self, target: Target) -> f64 {
        match target {
            Target::Precision(_) => cp_lower(self.hits - self.wrong_hits, self.hits, ALPHA),
            Target::ErrorRate(_) => cp_upper(self.wrong_hits, self.requests, ALPHA),
        }
    }

    /// Whether these counts meet `target` at 95% (and have a hit).
    pub fn meets(&self, target: Target) -> bool {
        self.hits > 0
            && match target {
                Target::Precision(p) => self.bound(target) >= p,
                Target::ErrorRate(e) => self.bound(target) <= e,
            }
    }
}

/// The candidate of `candidates` (in grid order) with the largest hit ratio among those that meet
/// `target` ([`Counts::meets`]); ties go to the first. `None` when none meets it.
pub fn select(candidates: &[Counts], target: Target) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, c) in candidates.iter().enumerate() {
        if !c.meets(target) {
            continue;
        }
        if best.is_none_or(|b| c.hit_ratio() > candidates[b].hit_ratio()) {
            best = Some(i);
        }
    }
    best
}

/// What one point measured on one half of the seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneMeasured"))]
pub struct Measured {
    pub counts: Counts,
    #[serde(with = "super::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub hit_ratio: f64,
    /// Correct hits over hits (`null` without a hit).
    #[serde(with = "super::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub precision: f64,
    /// Its two-sided 95% Clopper–Pearson interval.
    pub precision_ci: [f64; 2],
    /// Wrong hits over requests.
    #[serde(with = "super::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub error_rate: f64,
    /// Its two-sided 95% Clopper–Pearson interval.
    pub error_ci: [f64; 2],
    /// The one-sided 95% bound on the target's quantity.
    pub bound: f64,
    /// Whether the target holds at 95% here.
    pub holds: bool,
    /// Realised cost per request, mean over the seeds.
    #[serde(with = "super::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub realised_cost: f64,
}

impl Measured {
    fn of(c: Counts, cost: f64, target: Target) -> Measured {
        let half = ALPHA / 2.0;
        let correct = c.hits - c.wrong_hits;
        Measured {
            counts: c,
            hit_ratio: c.hit_ratio(),
            precision: if c.hits == 0 { f64::NAN } else { correct as f64 / c.hits as f64 },
            precision_ci: [cp_lower(correct, c.hits, half), cp_upper(correct, c.hits, half)],
            error_rate: if c.requests == 0 { f64::NAN } else { c.wrong_hits as f64 / c.requests as f64 },
            error_ci: [cp_lower(c.wrong_hits, c.requests, half), cp_upper(c.wrong_hits, c.requests, half)],
            bound: c.bound(target),
            holds: c.meets(target),
            realised_cost: cost,
        }
    }
}

/// One family's chosen value (or, where none meets the target, its best) on both halves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TuneChoice"))]
pub struct Choice {
    /// The family's key and name.
    pub key: String,
    pub name: String,
    /// The swept parameter (`threshold_tau`, `vcache_delta`, `beta`) and the chosen value.
    pub param: String,
    pub value: f64,
    /// Its experiment point (a frontier point: the page opens it in the regret view).
    pub point: usize,
    pub selection: Measured,
    pub reporting: Measured,
}

/// One τ of the grid on the selection seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TuneRow {
    pub tau: f64,
    /// Its cosine similarity (`1 − (D·τ)²/2`).
    pub cosine: f64,
    #[serde(with = "super::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub hit_ratio: f64,
    pub bound: f64,
    pub meets: bool,
}

/// The answer of `csc tune-threshold` and of the page's form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TuneAnswer {
    pub target: Target,
    /// [`TUNE_BOUND`].
    pub bound: String,
    /// [`TUNE_METHOD`].
    pub method: String,
    pub selection_seeds: Vec<u64>,
    pub reporting_seeds: Vec<u64>,
    /// The dataset's distance scale `D` (SPEC §1).
    pub dist_scale: f64,
    /// The chosen τ (`null` when no τ meets the target).
    pub tau: Option<f64>,
    /// τ as a cosine similarity.
    pub cosine: Option<f64>,
    /// The threshold cache at τ.
    pub threshold: Option<Choice>,
    /// Where no τ meets the target: the τ whose bound comes closest, on both halves.
    pub best: Option<Choice>,
    /// vCache's δ chosen by the same rule.
    pub vcache: Option<Choice>,
    /// Where no δ meets the target: the δ whose bound comes closest.
    pub vcache_best: Option<Choice>,
    /// CLCB-SC-LS-Cont's β chosen by the same rule.
    pub paper: Option<Choice>,
    /// The paper's policy's realised cost minus the threshold cache's, paired over the reporting
    /// seeds (negative: the paper's policy saves).
    pub saving: Option<Paired>,
    /// Every τ of the grid on the selection seeds.
    pub rows: Vec<TuneRow>,
    /// The answer in words.
    pub sentences: Vec<String>,
}

/// The experiment `csc tune-threshold` and the page run (the frontier's measure, SPEC §14, at the
/// frontier's quick settings, k = 50, T = 1,000, n_eval = 1,000, [`TUNE_SEEDS`] seeds; synthetic at
/// its k = 10, [`super::SYNTHETIC_FRONTIER_K`]): the threshold cache over [`tune_taus`], vCache
/// over [`TUNE_DELTAS`] and CLCB-SC-LS-Cont over [`TUNE_BETAS`].
pub fn tune_definition(dataset: DatasetId) -> Result<ExperimentSpec> {
    let synthetic = matches!(dataset.builtin(), Ok(Some(DatasetId::Synthetic)));
    let k = if synthetic { super::frontier::SYNTHETIC_FRONTIER_K } else { 50 };
    let params = Params { k, horizon: 1000, n_eval: 1000, ..Params::default() };
    let name = super::presets::dataset_name(&dataset);
    let spec = ExperimentSpec {
        id: "tune-threshold".into(),
        title: tune_title(&name, &params, TUNE_SEEDS),
        dataset,
        measure: Measure::Frontier {
            families: vec![
                Family::sweep(PolicyKind::Threshold, "threshold_tau", values(&tune_taus())),
                Family::sweep(PolicyKind::VCache, "vcache_delta", values(&TUNE_DELTAS)),
                Family::sweep(PolicyKind::ClcbScLsCont, "beta", values(&TUNE_BETAS)),
            ],
        },
        sweep: None,
        params,
        seeds: TUNE_SEEDS,
        first_seed: 0,
    };
    spec.validate()?;
    Ok(spec)
}

/// The `csc tune-threshold` command that gives `target`'s answer on the run of `spec` (the same
/// engine on the same data gives the same answer, bit for bit):
///
/// - `spec` is [`tune_definition`] of a built-in dataset changed at most in its parameters, seeds
///   and first seed: flags, `--dataset` (but for nq-trivia, the command's default), `--seeds`,
///   `--first-seed` and one `--set key=value` per parameter that differs;
/// - anything else (an arrival model, the user's data, an edited definition):
///   `csc tune-threshold <definition_file>`, where the file holds `spec` as JSON.
///
/// The target is `--precision P` or `--error-rate E` (`f64`'s shortest text, which round-trips).
pub fn tune_command(spec: &ExperimentSpec, target: Target, definition_file: &str) -> String {
    let flag = match target {
        Target::Precision(p) => format!("--precision {p}"),
        Target::ErrorRate(e) => format!("--error-rate {e}"),
    };
    let builtin = match spec.dataset {
        DatasetId::Synthetic | DatasetId::NqTrivia | DatasetId::Plane => {
            tune_definition(spec.dataset.clone()).ok()
        }
        DatasetId::Spec(_) => None,
    };
    let flags = builtin.and_then(|base| {
        let same_otherwise = super::reproduce::same_definition(
            &ExperimentSpec {
                title: base.title.clone(),
                params: base.params.clone(),
                seeds: base.seeds,
                first_seed: base.first_seed,
                ..spec.clone()
            },
            &base,
        );
        if !same_otherwise {
            return None;
        }
        let mut args = Vec::new();
        if spec.dataset != DatasetId::NqTrivia {
            args.push(format!("--dataset {}", super::presets::dataset_name(&spec.dataset)));
        }
        args.extend(super::reproduce::run_flags(spec, &base)?);
        Some(args)
    });
    match flags {
        Some(args) => {
            std::iter::once(format!("csc tune-threshold {flag}")).chain(args).collect::<Vec<_>>().join(" ")
        }
        None => format!("csc tune-threshold {} {flag}", super::reproduce::shell_word(definition_file)),
    }
}

/// The title of a tune run from its settings: `Pick a threshold on nq-trivia (k = 50, T = 1,000,
/// n_eval = 1,000, 4 seeds)`.
pub fn tune_title(dataset: &str, p: &Params, seeds: usize) -> String {
    format!(
        "Pick a threshold on {dataset} (k = {}, T = {}, n_eval = {}, {seeds} seed{})",
        p.k,
        super::stats::num(p.horizon as f64),
        super::stats::num(p.n_eval as f64),
        if seeds == 1 { "" } else { "s" }
    )
}

/// Refuses data without ground truth with one plain message (before anything runs).
pub fn check_tune_data(dataset: &Dataset) -> Result<()> {
    match dataset.ground_truth.absent_reason() {
        None => Ok(()),
        Some(why) => Err(no_ground_truth(why)),
    }
}

/// The one message refusing data without ground truth, `why` being the dataset's reason
/// (`DatasetInfo::no_ground_truth`, SPEC §14).
pub fn no_ground_truth(why: &str) -> Error {
    Error::unsupported(format!(
        "cannot pick a threshold: {why}; hit precision and error rate need the answers' ground \
         truth (SPEC §14): use nq-trivia, synthetic, or a file with `answers` or `label` on every record"
    ))
}

/// `1 − (D·τ)²/2`: the cosine similarity of unit rows at normalised distance `τ` (SPEC §15).
pub fn cosine_of(tau: f64, dist_scale: f64) -> f64 {
    1.0 - (dist_scale * tau).powi(2) / 2.0
}

/// A number for a sentence: up to 4 significant decimals.
fn n4(v: f64) -> String {
    super::stats::significant(v, 4)
}

fn interval(ci: [f64; 2]) -> String {
    format!("[{}, {}]", n4(ci[0]), n4(ci[1]))
}

fn seeds_words(s: &[u64]) -> String {
    s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

impl Report {
    /// The counts and mean realised cost of experiment point `point` over `seeds`; `None` when a
    /// unit lacks the error rate (no ground truth) or is missing.
    fn tune_counts(&self, point: usize, seeds: &[u64]) -> Option<(Counts, f64)> {
        let mut c = Counts::default();
        let mut cost = 0.0;
        for s in seeds {
            let u = self.units.iter().find(|u| u.unit.point == point && u.unit.seed == *s)?;
            let t = u.params.horizon as f64;
            c.requests += u.params.horizon as u64;
            c.hits += (u.value("final_hit_rate")? * t).round() as u64;
            c.wrong_hits += (u.value("final_error_rate")? * t).round() as u64;
            cost += u.value("final_avg_realised_cost")?;
        }
        Some((c, cost / seeds.len() as f64))
    }

    /// "Pick a threshold, defensibly" on this report (issue 37, item 3; the module's rule): a
    /// frontier report with a threshold family over `threshold_tau` and at least 2 seeds.
    /// Refused with one plain message otherwise, or without ground truth.
    pub fn tune_threshold(&self, target: Target) -> Result<TuneAnswer> {
        let bad = |why: &str| Error::unsupported(format!("cannot pick a threshold from this report: {why}"));
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) {
            return Err(bad("it is not a frontier of the threshold cache (run `csc tune-threshold`)"));
        }
        let mut seeds: Vec<u64> = self.units.iter().map(|u| u.unit.seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        if seeds.len() < 2 {
            return Err(bad(
                "it needs at least 2 seeds, one to choose τ on and one to report on (4 or more are better)",
            ));
        }
        if let Some(why) = self.units.first().and_then(|u| u.dataset.no_ground_truth.as_deref()) {
            return Err(no_ground_truth(why));
        }
        let (sel, rep) = seeds.split_at(seeds.len() / 2);
        let dist_scale = self.units.first().map_or(f64::NAN, |u| u.dataset.dist_scale);
        // Each swept family of `policy`: its points' (value, point, selection, reporting).
        type Pts = Vec<(f64, usize, (Counts, f64), (Counts, f64))>;
        let family = |policy: PolicyKind| -> Result<Option<(&Family, Pts)>> {
            let families = self.experiment.frontier_families();
            let Some((start, f)) =
                families.into_iter().find(|(_, f)| f.policy == policy && f.param.is_some())
            else {
                return Ok(None);
            };
            let mut pts = Vec::new();
            for i in 0..f.points() {
                let point = start + i;
                let (Some(a), Some(b)) = (self.tune_counts(point, sel), self.tune_counts(point, rep)) else {
                    return Err(bad("a unit is missing or has no error rate (ground truth)"));
                };
                pts.push((f.x(i), point, a, b));
            }
            Ok(Some((f, pts)))
        };
        let Some((tf, taus)) =
            family(PolicyKind::Threshold)?.filter(|(f, _)| f.param.as_deref() == Some("threshold_tau"))
        else {
            return Err(bad("it has no threshold cache swept over threshold_tau"));
        };
        let choose = |f: &Family, pts: &Pts| -> (Option<Choice>, Option<Choice>) {
            let sel_counts: Vec<Counts> = pts.iter().map(|p| p.2 .0).collect();
            let make = |i: usize| {
                let (x, point, a, b) = pts[i];
                Choice {
                    key: f.key(),
                    name: f.name(),
                    param: f.param.clone().unwrap_or_default(),
                    value: x,
                    point,
                    selection: Measured::of(a.0, a.1, target),
                    reporting: Measured::of(b.0, b.1, target),
                }
            };
            match select(&sel_counts, target) {
                Some(i) => (Some(make(i)), None),
                None => {
                    // The bound closest to the target among points with a hit.
                    let better = |a: f64, b: f64| match target {
                        Target::Precision(_) => a > b,
                        Target::ErrorRate(_) => a < b,
                    };
                    let mut best: Option<usize> = None;
                    for (i, c) in sel_counts.iter().enumerate() {
                        if c.hits > 0
                            && best.is_none_or(|b| better(c.bound(target), sel_counts[b].bound(target)))
                        {
                            best = Some(i);
                        }
                    }
                    (None, best.map(make))
                }
            }
        };
        let (threshold, best) = choose(tf, &taus);
        let rows = taus
            .iter()
            .map(|(x, _, a, _)| TuneRow {
                tau: *x,
                cosine: cosine_of(*x, dist_scale),
                hit_ratio: a.0.hit_ratio(),
                bound: a.0.bound(target),
                meets: a.0.meets(target),
            })
            .collect();
        let (vcache, vcache_best) = family(PolicyKind::VCache)?.map_or((None, None), |(f, p)| choose(f, &p));
        let paper = family(PolicyKind::ClcbScLsCont)?.and_then(|(f, p)| choose(f, &p).0);
        // The paper's policy's realised cost minus the threshold cache's, seed by seed.
        let saving = match (&threshold, &paper) {
            (Some(t), Some(p)) => {
                let d: Vec<f64> = rep
                    .iter()
                    .filter_map(|s| {
                        let one = [*s];
                        Some(self.tune_counts(p.point, &one)?.1 - self.tune_counts(t.point, &one)?.1)
                    })
                    .collect();
                let (difference, mean, ci95) = Difference::of(&d);
                Some(Paired { n: d.len(), mean, ci95, difference, words: difference.words(true).into() })
            }
            _ => None,
        };
        let mut answer = TuneAnswer {
            target,
            bound: TUNE_BOUND.into(),
            method: TUNE_METHOD.into(),
            selection_seeds: sel.to_vec(),
            reporting_seeds: rep.to_vec(),
            dist_scale,
            tau: threshold.as_ref().map(|c| c.value),
            cosine: threshold.as_ref().map(|c| cosine_of(c.value, dist_scale)),
            threshold,
            best,
            vcache,
            vcache_best,
            paper,
            saving,
            rows,
            sentences: Vec::new(),
        };
        answer.sentences = answer.words();
        Ok(answer)
    }
}

impl TuneAnswer {
    /// The answer in sentences: τ and its cosine with what it measured on each half, or that no τ
    /// meets the target with the best reachable; vCache's δ; the paper's policy's saving.
    fn words(&self) -> Vec<String> {
        let t = self.target.words();
        let which = match self.target {
            Target::Precision(_) => "lower bound on hit precision",
            Target::ErrorRate(_) => "upper bound on the error rate",
        };
        let (sel, rep) = (seeds_words(&self.selection_seeds), seeds_words(&self.reporting_seeds));
        let held = |m: &Measured| {
            format!(
                "hit ratio {}, hit precision {} {} (two-sided 95% Clopper–Pearson), error rate {} {}, \
                 one-sided 95% bound {}",
                n4(m.hit_ratio),
                if m.precision.is_finite() { n4(m.precision) } else { "— (no hit)".into() },
                interval(m.precision_ci),
                n4(m.error_rate),
                interval(m.error_ci),
                n4(m.bound)
            )
        };
        let mut out = Vec::new();
        match (&self.threshold, &self.best) {
            (Some(c), _) => {
                out.push(format!(
                    "τ = {} (cosine similarity {}): the largest hit ratio ({}) whose one-sided 95% \
                     Clopper–Pearson {which} ({}) meets {t} on the selection seeds {sel}.",
                    c.value,
                    n4(cosine_of(c.value, self.dist_scale)),
                    n4(c.selection.hit_ratio),
                    n4(c.selection.bound)
                ));
                out.push(format!(
                    "On the held-out seeds {rep}: {}; the target {} there.",
                    held(&c.reporting),
                    if c.reporting.holds { "holds" } else { "does not hold" }
                ));
                if self.rows.last().is_some_and(|r| r.tau == c.value) {
                    out.push(format!(
                        "τ = {} is the grid's largest: a larger τ may also meet the target with more hits.",
                        c.value
                    ));
                }
            }
            (None, Some(b)) => out.push(format!(
                "No τ of the grid (0.02 to 0.6) meets {t} at 95% on the selection seeds {sel}: the \
                 closest is τ = {} (cosine similarity {}), whose one-sided 95% {which} is {} (hit \
                 precision {}, hit ratio {}); on the held-out seeds {rep}: {}.",
                b.value,
                n4(cosine_of(b.value, self.dist_scale)),
                n4(b.selection.bound),
                n4(b.selection.precision),
                n4(b.selection.hit_ratio),
                held(&b.reporting)
            )),
            (None, None) => out.push(format!(
                "No τ of the grid (0.02 to 0.6) meets {t}: the threshold cache had no hit at any τ on \
                 the selection seeds {sel}."
            )),
        }
        match &self.vcache {
            Some(v) => out.push(format!(
                "vCache meets the same target on the selection seeds at δ = {} (the largest hit ratio \
                 by the same rule): on the held-out seeds, {}; the target {} there.",
                v.value,
                held(&v.reporting),
                if v.reporting.holds { "holds" } else { "does not hold" }
            )),
            None => out.push(match &self.vcache_best {
                Some(b) => format!(
                    "No δ of vCache's sweep ({}) meets {t} at 95% on the selection seeds: the closest \
                     is δ = {}, whose one-sided 95% {which} is {} (hit precision {}, hit ratio {}).",
                    TUNE_DELTAS.map(|d| d.to_string()).join(", "),
                    b.value,
                    n4(b.selection.bound),
                    if b.selection.precision.is_finite() { n4(b.selection.precision) } else { "—".into() },
                    n4(b.selection.hit_ratio)
                ),
                None => {
                    format!("No δ of vCache's sweep meets {t}: vCache had no hit on the selection seeds.")
                }
            }),
        }
        match (&self.paper, &self.saving, &self.threshold) {
            (Some(p), Some(s), Some(c)) => {
                let verdict = match s.difference {
                    Difference::Lower => format!(
                        "it saves {} per request against the threshold cache at τ = {}",
                        n4(-s.mean),
                        c.value
                    ),
                    Difference::Higher => format!(
                        "it costs {} more per request than the threshold cache at τ = {}: no saving",
                        n4(s.mean),
                        c.value
                    ),
                    Difference::Identical => {
                        format!("its realised cost is identical to the threshold cache's at τ = {}: no saving", c.value)
                    }
                    _ => format!(
                        "its realised cost is not distinguishable from the threshold cache's at τ = {}: no saving shown",
                        c.value
                    ),
                };
                // The one statement of "±" (SPEC §10: the half-width to 2 significant digits)
                let diff = super::stats::format_interval(s.mean, s.ci95);
                let diff = if s.mean > 0.0 { format!("+{diff}") } else { diff };
                out.push(format!(
                    "CLCB-SC-LS-Cont (the paper's policy) meets the target on the selection seeds at \
                     β = {} (held-out hit precision {}, hit ratio {}; the target {} there); {verdict} \
                     (paired over the {} held-out seeds: {diff} in realised cost per request).",
                    p.value,
                    if p.reporting.precision.is_finite() {
                        n4(p.reporting.precision)
                    } else {
                        "— (no hit)".into()
                    },
                    n4(p.reporting.hit_ratio),
                    if p.reporting.holds { "holds" } else { "does not hold" },
                    s.n,
                ));
            }
            (None, _, _) => out.push(format!(
                "CLCB-SC-LS-Cont (the paper's policy) meets {t} at no β of its sweep on the selection \
                 seeds: no saving to report at this target."
            )),
            _ => out.push(
                "No τ meets the target, so there is no saving of the paper's policy to report at it.".into(),
            ),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_of_an_answer() {
        let file = "tune-threshold.definition.json";
        let nq = tune_definition(DatasetId::NqTrivia).unwrap();
        assert_eq!(tune_command(&nq, Target::Precision(0.9), file), "csc tune-threshold --precision 0.9");
        // As the page passes it back: through JSON.
        let back = ExperimentSpec::from_json(&serde_json::to_string(&nq).unwrap()).unwrap();
        assert_eq!(tune_command(&back, Target::Precision(0.9), file), "csc tune-threshold --precision 0.9");
        // As JavaScript gives it back: a family's 1.0 as the integer 1 (one number type).
        let mut js = serde_json::to_value(&nq).unwrap();
        for f in js["measure"]["families"].as_array_mut().unwrap() {
            for v in f["values"].as_array_mut().unwrap() {
                if v.as_f64().is_some_and(|x| x.fract() == 0.0) {
                    *v = serde_json::json!(v.as_f64().unwrap() as u64);
                }
            }
        }
        let from_js = ExperimentSpec::from_json(&js.to_string()).unwrap();
        assert_ne!(from_js, nq, "the integers are there");
        assert_eq!(
            tune_command(&from_js, Target::Precision(0.9), file),
            "csc tune-threshold --precision 0.9"
        );
        // The title is the CLI's to make; a changed one is no change.
        let retitled = ExperimentSpec { title: "x".into(), ..nq.clone() };
        assert_eq!(
            tune_command(&retitled, Target::ErrorRate(0.01), file),
            "csc tune-threshold --error-rate 0.01"
        );
        // Another built-in, its seeds and parameters: flags, in Params' order; f64 round-trips.
        let mut syn = tune_definition(DatasetId::Synthetic).unwrap();
        syn.seeds = 6;
        syn.first_seed = 3;
        syn.params.horizon = 300;
        syn.params.beta = 0.1 + 0.2;
        assert_eq!(
            tune_command(&syn, Target::Precision(0.95), file),
            "csc tune-threshold --precision 0.95 --dataset synthetic --seeds 6 --first-seed 3 --set beta=0.30000000000000004 --set horizon=300"
        );
        // An arrival model, the user's data or another measure: the definition file.
        let mut arrival = nq.clone();
        arrival.dataset = <DatasetId as crate::json::FromJson>::from_json_value(
            &serde_json::json!({ "builtin": "nq-trivia", "arrival": { "model": "popularity" } }),
        )
        .unwrap();
        assert_eq!(
            tune_command(&arrival, Target::Precision(0.9), file),
            "csc tune-threshold tune-threshold.definition.json --precision 0.9"
        );
        let mut fewer = nq.clone();
        if let Measure::Frontier { families } = &mut fewer.measure {
            families.pop();
        }
        assert_eq!(
            tune_command(&fewer, Target::Precision(0.9), "my tune.json"),
            "csc tune-threshold 'my tune.json' --precision 0.9"
        );
    }

    #[test]
    fn clopper_pearson_by_hand() {
        // x = n: the lower bound solves p^n = α, so it is α^(1/n).
        for n in [1u64, 2, 10, 57, 400] {
            let want = libm::pow(0.05, 1.0 / n as f64);
            assert!((cp_lower(n, n, 0.05) - want).abs() < 1e-12, "n = {n}");
            assert_eq!(cp_upper(n, n, 0.05), 1.0);
        }
        // x = 0: the upper bound solves (1 − p)^n = α, so it is 1 − α^(1/n); the lower is 0.
        let want = 1.0 - libm::pow(0.05, 0.1);
        assert!((cp_upper(0, 10, 0.05) - want).abs() < 1e-12);
        assert!((want - 0.258_866).abs() < 1e-6);
        assert_eq!(cp_lower(0, 10, 0.05), 0.0);
        // The textbook two-sided 95% interval for 5 of 10: [0.187086, 0.812914].
        assert!((cp_lower(5, 10, 0.025) - 0.187_086_1).abs() < 1e-6);
        assert!((cp_upper(5, 10, 0.025) - 0.812_913_9).abs() < 1e-6);
        // 1 of 1 at one-sided 95%: 0.05; 0 of 1: upper 0.95.
        assert!((cp_lower(1, 1, 0.05) - 0.05).abs() < 1e-14);
        assert!((cp_upper(0, 1, 0.05) - 0.95).abs() < 1e-14);
        // n = 0: no information.
        assert_eq!((cp_lower(0, 0, 0.05), cp_upper(0, 0, 0.05)), (0.0, 1.0));
    }

    #[test]
    fn the_binomial_cdf_by_hand() {
        // Binomial(4, 0.5): P(X ≤ 1) = (1 + 4)/16.
        assert!((binomial_cdf(1, 4, 0.5) - 5.0 / 16.0).abs() < 1e-14);
        // Binomial(3, 0.2): P(X ≤ 0) = 0.8³ = 0.512.
        assert!((binomial_cdf(0, 3, 0.2) - 0.512).abs() < 1e-14);
        assert_eq!((binomial_cdf(-1, 3, 0.2), binomial_cdf(3, 3, 0.2)), (0.0, 1.0));
    }

    #[test]
    fn targets_out_of_range_are_one_plain_message() {
        for (k, v) in [("precision", 0.0), ("precision", 1.5), ("precision", -0.1), ("precision", f64::NAN)] {
            let e = Target::new(k, v).unwrap_err().to_string();
            assert!(e.contains("is not a hit precision: give a number in (0, 1]"), "{e}");
        }
        for v in [1.0, 1.2, -0.01, f64::NAN, f64::INFINITY] {
            let e = Target::new("error_rate", v).unwrap_err().to_string();
            assert!(e.contains("is not an error rate: give a number in [0, 1)"), "{e}");
        }
        assert!(Target::new("precision", f64::NAN).unwrap_err().to_string().contains("NaN"));
        assert_eq!(Target::new("precision", 1.0), Ok(Target::Precision(1.0)));
        assert_eq!(Target::new("error-rate", 0.0), Ok(Target::ErrorRate(0.0)));
        assert!(Target::new("recall", 0.5).is_err());
    }

    #[test]
    fn selection_on_a_constructed_case() {
        let c = |requests, hits, wrong_hits| Counts { requests, hits, wrong_hits };
        // Three τ in grid order, 100 requests each:
        // 0: 10 hits, all correct: lower bound 0.05^(1/10) = 0.7411;
        // 1: 40 hits, 1 wrong: lower bound of 39/40 ≈ 0.8882 (P(X ≥ 39; 40, p) = 0.05);
        // 2: 70 hits, 20 wrong: 50/70, lower bound ≈ 0.61.
        let cands = [c(100, 10, 0), c(100, 40, 1), c(100, 70, 20)];
        let b1 = cands[1].bound(Target::Precision(0.9));
        // By hand: P(X ≥ 39) = p^40 + 40 p^39 (1 − p) = 0.05 at p = b1.
        let tail = libm::pow(b1, 40.0) + 40.0 * libm::pow(b1, 39.0) * (1.0 - b1);
        assert!((tail - 0.05).abs() < 1e-12, "{tail}");
        // Precision ≥ 0.7: 0 and 1 meet it, 1 has the larger hit ratio.
        assert_eq!(select(&cands, Target::Precision(0.7)), Some(1));
        // Precision ≥ 0.75: 0's bound 0.7411 fails, 1 meets it.
        assert!(cands[0].bound(Target::Precision(0.75)) < 0.75);
        assert_eq!(select(&cands, Target::Precision(0.75)), Some(1));
        // Precision ≥ 0.9: 1's bound (≈0.888) fails, 0's too: none.
        assert!(b1 < 0.9 && b1 > 0.85, "{b1}");
        assert_eq!(select(&cands, Target::Precision(0.9)), None);
        // Precision ≥ 0.5: all meet it, 2 has the largest hit ratio.
        assert_eq!(select(&cands, Target::Precision(0.5)), Some(2));
        // Error rate ≤ 0.05: upper bounds of 0/100 (0.0295), 1/100 (0.0466), 20/100 (> 0.2).
        assert!((cands[0].bound(Target::ErrorRate(0.05)) - (1.0 - libm::pow(0.05, 0.01))).abs() < 1e-12);
        assert_eq!(select(&cands, Target::ErrorRate(0.05)), Some(1));
        assert_eq!(select(&cands, Target::ErrorRate(0.04)), Some(0));
        // A candidate without a hit never qualifies (error rate 0 but no use).
        assert_eq!(select(&[c(100, 0, 0)], Target::ErrorRate(0.5)), None);
        // Ties: the first.
        assert_eq!(select(&[c(100, 40, 0), c(100, 40, 0)], Target::Precision(0.5)), Some(0));
    }

    /// A report of the threshold cache over τ = 0.1, 0.2, 0.3 on 4 seeds of T = 100 requests, each
    /// unit's (hits, wrong hits) given by `counts(point, seed)`; distance scale D = 1.5.
    fn constructed(counts: impl Fn(usize, u64) -> (u64, u64)) -> Report {
        use super::super::{Observation, UnitResult};
        let spec = ExperimentSpec {
            id: "t".into(),
            title: "t".into(),
            dataset: DatasetId::Synthetic,
            measure: Measure::Frontier {
                families: vec![Family::sweep(
                    PolicyKind::Threshold,
                    "threshold_tau",
                    values(&[0.1, 0.2, 0.3]),
                )],
            },
            sweep: None,
            params: Params { horizon: 100, ..Params::default() },
            seeds: 4,
            first_seed: 0,
        };
        let info = crate::dataset::DatasetInfo {
            name: "t".into(),
            size: 50,
            dim: 2,
            dist_scale: 1.5,
            checksum: "0".into(),
            no_ground_truth: None,
            notes: Vec::new(),
        };
        let units = spec
            .units()
            .into_iter()
            .map(|u| {
                let (h, w) = counts(u.point, u.seed);
                let x = [0.1, 0.2, 0.3][u.point];
                let o = |metric: &str, value: f64| Observation {
                    algorithm: "threshold".into(),
                    metric: metric.into(),
                    x,
                    y: f64::NAN,
                    value,
                };
                UnitResult {
                    experiment: "t".into(),
                    params: spec.params.clone(),
                    dataset: info.clone(),
                    observations: vec![
                        o("final_hit_rate", h as f64 / 100.0),
                        o("final_error_rate", w as f64 / 100.0),
                        o("final_avg_realised_cost", 0.5),
                    ],
                    detail: serde_json::Value::Null,
                    unit: u,
                }
            })
            .collect();
        Report::new(&spec, units)
    }

    #[test]
    fn tau_is_chosen_on_the_first_half_and_reported_on_the_other() {
        // Selection seeds 0, 1 (200 requests per τ): τ = 0.1: 20 hits, none wrong (lower bound
        // 0.05^(1/20) = 0.8609); τ = 0.2: 60 hits, 2 wrong (58/60); τ = 0.3: 100 hits, 20 wrong
        // (0.8). Reporting seeds 2, 3: τ = 0.2 has 40 hits, none wrong.
        let r = constructed(|point, seed| match (point, seed < 2) {
            (0, _) => (10, 0),
            (1, true) => (30, 1),
            (1, false) => (20, 0),
            _ => (50, 10),
        });
        let b = cp_lower(58, 60, ALPHA);
        assert!(b > 0.85 && b < 0.95, "{b}");
        assert!(cp_lower(80, 100, ALPHA) < 0.85);
        let a = r.tune_threshold(Target::Precision(0.85)).unwrap();
        assert_eq!((a.selection_seeds.clone(), a.reporting_seeds.clone()), (vec![0, 1], vec![2, 3]));
        assert_eq!(a.tau, Some(0.2));
        // cosine = 1 − (1.5 · 0.2)²/2 = 1 − 0.045.
        assert!((a.cosine.unwrap() - 0.955).abs() < 1e-15);
        let c = a.threshold.as_ref().unwrap();
        assert_eq!(c.selection.counts, Counts { requests: 200, hits: 60, wrong_hits: 2 });
        assert_eq!(c.selection.bound, b);
        assert_eq!(c.reporting.counts, Counts { requests: 200, hits: 40, wrong_hits: 0 });
        assert_eq!(c.reporting.precision, 1.0);
        assert!((c.reporting.bound - libm::pow(0.05, 1.0 / 40.0)).abs() < 1e-12);
        assert!(c.reporting.holds && a.best.is_none());
        assert_eq!(a.rows.iter().map(|r| r.meets).collect::<Vec<_>>(), [true, true, false]);
        assert!(
            a.sentences[0].starts_with("τ = 0.2 (cosine similarity 0.9550): the largest hit ratio (0.3000)"),
            "{}",
            a.sentences[0]
        );
        assert!(a.sentences[1].ends_with("the target holds there."), "{}", a.sentences[1]);
        // Precision ≥ 0.95: no τ meets it; the closest bound is τ = 0.2's.
        let a = r.tune_threshold(Target::Precision(0.95)).unwrap();
        assert_eq!((a.tau, a.best.as_ref().map(|c| c.value)), (None, Some(0.2)));
        assert!(
            a.sentences[0].starts_with("No τ of the grid (0.02 to 0.6) meets hit precision ≥ 0.95 at 95%")
        );
        // One seed: refused with one message.
        let mut one = r.clone();
        one.units.retain(|u| u.unit.seed == 0);
        let e = one.tune_threshold(Target::Precision(0.9)).unwrap_err().to_string();
        assert!(e.contains("it needs at least 2 seeds"), "{e}");
    }

    #[test]
    fn the_cosine_of_tau_inverts_the_configs_resolution() {
        let d = 1.13;
        for s in [0.6, 0.8, 0.95] {
            let p = Params { threshold_cosine: Some(s), ..Params::default() };
            let tau = p.resolved_threshold_tau(d);
            assert!((cosine_of(tau, d) - s).abs() < 1e-12);
        }
    }
}
