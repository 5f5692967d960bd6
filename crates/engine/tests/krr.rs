//! Kernel ridge regression (SPEC §6): the incremental learner against the dense reference, the
//! posterior's invariants, and the confidence bounds.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::krr::reference::{gamma_dense, posterior_dense};
use csc_engine::krr::{
    offline_width_factor, online_width_factor, optimistic_cost, pessimistic_cost, Krr, Posterior, RbfKernel,
};
use csc_engine::space::{Metric, Points};
use proptest::prelude::*;

/// `|a − b| ≤ tol · max(1, |a|, |b|)`.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// A random instance in the unit cube of dimension 2 or 8 (metric scale √dim): up to 40
/// observations with costs in [0, 1], a ridge log-uniform in [1e-3, 1], and 3 query points.
#[derive(Debug, Clone)]
struct Instance {
    dim: usize,
    obs: Vec<f32>,
    y: Vec<f64>,
    ridge: f64,
    queries: Vec<f32>,
    length: f64,
}

fn instance() -> impl Strategy<Value = Instance> {
    prop_oneof![Just(2usize), Just(8usize)].prop_flat_map(|dim| {
        (1usize..=40).prop_flat_map(move |n| {
            (
                prop::collection::vec(0.0f32..1.0, n * dim),
                prop::collection::vec(0.0f64..1.0, n),
                -3.0f64..0.0,
                prop::collection::vec(0.0f32..1.0, 3 * dim),
                prop_oneof![Just(0.2f64), 0.05f64..0.5],
            )
                .prop_map(move |(obs, y, e, queries, length)| Instance {
                    dim,
                    obs,
                    y,
                    ridge: 10f64.powf(e),
                    queries,
                    length,
                })
        })
    })
}

impl Instance {
    fn kernel(&self) -> RbfKernel {
        RbfKernel::new(self.length).unwrap()
    }
    fn metric(&self) -> Metric {
        Metric::new((self.dim as f64).sqrt()).unwrap()
    }
    fn points(&self) -> Points {
        Points::from_flat(self.dim, self.obs.clone()).unwrap()
    }
    fn query_points(&self) -> Points {
        Points::from_flat(self.dim, self.queries.clone()).unwrap()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// posterior_at and tracked posteriors equal the dense solve (SPEC §6) after every
    /// observation; σ² stays in [0, κ(x,x)]; tracked equals from-scratch bit for bit.
    #[test]
    fn incremental_matches_dense(inst in instance()) {
        let (kernel, metric, pts, qs) = (inst.kernel(), inst.metric(), inst.points(), inst.query_points());
        let mut krr = Krr::new(kernel, metric, inst.ridge, inst.dim).unwrap();
        let ids: Vec<usize> = qs.iter().map(|q| krr.track(q)).collect();
        // the observed points themselves are tracked too
        let obs_ids: Vec<usize> = pts.iter().map(|z| krr.track(z)).collect();
        for (l, z) in pts.iter().enumerate() {
            krr.add_observation(z, inst.y[l]).unwrap();
            let prefix = pts.select(&(0..=l).collect::<Vec<_>>());
            // check a query after every observation (eager), the rest only at the end (lazy)
            let q = l % qs.len();
            let fast = krr.posterior_tracked(ids[q]);
            let dense = posterior_dense(&prefix, &inst.y[..=l], kernel, metric, inst.ridge, qs.row(q));
            prop_assert!(close(fast.mean, dense.mean, 1e-9), "mean {} vs {}", fast.mean, dense.mean);
            prop_assert!(close(fast.var, dense.var, 1e-9), "var {} vs {}", fast.var, dense.var);
        }
        let all = krr.posterior_tracked_all();
        prop_assert_eq!(all.len(), qs.len() + pts.len());
        for (i, q) in qs.iter().chain(pts.iter()).enumerate() {
            let scratch = krr.posterior_at(q);
            prop_assert_eq!(all[i], scratch);
            let dense = posterior_dense(&pts, &inst.y, kernel, metric, inst.ridge, q);
            prop_assert!(close(scratch.mean, dense.mean, 1e-9), "mean {} vs {}", scratch.mean, dense.mean);
            prop_assert!(close(scratch.var, dense.var, 1e-9), "var {} vs {}", scratch.var, dense.var);
            prop_assert!(scratch.var >= 0.0 && scratch.var <= 1.0);
        }
        prop_assert_eq!(all[qs.len()], krr.posterior_tracked(obs_ids[0]));
        prop_assert_eq!(krr.jitter_events(), 0);
    }

    /// γ from the growing factor equals ½ log det(I + K/λ) from a dense factorisation.
    #[test]
    fn gamma_matches_dense(inst in instance()) {
        let (kernel, metric, pts) = (inst.kernel(), inst.metric(), inst.points());
        let krr = Krr::fit(kernel, metric, inst.ridge, &pts, &inst.y).unwrap();
        let g = krr.gamma();
        prop_assert!(close(g, gamma_dense(&pts, kernel, metric, inst.ridge), 1e-9));
        prop_assert!(g >= 0.0);
        // γ ≤ ½ ℓ ln(1 + ℓ/λ) (trace bound: the eigenvalues of K sum to ℓ)
        let l = pts.len() as f64;
        prop_assert!(g <= 0.5 * l * (1.0 + l / inst.ridge).ln() + 1e-9);
    }

    /// Lazily caught-up tracked points equal eagerly refreshed ones exactly, whenever they were
    /// registered and however rarely they were queried.
    #[test]
    fn lazy_equals_eager(inst in instance(), every in 1usize..7) {
        let (kernel, metric, pts, qs) = (inst.kernel(), inst.metric(), inst.points(), inst.query_points());
        let mut lazy = Krr::new(kernel, metric, inst.ridge, inst.dim).unwrap();
        let mut eager = lazy.clone();
        for q in qs.iter() {
            eager.track(q);
        }
        for (l, z) in pts.iter().enumerate() {
            if l == pts.len() / 2 {
                for q in qs.iter() {
                    lazy.track(q);
                }
            }
            lazy.add_observation(z, inst.y[l]).unwrap();
            eager.add_observation(z, inst.y[l]).unwrap();
            eager.refresh_all();
            if l % every == 0 && lazy.n_tracked() > 0 {
                lazy.posterior_tracked(l % lazy.n_tracked());
            }
        }
        prop_assert_eq!(lazy.n_tracked(), qs.len());
        prop_assert_eq!(lazy.posterior_tracked_all(), eager.posterior_tracked_all());
    }

    /// With a fixed ridge (online), more data never increases the posterior variance, and σ² is in
    /// [0, κ(x,x)] everywhere.
    #[test]
    fn variance_bounded_and_non_increasing(inst in instance()) {
        let (kernel, metric, pts, qs) = (inst.kernel(), inst.metric(), inst.points(), inst.query_points());
        let mut krr = Krr::new(kernel, metric, inst.ridge, inst.dim).unwrap();
        let mut prev: Vec<f64> = qs.iter().map(|q| krr.posterior_at(q).var).collect();
        prop_assert!(prev.iter().all(|&v| v == 1.0));
        for (l, z) in pts.iter().enumerate() {
            krr.add_observation(z, inst.y[l]).unwrap();
            for (i, q) in qs.iter().enumerate() {
                let v = krr.posterior_at(q).var;
                prop_assert!((0.0..=1.0).contains(&v));
                prop_assert!(v <= prev[i] + 1e-12, "σ² rose from {} to {}", prev[i], v);
                prev[i] = v;
            }
        }
    }

    /// As λ → 0 the mean interpolates the data: well-separated points (distinct cells of a grid
    /// of spacing 0.4 in normalised distance, so κ ≤ e⁻²) with λ = 1e-8.
    #[test]
    fn mean_interpolates_as_ridge_vanishes(
        cells in prop::sample::subsequence((0..36usize).collect::<Vec<_>>(), 1..20),
        y in prop::collection::vec(0.0f64..1.0, 20),
    ) {
        let rows: Vec<[f32; 2]> = cells.iter().map(|&c| [0.4 * (c % 6) as f32, 0.4 * (c / 6) as f32]).collect();
        let pts = Points::from_rows(&rows).unwrap();
        let y = &y[..pts.len()];
        let krr = Krr::fit(RbfKernel::new(0.2).unwrap(), Metric::new(1.0).unwrap(), 1e-8, &pts, y).unwrap();
        for (j, z) in pts.iter().enumerate() {
            let p = krr.posterior_at(z);
            prop_assert!((p.mean - y[j]).abs() < 1e-6, "ĉ(z_j) = {} vs y_j = {}", p.mean, y[j]);
            prop_assert!(p.var < 1e-6);
        }
    }

    /// Repeated points with a tiny ridge: every quantity stays finite and the floor is counted.
    #[test]
    fn duplicates_stay_finite(inst in instance(), reps in 2usize..6) {
        let (kernel, metric, pts, qs) = (inst.kernel(), inst.metric(), inst.points(), inst.query_points());
        let mut krr = Krr::new(kernel, metric, 1e-15, inst.dim).unwrap();
        let id = krr.track(pts.row(0));
        for (l, z) in pts.iter().enumerate().take(4) {
            for r in 0..reps {
                krr.add_observation(z, inst.y[l] + 0.01 * r as f64).unwrap();
            }
        }
        prop_assert!(krr.jitter_events() >= 1);
        prop_assert!(krr.gamma().is_finite());
        for q in qs.iter().chain(pts.iter()) {
            let p = krr.posterior_at(q);
            prop_assert!(p.mean.is_finite() && p.var.is_finite());
            prop_assert!((0.0..=1.0).contains(&p.var));
        }
        let t = krr.posterior_tracked(id);
        prop_assert_eq!(t, krr.posterior_at(pts.row(0)));
    }

    /// Bounds: c̲ ≤ ĉ ≤ c̄, widths grow with γ and shrink with ℓ, scaled by β / β_off.
    #[test]
    fn bounds_bracket_the_mean(
        mean in -1.0f64..2.0, var in 0.0f64..1.0, n in 1usize..500, m in 1usize..100,
        gamma in 0.0f64..200.0, beta in 0.0f64..3.0,
    ) {
        let p = Posterior { mean, var };
        let hi = pessimistic_cost(&p, n, m, 0.1, 1.0, 0.05, beta);
        let lo = optimistic_cost(&p, n, gamma, 1.0, 0.05, 0.05, beta);
        prop_assert!(lo <= mean && mean <= hi);
        prop_assert!(close(hi - mean, beta * offline_width_factor(n, m, 0.1, 1.0, 0.05) * var.sqrt(), 1e-12));
        prop_assert!(online_width_factor(gamma + 1.0, 1.0, 0.05, 0.05) > online_width_factor(gamma, 1.0, 0.05, 0.05));
        prop_assert!(offline_width_factor(n + 1, m, 0.1, 1.0, 0.05) < offline_width_factor(n, m, 0.1, 1.0, 0.05));
        prop_assert_eq!(pessimistic_cost(&p, 0, m, 0.1, 1.0, 0.05, beta), 1.0);
        prop_assert_eq!(optimistic_cost(&p, 0, gamma, 1.0, 0.05, 0.05, beta), -1.0);
    }
}

/// A point at normalised distance d from a single observation: κ = exp(−d²/(2ℓ_k²)),
/// ĉ = κ y/(1+r), σ² = 1 − κ²/(1+r); the offline ridge ℓλ with ℓ = 1 is λ.
#[test]
fn single_observation_by_hand() {
    let kernel = RbfKernel::new(0.2).unwrap();
    let metric = Metric::new(2.0).unwrap(); // Euclidean 1.0 → normalised 0.5
    let (r, y) = (0.1, 0.4);
    let mut krr = Krr::new(kernel, metric, r, 2).unwrap();
    let far = krr.track(&[1.0, 0.0]);
    assert_eq!(krr.posterior_tracked(far), Posterior::PRIOR);
    krr.add_observation(&[0.0, 0.0], y).unwrap();
    let kap = (-0.25f64 / 0.08).exp();
    let p = krr.posterior_tracked(far);
    assert!(close(p.mean, kap * y / (1.0 + r), 1e-14));
    assert!(close(p.var, 1.0 - kap * kap / (1.0 + r), 1e-14));
    let at = krr.posterior_at(&[0.0, 0.0]);
    assert!(close(at.mean, y / 1.1, 1e-14) && close(at.var, 1.0 - 1.0 / 1.1, 1e-14));
    assert!(close(krr.gamma(), 0.5 * 11f64.ln(), 1e-14));
    // pessimistic with ℓ = 1, m = 1: ĉ + (1 + √(ln 40 / 0.1))·σ
    let hi = pessimistic_cost(&at, 1, 1, r, 1.0, 0.05, 1.0);
    assert!(close(hi, y / 1.1 + (1.0 + (40f64.ln() / 0.1).sqrt()) * (1.0 - 1.0 / 1.1f64).sqrt(), 1e-14));
    // optimistic with γ = ½ ln 11: ĉ − (1 + 0.05·√(2(½ ln 11 + ln 40)))·σ
    let lo = optimistic_cost(&at, 1, krr.gamma(), 1.0, 0.05, 0.05, 1.0);
    let w = 1.0 + 0.05 * (2.0 * (0.5 * 11f64.ln() + 40f64.ln())).sqrt();
    assert!(close(lo, y / 1.1 - w * (1.0 - 1.0 / 1.1f64).sqrt(), 1e-14));
}

/// The empty learner is the prior everywhere, and its bounds are ±B.
#[test]
fn no_observations_is_the_prior() {
    let mut krr = Krr::new(RbfKernel::default(), Metric::new(1.0).unwrap(), 0.1, 3).unwrap();
    let id = krr.track(&[0.1, 0.2, 0.3]);
    assert_eq!(krr.n_obs(), 0);
    assert_eq!(krr.gamma(), 0.0);
    assert_eq!(krr.posterior_tracked(id), Posterior { mean: 0.0, var: 1.0 });
    assert_eq!(krr.posterior_at(&[0.9, 0.9, 0.9]).sd(), 1.0);
    let empty = Points::new(3).unwrap();
    let m = Metric::new(1.0).unwrap();
    assert_eq!(gamma_dense(&empty, RbfKernel::default(), m, 0.1), 0.0);
    assert_eq!(posterior_dense(&empty, &[], RbfKernel::default(), m, 0.1, &[0.0; 3]), Posterior::PRIOR);
    assert_eq!(pessimistic_cost(&Posterior::PRIOR, 0, 7, 0.1, 1.0, 0.05, 1.0), 1.0);
    assert_eq!(optimistic_cost(&Posterior::PRIOR, 0, 0.0, 1.0, 0.05, 0.05, 1.0), -1.0);
}

/// Offline use (Alg. 2 line 4): the ridge is ℓλ, fixed before fitting; the fit equals the dense
/// solve with that ridge.
#[test]
fn offline_ridge_scales_with_observations() {
    let rows = [[0.1f32, 0.1], [0.3, 0.2], [0.5, 0.9], [0.7, 0.4], [0.9, 0.8]];
    let pts = Points::from_rows(&rows).unwrap();
    let y = [0.2, 0.4, 0.9, 0.5, 0.7];
    let (kernel, metric, lambda) = (RbfKernel::default(), Metric::new(2f64.sqrt()).unwrap(), 0.1);
    let ridge = pts.len() as f64 * lambda;
    let krr = Krr::fit(kernel, metric, ridge, &pts, &y).unwrap();
    assert_eq!(krr.ridge(), 0.5);
    for q in [[0.2f32, 0.2], [0.6, 0.6], [1.0, 0.0]] {
        let fast = krr.posterior_at(&q);
        let dense = posterior_dense(&pts, &y, kernel, metric, ridge, &q);
        assert!(close(fast.mean, dense.mean, 1e-12) && close(fast.var, dense.var, 1e-12));
    }
}
