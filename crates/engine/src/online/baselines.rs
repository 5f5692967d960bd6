//! Baselines over the same incremental ε-net (SPEC §9, §11.8): Greedy, Epsilon-Greedy, LFU,
//! LRU — one mechanism with four scores — and the oracle cache used as reference.
//!
//! Every round each recomputes its top-k cells (ties to the lowest index) and calls the LLM iff
//! the arrival's cell's empirical mean cost (0 if unobserved) is `≤ φ(d(x, M))`. The ranking of
//! round t uses what was seen in rounds 1…t−1 (SPEC §11.8, as §11.4 and Alg. 5 for the learners):
//! `x_t` enters its cell's count and its last-request round after the cache for round t is chosen.

use super::diagnostics::{CellDiagnostics, Diagnostics};
use super::{CacheSet, Context, Inspect, Policy, Round};
use crate::epsilon_net::EpsilonNet;
use crate::error::Result;
use crate::stream::{rng, Purpose};
use rand::seq::index::sample;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How a cell policy ranks cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `N_f · mean cost` with `N_f` over rounds 1…t−1 (§11.8).
    Greedy,
    /// Greedy, but each round with probability `explore_rate` a uniformly random set of k cells.
    EpsilonGreedy,
    /// `N_f` over rounds 1…t−1 (§11.8).
    Lfu,
    /// The round a cell was last requested before round t (a cell first requested in round t
    /// ranks below every other).
    Lru,
}

/// Greedy / Epsilon-Greedy / LFU / LRU.
pub struct CellPolicy {
    score: Score,
    ctx: Context,
    net: EpsilonNet,
    n_c: Vec<u64>,
    sum_c: Vec<f64>,
    /// The round each cell was last requested, `None` before its first request is counted.
    last_seen: Vec<Option<usize>>,
    cache: CacheSet,
    cache_centers: Vec<usize>,
    fetched: Vec<u64>,
    center: usize,
    rng: ChaCha8Rng,
    /// Whether the last arrival founded a center (Alg. 3 lines 5–11; [`Inspect::acts`](super::Inspect::acts)).
    new_center: bool,
}

impl CellPolicy {
    pub fn new(ctx: &Context, score: Score) -> Result<Self> {
        Ok(CellPolicy {
            score,
            net: EpsilonNet::new(ctx.dim, ctx.params.epsilon, ctx.metric)?,
            n_c: Vec::new(),
            sum_c: Vec::new(),
            last_seen: Vec::new(),
            cache: CacheSet::new(ctx.dim),
            cache_centers: Vec::new(),
            fetched: Vec::new(),
            center: 0,
            rng: rng(ctx.params.seed, Purpose::Policy),
            new_center: false,
            ctx: ctx.clone(),
        })
    }

    fn mean(&self, u: usize) -> f64 {
        if self.n_c[u] == 0 {
            0.0
        } else {
            self.sum_c[u] / self.n_c[u] as f64
        }
    }

    /// The top-k cells by `score`, ties to the lowest index.
    fn top_k(&self, score: impl Fn(usize) -> f64) -> Vec<usize> {
        crate::epsilon_net::top_k_cells(self.net.len(), self.ctx.params.k, score)
    }
}

impl Policy for CellPolicy {
    fn net_counts(&self) -> Option<&[u64]> {
        Some(self.net.counts())
    }

    fn decide(&mut self, r: &Round) -> bool {
        let a = super::net_insert(&mut self.net, r);
        self.center = a.center;
        self.new_center = a.is_new;
        if a.is_new {
            self.n_c.push(0);
            self.sum_c.push(0.0);
            self.last_seen.push(None);
        }
        // SPEC §11.8: rank with the counts of rounds 1…t−1 — the net has already counted x_t.
        let counts = self.net.counts();
        let before = |u: usize| (counts[u] - u64::from(u == a.center)) as f64;
        let chosen = match self.score {
            Score::Greedy => self.top_k(|u| before(u) * self.mean(u)),
            Score::Lfu => self.top_k(before),
            Score::Lru => self.top_k(|u| self.last_seen[u].map_or(-1.0, |s| s as f64)),
            Score::EpsilonGreedy => {
                if self.rng.random::<f64>() < self.ctx.params.explore_rate {
                    let m = self.net.len();
                    let mut v = sample(&mut self.rng, m, self.ctx.params.k.min(m)).into_vec();
                    v.sort_unstable();
                    v
                } else {
                    self.top_k(|u| before(u) * self.mean(u))
                }
            }
        };
        self.last_seen[a.center] = Some(r.t);
        let origin = self.net.origin();
        let members: Vec<(u64, &[f32])> =
            chosen.iter().map(|&u| (origin[u] as u64, self.net.centers().row(u))).collect();
        let inserted = self.cache.replace(&members);
        self.fetched.extend(inserted);
        self.cache_centers = chosen;
        self.mean(self.center) <= self.ctx.mismatch.phi(self.cache.serving_dist(&self.ctx.metric, r))
    }

    fn observe(&mut self, _r: &Round, cost: f64) {
        self.n_c[self.center] += 1;
        self.sum_c[self.center] += cost;
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.fetched)
    }

    fn estimates(&mut self) -> Option<Vec<(u64, f64)>> {
        Some(self.net.origin().iter().enumerate().map(|(u, &o)| (o as u64, self.mean(u))).collect())
    }

    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::Cells(CellDiagnostics {
            centers: self.net.len(),
            observations: self.n_c.iter().sum::<u64>(),
        })
    }
}

impl Inspect for CellPolicy {
    fn acting_cost(&self) -> Option<f64> {
        Some(self.mean(self.center))
    }
    fn acts(&self) -> super::Acts {
        super::Acts { new_center: self.new_center, ..super::Acts::default() }
    }

    fn centers(&self) -> Option<&[usize]> {
        Some(self.net.origin())
    }
    fn center_details(&mut self) -> Option<Vec<super::CenterInfo>> {
        let means: Vec<f64> = (0..self.net.len()).map(|u| self.mean(u)).collect();
        let sds = vec![f64::NAN; means.len()];
        Some(super::inspect::center_details(
            &self.net,
            &self.cache_centers,
            &means,
            &sds,
            &means,
            self.ctx.mismatch,
        ))
    }
    fn current_center(&self) -> Option<usize> {
        (!self.net.is_empty()).then_some(self.center)
    }
}

/// The evaluation oracle's cache `M_orc`, fixed from round 0 and served by eq. 1 with the true
/// cost — the reference every regret is measured against. Its responses are taken as given
/// (no fetch is charged), so its expected regret is 0 by construction.
pub struct OracleCache {
    ctx: Context,
    cache: CacheSet,
}

impl OracleCache {
    pub fn new(ctx: &Context, members: &[(u64, Vec<f32>)]) -> Self {
        let mut cache = CacheSet::new(ctx.dim);
        let m: Vec<(u64, &[f32])> = members.iter().map(|(k, v)| (*k, v.as_slice())).collect();
        cache.replace(&m);
        OracleCache { ctx: ctx.clone(), cache }
    }
}

impl Policy for OracleCache {
    fn decide(&mut self, r: &Round) -> bool {
        crate::loss::serve_from_llm(
            r.true_cost,
            self.ctx.mismatch.phi(self.cache.serving_dist(&self.ctx.metric, r)),
        )
    }
    fn observe(&mut self, _r: &Round, _cost: f64) {}
    fn cache(&self) -> &CacheSet {
        &self.cache
    }
    fn take_fetched(&mut self) -> Vec<u64> {
        Vec::new()
    }
}

impl Inspect for OracleCache {}
