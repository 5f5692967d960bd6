//! The counts of a run and the choice of τ: on the selection seeds, the eligible τ with the largest
//! hit ratio; measured on the reporting seeds (the method: [`super::TUNE_METHOD`]).

use super::command::{cosine_of, no_ground_truth};
use super::target::{Target, ALPHA, TUNE_BOUND, TUNE_METHOD};
use crate::experiment::frontier::paired::Paired;
use crate::experiment::stats::binomial::{cp_lower, cp_upper};
use crate::experiment::Metric;
use crate::experiment::{Family, Measure, Report};
use crate::online::PolicyKind;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

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
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub hit_ratio: f64,
    /// Correct hits over hits (`null` without a hit).
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub precision: f64,
    /// Its two-sided 95% Clopper–Pearson interval.
    pub precision_ci: [f64; 2],
    /// Wrong hits over requests.
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub error_rate: f64,
    /// Its two-sided 95% Clopper–Pearson interval.
    pub error_ci: [f64; 2],
    /// The one-sided 95% bound on the target's quantity.
    pub bound: f64,
    /// Whether the target holds at 95% here.
    pub holds: bool,
    /// Realised cost per request, mean over the seeds.
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
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
    #[serde(with = "crate::experiment::run::observation::nan_as_null")]
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
            c.hits += (u.value(Metric::HitRate.final_id())? * t).round() as u64;
            c.wrong_hits += (u.value(Metric::ErrorRate.final_id())? * t).round() as u64;
            cost += u.value(Metric::AvgRealisedCost.final_id())?;
        }
        Some((c, cost / seeds.len() as f64))
    }

    /// "Pick a threshold, defensibly" on this report (the module's rule): a frontier report with a
    /// threshold family over `threshold_tau` and at least 2 seeds. Refused with one plain message
    /// otherwise, or without ground truth.
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
                Some(Paired::of(&d, true))
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
