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
        Ok(Instance { dist, weights, costs, mismatch })
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

/// Whether removing `a` is preferred to removing `b` (SPEC §1 tie rule).
#[inline]
fn removal_preferred(a: (f64, bool, usize), b: (f64, bool, usize), tol: f64) -> bool {
    if a.0 < b.0 - tol {
        return true;
    }
    if a.0 > b.0 + tol {
        return false;
    }
    if a.1 != b.1 {
        return !a.1; // keep incumbent cache members when indifferent
    }
    a.2 < b.2
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
pub fn reverse_greedy<D: Distances + ?Sized>(inst: &Instance<D>, k: usize, incumbent: &[usize]) -> Outcome {
    let n = inst.dist.len();
    if n <= k {
        // Alg. 1 line 2: if m ≤ k return S.
        let cache: Vec<usize> = (0..n).collect();
        return Outcome { loss: inst.loss(&cache), cache, removed: Vec::new() };
    }
    let tol = inst.tie_tolerance();
    let in_cache = membership(n, incumbent);
    let mut alive = vec![true; n];
    let mut alive_list: Vec<usize> = (0..n).collect();

    // n1/n2 over the alive set, ties to the lowest index; g1/g2 their per-point losses.
    let scan = |i: usize, alive: &[bool], alive_list: &[usize], skip: Option<usize>| -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for &j in alive_list {
            if Some(j) == skip || !alive[j] {
                continue;
            }
            let d = inst.dist.dist(i, j);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        best.map(|(j, _)| j)
    };
    let mut n1 = vec![0usize; n];
    let mut n2: Vec<Option<usize>> = vec![None; n];
    let mut g1 = vec![0.0; n];
    let mut g2 = vec![0.0; n];
    for i in 0..n {
        n1[i] = scan(i, &alive, &alive_list, None).expect("S is non-empty");
        n2[i] = scan(i, &alive, &alive_list, Some(n1[i]));
        g1[i] = inst.g(i, Some(n1[i]));
        g2[i] = inst.g(i, n2[i]);
    }

    let mut delta = vec![0.0f64; n];
    let mut removed = Vec::with_capacity(n - k);
    // With k = 0 the last member is removed below, once it is the only choice.
    while alive_list.len() > k.max(1) {
        // Alg. 1 line 4: argmin_q L̂(M \ {q}) = argmin_q Δ(q), recomputed in one pass in a
        // fixed order (no drift from incremental updates).
        for &q in &alive_list {
            delta[q] = 0.0;
        }
        for i in 0..n {
            if inst.weights[i] != 0.0 {
                delta[n1[i]] += inst.weights[i] * (g2[i] - g1[i]);
            }
        }
        let mut best = alive_list[0];
        for &q in &alive_list[1..] {
            if removal_preferred((delta[q], in_cache[q], q), (delta[best], in_cache[best], best), tol) {
                best = q;
            }
        }
        // Alg. 1 line 5: M ← M \ {q}, then repair the bookkeeping of the affected points.
        let q = best;
        alive[q] = false;
        alive_list.retain(|&j| j != q);
        removed.push(q);
        for i in 0..n {
            if n1[i] == q {
                n1[i] = n2[i].expect("|M| > k ≥ 1 leaves a second member");
                g1[i] = g2[i];
                n2[i] = scan(i, &alive, &alive_list, Some(n1[i]));
                g2[i] = inst.g(i, n2[i]);
            } else if n2[i] == Some(q) {
                n2[i] = scan(i, &alive, &alive_list, Some(n1[i]));
                g2[i] = inst.g(i, n2[i]);
            }
        }
    }
    if k == 0 {
        removed.append(&mut alive_list);
        let loss = (0..n).map(|i| inst.weights[i] * inst.g(i, None)).sum();
        return Outcome { cache: alive_list, loss, removed };
    }
    let loss = (0..n).map(|i| inst.weights[i] * g1[i]).sum();
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
        let mut best: Option<(f64, bool, usize)> = None;
        for &q in &m {
            let rest: Vec<usize> = m.iter().copied().filter(|&j| j != q).collect();
            let cand = (inst.loss(&rest), in_cache[q], q);
            if best.is_none_or(|b| removal_preferred(cand, b, tol)) {
                best = Some(cand);
            }
        }
        let q = best.expect("M is non-empty").2;
        m.retain(|&j| j != q);
        removed.push(q);
    }
    Outcome { loss: inst.loss(&m), cache: m, removed }
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
