//! A plain implementation of the paper's online comparison, written straight from the pseudocode
//! (paper Algs. 3–8, SPEC §4, §6, §9, §11) and sharing none of the engine's fast machinery: it is
//! the differential oracle of `csc_engine::online` (`tests/plain_online.rs`) and the "plain
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
//! - Reverse Greedy (Alg. 1): `csc_engine::reverse_greedy::reverse_greedy_plain`, which evaluates
//!   `L̂(M \ {q})` (eq. 4) from scratch for every candidate `q` at every removal.
//! - `L(M)` (eq. 2 on `E`, SPEC §3): every point of `E` against every cache member, recomputed
//!   whenever the cache changes (no `LossTracker`, no ball index).
//! - Baselines (SPEC §9, §11.8): top-k by k passes of a linear arg-max (no sort helper).
//! - Evaluation oracle: `csc_engine::oracle::evaluation_oracle_plain` (SPEC §5 step by step: an
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
//! as `csc_engine::online::sim::Checkpoint` with the same regret accounting as `Simulation`.
#![allow(dead_code)]

mod baselines;
mod frozen;
mod krr;
mod low_switch;
mod net;
mod policy;

use baselines::{Cells, Score};
use frozen::Frozen;
#[allow(unused_imports)] // used by examples/plain_vs_fast.rs
pub use krr::rg_units;
use krr::{KRR_MS, RG_MS, RG_UNITS};
use low_switch::LowSwitch;
use policy::PlainPolicy;

use csc_engine::config::Params;
use csc_engine::mismatch::Mismatch;
use csc_engine::online::sim::Checkpoint;
use csc_engine::online::PolicyKind;
use csc_engine::oracle::{evaluation_oracle_plain, EvalSample};
use csc_engine::space::{Metric, Points};
use csc_engine::stream::Arrival;
use csc_engine::trace::Trace;
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
    csc_engine::experiment::paper_policies()
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
