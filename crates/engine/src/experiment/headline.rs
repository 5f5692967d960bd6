//! The paper's headline claims (paper §6 and its appendix; SPEC §10; the claims themselves are
//! listed in [`super::claims`]), each checked against a run
//! with a stated test, so that the page, the CLI summary and docs/REPRODUCTION.md give the same
//! verdict from the same code.
//!
//! Every claim compares per-seed values. The test is always the same: the 95% Student-t interval
//! of the mean over the n seeds both sides ran (paired by seed where two algorithms are compared),
//! `mean ± t_{0.975, n−1}·sd/√n` ([`super::t_quantile`]):
//! - a *direction* ("A is below B", "A is the lowest", "falls over rounds") is **reproduced** when
//!   the interval of the paired difference excludes zero on the claimed side, **not reproduced**
//!   when it excludes zero on the other side, and **not distinguishable with n seeds** otherwise
//!   (including n < 2, where there is no interval);
//! - a *number* the paper prints (0.0083, 1.48×) is **reproduced** when the measured interval
//!   meets the paper's value widened by half a unit of its last printed digit (0.0083 stands for
//!   [0.00825, 0.00835]), **not reproduced** otherwise, and not distinguishable with n < 2.
//!
//! When two compared algorithms gave bit-identical values on every seed the row says so, with the
//! reason the claim gives ([`Claim::identical`]).

use super::stats::mean_std_ci95;
use super::{ExperimentSpec, UnitResult};
use crate::algorithms::name_of;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the "±" of every interval the engine reports means (shown once on the page and in the
/// CLI summary).
pub const INTERVAL: &str = "mean ± 95% Student-t half-width over the n seeds (t_{0.975, n−1}·sd/√n)";

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

/// How a claim compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Comparison {
    /// The paper's value of the metric for `ours`, to the digits it prints.
    Value { ours: &'static str },
    /// `ours` below `baseline`; the paper's number is the relative reduction `1 − ours/baseline`
    /// in percent.
    Below { ours: &'static str, baseline: &'static str },
    /// `ours` has the lowest mean of every algorithm run (the oracle excepted).
    Lowest { ours: &'static str },
    /// The ratio `ours / baseline` (the paper's number, ×), tested on per-seed log ratios.
    Ratio { ours: &'static str, baseline: &'static str },
    /// The metric of `ours` at the final x is below its value at the first x.
    Falls { ours: &'static str },
    /// No claim: the paper states no number; the row shows what was measured.
    Measured { ours: &'static str },
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
    /// Why two compared algorithms can give identical results, shown when they do.
    pub identical: &'static str,
}

/// A claim's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Verdict {
    Reproduced,
    NotReproduced,
    /// The interval includes both outcomes (or n < 2).
    NotDistinguishable,
    /// An algorithm the claim needs did not run (e.g. dropped from quick settings).
    NotRun,
    /// No claim to test: a measured quantity the paper gives no number for.
    Measured,
}

impl Verdict {
    /// The verdict in words, with the number of seeds where it matters.
    pub fn words(&self, n: usize) -> String {
        match self {
            Verdict::Reproduced => "reproduced".into(),
            Verdict::NotReproduced => "not reproduced".into(),
            Verdict::NotDistinguishable => {
                format!("not distinguishable with {n} seed{}", if n == 1 { "" } else { "s" })
            }
            Verdict::NotRun => "not run".into(),
            Verdict::Measured => "no claim (measured)".into(),
        }
    }
}

/// One row of a headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeadlineRow {
    pub what: String,
    pub metric: String,
    /// The x the claim is read at (`None` for the final value or every x).
    pub x: Option<f64>,
    /// The paper's number with its unit (`"73.32 %"`), or its words (`"lowest"`).
    pub paper: String,
    /// The measured number (reduction in %, ratio, value), when the claim has one.
    pub measured: Option<f64>,
    /// Half-width of the measured number's 95% interval, when there is one.
    pub ci95: Option<f64>,
    /// `""`, `"%"` or `"×"`.
    pub unit: String,
    /// The measured outcome in words (`"0.0110 ± 0.0009"`, `"lowest: Greedy"`).
    pub measured_text: String,
    /// Seeds the test used.
    pub n: usize,
    pub verdict: Verdict,
    /// The verdict in words, with n.
    pub verdict_text: String,
    /// The test and its interval, stated.
    pub test: String,
    pub source: String,
    pub why: String,
    /// Set when two compared algorithms gave identical results on every seed: which, and why.
    pub identical: Option<String>,
}

/// A run's headline table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Headline {
    /// The preset the claims belong to (`fig-a`, …).
    pub preset: String,
    /// What "±" means ([`INTERVAL`]).
    pub interval: String,
    pub rows: Vec<HeadlineRow>,
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

/// The x keys a claim reads.
fn xs_of(v: &Values, at: At) -> Vec<u64> {
    match at {
        At::Final => v
            .keys()
            .max_by(|a, b| f64::from_bits(**a).total_cmp(&f64::from_bits(**b)))
            .into_iter()
            .copied()
            .collect(),
        At::X(x) => v.contains_key(&x.to_bits()).then_some(x.to_bits()).into_iter().collect(),
        At::Every => v.keys().copied().collect(),
    }
}

/// Mean and 95% Student-t half-width of a sample (NaN half-width for n < 2), as every
/// statistic of a report ([`super::stats::mean_std_ci95`]).
pub fn interval(sample: &[f64]) -> (f64, f64) {
    if sample.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let (mean, _, ci95) = mean_std_ci95(sample);
    (mean, ci95)
}

/// The verdict on a direction: the interval `mean ± hw` of a difference that the claim says is
/// positive.
pub fn direction(mean: f64, hw: f64) -> Verdict {
    if !hw.is_finite() || !mean.is_finite() {
        Verdict::NotDistinguishable
    } else if mean - hw > 0.0 {
        Verdict::Reproduced
    } else if mean + hw < 0.0 {
        Verdict::NotReproduced
    } else {
        Verdict::NotDistinguishable
    }
}

/// The verdict on a printed number `paper` against the measured interval `[lo, hi]`: the paper's
/// value stands for itself ± half a unit of its last printed digit.
pub fn matches_printed(paper: &str, lo: f64, hi: f64) -> Verdict {
    let Ok(p) = paper.parse::<f64>() else { return Verdict::NotDistinguishable };
    if !lo.is_finite() || !hi.is_finite() {
        return Verdict::NotDistinguishable;
    }
    let decimals = paper.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let half = 0.5 * 10f64.powi(-decimals);
    if hi >= p - half && lo <= p + half {
        Verdict::Reproduced
    } else {
        Verdict::NotReproduced
    }
}

/// Pairs two per-seed maps by seed.
fn paired(a: &BTreeMap<u64, f64>, b: &BTreeMap<u64, f64>) -> Vec<(f64, f64)> {
    a.iter().filter_map(|(s, &va)| b.get(s).map(|&vb| (va, vb))).collect()
}

fn fmt(v: f64) -> String {
    if !v.is_finite() {
        "–".into()
    } else if v == 0.0 || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        let digits = (2 - v.abs().log10().floor() as i32).clamp(3, 8) as usize;
        format!("{v:.digits$}")
    }
}

fn pm(mean: f64, hw: f64) -> String {
    if hw.is_finite() {
        format!("{} ± {}", fmt(mean), fmt(hw))
    } else {
        fmt(mean)
    }
}

fn x_words(metric: &str, x: u64) -> String {
    let x = f64::from_bits(x);
    if metric.starts_with("final_") || metric == "runtime_ms" {
        String::new()
    } else {
        format!(" at x = {x}")
    }
}

impl Claim {
    fn row(&self, report: &[UnitResult]) -> HeadlineRow {
        let mut row = HeadlineRow {
            what: self.what.to_string(),
            metric: self.metric.to_string(),
            x: match self.at {
                At::X(x) => Some(x),
                _ => None,
            },
            paper: String::new(),
            measured: None,
            ci95: None,
            unit: String::new(),
            measured_text: "–".into(),
            n: 0,
            verdict: Verdict::NotRun,
            verdict_text: String::new(),
            test: String::new(),
            source: self.source.to_string(),
            why: self.why.to_string(),
            identical: None,
        };
        match self.comparison {
            Comparison::Value { ours } | Comparison::Measured { ours } => {
                let v = values(report, ours, self.metric);
                if let Some(x) = xs_of(&v, self.at).first() {
                    let sample: Vec<f64> = v[x].values().copied().collect();
                    let (mean, hw) = interval(&sample);
                    row.n = sample.len();
                    row.measured = Some(mean);
                    row.ci95 = hw.is_finite().then_some(hw);
                    row.measured_text = pm(mean, hw);
                    if let (Comparison::Value { .. }, Some(p)) = (self.comparison, self.paper) {
                        row.paper = p.to_string();
                        row.verdict = if row.n < 2 {
                            Verdict::NotDistinguishable
                        } else {
                            matches_printed(p, mean - hw, mean + hw)
                        };
                        row.test = format!(
                            "95% interval of {}'s {}{} over {} seeds, [{}, {}], against the paper's {p} (± half its last digit)",
                            name(ours),
                            self.metric,
                            x_words(self.metric, *x),
                            row.n,
                            fmt(mean - hw),
                            fmt(mean + hw)
                        );
                    } else {
                        row.paper = "not stated".into();
                        row.verdict = Verdict::Measured;
                        row.test = format!("mean and 95% interval over {} seeds", row.n);
                    }
                }
            }
            Comparison::Below { ours, baseline } => {
                row.paper = self.paper.map_or("below".into(), |p| format!("{p} %"));
                row.unit = "%".into();
                let (a, b) = (values(report, ours, self.metric), values(report, baseline, self.metric));
                let Some(x) = xs_of(&a, self.at).first().copied() else { return self.finish(row) };
                let Some(bx) = b.get(&x) else { return self.finish(row) };
                let pairs = paired(&a[&x], bx);
                // The claim: baseline − ours > 0.
                let diffs: Vec<f64> = pairs.iter().map(|(o, b)| b - o).collect();
                let (mean, hw) = interval(&diffs);
                let base_mean = pairs.iter().map(|p| p.1).sum::<f64>() / pairs.len().max(1) as f64;
                let ours_mean = pairs.iter().map(|p| p.0).sum::<f64>() / pairs.len().max(1) as f64;
                let pct = 100.0 * (1.0 - ours_mean / base_mean);
                row.n = pairs.len();
                row.measured = pct.is_finite().then_some(pct);
                row.ci95 = (hw.is_finite() && base_mean != 0.0).then(|| 100.0 * hw / base_mean.abs());
                row.measured_text = match row.ci95 {
                    Some(c) => format!("{} % ± {}", fmt(pct), fmt(c)),
                    None => format!("{} %", fmt(pct)),
                };
                row.verdict = direction(mean, hw);
                row.test = format!(
                    "95% paired interval of {} − {} ({}{}) over {} seeds: [{}, {}]; the direction holds if it lies above 0",
                    name(baseline),
                    name(ours),
                    self.metric,
                    x_words(self.metric, x),
                    row.n,
                    fmt(mean - hw),
                    fmt(mean + hw)
                );
                if !pairs.is_empty() && pairs.iter().all(|(o, b)| o.to_bits() == b.to_bits()) {
                    row.identical = Some(self.identical_note(ours, &name(baseline)));
                }
            }
            Comparison::Lowest { ours } => {
                row.paper = "lowest".into();
                let a = values(report, ours, self.metric);
                let xs = xs_of(&a, self.at);
                if xs.is_empty() {
                    return self.finish(row);
                }
                let others: Vec<String> = algorithms_of(report, self.metric)
                    .into_iter()
                    .filter(|o| o != ours && o != "oracle")
                    .collect();
                let mut verdicts = Vec::new();
                let mut tests = Vec::new();
                let mut lowest_names = Vec::new();
                let mut identical = Vec::new();
                for x in &xs {
                    let mut means: Vec<(String, f64)> = Vec::new();
                    let ours_x = &a[x];
                    means.push((ours.to_string(), ours_x.values().sum::<f64>() / ours_x.len().max(1) as f64));
                    let mut at_x = Vec::new();
                    for o in &others {
                        let b = values(report, o, self.metric);
                        let Some(bx) = b.get(x) else { continue };
                        means.push((o.clone(), bx.values().sum::<f64>() / bx.len().max(1) as f64));
                        let pairs = paired(ours_x, bx);
                        let diffs: Vec<f64> = pairs.iter().map(|(o, b)| b - o).collect();
                        let (m, hw) = interval(&diffs);
                        row.n = row.n.max(pairs.len());
                        at_x.push(direction(m, hw));
                        tests.push(format!("{} [{}, {}]", name(o), fmt(m - hw), fmt(m + hw)));
                        if !pairs.is_empty() && pairs.iter().all(|(p, q)| p.to_bits() == q.to_bits()) {
                            identical.push(name(o));
                        }
                    }
                    verdicts.push(combine(&at_x));
                    means.sort_by(|p, q| p.1.total_cmp(&q.1));
                    if let Some((best, _)) = means.first() {
                        lowest_names.push(name(best));
                    }
                }
                lowest_names.dedup();
                row.verdict = combine(&verdicts);
                row.measured_text = format!("lowest mean: {}", lowest_names.join(", "));
                row.test = format!(
                    "95% paired intervals of (other − {}) over {} seeds{}: {}; the claim holds if every one lies above 0",
                    name(ours),
                    row.n,
                    if xs.len() > 1 { format!(", at each of {} x", xs.len()) } else { String::new() },
                    tests.join("; ")
                );
                identical.dedup();
                if !identical.is_empty() {
                    row.identical = Some(self.identical_note(ours, &identical.join(", ")));
                }
            }
            Comparison::Ratio { ours, baseline } => {
                row.unit = "×".into();
                row.paper = self.paper.map_or(String::new(), |p| format!("{p}×"));
                let (a, b) = (values(report, ours, self.metric), values(report, baseline, self.metric));
                let Some(x) = xs_of(&a, self.at).first().copied() else { return self.finish(row) };
                let Some(bx) = b.get(&x) else { return self.finish(row) };
                let logs: Vec<f64> = paired(&a[&x], bx)
                    .iter()
                    .filter(|(o, b)| *o > 0.0 && *b > 0.0)
                    .map(|(o, b)| (o / b).ln())
                    .collect();
                let (m, hw) = interval(&logs);
                row.n = logs.len();
                row.measured = m.is_finite().then(|| m.exp());
                let (lo, hi) = ((m - hw).exp(), (m + hw).exp());
                row.measured_text = if hw.is_finite() {
                    format!("{}× [{}, {}]", fmt(m.exp()), fmt(lo), fmt(hi))
                } else {
                    format!("{}×", fmt(m.exp()))
                };
                row.verdict = match self.paper {
                    Some(p) if row.n >= 2 => matches_printed(p, lo, hi),
                    _ => Verdict::NotDistinguishable,
                };
                row.test = format!(
                    "95% interval of the per-seed ratio {} / {} (geometric mean; t-interval of the log ratio) over {} seeds, against the paper's {}",
                    name(ours),
                    name(baseline),
                    row.n,
                    row.paper
                );
            }
            Comparison::Falls { ours } => {
                row.paper = "falls".into();
                let v = values(report, ours, self.metric);
                let mut keys: Vec<u64> = v.keys().copied().collect();
                keys.sort_by(|p, q| f64::from_bits(*p).total_cmp(&f64::from_bits(*q)));
                let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return self.finish(row) };
                let pairs = paired(&v[first], &v[last]);
                let diffs: Vec<f64> = pairs.iter().map(|(f, l)| f - l).collect();
                let (m, hw) = interval(&diffs);
                row.n = pairs.len();
                row.verdict = direction(m, hw);
                let mean_of = |k: &u64| v[k].values().sum::<f64>() / v[k].len().max(1) as f64;
                row.measured_text = format!(
                    "{} at t = {} → {} at t = {}",
                    fmt(mean_of(first)),
                    f64::from_bits(*first),
                    fmt(mean_of(last)),
                    f64::from_bits(*last)
                );
                row.test = format!(
                    "95% paired interval of (first − final) over {} seeds: [{}, {}]; the claim holds if it lies above 0",
                    row.n,
                    fmt(m - hw),
                    fmt(m + hw)
                );
            }
        }
        self.finish(row)
    }

    /// The note that `ours` and `others` gave identical values on every seed, with the claim's
    /// reason why they can.
    fn identical_note(&self, ours: &str, others: &str) -> String {
        format!(
            "{} and {others} gave identical {} on every seed: {}.",
            name(ours),
            self.metric,
            self.identical
        )
    }

    fn finish(&self, mut row: HeadlineRow) -> HeadlineRow {
        if row.paper.is_empty() {
            row.paper = self.paper.unwrap_or("").to_string();
        }
        if row.test.is_empty() {
            row.test = "an algorithm this claim compares did not run".into();
        }
        row.verdict_text = row.verdict.words(row.n);
        row
    }
}

/// The verdict of a claim that must hold in every part: not reproduced if any part is not,
/// reproduced if every part is, otherwise not distinguishable.
fn combine(parts: &[Verdict]) -> Verdict {
    if parts.is_empty() {
        Verdict::NotRun
    } else if parts.contains(&Verdict::NotReproduced) {
        Verdict::NotReproduced
    } else if parts.iter().all(|v| *v == Verdict::Reproduced) {
        Verdict::Reproduced
    } else if parts.contains(&Verdict::NotRun) {
        Verdict::NotRun
    } else {
        Verdict::NotDistinguishable
    }
}

/// The headline table of a run of `spec` with these `claims` (its preset's,
/// [`super::claims::claims`]), from its units.
///
/// Only on the preset's own data: the paper's claims were measured on its datasets and their
/// arrival models, so a run on the reader's files (or a built-in under another arrival model) has
/// no headline.
pub fn evaluate(spec: &ExperimentSpec, units: &[UnitResult], claims: &[Claim]) -> Option<Headline> {
    if matches!(spec.dataset, super::DatasetId::Spec(_)) {
        return None;
    }
    Some(Headline {
        preset: spec.id.clone(),
        interval: INTERVAL.into(),
        rows: claims.iter().map(|c| c.row(units)).collect(),
    })
}

impl Headline {
    /// The table as plain text (the CLI summary and docs/REPRODUCTION.md).
    pub fn to_text(&self) -> String {
        let mut out = format!("\nHeadline claims of the paper ({}; ± = {})\n", self.preset, self.interval);
        out.push_str(&format!("{:<58}{:>12}{:>28}  {}\n", "claim", "paper", "measured", "verdict (n)"));
        for r in &self.rows {
            out.push_str(&format!(
                "{:<58}{:>12}{:>28}  {} (n = {})\n",
                r.what, r.paper, r.measured_text, r.verdict_text, r.n
            ));
            if let Some(i) = &r.identical {
                out.push_str(&format!("    note: {i}\n"));
            }
        }
        out
    }
}
