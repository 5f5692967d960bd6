//! A claim judged against a run: per-seed values, the paired interval, and the typed outcome of
//! its stated test (direction and magnitude; the rules are in [`super`]'s map).

use super::claim::*;
use super::verdict::*;
use crate::algorithms::name_of;
use crate::config::Params;
use crate::experiment::stats::Interval;
use crate::experiment::Metric;
use crate::experiment::UnitResult;
use std::collections::BTreeMap;

/// An algorithm's display name ([`crate::algorithms::name_of`]), or a series' own name.
pub(super) fn name(id: &str) -> String {
    name_of(id).unwrap_or(id).to_string()
}

/// Per-seed values of (algorithm, metric) at each x: `x bits → seed → value`. Observations are
/// keyed by algorithm id (reports written with display names are read back by id,
/// [`crate::experiment::run::observation`]).
pub(super) type Values = BTreeMap<u64, BTreeMap<u64, f64>>;

pub(super) fn values(units: &[UnitResult], id: &str, metric: &str) -> Values {
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
pub(super) fn algorithms_of(units: &[UnitResult], metric: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for o in units.iter().flat_map(|u| &u.observations) {
        if o.metric == metric && !out.contains(&o.algorithm) {
            out.push(o.algorithm.clone());
        }
    }
    out
}

/// The largest x key of a series.
pub(super) fn final_x(v: &Values) -> Option<u64> {
    v.keys().copied().max_by(|a, b| f64::from_bits(*a).total_cmp(&f64::from_bits(*b)))
}

/// The x keys a claim reads.
pub(super) fn xs_of(v: &Values, at: At) -> Vec<u64> {
    match at {
        At::Final => final_x(v).into_iter().collect(),
        At::X(x) => v.contains_key(&x.to_bits()).then_some(x.to_bits()).into_iter().collect(),
        At::Every => v.keys().copied().collect(),
    }
}

/// Mean and 95% Student-t half-width of a sample (NaN half-width for n < 2), as every
/// statistic of a report ([`crate::experiment::stats::mean_std_ci95`]).
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
pub(super) fn paired(a: &BTreeMap<u64, f64>, b: &BTreeMap<u64, f64>) -> Vec<(f64, f64)> {
    a.iter().filter_map(|(s, &va)| b.get(s).map(|&vb| (va, vb))).collect()
}

pub(super) fn identical(pairs: &[(f64, f64)]) -> bool {
    !pairs.is_empty() && pairs.iter().all(|(a, b)| a.to_bits() == b.to_bits())
}

/// Whether `ours` served no request from its cache on any seed (its final hit rate is 0
/// everywhere it was recorded).
pub(super) fn never_hits(units: &[UnitResult], ours: &str) -> bool {
    let v = values(units, ours, Metric::HitRate.final_id());
    final_x(&v).is_some_and(|x| v[&x].values().all(|h| *h == 0.0))
}

/// The outcome of a judged claim whose direction was read from `difference`.
pub(super) fn judged(
    direction_of: Option<&Interval>,
    magnitude: Magnitude,
    zero_hit_winner: bool,
) -> Outcome {
    let direction = direction_of.map(direction);
    Outcome::Judged {
        direction,
        difference: direction_of.copied(),
        magnitude,
        never_hits: zero_hit_winner && direction == Some(Direction::Holds),
    }
}

/// " at k = 20": where a value of the sweep was read, by the swept parameter's symbol (`axis`,
/// [`crate::config::symbol_of`]), or " at x = 20" without one.
pub fn at_x(axis: Option<&str>, x: f64) -> String {
    format!(" at {} = {}", axis.unwrap_or("x"), crate::experiment::stats::num(x))
}

/// Evaluation: one claim on a run's units, at the settings `params` that ran; `axis`: the swept
/// parameter's symbol, which names the x of a pair read at several.
pub fn judge(claim: &Claim, units: &[UnitResult], params: &Params, axis: Option<&str>) -> Evaluation {
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
        versus: None,
    };
    let same = |with: Vec<String>| Outcome::Identical {
        with,
        reason: claim.identical.and_then(|i| i.reason(params)).map(str::to_string),
    };
    match claim.comparison {
        Comparison::Value { ours } | Comparison::Measured { ours } | Comparison::Calibrated { ours } => {
            let v = values(units, ours.id(), claim.metric);
            let Some(x) = xs_of(&v, claim.at).first().copied() else { return e };
            let m = Interval::of(&v[&x].values().copied().collect::<Vec<_>>());
            e.n = m.n;
            e.measured = Some(m);
            e.outcome = match claim.comparison {
                Comparison::Value { .. } => judged(None, magnitude(claim.paper, &m), false),
                Comparison::Calibrated { .. } => {
                    Outcome::Calibrated { magnitude: magnitude(claim.paper, &m) }
                }
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
                    // Against whom, and at which x when the claim reads several.
                    let who = if xs.len() > 1 {
                        format!("{}{}", name(o), at_x(axis, f64::from_bits(*x)))
                    } else {
                        name(o)
                    };
                    // The closest competitor: the lowest lower bound of (other − ours).
                    if closest.is_none_or(|c| diff.lo.total_cmp(&c.lo).is_lt() || !c.lo.is_finite()) {
                        closest = Some(diff);
                        e.versus = Some(who.clone());
                    }
                    e.pairs.push((who, diff));
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

/// The lead of a table: the winner of its first "lowest" claim, at the x that claim reads (its
/// last, for a claim read at every x; named by `axis` in a sweep), with its hit rate and realised
/// cost where the run records them.
pub(super) fn lead(claims: &[Claim], units: &[UnitResult], axis: Option<&str>) -> Option<Lead> {
    let c = claims.iter().find(|c| matches!(c.comparison, Comparison::Lowest { .. }))?;
    let mut best: Option<(String, Interval)> = None;
    let mut read_at: Option<f64> = None;
    for id in algorithms_of(units, c.metric).into_iter().filter(|a| a != "oracle") {
        let v = values(units, &id, c.metric);
        let Some(x) = xs_of(&v, c.at).last().copied() else { continue };
        read_at = Some(f64::from_bits(x));
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
    let (hit_rate, realised_cost) =
        (at_final(Metric::HitRate.final_id()), at_final(Metric::AvgRealisedCost.final_id()));
    let never = never_hits(units, &algorithm);
    let w = |i: &Interval| i.words(Unit::Plain.suffix());
    let what = crate::experiment::definition::metrics::metric(c.metric).map_or(c.metric, |m| m.name);
    // In a sweep, the x the lead is read at (a run without a sweep has one x: its last round).
    let at = match (axis, read_at) {
        (Some(_), Some(x)) => at_x(axis, x),
        _ => String::new(),
    };
    let mut text = format!("Lowest {what}{at}: {} ({})", name(&algorithm), w(&value));
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
