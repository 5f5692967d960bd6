//! Queries built to fool the cache (docs/SPEC-NOTES.md, "Adversarial arrivals"): an attacker who
//! sees what a policy caches (CacheAttack's threat model, arXiv 2601.23088) and, with
//! probability `p` in a round, sends the universe query nearest to a cached entry among those
//! whose gold answer differs from that entry's; otherwise the round's arrival is the base
//! stream's. And the confusable pairs of a labelled dataset: pairs nearer than `d` whose gold
//! answers differ.
//!
//! Fairness: every policy is attacked on its own cache, on the same base trace (arrivals, noise,
//! `E`), with the same per-round coins, drawn from their own sub-stream
//! ([`crate::stream::Purpose::Attack`]) so that the base stream is unchanged.

use crate::answers::{equivalent, Label};
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::neighbours::BallIndex;
use crate::online::sim::{Environment, RunResult, Simulation};
use crate::online::PolicyKind;
use crate::space::{Metric, Points};
use crate::stream::{rng, Arrival, Purpose};
use crate::trace::Trace;
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The coin of every round: round `t` is attacked iff `u_t < p`, `u_t` the t-th uniform draw of
/// the seed's attack sub-stream (drawn every round, whatever `p`, so that the coins of two values
/// of `p` are coupled: a round attacked at `p` is attacked at every larger `p`).
pub fn attack_coins(seed: u64, p: f64, horizon: usize) -> Result<Vec<bool>> {
    if !(p.is_finite() && (0.0..=1.0).contains(&p)) {
        return Err(Error::param("attack_p", format!("the attack probability must be in [0, 1], got {p}")));
    }
    let mut r = rng(seed, Purpose::Attack);
    Ok((0..horizon).map(|_| r.random::<f64>() < p).collect())
}

/// A universe row's nearest confuser: the nearest row whose label is not equivalent to `label`
/// (ties to the lowest row), and its distance.
fn nearest_confuser(
    dataset: &Dataset,
    labels: &[Label],
    metric: &Metric,
    x: &[f32],
    label: &Label,
) -> Option<(u32, f64)> {
    let mut best: Option<(u32, f64)> = None;
    for (i, (u, l)) in dataset.points.iter().zip(labels).enumerate() {
        let d = metric.dist(x, u);
        if best.is_none_or(|(_, b)| d < b) && !equivalent(l, label) {
            best = Some((i as u32, d));
        }
    }
    best
}

/// The attacker of one unit: the dataset's universe and labels, and each universe row's nearest
/// confuser once found (shared by the policies and values of `p` it attacks).
pub struct Attacker {
    dataset: Arc<Dataset>,
    metric: Metric,
    rows: HashMap<u32, Option<(u32, f64)>>,
}

impl Attacker {
    /// Refuses a dataset without ground truth: "whose gold answer differs" needs it.
    pub fn new(dataset: Arc<Dataset>) -> Result<Self> {
        if let Some(why) = dataset.ground_truth.absent_reason() {
            return Err(Error::unsupported(format!(
                "the attack sends queries whose gold answer differs from a cached one's, and {why}; run it on data with ground truth"
            )));
        }
        Ok(Attacker { metric: dataset.metric(), dataset, rows: HashMap::new() })
    }

    /// One policy attacked with the coins `coins` on the environment's trace: round `t` is the
    /// trace's arrival unless `coins[t]` and the cache is not empty, when it is the universe row
    /// nearest to a cached entry among those whose label differs from the entry's (the pair of
    /// least distance; ties to the entry first in the cache, then to the lowest row), with its
    /// cost and label and the round's noise `η_t`. Counts hits whose arrival and serving entry are
    /// a confusable pair (distance below `d`, labels not equivalent).
    pub fn run(
        &mut self,
        env: &Arc<Environment>,
        trace: &Trace,
        kind: PolicyKind,
        params: &crate::config::Checked,
        coins: &[bool],
        d: f64,
    ) -> Result<Attacked> {
        let labels = self.dataset.ground_truth.labels().expect("checked in new").to_vec();
        let mut sim = Simulation::new(env.clone(), kind, params, 0)?;
        // the universe row each round's arrival is (attacked rounds: the row sent)
        let mut row_of: Vec<Option<u32>> = Vec::with_capacity(trace.horizon());
        // the nearest confuser of entries that are not universe rows (jittered arrivals), by key
        let mut keyed: HashMap<u64, Option<(u32, f64)>> = HashMap::new();
        let (mut attacked, mut confusable_serves) = (0u64, 0u64);
        let mut buf = Vec::new();
        for (t, &coin) in coins.iter().enumerate().take(trace.horizon()) {
            let base = trace.arrival(t);
            let target = if coin { self.target(&sim, &row_of, &mut keyed, &labels) } else { None };
            let out = match target {
                Some(i) => {
                    attacked += 1;
                    buf.clear();
                    buf.extend_from_slice(self.dataset.points.row(i as usize));
                    row_of.push(Some(i));
                    let a = Arrival {
                        t,
                        x: &buf,
                        cost: self.dataset.costs[i as usize],
                        eta: base.eta,
                        index: Some(i),
                        label: labels.get(i as usize),
                        tenant: None,
                    };
                    let out = sim.step_foreign(&a);
                    (out, a.x.to_vec(), a.label.cloned())
                }
                None => {
                    row_of.push(base.index);
                    let out = sim.step(&base);
                    (out, base.x.to_vec(), base.label.cloned())
                }
            };
            let (o, x, label) = out;
            if o.wrong == Some(true) {
                let cache = sim.policy().cache();
                if let Some((_, dist)) = self.metric.nearest(&x, cache.points()) {
                    if dist < d && label.is_some() {
                        confusable_serves += 1;
                    }
                }
            }
        }
        Ok(Attacked { result: sim.result(), attacked, confusable_serves })
    }

    /// The row the attacker sends against `sim`'s current cache, if any.
    fn target(
        &mut self,
        sim: &Simulation,
        row_of: &[Option<u32>],
        keyed: &mut HashMap<u64, Option<(u32, f64)>>,
        labels: &[Label],
    ) -> Option<u32> {
        let cache = sim.policy().cache();
        let mut best: Option<(u32, f64)> = None;
        for (key, x) in cache.keys().iter().zip(cache.points().iter()) {
            let label = sim.entry_label(*key)?;
            let found = match row_of.get(*key as usize).copied().flatten() {
                Some(row) => *self
                    .rows
                    .entry(row)
                    .or_insert_with(|| nearest_confuser(&self.dataset, labels, &self.metric, x, label)),
                None => *keyed
                    .entry(*key)
                    .or_insert_with(|| nearest_confuser(&self.dataset, labels, &self.metric, x, label)),
            };
            if let Some((i, dist)) = found {
                if best.is_none_or(|(j, b)| dist < b || (dist == b && i < j)) {
                    best = Some((i, dist));
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

/// One attacked run.
#[derive(Clone, Debug)]
pub struct Attacked {
    pub result: RunResult,
    /// Rounds whose arrival the attacker chose.
    pub attacked: u64,
    /// Hits whose arrival and serving entry are a confusable pair.
    pub confusable_serves: u64,
}

/// The number of confusable pairs of `dataset`: unordered pairs of universe rows nearer than `d`
/// whose labels are not equivalent. Cached per (checksum, d).
pub fn confusable_pairs(dataset: &Dataset, d: f64) -> Result<u64> {
    static CACHE: Mutex<Vec<(String, u64, u64)>> = Mutex::new(Vec::new());
    let Some(labels) = dataset.ground_truth.labels() else {
        return Err(Error::unsupported("confusable pairs need ground truth labels"));
    };
    let key = (dataset.checksum.clone(), d.to_bits());
    if let Some(&(_, _, n)) = CACHE.lock().unwrap().iter().find(|(c, b, _)| *c == key.0 && *b == key.1) {
        return Ok(n);
    }
    let pts: &Points = &dataset.points;
    let index = BallIndex::new(pts.clone(), dataset.metric());
    let (mut n, mut near) = (0u64, Vec::new());
    for i in 0..pts.len() {
        near.clear();
        index.within(pts.row(i), d, &mut near);
        n += near
            .iter()
            .filter(|&&(j, dist)| j > i && dist < d && !equivalent(&labels[i], &labels[j]))
            .count() as u64;
    }
    CACHE.lock().unwrap().push((key.0, key.1, n));
    Ok(n)
}
