//! Greedy, Epsilon-Greedy, LFU over the incremental ε-net (SPEC §9, §11.8), plain.

use super::net::Net;
use super::policy::{dist_to, Decision, PlainPolicy};
use super::PlainEnv;
use csc_engine::config::Params;
use csc_engine::mismatch::Mismatch;
use csc_engine::space::Metric;
use csc_engine::stream::{rng, Arrival, Purpose};
use rand::seq::index::sample;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Score {
    Greedy,
    EpsilonGreedy,
    Lfu,
}

pub(super) struct Cells {
    score: Score,
    params: Params,
    metric: Metric,
    mismatch: Mismatch,
    net: Net,
    /// `N_f(u)`: arrivals of rounds 1…t−1 in the cell while round t ranks (SPEC §11.8); the
    /// current arrival is counted after the cache for its round is chosen.
    n_f: Vec<u64>,
    n_c: Vec<u64>,
    sum_c: Vec<f64>,
    cache: Vec<usize>,
    center: usize,
    rng: ChaCha8Rng,
}

impl Cells {
    pub(super) fn new(env: &PlainEnv, params: &Params, score: Score) -> Self {
        Cells {
            score,
            params: params.clone(),
            metric: env.metric,
            mismatch: env.mismatch,
            net: Net::new(params.epsilon, env.metric),
            n_f: Vec::new(),
            n_c: Vec::new(),
            sum_c: Vec::new(),
            cache: Vec::new(),
            center: 0,
            rng: rng(params.seed, Purpose::Policy),
        }
    }

    /// The cell's empirical mean cost, 0 if unobserved (SPEC §11.8).
    fn mean(&self, u: usize) -> f64 {
        if self.n_c[u] == 0 {
            0.0
        } else {
            self.sum_c[u] / self.n_c[u] as f64
        }
    }

    /// The k highest scores, ties to the lowest index, returned ascending: k passes of a linear
    /// arg-max over the cells not yet chosen.
    fn top_k(&self, score: impl Fn(usize) -> f64) -> Vec<usize> {
        let m = self.net.len();
        let mut chosen: Vec<usize> = Vec::new();
        while chosen.len() < self.params.k.min(m) {
            let mut best: Option<(usize, f64)> = None;
            for u in 0..m {
                if chosen.contains(&u) {
                    continue;
                }
                let s = score(u);
                if best.is_none() || s > best.expect("set").1 {
                    best = Some((u, s));
                }
            }
            chosen.push(best.expect("a cell is left").0);
        }
        chosen.sort_unstable();
        chosen
    }
}

impl PlainPolicy for Cells {
    fn decide(&mut self, t: usize, a: &Arrival) -> Decision {
        let (u, is_new) = self.net.assign(t, a.x);
        if is_new {
            self.n_f.push(0);
            self.n_c.push(0);
            self.sum_c.push(0.0);
        }
        self.center = u;
        let greedy = |s: &Self| s.top_k(|v| s.n_f[v] as f64 * s.mean(v));
        self.cache = match self.score {
            Score::Greedy => greedy(self),
            Score::Lfu => self.top_k(|v| self.n_f[v] as f64),
            Score::EpsilonGreedy => {
                // With probability explore_rate, k uniformly random cells; else Greedy's top-k.
                if self.rng.random::<f64>() < self.params.explore_rate {
                    let m = self.net.len();
                    let mut v = sample(&mut self.rng, m, self.params.k.min(m)).into_vec();
                    v.sort_unstable();
                    v
                } else {
                    greedy(self)
                }
            }
        };
        // SPEC §11.8: x_t enters N_f after the ranking of its round.
        self.n_f[u] += 1;
        let (_, cache) = self.cache();
        let phi = self.mismatch.phi(dist_to(&self.metric, a.x, &cache));
        let mean = self.mean(u);
        Decision { llm: mean <= phi, acting: mean }
    }

    fn observe(&mut self, _a: &Arrival, y: f64) {
        self.n_c[self.center] += 1;
        self.sum_c[self.center] += y;
    }

    fn cache(&self) -> (Vec<u64>, Vec<Vec<f32>>) {
        let keys = self.cache.iter().map(|&j| self.net.origin[j]).collect();
        let vecs = self.cache.iter().map(|&j| self.net.centers[j].clone()).collect();
        (keys, vecs)
    }

    fn estimates(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.net.origin.iter().enumerate().map(|(u, &o)| (o, self.mean(u))).collect())
    }
}
