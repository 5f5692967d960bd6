//! Property tests of the paper's invariants for the geometric core: the metric (SPEC §1), the
//! serving rule and the discretised loss (SPEC §3, paper eqs. 1 and 4), the ε-net (SPEC §4) and
//! Reverse Greedy with its exact-optimum oracle (SPEC §5, paper Alg. 1). KRR (SPEC §6) has its
//! own property tests in `tests/krr.rs`.
//!
//! Instances are small and random: points in dimension 1–4 with coordinates in [0, 1] (a quarter
//! of them snapped to a grid of spacing ¼ and some rows copied verbatim, so that exact distance
//! ties and duplicate points are common), `D` the diameter or `√dim`, weights ≥ 0 with exact zeros,
//! `φ` clipped linear or clipped quadratic with `ζ ∈ [0.5, 3]`, and costs in (0, 1] or — for the
//! optimistic costs of the online learner (SPEC §13) — partly or wholly negative.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::epsilon_net::EpsilonNet;
use csc_engine::loss::{discretised_loss, query_loss, serve_from_llm};
use csc_engine::mismatch::Mismatch;
use csc_engine::reverse_greedy::{exact_optimum, reverse_greedy, reverse_greedy_plain, Instance, Outcome};
use csc_engine::space::{diameter, DistanceMatrix, Distances, Metric, OnTheFly, Points};
use proptest::prelude::*;
use proptest::sample::Index;

/// How the costs of an instance are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CostMode {
    /// True or pessimistic costs: `c ∈ (0, 1]` (SPEC §2).
    Positive,
    /// Optimistic costs (LCBs) of the online learner: `c ∈ [−1, 1]`, mixed signs.
    Mixed,
    /// Every cost negative: every removal of Reverse Greedy ties at `Δ = 0`.
    AllNegative,
}

/// A random instance: `n` points of dimension `dim`, with weights, costs and `φ`.
#[derive(Clone, Debug)]
struct Case {
    dim: usize,
    coords: Vec<f32>,
    weights: Vec<f64>,
    costs: Vec<f64>,
    mismatch: Mismatch,
    use_diameter: bool,
    mode: CostMode,
}

impl Case {
    fn n(&self) -> usize {
        self.weights.len()
    }
    fn points(&self) -> Points {
        Points::from_flat(self.dim, self.coords.clone()).unwrap()
    }
    /// `D` = the diameter (when positive and chosen) or `√dim`.
    fn metric(&self) -> Metric {
        let d = diameter(&self.points());
        let scale = if self.use_diameter && d > 0.0 { d } else { (self.dim as f64).sqrt() };
        Metric::new(scale).unwrap()
    }
    fn matrix(&self) -> DistanceMatrix {
        DistanceMatrix::from_points(&self.points(), &self.metric())
    }
    /// The tolerance of "equal losses": that of Reverse Greedy's tie rule (1e-12 of the
    /// weight·cost scale), with a floor of 1e-12.
    fn slack(&self) -> f64 {
        let scale: f64 = self.weights.iter().zip(&self.costs).map(|(w, c)| w * c.abs().max(1.0)).sum();
        1e-12 * scale.max(1.0)
    }
}

/// A coordinate in [0, 1]; one in four is on the grid {0, ¼, ½, ¾, 1} (exact distance ties).
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![3 => 0.0f32..=1.0, 1 => (0u8..=4).prop_map(|v| f32::from(v) / 4.0)]
}

/// `n` rows of dimension `dim`; about one row in five is a verbatim copy of an earlier row.
fn rows(n: usize, dim: usize) -> impl Strategy<Value = Vec<f32>> {
    (
        prop::collection::vec(prop::collection::vec(coord(), dim), n),
        prop::collection::vec(prop::option::weighted(0.2, any::<Index>()), n),
    )
        .prop_map(move |(mut rows, dup)| {
            for i in 1..rows.len() {
                if let Some(ix) = dup[i] {
                    rows[i] = rows[ix.index(i)].clone();
                }
            }
            rows.concat()
        })
}

fn cost(mode: CostMode) -> BoxedStrategy<f64> {
    match mode {
        CostMode::Positive => prop_oneof![4 => 1e-6f64..=1.0, 1 => Just(1.0)].boxed(),
        CostMode::Mixed => (-1.0f64..=1.0).boxed(),
        CostMode::AllNegative => (-1.0f64..=-1e-6).boxed(),
    }
}

fn weight() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 3 => 0.0f64..=1.0]
}

fn mismatch() -> impl Strategy<Value = Mismatch> {
    (any::<bool>(), 0.5f64..=3.0).prop_map(|(quad, zeta)| {
        if quad {
            Mismatch::ClippedQuadratic { zeta }
        } else {
            Mismatch::ClippedLinear { zeta }
        }
    })
}

fn any_mode() -> impl Strategy<Value = CostMode> {
    prop_oneof![2 => Just(CostMode::Positive), 1 => Just(CostMode::Mixed), 1 => Just(CostMode::AllNegative)]
}

/// A case with `n` points, `lo ≤ n ≤ hi`, whose costs follow `mode`.
fn case_with(lo: usize, hi: usize, mode: impl Strategy<Value = CostMode>) -> impl Strategy<Value = Case> {
    (1usize..=4, lo..=hi, mode).prop_flat_map(|(dim, n, mode)| {
        (
            rows(n, dim),
            prop::collection::vec(weight(), n),
            prop::collection::vec(cost(mode), n),
            mismatch(),
            any::<bool>(),
        )
            .prop_map(move |(coords, weights, costs, mismatch, use_diameter)| Case {
                dim,
                coords,
                weights,
                costs,
                mismatch,
                use_diameter,
                mode,
            })
    })
}

fn case(lo: usize, hi: usize) -> impl Strategy<Value = Case> {
    case_with(lo, hi, any_mode())
}

/// The members of a bit mask.
fn members(mask: &[bool]) -> Vec<usize> {
    mask.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i).collect()
}

/// The structural contract of an [`Outcome`] of Reverse Greedy on `m` candidates with cache
/// size `k`: `min(k, m)` members, ascending and distinct; the removals are the other candidates,
/// each once; `loss` is eq. 4 of the cache.
fn check_outcome<D: Distances>(inst: &Instance<D>, out: &Outcome, m: usize, k: usize) {
    assert_eq!(out.cache.len(), k.min(m), "cache size");
    assert!(out.cache.windows(2).all(|w| w[0] < w[1]), "cache not ascending/distinct: {:?}", out.cache);
    assert_eq!(out.removed.len(), m - k.min(m), "one removal per step");
    let mut all: Vec<usize> = out.cache.iter().chain(&out.removed).copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..m).collect::<Vec<_>>(), "cache ∪ removed must partition the candidates");
    let l = inst.loss(&out.cache);
    assert!((out.loss - l).abs() <= 1e-9 * l.abs().max(1.0), "Outcome.loss {} vs L̂(cache) {l}", out.loss);
}

/// 64 cases per property (well under a second in all at `[profile.test] opt-level = 2`), or
/// `PROPTEST_CASES` when set, for a longer soak: `PROPTEST_CASES=5000 cargo test --test properties`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// SPEC §1: `DistanceMatrix` stores exactly the distances `OnTheFly` computes (symmetric, zero
    /// diagonal, bit-for-bit), growing it row by row with `push_row` gives the same matrix as
    /// `from_points`, and `d` is a metric (triangle inequality up to rounding).
    #[test]
    fn distance_matrix_equals_on_the_fly(c in case(1, 30)) {
        let (pts, metric) = (c.points(), c.metric());
        let dm = DistanceMatrix::from_points(&pts, &metric);
        let fly = OnTheFly { points: &pts, metric };
        prop_assert_eq!(Distances::len(&dm), c.n());
        prop_assert_eq!(Distances::len(&fly), c.n());
        let mut grown = DistanceMatrix::new();
        for i in 0..c.n() {
            let row: Vec<f64> = (0..i).map(|j| fly.dist(i, j)).collect();
            grown.push_row(&row);
        }
        for i in 0..c.n() {
            prop_assert_eq!(dm.dist(i, i), 0.0);
            for j in 0..c.n() {
                let d = dm.dist(i, j);
                prop_assert_eq!(d, fly.dist(i, j), "({}, {})", i, j);
                prop_assert_eq!(d, dm.dist(j, i));
                prop_assert_eq!(d, grown.dist(i, j));
                prop_assert!(d >= 0.0 && d.is_finite());
                for l in 0..c.n() {
                    prop_assert!(d <= dm.dist(i, l) + dm.dist(l, j) + 1e-12);
                }
            }
        }
    }

    /// SPEC §1 ("ties in any arg-min break toward the lowest index"): `Metric::nearest` returns the
    /// lowest index among the rows at the minimal distance, that distance itself, and agrees with
    /// `dist_to_set` over all rows; `None` for an empty set.
    #[test]
    fn nearest_ties_to_lowest_index(
        c in case(1, 30),
        q in prop::collection::vec(coord(), 4),
        copy in any::<Option<Index>>(),
    ) {
        let (pts, metric) = (c.points(), c.metric());
        // the query is either a fresh point or a copy of a row (a guaranteed tie when duplicated)
        let x: Vec<f32> = match copy {
            Some(ix) => pts.row(ix.index(c.n())).to_vec(),
            None => q[..c.dim].to_vec(),
        };
        let ds: Vec<f64> = pts.iter().map(|r| metric.dist(&x, r)).collect();
        let min = ds.iter().copied().fold(f64::INFINITY, f64::min);
        let first = ds.iter().position(|&d| d == min).unwrap();
        prop_assert_eq!(metric.nearest(&x, &pts), Some((first, min)));
        let all: Vec<usize> = (0..c.n()).collect();
        prop_assert_eq!(metric.dist_to_set(&x, &pts, &all), min);
        prop_assert_eq!(metric.nearest(&x, &Points::new(c.dim).unwrap()), None);
        prop_assert_eq!(metric.dist_to_set(&x, &pts, &[]), f64::INFINITY);
    }

    /// SPEC §4 (ε-net, Alg. 3 lines 5–11): every point is within ε of the center it was assigned on
    /// arrival and of its nearest final center (its Voronoi cell, SPEC §11.1); centers are pairwise
    /// more than ε apart; a point becomes a center iff it is farther than ε from all earlier
    /// centers; the number of centers equals the number of `is_new`; arrival counts sum to `n` and
    /// match the assignments; the stored center distances equal the metric's.
    #[test]
    fn epsilon_net_covers_and_separates(c in case(1, 60), eps in 0.02f64..0.7) {
        let (pts, metric) = (c.points(), c.metric());
        let (net, asg) = EpsilonNet::build(&pts, eps, metric).unwrap();
        let centers = net.centers();
        prop_assert_eq!(asg.len(), c.n());
        prop_assert_eq!(net.len(), asg.iter().filter(|a| a.is_new).count());
        prop_assert_eq!(net.inserted(), c.n());
        prop_assert_eq!(net.counts().iter().sum::<u64>(), c.n() as u64);
        let mut counts = vec![0u64; net.len()];
        let mut next_center = 0;
        for (i, a) in asg.iter().enumerate() {
            counts[a.center] += 1;
            let x = pts.row(i);
            prop_assert!(a.distance <= eps, "assigned at {} > ε = {}", a.distance, eps);
            prop_assert_eq!(a.distance, metric.dist(x, centers.row(a.center)));
            if a.is_new {
                // new centers are numbered in arrival order and are copies of their point
                prop_assert_eq!(a.center, next_center);
                prop_assert_eq!(net.origin()[a.center], i);
                prop_assert_eq!(centers.row(a.center), x);
                prop_assert_eq!(a.distance, 0.0);
                next_center += 1;
            }
            // the rule itself: new iff farther than ε from every center existing at arrival
            let before = centers.select(&(0..next_center - usize::from(a.is_new)).collect::<Vec<_>>());
            let d_before = metric.dist_to_set(x, &before, &(0..before.len()).collect::<Vec<_>>());
            prop_assert_eq!(a.is_new, d_before > eps);
            if !a.is_new {
                // assigned to the nearest existing center, ties to the lowest index
                prop_assert_eq!(metric.nearest(x, &before), Some((a.center, a.distance)));
            }
            let (near, d_near) = net.nearest(x).unwrap();
            prop_assert!(d_near <= eps && d_near <= a.distance);
            prop_assert_eq!(net.voronoi_cells(&pts)[i], near);
        }
        prop_assert_eq!(&counts[..], net.counts());
        let cd = net.center_distances();
        prop_assert_eq!(cd.len(), net.len());
        for i in 0..net.len() {
            for j in 0..i {
                let d = metric.dist(centers.row(i), centers.row(j));
                prop_assert!(d > eps, "centers {} and {} are {} ≤ ε = {} apart", i, j, d, eps);
                prop_assert_eq!(cd.dist(i, j), d);
            }
        }
        let cells = net.voronoi_cells(&pts);
        prop_assert_eq!(EpsilonNet::cell_counts(&cells, net.len()).iter().sum::<u64>(), c.n() as u64);
    }

    /// SPEC §4 / §11.1: growing the net one `insert` at a time (online, Alg. 3) gives the same net
    /// and the same assignments as the batch `build` (offline, Alg. 2 line 2).
    #[test]
    fn epsilon_net_insert_equals_build(c in case(1, 60), eps in 0.02f64..0.7) {
        let (pts, metric) = (c.points(), c.metric());
        let (built, asg) = EpsilonNet::build(&pts, eps, metric).unwrap();
        let mut net = EpsilonNet::new(c.dim, eps, metric).unwrap();
        for (i, x) in pts.iter().enumerate() {
            prop_assert_eq!(net.insert(x).unwrap(), asg[i]);
            prop_assert_eq!(net.inserted(), i + 1);
        }
        prop_assert_eq!(net.centers(), built.centers());
        prop_assert_eq!(net.origin(), built.origin());
        prop_assert_eq!(net.counts(), built.counts());
        for i in 0..net.len() {
            for j in 0..net.len() {
                prop_assert_eq!(net.center_distances().dist(i, j), built.center_distances().dist(i, j));
            }
        }
    }

    /// Paper eq. 1 vs Assumption 1 / SPEC §3: for any point, cache and cost, the per-query loss
    /// `min(c, φ(d(x, M)))` is exactly what the serving rule pays (`c` if it calls the LLM, `φ` if
    /// it serves from the cache), `φ(d(x, ∅)) = 1`, `φ ∈ [0, 1]`; and eq. 4 is the weighted sum
    /// of those per-query payments.
    #[test]
    fn serving_rule_matches_query_loss(
        c in case(1, 20),
        q in prop::collection::vec(coord(), 4),
        x_cost in -1.0f64..=1.0,
        mask in prop::collection::vec(any::<bool>(), 20),
    ) {
        let (pts, metric) = (c.points(), c.metric());
        let cache = members(&mask[..c.n()]);
        let x = &q[..c.dim];
        let phi = c.mismatch.phi(metric.dist_to_set(x, &pts, &cache));
        prop_assert!((0.0..=1.0).contains(&phi));
        if cache.is_empty() {
            prop_assert_eq!(phi, 1.0);
        }
        for cost in [x_cost, x_cost.abs(), phi] {
            // eq. 1: call the LLM iff c ≤ φ (a tie calls the LLM)
            prop_assert_eq!(serve_from_llm(cost, phi), cost <= phi);
            let paid = if serve_from_llm(cost, phi) { cost } else { phi };
            prop_assert_eq!(query_loss(cost, phi), paid);
        }
        // eq. 4 = Σ_i w_i · (what the serving rule pays for x_i)
        let by_rule: f64 = (0..c.n())
            .map(|i| {
                let phi = c.mismatch.phi(metric.dist_to_set(pts.row(i), &pts, &cache));
                c.weights[i] * if serve_from_llm(c.costs[i], phi) { c.costs[i] } else { phi }
            })
            .sum();
        let l = discretised_loss(&c.matrix(), &c.weights, &c.costs, &c.mismatch, &cache);
        prop_assert!((l - by_rule).abs() <= 1e-12 * by_rule.abs().max(1.0), "{} vs {}", l, by_rule);
    }

    /// `φ` is non-decreasing with values in [0, 1], `φ(0) = 0` and `φ(∞) = 1` (SPEC §3).
    #[test]
    fn mismatch_is_monotone_and_bounded(phi in mismatch(), a in 0.0f64..3.0, b in 0.0f64..3.0) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        prop_assert!(phi.phi(lo) <= phi.phi(hi));
        prop_assert!((0.0..=1.0).contains(&phi.phi(lo)) && (0.0..=1.0).contains(&phi.phi(hi)));
        prop_assert_eq!(phi.phi(0.0), 0.0);
        prop_assert_eq!(phi.phi(f64::INFINITY), 1.0);
    }

    /// Paper Sec. 3 (Lemma 2 of the discrete predecessor, cited for eq. 4): `L̂` is non-increasing
    /// in the cache — `A ⊆ B ⇒ L̂(B) ≤ L̂(A)` — for any weights ≥ 0 and any costs (also negative).
    #[test]
    fn loss_is_non_increasing(
        c in case(1, 25),
        b_mask in prop::collection::vec(any::<bool>(), 25),
        a_mask in prop::collection::vec(any::<bool>(), 25),
    ) {
        let dm = c.matrix();
        let b = members(&b_mask[..c.n()]);
        let a: Vec<usize> = b.iter().copied().filter(|&i| a_mask[i]).collect();
        let la = discretised_loss(&dm, &c.weights, &c.costs, &c.mismatch, &a);
        let lb = discretised_loss(&dm, &c.weights, &c.costs, &c.mismatch, &b);
        prop_assert!(lb <= la + c.slack(), "L̂(B) = {} > L̂(A) = {} for A = {:?} ⊆ B = {:?}", lb, la, a, b);
        // and the whole candidate set is the best cache of all
        let all: Vec<usize> = (0..c.n()).collect();
        prop_assert!(discretised_loss(&dm, &c.weights, &c.costs, &c.mismatch, &all) <= lb + c.slack());
    }

    /// Paper Sec. 3 (Lemma 2 of the discrete predecessor): `L̂` is supermodular — for `A ⊆ B` and
    /// `q ∉ B`, `L̂(A ∪ {q}) − L̂(A) ≤ L̂(B ∪ {q}) − L̂(B)`: adding `q` to a smaller cache helps
    /// at least as much.
    #[test]
    fn loss_is_supermodular(
        c in case(2, 25),
        b_mask in prop::collection::vec(any::<bool>(), 25),
        a_mask in prop::collection::vec(any::<bool>(), 25),
        q_ix in any::<Index>(),
    ) {
        let dm = c.matrix();
        let b = members(&b_mask[..c.n()]);
        let outside: Vec<usize> = (0..c.n()).filter(|i| !b_mask[*i]).collect();
        prop_assume!(!outside.is_empty());
        let q = outside[q_ix.index(outside.len())];
        let a: Vec<usize> = b.iter().copied().filter(|&i| a_mask[i]).collect();
        let loss = |set: &[usize]| discretised_loss(&dm, &c.weights, &c.costs, &c.mismatch, set);
        let with = |set: &[usize]| {
            let mut s = set.to_vec();
            s.push(q);
            s
        };
        let gain_a = loss(&with(&a)) - loss(&a);
        let gain_b = loss(&with(&b)) - loss(&b);
        prop_assert!(
            gain_a <= gain_b + c.slack(),
            "Δ_q(A) = {} > Δ_q(B) = {} for A = {:?}, B = {:?}, q = {}", gain_a, gain_b, a, b, q
        );
    }

    /// SPEC §5 / Alg. 1: with `m − k = 1` Reverse Greedy makes one removal, which is the best of
    /// all `m` subsets of size `k`: its loss equals the exact optimum's (enumeration, SPEC §5).
    #[test]
    fn reverse_greedy_one_removal_is_optimal(c in case(2, 12)) {
        let dm = c.matrix();
        let inst = Instance::new(&dm, &c.weights, &c.costs, c.mismatch).unwrap();
        let k = c.n() - 1;
        let rg = reverse_greedy(&inst, k, &[]);
        let opt = exact_optimum(&inst, k).unwrap();
        prop_assert!((rg.loss - opt.loss).abs() <= c.slack(), "RG {} vs OPT {}", rg.loss, opt.loss);
        prop_assert_eq!(rg.removed.len(), 1);
    }

    /// SPEC §5: Reverse Greedy is never better than the exact optimum over `|M| ≤ k`
    /// (`L̂(RG) ≥ L̂(OPT)`, so `α̂ = L̂(RG)/L̂(OPT) ≥ 1` when `L̂(OPT) > 0`); both return
    /// well-formed caches of size `min(k, m)` whose reported loss is eq. 4.
    #[test]
    fn reverse_greedy_never_beats_the_optimum(c in case(1, 12), k_ix in any::<Index>()) {
        let dm = c.matrix();
        let inst = Instance::new(&dm, &c.weights, &c.costs, c.mismatch).unwrap();
        let k = 1 + k_ix.index(c.n());
        let rg = reverse_greedy(&inst, k, &[]);
        let opt = exact_optimum(&inst, k).unwrap();
        check_outcome(&inst, &rg, c.n(), k);
        prop_assert_eq!(opt.cache.len(), k.min(c.n()));
        prop_assert!(opt.cache.windows(2).all(|w| w[0] < w[1]));
        prop_assert_eq!(opt.loss, inst.loss(&opt.cache));
        prop_assert!(rg.loss >= opt.loss - c.slack(), "RG {} < OPT {}", rg.loss, opt.loss);
    }

    /// SPEC §5: the fast Reverse Greedy (n1/n2 bookkeeping) returns exactly the cache and the
    /// removal order of Alg. 1 as written (`reverse_greedy_plain`), and the same loss to 1e-9,
    /// with or without an incumbent cache (the SPEC §1 tie rule), for `m ≤ 40`, any `k ≥ 1`
    /// (also `k ≥ m`: `S` itself), on distance matrices and on-the-fly distances alike. The
    /// generator makes exact ties common: duplicate points, grid coordinates, zero weights and
    /// all-negative costs.
    #[test]
    fn fast_reverse_greedy_equals_plain(
        c in case(1, 40),
        k_ix in any::<Index>(),
        inc_mask in prop::collection::vec(prop::bool::weighted(0.2), 40),
        with_incumbent in any::<bool>(),
    ) {
        let (pts, metric, dm) = (c.points(), c.metric(), c.matrix());
        let inst = Instance::new(&dm, &c.weights, &c.costs, c.mismatch).unwrap();
        let k = 1 + k_ix.index(c.n() + 2);
        let incumbent = if with_incumbent { members(&inc_mask[..c.n()]) } else { Vec::new() };
        let fast = reverse_greedy(&inst, k, &incumbent);
        let plain = reverse_greedy_plain(&inst, k, &incumbent);
        prop_assert_eq!(&fast.cache, &plain.cache, "k = {}, incumbent {:?}", k, incumbent);
        prop_assert_eq!(&fast.removed, &plain.removed);
        prop_assert!((fast.loss - plain.loss).abs() <= 1e-9 * plain.loss.abs().max(1.0));
        check_outcome(&inst, &fast, c.n(), k);
        check_outcome(&inst, &plain, c.n(), k);
        if k >= c.n() {
            prop_assert_eq!(&fast.cache, &(0..c.n()).collect::<Vec<_>>());
        }
        let fly = OnTheFly { points: &pts, metric };
        let inst_fly = Instance::new(&fly, &c.weights, &c.costs, c.mismatch).unwrap();
        prop_assert_eq!(reverse_greedy(&inst_fly, k, &incumbent), fast);
    }

    /// The ε-net shortcut of fast Reverse Greedy (a point whose reach `φ⁻¹(f_i)` is within the
    /// net's separation sees only itself, without a distance scan) changes nothing: on the
    /// centers of an ε-net, declaring the separation gives the same outcome, bit for bit, as not
    /// declaring it, and the same cache as the plain form.
    #[test]
    fn separation_shortcut_changes_nothing(
        c in case(2, 40),
        eps in 0.01f64..0.6,
        k_ix in any::<Index>(),
        inc_mask in prop::collection::vec(prop::bool::weighted(0.3), 40),
    ) {
        let (net, _) = EpsilonNet::build(&c.points(), eps, c.metric()).unwrap();
        let m = net.len();
        let (w, costs) = (&c.weights[..m], &c.costs[..m]);
        let inst = Instance::new(net.center_distances(), w, costs, c.mismatch).unwrap();
        let sep = Instance::new(net.center_distances(), w, costs, c.mismatch).unwrap().with_separation(eps);
        let k = 1 + k_ix.index(m + 1);
        let incumbent = members(&inc_mask[..m]);
        let fast = reverse_greedy(&sep, k, &incumbent);
        prop_assert_eq!(&fast, &reverse_greedy(&inst, k, &incumbent));
        prop_assert_eq!(&fast.cache, &reverse_greedy_plain(&inst, k, &incumbent).cache);
    }

    /// SPEC §1 tie rule (and §13): with all costs negative (optimistic LCBs) every point pays its
    /// own cost whatever the cache, so every removal ties at `Δ = 0`. Reverse Greedy then removes
    /// the non-incumbents first, lowest index first, then incumbents lowest index first: an
    /// incumbent of size ≤ k is kept entirely, topped up with the highest-indexed others.
    #[test]
    fn all_ties_keep_the_incumbent(
        c in case_with(1, 40, Just(CostMode::AllNegative)),
        k_ix in any::<Index>(),
        inc_mask in prop::collection::vec(prop::bool::weighted(0.3), 40),
    ) {
        prop_assert_eq!(c.mode, CostMode::AllNegative);
        let dm = c.matrix();
        let inst = Instance::new(&dm, &c.weights, &c.costs, c.mismatch).unwrap();
        let m = c.n();
        let k = 1 + k_ix.index(m);
        let incumbent = members(&inc_mask[..m]);
        let others: Vec<usize> = (0..m).filter(|&i| !inc_mask[i]).collect();
        let order: Vec<usize> = others.iter().chain(&incumbent).copied().collect();
        let mut expected: Vec<usize> = order[m - k..].to_vec();
        expected.sort_unstable();
        for out in [reverse_greedy(&inst, k, &incumbent), reverse_greedy_plain(&inst, k, &incumbent)] {
            prop_assert_eq!(&out.removed[..], &order[..m - k]);
            prop_assert_eq!(&out.cache, &expected);
            if incumbent.len() <= k {
                prop_assert!(
                    incumbent.iter().all(|i| out.cache.contains(i)),
                    "incumbent {:?} not kept in {:?}", incumbent, out.cache
                );
            }
            // every cache pays Σ w_i c_i
            let total: f64 = c.weights.iter().zip(&c.costs).map(|(w, c)| w * c).sum();
            prop_assert!((out.loss - total).abs() <= 1e-12 * total.abs().max(1.0));
        }
    }

    /// SPEC §1 / §5 tie rule under rounding: a point set and its mirror image `x ↦ −x` (exact in
    /// f32, so the instance is exactly symmetric under `i ↔ i + h`) with mirrored weights and costs
    /// makes every removal tie with its mirror's *mathematically*, while the two losses are summed
    /// in different orders and may differ in the last bits. Fast and plain Reverse Greedy must
    /// still agree on the cache and the removal order (the tie tolerance of SPEC §1's rule).
    #[test]
    fn mirrored_ties_break_identically(
        dim in 1usize..=4,
        half in prop::collection::vec(prop::collection::vec(0.0f32..=1.0, 4), 1..=15),
        w in prop::collection::vec(0.0f64..=1.0, 15),
        cost_lo in prop_oneof![Just(1e-6f64), Just(-1.0f64)],
        cs in prop::collection::vec(0.0f64..=1.0, 15),
        phi in mismatch(),
        k_ix in any::<Index>(),
        inc_mask in prop::collection::vec(prop::bool::weighted(0.2), 30),
    ) {
        let h = half.len();
        let mut rows: Vec<Vec<f32>> = half.iter().map(|r| r[..dim].to_vec()).collect();
        rows.extend(half.iter().map(|r| r[..dim].iter().map(|v| -v).collect::<Vec<f32>>()));
        let pts = Points::from_rows(&rows).unwrap();
        let metric = Metric::new(2.0 * (dim as f64).sqrt()).unwrap();
        let dm = DistanceMatrix::from_points(&pts, &metric);
        let weights: Vec<f64> = w[..h].iter().chain(&w[..h]).copied().collect();
        let costs: Vec<f64> =
            cs[..h].iter().chain(&cs[..h]).map(|c| cost_lo + (1.0 - cost_lo) * c).collect();
        let inst = Instance::new(&dm, &weights, &costs, phi).unwrap();
        let k = 1 + k_ix.index(2 * h);
        for incumbent in [Vec::new(), members(&inc_mask[..2 * h])] {
            let fast = reverse_greedy(&inst, k, &incumbent);
            let plain = reverse_greedy_plain(&inst, k, &incumbent);
            prop_assert_eq!(&fast.cache, &plain.cache, "k = {}, incumbent {:?}", k, incumbent);
            prop_assert_eq!(&fast.removed, &plain.removed);
        }
    }
}
