//! The threshold cache of production semantic caches (SPEC §9): a hit iff the nearest cached
//! query is within distance `τ`; every miss goes to the LLM and its response is admitted,
//! evicting the least-recently-used entry when `k` are held.
//!
//! Admission stores the response the miss just paid for, so it fetches nothing extra: no
//! switching cost is charged for it (docs/SPEC-NOTES.md), though each admission is a cache change.
//!
//! `τ` is `threshold_tau`, or resolved from a cosine similarity `threshold_cosine` on the run's
//! distance scale ([`Params::resolved_threshold_tau`](crate::config::Params::resolved_threshold_tau));
//! GPTCache's defaults are the preset [`GPTCACHE_COSINE`](crate::config::GPTCACHE_COSINE).

use super::{CacheSet, Context, Inspect, Policy, PolicyKind, Round};
use crate::space::Points;

pub struct ThresholdCache {
    ctx: Context,
    /// (key, vector, last use) of each entry.
    entries: Vec<(u64, Vec<f32>, usize)>,
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
            cache: CacheSet::new(ctx.dim),
            hit: None,
        }
    }

    fn sync(&mut self) {
        let m: Vec<(u64, &[f32])> = self.entries.iter().map(|(k, v, _)| (*k, v.as_slice())).collect();
        self.cache.replace(&m);
    }
}

impl Policy for ThresholdCache {
    fn kind(&self) -> PolicyKind {
        PolicyKind::Threshold
    }

    fn decide(&mut self, r: &Round) -> bool {
        let p: &Points = self.cache.points();
        let near = self.ctx.metric.nearest(r.x, p);
        self.hit = near.filter(|&(_, d)| d <= self.tau).map(|(j, _)| j);
        match self.hit {
            Some(j) => {
                self.entries[j].2 = r.t;
                false
            }
            None => true,
        }
    }

    fn observe(&mut self, r: &Round, _cost: f64) {
        if self.entries.len() >= self.ctx.params.k {
            // evict the least recently used (ties: the oldest entry)
            let lru = (0..self.entries.len()).min_by_key(|&j| (self.entries[j].2, j)).expect("k ≥ 1");
            self.entries.remove(lru);
        }
        self.entries.push((r.t as u64, r.x.to_vec(), r.t));
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
