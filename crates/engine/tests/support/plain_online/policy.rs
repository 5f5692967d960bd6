//! The plain policies' interface: a round's decision, the [`PlainPolicy`] trait, `d(x, M)`.

use csc_engine::space::Metric;
use csc_engine::stream::Arrival;

/// A policy's decision in round t.
pub struct Decision {
    pub llm: bool,
    pub acting: f64,
}

pub(super) trait PlainPolicy {
    /// Round `t`: sees `x_t`, may switch, decides (LLM iff `acting ≤ φ(d(x_t, M_t))`).
    fn decide(&mut self, t: usize, a: &Arrival) -> Decision;
    /// The LLM was called and returned `C_t = c(x_t) + η_t`.
    fn observe(&mut self, a: &Arrival, y: f64);
    /// The serving cache as (keys, vectors).
    fn cache(&self) -> (Vec<u64>, Vec<Vec<f32>>);
    /// `(key, ĉ)` at the centers, for the KRR-error metric.
    fn estimates(&self) -> Option<Vec<(u64, f64)>>;
}

/// `d(x, M)` for a cache of vectors (`∞` for the empty cache).
pub(super) fn dist_to(metric: &Metric, x: &[f32], cache: &[Vec<f32>]) -> f64 {
    let mut d = f64::INFINITY;
    for u in cache {
        d = d.min(metric.dist(x, u));
    }
    d
}
