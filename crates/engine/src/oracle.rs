//! The evaluation oracle `M_orc` and the expected loss `L(M)` on the evaluation sample
//! (SPEC §3, §5, §11.7).
//!
//! `M_orc`: Reverse Greedy over the distinct observed queries thinned by a fine `ε_o`-net
//! (arrival order), each candidate weighted by the fraction of `E` whose nearest candidate it
//! is, with true costs. Regret and suboptimality gaps are measured against `L(M_orc)`.

use crate::epsilon_net::EpsilonNet;
use crate::error::{Error, Result};
use crate::loss::{expected_loss, query_loss};
use crate::mismatch::Mismatch;
use crate::neighbours::BallIndex;
use crate::reverse_greedy::{reverse_greedy, Instance};
use crate::space::{bit_key, Metric, Points};
use crate::trace::Trace;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

/// The sample `E` with its true costs, the metric and `φ`: everything `L(M)` needs.
#[derive(Clone, Debug)]
pub struct EvalSample {
    pub points: Points,
    pub costs: Vec<f64>,
    pub metric: Metric,
    pub mismatch: Mismatch,
    /// Built on first use by [`LossTracker`], shared by clones.
    reach: Arc<OnceLock<ReachIndex>>,
}

/// Which points of `E` a cache member can serve below their own cost: point `i` only if
/// `d(x_i, u) ≤ r_i`, a hair above `φ`'s reach for `c_i` (`min(c_i, φ(d)) = c_i` beyond it).
#[derive(Debug)]
struct ReachIndex {
    index: BallIndex,
    radius: Vec<f64>,
    ball_max: Vec<f64>,
}

impl EvalSample {
    pub fn new(points: Points, costs: Vec<f64>, metric: Metric, mismatch: Mismatch) -> Result<Self> {
        if points.is_empty() || points.len() != costs.len() {
            return Err(Error::data(format!(
                "the evaluation sample needs one cost per query and at least one query ({} queries, {} costs)",
                points.len(),
                costs.len()
            )));
        }
        Ok(EvalSample { points, costs, metric, mismatch, reach: Arc::new(OnceLock::new()) })
    }

    /// `E` of a trace (SPEC §12), materialised as vectors.
    pub fn from_trace(trace: &Trace, mismatch: Mismatch) -> Result<Self> {
        let mut p = Points::new(trace.dim().max(1))?;
        for i in 0..trace.eval.len() {
            p.push(trace.eval_x(i))?;
        }
        EvalSample::new(p, trace.eval_cost.clone(), Metric::new(trace.dist_scale)?, mismatch)
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    fn reach_index(&self) -> &ReachIndex {
        self.reach.get_or_init(|| {
            let index = BallIndex::new(self.points.clone(), self.metric);
            // 1e-6 relative slack: beyond r_i, φ(d) ≥ c_i holds with room to spare for rounding.
            let radius: Vec<f64> =
                self.costs.iter().map(|&c| self.mismatch.reach(c) * (1.0 + 1e-6) + 1e-9).collect();
            let ball_max = index.ball_maxima(&radius);
            ReachIndex { index, radius, ball_max }
        })
    }

    /// `L(M) = (1/|E|) Σ_{x∈E} min(c(x), φ(d(x, M)))` (eq. 2 on `E`).
    pub fn loss(&self, cache: &Points) -> f64 {
        expected_loss(&self.points, &self.costs, cache, &self.metric, &self.mismatch)
    }
}

/// The points of `E` a member can serve below their cost, with their distances.
type Near = Arc<[(u32, f64)]>;

/// Incremental `L(M_t)` for a cache that changes a few members at a time: each member's
/// distances to `E` are computed once when it enters and dropped when it leaves (SPEC §9:
/// "compute it at switches, not every round") — and only to the points of `E` it can serve
/// below their cost (an exact ball-index range query with per-point radii): every other point
/// pays `c(x) = min(c(x), φ(∞))` whatever that distance. The same bits as
/// [`EvalSample::loss`]'s full computation (tested). With a [`NearMemo`]
/// ([`shared`](Self::shared)) a member's distances are looked up instead when any tracker of the
/// run has computed them for the same vector.
pub struct LossTracker {
    members: Vec<(u64, Near)>,
    best: Vec<f64>,
    memo: Option<Arc<NearMemo>>,
}

impl Default for LossTracker {
    fn default() -> Self {
        Self::new()
    }
}

impl LossTracker {
    pub fn new() -> Self {
        LossTracker { members: Vec::new(), best: Vec::new(), memo: None }
    }

    /// A tracker that shares members' distances with the other trackers of `memo` (which must
    /// all measure on the same `E`).
    pub fn shared(memo: Arc<NearMemo>) -> Self {
        LossTracker { memo: Some(memo), ..Self::new() }
    }

    /// `L(M)` for the cache given as (stable key, vector) pairs.
    pub fn loss(&mut self, eval: &EvalSample, keys: &[u64], cache: &Points) -> f64 {
        self.members.retain(|(k, _)| keys.contains(k));
        for (key, x) in keys.iter().zip(cache.iter()) {
            if !self.members.iter().any(|(k, _)| k == key) {
                let near = match &self.memo {
                    Some(memo) => memo.near(eval, *key, x),
                    None => NearMemo::compute(eval, x),
                };
                self.members.push((*key, near));
            }
        }
        let n = eval.len();
        self.best.clear();
        self.best.resize(n, f64::INFINITY);
        for (_, m) in &self.members {
            for &(i, d) in m.iter() {
                let b = &mut self.best[i as usize];
                *b = b.min(d);
            }
        }
        let mut total = 0.0;
        for i in 0..n {
            total += query_loss(eval.costs[i], eval.mismatch.phi(self.best[i]));
        }
        total / n as f64
    }
}

/// The points of `E` each cache member can serve below their cost, with their distances
/// ([`LossTracker`]), kept by key for every tracker of a run (the list depends only on the member's
/// vector and `E`, not on the policy — Epsilon-Greedy's random caches and the greedy cache it
/// returns to bring the same members back switch after switch). A key is reused only with the same
/// vector, bit for bit; a key met with another vector (an asked question of the live view keyed by
/// a round whose trace arrival another policy caches) is computed afresh. Holds one list and one
/// vector per key: meant for caches of ε-net centers (bounded by the net), not for caches whose
/// every miss is a new key.
#[derive(Debug, Default)]
pub struct NearMemo {
    lists: std::sync::Mutex<HashMap<u64, (Vec<f32>, Near)>>,
}

impl NearMemo {
    pub fn new() -> Self {
        Self::default()
    }

    fn compute(eval: &EvalSample, x: &[f32]) -> Near {
        let mut near = Vec::new();
        let ri = eval.reach_index();
        ri.index.within_each(x, &ri.radius, &ri.ball_max, &mut near);
        near.iter().map(|&(i, d)| (i as u32, d)).collect()
    }

    fn near(&self, eval: &EvalSample, key: u64, x: &[f32]) -> Near {
        let mut lists = self.lists.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let same = |v: &[f32]| v.len() == x.len() && v.iter().zip(x).all(|(a, b)| a.to_bits() == b.to_bits());
        match lists.get(&key) {
            Some((v, near)) if same(v) => near.clone(),
            Some(_) => Self::compute(eval, x),
            None => {
                let near = Self::compute(eval, x);
                lists.insert(key, (x.to_vec(), near.clone()));
                near
            }
        }
    }
}

/// The evaluation oracle's cache.
#[derive(Clone, Debug)]
pub struct Oracle {
    /// The cached vectors.
    pub cache: Points,
    /// Index in the observed sequence of each cached vector's first occurrence.
    pub keys: Vec<u64>,
    /// `L(M_orc)` on `E`.
    pub loss: f64,
    /// Number of candidates after the `ε_o` thinning.
    pub n_candidates: usize,
}

/// `M_orc` (SPEC §5, §11.7) over `observed` queries (arrival order; repeats allowed) with their
/// true costs, weighted by `E`. The same result as [`evaluation_oracle_plain`], faster:
/// an exact repeat of an earlier query can never found a candidate (the earlier copy is one or
/// lies within `ε_o` of one), so only distinct vectors enter the net; the greedy net, the
/// assignment of `E` and Reverse Greedy's neighbourhoods use [`BallIndex`] range and
/// nearest-neighbour queries instead of full scans; repeated points of `E` are assigned once.
pub fn evaluation_oracle<'a>(
    observed: impl Iterator<Item = (&'a [f32], f64)>,
    dim: usize,
    eval: &EvalSample,
    eps_o: f64,
    k: usize,
) -> Result<Oracle> {
    EpsilonNet::new(dim, eps_o, eval.metric)?; // validates ε_o and the dimension
    let mut distinct = Points::new(dim)?;
    let (mut first_t, mut first_cost) = (Vec::new(), Vec::new());
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for (t, (x, c)) in observed.enumerate() {
        if !c.is_finite() {
            return Err(Error::data("an observed query has a non-finite cost"));
        }
        if seen.insert(bit_key(x)) {
            distinct.push(x)?;
            first_t.push(t);
            first_cost.push(c);
        }
    }
    if distinct.is_empty() {
        return Err(Error::data("the evaluation oracle needs at least one observed query"));
    }
    // The greedy ε_o-net in arrival order (SPEC §4): a new candidate iff none within ε_o.
    let all = BallIndex::new(distinct, eval.metric);
    let distinct = all.points();
    let mut is_cand = vec![false; distinct.len()];
    let mut cands = Vec::new();
    let mut near = Vec::new();
    for i in 0..distinct.len() {
        all.within(distinct.row(i), eps_o, &mut near);
        if !near.iter().any(|&(j, _)| is_cand[j]) {
            is_cand[i] = true;
            cands.push(i);
        }
    }
    let points = distinct.select(&cands);
    let cand_cost: Vec<f64> = cands.iter().map(|&i| first_cost[i]).collect();
    // Each point of E counts toward its nearest candidate (§11.7).
    let index = BallIndex::new(points, eval.metric);
    let points = index.points();
    let mut w = vec![0.0; points.len()];
    let unit = 1.0 / eval.len() as f64;
    let mut assigned: HashMap<Vec<u32>, usize> = HashMap::new();
    for e in eval.points.iter() {
        let j = *assigned.entry(bit_key(e)).or_insert_with(|| index.nearest(e).expect("non-empty").0);
        w[j] += unit;
    }
    let inst = Instance::new(&index, &w, &cand_cost, eval.mismatch)?.with_separation(eps_o);
    let out = reverse_greedy(&inst, k, &[]);
    let cache = points.select(&out.cache);
    let keys = out.cache.iter().map(|&j| first_t[cands[j]] as u64).collect();
    let loss = eval.loss(&cache);
    Ok(Oracle { cache, keys, loss, n_candidates: points.len() })
}

/// [`evaluation_oracle`] as SPEC §5 and §11.7 describe it, step by step: an incremental `ε_o`-net
/// over every arrival, all candidate distances, a full scan per point of `E`. O(T·m + m² + |E|·m)
/// distances; the differential oracle for the fast form (tests assert identical results).
pub fn evaluation_oracle_plain<'a>(
    observed: impl Iterator<Item = (&'a [f32], f64)>,
    dim: usize,
    eval: &EvalSample,
    eps_o: f64,
    k: usize,
) -> Result<Oracle> {
    let mut net = EpsilonNet::new(dim, eps_o, eval.metric)?;
    let mut cand_cost = Vec::new();
    for (x, c) in observed {
        if !c.is_finite() {
            return Err(Error::data("an observed query has a non-finite cost"));
        }
        if net.insert(x)?.is_new {
            cand_cost.push(c);
        }
    }
    if net.is_empty() {
        return Err(Error::data("the evaluation oracle needs at least one observed query"));
    }
    // Each point of E counts toward its nearest candidate (§11.7).
    let mut w = vec![0.0; net.len()];
    let unit = 1.0 / eval.len() as f64;
    for e in eval.points.iter() {
        let (j, _) = net.nearest(e).expect("non-empty");
        w[j] += unit;
    }
    let inst =
        Instance::new(net.center_distances(), &w, &cand_cost, eval.mismatch)?.with_separation(net.eps());
    let out = reverse_greedy(&inst, k, &[]);
    let cache = net.centers().select(&out.cache);
    let keys = out.cache.iter().map(|&j| net.origin()[j] as u64).collect();
    let loss = eval.loss(&cache);
    Ok(Oracle { cache, keys, loss, n_candidates: net.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_by_hand() {
        // Observed: two clusters on a line (0 and 1, D = 1), cost 0.5; E = {0, 0, 1}; k = 1.
        // Caching 0 serves two thirds of E at φ = 0 and the rest pays min(.5, 1) = .5.
        let obs = Points::from_flat(1, vec![0.0, 0.001, 1.0, 0.0]).unwrap();
        let costs = [0.5, 0.5, 0.5, 0.5];
        let e = Points::from_flat(1, vec![0.0, 0.0, 1.0]).unwrap();
        let ec = [0.5, 0.5, 0.5];
        let eval = EvalSample::new(e, ec.to_vec(), Metric::new(1.0).unwrap(), Mismatch::default()).unwrap();
        let o = evaluation_oracle(obs.iter().zip(costs), 1, &eval, 0.02, 1).unwrap();
        assert_eq!(o.n_candidates, 2, "0.001 and the repeat of 0 are thinned away");
        assert_eq!(o.cache.row(0), &[0.0]);
        assert!((o.loss - 0.5 / 3.0).abs() < 1e-12);
        let mut tr = LossTracker::new();
        assert_eq!(o.keys, vec![0]);
        assert!((tr.loss(&eval, &[7], &o.cache) - o.loss).abs() < 1e-15);
        assert!((tr.loss(&eval, &[], &Points::new(1).unwrap()) - 0.5).abs() < 1e-15);
        let plain = evaluation_oracle_plain(obs.iter().zip(costs), 1, &eval, 0.02, 1).unwrap();
        assert_eq!((o.keys, o.loss.to_bits(), o.n_candidates), (plain.keys, plain.loss.to_bits(), 2));
    }

    /// Trackers sharing a [`NearMemo`] give the bits of trackers of their own, whichever
    /// computed a member first; a key that another tracker holds with another vector (key 3
    /// below) is not taken from the memo.
    #[test]
    fn shared_trackers_keep_the_bits() {
        let e = Points::from_flat(1, (0..40).map(|i| i as f32 / 40.0).collect()).unwrap();
        let costs: Vec<f64> = (0..40).map(|i| 0.1 + 0.8 * ((i * 7 % 40) as f64 / 40.0)).collect();
        let eval = EvalSample::new(e, costs, Metric::new(1.0).unwrap(), Mismatch::default()).unwrap();
        let memo = Arc::new(NearMemo::new());
        let first: [&[(u64, f32)]; 4] =
            [&[(3, 0.1), (9, 0.5)], &[(9, 0.5), (12, 0.9)], &[(3, 0.1)], &[(3, 0.1), (9, 0.5), (12, 0.9)]];
        let second: [&[(u64, f32)]; 4] =
            [&[(9, 0.5)], &[(3, 0.3), (12, 0.9)], &[(12, 0.9), (9, 0.5)], &[(3, 0.3)]];
        let mut runs =
            [first, second].map(|caches| (caches, LossTracker::shared(memo.clone()), LossTracker::new()));
        for round in 0..4 {
            for (caches, shared, own) in &mut runs {
                let keys: Vec<u64> = caches[round].iter().map(|&(k, _)| k).collect();
                let pts = Points::from_flat(1, caches[round].iter().map(|&(_, x)| x).collect()).unwrap();
                let want = eval.loss(&pts);
                assert_eq!(own.loss(&eval, &keys, &pts).to_bits(), want.to_bits(), "{:?}", caches[round]);
                assert_eq!(shared.loss(&eval, &keys, &pts).to_bits(), want.to_bits(), "{:?}", caches[round]);
            }
        }
    }
}
