//! The paper's headline claims (paper §6 and its appendix; SPEC §10; the claims themselves are
//! listed in [`super::claims`]), each judged against a run by one function, so that the page, the
//! CLI summary, the JSON report and docs/REPRODUCTION.md give the same verdict in the same words
//! (issue 33, item 1). Two steps, each tested on its own:
//! - **evaluation** ([`judge`], numbers → a typed [`Outcome`]);
//! - **wording** ([`words`], outcome → sentence).
//!
//! Every claim compares per-seed values with the 95% Student-t interval of the mean over the n
//! seeds both sides ran (paired by seed where two algorithms are compared),
//! `mean ± t_{0.975, n−1}·sd/√n` ([`super::t_quantile`]; [`INTERVAL`]). A verdict has two parts:
//! - **direction** ("A is below B", "A is the lowest", "falls over rounds"): *holds* when the
//!   interval of the paired difference excludes zero on the claimed side, *fails* when it excludes
//!   zero on the other side, *undecided at n* otherwise (also for n < 2, where there is none);
//! - **magnitude**: the paper's number (73.32 %, 0.0083, 1.478×) *matches* when the interval of
//!   the measured number meets it (widened by half a unit of its last printed digit: 0.0083 stands
//!   for [0.00825, 0.00835]), *differs* otherwise, or is *not stated*.
//!
//! A row is **reproduced** only when both parts hold (a claim without a direction, a printed
//! number, by its magnitude alone; one without a number by its direction alone). When the compared
//! algorithms gave bit-identical values on every seed the verdict is **identical on every seed**,
//! with the reason the engine can name at the settings that ran ([`Identity`]): no number of seeds
//! will ever tell them apart. A win of an algorithm whose hit rate is 0 on every seed is flagged:
//! it wins by never serving from the cache. Each table opens with the winning policy's hit rate
//! and realised cost ([`Lead`]).

/// The interval a verdict reads (one type with the frontier's; defined in `stats`).
pub use super::stats::Interval;
pub use super::stats::INTERVAL;
use super::stats::{decimals_for, decimals_keeping_sign, fixed, format_interval};
use super::{ExperimentSpec, UnitResult};
use crate::algorithms::name_of;
use crate::config::Params;
use crate::offline::OfflineKind;
use crate::online::PolicyKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where in the sweep a claim is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// The largest x of the metric (the final round, or the last sweep value).
    Final,
    /// One sweep value (stream length 100, ε = 0.4, the quantile 0.5, …).
    X(f64),
    /// Every sweep value: the claim must hold at each.
    Every,
}

/// What a claim is about: an algorithm of either list (by its id's enum), or a series that is no
/// algorithm (the geometry measure's `stream` and `universe`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Series {
    Policy(PolicyKind),
    Offline(OfflineKind),
    Named(&'static str),
}

impl Series {
    /// The key its results are recorded under: the algorithm's id, or the series' name.
    pub const fn id(&self) -> &'static str {
        match self {
            Series::Policy(p) => p.info().id,
            Series::Offline(o) => o.info().id,
            Series::Named(s) => s,
        }
    }
}

/// How a claim compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Comparison {
    /// The paper's value of the metric for `ours`, to the digits it prints.
    Value { ours: Series },
    /// `ours` below `baseline`; the paper's number is the relative reduction `1 − ours/baseline`
    /// in percent.
    Below { ours: Series, baseline: Series },
    /// `ours` has the lowest mean of every algorithm run (the oracle excepted).
    Lowest { ours: Series },
    /// The ratio `ours / baseline` (the paper's number, ×), tested on per-seed log ratios.
    Ratio { ours: Series, baseline: Series },
    /// The metric of `ours` at the final x is below its value at the first x.
    Falls { ours: Series },
    /// No claim: the paper states no number; the row shows what was measured.
    Measured { ours: Series },
}

impl Comparison {
    /// The series the claim compares: `ours` first.
    pub fn series(&self) -> Vec<Series> {
        match *self {
            Comparison::Value { ours }
            | Comparison::Lowest { ours }
            | Comparison::Falls { ours }
            | Comparison::Measured { ours } => vec![ours],
            Comparison::Below { ours, baseline } | Comparison::Ratio { ours, baseline } => {
                vec![ours, baseline]
            }
        }
    }
}

/// Why two compared algorithms can give the same result on every seed, as far as the engine can
/// tell from the settings that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Offline, at the theoretical width `β_off = 1` (SPEC §13): both upper bounds saturate above
    /// φ's cap of 1 at every center, so CUCB-SC-Cont and CUCB-SC solve the same weighted k-median.
    SaturatedUpperBounds,
    /// Online, at `β = 1` (SPEC §13, Alg. 4): every lower bound is negative, every Reverse Greedy
    /// removal ties, and the keep-the-cache tie rule (SPEC §1) keeps the same first items.
    NegativeLcbs,
}

impl Identity {
    /// The reason, when the settings that ran are the ones it holds at.
    pub fn reason(&self, params: &Params) -> Option<&'static str> {
        match self {
            Identity::SaturatedUpperBounds => (params.beta_off >= 1.0).then_some(
                "at β_off = 1 both upper bounds saturate above φ's cap of 1 at every center (SPEC §13), so both reduce to the same weighted k-median and return the same cache",
            ),
            Identity::NegativeLcbs => (params.beta >= 1.0).then_some(
                "at β = 1 every lower bound is negative, every Reverse Greedy removal ties, and the keep-the-cache tie rule (SPEC §1) keeps the same first items in both",
            ),
        }
    }
}

/// One headline claim of the paper.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    /// What is claimed, in words.
    pub what: &'static str,
    /// The metric compared (an observation's metric name).
    pub metric: &'static str,
    pub at: At,
    pub comparison: Comparison,
    /// The paper's number as it prints it (`"73.32"`, `"0.0083"`, `"1.478"`), or `None` for a
    /// direction the paper states without a number.
    pub paper: Option<&'static str>,
    /// Where the paper states it.
    pub source: &'static str,
    /// The reason a measured value may differ (docs/REPRODUCTION.md, "Where we differ", by item).
    pub why: &'static str,
    /// Why the compared algorithms can give identical results, when the claim knows a reason.
    pub identical: Option<Identity>,
}

/// The direction part of a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Direction {
    /// The paired interval excludes zero on the claimed side.
    Holds,
    /// It excludes zero on the other side.
    Fails,
    /// It includes zero, or there is none (n < 2).
    Undecided,
}

/// The magnitude part of a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Magnitude {
    /// The paper's number lies in the measured interval (± half its last digit).
    Matches,
    /// It lies outside.
    Differs,
    /// The paper states no number for this claim.
    NotStated,
    /// There is no interval to compare with (n < 2).
    Undecided,
}

/// What evaluating a claim on a run found ([`judge`]); [`words`] says it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Outcome {
    /// An algorithm the claim compares did not run (e.g. dropped from quick settings).
    NotRun,
    /// No claim to test: a quantity the paper gives no number for, as measured.
    Measured,
    /// The compared algorithms gave bit-identical values on every seed.
    Identical {
        /// The algorithms `ours` equals (display names).
        with: Vec<String>,
        /// Why, when the engine can name it at these settings ([`Identity::reason`]).
        reason: Option<String>,
    },
    /// The claim judged in its two parts.
    Judged {
        /// The claimed direction, with the paired interval it was read from (positive on the
        /// claim's side; for "lowest", the closest competitor's); `None` for a printed number.
        direction: Option<Direction>,
        /// The paired interval of the direction, when there is a direction.
        difference: Option<Interval>,
        magnitude: Magnitude,
        /// The claimed winner's hit rate is 0 on every seed: it wins by never serving from the
        /// cache (set only when the direction holds).
        never_hits: bool,
    },
}

/// A claim's verdict, the one class of its outcome ([`Outcome::verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Verdict {
    /// Direction and magnitude both hold.
    Reproduced,
    /// The direction holds (or there is none) but the paper's number lies outside the interval.
    Differs,
    /// The direction fails.
    NotReproduced,
    /// The interval includes both outcomes (or n < 2).
    Undecided,
    /// Identical on every seed.
    Identical,
    /// An algorithm the claim needs did not run.
    NotRun,
    /// No claim to test.
    Measured,
}

impl Outcome {
    /// The verdict: reproduced only when both parts hold.
    pub fn verdict(&self) -> Verdict {
        match self {
            Outcome::NotRun => Verdict::NotRun,
            Outcome::Measured => Verdict::Measured,
            Outcome::Identical { .. } => Verdict::Identical,
            Outcome::Judged { direction, magnitude, .. } => match (direction, magnitude) {
                (Some(Direction::Fails), _) => Verdict::NotReproduced,
                (Some(Direction::Undecided), _) | (_, Magnitude::Undecided) => Verdict::Undecided,
                (_, Magnitude::Differs) => Verdict::Differs,
                (Some(Direction::Holds), Magnitude::Matches | Magnitude::NotStated) => Verdict::Reproduced,
                (None, Magnitude::Matches) => Verdict::Reproduced,
                (None, Magnitude::NotStated) => Verdict::Measured,
            },
        }
    }
}

/// What a number is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Plain,
    Percent,
    Times,
}

impl Unit {
    fn suffix(&self) -> &'static str {
        match self {
            Unit::Plain => "",
            Unit::Percent => " %",
            Unit::Times => "×",
        }
    }
}

/// Everything [`judge`] measured for one claim: the outcome and the numbers the wording shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub outcome: Outcome,
    /// Seeds the test used.
    pub n: usize,
    /// The x it was read at (the last one, for a claim read at every x).
    pub x: Option<f64>,
    /// The measured number in the paper's unit, with its interval (value, reduction, ratio).
    pub measured: Option<Interval>,
    pub unit: Unit,
    /// "lowest": the algorithms with the lowest mean (one per x read), display names.
    pub lowest: Vec<String>,
    /// "falls": (first x, its mean, final x, its mean).
    pub falls: Option<(f64, f64, f64, f64)>,
    /// The paired intervals the direction was read from, against whom (display names).
    pub pairs: Vec<(String, Interval)>,
}

/// An algorithm's display name ([`crate::algorithms::name_of`]), or a series' own name.
fn name(id: &str) -> String {
    name_of(id).unwrap_or(id).to_string()
}

/// Per-seed values of (algorithm, metric) at each x: `x bits → seed → value`. Observations are
/// keyed by algorithm id (reports written with display names are read back by id,
/// [`super::observation`]).
type Values = BTreeMap<u64, BTreeMap<u64, f64>>;

fn values(units: &[UnitResult], id: &str, metric: &str) -> Values {
    let mut v: Values = BTreeMap::new();
    for u in units {
        for o in &u.observations {
            if o.metric == metric && o.algorithm == id {
                v.entry(o.x.to_bits()).or_default().insert(u.unit.seed, o.value);
            }
        }
    }
    v
}

/// The algorithms (their ids) that recorded `metric`, in first-seen order.
fn algorithms_of(units: &[UnitResult], metric: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for o in units.iter().flat_map(|u| &u.observations) {
        if o.metric == metric && !out.contains(&o.algorithm) {
            out.push(o.algorithm.clone());
        }
    }
    out
}

/// The largest x key of a series.
fn final_x(v: &Values) -> Option<u64> {
    v.keys().copied().max_by(|a, b| f64::from_bits(*a).total_cmp(&f64::from_bits(*b)))
}

/// The x keys a claim reads.
fn xs_of(v: &Values, at: At) -> Vec<u64> {
    match at {
        At::Final => final_x(v).into_iter().collect(),
        At::X(x) => v.contains_key(&x.to_bits()).then_some(x.to_bits()).into_iter().collect(),
        At::Every => v.keys().copied().collect(),
    }
}

/// Mean and 95% Student-t half-width of a sample (NaN half-width for n < 2), as every
/// statistic of a report ([`super::stats::mean_std_ci95`]).
pub fn interval(sample: &[f64]) -> (f64, f64) {
    let i = Interval::of(sample);
    (i.mean, i.half())
}

/// The direction part: the interval of a difference that the claim says is positive.
pub fn direction(difference: &Interval) -> Direction {
    if !difference.is_finite() || !difference.mean.is_finite() {
        Direction::Undecided
    } else if difference.lo > 0.0 {
        Direction::Holds
    } else if difference.hi < 0.0 {
        Direction::Fails
    } else {
        Direction::Undecided
    }
}

/// The magnitude part: the paper's printed number against the measured interval; the printed
/// value stands for itself ± half a unit of its last printed digit.
pub fn magnitude(paper: Option<&str>, measured: &Interval) -> Magnitude {
    let Some(paper) = paper else { return Magnitude::NotStated };
    let Ok(p) = paper.parse::<f64>() else { return Magnitude::NotStated };
    if !measured.is_finite() {
        return Magnitude::Undecided;
    }
    let decimals = paper.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let half = 0.5 * 10f64.powi(-decimals);
    if measured.hi >= p - half && measured.lo <= p + half {
        Magnitude::Matches
    } else {
        Magnitude::Differs
    }
}

/// Pairs two per-seed maps by seed.
fn paired(a: &BTreeMap<u64, f64>, b: &BTreeMap<u64, f64>) -> Vec<(f64, f64)> {
    a.iter().filter_map(|(s, &va)| b.get(s).map(|&vb| (va, vb))).collect()
}

fn identical(pairs: &[(f64, f64)]) -> bool {
    !pairs.is_empty() && pairs.iter().all(|(a, b)| a.to_bits() == b.to_bits())
}

/// Whether `ours` served no request from its cache on any seed (its final hit rate is 0
/// everywhere it was recorded).
fn never_hits(units: &[UnitResult], ours: &str) -> bool {
    let v = values(units, ours, "final_hit_rate");
    final_x(&v).is_some_and(|x| v[&x].values().all(|h| *h == 0.0))
}

/// The outcome of a judged claim whose direction was read from `difference`.
fn judged(direction_of: Option<&Interval>, magnitude: Magnitude, zero_hit_winner: bool) -> Outcome {
    let direction = direction_of.map(direction);
    Outcome::Judged {
        direction,
        difference: direction_of.copied(),
        magnitude,
        never_hits: zero_hit_winner && direction == Some(Direction::Holds),
    }
}

/// Evaluation: one claim on a run's units, at the settings `params` that ran.
pub fn judge(claim: &Claim, units: &[UnitResult], params: &Params) -> Evaluation {
    let mut e = Evaluation {
        outcome: Outcome::NotRun,
        n: 0,
        x: match claim.at {
            At::X(x) => Some(x),
            _ => None,
        },
        measured: None,
        unit: Unit::Plain,
        lowest: Vec::new(),
        falls: None,
        pairs: Vec::new(),
    };
    let same = |with: Vec<String>| Outcome::Identical {
        with,
        reason: claim.identical.and_then(|i| i.reason(params)).map(str::to_string),
    };
    match claim.comparison {
        Comparison::Value { ours } | Comparison::Measured { ours } => {
            let v = values(units, ours.id(), claim.metric);
            let Some(x) = xs_of(&v, claim.at).first().copied() else { return e };
            let m = Interval::of(&v[&x].values().copied().collect::<Vec<_>>());
            e.n = m.n;
            e.measured = Some(m);
            e.outcome = match claim.comparison {
                Comparison::Value { .. } => judged(None, magnitude(claim.paper, &m), false),
                _ => Outcome::Measured,
            };
        }
        Comparison::Below { ours, baseline } => {
            e.unit = Unit::Percent;
            let (a, b) = (values(units, ours.id(), claim.metric), values(units, baseline.id(), claim.metric));
            let Some(x) = xs_of(&a, claim.at).first().copied() else { return e };
            let Some(bx) = b.get(&x) else { return e };
            let pairs = paired(&a[&x], bx);
            // The claim: baseline − ours > 0; its size, the reduction 1 − ours/baseline in %.
            let diff = Interval::of(&pairs.iter().map(|(o, b)| b - o).collect::<Vec<_>>());
            let mean = |i: usize| {
                pairs.iter().map(|p| if i == 0 { p.0 } else { p.1 }).sum::<f64>() / pairs.len() as f64
            };
            let (ours_mean, base_mean) = (mean(0), mean(1));
            let pct = 100.0 * (1.0 - ours_mean / base_mean);
            let half = if base_mean != 0.0 { 100.0 * diff.half() / base_mean.abs() } else { f64::NAN };
            let size = Interval::symmetric(pct, half, pairs.len());
            e.n = pairs.len();
            e.measured = Some(size);
            e.pairs = vec![(name(baseline.id()), diff)];
            e.outcome = if identical(&pairs) {
                same(vec![name(baseline.id())])
            } else {
                judged(Some(&diff), magnitude(claim.paper, &size), never_hits(units, ours.id()))
            };
        }
        Comparison::Lowest { ours } => {
            let a = values(units, ours.id(), claim.metric);
            let xs = xs_of(&a, claim.at);
            if xs.is_empty() {
                return e;
            }
            let others: Vec<String> = algorithms_of(units, claim.metric)
                .into_iter()
                .filter(|o| o != ours.id() && o != "oracle")
                .collect();
            let mut same_as: Vec<String> = Vec::new();
            let mut closest: Option<Interval> = None;
            let mut parts = Vec::new();
            for x in &xs {
                let ours_x = &a[x];
                let mut means =
                    vec![(ours.id().to_string(), ours_x.values().sum::<f64>() / ours_x.len() as f64)];
                for o in &others {
                    let b = values(units, o, claim.metric);
                    let Some(bx) = b.get(x) else { continue };
                    means.push((o.clone(), bx.values().sum::<f64>() / bx.len().max(1) as f64));
                    let pairs = paired(ours_x, bx);
                    let diff = Interval::of(&pairs.iter().map(|(p, q)| q - p).collect::<Vec<_>>());
                    e.n = e.n.max(pairs.len());
                    if identical(&pairs) && !same_as.contains(&name(o)) {
                        same_as.push(name(o));
                    }
                    parts.push(direction(&diff));
                    // The closest competitor: the lowest lower bound of (other − ours).
                    if closest.is_none_or(|c| diff.lo.total_cmp(&c.lo).is_lt() || !c.lo.is_finite()) {
                        closest = Some(diff);
                    }
                    e.pairs.push((name(o), diff));
                }
                crate::order::stable_sort_by_key(&mut means, |p| p.1);
                if let Some((best, _)) = means.first() {
                    if !e.lowest.contains(&name(best)) {
                        e.lowest.push(name(best));
                    }
                }
            }
            e.x = e.x.or(xs.last().map(|x| f64::from_bits(*x)));
            let direction = if parts.contains(&Direction::Fails) {
                Some(Direction::Fails)
            } else if !parts.is_empty() && parts.iter().all(|d| *d == Direction::Holds) {
                Some(Direction::Holds)
            } else {
                Some(Direction::Undecided)
            };
            e.outcome = if parts.is_empty() {
                Outcome::NotRun
            } else if !same_as.is_empty() && direction != Some(Direction::Fails) {
                same(same_as)
            } else {
                Outcome::Judged {
                    direction,
                    difference: closest,
                    magnitude: Magnitude::NotStated,
                    never_hits: direction == Some(Direction::Holds) && never_hits(units, ours.id()),
                }
            };
        }
        Comparison::Ratio { ours, baseline } => {
            e.unit = Unit::Times;
            let (a, b) = (values(units, ours.id(), claim.metric), values(units, baseline.id(), claim.metric));
            let Some(x) = xs_of(&a, claim.at).first().copied() else { return e };
            let Some(bx) = b.get(&x) else { return e };
            let logs: Vec<f64> = paired(&a[&x], bx)
                .iter()
                .filter(|(o, b)| *o > 0.0 && *b > 0.0)
                .map(|(o, b)| (o / b).ln())
                .collect();
            let l = Interval::of(&logs);
            let ratio = Interval { mean: l.mean.exp(), lo: l.lo.exp(), hi: l.hi.exp(), n: l.n };
            e.n = l.n;
            e.measured = Some(ratio);
            e.outcome = judged(None, magnitude(claim.paper, &ratio), false);
        }
        Comparison::Falls { ours } => {
            let v = values(units, ours.id(), claim.metric);
            let mut keys: Vec<u64> = v.keys().copied().collect();
            crate::order::stable_sort_by_key(&mut keys, |p| f64::from_bits(*p));
            let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return e };
            let pairs = paired(&v[first], &v[last]);
            let diff = Interval::of(&pairs.iter().map(|(f, l)| f - l).collect::<Vec<_>>());
            let mean_of = |k: &u64| v[k].values().sum::<f64>() / v[k].len().max(1) as f64;
            e.n = pairs.len();
            e.falls = Some((f64::from_bits(*first), mean_of(first), f64::from_bits(*last), mean_of(last)));
            e.pairs = vec![("first − final".into(), diff)];
            e.outcome = judged(Some(&diff), Magnitude::NotStated, false);
        }
    }
    e
}

/// Bounds `[lo, hi]` at the precision of their half-width, more where an end would otherwise
/// show as zero ([`decimals_keeping_sign`]: the verdicts beside them read whether they exclude it).
fn bounds(i: &Interval) -> String {
    if !i.is_finite() {
        return "none (n < 2)".into();
    }
    let d = decimals_keeping_sign(decimals_for((i.hi - i.lo) / 2.0), &[(i.lo, 0.0), (i.hi, 0.0)]);
    format!("[{}, {}]", fixed(i.lo, d), fixed(i.hi, d))
}

/// The sentence for "wins by never serving from the cache".
pub const NEVER_HITS: &str = "wins by never serving from the cache (hit rate 0: every query goes to the LLM)";

/// Wording: the verdict of an evaluation in words — both parts, the paper's number against the
/// measured interval where they differ, the reason for an identity, the zero-hit flag.
pub fn words(e: &Evaluation, paper: Option<&str>) -> String {
    let measured = e.measured.map(|m| m.words(e.unit.suffix())).unwrap_or_default();
    let printed = paper.map(|p| format!("{p}{}", e.unit.suffix())).unwrap_or_default();
    let size = |m: Magnitude| match m {
        Magnitude::Matches => format!("size matches the paper's {printed}"),
        Magnitude::Differs => format!("differs: {measured} vs {printed}"),
        Magnitude::NotStated => "size not stated".to_string(),
        Magnitude::Undecided => format!("no interval with n = {}", e.n),
    };
    match &e.outcome {
        Outcome::NotRun => "not run".into(),
        Outcome::Measured => "no claim (measured)".into(),
        Outcome::Identical { with, reason } => match reason {
            Some(r) => format!("identical on every seed (with {}): {r}", with.join(", ")),
            None => format!("identical on every seed (with {})", with.join(", ")),
        },
        Outcome::Judged { direction, difference, magnitude, never_hits } => {
            let verdict = e.outcome.verdict();
            let mut s = match (verdict, direction) {
                (Verdict::Reproduced, Some(_)) => {
                    format!("reproduced: direction holds, {}", size(*magnitude))
                }
                (Verdict::Reproduced, None) => {
                    format!("reproduced: {measured} matches the paper's {printed}")
                }
                (Verdict::Differs, Some(_)) => format!("direction holds; {}", size(*magnitude)),
                (Verdict::Differs, None) => size(*magnitude),
                (Verdict::NotReproduced, _) => format!(
                    "not reproduced: direction fails, paired interval {}",
                    difference.as_ref().map_or_else(String::new, bounds)
                ),
                (Verdict::Undecided, Some(Direction::Undecided)) => format!(
                    "undecided at n = {}: paired interval {} includes 0",
                    e.n,
                    difference.as_ref().map_or_else(String::new, bounds)
                ),
                _ => format!("undecided: {}", size(*magnitude)),
            };
            if *never_hits {
                s.push_str("; ");
                s.push_str(NEVER_HITS);
            }
            s
        }
    }
}

/// One row of a headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeadlineRow {
    pub what: String,
    pub metric: String,
    /// The x the claim is read at (`None` for the final value).
    pub x: Option<f64>,
    /// The paper's number with its unit (`"73.32 %"`), or its words (`"lowest"`).
    pub paper: String,
    /// The measured number (reduction in %, ratio, value), when the claim has one.
    pub measured: Option<Interval>,
    /// The measured outcome in words (`"0.0110 ± 0.0009"`, `"lowest mean: Greedy"`).
    pub measured_text: String,
    /// Seeds the test used.
    pub n: usize,
    /// What the evaluation found, both parts.
    pub outcome: Outcome,
    pub verdict: Verdict,
    /// The verdict in words ([`words`]).
    pub verdict_text: String,
    /// The test and its interval, stated.
    pub test: String,
    pub source: String,
    pub why: String,
}

/// What a practitioner sees first: the policy with the lowest mean of the table's "lowest" claim,
/// with its hit rate and realised cost (issue 33, item 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Lead {
    /// The winner's id.
    pub algorithm: String,
    pub metric: String,
    pub value: Interval,
    /// Its final hit rate, where the run records one (online).
    pub hit_rate: Option<Interval>,
    /// Its realised cost per round, where the run records one (online).
    pub realised_cost: Option<Interval>,
    /// It served no request from its cache on any seed.
    pub never_hits: bool,
    /// All of it in words.
    pub text: String,
}

/// A run's headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Headline {
    /// The preset the claims belong to (`fig-a`, …).
    pub preset: String,
    /// What "±" means ([`INTERVAL`]).
    pub interval: String,
    /// The winner, first (absent when no claim names a lowest).
    #[serde(default)]
    pub lead: Option<Lead>,
    pub rows: Vec<HeadlineRow>,
}

fn x_words(metric: &str, x: Option<f64>) -> String {
    match x {
        Some(x) if !metric.starts_with("final_") && metric != "runtime_ms" => format!(" at x = {x}"),
        _ => String::new(),
    }
}

impl Claim {
    /// The row: the evaluation in words.
    fn row(&self, units: &[UnitResult], params: &Params) -> HeadlineRow {
        let e = judge(self, units, params);
        let (paper, test) = self.stated(&e);
        let measured_text = if let Some((x0, m0, x1, m1)) = e.falls {
            format!(
                "{} at t = {x0} → {} at t = {x1}",
                format_interval(m0, f64::NAN),
                format_interval(m1, f64::NAN)
            )
        } else if !e.lowest.is_empty() {
            format!("lowest mean: {}", e.lowest.join(", "))
        } else {
            e.measured.map_or("–".into(), |m| m.words(e.unit.suffix()))
        };
        HeadlineRow {
            what: self.what.to_string(),
            metric: self.metric.to_string(),
            x: e.x,
            paper,
            measured: e.measured,
            measured_text,
            n: e.n,
            verdict: e.outcome.verdict(),
            verdict_text: words(&e, self.paper),
            outcome: e.outcome,
            test,
            source: self.source.to_string(),
            why: self.why.to_string(),
        }
    }

    /// The paper's number in its unit, and the test in words.
    fn stated(&self, e: &Evaluation) -> (String, String) {
        if e.outcome == Outcome::NotRun {
            return (
                self.paper.unwrap_or("").to_string(),
                "an algorithm this claim compares did not run".into(),
            );
        }
        let of = x_words(self.metric, e.x);
        let pairs =
            || e.pairs.iter().map(|(who, i)| format!("{who} {}", bounds(i))).collect::<Vec<_>>().join("; ");
        let against =
            |printed: &str| format!("; the paper's {printed} (± half its last digit) matches if inside");
        match self.comparison {
            Comparison::Value { ours } => {
                let p = self.paper.unwrap_or("");
                (
                    p.to_string(),
                    format!(
                        "95% interval of {}'s {}{of} over {} seeds, {}{}",
                        name(ours.id()),
                        self.metric,
                        e.n,
                        e.measured.as_ref().map_or_else(String::new, bounds),
                        against(p)
                    ),
                )
            }
            Comparison::Measured { .. } => ("not stated".into(), format!("mean and 95% interval over {} seeds", e.n)),
            Comparison::Below { ours, baseline } => (
                self.paper.map_or("below".into(), |p| format!("{p} %")),
                format!(
                    "direction: 95% paired interval of {} − {} ({}{of}) over {} seeds, {}, holds if above 0; size: the reduction 1 − {}/{} in %{}",
                    name(baseline.id()),
                    name(ours.id()),
                    self.metric,
                    e.n,
                    e.pairs.first().map_or_else(String::new, |p| bounds(&p.1)),
                    name(ours.id()),
                    name(baseline.id()),
                    self.paper.map_or_else(|| ", not stated by the paper".into(), |p| against(&format!("{p} %")))
                ),
            ),
            Comparison::Lowest { ours } => (
                "lowest".into(),
                format!(
                    "95% paired intervals of (other − {}) over {} seeds{}: {}; the direction holds if every one lies above 0",
                    name(ours.id()),
                    e.n,
                    if self.at == At::Every { ", at each x" } else { "" },
                    pairs()
                ),
            ),
            Comparison::Ratio { ours, baseline } => {
                let p = self.paper.map_or(String::new(), |p| format!("{p}×"));
                (
                    p.clone(),
                    format!(
                        "95% interval of the per-seed ratio {} / {} (geometric mean; t-interval of the log ratio) over {} seeds{}",
                        name(ours.id()),
                        name(baseline.id()),
                        e.n,
                        against(&p)
                    ),
                )
            }
            Comparison::Falls { .. } => (
                "falls".into(),
                format!(
                    "95% paired interval of (first − final) over {} seeds: {}; the direction holds if it lies above 0",
                    e.n,
                    e.pairs.first().map_or_else(String::new, |p| bounds(&p.1))
                ),
            ),
        }
    }
}

/// The lead of a table: the winner of its first "lowest" claim, with its hit rate and realised
/// cost where the run records them.
fn lead(claims: &[Claim], units: &[UnitResult]) -> Option<Lead> {
    let c = claims.iter().find(|c| matches!(c.comparison, Comparison::Lowest { .. }))?;
    let mut best: Option<(String, Interval)> = None;
    for id in algorithms_of(units, c.metric).into_iter().filter(|a| a != "oracle") {
        let v = values(units, &id, c.metric);
        let Some(x) = final_x(&v) else { continue };
        let i = Interval::of(&v[&x].values().copied().collect::<Vec<_>>());
        if best.as_ref().is_none_or(|(_, b)| i.mean < b.mean) {
            best = Some((id, i));
        }
    }
    let (algorithm, value) = best?;
    let at_final = |metric: &str| {
        let v = values(units, &algorithm, metric);
        final_x(&v).map(|x| Interval::of(&v[&x].values().copied().collect::<Vec<_>>()))
    };
    let (hit_rate, realised_cost) = (at_final("final_hit_rate"), at_final("final_avg_realised_cost"));
    let never = never_hits(units, &algorithm);
    let w = |i: &Interval| i.words(Unit::Plain.suffix());
    let what = super::metrics::metric(c.metric).map_or(c.metric, |m| m.name);
    let mut text = format!("Lowest {what}: {} ({})", name(&algorithm), w(&value));
    match (&hit_rate, &realised_cost) {
        (Some(h), Some(r)) => {
            text.push_str(&format!(", hit rate {}, realised cost {} per round", w(h), w(r)))
        }
        _ => text.push_str(" (hit rate and realised cost: not recorded by this measure)"),
    }
    text.push('.');
    if never {
        text.push_str(" It never serves from the cache: every query goes to the LLM.");
    }
    Some(Lead {
        metric: c.metric.to_string(),
        value,
        hit_rate,
        realised_cost,
        never_hits: never,
        text,
        algorithm,
    })
}

/// The headline table of a run of `spec` with these `claims` (its figure's,
/// [`super::presets::claims`]), from its units.
///
/// Only on the figure's own data: the paper's claims were measured on its datasets and their
/// arrival models, so a run on the reader's files (or a built-in under another arrival model) has
/// no headline.
pub fn evaluate(spec: &ExperimentSpec, units: &[UnitResult], claims: &[Claim]) -> Option<Headline> {
    if matches!(spec.dataset, super::DatasetId::Spec(_)) {
        return None;
    }
    Some(Headline {
        preset: spec.id.clone(),
        interval: INTERVAL.into(),
        lead: lead(claims, units),
        rows: claims.iter().map(|c| c.row(units, &spec.params)).collect(),
    })
}

impl Headline {
    /// The table as plain text (the CLI summary and docs/REPRODUCTION.md): the lead first, then
    /// each claim with the paper's number, the measurement and the verdict in the same words as
    /// the page.
    pub fn to_text(&self) -> String {
        let mut out = format!("\nHeadline claims of the paper ({}; ± = {})\n", self.preset, self.interval);
        if let Some(l) = &self.lead {
            out.push_str(&format!("{}\n", l.text));
        }
        // Each column as wide as its widest cell, two spaces between columns, so that no cell
        // runs into the next whatever its length.
        let width = |header: &str, cell: fn(&HeadlineRow) -> &str| {
            self.rows
                .iter()
                .map(|r| cell(r).chars().count())
                .chain([header.chars().count()])
                .max()
                .unwrap_or(0)
        };
        let w = [
            width("claim", |r| &r.what),
            width("paper", |r| &r.paper),
            width("measured", |r| &r.measured_text),
        ];
        let line = |what: &str, paper: &str, measured: &str, verdict: &str| {
            format!(
                "{what:<w0$}  {paper:>w1$}  {measured:>w2$}  {verdict}\n",
                w0 = w[0],
                w1 = w[1],
                w2 = w[2]
            )
        };
        out.push_str(&line("claim", "paper", "measured", "verdict (n)"));
        for r in &self.rows {
            out.push_str(&line(
                &r.what,
                &r.paper,
                &r.measured_text,
                &format!("{} (n = {})", r.verdict_text, r.n),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(outcome: Outcome, measured: Option<Interval>, unit: Unit) -> Evaluation {
        Evaluation { outcome, n: 5, x: None, measured, unit, lowest: vec![], falls: None, pairs: vec![] }
    }

    #[test]
    fn direction_holds_fails_or_is_undecided_by_the_side_of_zero() {
        assert_eq!(direction(&Interval::symmetric(1.0, 0.5, 5)), Direction::Holds);
        assert_eq!(direction(&Interval::symmetric(-1.0, 0.5, 5)), Direction::Fails);
        assert_eq!(direction(&Interval::symmetric(0.2, 0.5, 5)), Direction::Undecided);
        assert_eq!(direction(&Interval::symmetric(0.2, f64::NAN, 1)), Direction::Undecided);
    }

    #[test]
    fn magnitude_matches_inside_the_interval_widened_by_half_the_last_digit() {
        // The fig-c row: 53.9 ± 5.3 against the paper's 72.41: differs.
        assert_eq!(magnitude(Some("72.41"), &Interval::symmetric(53.89, 5.32, 10)), Magnitude::Differs);
        assert_eq!(magnitude(Some("72.41"), &Interval::symmetric(70.0, 3.0, 10)), Magnitude::Matches);
        // 0.0083 stands for [0.00825, 0.00835].
        assert_eq!(
            magnitude(Some("0.0083"), &Interval { mean: 0.007, lo: 0.006, hi: 0.00825, n: 5 }),
            Magnitude::Matches
        );
        assert_eq!(
            magnitude(Some("0.0083"), &Interval { mean: 0.0087, lo: 0.00836, hi: 0.009, n: 5 }),
            Magnitude::Differs
        );
        assert_eq!(magnitude(None, &Interval::symmetric(1.0, 0.1, 5)), Magnitude::NotStated);
        assert_eq!(magnitude(Some("0.88"), &Interval::symmetric(0.9, f64::NAN, 1)), Magnitude::Undecided);
    }

    #[test]
    fn reproduced_only_when_both_parts_hold() {
        let holds = Interval::symmetric(0.01, 0.002, 10);
        let v = |d: Option<&Interval>, m| judged(d, m, false).verdict();
        assert_eq!(v(Some(&holds), Magnitude::Matches), Verdict::Reproduced);
        assert_eq!(v(Some(&holds), Magnitude::NotStated), Verdict::Reproduced);
        assert_eq!(v(Some(&holds), Magnitude::Differs), Verdict::Differs);
        assert_eq!(
            v(Some(&Interval::symmetric(-0.01, 0.002, 10)), Magnitude::Matches),
            Verdict::NotReproduced
        );
        assert_eq!(v(Some(&Interval::symmetric(0.0, 0.002, 10)), Magnitude::Matches), Verdict::Undecided);
        assert_eq!(v(None, Magnitude::Matches), Verdict::Reproduced);
        assert_eq!(v(None, Magnitude::Differs), Verdict::Differs);
        assert_eq!(v(None, Magnitude::Undecided), Verdict::Undecided);
        assert_eq!(Outcome::Identical { with: vec![], reason: None }.verdict(), Verdict::Identical);
        // The zero-hit flag is raised only on a win.
        let win = judged(Some(&holds), Magnitude::Matches, true);
        assert!(matches!(win, Outcome::Judged { never_hits: true, .. }), "{win:?}");
        let tie = judged(Some(&Interval::symmetric(0.0, 1.0, 5)), Magnitude::NotStated, true);
        assert!(matches!(tie, Outcome::Judged { never_hits: false, .. }), "{tie:?}");
    }

    #[test]
    fn each_outcome_in_words() {
        let size = Some(Interval::symmetric(53.894, 5.3212, 10));
        let holds = Interval::symmetric(0.004, 0.001, 10);
        let w = |o, m: Option<Interval>, u, p| words(&eval(o, m, u), p);
        assert_eq!(
            w(judged(Some(&holds), Magnitude::Differs, false), size, Unit::Percent, Some("72.41")),
            "direction holds; differs: 53.9 ± 5.3 % vs 72.41 %"
        );
        assert_eq!(
            w(judged(Some(&holds), Magnitude::Matches, false), size, Unit::Percent, Some("52.95")),
            "reproduced: direction holds, size matches the paper's 52.95 %"
        );
        assert_eq!(
            w(judged(Some(&holds), Magnitude::NotStated, true), None, Unit::Plain, None),
            format!("reproduced: direction holds, size not stated; {NEVER_HITS}")
        );
        assert_eq!(
            w(
                judged(Some(&Interval::symmetric(0.1, 0.3, 5)), Magnitude::Differs, false),
                size,
                Unit::Percent,
                Some("72.41")
            ),
            "undecided at n = 5: paired interval [-0.20, 0.40] includes 0"
        );
        assert_eq!(
            w(
                judged(Some(&Interval::symmetric(-1.0, 0.3, 5)), Magnitude::NotStated, false),
                None,
                Unit::Plain,
                None
            ),
            "not reproduced: direction fails, paired interval [-1.30, -0.70]"
        );
        let value = Some(Interval::symmetric(0.01103, 0.00091, 5));
        assert_eq!(
            w(judged(None, Magnitude::Differs, false), value, Unit::Plain, Some("0.0083")),
            "differs: 0.01103 ± 0.00091 vs 0.0083"
        );
        assert_eq!(
            w(judged(None, Magnitude::Matches, false), value, Unit::Plain, Some("0.011")),
            "reproduced: 0.01103 ± 0.00091 matches the paper's 0.011"
        );
        let ratio = Some(Interval { mean: 1.52, lo: 1.31, hi: 1.76, n: 5 });
        assert_eq!(
            w(judged(None, Magnitude::Differs, false), ratio, Unit::Times, Some("1.0")),
            "differs: 1.52× [1.31, 1.76] vs 1.0×"
        );
        let same = Outcome::Identical {
            with: vec!["CLCB-SC-LS".into()],
            reason: Some("every LCB is negative".into()),
        };
        let s = w(same, None, Unit::Percent, Some("43.14"));
        assert_eq!(s, "identical on every seed (with CLCB-SC-LS): every LCB is negative");
        assert!(!s.contains("distinguishable"));
        assert_eq!(w(Outcome::NotRun, None, Unit::Plain, None), "not run");
        assert_eq!(w(Outcome::Measured, None, Unit::Plain, None), "no claim (measured)");
    }

    #[test]
    fn identity_names_its_reason_only_at_the_settings_it_holds_at() {
        let p = Params::default();
        assert!(Identity::NegativeLcbs.reason(&p).unwrap().contains("β = 1"));
        assert!(Identity::NegativeLcbs.reason(&Params { beta: 0.1, ..p.clone() }).is_none());
        assert!(Identity::SaturatedUpperBounds.reason(&p).unwrap().contains("saturate"));
        assert!(Identity::SaturatedUpperBounds.reason(&Params { beta_off: 0.03, ..p }).is_none());
    }
}
