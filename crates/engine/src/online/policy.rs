//! The policy interface (SPEC §9): what a policy sees of a round ([`Round`]), what it is built
//! from ([`Context`]), its cache ([`CacheSet`]) and the [`Policy`] trait every online algorithm
//! implements. Re-exported by `online`: its path is `crate::online::X`.

use super::diagnostics::Diagnostics;
use crate::config::{Checked, Params};
use crate::error::Result;
use crate::mismatch::Mismatch;
use crate::space::{Metric, Points};

/// What a policy sees of round `t`.
#[derive(Clone, Copy, Debug)]
pub struct Round<'a> {
    /// Round index, from 0 (the paper's `t − 1`).
    pub t: usize,
    pub x: &'a [f32],
    /// The universe row of `x`, when the arrival is exactly one (lets policies recognise repeats).
    pub index: Option<u32>,
    /// The true `c(x_t)`: read only by the [`PolicyKind::Oracle`](crate::algorithms::PolicyKind::Oracle) reference, never by a learner.
    pub true_cost: f64,
    /// Where the run's shared ε-net put `x_t` (the simulator fills it for the policies that keep
    /// a net, [`PolicyKind::keeps_net`](crate::algorithms::PolicyKind::keeps_net)); `None`: the policy scans its own net.
    pub net: Option<crate::epsilon_net::NetStep<'a>>,
    /// The arrival's ground truth (SPEC §14), if the data has it: read only by the policies
    /// that learn from a judge ([`PolicyKind::needs_labels`](crate::algorithms::PolicyKind::needs_labels)).
    pub label: Option<&'a crate::answers::Label>,
    /// The round's tenant and which entries may serve it (docs/SPEC-NOTES.md, "Tenants"); `None`:
    /// one tenant, every entry serves. Read only through [`CacheSet::serving_dist`] and
    /// [`CacheSet::serving_nearest`], the one place where every policy's serving is decided.
    pub tenancy: Option<Tenancy<'a>>,
}

/// A round's tenant under an isolation setting ([`super::tenancy::Isolation`]).
#[derive(Clone, Copy, Debug)]
pub struct Tenancy<'a> {
    pub tenant: u32,
    /// The tenant of every round so far: an entry keyed by round `k` was founded by `founders[k]`.
    pub founders: &'a [u32],
    /// Whether only entries the tenant founded may serve it (`tagged`, `partitioned`).
    pub own_only: bool,
}

/// Inserts round `r`'s arrival into a policy's ε-net (Alg. 3 lines 5–11): the shared net's
/// assignment when the round carries one, else the policy's own scan. Same result either way.
pub(crate) fn net_insert(
    net: &mut crate::epsilon_net::EpsilonNet,
    r: &Round,
) -> crate::epsilon_net::Assignment {
    match &r.net {
        Some(step) => net.insert_assigned(r.x, step),
        None => net.insert_known(r.x, r.index),
    }
    .expect("validated arrival")
}

/// Everything a policy is built from.
#[derive(Clone, Debug)]
pub struct Context {
    pub metric: Metric,
    pub mismatch: Mismatch,
    pub params: Params,
    pub dim: usize,
}

impl Context {
    pub fn new(metric: Metric, params: &Checked, dim: usize) -> Result<Self> {
        let params = params.params().clone();
        Ok(Context { metric, mismatch: params.mismatch(), params, dim })
    }
}

/// A policy's cache: members identified by a stable key (the round whose arrival the member is)
/// and their vectors. `version` changes whenever the membership does.
#[derive(Clone, Debug)]
pub struct CacheSet {
    keys: Vec<u64>,
    points: Points,
    version: u64,
}

impl CacheSet {
    pub fn new(dim: usize) -> Self {
        CacheSet { keys: Vec::new(), points: Points::new(dim.max(1)).expect("dim ≥ 1"), version: 0 }
    }

    /// Replaces the membership; returns the keys that are new (to be fetched, SPEC §9).
    pub fn replace(&mut self, members: &[(u64, &[f32])]) -> Vec<u64> {
        let same = members.len() == self.keys.len() && members.iter().all(|(k, _)| self.keys.contains(k));
        if same {
            return Vec::new();
        }
        let inserted = members.iter().map(|(k, _)| *k).filter(|k| !self.keys.contains(k)).collect();
        self.keys = members.iter().map(|(k, _)| *k).collect();
        let mut p = Points::new(self.points.dim()).expect("dim ≥ 1");
        for (_, x) in members {
            p.push(x).expect("members have the cache's dimension");
        }
        self.points = p;
        self.version += 1;
        inserted
    }

    /// [`replace`](Self::replace), keeping the order of `members` also when the set is the same
    /// (an external policy names its members by their place in its own order).
    pub fn replace_in_order(&mut self, members: &[(u64, &[f32])]) -> Vec<u64> {
        let inserted = self.replace(members);
        if !members.iter().map(|(k, _)| k).eq(self.keys.iter()) {
            let mut p = Points::new(self.points.dim()).expect("dim ≥ 1");
            for (_, x) in members {
                p.push(x).expect("members have the cache's dimension");
            }
            self.keys = members.iter().map(|(k, _)| *k).collect();
            self.points = p;
            self.version += 1;
        }
        inserted
    }

    /// `d(x, M)` (`∞` for the empty cache).
    pub fn dist(&self, metric: &Metric, x: &[f32]) -> f64 {
        self.points.iter().map(|u| metric.dist(x, u)).fold(f64::INFINITY, f64::min)
    }

    /// `d(x_t, M)` over the entries that may serve round `r` ([`Round::tenancy`]): the whole
    /// cache (exactly [`CacheSet::dist`]) unless only the tenant's own entries serve it. Every
    /// policy's serving rule reads the cache through this or [`CacheSet::serving_nearest`].
    pub fn serving_dist(&self, metric: &Metric, r: &Round) -> f64 {
        match r.tenancy.filter(|t| t.own_only) {
            None => self.dist(metric, r.x),
            Some(_) => self.serving_nearest(metric, r).map_or(f64::INFINITY, |(_, d)| d),
        }
    }

    /// The nearest entry that may serve round `r` (its position in [`CacheSet::keys`]) and its
    /// distance; ties to the lowest position; `None` if none may. Without own-only tenancy exactly
    /// [`Metric::nearest`] over the whole cache.
    pub fn serving_nearest(&self, metric: &Metric, r: &Round) -> Option<(usize, f64)> {
        let Some(t) = r.tenancy.filter(|t| t.own_only) else { return metric.nearest(r.x, &self.points) };
        let mut best: Option<(usize, f64)> = None;
        for (j, (k, u)) in self.keys.iter().zip(self.points.iter()).enumerate() {
            if t.founders.get(*k as usize) != Some(&t.tenant) {
                continue;
            }
            let d = metric.dist(r.x, u);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        best
    }

    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
    pub fn points(&self) -> &Points {
        &self.points
    }
    pub fn version(&self) -> u64 {
        self.version
    }
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// An online caching policy: the algorithm's interface to the simulator (inspection for the page
/// is the separate [`Inspect`](super::Inspect)).
pub trait Policy {
    /// Round `t`: sees the arrival, may switch its cache, returns whether it calls the LLM.
    fn decide(&mut self, round: &Round) -> bool;
    /// The LLM was called this round and returned the noisy cost `C_t = c(x_t) + η_t`.
    fn observe(&mut self, round: &Round, cost: f64);
    /// The cache serving the current round.
    fn cache(&self) -> &CacheSet;
    /// After a `decide` that served from the cache: the member it served, when the policy names
    /// one (an external policy, docs/SPEC-NOTES.md); `None`, the default: the nearest member
    /// (eq. 1), ties to the lowest index.
    fn served(&self) -> Option<usize> {
        None
    }
    /// Why the policy stopped, if it did: only an external policy can
    /// ([`super::external::External`]). Default: never.
    fn fault(&self) -> Option<&super::external::PolicyError> {
        None
    }
    /// Keys whose responses were fetched by cache switches since the last call (each costs its
    /// true `c`, SPEC §9, §11.5).
    fn take_fetched(&mut self) -> Vec<u64>;
    /// `(key, ĉ)` at the policy's centers, for the KRR-error metric; `None` for policies without
    /// a cost model over centers.
    fn estimates(&mut self) -> Option<Vec<(u64, f64)>> {
        None
    }
    /// The policy's counters (centers, observations, stage advances, …).
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::None
    }
    /// Its learner's share of the theorem's quantities (`γ_t`, `β_t`, the stage indices), read at
    /// checkpoints only; never read by a decision. Default: none.
    fn theory(&self) -> super::theory::LearnerTheory {
        super::theory::LearnerTheory::default()
    }
    /// `N_t(u)`: the arrivals its ε-net assigned to each center so far (Alg. 3 lines 5–11), for
    /// Assumption 1's `m_eff` and `m_max` ([`super::theory::TheoryProbe::point`]); read at
    /// checkpoints only. `None` for a policy without a net. Default: none.
    fn net_counts(&self) -> Option<&[u64]> {
        None
    }
}
