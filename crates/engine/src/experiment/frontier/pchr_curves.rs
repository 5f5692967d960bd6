//! P-CHR computed from a frontier's report ([`super::pchr`] holds its types and the AUC): each
//! family's curve per seed, the common hit-ratio range, and the chart data (`<out>.pchr.csv`).

use super::pchr::{auc, Pchr, PchrFamily, PchrPoint, PCHR_METHOD};
use super::point::FRONTIER_METRICS;
use crate::experiment::stats::aggregate::zero_width;
use crate::experiment::stats::{decimals_for, fixed, significant, Interval};
use crate::experiment::{Measure, Report};
use std::collections::BTreeMap;

/// One point of a P-CHR curve as [`Report::pchr`] gathers it: the experiment point, the
/// parameter's value, each seed's (hit ratio, hit precision) where it had a hit, and every seed's
/// hit ratio.
type Curve = (usize, f64, BTreeMap<u64, (f64, f64)>, Vec<f64>);

/// The smallest and largest of `xs` (non-empty).
fn span(xs: &[f64]) -> (f64, f64) {
    xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)))
}

/// A swept family's span of hit ratios on every seed: its low end and the seed that sets it, its
/// high end and the seed that sets it.
type SeedSpan = ((f64, u64), (f64, u64));

/// The hit ratios a swept family's points span on every seed: `[max_s min, min_s max]` over the
/// seeds' (hit ratio, precision) points, each end with the seed that sets it; `None` when that is
/// empty.
fn every_seed_span(pts: &[Curve]) -> Option<SeedSpan> {
    let seeds: std::collections::BTreeSet<u64> = pts.iter().flat_map(|p| p.2.keys().copied()).collect();
    let (mut lo, mut hi) = ((f64::NEG_INFINITY, 0), (f64::INFINITY, 0));
    for s in seeds {
        let xs: Vec<f64> = pts.iter().filter_map(|p| p.2.get(&s).map(|v| v.0)).collect();
        let (a, b) = span(&xs);
        if a > lo.0 {
            lo = (a, s);
        }
        if b < hi.0 {
            hi = (b, s);
        }
    }
    (lo.0.is_finite() && hi.0.is_finite() && lo.0 <= hi.0).then_some((lo, hi))
}

/// P-CHR's common hit-ratio range ([`crate::experiment::frontier::pchr`]) from the swept families' spans (`None`: not
/// swept, or no hit): the range `[lo, hi]`, `lo < hi`, that the most families span, the widest
/// among those, then the lowest; its ends are among the spans' ends. `None` when no two ends of
/// the spans make a range of positive width that any family spans. Written out, with its reason
/// and its width, in `SPEC-NOTES#p-chr-the-common-hit-ratio-range`.
pub fn common_range(spans: &[Option<(f64, f64)>]) -> Option<(f64, f64)> {
    let spans: Vec<(f64, f64)> = spans.iter().flatten().copied().collect();
    let mut best: Option<(usize, f64, f64)> = None;
    for &(lo, _) in &spans {
        for &(_, hi) in &spans {
            if lo >= hi {
                continue;
            }
            let n = spans.iter().filter(|(a, b)| *a <= lo && *b >= hi).count();
            let better = match best {
                None => n > 0,
                Some((bn, blo, bhi)) => {
                    n > bn || (n == bn && (hi - lo > bhi - blo || (hi - lo == bhi - blo && lo < blo)))
                }
            };
            if better {
                best = Some((n, lo, hi));
            }
        }
    }
    best.map(|(_, lo, hi)| (lo, hi))
}

/// Hit ratios in words, at the precision the range's width needs (at least 3 decimals).
fn ratios(lo: f64, hi: f64) -> (String, String) {
    let d = decimals_for(hi - lo).max(3);
    (fixed(lo, d), fixed(hi, d))
}

/// Names joined as a sentence does: `A`, `A and B`, `A, B and C`.
fn joined(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The title's words for the common range, and why it is what it is: the families that span it
/// on every seed, which family's seed sets each end (a seed's curve is never extrapolated), and
/// where their mean curves overlap when that is wider (the chart draws the means, so a reader
/// sees the wider overlap).
fn range_words(
    range: Option<(f64, f64)>,
    families: &[PchrFamily],
    spans: &[Option<SeedSpan>],
) -> (String, Option<String>) {
    let Some((lo, hi)) = range else {
        return ("the families share no hit-ratio range (no AUC)".into(), None);
    };
    let (l, h) = ratios(lo, hi);
    let title = format!("AUC over hit ratios [{l}, {h}]");
    let inside: Vec<(&PchrFamily, SeedSpan)> = families
        .iter()
        .zip(spans)
        .filter_map(|(f, s)| s.filter(|(a, b)| a.0 <= lo && b.0 >= hi).map(|s| (f, s)))
        .collect();
    let Some(low) = inside.iter().find(|(_, (a, _))| a.0 == lo) else { return (title, None) };
    let Some(high) = inside.iter().find(|(_, (_, b))| b.0 == hi) else { return (title, None) };
    let names: Vec<&str> = inside.iter().map(|(f, _)| f.name.as_str()).collect();
    let span_verb = if names.len() == 1 { "spans" } else { "each span" };
    // Where the drawn (mean) curves overlap: each family's points' mean hit ratios.
    let mut overlap = (f64::NEG_INFINITY, f64::INFINITY);
    for (f, _) in &inside {
        let xs: Vec<f64> =
            f.points.iter().filter(|p| p.precision.mean.is_finite()).map(|p| p.hit_ratio.mean).collect();
        let (a, b) = span(&xs);
        overlap = (overlap.0.max(a), overlap.1.min(b));
    }
    let wider = if overlap.0.is_finite() && overlap.1.is_finite() && (overlap.0 < lo || overlap.1 > hi) {
        let (a, b) = ratios(overlap.0, overlap.1);
        let whose = if names.len() == 1 { "its mean curve spans" } else { "their mean curves overlap over" };
        format!(" It is narrower than the chart suggests: {whose} [{a}, {b}], but a seed's curve is never extrapolated.")
    } else {
        String::new()
    };
    let note = format!(
        "The AUC's range [{l}, {h}] is the hit ratios that {} {span_verb} on every seed: it starts \
         where {}'s curve starts on seed {} and ends where {}'s ends on seed {}.{wider} Each AUC is about \
         the range's width ({}) times the mean hit precision over it; the legend gives both.",
        joined(&names),
        low.0.name,
        (low.1).0 .1,
        high.0.name,
        (high.1).1 .1,
        fixed(hi - lo, decimals_for(hi - lo).max(3)),
    );
    (title, Some(note))
}

/// A family's AUC in words for the legend: the AUC at its interval's precision and the mean hit
/// precision over the range (AUC ÷ the range's width), or "identical on every seed" where every
/// seed gives the same area; "no AUC" where the family has a note instead; `None` for a single
/// policy.
fn auc_words(f: &PchrFamily, range: Option<(f64, f64)>) -> Option<String> {
    f.param.as_ref()?;
    let (Some(a), Some((lo, hi))) = (f.auc, range) else { return Some("no AUC".into()) };
    let w = hi - lo;
    let per = |i: &Interval| Interval { mean: i.mean / w, lo: i.lo / w, hi: i.hi / w, n: i.n };
    if a.n >= 2 && zero_width(a.mean, a.half()) {
        return Some(format!(
            "AUC {}, identical on every seed (mean hit precision {} over the range)",
            significant(a.mean, 4),
            significant(a.mean / w, 4)
        ));
    }
    Some(format!("AUC {}, mean hit precision {} over the range", a.words(""), per(&a).words("")))
}

impl Report {
    /// A frontier's P-CHR ([`crate::experiment::frontier::pchr`]; arXiv 2606.19719): each family's hit precision
    /// against its cache-hit ratio, point by point over seeds, and each swept family's AUC over
    /// the common hit-ratio range; `None` for other experiments or without ground truth (no
    /// error rate).
    pub fn pchr(&self) -> Option<Pchr> {
        let Measure::Frontier { families } = &self.experiment.measure else { return None };
        let (hit, err) = (FRONTIER_METRICS[2].0, FRONTIER_METRICS[1].0);
        // Per family: per point, its index, value and per-seed (hit ratio, precision).
        // (Every seed's hit ratio too: a seed without a hit has a hit ratio, 0, but no precision.)
        let mut curves: Vec<Vec<Curve>> = Vec::new();
        for (start, f) in self.experiment.frontier_families() {
            let mut pts = Vec::new();
            for i in 0..f.points() {
                let point = start + i;
                let x = f.x(i);
                let (h, e) = (self.per_seed(point, hit), self.per_seed(point, err));
                let seeds = crate::order::map_of(
                    h.iter()
                        .filter(|(_, h)| **h > 0.0)
                        .filter_map(|(s, h)| Some((*s, (*h, 1.0 - e.get(s)? / h)))),
                );
                pts.push((point, x, seeds, h.values().copied().collect::<Vec<f64>>()));
            }
            curves.push(pts);
        }
        if curves.iter().flatten().all(|(_, _, s, _)| s.is_empty()) {
            return None;
        }
        let unit = |v: Vec<f64>| {
            let i = Interval::of(&v);
            Interval::clipped(i.n, i.mean, i.half(), (0.0, 1.0))
        };
        // Each swept family's span on every seed, then the common range (`common_range`).
        let mut spans: Vec<Option<SeedSpan>> = Vec::new();
        let mut out = Vec::new();
        for (f, pts) in families.iter().zip(&curves) {
            let points: Vec<PchrPoint> = pts
                .iter()
                .map(|(point, x, s, h)| PchrPoint {
                    point: *point,
                    x: *x,
                    hit_ratio: unit(h.clone()),
                    precision: unit(s.values().map(|v| v.1).collect()),
                })
                .collect();
            spans.push(if f.param.is_some() { every_seed_span(pts) } else { None });
            out.push(PchrFamily {
                key: f.key(),
                name: f.name(),
                param: f.param.clone(),
                points,
                auc: None,
                note: None,
                words: None,
            });
        }
        let plain: Vec<Option<(f64, f64)>> = spans.iter().map(|s| s.map(|(a, b)| (a.0, b.0))).collect();
        let range = common_range(&plain);
        for (((f, pts), fam), sp) in families.iter().zip(&curves).zip(&mut out).zip(&plain) {
            if f.param.is_none() {
                continue;
            }
            let Some((lo, hi)) = range else {
                fam.note = Some("the swept families share no range of hit ratios: no AUC".into());
                continue;
            };
            match sp {
                Some((a, b)) if *a <= lo && *b >= hi => {}
                Some((a, b)) => {
                    fam.note = Some(format!(
                        "on every seed its points span hit ratios [{a:.4}, {b:.4}], not the common range \
                         [{lo:.4}, {hi:.4}]: no AUC (not extrapolated)"
                    ));
                    continue;
                }
                None => {
                    fam.note = Some(
                        "no range of hit ratios is spanned on every seed (or no seed has a hit): no AUC"
                            .into(),
                    );
                    continue;
                }
            }
            let seeds: std::collections::BTreeSet<u64> =
                pts.iter().flat_map(|p| p.2.keys().copied()).collect();
            let mut areas = Vec::new();
            let mut short = Vec::new();
            for s in seeds {
                let curve: Vec<(f64, f64)> = pts.iter().filter_map(|p| p.2.get(&s).copied()).collect();
                match auc(&curve, lo, hi) {
                    Some(a) => areas.push(a),
                    None => {
                        let (a, b) = span(&curve.iter().map(|p| p.0).collect::<Vec<_>>());
                        short.push(format!("seed {s} spans [{a:.4}, {b:.4}]"));
                    }
                }
            }
            if short.is_empty() {
                fam.auc = Some(Interval::of(&areas));
            } else {
                fam.note = Some(format!(
                    "its points do not span the common hit-ratio range [{lo:.4}, {hi:.4}] on every seed ({}): \
                     no AUC (not extrapolated)",
                    short.join("; ")
                ));
            }
        }
        let (range_words, range_note) = range_words(range, &out, &spans);
        for fam in &mut out {
            fam.words = auc_words(fam, range);
        }
        Some(Pchr {
            range: range.map(|(a, b)| [a, b]),
            range_words,
            range_note,
            families: out,
            method: PCHR_METHOD.into(),
        })
    }

    /// The P-CHR chart data (`<out>.pchr.csv`): a row per point, `family,algorithm_id,param,x,point,`
    /// then `n,mean,lo,hi` of the hit ratio and of the hit precision, then the family's
    /// `auc,auc_ci95,auc_lo,auc_hi` over the common range `range_lo,range_hi` (empty where there is
    /// none) and its note; `None` for other experiments or without ground truth.
    pub fn pchr_csv(&self) -> Option<String> {
        let p = self.pchr()?;
        let num = |v: f64| if v.is_finite() { v.to_string() } else { String::new() };
        let mut s =
            String::from("family,algorithm_id,param,x,point,hit_ratio_n,hit_ratio,hit_ratio_lo,hit_ratio_hi");
        s.push_str(",precision_n,precision,precision_lo,precision_hi,auc_n,auc,auc_ci95,auc_lo,auc_hi,range_lo,range_hi,note\n");
        let (rlo, rhi) = p.range.map_or((f64::NAN, f64::NAN), |[a, b]| (a, b));
        let Measure::Frontier { families } = &self.experiment.measure else { return None };
        for (f, fam) in families.iter().zip(&p.families) {
            for pt in &fam.points {
                let (h, q) = (&pt.hit_ratio, &pt.precision);
                s.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    fam.key,
                    f.policy.info().id,
                    fam.param.as_deref().unwrap_or(""),
                    num(pt.x),
                    pt.point,
                    h.n,
                    num(h.mean),
                    num(h.lo),
                    num(h.hi),
                    q.n,
                    num(q.mean),
                    num(q.lo),
                    num(q.hi)
                ));
                match &fam.auc {
                    Some(a) => s.push_str(&format!(
                        ",{},{},{},{},{}",
                        a.n,
                        num(a.mean),
                        num(a.half()),
                        num(a.lo),
                        num(a.hi)
                    )),
                    None => s.push_str(",,,,,"),
                }
                let note = fam.note.as_deref().unwrap_or("").replace('"', "'");
                let note = if note.is_empty() { note } else { format!("\"{note}\"") };
                s.push_str(&format!(",{},{},{note}\n", num(rlo), num(rhi)));
            }
        }
        Some(s)
    }
}
