//! The ε-net, by linear scan (SPEC §4, Alg. 3 lines 5–11).

use csc_engine::space::{DistanceMatrix, Metric};

/// The online ε-net: centers in creation order, the round that created each (its key), and the
/// pairwise center distances that Reverse Greedy reads (each row is the scan that created it).
pub(super) struct Net {
    pub(super) eps: f64,
    pub(super) metric: Metric,
    pub(super) centers: Vec<Vec<f32>>,
    pub(super) origin: Vec<u64>,
    pub(super) dists: DistanceMatrix,
}

impl Net {
    pub(super) fn new(eps: f64, metric: Metric) -> Self {
        Net { eps, metric, centers: Vec::new(), origin: Vec::new(), dists: DistanceMatrix::new() }
    }

    /// Alg. 3 lines 5–11: if `S = ∅` or `min_u d(x_t, u) > ε` then `x_t` becomes a new center,
    /// else `u_t = argmin_u d(x_t, u)` (ties to the lowest index). Returns `(u_t, is_new)`.
    pub(super) fn assign(&mut self, t: usize, x: &[f32]) -> (usize, bool) {
        let mut row = Vec::with_capacity(self.centers.len());
        let mut best = usize::MAX;
        let mut best_d = f64::INFINITY;
        for (j, c) in self.centers.iter().enumerate() {
            let d = self.metric.dist(x, c);
            row.push(d);
            if best == usize::MAX || d < best_d {
                best = j;
                best_d = d;
            }
        }
        if best != usize::MAX && best_d <= self.eps {
            return (best, false);
        }
        self.centers.push(x.to_vec());
        self.origin.push(t as u64);
        self.dists.push_row(&row);
        (self.centers.len() - 1, true)
    }

    pub(super) fn len(&self) -> usize {
        self.centers.len()
    }
}
