//! Benchmarks of the engine's two hot paths (SPEC §13: "KRR at every center on each switch
//! dominates, then Reverse Greedy"): Continuous Reverse Greedy (Alg. 1, SPEC §5) with its distance
//! matrix, and the incremental kernel ridge regression (SPEC §6) against a dense refit.
//!
//! Data: `csc_engine::workloads` — 384-dimensional unit vectors clustered like sentence embeddings,
//! seeded, so every run (and the browser benchmark, which uses the same module) sees the same
//! instances.
//!
//! Run with `cargo bench --bench engine`; see `docs/PERFORMANCE.md` for the figures.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use csc_engine::krr::reference::posterior_dense;
use csc_engine::krr::{Krr, RbfKernel};
use csc_engine::mismatch::Mismatch;
use csc_engine::reverse_greedy::{reverse_greedy, reverse_greedy_plain, Instance};
use csc_engine::space::{diameter, DistanceMatrix, Metric, Points};
use csc_engine::workloads::{clustered, weights_costs, DIM};
use std::hint::black_box;
use std::time::{Duration, Instant};

const K: usize = 5;

/// Reverse Greedy (fast form) given a precomputed distance matrix, and the time to build that
/// matrix, at m = 100, 500 and 5,000 candidates with k = 5; the plain form at m = 100.
fn bench_reverse_greedy(c: &mut Criterion) {
    for &m in &[100usize, 500, 5_000] {
        let pts = clustered(m, 1);
        let metric = Metric::new(diameter(&pts)).unwrap();
        let dm = DistanceMatrix::from_points(&pts, &metric);
        let (w, cost) = weights_costs(m, 1);
        let inst = Instance::new(&dm, &w, &cost, Mismatch::default()).unwrap();

        let mut group = c.benchmark_group("reverse_greedy");
        if m >= 5_000 {
            group.sample_size(10).sampling_mode(SamplingMode::Flat);
        }
        group.bench_with_input(BenchmarkId::new("fast", m), &m, |b, _| {
            b.iter(|| black_box(reverse_greedy(&inst, K, &[])))
        });
        if m <= 100 {
            assert_eq!(reverse_greedy(&inst, K, &[]), reverse_greedy_plain(&inst, K, &[]));
            group.bench_with_input(BenchmarkId::new("plain", m), &m, |b, _| {
                b.iter(|| black_box(reverse_greedy_plain(&inst, K, &[])))
            });
        }
        group.finish();

        let mut group = c.benchmark_group("distance_matrix");
        if m >= 5_000 {
            group.sample_size(10).sampling_mode(SamplingMode::Flat);
        }
        group.bench_with_input(BenchmarkId::new("build", m), &m, |b, _| {
            b.iter(|| black_box(DistanceMatrix::from_points(&pts, &metric)))
        });
        group.finish();
    }
}

const L_MAX: usize = 2_000;
const TRACKED: usize = 500;
const RIDGE: f64 = 0.1;

/// The KRR workload of the online learner: `L_MAX` observations at clustered points with costs in
/// (0.01, 1], and `TRACKED` tracked centers from the same distribution.
struct KrrData {
    obs: Points,
    y: Vec<f64>,
    centers: Points,
    metric: Metric,
    kernel: RbfKernel,
}

impl KrrData {
    fn new() -> Self {
        let all = clustered(L_MAX + TRACKED, 2);
        let metric = Metric::new(diameter(&all)).unwrap();
        let obs = all.select(&(0..L_MAX).collect::<Vec<_>>());
        let centers = all.select(&(L_MAX..L_MAX + TRACKED).collect::<Vec<_>>());
        let (_, y) = weights_costs(L_MAX, 2);
        KrrData { obs, y, centers, metric, kernel: RbfKernel::default() }
    }

    /// A learner tracking every center, grown to `l` observations with a refresh after each.
    fn grown(&self, l: usize) -> Krr {
        let mut krr = Krr::new(self.kernel, self.metric, RIDGE, DIM).unwrap();
        for u in self.centers.iter() {
            krr.track(u);
        }
        for j in 0..l {
            krr.add_observation(self.obs.row(j), self.y[j]).unwrap();
            krr.refresh_all();
        }
        krr
    }
}

/// Incremental KRR: the whole growth to ℓ = 2,000 with 500 centers refreshed after every
/// observation; one observation (+ refresh) at ℓ = 2,000; a from-scratch posterior at ℓ = 2,000;
/// and the dense refit (Gram matrix + Cholesky + solve) at ℓ = 2,000 that the incremental form
/// replaces.
fn bench_krr(c: &mut Criterion) {
    let data = KrrData::new();
    let mut group = c.benchmark_group("krr");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(1));

    group.bench_function(BenchmarkId::new("growth_500_tracked", L_MAX), |b| {
        b.iter(|| black_box(data.grown(L_MAX)))
    });

    let base = data.grown(L_MAX - 1);
    let last = data.obs.row(L_MAX - 1);
    group.bench_function(BenchmarkId::new("add_one_refresh_500_tracked", L_MAX), |b| {
        // The clone of the ℓ = 1,999 state (≈ 24 MB) is not timed, nor is making room for one
        // more row in it (a clone has no spare capacity: without `reserve` the step would time
        // copying the whole factor and every projection into a bigger buffer).
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut krr = base.clone();
                krr.reserve(1);
                let t = Instant::now();
                krr.add_observation(last, data.y[L_MAX - 1]).unwrap();
                krr.refresh_all();
                total += t.elapsed();
                black_box(&krr);
            }
            total
        })
    });

    let mut full = data.grown(L_MAX);
    let x = data.centers.row(0);
    // Sanity: the three routes to the posterior at ℓ = 2,000 agree.
    let scratch = full.posterior_at(x);
    assert_eq!(scratch, full.posterior_tracked(0));
    let dense = posterior_dense(&data.obs, &data.y, data.kernel, data.metric, RIDGE, x);
    assert!((scratch.mean - dense.mean).abs() < 1e-8 && (scratch.var - dense.var).abs() < 1e-8);
    assert_eq!(full.jitter_events(), 0);
    group.bench_function(BenchmarkId::new("posterior_at_scratch", L_MAX), |b| {
        b.iter(|| black_box(full.posterior_at(x)))
    });

    group.bench_function(BenchmarkId::new("dense_refit_posterior", L_MAX), |b| {
        b.iter(|| black_box(posterior_dense(&data.obs, &data.y, data.kernel, data.metric, RIDGE, x)))
    });
    group.finish();
}

/// CLCB-SC-LS-Cont on synthetic over a whole run, the exact learner against the Nyström learner
/// (`krr::nystrom`), at T = 2,000, 5,000 and 10,000 on the same seeded trace (the environment is
/// built once per T and not timed): the exact learner's growth (≈ T³ on this stream of distinct
/// points) and the approximation's (≈ T) side by side, read as ratios and a fitted exponent
/// (`python3 tools/bench_growth.py`). Ten samples of the exact run at 10,000 take about 15
/// minutes: `cargo bench --bench engine -- horizon`.
fn bench_horizon(c: &mut Criterion) {
    use csc_engine::config::Params;
    use csc_engine::dataset::synthetic;
    use csc_engine::online::sim::{Environment, Simulation};
    use csc_engine::online::PolicyKind;
    use csc_engine::stream::{generate_trace, ArrivalModel};
    use std::sync::Arc;
    let mut group = c.benchmark_group("horizon");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    for horizon in [2000usize, 5000, 10000] {
        let params = Params { horizon, seed: 0, ..Params::default() }.check().unwrap();
        let dataset = Arc::new(synthetic::universe(params.c_floor).unwrap());
        let model = ArrivalModel::default_for(&dataset, &params).unwrap();
        let trace = generate_trace(dataset, model, &params).unwrap();
        let env = Arc::new(Environment::from_trace(&trace, &params).unwrap());
        for kind in [PolicyKind::ClcbScLsCont, PolicyKind::ClcbScLsContNystrom] {
            group.bench_function(BenchmarkId::new(kind.id(), horizon), |b| {
                b.iter(|| {
                    let mut sim = Simulation::new(env.clone(), kind, &params, 0).unwrap();
                    for t in 0..trace.horizon() {
                        sim.step(&trace.arrival(t));
                    }
                    black_box(sim.result().last.avg_regret)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_reverse_greedy, bench_krr, bench_horizon);
criterion_main!(benches);
