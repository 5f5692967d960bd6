//! A plain implementation of the paper's online comparison, written straight from the pseudocode
//! (paper Algs. 3–8, SPEC §4, §6, §9, §11) and sharing none of the engine's fast machinery: it is
//! the differential oracle of `csc::online` (`tests/plain_online.rs`) and the "plain
//! implementation" that `examples/plain_vs_fast.rs` times the engine against.
//!
//! What is plain here, against what the engine does:
//! - ε-net (Alg. 3 lines 5–11, SPEC §4): a linear scan over the centers for every arrival, strict
//!   `<` so ties go to the lowest index (no `EpsilonNet`).
//! - Stages (Alg. 3 lines 12–18, SPEC §11.2): the stage sizes `|T(u, τ)|` of every center and of
//!   `f` kept as lists and summed at each check, the trigger evaluated in exact integers (no
//!   `StageClock`).
//! - KRR (Alg. 4 lines 3–16, Alg. 5 line 4, Alg. 7, Alg. 8 line 13, SPEC §6): at **each use** the
//!   Gram matrix `K` of all observations is formed from scratch, `K + λI` is factorised by a dense
//!   nalgebra Cholesky and solved for `y` and for the `κ_u` of every point asked about at that use
//!   (one factorisation per use, as Alg. 4 forms `K` once before its loop over the centers), and
//!   `γ = ½ log det(I + K/λ)` comes from a second dense Cholesky of `I + K/λ` (no growing factor,
//!   no tracked centers, no reused solves).
//! - Reverse Greedy (Alg. 1): `csc::reverse_greedy::reverse_greedy_plain`, which evaluates
//!   `L̂(M \ {q})` (eq. 4) from scratch for every candidate `q` at every removal.
//! - `L(M)` (eq. 2 on `E`, SPEC §3): every point of `E` against every cache member, recomputed
//!   whenever the cache changes (no `LossTracker`, no ball index).
//! - Baselines (SPEC §9, §11.8): top-k by k passes of a linear arg-max (no sort helper).
//! - Evaluation oracle: `csc::oracle::evaluation_oracle_plain` (SPEC §5 step by step: an
//!   incremental `ε_o`-net and full scans). It is environment set-up, not a policy: its Reverse
//!   Greedy over the oracle's candidates is the engine's, and the tests check its `L(M_orc)` bits
//!   against `Environment`'s.
//!
//! Shared with the engine on purpose, as definitions rather than machinery: the metric
//! (`Metric::dist`), `φ` (`Mismatch::phi`), the `Params`, the trace and its `Arrival`s, the
//! Epsilon-Greedy random stream (`stream::rng(seed, Purpose::Policy)` and
//! `rand::seq::index::sample`, which must be the same draws for the runs to be comparable), and
//! the tie rule of Reverse Greedy (inside `reverse_greedy_plain`, SPEC §1). Transcendental
//! functions are the standard library's (`f64::exp`, `f64::ln`), not the engine's `libm` wrappers.
//!
//! Output is in the engine's terms: per round the decision, the cache (member keys = the round
//! whose arrival the member is), the switching cost, the realised cost and `L(M_t)`; checkpoints
//! as `csc::online::sim::Checkpoint` with the same regret accounting as `Simulation`.
#![allow(dead_code)]

use csc::config::Params;
use csc::mismatch::Mismatch;
use csc::online::sim::Checkpoint;
use csc::online::PolicyKind;
use csc::oracle::{evaluation_oracle_plain, EvalSample};
use csc::reverse_greedy::{reverse_greedy_plain, Instance};
use csc::space::{DistanceMatrix, Metric, Points};
use csc::stream::{rng, Arrival, Purpose};
use csc::trace::Trace;
use nalgebra::DMatrix;
use rand::seq::index::sample;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::time::Instant;

/// The environment of a plain run: `E` with its true costs, the metric, `φ`, `L(M_orc)`.
pub struct PlainEnv {
    pub eval: Points,
    pub eval_costs: Vec<f64>,
    pub metric: Metric,
    pub mismatch: Mismatch,
    pub params: Params,
    pub horizon: usize,
    pub dim: usize,
    /// `L(M_orc)` from `evaluation_oracle_plain` (SPEC §5, §11.7).
    pub oracle_loss: f64,
}

impl PlainEnv {
    /// `E` read from the trace; `M_orc` over the trace's online arrivals (SPEC §5, §11.7).
    pub fn from_trace(trace: &Trace, params: &Params) -> Self {
        let metric = Metric::new(trace.dist_scale).expect("trace scale");
        let mismatch = params.mismatch();
        let mut eval = Points::new(trace.dim()).expect("dim");
        for i in 0..trace.eval.len() {
            eval.push(trace.eval_x(i)).expect("finite E");
        }
        let sample = EvalSample::new(eval.clone(), trace.eval_cost.clone(), metric, mismatch).expect("E");
        let observed = (0..trace.horizon()).map(|t| (trace.x(t), trace.cost[t]));
        let oracle = evaluation_oracle_plain(observed, trace.dim(), &sample, params.eps_oracle, params.k)
            .expect("oracle");
        PlainEnv {
            eval,
            eval_costs: trace.eval_cost.clone(),
            metric,
            mismatch,
            params: params.clone(),
            horizon: trace.horizon(),
            dim: trace.dim(),
            oracle_loss: oracle.loss,
        }
    }

    /// `L(M) = (1/|E|) Σ_{x∈E} min(c(x), φ(d(x, M)))` (eq. 2 on `E`; `d(x, ∅) = ∞`, SPEC §3).
    pub fn loss(&self, cache: &[Vec<f32>]) -> f64 {
        let mut total = 0.0;
        for (x, &c) in self.eval.iter().zip(&self.eval_costs) {
            let mut d = f64::INFINITY;
            for u in cache {
                d = d.min(self.metric.dist(x, u));
            }
            total += c.min(self.mismatch.phi(d));
        }
        total / self.eval.len() as f64
    }
}

/// What one plain round did.
#[derive(Clone, Debug, PartialEq)]
pub struct PlainRound {
    pub t: usize,
    /// Called the LLM (else served from the cache).
    pub llm: bool,
    /// The cache membership changed this round (before serving).
    pub switched: bool,
    /// The serving cache `M_t` as member keys, ascending.
    pub cache: Vec<u64>,
    /// Σ `c(u)` over the members new this round (SPEC §11.5).
    pub switch_cost: f64,
    /// `c(x_t)` for an LLM call, `φ(d(x_t, M_t))` for a hit (SPEC §11.9).
    pub realised: f64,
    /// `L(M_t)`.
    pub loss: f64,
    /// `φ(d(x_t, M_t))`.
    pub phi: f64,
    /// The cost the decision compared with `φ` (an LCB, or a cell mean for the baselines).
    pub acting: f64,
}

/// A finished plain run.
pub struct PlainRun {
    pub kind: PolicyKind,
    pub rounds: Vec<PlainRound>,
    pub checkpoints: Vec<Checkpoint>,
    pub last: Checkpoint,
    pub oracle_loss: f64,
    /// Wall time of the whole run (policy, `L(M_t)`, bookkeeping), ms.
    pub wall_ms: f64,
    /// Of which in KRR solves and in Reverse Greedy, ms.
    pub krr_ms: f64,
    pub rg_ms: f64,
    /// Reverse Greedy work, Σ [`rg_units`] over its calls.
    pub rg_units: f64,
}

/// Run options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Rounds between checkpoints (0 = about 200 over the horizon, as `Simulation`).
    pub record_every: usize,
    /// Compute the estimation errors at the centers at each checkpoint (SPEC §9 KRR error).
    pub estimates: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { record_every: 0, estimates: true }
    }
}

/// The policies this module implements: the paper's online comparison, as the engine lists it.
pub fn kinds() -> Vec<PolicyKind> {
    csc::experiment::paper_policies()
}

/// Runs `kind` over `arrivals` (each with its true cost and noise, SPEC §2, §12) in `env`.
pub fn run<'a>(
    env: &PlainEnv,
    kind: PolicyKind,
    params: &Params,
    arrivals: impl IntoIterator<Item = Arrival<'a>>,
    opts: Options,
) -> PlainRun {
    let start = Instant::now();
    KRR_MS.with(|c| c.set(0.0));
    RG_MS.with(|c| c.set(0.0));
    RG_UNITS.with(|c| c.set(0.0));
    let mut policy: Box<dyn PlainPolicy> = match kind {
        PolicyKind::ClcbScLsCont => Box::new(LowSwitch::new(env, params, true)),
        PolicyKind::ClcbScLs => Box::new(LowSwitch::new(env, params, false)),
        PolicyKind::ClcbFrozenCont => Box::new(Frozen::new(env, params)),
        PolicyKind::Greedy => Box::new(Cells::new(env, params, Score::Greedy)),
        PolicyKind::EpsilonGreedy => Box::new(Cells::new(env, params, Score::EpsilonGreedy)),
        PolicyKind::Lfu => Box::new(Cells::new(env, params, Score::Lfu)),
        other => panic!("no plain implementation of {}", other.label()),
    };
    let record_every =
        if opts.record_every == 0 { env.horizon.div_ceil(200).max(1) } else { opts.record_every };
    let mut cost_by_round: Vec<f64> = Vec::new();
    let mut prev: Vec<u64> = Vec::new();
    let mut loss = env.loss(&[]);
    let mut state = Checkpoint::default();
    let mut hits = 0u64;
    let mut rounds = Vec::new();
    let mut checkpoints = Vec::new();
    let mut policy_ms = 0.0;
    for a in arrivals {
        let t = rounds.len();
        cost_by_round.push(a.cost);
        let t0 = Instant::now();
        let decision = policy.decide(t, &a);
        policy_ms += t0.elapsed().as_secs_f64() * 1e3;
        let (keys, vectors) = policy.cache();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        let switched = sorted != prev;
        let mut switch_cost = 0.0;
        if switched {
            // SPEC §11.5: Σ c(u) over the members not cached in the previous round.
            for &key in &keys {
                if !prev.contains(&key) {
                    switch_cost += cost_by_round[key as usize];
                }
            }
            loss = env.loss(&vectors);
            state.switches += 1;
        }
        prev = sorted.clone();
        state.cache_size = keys.len();
        let mut d = f64::INFINITY;
        for u in &vectors {
            d = d.min(env.metric.dist(a.x, u));
        }
        let phi = env.mismatch.phi(d);
        let realised = if decision.llm { a.cost } else { phi };
        if decision.llm {
            state.llm_calls += 1;
            let t0 = Instant::now();
            policy.observe(&a, a.cost + a.eta);
            policy_ms += t0.elapsed().as_secs_f64() * 1e3;
        } else {
            hits += 1;
        }
        state.t = t + 1;
        state.realised_cost += realised;
        state.switch_cost += switch_cost;
        state.loss_gap += loss - env.oracle_loss;
        state.regret += loss - env.oracle_loss + switch_cost;
        rounds.push(PlainRound {
            t,
            llm: decision.llm,
            switched,
            cache: sorted,
            switch_cost,
            realised,
            loss,
            phi,
            acting: decision.acting,
        });
        if state.t.is_multiple_of(record_every) || state.t == env.horizon {
            let est = if opts.estimates { policy.estimates() } else { None };
            checkpoints.push(snapshot(&state, hits, loss, policy_ms, est, &cost_by_round));
        }
    }
    let est = if opts.estimates { policy.estimates() } else { None };
    let last = snapshot(&state, hits, loss, policy_ms, est, &cost_by_round);
    PlainRun {
        kind,
        rounds,
        checkpoints,
        last,
        oracle_loss: env.oracle_loss,
        wall_ms: start.elapsed().as_secs_f64() * 1e3,
        krr_ms: KRR_MS.with(Cell::get),
        rg_ms: RG_MS.with(Cell::get),
        rg_units: RG_UNITS.with(Cell::get),
    }
}

/// The metrics of SPEC §9 from the running sums.
fn snapshot(
    state: &Checkpoint,
    hits: u64,
    loss: f64,
    policy_ms: f64,
    est: Option<Vec<(u64, f64)>>,
    cost_by_round: &[f64],
) -> Checkpoint {
    let mut c = state.clone();
    let n = c.t.max(1) as f64;
    c.avg_regret = c.regret / n;
    c.avg_loss_gap = c.loss_gap / n;
    c.avg_switch_cost = c.switch_cost / n;
    c.avg_realised_cost = c.realised_cost / n;
    c.hit_rate = hits as f64 / n;
    c.loss = loss;
    c.wall_ms = policy_ms;
    if let Some(est) = est.filter(|e| !e.is_empty()) {
        let errs: Vec<f64> = est.iter().map(|&(k, e)| (e - cost_by_round[k as usize]).abs()).collect();
        let m = errs.len() as f64;
        c.est_rmse = Some((errs.iter().map(|e| e * e).sum::<f64>() / m).sqrt());
        c.est_mae = Some(errs.iter().sum::<f64>() / m);
        c.est_max = Some(errs.iter().fold(0.0, |a: f64, &b| a.max(b)));
    }
    c
}

/// A policy's decision in round t.
pub struct Decision {
    pub llm: bool,
    pub acting: f64,
}

trait PlainPolicy {
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
fn dist_to(metric: &Metric, x: &[f32], cache: &[Vec<f32>]) -> f64 {
    let mut d = f64::INFINITY;
    for u in cache {
        d = d.min(metric.dist(x, u));
    }
    d
}

// ---------------------------------------------------------------------------------------------
// The ε-net, by linear scan (SPEC §4, Alg. 3 lines 5–11).

/// The online ε-net: centers in creation order, the round that created each (its key), and the
/// pairwise center distances that Reverse Greedy reads (each row is the scan that created it).
struct Net {
    eps: f64,
    metric: Metric,
    centers: Vec<Vec<f32>>,
    origin: Vec<u64>,
    dists: DistanceMatrix,
}

impl Net {
    fn new(eps: f64, metric: Metric) -> Self {
        Net { eps, metric, centers: Vec::new(), origin: Vec::new(), dists: DistanceMatrix::new() }
    }

    /// Alg. 3 lines 5–11: if `S = ∅` or `min_u d(x_t, u) > ε` then `x_t` becomes a new center,
    /// else `u_t = argmin_u d(x_t, u)` (ties to the lowest index). Returns `(u_t, is_new)`.
    fn assign(&mut self, t: usize, x: &[f32]) -> (usize, bool) {
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

    fn len(&self) -> usize {
        self.centers.len()
    }
}

// ---------------------------------------------------------------------------------------------
// KRR from scratch (SPEC §6).

/// `κ(x, y) = exp(−d(x, y)² / (2ℓ_k²))`.
fn kernel(metric: &Metric, len: f64, x: &[f32], y: &[f32]) -> f64 {
    let d = metric.dist(x, y);
    (-(d * d) / (2.0 * len * len)).exp()
}

/// A KRR posterior `(ĉ, σ²)`.
#[derive(Clone, Copy, Debug)]
struct Post {
    mean: f64,
    var: f64,
}

/// The Gram matrix `K = [κ(z_i, z_j)]` of the observations (Alg. 4 line 5), formed from scratch.
fn gram(metric: &Metric, len: f64, obs: &[Vec<f32>]) -> DMatrix<f64> {
    let n = obs.len();
    let mut k = DMatrix::<f64>::zeros(n, n);
    for i in 0..n {
        k[(i, i)] = kernel(metric, len, &obs[i], &obs[i]);
        for j in 0..i {
            let v = kernel(metric, len, &obs[i], &obs[j]);
            k[(i, j)] = v;
            k[(j, i)] = v;
        }
    }
    k
}

/// `γ = ½ log det(I + K/λ)` (Alg. 4 line 11) by a dense Cholesky of `I + K/λ`: `Σ ln L_ii`.
/// 0 with no observations.
fn gamma_from_scratch(k: &DMatrix<f64>, lambda: f64) -> f64 {
    let n = k.nrows();
    if n == 0 {
        return 0.0;
    }
    let t0 = Instant::now();
    let g = DMatrix::<f64>::identity(n, n) + k / lambda;
    let ch = g.cholesky().expect("I + K/λ is positive definite");
    let gamma = ch.l_dirty().diagonal().iter().map(|d| d.ln()).sum::<f64>();
    KRR_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    gamma
}

thread_local! {
    /// Time spent in KRR solves and in Reverse Greedy by this thread's plain runs (ms), and the
    /// Reverse Greedy work done ([`rg_units`]).
    static KRR_MS: Cell<f64> = const { Cell::new(0.0) };
    static RG_MS: Cell<f64> = const { Cell::new(0.0) };
    static RG_UNITS: Cell<f64> = const { Cell::new(0.0) };
}

/// The work of one `reverse_greedy_plain` call on `n` candidates with cache size `k`, in inner
/// iterations of eq. 4: each removal from `s` members evaluates `L̂(M \ {q})` for all `s`
/// candidates `q`, each a pass over the `n` points and the `s − 1` remaining members, so
/// `n · Σ_{s=k+1}^{n} s(s − 1)` (≈ n⁴/3).
pub fn rg_units(n: usize, k: usize) -> f64 {
    (k + 1..=n).map(|s| (n * s * (s - 1)) as f64).sum()
}

/// Reverse Greedy (Alg. 1 as written, `reverse_greedy_plain`), timed.
fn reverse_greedy_timed(
    dists: &DistanceMatrix,
    weights: &[f64],
    costs: &[f64],
    mismatch: Mismatch,
    k: usize,
    incumbent: &[usize],
) -> Vec<usize> {
    let t0 = Instant::now();
    let inst = Instance::new(dists, weights, costs, mismatch).expect("finite instance");
    let cache = reverse_greedy_plain(&inst, k, incumbent).cache;
    RG_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    RG_UNITS.with(|c| c.set(c.get() + rg_units(dists.len(), k)));
    cache
}

/// The KRR posterior at each of `points` and `γ = ½ log det(I + K/λ)`, solved from scratch on the
/// observations `(obs, y)` (Alg. 4 lines 4–10 and 11): `ĉ(u) = κ_uᵀ(K + λI)⁻¹y`,
/// `σ²(u) = κ(u,u) − κ_uᵀ(K + λI)⁻¹κ_u` clamped into `[0, κ(u,u)]` (SPEC §11.3). With no
/// observations every posterior is the prior `(0, 1)` and `γ = 0`.
fn krr_from_scratch(
    metric: &Metric,
    len: f64,
    lambda: f64,
    obs: &[Vec<f32>],
    y: &[f64],
    points: &[&[f32]],
) -> (Vec<Post>, f64) {
    let n = obs.len();
    if n == 0 {
        return (vec![Post { mean: 0.0, var: 1.0 }; points.len()], 0.0);
    }
    let t0 = Instant::now();
    // Alg. 4 line 5: the Gram matrix K_{t−1}.
    let k = gram(metric, len, obs);
    // Right-hand sides: y, then κ_u for every point asked about (Alg. 4 line 7).
    let m = points.len();
    let mut rhs = DMatrix::<f64>::zeros(n, m + 1);
    for i in 0..n {
        rhs[(i, 0)] = y[i];
        for (c, u) in points.iter().enumerate() {
            rhs[(i, c + 1)] = kernel(metric, len, &obs[i], u);
        }
    }
    // Alg. 4 lines 9–10: one dense factorisation of K + λI, solved for y and every κ_u.
    let a = &k + DMatrix::<f64>::identity(n, n) * lambda;
    let sol = a.cholesky().expect("K + λI is positive definite").solve(&rhs);
    let posts = points
        .iter()
        .enumerate()
        .map(|(c, u)| {
            let k_self = kernel(metric, len, u, u);
            let (mut mean, mut quad) = (0.0, 0.0);
            for i in 0..n {
                mean += rhs[(i, c + 1)] * sol[(i, 0)];
                quad += rhs[(i, c + 1)] * sol[(i, c + 1)];
            }
            Post { mean, var: (k_self - quad).max(0.0).min(k_self) }
        })
        .collect();
    KRR_MS.with(|c| c.set(c.get() + t0.elapsed().as_secs_f64() * 1e3));
    // Alg. 4 line 11: γ_t from the same K (SPEC §11.3).
    (posts, gamma_from_scratch(&k, lambda))
}

// ---------------------------------------------------------------------------------------------
// CLCB-SC-LS-Cont (Algs. 3–5) and CLCB-SC-LS.

/// The observations of a learner: KRR keeps every `(x_t, C_t)` (Alg. 5 line 8, SPEC §11.6); the
/// discrete CLCB-SC-LS keeps per-cell counts and sums (SPEC §9).
enum Learner {
    Kernel { obs: Vec<Vec<f32>>, y: Vec<f64> },
    Cells { n_c: Vec<u64>, l_c: Vec<f64> },
}

struct LowSwitch {
    params: Params,
    metric: Metric,
    mismatch: Mismatch,
    net: Net,
    /// `N_f(u)`: arrivals served in `u`'s cell (Alg. 5 line 2).
    n_f: Vec<u64>,
    /// `|T(u, τ)|` for τ = 1..=τ_u of every center: the last entry is the current stage.
    local: Vec<Vec<u64>>,
    /// `|T(f, τ)|` for τ = 1..=τ_f.
    global: Vec<u64>,
    learner: Learner,
    /// `M̂_t` as center indices, ascending.
    cache: Vec<usize>,
    /// `u_t`.
    center: usize,
}

/// The stage trigger of Alg. 3 lines 13 and 16 with `m` units: `|T(·, τ)| ≥ 1 + √((T/m)·Σ_{τ'<τ}
/// |T(·, τ')|)`, decided exactly as `|T| − 1 ≥ 0 ∧ (|T| − 1)²·m ≥ T·Σ_prev` (SPEC §11.2).
fn stage_limit(stages: &[u64], horizon: u64, m: u64) -> bool {
    let (current, previous) = stages.split_last().expect("a unit is always in some stage");
    if *current == 0 {
        return false;
    }
    let prev: u64 = previous.iter().sum();
    let a = (*current - 1) as u128;
    a * a * m as u128 >= horizon as u128 * prev as u128
}

impl LowSwitch {
    fn new(env: &PlainEnv, params: &Params, kernel: bool) -> Self {
        LowSwitch {
            params: params.clone(),
            metric: env.metric,
            mismatch: env.mismatch,
            net: Net::new(params.epsilon, env.metric),
            n_f: Vec::new(),
            local: Vec::new(),
            // Alg. 3 line 2: τ_f ← 1, T(f, τ_f) ← ∅.
            global: vec![0],
            learner: if kernel {
                Learner::Kernel { obs: Vec::new(), y: Vec::new() }
            } else {
                Learner::Cells { n_c: Vec::new(), l_c: Vec::new() }
            },
            cache: Vec::new(),
            center: 0,
        }
    }

    /// The LCBs `c̲_{t−1}(u)` at the given centers from the observations before this round.
    /// Kernel (Alg. 4 lines 3–16): `ĉ − β(B + R√(2(γ_t + ln(2/δ))))σ`, and `−B·σ = −B` (prior
    /// `σ = √κ(u,u) = 1`) before any observation. Cells (SPEC §9): `mean − √(ln(4 m_t T³)/(2N_c))`,
    /// 0 for an unobserved cell.
    fn lcbs(&self, centers: &[usize]) -> Vec<f64> {
        let p = &self.params;
        match &self.learner {
            Learner::Kernel { obs, y } => {
                if obs.is_empty() {
                    return vec![-p.b; centers.len()];
                }
                let pts: Vec<&[f32]> = centers.iter().map(|&u| self.net.centers[u].as_slice()).collect();
                let (posts, gamma) = krr_from_scratch(&self.metric, p.kernel_length, p.lambda, obs, y, &pts);
                let width = p.b + p.noise_r * (2.0 * (gamma + (2.0 / p.delta).ln())).sqrt();
                posts.iter().map(|q| q.mean - p.beta * width * q.var.sqrt()).collect()
            }
            Learner::Cells { n_c, l_c } => {
                let m = self.net.len() as f64;
                let big_t = p.horizon as f64;
                centers
                    .iter()
                    .map(|&u| {
                        if n_c[u] == 0 {
                            0.0
                        } else {
                            let n = n_c[u] as f64;
                            l_c[u] / n - ((4.0 * m * big_t * big_t * big_t).ln() / (2.0 * n)).sqrt()
                        }
                    })
                    .collect()
            }
        }
    }

    /// Alg. 4 (`Switch Cache Continuous`) in round `t` (0-based; the paper's `t − 1` rounds came
    /// before): line 2 `ŵ(u) = N_f(u)/max(1, t − 1)`; lines 3–16 the LCBs; line 17 Reverse Greedy
    /// (Alg. 1; ties keep the incumbent, SPEC §1); lines 18–19 `M̂_t = Â_t`.
    fn switch(&mut self, t: usize) {
        let denom = t.max(1) as f64;
        let weights: Vec<f64> = self.n_f.iter().map(|&n| n as f64 / denom).collect();
        let all: Vec<usize> = (0..self.net.len()).collect();
        let costs = self.lcbs(&all);
        self.cache = reverse_greedy_timed(
            &self.net.dists,
            &weights,
            &costs,
            self.mismatch,
            self.params.k,
            &self.cache,
        );
    }
}

impl PlainPolicy for LowSwitch {
    fn decide(&mut self, t: usize, a: &Arrival) -> Decision {
        // Alg. 3 line 4.
        let mut switch = false;
        // Lines 5–11.
        let (u, is_new) = self.net.assign(t, a.x);
        self.center = u;
        if is_new {
            // Line 7: N_f, N_c, L_c ← 0; line 8: τ_u ← 1, T(u, τ_u) ← ∅, Switch ← True.
            self.n_f.push(0);
            self.local.push(vec![0]);
            if let Learner::Cells { n_c, l_c } = &mut self.learner {
                n_c.push(0);
                l_c.push(0.0);
            }
            switch = true;
        }
        // Lines 12–15: every center whose local limit (with m_t = |S_t|) is reached advances.
        let m_t = self.net.len() as u64;
        let horizon = self.params.horizon as u64;
        for stages in &mut self.local {
            if stage_limit(stages, horizon, m_t) {
                stages.push(0);
                switch = true;
            }
        }
        // Lines 16–18: the global stage.
        if stage_limit(&self.global, horizon, 1) {
            self.global.push(0);
            switch = true;
        }
        // Lines 19–23.
        if switch {
            self.switch(t);
        }
        // Alg. 5 line 2: N_f(u_t) += 1, t enters T(f, τ_f).
        self.n_f[u] += 1;
        *self.global.last_mut().expect("current stage") += 1;
        // Alg. 5 lines 4–6: LLM iff c̲_{t−1}(u_t) ≤ φ(d(x_t, M̂_t)).
        let lcb = self.lcbs(&[u])[0];
        let cache: Vec<Vec<f32>> = self.cache.iter().map(|&j| self.net.centers[j].clone()).collect();
        let phi = self.mismatch.phi(dist_to(&self.metric, a.x, &cache));
        Decision { llm: lcb <= phi, acting: lcb }
    }

    fn observe(&mut self, a: &Arrival, y: f64) {
        let u = self.center;
        match &mut self.learner {
            // Alg. 5 line 8: O_t ← O_{t−1} ∪ {(x_t, C_t)} (stored at x_t, SPEC §11.6).
            Learner::Kernel { obs, y: ys } => {
                obs.push(a.x.to_vec());
                ys.push(y);
            }
            // Alg. 5 line 9: N_c(u_t) += 1, L_c(u_t) += C_t.
            Learner::Cells { n_c, l_c } => {
                n_c[u] += 1;
                l_c[u] += y;
            }
        }
        // Alg. 5 line 10: t enters T(u_t, τ_{u_t}).
        *self.local[u].last_mut().expect("current stage") += 1;
    }

    fn cache(&self) -> (Vec<u64>, Vec<Vec<f32>>) {
        let keys = self.cache.iter().map(|&j| self.net.origin[j]).collect();
        let vecs = self.cache.iter().map(|&j| self.net.centers[j].clone()).collect();
        (keys, vecs)
    }

    fn estimates(&self) -> Option<Vec<(u64, f64)>> {
        let p = &self.params;
        let est: Vec<f64> = match &self.learner {
            Learner::Kernel { obs, y } => {
                let pts: Vec<&[f32]> = self.net.centers.iter().map(Vec::as_slice).collect();
                krr_from_scratch(&self.metric, p.kernel_length, p.lambda, obs, y, &pts)
                    .0
                    .iter()
                    .map(|q| q.mean)
                    .collect()
            }
            Learner::Cells { n_c, l_c } => {
                n_c.iter().zip(l_c).map(|(&n, &s)| if n == 0 { 0.0 } else { s / n as f64 }).collect()
            }
        };
        Some(self.net.origin.iter().copied().zip(est).collect())
    }
}

// ---------------------------------------------------------------------------------------------
// CLCB-Frozen-Cont (appendix Algs. 6–8, with the interpretations of docs/SPEC-NOTES.md).

struct Frozen {
    params: Params,
    metric: Metric,
    mismatch: Mismatch,
    /// `U`: the distinct arrivals (exact vector equality), the round each first arrived (its key)
    /// and how often it arrived.
    distinct: Vec<Vec<f32>>,
    first_round: Vec<u64>,
    freq: Vec<u64>,
    /// `Ū`: the frozen pool, as indices into `U`.
    pool: Vec<usize>,
    /// `N(u)` for `u ∈ Ū` (same order as `pool`) and `N(⊥)`.
    counts: Vec<u64>,
    bottom: u64,
    /// Stage `s` and its length `n`.
    stage: u32,
    n: u64,
    /// `M_t` as indices into `U`.
    cache: Vec<usize>,
    /// `X_obs`, `Y_obs`.
    obs: Vec<Vec<f32>>,
    y: Vec<f64>,
}

impl Frozen {
    fn new(env: &PlainEnv, params: &Params) -> Self {
        Frozen {
            params: params.clone(),
            metric: env.metric,
            mismatch: env.mismatch,
            distinct: Vec::new(),
            first_round: Vec::new(),
            freq: Vec::new(),
            pool: Vec::new(),
            counts: Vec::new(),
            bottom: 0,
            stage: 1,
            n: 0,
            cache: Vec::new(),
            obs: Vec::new(),
            y: Vec::new(),
        }
    }

    /// `e_s = 2^(−2^s)` (Alg. 6 line 2): an exact power of two.
    fn tolerance(&self) -> f64 {
        0.5f64.powi(2i32.pow(self.stage))
    }

    /// `β_t = B + R√(2(γ_t + ln(1/δ_t)))` with `δ_t = δ/t²`, `t` counted from 1 (SPEC-NOTES).
    fn beta_t(&self, gamma: f64, t1: f64) -> f64 {
        let p = &self.params;
        p.b + p.noise_r * (2.0 * (gamma + (t1 * t1 / p.delta).ln())).sqrt()
    }

    /// `ĉ^LCB(x) = ĉ − β·β_t·σ` for each of `points`, `−B` before any observation (SPEC-NOTES),
    /// KRR solved from scratch.
    fn lcbs(&self, points: &[&[f32]], t1: f64) -> Vec<f64> {
        let p = &self.params;
        if self.obs.is_empty() {
            return vec![-p.b; points.len()];
        }
        let (posts, gamma) =
            krr_from_scratch(&self.metric, p.kernel_length, p.lambda, &self.obs, &self.y, points);
        let beta_t = self.beta_t(gamma, t1);
        posts.iter().map(|q| q.mean - p.beta * beta_t * q.var.sqrt()).collect()
    }

    /// `γ_t` alone, from scratch (Alg. 8 line 13).
    fn gamma(&self) -> f64 {
        let p = &self.params;
        gamma_from_scratch(&gram(&self.metric, p.kernel_length, &self.obs), p.lambda)
    }

    /// Alg. 8 (`Handle_Stage_Frozen`) in round `t1` (from 1): returns SWITCH.
    fn handle_stage(&mut self, x: &[f32], t1: f64) -> bool {
        let p = &self.params;
        // Line 1.
        self.n += 1;
        // Lines 2–6: z_t = the nearest pool member if within ρ_s = e_s/(2L_g), else ⊥.
        let e_s = self.tolerance();
        let rho = e_s / (2.0 * p.lipschitz);
        let mut best: Option<(usize, f64)> = None;
        for (slot, &j) in self.pool.iter().enumerate() {
            let d = self.metric.dist(x, &self.distinct[j]);
            if best.is_none() || d < best.expect("set").1 {
                best = Some((slot, d));
            }
        }
        // Line 7.
        match best {
            Some((slot, d)) if d <= rho => self.counts[slot] += 1,
            _ => self.bottom += 1,
        }
        // Lines 9–10: m_s = |Ū| + 1, U^(p) = C_p √((m_s ln 2 + ln(2t²/δ))/n).
        let m_s = (self.pool.len() + 1) as f64;
        let u_p = p.c_p * ((m_s * 2f64.ln() + (2.0 * t1 * t1 / p.delta).ln()) / self.n as f64).sqrt();
        // Line 13: U^(c) = β_t √(2γ_t/t), times the online scale β (SPEC §6: β multiplies every
        // online confidence width, this one included).
        let gamma = self.gamma();
        let u_c = p.beta * self.beta_t(gamma, t1) * (2.0 * gamma / t1).sqrt();
        // Lines 14–16.
        u_c <= e_s && u_p <= e_s
    }

    /// Alg. 6 lines 8–12: `Ū ← U`, weights, Reverse Greedy on the LCBs, next stage.
    fn switch(&mut self, t1: f64) {
        // Line 8, weights (SPEC-NOTES): the stage's counts against the previous pool, normalised
        // over it; all zero (the first switch) → each distinct arrival by its frequency so far.
        let total: u64 = self.counts.iter().sum();
        let old_pool = std::mem::take(&mut self.pool);
        self.pool = (0..self.distinct.len()).collect();
        let weights: Vec<f64> = if total > 0 {
            self.pool
                .iter()
                .map(|&j| match old_pool.iter().position(|&o| o == j) {
                    Some(slot) => self.counts[slot] as f64 / total as f64,
                    None => 0.0,
                })
                .collect()
        } else {
            let f: u64 = self.freq.iter().sum();
            self.pool.iter().map(|&j| self.freq[j] as f64 / f as f64).collect()
        };
        // Line 9: Cont_Reverse_Greedy(Ū, w, ĉ^LCB, k) over the pool's pairwise distances.
        let pts: Vec<&[f32]> = self.pool.iter().map(|&j| self.distinct[j].as_slice()).collect();
        let costs = self.lcbs(&pts, t1);
        let mut dists = DistanceMatrix::new();
        for i in 0..pts.len() {
            let row: Vec<f64> = (0..i).map(|j| self.metric.dist(pts[i], pts[j])).collect();
            dists.push_row(&row);
        }
        // The pool is U in order, so pool slots are indices into U.
        self.cache =
            reverse_greedy_timed(&dists, &weights, &costs, self.mismatch, self.params.k, &self.cache);
        // Lines 11–12.
        self.stage += 1;
        self.n = 0;
        self.counts = vec![0; self.pool.len()];
        self.bottom = 0;
    }
}

impl PlainPolicy for Frozen {
    fn decide(&mut self, t: usize, a: &Arrival) -> Decision {
        let t1 = (t + 1) as f64;
        // Alg. 6 line 4: U ← U ∪ {x_t}.
        match self.distinct.iter().position(|u| u.as_slice() == a.x) {
            Some(j) => self.freq[j] += 1,
            None => {
                self.distinct.push(a.x.to_vec());
                self.first_round.push(t as u64);
                self.freq.push(1);
            }
        }
        // Lines 5–6 (Alg. 8), lines 7–14.
        if self.handle_stage(a.x, t1) {
            self.switch(t1);
        }
        // Line 15, Alg. 7 lines 1–2: LLM iff ĉ^LCB_{t−1}(x_t) ≤ φ(d(x_t, M_t)).
        let lcb = self.lcbs(&[a.x], t1)[0];
        let (_, cache) = self.cache();
        let phi = self.mismatch.phi(dist_to(&self.metric, a.x, &cache));
        Decision { llm: lcb <= phi, acting: lcb }
    }

    fn observe(&mut self, a: &Arrival, y: f64) {
        // Alg. 7 lines 3–5.
        self.obs.push(a.x.to_vec());
        self.y.push(y);
    }

    fn cache(&self) -> (Vec<u64>, Vec<Vec<f32>>) {
        let keys = self.cache.iter().map(|&j| self.first_round[j]).collect();
        let vecs = self.cache.iter().map(|&j| self.distinct[j].clone()).collect();
        (keys, vecs)
    }

    fn estimates(&self) -> Option<Vec<(u64, f64)>> {
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Greedy, Epsilon-Greedy, LFU over the incremental ε-net (SPEC §9, §11.8).

#[derive(Clone, Copy, PartialEq, Eq)]
enum Score {
    Greedy,
    EpsilonGreedy,
    Lfu,
}

struct Cells {
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
    fn new(env: &PlainEnv, params: &Params, score: Score) -> Self {
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
