//! The threshold cache of production semantic caches (SPEC §9): a hit iff the nearest cached
//! query is within distance `τ`; every miss goes to the LLM and its response is admitted,
//! evicting when `k` are held by the rule `eviction` names ([`super::eviction`]): the
//! least-recently-used entry (the default), or GDSF's lowest `L + frequency·cost` (Cherkasova,
//! HPL-98-69, 1998), where a hit is a use.
//!
//! Admission stores the response the miss just paid for, so it fetches nothing extra: no
//! switching cost is charged for it (docs/SPEC-NOTES.md), though each admission is a cache change.
//!
//! `τ` is `threshold_tau`, or resolved from a cosine similarity `threshold_cosine` on the run's
//! distance scale ([`Params::resolved_threshold_tau`](crate::config::Params::resolved_threshold_tau));
//! GPTCache's defaults are the preset [`GPTCACHE_COSINE`](crate::config::GPTCACHE_COSINE).

use super::eviction::{Evictor, Slot};
use super::{CacheSet, Context, Inspect, Policy, Round};

pub struct ThresholdCache {
    ctx: Context,
    /// (key, vector) of each entry, in admission order.
    entries: Vec<(u64, Vec<f32>)>,
    /// Each entry's eviction bookkeeping (last use, frequency, cost, priority), as `entries`.
    slots: Vec<Slot>,
    evictor: Evictor,
    cache: CacheSet,
    hit: Option<usize>,
    /// The hit radius `τ` on this run's distance scale.
    tau: f64,
}

impl ThresholdCache {
    pub fn new(ctx: &Context) -> Self {
        ThresholdCache {
            tau: ctx.params.resolved_threshold_tau(ctx.metric.scale),
            ctx: ctx.clone(),
            entries: Vec::new(),
            slots: Vec::new(),
            evictor: Evictor::new(ctx.params.eviction),
            cache: CacheSet::new(ctx.dim),
            hit: None,
        }
    }

    fn sync(&mut self) {
        let m: Vec<(u64, &[f32])> = self.entries.iter().map(|(k, v)| (*k, v.as_slice())).collect();
        self.cache.replace(&m);
    }
}

impl Policy for ThresholdCache {
    fn decide(&mut self, r: &Round) -> bool {
        let near = self.cache.serving_nearest(&self.ctx.metric, r);
        self.hit = near.filter(|&(_, d)| d <= self.tau).map(|(j, _)| j);
        match self.hit {
            Some(j) => {
                self.evictor.used(&mut self.slots[j], r.t);
                false
            }
            None => true,
        }
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        if self.entries.len() >= self.ctx.params.k {
            // LRU: the least recently used (ties: the oldest entry); GDSF: the lowest priority
            let victim = self.evictor.victim(&self.slots);
            self.entries.remove(victim);
            self.slots.remove(victim);
        }
        self.entries.push((r.t as u64, r.x.to_vec()));
        self.slots.push(self.evictor.admitted(r.t, cost));
        self.sync();
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        Vec::new()
    }
}

impl Inspect for ThresholdCache {}
