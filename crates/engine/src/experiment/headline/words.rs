//! A verdict in words: each outcome's sentence, a claim's row (the paper's number and the test
//! stated), and a run's table as text.

use super::claim::*;
use super::judge::*;
use super::verdict::*;
use crate::config::Params;
use crate::experiment::stats::{decimals_for, decimals_keeping_sign, fixed, format_interval};
use crate::experiment::stats::{Interval, INTERVAL};
use crate::experiment::Metric;
use crate::experiment::{ExperimentSpec, UnitResult};

/// Bounds `[lo, hi]` at the precision of their half-width, more where an end would otherwise
/// show as zero ([`decimals_keeping_sign`]: the verdicts beside them read whether they exclude it).
pub(super) fn bounds(i: &Interval) -> String {
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
        Outcome::Calibrated { magnitude } => format!(
            "calibrated, not reproduced: the run is set to give the paper's {printed}; {measured} {}",
            if *magnitude == Magnitude::Matches { "holds it" } else { "does not hold it" }
        ),
        Outcome::Identical { with, reason } => match reason {
            Some(r) => format!("identical on every seed (with {}): {r}", with.join(", ")),
            None => format!("identical on every seed (with {})", with.join(", ")),
        },
        Outcome::Judged { direction, difference, magnitude, never_hits } => {
            let verdict = e.outcome.verdict();
            // The competitor (and x) the direction's interval was read against, when it is one of
            // several pairs.
            let versus = e.versus.as_ref().map_or_else(String::new, |v| format!(" against {v}"));
            let mut s = match (verdict, direction) {
                (Verdict::Reproduced, Some(_)) => {
                    format!("reproduced: direction holds, {}", size(*magnitude))
                }
                (Verdict::Reproduced, None) => {
                    format!("reproduced: {measured} matches the paper's {printed}")
                }
                (Verdict::NeverServes, _) => {
                    format!("not a caching win: direction holds, {}", size(*magnitude))
                }
                (Verdict::Differs, Some(_)) => format!("direction holds; {}", size(*magnitude)),
                (Verdict::Differs, None) => size(*magnitude),
                (Verdict::NotReproduced, _) => format!(
                    "not reproduced: direction fails{versus}, paired interval {}",
                    difference.as_ref().map_or_else(String::new, bounds)
                ),
                (Verdict::Undecided, Some(Direction::Undecided)) => format!(
                    "undecided at n = {}: paired interval{versus} {} includes 0",
                    e.n,
                    difference.as_ref().map_or_else(String::new, bounds)
                ),
                (Verdict::Measured, _) => "measured: the paper states no number to compare".into(),
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

impl Claim {
    /// The row: the evaluation in words.
    pub(super) fn row(&self, units: &[UnitResult], params: &Params, axis: Option<&str>) -> HeadlineRow {
        let e = judge(self, units, params, axis);
        let (paper, test) = self.stated(&e, axis);
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
    fn stated(&self, e: &Evaluation, axis: Option<&str>) -> (String, String) {
        if e.outcome == Outcome::NotRun {
            return (
                self.paper.unwrap_or("").to_string(),
                "an algorithm this claim compares did not run".into(),
            );
        }
        // Where the value is read (" at n = 1,000", by the swept parameter's symbol: at_x); a
        // final or runtime metric has no x.
        let of = match e.x {
            Some(x) if !self.metric.starts_with("final_") && self.metric != Metric::RuntimeMs.id() => {
                at_x(axis, x)
            }
            _ => String::new(),
        };
        let pairs =
            || e.pairs.iter().map(|(who, i)| format!("{who} {}", bounds(i))).collect::<Vec<_>>().join("; ");
        let against =
            |printed: &str| format!("; the paper's {printed} (± half its last digit) matches if inside");
        match self.comparison {
            Comparison::Value { ours } | Comparison::Calibrated { ours } => {
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
                let p = self.paper.map_or("no ratio stated".into(), |p| format!("{p}×"));
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

/// The headline table of a run of `spec` with these `claims` (its figure's,
/// [`crate::experiment::definition::presets::claims`]), from its units.
///
/// Only on the figure's own data: the paper's claims were measured on its datasets and their
/// arrival models, so a run on the reader's files (or a built-in under another arrival model) has
/// no headline.
pub fn evaluate(spec: &ExperimentSpec, units: &[UnitResult], claims: &[Claim]) -> Option<Headline> {
    if matches!(spec.dataset, crate::experiment::DatasetId::Spec(_)) {
        return None;
    }
    let axis = spec.sweep.as_ref().map(|s| crate::config::symbol_of(&s.param));
    Some(Headline {
        preset: spec.id.clone(),
        interval: INTERVAL.into(),
        lead: lead(claims, units, axis),
        rows: claims.iter().map(|c| c.row(units, &spec.params, axis)).collect(),
    })
}
