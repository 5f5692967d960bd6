//! The ε-net and its Voronoi cells (SPEC §4, §11.1; paper §2 "Discretization via ε-Net",
//! Alg. 2 lines 2–3, Alg. 3 lines 5–11).
//!
//! Built greedily in arrival order: a point becomes a new center iff its distance to every
//! existing center is `> ε`; otherwise it belongs to its nearest center (ties to the lowest
//! index). The net also keeps the pairwise distances among its centers, which come for free
//! (a new center's row is exactly the distances just computed to decide it) and are what
//! Reverse Greedy needs over the centers.

use crate::error::{Error, Result};
use crate::space::{DistanceMatrix, Metric, Points};
use std::collections::HashMap;

/// Where an inserted point went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assignment {
    /// Index of its center.
    pub center: usize,
    /// Whether the point became a new center (then `distance == 0`).
    pub is_new: bool,
    /// Distance from the point to its center.
    pub distance: f64,
}

/// A greedily built ε-net that grows one point at a time.
#[derive(Clone, Debug)]
pub struct EpsilonNet {
    eps: f64,
    metric: Metric,
    centers: Points,
    /// For each center, the insertion index of the point that created it.
    origin: Vec<usize>,
    /// Per-cell counts: how many inserted points were assigned to each center on arrival.
    counts: Vec<u64>,
    center_dists: DistanceMatrix,
    inserted: usize,
    row: Vec<f64>,
    /// Universe rows seen before ([`insert_known`](Self::insert_known)): the nearest center
    /// among the first `scanned` centers. Bounded by the universe's size.
    seen: HashMap<u32, Seen>,
}

/// A known point's nearest center among the first `scanned` centers (ties to the lowest index).
#[derive(Clone, Copy, Debug)]
struct Seen {
    center: usize,
    distance: f64,
    scanned: usize,
}

impl EpsilonNet {
    /// An empty net of radius `eps > 0` for `dim`-dimensional points.
    pub fn new(dim: usize, eps: f64, metric: Metric) -> Result<Self> {
        if !(eps.is_finite() && eps > 0.0) {
            return Err(Error::param(
                "epsilon",
                format!("the ε-net radius must be positive and finite, got {eps}"),
            ));
        }
        Ok(EpsilonNet {
            eps,
            metric,
            centers: Points::new(dim)?,
            origin: Vec::new(),
            counts: Vec::new(),
            center_dists: DistanceMatrix::new(),
            inserted: 0,
            row: Vec::new(),
            seen: HashMap::new(),
        })
    }

    /// Batch construction over `points` in order (offline, Alg. 2 line 2). Returns the net and
    /// each point's assignment made on arrival.
    pub fn build(points: &Points, eps: f64, metric: Metric) -> Result<(Self, Vec<Assignment>)> {
        let mut net = EpsilonNet::new(points.dim(), eps, metric)?;
        let assignments = points.iter().map(|x| net.insert(x)).collect::<Result<Vec<_>>>()?;
        Ok((net, assignments))
    }

    /// Inserts one point (Alg. 3 lines 5–11): a new center if `min_u d(x, u) > ε` or the net is
    /// empty, else assigned to its nearest center. Increments that center's count.
    pub fn insert(&mut self, x: &[f32]) -> Result<Assignment> {
        self.insert_known(x, None)
    }

    /// [`insert`](Self::insert) for a point that is universe row `index` when `Some` (the same
    /// row always has the same bits, [`crate::online::Round::index`]). A row seen before cannot
    /// found a center — it is within ε of the center it joined or founded, and centers are never
    /// removed — and its nearest center can only change to one created since, so only those are
    /// scanned (strictly nearer wins: the lowest-index tie rule of the full scan). The result is
    /// the full scan's, bit for bit (unit test below; `every_policy_keeps_its_bits`).
    pub fn insert_known(&mut self, x: &[f32], index: Option<u32>) -> Result<Assignment> {
        if let Some(s) = index.and_then(|i| self.seen.get_mut(&i)) {
            for j in s.scanned..self.centers.len() {
                let d = self.metric.dist(x, self.centers.row(j));
                if d < s.distance {
                    (s.center, s.distance) = (j, d);
                }
            }
            s.scanned = self.centers.len();
            self.inserted += 1;
            self.counts[s.center] += 1;
            return Ok(Assignment { center: s.center, is_new: false, distance: s.distance });
        }
        let a = self.insert_scanning(x)?;
        if let Some(i) = index {
            self.seen.insert(i, Seen { center: a.center, distance: a.distance, scanned: self.centers.len() });
        }
        Ok(a)
    }

    /// Inserts `x` where `step` says it goes: the assignment another net with the same radius and
    /// metric made for the same point after the same insertions ([`SharedNet`]). No distance is
    /// computed: a new center takes `step.row` (its distances to the existing centers) as its row
    /// of [`center_distances`](Self::center_distances). The net ends as [`insert`](Self::insert)
    /// would leave it, bit for bit, except that the point is not remembered for
    /// [`insert_known`](Self::insert_known)'s shortcut (a later repeat scans in full: same result).
    pub fn insert_assigned(&mut self, x: &[f32], step: &NetStep) -> Result<Assignment> {
        let a = step.assignment;
        if a.is_new {
            if a.center != self.centers.len() || step.row.len() != a.center {
                return Err(Error::data("a shared ε-net step does not fit this net"));
            }
            self.centers.push(x)?;
            self.center_dists.push_row(step.row);
            self.origin.push(self.inserted);
            self.counts.push(1);
        } else {
            let Some(n) = self.counts.get_mut(a.center) else {
                return Err(Error::data("a shared ε-net step names a center this net does not have"));
            };
            *n += 1;
        }
        self.inserted += 1;
        Ok(a)
    }

    /// The full scan behind [`insert`](Self::insert).
    fn insert_scanning(&mut self, x: &[f32]) -> Result<Assignment> {
        if x.len() != self.centers.dim() {
            return Err(Error::data(format!(
                "a query has {} coordinates but the ε-net is {}-dimensional",
                x.len(),
                self.centers.dim()
            )));
        }
        self.row.clear();
        let mut best: Option<(usize, f64)> = None;
        for (j, c) in self.centers.iter().enumerate() {
            let d = self.metric.dist(x, c);
            self.row.push(d);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        self.inserted += 1;
        match best {
            Some((j, d)) if d <= self.eps => {
                self.counts[j] += 1;
                Ok(Assignment { center: j, is_new: false, distance: d })
            }
            _ => {
                let j = self.centers.push(x)?;
                self.center_dists.push_row(&self.row);
                self.origin.push(self.inserted - 1);
                self.counts.push(1);
                Ok(Assignment { center: j, is_new: true, distance: 0.0 })
            }
        }
    }

    /// The nearest center to `x` and its distance (ties to the lowest index).
    pub fn nearest(&self, x: &[f32]) -> Option<(usize, f64)> {
        self.metric.nearest(x, &self.centers)
    }

    /// Each point's nearest *final* center: the Voronoi cells used for offline weights (§11.1).
    pub fn voronoi_cells(&self, points: &Points) -> Vec<usize> {
        points.iter().map(|x| self.nearest(x).map_or(0, |(j, _)| j)).collect()
    }

    /// Cell sizes from a cell assignment.
    pub fn cell_counts(cells: &[usize], m: usize) -> Vec<u64> {
        let mut n = vec![0u64; m];
        for &c in cells {
            n[c] += 1;
        }
        n
    }

    pub fn eps(&self) -> f64 {
        self.eps
    }
    pub fn metric(&self) -> &Metric {
        &self.metric
    }
    pub fn len(&self) -> usize {
        self.centers.len()
    }
    pub fn is_empty(&self) -> bool {
        self.centers.is_empty()
    }
    pub fn centers(&self) -> &Points {
        &self.centers
    }
    pub fn origin(&self) -> &[usize] {
        &self.origin
    }
    /// Points assigned to each center on arrival (the online `N_f(u)` of Alg. 5 line 2).
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }
    /// Pairwise distances among the centers.
    pub fn center_distances(&self) -> &DistanceMatrix {
        &self.center_dists
    }
    /// Number of points inserted so far.
    pub fn inserted(&self) -> usize {
        self.inserted
    }
}

/// Where a shared net put one arrival: its [`Assignment`] and, for a new center, its distances to
/// the centers before it (empty otherwise). See [`EpsilonNet::insert_assigned`].
#[derive(Clone, Copy, Debug)]
pub struct NetStep<'a> {
    pub assignment: Assignment,
    pub row: &'a [f64],
}

/// One ε-net per radius grown over the arrivals of a run, shared by the run's policies: the net of
/// Alg. 3 lines 5–11 depends only on the arrivals, not on the policy, so the scan of an arrival
/// against every center is done once per run instead of once per policy. Each insertion is logged;
/// a policy whose `i`-th arrival is the `i`-th arrival of the log replays the logged
/// [`Assignment`] into its own net ([`EpsilonNet::insert_assigned`]), whichever policy came first
/// (policies run side by side in the live view, one after the other in a unit).
///
/// The caller vouches that the arrivals it passes are the run's (the simulator passes trace
/// arrivals only: [`crate::online::sim::Simulation::step_foreign`] detaches). The universe row of
/// each logged arrival is checked as well: a different row is refused (`None`).
#[derive(Debug, Default)]
pub struct SharedNet {
    logs: std::sync::Mutex<Vec<NetLog>>,
    /// Rounds to make room for when a net is started (the horizon).
    rounds: usize,
}

#[derive(Debug)]
struct NetLog {
    net: EpsilonNet,
    /// One entry per insertion, 12 bytes, room made for the horizon when the net starts (so a
    /// long live run does not grow while it streams).
    steps: Vec<LogEntry>,
}

/// A logged insertion: its center (with [`NEW`] when the arrival founded it, [`ROW`] when it
/// was universe row `row`) and the time its scan took.
#[derive(Clone, Copy, Debug)]
struct LogEntry {
    center: u32,
    row: u32,
    scan_ms: f32,
}

const NEW: u32 = 1 << 31;
const ROW: u32 = 1 << 30;

impl SharedNet {
    /// Shared nets for runs of `rounds` arrivals (room is made for them when a net starts).
    pub fn new(rounds: usize) -> Self {
        SharedNet { logs: Default::default(), rounds }
    }

    /// The assignment of arrival number `i` (from 0) in the net of radius `eps`: the logged one,
    /// or — when `i` is the next insertion — the net's new one; with the time (ms) its scan took
    /// when it was made (what a policy scanning on its own would have spent: the simulator
    /// charges it to every policy's timer). `row` receives a new center's distances. `None` (the
    /// caller then uses its own net) when `i` is beyond the next insertion, the logged arrival
    /// was another universe row, or `x` is invalid for the net.
    pub fn assign(
        &self,
        eps: f64,
        metric: Metric,
        i: usize,
        x: &[f32],
        index: Option<u32>,
        row: &mut Vec<f64>,
    ) -> Option<(Assignment, f64)> {
        let mut logs = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let at =
            match logs.iter().position(|l| l.net.eps.to_bits() == eps.to_bits() && l.net.metric == metric) {
                Some(at) => at,
                None => {
                    let net = EpsilonNet::new(x.len(), eps, metric).ok()?;
                    logs.push(NetLog { net, steps: Vec::with_capacity(self.rounds) });
                    logs.len() - 1
                }
            };
        let log = &mut logs[at];
        let (a, scan_ms) = if i < log.steps.len() {
            let e = log.steps[i];
            let logged = (e.center & ROW != 0).then_some(e.row);
            if logged != index || x.len() != log.net.centers.dim() {
                return None;
            }
            let center = (e.center & !(NEW | ROW)) as usize;
            let is_new = e.center & NEW != 0;
            // The scan's distance to the center, recomputed the same way (same bits).
            let distance = if is_new { 0.0 } else { log.net.metric.dist(x, log.net.centers.row(center)) };
            (Assignment { center, is_new, distance }, f64::from(e.scan_ms))
        } else if i == log.steps.len() {
            let t0 = crate::clock::Instant::now();
            let a = log.net.insert_known(x, index).ok()?;
            let scan_ms = t0.elapsed().as_secs_f64() * 1e3;
            let center = u32::try_from(a.center).ok().filter(|&c| c < ROW)?;
            let flags = if a.is_new { NEW } else { 0 } | if index.is_some() { ROW } else { 0 };
            log.steps.push(LogEntry {
                center: center | flags,
                row: index.unwrap_or(0),
                scan_ms: scan_ms as f32,
            });
            (a, f64::from(scan_ms as f32))
        } else {
            return None;
        };
        row.clear();
        if a.is_new {
            row.extend_from_slice(log.net.center_distances().row(a.center));
        }
        Some((a, scan_ms))
    }

    /// Time spent scanning arrivals in every net so far (ms).
    pub fn elapsed_ms(&self) -> f64 {
        let logs = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        logs.iter().flat_map(|l| &l.steps).map(|e| f64::from(e.scan_ms)).sum()
    }
}

/// The `k` cells with the highest `score` (ties to the lowest index), ascending: how Greedy, LFU
/// and LRU rank cells, offline and online (SPEC §11.8).
///
/// Each cell's score is computed once, then the cells are sorted by it through the engine's one
/// ranking sort ([`top_k_by`], [`crate::order`]): the same cells as comparing `score` inside the
/// sort (the order, score descending then index ascending, is total, so any sort gives it), with
/// one sort compiled for every caller instead of one per closure (docs/PERFORMANCE.md, "Where the
/// page's wasm goes").
pub fn top_k_cells(m: usize, k: usize, score: impl Fn(usize) -> f64) -> Vec<usize> {
    let scores: Vec<f64> = (0..m).map(score).collect();
    top_k_by(&scores, k)
}

/// The `k` indices of `scores` with the highest score (ties to the lowest index), ascending.
pub fn top_k_by(scores: &[f64], k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    crate::order::sort_indices_by(&mut idx, |i| -scores[i]);
    idx.truncate(k);
    idx.sort_unstable();
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Distances;

    proptest::proptest! {
        /// `top_k_cells` scores each cell once and sorts by the scores; the plain form compares
        /// `score` inside the sort. The same cells, ties (few distinct scores) and NaN included.
        #[test]
        fn top_k_cells_is_the_plain_ranking(
            raw in proptest::collection::vec(0u8..6, 0..40),
            k in 0usize..12,
            nan in proptest::option::of(0usize..40),
        ) {
            let score = |u: usize| if Some(u) == nan { f64::NAN } else { f64::from(raw[u]) * 0.1 };
            let mut plain: Vec<usize> = (0..raw.len()).collect();
            plain.sort_by(|&a, &b| score(b).total_cmp(&score(a)).then(a.cmp(&b)));
            plain.truncate(k);
            plain.sort_unstable();
            proptest::prop_assert_eq!(top_k_cells(raw.len(), k, score), plain);
        }
    }

    #[test]
    fn greedy_in_arrival_order_by_hand() {
        // On a line with D = 1 and ε = 0.3: 0.0 → center 0; 0.2 → cell 0; 0.5 → center 1
        // (0.5 > 0.3 from 0.0); 0.35 → equidistant-ish: d(0.35,0)=0.35 > ε, d(0.35,0.5)=0.15 → cell 1;
        // 1.0 → center 2; 0.25 → cell 0 (0.25 vs 0.25: tie → lowest index 0).
        let xs = [0.0f32, 0.2, 0.5, 0.35, 1.0, 0.25];
        let p = Points::from_flat(1, xs.to_vec()).unwrap();
        let (net, a) = EpsilonNet::build(&p, 0.3, Metric::new(1.0).unwrap()).unwrap();
        let centers: Vec<usize> = a.iter().map(|a| a.center).collect();
        assert_eq!(centers, vec![0, 0, 1, 1, 2, 0]);
        assert_eq!(a.iter().filter(|a| a.is_new).count(), 3);
        assert_eq!(net.origin(), &[0, 2, 4]);
        assert_eq!(net.counts(), &[3, 2, 1]);
        assert!((net.center_distances().dist(2, 1) - 0.5).abs() < 1e-7);
        // Final Voronoi cells (§11.1) use the final centers: 0.2 is nearer 0.0 than 0.5.
        assert_eq!(net.voronoi_cells(&p), vec![0, 0, 1, 1, 2, 0]);
        assert_eq!(EpsilonNet::cell_counts(&net.voronoi_cells(&p), 3), vec![3, 2, 1]);
    }

    /// Known rows take the shortcut; the assignments and the net are those of the full scan,
    /// including repeats whose nearest center changes after they were first seen and ties.
    #[test]
    fn known_rows_assign_as_the_full_scan() {
        let xs = [0.0f32, 0.25, 0.6, 0.25, 0.3, 0.45, 0.25, 1.0, 0.45, 0.6, 0.0, 0.75, 0.45];
        let rows = [0u32, 1, 2, 1, 3, 4, 1, 5, 4, 2, 0, 6, 4];
        // ε = 0.5: row 1 (0.4) joins center 0.0, then 0.55 founds a center nearer to it.
        let moved = ([0.0f32, 0.4, 0.55, 0.4, 0.25, 0.25], [0u32, 1, 2, 1, 3, 3]);
        let mut cases: Vec<(f64, &[f32], &[u32])> =
            [0.05, 0.2, 0.3, 0.5].iter().map(|&eps| (eps, &xs[..], &rows[..])).collect();
        cases.push((0.5, &moved.0, &moved.1));
        for (eps, xs, rows) in cases {
            let metric = Metric::new(1.0).unwrap();
            let (mut plain, mut known) =
                (EpsilonNet::new(1, eps, metric).unwrap(), EpsilonNet::new(1, eps, metric).unwrap());
            for (x, &row) in xs.iter().zip(rows) {
                assert_eq!(plain.insert(&[*x]).unwrap(), known.insert_known(&[*x], Some(row)).unwrap());
            }
            assert_eq!(plain.counts(), known.counts());
            assert_eq!(plain.origin(), known.origin());
            assert_eq!(plain.center_distances().len(), known.center_distances().len());
        }
        let mut net = EpsilonNet::new(1, 0.5, Metric::new(1.0).unwrap()).unwrap();
        let centers: Vec<usize> = moved
            .0
            .iter()
            .zip(&moved.1)
            .map(|(x, &r)| net.insert_known(&[*x], Some(r)).unwrap().center)
            .collect();
        assert_eq!(centers, vec![0, 0, 1, 1, 0, 0], "the repeat of 0.4 moves to the newer, nearer center");
    }

    /// A net fed the shared net's steps is the net that scans; the shared net refuses an
    /// arrival whose universe row differs from the one it logged, and steps beyond its next one.
    #[test]
    fn shared_steps_rebuild_the_scanned_net() {
        let xs = [0.0f32, 0.25, 0.6, 0.25, 0.3, 0.45, 0.25, 1.0, 0.45, 0.6, 0.0, 0.75, 0.45];
        let rows = [0u32, 1, 2, 1, 3, 4, 1, 5, 4, 2, 0, 6, 4];
        let metric = Metric::new(1.0).unwrap();
        for eps in [0.05, 0.2, 0.3, 0.5] {
            let shared = SharedNet::new(0);
            let (mut plain, mut fed) =
                (EpsilonNet::new(1, eps, metric).unwrap(), EpsilonNet::new(1, eps, metric).unwrap());
            let mut row = Vec::new();
            for (i, (x, &r)) in xs.iter().zip(&rows).enumerate() {
                let index = (i % 2 == 0).then_some(r);
                let a = shared.assign(eps, metric, i, &[*x], index, &mut row).unwrap();
                assert_eq!(shared.assign(eps, metric, i, &[*x], index, &mut row), Some(a), "replayed");
                let a = a.0;
                assert_eq!(fed.insert_assigned(&[*x], &NetStep { assignment: a, row: &row }).unwrap(), a);
                assert_eq!(plain.insert(&[*x]).unwrap(), a);
            }
            assert_eq!(plain.counts(), fed.counts());
            assert_eq!(plain.origin(), fed.origin());
            assert_eq!(plain.centers().len(), fed.centers().len());
            for u in 0..plain.len() {
                assert_eq!(plain.centers().row(u), fed.centers().row(u));
                assert_eq!(plain.center_distances().row(u), fed.center_distances().row(u));
            }
            assert_eq!(shared.assign(eps, metric, 0, &[0.0], Some(9), &mut row), None, "another row");
            assert_eq!(shared.assign(eps, metric, xs.len() + 1, &[0.0], None, &mut row), None, "a gap");
        }
    }

    #[test]
    fn exactly_eps_joins_the_cell() {
        let p = Points::from_flat(1, vec![0.0, 0.5]).unwrap();
        let (net, _) = EpsilonNet::build(&p, 0.5, Metric::new(1.0).unwrap()).unwrap();
        assert_eq!(net.len(), 1, "distance exactly ε is covered (new center needs > ε)");
        assert!(EpsilonNet::new(1, 0.0, Metric::new(1.0).unwrap()).is_err());
    }
}
