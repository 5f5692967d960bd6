//! CLCB-Frozen-Cont (paper appendix, Algs. 6–8: `CLCB-Frozen-Cont`, `Handle_Stage_Frozen`,
//! `Execute_Frozen_Action`).
//!
//! Stages with doubly-exponentially shrinking tolerances `e_s = 2^(−2^s)`: within a stage the
//! arrivals are counted against a *frozen* pool `Ū` (nearest member within `ρ_s = e_s/(2L_g)`, else
//! `⊥`); the cache is rebuilt (the pool refreshed to all distinct arrivals `U`) only when both the
//! cost uncertainty `U^c = β·β_t √(2γ_t/t)` (the online scale β multiplies every online confidence
//! width, SPEC §6) and the frequency uncertainty
//! `U^p = C_p √((m_s ln 2 + ln(2t²/δ))/n)` are `≤ e_s`. Serving: LLM iff `ĉ^LCB(x_t) ≤ φ(d(x_t, M))`.
//!
//! Interpretations (docs/SPEC-NOTES.md): `β_t = B + R√(2(γ_t + ln(1/δ_t)))` with `δ_t = δ/t²`, the
//! LCB is `ĉ − β·β_t·σ` (the online scale β as for CLCB-SC-LS-Cont) and `−B` before any
//! observation; at a switch the pool weights `ŵ_t(u)/Σ ŵ_t` come from the counts against the
//! previous pool — when they are all zero (the first switch) each distinct arrival is weighted
//! by its frequency so far.

use super::diagnostics::{Diagnostics, FrozenDiagnostics};
use super::{CacheSet, Context, Inspect, Policy, Round};
use crate::error::Result;
use crate::krr::merged::{OnlineKrr, OnlineSolved};
use crate::krr::{Posterior, RbfKernel};
use crate::reverse_greedy::{reverse_greedy, Instance};
use crate::space::{bit_key, DistanceMatrix, Points};
use std::collections::HashMap;

pub struct Frozen {
    ctx: Context,
    krr: OnlineKrr,
    /// Distinct arrivals `U` (vectors), their first round and their frequency.
    distinct: Points,
    /// For each distinct arrival that is a universe row (and so may repeat), its tracked point in
    /// `krr`: before the first exact repeat the posterior at a repeat only catches up on the
    /// observations since its last visit; once repeats are merged (`krr::merged`) an observed
    /// point's posterior is O(1). Other arrivals are solved afresh each time — tracking them
    /// would keep a projection per round of a jittered stream for nothing.
    tracked: Vec<Option<usize>>,
    first_round: Vec<u64>,
    freq: Vec<u64>,
    by_index: HashMap<u32, usize>,
    by_bits: HashMap<Vec<u32>, usize>,
    /// Pairwise distances among `U[..dists.len()]` for Reverse Greedy over the pool, extended
    /// to the pool when it is refreshed (only the pool's distances are ever needed).
    dists: DistanceMatrix,
    /// The frozen pool `Ū` = `U[..pool]`, with counts `N(u)` and `N(⊥)`.
    pool: usize,
    counts: Vec<u64>,
    bottom: u64,
    /// Stage `s`, its length `n`.
    stage: u32,
    n: u64,
    cache: CacheSet,
    cache_members: Vec<usize>,
    fetched: Vec<u64>,
    /// `x_t`'s index in `U` this round.
    current: usize,
    /// The solve behind this round's LCB at an untracked `x_t`, reused if the LLM is called.
    pending: Option<(usize, OnlineSolved)>,
    /// `ĉ^LCB(x_t)` of the last decision ([`Inspect::acting_cost`]).
    acted: f64,
    /// Whether the last decision ended stage `s` (Alg. 6 lines 7–12; [`Inspect::acts`]).
    stage_ended: bool,
}

impl Frozen {
    pub fn new(ctx: &Context) -> Result<Self> {
        let p = &ctx.params;
        Ok(Frozen {
            krr: OnlineKrr::new(RbfKernel::new(p.kernel_length)?, ctx.metric, p.lambda, ctx.dim)?,
            distinct: Points::new(ctx.dim)?,
            first_round: Vec::new(),
            freq: Vec::new(),
            by_index: HashMap::new(),
            by_bits: HashMap::new(),
            dists: DistanceMatrix::new(),
            pool: 0,
            counts: Vec::new(),
            bottom: 0,
            stage: 1,
            n: 0,
            cache: CacheSet::new(ctx.dim),
            cache_members: Vec::new(),
            fetched: Vec::new(),
            current: 0,
            pending: None,
            acted: f64::NAN,
            stage_ended: false,
            tracked: Vec::new(),
            ctx: ctx.clone(),
        })
    }

    /// `e_s = 2^(−2^s)`.
    fn tolerance(&self) -> f64 {
        crate::portable::exp2(-crate::portable::exp2(self.stage as f64))
    }

    /// `β_t = B + R√(2(γ_t + ln(1/δ_t)))`, `δ_t = δ/t²` (t from 1).
    fn beta_t(&self, t1: f64) -> f64 {
        let p = &self.ctx.params;
        p.b + p.noise_r * (2.0 * (self.krr.gamma() + crate::portable::ln(t1 * t1 / p.delta))).sqrt()
    }

    fn lcb(&self, post: &Posterior, t1: f64) -> f64 {
        if self.krr.n_obs() == 0 {
            return -self.ctx.params.b;
        }
        post.mean - self.ctx.params.beta * self.beta_t(t1) * post.sd()
    }

    /// `U ← U ∪ {x_t}` (Alg. 6 line 4); returns `x_t`'s index in `U`.
    fn remember(&mut self, r: &Round) -> usize {
        let known = match r.index {
            Some(i) => self.by_index.get(&i).copied(),
            None => self.by_bits.get(&bit_key(r.x)).copied(),
        };
        if let Some(j) = known {
            self.freq[j] += 1;
            return j;
        }
        let j = self.distinct.push(r.x).expect("validated arrival");
        self.tracked.push(r.index.map(|_| self.krr.track(r.x)));
        self.first_round.push(r.t as u64);
        self.freq.push(1);
        match r.index {
            Some(i) => self.by_index.insert(i, j),
            None => self.by_bits.insert(bit_key(r.x), j),
        };
        j
    }

    /// Alg. 8 (`Handle_Stage_Frozen`): counts against the pool; returns SWITCH.
    fn handle_stage(&mut self, r: &Round) -> bool {
        let p = &self.ctx.params;
        let t1 = (r.t + 1) as f64;
        self.n += 1;
        let e_s = self.tolerance();
        let rho = e_s / (2.0 * p.lipschitz);
        let mut best: Option<(usize, f64)> = None;
        for j in 0..self.pool {
            let d = self.ctx.metric.dist(r.x, self.distinct.row(j));
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        match best {
            Some((j, d)) if d <= rho => self.counts[j] += 1,
            _ => self.bottom += 1,
        }
        let m_s = (self.pool + 1) as f64;
        let u_p = p.c_p
            * ((m_s * std::f64::consts::LN_2 + crate::portable::ln(2.0 * t1 * t1 / p.delta)) / self.n as f64)
                .sqrt();
        // Line 13, scaled by β like the LCB (SPEC §6).
        let u_c = p.beta * self.beta_t(t1) * (2.0 * self.krr.gamma() / t1).sqrt();
        u_c <= e_s && u_p <= e_s
    }

    /// Alg. 6 lines 8–13: refresh the pool, Reverse Greedy on LCBs, next stage.
    fn switch(&mut self, t1: f64) {
        let pool_old = self.pool;
        let total: u64 = self.counts.iter().sum();
        self.pool = self.distinct.len();
        for i in self.dists.len()..self.pool {
            let x = self.distinct.row(i);
            let row: Vec<f64> = (0..i).map(|j| self.ctx.metric.dist(x, self.distinct.row(j))).collect();
            self.dists.push_row(&row);
        }
        let weights: Vec<f64> = if total > 0 {
            (0..self.pool)
                .map(|j| if j < pool_old { self.counts[j] as f64 / total as f64 } else { 0.0 })
                .collect()
        } else {
            let f: u64 = self.freq.iter().sum();
            self.freq.iter().map(|&c| c as f64 / f as f64).collect()
        };
        let costs: Vec<f64> = (0..self.pool)
            .map(|j| {
                let post = match self.tracked[j] {
                    Some(id) => self.krr.posterior_tracked(id),
                    None => self.krr.posterior_at(self.distinct.row(j)),
                };
                self.lcb(&post, t1)
            })
            .collect();
        let inst =
            Instance::new(&self.dists, &weights, &costs, self.ctx.mismatch).expect("finite weights and LCBs");
        let out = reverse_greedy(&inst, self.ctx.params.k, &self.cache_members);
        let members: Vec<(u64, &[f32])> =
            out.cache.iter().map(|&j| (self.first_round[j], self.distinct.row(j))).collect();
        let inserted = self.cache.replace(&members);
        self.fetched.extend(inserted);
        self.cache_members = out.cache;
        self.stage += 1;
        self.n = 0;
        self.counts = vec![0; self.pool];
        self.bottom = 0;
    }
}

impl Policy for Frozen {
    fn decide(&mut self, r: &Round) -> bool {
        let t1 = (r.t + 1) as f64;
        self.current = self.remember(r);
        self.stage_ended = self.handle_stage(r);
        if self.stage_ended {
            self.switch(t1);
        }
        // Alg. 7: LLM iff ĉ^LCB_{t−1}(x_t) ≤ φ(d(x_t, M_t)).
        let post = match self.tracked[self.current] {
            Some(id) => self.krr.posterior_tracked(id),
            None => {
                let (post, solved) = self.krr.posterior_and_solve(r.x);
                self.pending = Some((r.t, solved));
                post
            }
        };
        self.acted = self.lcb(&post, t1);
        self.acted <= self.ctx.mismatch.phi(self.cache.serving_dist(&self.ctx.metric, r))
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        // The solve behind this round's LCB is the factor's new row (same bits).
        let done = match (self.tracked[self.current], self.pending.take()) {
            (Some(id), _) => self.krr.add_observation_at_tracked(id, r.x, cost),
            (None, Some((t, solved))) if t == r.t => self.krr.add_observation_solved(r.x, cost, solved),
            _ => self.krr.add_observation(r.x, cost),
        };
        done.expect("validated observation");
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.fetched)
    }

    /// `γ_t` of its KRR; its `β_t` is appendix Alg. 7's own (`δ_t = δ/t²`), not the concentration
    /// lemma's, so it is left out.
    fn theory(&self) -> super::theory::LearnerTheory {
        super::theory::LearnerTheory { gamma: Some(self.krr.gamma()), ..Default::default() }
    }

    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::Frozen(FrozenDiagnostics {
            distinct_arrivals: self.distinct.len(),
            pool: self.pool,
            observations: self.krr.n_obs(),
            stage: self.stage,
        })
    }
}

impl Inspect for Frozen {
    fn acting_cost(&self) -> Option<f64> {
        Some(self.acted)
    }
    fn acts(&self) -> super::Acts {
        super::Acts { global_advance: self.stage_ended, rebuilt: self.stage_ended, ..super::Acts::default() }
    }

    fn posterior_at(&self, x: &[f32]) -> Option<Posterior> {
        Some(self.krr.posterior_at(x))
    }
}
