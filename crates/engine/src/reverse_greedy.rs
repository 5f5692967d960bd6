//! The oracle: Continuous Reverse Greedy (Alg. 1, SPEC §5) and the exact optimum.
//!
//! Alg. 1 starts from `M = S` and, while `|M| > k`, removes the `q` minimising
//! `L̂(M \ {q}; S, w, c)` (eq. 4). Ties (SPEC §1): among removals of equal cost, remove a
//! candidate that is *not* in the incumbent cache first, then the lowest index.
//!
//! [`reverse_greedy`] is the fast form: every point `i` of `S` keeps its nearest (`n1`) and
//! second-nearest (`n2`) member of `M`, so removing `q` changes the loss by
//! `Δ(q) = Σ_{i: n1(i)=q} w_i·(g(i, n2(i)) − g(i, q))`, `g(i, u) = min(c_i, φ(d(x_i, u)))`.
//! One removal costs one O(|S|) pass plus an O(|M|) rescan for each point whose `n1` or `n2`
//! was removed — instead of |M| full re-evaluations of eq. 4. [`reverse_greedy_plain`] is the
//! literal algorithm; tests prove both pick the same caches.

use crate::error::{Error, Result};
use crate::loss::discretised_loss;
use crate::mismatch::Mismatch;
use crate::space::Distances;

/// A Reverse Greedy problem: candidates `S` (with their distances), weights `w`, costs `c`, `φ`.
pub struct Instance<'a, D: Distances + ?Sized> {
    pub dist: &'a D,
    pub weights: &'a [f64],
    pub costs: &'a [f64],
    pub mismatch: Mismatch,
    /// A lower bound `s` with `d(i, j) > s` for all candidates `i ≠ j` (an ε-net's ε), if known:
    /// it lets the fast form skip distance scans (see [`reverse_greedy`]).
    pub separation: Option<f64>,
}

/// A chosen cache.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Indices into `S`, ascending.
    pub cache: Vec<usize>,
    /// `L̂(cache; S, w, c)`.
    pub loss: f64,
    /// Candidates in the order Reverse Greedy removed them (empty for the exact optimum).
    pub removed: Vec<usize>,
}

impl<'a, D: Distances + ?Sized> Instance<'a, D> {
    pub fn new(dist: &'a D, weights: &'a [f64], costs: &'a [f64], mismatch: Mismatch) -> Result<Self> {
        let n = dist.len();
        if weights.len() != n || costs.len() != n {
            return Err(Error::data(format!(
                "Reverse Greedy needs one weight and one cost per candidate: {n} candidates, {} weights, {} costs",
                weights.len(),
                costs.len()
            )));
        }
        if let Some(i) = weights.iter().position(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(Error::data(format!(
                "weight {i} is {} (weights must be finite and ≥ 0)",
                weights[i]
            )));
        }
        if let Some(i) = costs.iter().position(|c| !c.is_finite()) {
            return Err(Error::data(format!("cost {i} is {} (costs must be finite)", costs[i])));
        }
        mismatch.validate()?;
        Ok(Instance { dist, weights, costs, mismatch, separation: None })
    }

    /// Declares the candidates pairwise farther apart than `s` (they are an `s`-net, SPEC §4).
    pub fn with_separation(mut self, s: f64) -> Self {
        self.separation = Some(s);
        self
    }

    /// `g(i, u) = min(c_i, φ(d(x_i, u)))`; `u = None` is the empty cache (`φ = 1`).
    #[inline]
    fn g(&self, i: usize, u: Option<usize>) -> f64 {
        let phi = u.map_or(1.0, |u| self.mismatch.phi(self.dist.dist(i, u)));
        self.costs[i].min(phi)
    }

    /// `L̂(M)` for the cache `members` (eq. 4).
    pub fn loss(&self, members: &[usize]) -> f64 {
        discretised_loss(self.dist, self.weights, self.costs, &self.mismatch, members)
    }

    /// Losses closer than this are ties: a millionth of a millionth of the total weight·cost
    /// scale, far above rounding in a sum of ≤ 10⁶ terms and far below any real difference.
    fn tie_tolerance(&self) -> f64 {
        let scale: f64 = self.weights.iter().zip(self.costs).map(|(w, c)| w * c.abs().max(1.0)).sum();
        1e-12 * scale.max(f64::MIN_POSITIVE)
    }
}

/// The removal Alg. 1 line 4 picks among `(value, cached, index)` candidates in ascending index
/// order: the minimum value; ties — values within `tol` of it — go to a candidate outside the
/// incumbent cache first, then to the lowest index (SPEC §1).
fn choose_removal(cands: &[(f64, bool, usize)], tol: f64) -> usize {
    let best = cands.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let tied = |c: &&(f64, bool, usize)| c.0 <= best + tol;
    cands.iter().filter(tied).find(|c| !c.1).or_else(|| cands.iter().find(tied)).expect("non-empty").2
}

fn membership(n: usize, incumbent: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &i in incumbent {
        if i < n {
            m[i] = true;
        }
    }
    m
}

/// Continuous Reverse Greedy (Alg. 1), fast form. `incumbent` is the cache currently held (for
/// the tie rule); pass `&[]` when there is none.
///
/// Sparse bookkeeping: point `i` only "sees" the candidates `N(i) = {j : φ(d(i, j)) < f_i}`,
/// `f_i = g(i, ∅) = min(c_i, φ(∞))`, sorted by distance (then index). Every candidate outside
/// `N(i)` gives `g(i, ·) = f_i` exactly, so `n1`/`n2` only need to walk `N(i)`: one removal
/// touches the points that see the removed candidate, and re-sums the `Δ` of the candidates
/// whose owners changed — in ascending point order, so every `Δ` has the same bits as the full
/// pass of the plain form's loop. Points with `w_i = 0` or `f_i ≤ φ(0)` contribute nothing to
/// any `Δ` and are skipped. When the candidates are an ε-net ([`Instance::with_separation`]),
/// a point with `φ(ε) ≥ f_i` sees only itself, without scanning its row.
pub fn reverse_greedy<D: Distances + ?Sized>(inst: &Instance<D>, k: usize, incumbent: &[usize]) -> Outcome {
    let n = inst.dist.len();
    if n <= k {
        // Alg. 1 line 2: if m ≤ k return S.
        let cache: Vec<usize> = (0..n).collect();
        return Outcome { loss: inst.loss(&cache), cache, removed: Vec::new() };
    }
    let tol = inst.tie_tolerance();
    let in_cache = membership(n, incumbent);
    let seen = Neighbourhoods::build(inst);
    // Per active point: positions (into its list) of n1 and n2; `NONE` = past the end.
    let mut p1 = vec![NONE; n];
    let mut p2 = vec![NONE; n];
    for &i in &seen.active {
        let list = seen.list(i);
        p1[i] = 0;
        p2[i] = if list.len() > 1 { 1 } else { NONE };
    }
    let g_at = |i: usize, p: u32| -> f64 {
        if p == NONE {
            seen.far[i]
        } else {
            seen.g[seen.start[i] + p as usize]
        }
    };
    let n1_of =
        |i: usize, p: u32| -> Option<usize> { (p != NONE).then(|| seen.list(i)[p as usize] as usize) };

    // Δ(q) = Σ_{i: n1(i) = q} w_i·(g(i, n2) − g(i, n1)), summed over the points that see q.
    let delta_of = |q: usize, p1: &[u32], p2: &[u32]| -> f64 {
        let mut s = 0.0;
        for &i in seen.watchers(q) {
            let i = i as usize;
            if n1_of(i, p1[i]) == Some(q) {
                s += inst.weights[i] * (g_at(i, p2[i]) - g_at(i, p1[i]));
            }
        }
        s
    };
    let mut trees = [MinTree::new(n), MinTree::new(n)]; // [not cached, cached]
    for q in 0..n {
        trees[in_cache[q] as usize].set(q, delta_of(q, &p1, &p2));
    }

    let mut alive = vec![true; n];
    let mut removed = Vec::with_capacity(n - k);
    let mut dirty: Vec<usize> = Vec::new();
    let mut stamp = vec![usize::MAX; n];
    // With k = 0 the last member is removed below, once it is the only choice.
    let mut left = n;
    while left > k.max(1) {
        // Alg. 1 line 4: argmin_q L̂(M \ {q}) = argmin_q Δ(q); ties (within `tol` of the
        // minimum) go to a candidate outside the incumbent cache, then the lowest index.
        let best = trees[0].min().min(trees[1].min());
        let q = trees[0]
            .leftmost_at_most(best + tol)
            .or_else(|| trees[1].leftmost_at_most(best + tol))
            .expect("a candidate is alive");
        // Alg. 1 line 5: M ← M \ {q}, then repair the bookkeeping of the points that see q.
        alive[q] = false;
        left -= 1;
        trees[in_cache[q] as usize].set(q, f64::INFINITY);
        removed.push(q);
        let step = removed.len();
        for &i in seen.watchers(q) {
            let i = i as usize;
            let list = seen.list(i);
            let next_alive = |from: u32| -> u32 {
                let mut p = from as usize;
                while p < list.len() && !alive[list[p] as usize] {
                    p += 1;
                }
                if p < list.len() {
                    p as u32
                } else {
                    NONE
                }
            };
            let touched = if n1_of(i, p1[i]) == Some(q) {
                p1[i] = p2[i];
                p2[i] = if p1[i] == NONE { NONE } else { next_alive(p1[i] + 1) };
                true
            } else if p2[i] != NONE && list[p2[i] as usize] as usize == q {
                p2[i] = next_alive(p2[i] + 1);
                true
            } else {
                false
            };
            if let (true, Some(a)) = (touched, n1_of(i, p1[i])) {
                if stamp[a] != step {
                    stamp[a] = step;
                    dirty.push(a);
                }
            }
        }
        for a in dirty.drain(..) {
            trees[in_cache[a] as usize].set(a, delta_of(a, &p1, &p2));
        }
    }
    let alive_list: Vec<usize> = (0..n).filter(|&j| alive[j]).collect();
    if k == 0 {
        removed.extend(&alive_list);
        let loss = (0..n).map(|i| inst.weights[i] * inst.g(i, None)).sum();
        return Outcome { cache: Vec::new(), loss, removed };
    }
    let loss =
        (0..n).map(|i| inst.weights[i] * if seen.is_active(i) { g_at(i, p1[i]) } else { seen.far[i] }).sum();
    Outcome { cache: alive_list, loss, removed }
}

/// Alg. 1 exactly as written: each step evaluates `L̂(M \ {q})` from scratch for every `q`.
/// O(|S|·|M|²) per removal; the differential oracle for [`reverse_greedy`].
pub fn reverse_greedy_plain<D: Distances + ?Sized>(
    inst: &Instance<D>,
    k: usize,
    incumbent: &[usize],
) -> Outcome {
    let n = inst.dist.len();
    let mut m: Vec<usize> = (0..n).collect();
    let in_cache = membership(n, incumbent);
    let tol = inst.tie_tolerance();
    let mut removed = Vec::new();
    while m.len() > k {
        let cands: Vec<(f64, bool, usize)> = m
            .iter()
            .map(|&q| {
                let rest: Vec<usize> = m.iter().copied().filter(|&j| j != q).collect();
                (inst.loss(&rest), in_cache[q], q)
            })
            .collect();
        let q = choose_removal(&cands, tol);
        m.retain(|&j| j != q);
        removed.push(q);
    }
    Outcome { loss: inst.loss(&m), cache: m, removed }
}

/// "Past the end of the list" for [`reverse_greedy`]'s per-point positions.
const NONE: u32 = u32::MAX;

/// Candidates by distance, ties to the lower index: one named comparator, so the sort is compiled
/// once for every distance source `build` is generic over (crate::order).
fn nearest_first(a: &(f64, u32), b: &(f64, u32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// What each point sees (see [`reverse_greedy`]): its candidates within reach, sorted by distance
/// then index, with their `g`, as compressed rows; and the reverse lists (which points see `q`).
struct Neighbourhoods {
    start: Vec<usize>,
    nbr: Vec<u32>,
    g: Vec<f64>,
    /// `f_i = g(i, ∅)`: what any candidate out of reach gives point `i`.
    far: Vec<f64>,
    active: Vec<usize>,
    wstart: Vec<usize>,
    watch: Vec<u32>,
}

impl Neighbourhoods {
    fn build<D: Distances + ?Sized>(inst: &Instance<D>) -> Self {
        let n = inst.dist.len();
        let phi0 = inst.mismatch.phi(0.0);
        let phi_sep = inst.separation.map(|s| inst.mismatch.phi(s));
        let mut s = Neighbourhoods {
            start: Vec::with_capacity(n + 1),
            nbr: Vec::new(),
            g: Vec::new(),
            far: (0..n).map(|i| inst.g(i, None)).collect(),
            active: Vec::new(),
            wstart: vec![0; n + 1],
            watch: Vec::new(),
        };
        let mut row: Vec<(f64, u32)> = Vec::new();
        s.start.push(0);
        for i in 0..n {
            let f = s.far[i];
            if inst.weights[i] != 0.0 && phi0 < f {
                s.active.push(i);
                row.clear();
                if phi_sep.is_some_and(|p| p >= f) {
                    row.push((0.0, i as u32)); // every other candidate is farther than the reach
                } else {
                    inst.dist.candidates_within(i, inst.mismatch.reach(f), &mut row);
                    row.retain(|&(d, _)| inst.mismatch.phi(d) < f);
                    row.sort_by(nearest_first);
                }
                for &(d, j) in &row {
                    s.nbr.push(j);
                    s.g.push(inst.costs[i].min(inst.mismatch.phi(d)));
                    s.wstart[j as usize + 1] += 1;
                }
            }
            s.start.push(s.nbr.len());
        }
        for j in 0..n {
            s.wstart[j + 1] += s.wstart[j];
        }
        let mut fill = s.wstart.clone();
        s.watch = vec![0; s.nbr.len()];
        for &i in &s.active {
            for &j in &s.nbr[s.start[i]..s.start[i + 1]] {
                s.watch[fill[j as usize]] = i as u32;
                fill[j as usize] += 1;
            }
        }
        s
    }
    fn list(&self, i: usize) -> &[u32] {
        &self.nbr[self.start[i]..self.start[i + 1]]
    }
    /// The active points that see candidate `q`, ascending.
    fn watchers(&self, q: usize) -> &[u32] {
        &self.watch[self.wstart[q]..self.wstart[q + 1]]
    }
    fn is_active(&self, i: usize) -> bool {
        self.start[i + 1] > self.start[i]
    }
}

/// A segment tree of minima over candidate indices (`+∞` = absent), for the removal choice.
struct MinTree {
    size: usize,
    v: Vec<f64>,
}

impl MinTree {
    fn new(n: usize) -> Self {
        let size = n.next_power_of_two().max(1);
        MinTree { size, v: vec![f64::INFINITY; 2 * size] }
    }
    fn set(&mut self, i: usize, x: f64) {
        let mut p = i + self.size;
        self.v[p] = x;
        while p > 1 {
            p /= 2;
            self.v[p] = self.v[2 * p].min(self.v[2 * p + 1]);
        }
    }
    fn min(&self) -> f64 {
        self.v[1]
    }
    /// The lowest index whose value is `≤ th`.
    fn leftmost_at_most(&self, th: f64) -> Option<usize> {
        if self.v[1] > th || th.is_nan() {
            return None;
        }
        let mut p = 1;
        while p < self.size {
            p = if self.v[2 * p] <= th { 2 * p } else { 2 * p + 1 };
        }
        Some(p - self.size)
    }
}

/// Largest instance [`exact_optimum`] accepts (SPEC §5: "≤ 25 candidates").
pub const EXACT_MAX_CANDIDATES: usize = 25;

/// The exact optimum `argmin_{|M| ≤ k} L̂(M)` by enumeration (SPEC §5), for `α̂ = L̂(RG)/L̂(OPT)`.
/// `L̂` is non-increasing, so only sets of size `min(k, |S|)` are enumerated; ties go to the
/// lexicographically smallest set.
pub fn exact_optimum<D: Distances + ?Sized>(inst: &Instance<D>, k: usize) -> Result<Outcome> {
    let n = inst.dist.len();
    if n > EXACT_MAX_CANDIDATES {
        return Err(Error::unsupported(format!(
            "the exact optimum enumerates every cache; it is offered for at most {EXACT_MAX_CANDIDATES} candidates, got {n}"
        )));
    }
    let size = k.min(n);
    let tol = inst.tie_tolerance();
    let mut set: Vec<usize> = (0..size).collect();
    let mut best = Outcome { loss: inst.loss(&set), cache: set.clone(), removed: Vec::new() };
    // Lexicographic enumeration of `size`-subsets of 0..n.
    loop {
        let mut i = size;
        loop {
            if i == 0 {
                return Ok(best);
            }
            i -= 1;
            if set[i] < n - size + i {
                break;
            }
        }
        set[i] += 1;
        for j in i + 1..size {
            set[j] = set[j - 1] + 1;
        }
        let l = inst.loss(&set);
        if l < best.loss - tol {
            best = Outcome { loss: l, cache: set.clone(), removed: Vec::new() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{DistanceMatrix, Metric, Points};

    fn line(xs: &[f32]) -> DistanceMatrix {
        DistanceMatrix::from_points(&Points::from_flat(1, xs.to_vec()).unwrap(), &Metric::new(1.0).unwrap())
    }

    #[test]
    fn hand_computed_three_clusters() {
        // Points at 0, 0.05, 0.5, 0.52, 0.9 (D = 1, ζ = 1), unit weights and cost 0.4 each.
        // k = 2: keep one member of {0, 0.05} and one of {0.5, 0.52}; 0.9 pays min(.4, .38)=.38.
        let dm = line(&[0.0, 0.05, 0.5, 0.52, 0.9]);
        let w = [1.0; 5];
        let c = [0.4; 5];
        let inst = Instance::new(&dm, &w, &c, Mismatch::default()).unwrap();
        let fast = reverse_greedy(&inst, 2, &[]);
        let plain = reverse_greedy_plain(&inst, 2, &[]);
        assert_eq!(fast, plain);
        let opt = exact_optimum(&inst, 2).unwrap();
        // Best pair: {0.05? , 0.52?}: serve 0↔0.05 (.05) and the 0.5-0.52-0.9 group from 0.52:
        // 0.5 → .02, 0.9 → .38; total .05+.02+.38 = .45.
        assert!((opt.loss - 0.45).abs() < 1e-6, "{opt:?}");
        assert!(fast.loss >= opt.loss - 1e-12);
        assert_eq!(fast.cache.len(), 2);
    }

    #[test]
    fn ties_keep_the_incumbent_then_lowest_index() {
        // Negative costs (optimistic LCBs) make every removal cost exactly 0 (SPEC §13).
        let dm = line(&[0.0, 0.3, 0.6, 0.9]);
        let w = [0.25; 4];
        let c = [-1.0; 4];
        let inst = Instance::new(&dm, &w, &c, Mismatch::default()).unwrap();
        assert_eq!(reverse_greedy(&inst, 2, &[]).cache, vec![2, 3], "lowest index goes first");
        assert_eq!(reverse_greedy(&inst, 2, &[0, 2]).cache, vec![0, 2], "incumbents are kept");
        assert_eq!(reverse_greedy_plain(&inst, 2, &[0, 2]).cache, vec![0, 2]);
        assert_eq!(reverse_greedy(&inst, 5, &[]).cache, vec![0, 1, 2, 3], "m ≤ k returns S");
    }

    #[test]
    fn k_zero_empties_the_cache_like_the_plain_form() {
        let dm = line(&[0.0, 0.5, 0.9]);
        let inst = Instance::new(&dm, &[1.0, 1.0, 0.5], &[0.5, 0.2, 0.7], Mismatch::default()).unwrap();
        let fast = reverse_greedy(&inst, 0, &[]);
        assert!(fast.cache.is_empty());
        assert_eq!(fast, reverse_greedy_plain(&inst, 0, &[]));
        assert!((fast.loss - (0.5 + 0.2 + 0.35)).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_instances() {
        let dm = line(&[0.0, 0.5]);
        assert!(Instance::new(&dm, &[1.0], &[0.1, 0.1], Mismatch::default()).is_err());
        assert!(Instance::new(&dm, &[1.0, f64::NAN], &[0.1, 0.1], Mismatch::default()).is_err());
        assert!(Instance::new(&dm, &[1.0, -1.0], &[0.1, 0.1], Mismatch::default()).is_err());
        assert!(Instance::new(&dm, &[1.0, 1.0], &[0.1, f64::INFINITY], Mismatch::default()).is_err());
        let big = line(&[0.0; 26]);
        let w = [1.0; 26];
        let inst = Instance::new(&big, &w, &w, Mismatch::default()).unwrap();
        assert!(exact_optimum(&inst, 3).is_err());
    }
}
