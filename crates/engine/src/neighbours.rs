//! Exact nearest-neighbour and range search (for the oracle and `L(M)`, SPEC §5) over a fixed point
//! set, by a ball partition: a few pivots chosen by farthest-point sampling, every point in the
//! ball of its nearest pivot, and the triangle inequality to skip whole balls and single points
//! (`d(x, j) ≥ |d(x, p) − d(j, p)|`, `d(x, j) ≥ d(x, p) − r_p`). Answers are exactly those of a
//! full scan — the same distances (computed by [`Metric::dist`]), the same lowest-index tie rule
//! (SPEC §1) — because a point is skipped only when its lower bound exceeds the bar by [`MARGIN`],
//! far above the rounding of the bounds. On clustered data (the synthetic stream's 50 prompt
//! clusters) a query computes a few dozen distances instead of thousands; on spread-out data it
//! degrades to a scan.

use crate::space::{Distances, Metric, Points};

/// Slack on every pruning test (normalised distances are O(1); their rounding is ~1e-16).
pub const MARGIN: f64 = 1e-9;

/// A ball partition of `points` (which it owns).
#[derive(Clone, Debug)]
pub struct BallIndex {
    points: Points,
    metric: Metric,
    pivots: Vec<usize>,
    /// Per ball: its members with their distance to the pivot (ascending), and its radius.
    balls: Vec<Vec<(usize, f64)>>,
    radius: Vec<f64>,
}

impl BallIndex {
    /// About `√n` pivots (at most 256) by farthest-point sampling from point 0 (ties to the
    /// lowest index); O(n·√n) distances.
    pub fn new(points: Points, metric: Metric) -> Self {
        let n = points.len();
        let want = ((n as f64).sqrt().ceil() as usize).clamp(1, 256).min(n);
        let mut pivots = Vec::with_capacity(want);
        let mut owner = vec![0usize; n];
        let mut to_pivot = vec![f64::INFINITY; n];
        let mut next = 0usize;
        while pivots.len() < want && n > 0 {
            let p = next;
            let b = pivots.len();
            pivots.push(p);
            let mut far = (-1.0f64, 0usize);
            for j in 0..n {
                // Only a distance below the current one changes anything.
                if let Some(d) = metric.dist_unless_above(points.row(j), points.row(p), to_pivot[j]) {
                    if d < to_pivot[j] {
                        to_pivot[j] = d;
                        owner[j] = b;
                    }
                }
                if to_pivot[j] > far.0 {
                    far = (to_pivot[j], j);
                }
            }
            if far.0 <= 0.0 {
                break; // every point coincides with a pivot
            }
            next = far.1;
        }
        let mut balls = vec![Vec::new(); pivots.len()];
        let mut radius = vec![0.0f64; pivots.len()];
        for j in 0..n {
            balls[owner[j]].push((j, to_pivot[j]));
            radius[owner[j]] = radius[owner[j]].max(to_pivot[j]);
        }
        // Members by distance to their pivot: a query scans only the annulus
        // `|d(x, p) − d(j, p)| ≤ bar` of each ball, found by binary search.
        for b in &mut balls {
            crate::order::sort_by_value_then_index(b);
        }
        BallIndex { points, metric, pivots, balls, radius }
    }

    /// The indexed points.
    pub fn points(&self) -> &Points {
        &self.points
    }

    /// The largest of `radius[j]` over each ball's members (for [`within_each`](Self::within_each)).
    pub fn ball_maxima(&self, radius: &[f64]) -> Vec<f64> {
        self.balls
            .iter()
            .map(|b| b.iter().map(|&(j, _)| radius[j]).fold(f64::NEG_INFINITY, f64::max))
            .collect()
    }

    /// Every point `j` with `d(x, j) ≤ radius[j]` (exact test on the computed distance), with
    /// that distance, ascending in `j`; `ball_max` from [`ball_maxima`](Self::ball_maxima).
    pub fn within_each(&self, x: &[f32], radius: &[f64], ball_max: &[f64], out: &mut Vec<(usize, f64)>) {
        out.clear();
        let dp: Vec<f64> = self.pivots.iter().map(|&p| self.metric.dist(x, self.points.row(p))).collect();
        for (b, ball) in self.balls.iter().enumerate() {
            if dp[b] - self.radius[b] > ball_max[b] + MARGIN {
                continue;
            }
            for &(j, dj) in annulus(ball, dp[b], ball_max[b] + MARGIN) {
                if (dp[b] - dj).abs() > radius[j] + MARGIN {
                    continue;
                }
                if let Some(d) = self.metric.dist_within(x, self.points.row(j), radius[j]) {
                    out.push((j, d));
                }
            }
        }
        out.sort_unstable_by_key(|p| p.0);
    }

    /// Distances from `x` to the pivots, and the balls in order of their lower bound.
    fn order(&self, x: &[f32]) -> (Vec<f64>, Vec<usize>) {
        let dp: Vec<f64> = self.pivots.iter().map(|&p| self.metric.dist(x, self.points.row(p))).collect();
        let mut order: Vec<usize> = (0..self.pivots.len()).collect();
        crate::order::sort_indices_by(&mut order, |a| dp[a] - self.radius[a]);
        (dp, order)
    }

    /// The nearest point to `x` and its distance, ties to the lowest index — what
    /// [`Metric::nearest`] returns; `None` for an empty set.
    pub fn nearest(&self, x: &[f32]) -> Option<(usize, f64)> {
        let (dp, order) = self.order(x);
        let mut best: Option<(usize, f64)> = None;
        for b in order {
            let bar = best.map_or(f64::INFINITY, |(_, d)| d + MARGIN);
            if dp[b] - self.radius[b] > bar {
                break;
            }
            let ball = &self.balls[b];
            let start = ball.partition_point(|&(_, dj)| dj < dp[b] - bar);
            for &(j, dj) in &ball[start..] {
                let bar = best.map_or(f64::INFINITY, |(_, d)| d + MARGIN);
                if dj - dp[b] > bar {
                    break; // members are sorted by dj and the bar only falls
                }
                if dp[b] - dj > bar {
                    continue;
                }
                // Farther than the best so far cannot win, not even a tie.
                let Some(d) = self.metric.dist_unless_above(
                    x,
                    self.points.row(j),
                    best.map_or(f64::INFINITY, |(_, bd)| bd),
                ) else {
                    continue;
                };
                if best.is_none_or(|(bj, bd)| d < bd || (d == bd && j < bj)) {
                    best = Some((j, d));
                }
            }
        }
        best
    }

    /// Every point `j` with `d(x, j) ≤ r` (exact test on the computed distance) and that
    /// distance, in no particular order. Points farther than `r + MARGIN` are never computed.
    pub fn within(&self, x: &[f32], r: f64, out: &mut Vec<(usize, f64)>) {
        out.clear();
        let (dp, order) = self.order(x);
        for b in order {
            if dp[b] - self.radius[b] > r + MARGIN {
                break;
            }
            for &(j, _) in annulus(&self.balls[b], dp[b], r + MARGIN) {
                if let Some(d) = self.metric.dist_within(x, self.points.row(j), r) {
                    out.push((j, d));
                }
            }
        }
    }
}

/// The members of a ball (sorted by their distance `dj` to the pivot) with `|dp − dj| ≤ bar`.
fn annulus(ball: &[(usize, f64)], dp: f64, bar: f64) -> &[(usize, f64)] {
    let lo = ball.partition_point(|&(_, dj)| dj < dp - bar);
    let hi = ball.partition_point(|&(_, dj)| dj <= dp + bar);
    &ball[lo..hi.max(lo)]
}

/// Distances among the indexed points, with range queries answered by the index (what fast
/// Reverse Greedy asks for: the candidates within a point's reach).
impl Distances for BallIndex {
    fn len(&self) -> usize {
        self.points.len()
    }
    fn dist(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return 0.0;
        }
        self.metric.dist(self.points.row(i), self.points.row(j))
    }
    fn candidates_within(&self, i: usize, r: f64, out: &mut Vec<(f64, u32)>) {
        let mut found = Vec::new();
        self.within(self.points.row(i), r, &mut found);
        out.extend(found.into_iter().map(|(j, d)| (if j == i { 0.0 } else { d }, j as u32)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Clustered, duplicated and spread-out points alike: the index answers exactly as a scan.
    #[test]
    fn same_answers_as_a_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (n, dim, spread) in
            [(1usize, 3usize, 1.0f32), (2, 3, 0.0), (300, 8, 0.05), (500, 16, 1.0), (200, 2, 0.0)]
        {
            let centres: Vec<f32> = (0..10 * dim).map(|_| rng.random_range(-1.0..1.0)).collect();
            let mut data = Vec::new();
            for _ in 0..n {
                let c = rng.random_range(0..10);
                data.extend((0..dim).map(|k| centres[c * dim + k] + spread * rng.random_range(-1.0f32..1.0)));
            }
            let pts = Points::from_flat(dim, data).unwrap();
            let metric = Metric::new(2.0).unwrap();
            let index = BallIndex::new(pts.clone(), metric);
            for q in 0..60 {
                let x: Vec<f32> = if q % 3 == 0 {
                    pts.row(q % n).to_vec()
                } else {
                    (0..dim).map(|_| rng.random_range(-1.2f32..1.2)).collect()
                };
                assert_eq!(index.nearest(&x), metric.nearest(&x, &pts), "n = {n}, query {q}");
                for r in [0.0, 0.05, 0.3, 2.0] {
                    let mut got = Vec::new();
                    index.within(&x, r, &mut got);
                    got.sort_by_key(|p| p.0);
                    let want: Vec<(usize, f64)> =
                        (0..n).map(|j| (j, metric.dist(&x, pts.row(j)))).filter(|&(_, d)| d <= r).collect();
                    assert_eq!(got, want, "n = {n}, r = {r}");
                }
                let radii: Vec<f64> = (0..n).map(|j| [0.0, 0.02, 0.2, 1.0][j % 4]).collect();
                let mut got = Vec::new();
                index.within_each(&x, &radii, &index.ball_maxima(&radii), &mut got);
                let want: Vec<(usize, f64)> = (0..n)
                    .map(|j| (j, metric.dist(&x, pts.row(j))))
                    .filter(|&(j, d)| d <= radii[j])
                    .collect();
                assert_eq!(got, want, "n = {n}, per-point radii");
            }
        }
    }
}
