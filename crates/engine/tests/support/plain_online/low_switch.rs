//! CLCB-SC-LS-Cont (Algs. 3–5) and CLCB-SC-LS, plain.

use super::krr::{krr_from_scratch, reverse_greedy_timed};
use super::net::Net;
use super::policy::{dist_to, Decision, PlainPolicy};
use super::PlainEnv;
use csc_engine::config::Params;
use csc_engine::mismatch::Mismatch;
use csc_engine::space::Metric;
use csc_engine::stream::Arrival;

/// The observations of a learner: KRR keeps every `(x_t, C_t)` (Alg. 5 line 8, SPEC §11.6); the
/// discrete CLCB-SC-LS keeps per-cell counts and sums (SPEC §9).
pub(super) enum Learner {
    Kernel { obs: Vec<Vec<f32>>, y: Vec<f64> },
    Cells { n_c: Vec<u64>, l_c: Vec<f64> },
}

pub(super) struct LowSwitch {
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
pub(super) fn stage_limit(stages: &[u64], horizon: u64, m: u64) -> bool {
    let (current, previous) = stages.split_last().expect("a unit is always in some stage");
    if *current == 0 {
        return false;
    }
    let prev: u64 = previous.iter().sum();
    let a = (*current - 1) as u128;
    a * a * m as u128 >= horizon as u128 * prev as u128
}

impl LowSwitch {
    pub(super) fn new(env: &PlainEnv, params: &Params, kernel: bool) -> Self {
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
