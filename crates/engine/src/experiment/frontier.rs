//! The frontier experiment's table and chart data (issue 24), and what decides between its points
//! (issue 33, item 3): one row per point of every family — the policy, its parameter value, and
//! the final realised cost, error rate (SPEC §14), hit rate and average regret, each as mean and
//! 95% interval over seeds — and every point's *paired* difference against a reference point in
//! realised cost and in error rate.
//!
//! Every unit of a frontier runs on the seeds `first_seed …` (SPEC §10), so point `p` and the
//! reference `r` share their arrival streams seed by seed. The paired difference is
//! `d_s = v_p(s) − v_r(s)` over the shared seeds `s`, summarised as SPEC §10 summarises a
//! sample: the mean and the 95% Student-t half-width `t_{0.975, n−1}·sd(d)/√n`
//! ([`super::stats::mean_std_ci95`]). It removes the variation the seeds cause in both, so it
//! decides where the unpaired intervals overlap. Words, from [`Difference::words`]: an interval
//! wholly below 0 is "cheaper" / "fewer wrong answers", wholly above "dearer" / "more wrong
//! answers", one that holds 0 "not distinguishable", and a difference of exactly 0 on every seed
//! "identical on every seed" (no number of seeds would separate them).

pub use super::definitions::{frontier_title, SYNTHETIC_FRONTIER_K};
pub use super::paired::{Difference, FrontierComparison, FrontierRow, Paired};
pub use super::pchr::{auc, Pchr, PchrFamily, PchrPoint, PCHR_METHOD};
use super::stats::{format_difference, Interval};
use super::{ExperimentSpec, Family, Measure, Report, Stat};
use crate::config::GPTCACHE_COSINE;
use crate::online::PolicyKind;
use std::collections::BTreeMap;

/// The metrics of a frontier point, in column order: (metric, column heading).
pub const FRONTIER_METRICS: [(&str, &str); 4] = [
    ("final_avg_realised_cost", "realised cost"),
    ("final_error_rate", "error rate"),
    ("final_hit_rate", "hit rate"),
    ("final_avg_regret", "avg regret"),
];

/// The range each of [`FRONTIER_METRICS`] can take, to which its drawn interval is clipped: a
/// realised cost per round is a mean of `c(x) ∈ (0, 1]` and `φ ≥ 0` (eq. (1), SPEC §2), the error
/// and hit rates are shares of requests (SPEC §14), and average regret may be negative (the
/// oracle's cache is Reverse Greedy's, not the optimum; SPEC-NOTES#online-spec-9).
pub const FRONTIER_RANGES: [(f64, f64); 4] =
    [(0.0, f64::INFINITY), (0.0, 1.0), (0.0, 1.0), (f64::NEG_INFINITY, f64::INFINITY)];

/// How the frontier's intervals are made, in words (the page and the CLI say it).
pub const FRONTIER_METHOD: &str = "Each point: mean over seeds with its 95% Student-t interval \
    (SPEC §10), clipped to the quantity's range (error and hit rate to [0, 1], realised cost to \
    ≥ 0). Against the reference: the paired difference over the seeds both ran (the runs share \
    seeds, so seed-to-seed variation cancels), mean with its paired 95% Student-t interval; it \
    decides when that interval excludes 0.";

/// One point of a frontier: its family, the parameter's value (NaN for a single point) and the
/// statistics of [`FRONTIER_METRICS`] (`None` where not measured, e.g. no ground truth).
pub struct FrontierPoint<'a> {
    pub family: &'a Family,
    pub x: f64,
    pub stats: Vec<Option<&'a Stat>>,
}

/// A family's configuration at value `x` in words: `Threshold, threshold_tau = 0.3`.
pub fn config_of(family: &Family, x: f64) -> String {
    match (&family.param, x.is_finite()) {
        (Some(name), true) => format!("{}, {name} = {x}", family.name()),
        _ => family.name(),
    }
}

/// The default reference of a frontier: the threshold cache at GPTCache's defaults
/// (`threshold_cosine` = [`GPTCACHE_COSINE`], the preset of `frontier`), the point production
/// caches ship with; else the first point.
pub fn default_reference(spec: &ExperimentSpec) -> usize {
    let Measure::Frontier { families } = &spec.measure else { return 0 };
    let mut point = 0;
    for f in families {
        let gptcache = f.policy == PolicyKind::Threshold
            && f.param.is_none()
            && f.set.get("threshold_cosine").and_then(|v| v.as_f64()) == Some(GPTCACHE_COSINE);
        if gptcache {
            return point;
        }
        point += f.points();
    }
    0
}

impl ExperimentSpec {
    /// Re-titles a frontier from its settings ([`frontier_title`]) after a change of its
    /// parameters or seeds (`csc run frontier --set horizon=1000`); other experiments keep
    /// their titles.
    pub fn retitle_frontier(&mut self, dataset: &str) {
        if matches!(self.measure, Measure::Frontier { .. }) {
            self.title = frontier_title(dataset, &self.params, self.seeds);
        }
    }
}

/// One point of a P-CHR curve as [`Report::pchr`] gathers it: the experiment point, the
/// parameter's value, each seed's (hit ratio, hit precision) where it had a hit, and every seed's
/// hit ratio.
type Curve = (usize, f64, BTreeMap<u64, (f64, f64)>, Vec<f64>);

/// The smallest and largest of `xs` (non-empty).
fn span(xs: &[f64]) -> (f64, f64) {
    xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)))
}

/// The hit ratios a swept family's points span on every seed: `[max_s min, min_s max]` over the
/// seeds' (hit ratio, precision) points; `None` when that is empty.
fn every_seed_span(pts: &[Curve]) -> Option<(f64, f64)> {
    let seeds: std::collections::BTreeSet<u64> = pts.iter().flat_map(|p| p.2.keys().copied()).collect();
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for s in seeds {
        let xs: Vec<f64> = pts.iter().filter_map(|p| p.2.get(&s).map(|v| v.0)).collect();
        let (a, b) = span(&xs);
        (lo, hi) = (lo.max(a), hi.min(b));
    }
    (lo.is_finite() && hi.is_finite() && lo <= hi).then_some((lo, hi))
}

/// P-CHR's common hit-ratio range ([`super::pchr`]) from the swept families' spans (`None`: not
/// swept, or no hit): the range `[lo, hi]`, `lo < hi`, that the most families span, the widest
/// among those, then the lowest; its ends are among the spans' ends. `None` when no two ends of
/// the spans make a range of positive width that any family spans.
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

impl Report {
    /// The points of a frontier experiment, families in order and values ascending.
    pub fn frontier_points(&self) -> Vec<FrontierPoint<'_>> {
        let Measure::Frontier { families } = &self.experiment.measure else { return Vec::new() };
        let mut out = Vec::new();
        for f in families {
            let name = f.key();
            let mut xs: Vec<f64> = self
                .stats
                .iter()
                .filter(|s| s.algorithm == name && s.metric == "final_avg_regret")
                .map(|s| s.x)
                .collect();
            xs.sort_by(f64::total_cmp);
            for x in xs {
                let stats = FRONTIER_METRICS
                    .iter()
                    .map(|(m, _)| {
                        self.stats
                            .iter()
                            .find(|s| s.algorithm == name && s.metric == *m && s.x.total_cmp(&x).is_eq())
                    })
                    .collect();
                out.push(FrontierPoint { family: f, x, stats });
            }
        }
        out
    }

    /// The value of `metric` on every seed of experiment point `point`, by seed.
    pub(super) fn per_seed(&self, point: usize, metric: &str) -> BTreeMap<u64, f64> {
        crate::order::map_of(self.units.iter().filter(|u| u.unit.point == point).filter_map(|u| {
            let v = u.value(metric)?;
            v.is_finite().then_some((u.unit.seed, v))
        }))
    }

    /// Point `point`'s paired difference in `metric` against point `reference` over the seeds
    /// both ran (`None` when either lacks the metric).
    pub fn paired_difference(
        &self,
        point: usize,
        reference: usize,
        metric: &str,
        cost: bool,
    ) -> Option<Paired> {
        let (a, b) = (self.per_seed(point, metric), self.per_seed(reference, metric));
        if a.is_empty() || b.is_empty() {
            return None;
        }
        let d: Vec<f64> = a.iter().filter_map(|(s, v)| b.get(s).map(|r| v - r)).collect();
        let (difference, mean, ci95) =
            if point == reference { (Difference::Reference, 0.0, 0.0) } else { Difference::of(&d) };
        Some(Paired { n: d.len(), mean, ci95, difference, words: difference.words(cost).into() })
    }

    /// The experiment point of every frontier point, in [`Report::frontier_points`]' order.
    fn point_index(&self, p: &FrontierPoint<'_>) -> Option<usize> {
        let families = self.experiment.frontier_families();
        let (start, f) = families.into_iter().find(|(_, f)| std::ptr::eq(*f, p.family))?;
        let i = match &f.param {
            None => 0,
            Some(_) => f.values.iter().position(|v| v.as_f64().is_some_and(|v| v.total_cmp(&p.x).is_eq()))?,
        };
        Some(start + i)
    }

    /// Every point compared with point `reference` (an experiment point of this frontier;
    /// `None` for another experiment or a point it does not have).
    pub fn frontier_comparison(&self, reference: usize) -> Option<FrontierComparison> {
        let (rf, ri) = self.experiment.family_of(reference)?;
        let rx = rf.x(ri);
        let mut rows = Vec::new();
        for p in self.frontier_points() {
            let Some(point) = self.point_index(&p) else { continue };
            let intervals = p
                .stats
                .iter()
                .zip(FRONTIER_RANGES)
                .map(|(s, range)| s.map(|s| Interval::clipped(s.n, s.mean, s.ci95, range)))
                .collect();
            rows.push(FrontierRow {
                point,
                config: config_of(p.family, p.x),
                intervals,
                cost: self.paired_difference(point, reference, FRONTIER_METRICS[0].0, true),
                error: self.paired_difference(point, reference, FRONTIER_METRICS[1].0, false),
            });
        }
        let reference_config = config_of(rf, rx);
        let decided = rows.iter().any(|r| {
            r.cost.as_ref().is_some_and(|c| c.difference.decided())
                || r.error.as_ref().is_some_and(|e| e.difference.decided())
        });
        let seeds = rows.iter().filter_map(|r| r.cost.as_ref()).map(|c| c.n).max().unwrap_or(0);
        let undecided = (!decided && rows.len() > 1).then(|| {
            format!(
                "No point is distinguishable from {reference_config} in realised cost or in error rate: \
                 every paired 95% interval over the {seeds} shared seed{} holds 0.",
                if seeds == 1 { "" } else { "s" }
            )
        });
        Some(FrontierComparison {
            reference,
            reference_config,
            method: FRONTIER_METHOD.into(),
            rows,
            undecided,
            notes: self.flat_regret_notes(),
        })
    }

    /// The comparison against [`default_reference`], for a frontier report.
    pub fn default_frontier_comparison(&self) -> Option<FrontierComparison> {
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) || self.units.is_empty() {
            return None;
        }
        self.frontier_comparison(default_reference(&self.experiment))
    }

    /// Why a swept family's average regret reads the same at every value of its parameter
    /// (to the table's 4 decimals), where it does (issue 33, item 3). Regret (§5.1) prices the
    /// cache a policy *keeps*, `L(M_t) − L(M_orc)`, not the requests it serves. The threshold
    /// cache admits every miss and evicts the least recently used (SPEC §9): when it misses
    /// nearly every request at every τ (on nq-trivia 94–95%), what it keeps is nearly the `k` most
    /// recent requests whatever τ, so its regret hardly moves while τ changes which requests are
    /// served (hit rate, realised cost, error rate). The note gives the measured miss shares and,
    /// for scale, what an empty cache scores, `L(∅) − L(M_orc)` (each unit's `no_cache_loss`
    /// and `oracle_loss`). Other families get the general reason.
    pub fn flat_regret_notes(&self) -> Vec<String> {
        let Measure::Frontier { families } = &self.experiment.measure else { return Vec::new() };
        let points = self.frontier_points();
        let mut notes = Vec::new();
        let mut start = 0;
        for f in families {
            let range = start..start + f.points();
            start = range.end;
            let Some(param) = &f.param else { continue };
            let mine: Vec<&FrontierPoint<'_>> = points.iter().filter(|p| std::ptr::eq(p.family, f)).collect();
            let regrets: Vec<String> =
                mine.iter().filter_map(|p| p.stats[3].map(|s| format!("{:.4}", s.mean))).collect();
            if regrets.len() < 2 || regrets.iter().any(|r| *r != regrets[0]) {
                continue;
            }
            let mut gaps = Vec::new();
            for u in self.units.iter().filter(|u| range.contains(&u.unit.point)) {
                let get = |k: &str| u.detail.get(k).and_then(serde_json::Value::as_f64);
                if let (Some(none), Some(orc)) = (get("no_cache_loss"), get("oracle_loss")) {
                    gaps.push(none - orc);
                }
            }
            let empty = if gaps.is_empty() {
                String::new()
            } else {
                let gap = gaps.iter().sum::<f64>() / gaps.len() as f64;
                format!(" (An empty cache would score L(∅) − L(M_orc) = {gap:.4}.)")
            };
            let misses: Vec<f64> = mine.iter().filter_map(|p| p.stats[2].map(|s| 1.0 - s.mean)).collect();
            let (lo, hi) =
                misses.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), m| (a.min(*m), b.max(*m)));
            let (name, k, r) = (f.name(), self.experiment.params.k, &regrets[0]);
            let why = if f.policy == PolicyKind::Threshold && !misses.is_empty() && lo >= 0.5 {
                format!(
                    "this cache admits every miss and evicts the least recently used (SPEC §9), and it misses \
                     {:.1}–{:.1}% of requests at every {param}, so what it keeps is nearly the {k} most recent \
                     requests whatever {param}: {param} changes which requests are served from it (hit rate, \
                     realised cost, error rate), hardly the cache.",
                    100.0 * lo,
                    100.0 * hi
                )
            } else {
                format!("{param} changes which requests are served from the cache, not that cache's loss.")
            };
            notes.push(format!(
                "{name}'s average regret is {r} at every {param}: regret (§5.1) prices the cache a policy keeps, \
                 L(M_t) − L(M_orc), not the requests it serves; {why}{empty}"
            ));
        }
        notes
    }

    /// A frontier's P-CHR ([`super::pchr`]; arXiv 2606.19719): each family's hit precision
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
        // Each swept family's span of mean hit ratio, then the common range (`common_range`).
        let mut spans: Vec<Option<(f64, f64)>> = Vec::new();
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
            });
        }
        let range = common_range(&spans);
        for (((f, pts), fam), sp) in families.iter().zip(&curves).zip(&mut out).zip(&spans) {
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
        Some(Pchr { range: range.map(|(a, b)| [a, b]), families: out, method: PCHR_METHOD.into() })
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

    /// The chart data of a frontier: `algorithm,algorithm_id,param,x,n,` then `mean,ci95,lo,hi`
    /// of each of [`FRONTIER_METRICS`] (the interval clipped to its range; empty where not
    /// measured), then the reference's point and each point's paired difference against it in
    /// realised cost and error rate (`mean,ci95,words`); `None` for other experiments.
    pub fn frontier_csv(&self) -> Option<String> {
        if !matches!(self.experiment.measure, Measure::Frontier { .. }) {
            return None;
        }
        let mut s = String::from("algorithm,algorithm_id,param,x,n");
        for (m, _) in FRONTIER_METRICS {
            s.push_str(&format!(",{m},{m}_ci95,{m}_lo,{m}_hi"));
        }
        s.push_str(",reference_point,cost_vs_reference,cost_vs_reference_ci95,cost_verdict");
        s.push_str(",error_vs_reference,error_vs_reference_ci95,error_verdict\n");
        let cmp = self.default_frontier_comparison();
        let num = |v: f64| if v.is_finite() { v.to_string() } else { String::new() };
        for p in self.frontier_points() {
            let n = p.stats.iter().flatten().map(|s| s.n).max().unwrap_or(0);
            s.push_str(&format!(
                "{},{},{},{},{n}",
                p.family.key(),
                p.family.policy.info().id,
                p.family.param.as_deref().unwrap_or(""),
                num(p.x)
            ));
            for (st, range) in p.stats.iter().zip(FRONTIER_RANGES) {
                match st {
                    Some(st) => {
                        let i = Interval::clipped(st.n, st.mean, st.ci95, range);
                        s.push_str(&format!(",{},{},{},{}", num(st.mean), num(st.ci95), num(i.lo), num(i.hi)))
                    }
                    None => s.push_str(",,,,"),
                }
            }
            let row = self.point_index(&p).and_then(|i| cmp.as_ref()?.rows.iter().find(|r| r.point == i));
            s.push_str(&format!(",{}", cmp.as_ref().map_or(String::new(), |c| c.reference.to_string())));
            for d in [row.and_then(|r| r.cost.as_ref()), row.and_then(|r| r.error.as_ref())] {
                match d {
                    Some(d) => s.push_str(&format!(",{},{},{}", num(d.mean), num(d.ci95), d.words)),
                    None => s.push_str(",,,"),
                }
            }
            s.push('\n');
        }
        Some(s)
    }

    /// The frontier's table: a row per point, each metric's 95% interval clipped to its range (as
    /// in the page's table) and the paired differences against the default reference, both in
    /// the engine's words ([`Interval::words`], [`super::stats::format_difference`]); then the
    /// method, the undecided sentence and the notes.
    pub(super) fn frontier_table(&self) -> String {
        let cmp = self.default_frontier_comparison();
        let mut rows: Vec<Vec<String>> = vec![["algorithm", "parameter"]
            .into_iter()
            .chain(FRONTIER_METRICS.iter().map(|(_, h)| *h))
            .chain(["cost − reference", "error rate − reference"])
            .map(String::from)
            .collect()];
        for p in self.frontier_points() {
            let param = match (&p.family.param, p.x.is_finite()) {
                (Some(name), true) => format!("{name}={}", p.x),
                _ => "–".into(),
            };
            let mut cells = vec![p.family.name(), param];
            // the page's cells: each interval clipped to its quantity's range, in its words
            for (st, range) in p.stats.iter().zip(FRONTIER_RANGES) {
                cells.push(match st {
                    Some(s) if s.mean.is_finite() => Interval::clipped(s.n, s.mean, s.ci95, range).words(""),
                    _ => "—".into(),
                });
            }
            let row = self.point_index(&p).and_then(|i| cmp.as_ref()?.rows.iter().find(|r| r.point == i));
            for d in [row.and_then(|r| r.cost.as_ref()), row.and_then(|r| r.error.as_ref())] {
                cells.push(match d {
                    Some(d) if d.difference == Difference::Reference => d.words.clone(),
                    Some(d) => format!("{} {}", format_difference(d.mean, d.ci95), d.words),
                    None => "—".into(),
                });
            }
            rows.push(cells);
        }
        // Each column as wide as its widest cell, two spaces between columns (the first left
        // aligned, the others right), so that no cell runs into the next whatever its length.
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::from("\n");
        for r in &rows {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &w))| if c == 0 { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        if let Some(c) = &cmp {
            out.push_str(&format!("\nReference: {}. {}\n", c.reference_config, c.method));
            for line in c.undecided.iter().chain(&c.notes) {
                out.push_str(&format!("{line}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Params;

    #[test]
    fn a_paired_difference_and_its_interval_on_a_hand_computed_case() {
        // d = (−0.02, −0.01, −0.03): mean −0.02, sd 0.01, half-width t_{0.975,2}·0.01/√3
        // = 4.303 × 0.01 / 1.7320508 = 0.0248434…: the interval [−0.0448, 0.0048] holds 0.
        let (v, mean, ci) = Difference::of(&[-0.02, -0.01, -0.03]);
        assert!((mean + 0.02).abs() < 1e-15, "{mean}");
        assert!((ci - 4.303 * 0.01 / 3f64.sqrt()).abs() < 1e-12, "{ci}");
        assert_eq!(v, Difference::NotDistinguishable);
        // A tighter spread decides: d = (−0.020, −0.021, −0.019), sd 0.001, half-width 0.00248.
        let (v, mean, ci) = Difference::of(&[-0.020, -0.021, -0.019]);
        assert!((mean + 0.02).abs() < 1e-12 && (ci - 4.303 * 0.001 / 3f64.sqrt()).abs() < 1e-12);
        assert_eq!((v, v.words(true), v.words(false)), (Difference::Lower, "cheaper", "fewer wrong answers"));
        let (v, ..) = Difference::of(&[0.020, 0.021, 0.019]);
        assert_eq!((v.words(true), v.words(false)), ("dearer", "more wrong answers"));
        // Exactly equal on every seed: identical, never "not distinguishable".
        assert_eq!(Difference::of(&[0.0, 0.0, 0.0]).0, Difference::Identical);
        // One seed: no interval, so nothing is decided.
        let (v, mean, ci) = Difference::of(&[0.5]);
        assert_eq!((v, mean), (Difference::NotDistinguishable, 0.5));
        assert!(ci.is_nan());
        // A constant non-zero difference has sd 0: decided.
        assert_eq!(Difference::of(&[0.01, 0.01]).0, Difference::Higher);
        assert!(!Difference::NotDistinguishable.decided() && Difference::Lower.decided());
    }

    #[test]
    fn intervals_are_clipped_to_the_quantitys_range() {
        // The case: error rate 0.00367 ± 0.003798 ran to −0.000128.
        let i = Interval::clipped(3, 0.00367, 0.003798, FRONTIER_RANGES[1]);
        assert_eq!((i.lo, i.mean), (0.0, 0.00367));
        assert!((i.hi - 0.007468).abs() < 1e-12);
        let hit = Interval::clipped(3, 0.99, 0.05, FRONTIER_RANGES[2]);
        assert_eq!(hit.hi, 1.0);
        let cost = Interval::clipped(3, 0.01, 0.02, FRONTIER_RANGES[0]);
        assert_eq!((cost.lo, cost.hi), (0.0, 0.03));
        // Regret may be negative: not clipped.
        let regret = Interval::clipped(3, -0.001, 0.002, FRONTIER_RANGES[3]);
        assert_eq!((regret.lo, regret.hi), (-0.003, 0.001));
        // One seed: no interval.
        let one = Interval::clipped(1, 0.2, f64::NAN, FRONTIER_RANGES[1]);
        assert!(one.lo.is_nan() && one.hi.is_nan());
    }

    #[test]
    fn the_common_range_is_the_one_most_families_span() {
        // Threshold-like [0.046, 0.064] and [0.045, 0.058], vCache-like [0, 0.0023], a point.
        let spans = [Some((0.046, 0.064)), Some((0.045, 0.058)), Some((0.0, 0.0023)), None];
        assert_eq!(common_range(&spans), Some((0.046, 0.058)));
        // Two families each: the wider range wins.
        let spans = [Some((0.0, 0.1)), Some((0.05, 0.2)), Some((0.3, 0.5)), Some((0.35, 0.6))];
        assert_eq!(common_range(&spans), Some((0.35, 0.5)));
        // All nest: the innermost.
        assert_eq!(common_range(&[Some((0.0, 1.0)), Some((0.2, 0.4))]), Some((0.2, 0.4)));
        // Single points only: no range.
        assert_eq!(common_range(&[Some((0.1, 0.1)), None]), None);
    }

    #[test]
    fn titles_come_from_the_settings() {
        let p = Params { k: 50, horizon: 1000, n_eval: 2000, ..Params::default() };
        assert_eq!(
            frontier_title("nq-trivia", &p, 3),
            "Cost–correctness frontier on nq-trivia (k = 50, T = 1,000, n_eval = 2,000, 3 seeds)"
        );
        assert!(frontier_title("x", &Params { horizon: 123456, ..p }, 1)
            .contains("T = 123,456, n_eval = 2,000, 1 seed)"));
    }
}
