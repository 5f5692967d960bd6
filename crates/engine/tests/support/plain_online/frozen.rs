//! CLCB-Frozen-Cont (appendix Algs. 6–8, with the interpretations of docs/SPEC-NOTES.md), plain.

use super::krr::{gamma_from_scratch, gram, krr_from_scratch, reverse_greedy_timed};
use super::policy::{dist_to, Decision, PlainPolicy};
use super::PlainEnv;
use csc_engine::config::Params;
use csc_engine::mismatch::Mismatch;
use csc_engine::space::{DistanceMatrix, Metric};
use csc_engine::stream::Arrival;

pub(super) struct Frozen {
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
    pub(super) fn new(env: &PlainEnv, params: &Params) -> Self {
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
