//! CLCB-SC-LS-Cont (Algs. 3–5) and its discrete predecessor CLCB-SC-LS: one mechanism, two
//! cost learners. Both grow the ε-net online (Alg. 3 lines 5–11), advance stages with the shared
//! [`StageClock`] (lines 12–18), rebuild the cache by Reverse Greedy on optimistic costs at a
//! switch (Alg. 4) and serve by comparing the LCB at the arrival's center with `φ` (Alg. 5).

use super::diagnostics::{Diagnostics, LowSwitchDiagnostics};
use super::{CacheSet, Context, Inspect, Policy, Round};
use crate::epsilon_net::EpsilonNet;
use crate::error::Result;
use crate::krr::merged::OnlineKrr;
use crate::krr::nystrom::NystromKrr;
use crate::krr::{optimistic_cost, Posterior, RbfKernel};
use crate::reverse_greedy::{reverse_greedy, Instance};
use crate::stages::StageClock;

/// A cost model over the ε-net centers that yields lower confidence bounds.
pub trait CostLearner {
    /// A new center `x` was created (its index is the next one).
    fn add_center(&mut self, x: &[f32]);
    /// The LCBs at every center from the observations before this round (Alg. 4 lines 3–16).
    fn lcb_all(&mut self) -> Vec<f64>;
    /// The LCB at one center (Alg. 5 line 4).
    fn lcb_at(&mut self, center: usize) -> f64;
    /// The LLM was called on `x` (in cell `center`) and cost `y` was observed (Alg. 5 lines 8–9).
    fn observe(&mut self, center: usize, x: &[f32], y: f64);
    /// Point estimates at every center (for the KRR-error metric).
    fn estimates(&mut self) -> Vec<f64>;
    /// The standard deviation of each center's estimate (NaN where the learner has none).
    fn sds(&mut self) -> Vec<f64>;
    fn n_obs(&self) -> usize;
    /// The posterior at any point, for learners with a kernel model.
    fn posterior_at(&self, _x: &[f32]) -> Option<crate::krr::Posterior> {
        None
    }
    /// `(γ_t, β_t)` for learners with a kernel model ([`super::theory`]).
    fn gamma_beta(&self) -> Option<(f64, f64)> {
        None
    }
}

/// A kernel model of the cost over the ε-net centers: the exact KRR of the paper
/// ([`OnlineKrr`]) or the named approximation over the centers ([`NystromKrr`]).
pub trait KernelModel {
    fn track(&mut self, x: &[f32]) -> usize;
    fn gamma(&self) -> f64;
    fn posterior_tracked(&mut self, id: usize) -> Posterior;
    fn posterior_tracked_all(&mut self) -> Vec<Posterior>;
    fn posterior_at(&self, x: &[f32]) -> Posterior;
    /// The observation `(x, y)` of Alg. 5 line 8, `x` in cell `center`.
    fn observe(&mut self, center: usize, x: &[f32], y: f64) -> Result<()>;
    fn n_obs(&self) -> usize;
}

impl KernelModel for OnlineKrr {
    fn track(&mut self, x: &[f32]) -> usize {
        OnlineKrr::track(self, x)
    }
    fn gamma(&self) -> f64 {
        OnlineKrr::gamma(self)
    }
    fn posterior_tracked(&mut self, id: usize) -> Posterior {
        OnlineKrr::posterior_tracked(self, id)
    }
    fn posterior_tracked_all(&mut self) -> Vec<Posterior> {
        OnlineKrr::posterior_tracked_all(self)
    }
    fn posterior_at(&self, x: &[f32]) -> Posterior {
        OnlineKrr::posterior_at(self, x)
    }
    /// When `x` is its center (the arrival that founded the cell, or an exact repeat of it), the
    /// center's projection from line 4's LCB is the new row of the factor: same bits, half the work.
    fn observe(&mut self, center: usize, x: &[f32], y: f64) -> Result<()> {
        self.add_observation_at_tracked(center, x, y)
    }
    fn n_obs(&self) -> usize {
        OnlineKrr::n_obs(self)
    }
}

impl KernelModel for NystromKrr {
    fn track(&mut self, x: &[f32]) -> usize {
        NystromKrr::track(self, x)
    }
    fn gamma(&self) -> f64 {
        NystromKrr::gamma(self)
    }
    fn posterior_tracked(&mut self, id: usize) -> Posterior {
        NystromKrr::posterior_tracked(self, id)
    }
    fn posterior_tracked_all(&mut self) -> Vec<Posterior> {
        NystromKrr::posterior_tracked_all(self)
    }
    fn posterior_at(&self, x: &[f32]) -> Posterior {
        NystromKrr::posterior_at(self, x)
    }
    fn observe(&mut self, _center: usize, x: &[f32], y: f64) -> Result<()> {
        self.add_observation(x, y)
    }
    fn n_obs(&self) -> usize {
        NystromKrr::n_obs(self)
    }
}

/// A kernel model's bounds (Alg. 4): `c̲ = ĉ − β(B + R√(2(γ + ln(2/δ))))σ`, `−B` before any
/// observation. With [`OnlineKrr`] (the default) this is the paper's learner.
pub struct KernelCosts<M: KernelModel = OnlineKrr> {
    krr: M,
    b: f64,
    r: f64,
    delta: f64,
    beta: f64,
}

impl KernelCosts<OnlineKrr> {
    pub fn new(ctx: &Context) -> Result<Self> {
        let p = &ctx.params;
        let krr = OnlineKrr::new(RbfKernel::new(p.kernel_length)?, ctx.metric, p.lambda, ctx.dim)?;
        Ok(KernelCosts::with_model(ctx, krr))
    }
}

impl KernelCosts<NystromKrr> {
    /// The bounds of Alg. 4 on the Nyström model over the centers (not the paper's learner).
    pub fn nystrom(ctx: &Context) -> Result<Self> {
        let p = &ctx.params;
        let krr = NystromKrr::new(RbfKernel::new(p.kernel_length)?, ctx.metric, p.lambda, ctx.dim)?;
        Ok(KernelCosts::with_model(ctx, krr))
    }
}

impl<M: KernelModel> KernelCosts<M> {
    fn with_model(ctx: &Context, krr: M) -> Self {
        let p = &ctx.params;
        KernelCosts { krr, b: p.b, r: p.noise_r, delta: p.delta, beta: p.beta }
    }
    fn lcb(&self, post: &crate::krr::Posterior, gamma: f64) -> f64 {
        optimistic_cost(post, self.krr.n_obs(), gamma, self.b, self.r, self.delta, self.beta)
    }
}

impl<M: KernelModel> CostLearner for KernelCosts<M> {
    fn add_center(&mut self, x: &[f32]) {
        self.krr.track(x);
    }
    fn lcb_all(&mut self) -> Vec<f64> {
        let gamma = self.krr.gamma();
        let posts = self.krr.posterior_tracked_all();
        posts.iter().map(|p| self.lcb(p, gamma)).collect()
    }
    fn lcb_at(&mut self, center: usize) -> f64 {
        let gamma = self.krr.gamma();
        let post = self.krr.posterior_tracked(center);
        self.lcb(&post, gamma)
    }
    fn observe(&mut self, center: usize, x: &[f32], y: f64) {
        // Alg. 5 line 8: the observation is stored at x_t itself (SPEC §11.6). Inputs are
        // validated upstream (finite vectors of the net's dimension, finite costs).
        self.krr.observe(center, x, y).expect("validated observation");
    }
    fn estimates(&mut self) -> Vec<f64> {
        self.krr.posterior_tracked_all().iter().map(|p| p.mean).collect()
    }
    fn sds(&mut self) -> Vec<f64> {
        self.krr.posterior_tracked_all().iter().map(|p| p.sd()).collect()
    }
    fn n_obs(&self) -> usize {
        self.krr.n_obs()
    }
    fn posterior_at(&self, x: &[f32]) -> Option<crate::krr::Posterior> {
        Some(self.krr.posterior_at(x))
    }
    /// `γ_t` from the learner's own model (`Krr::gamma`, or the merged form's
    /// `½(log det A − m ln λ + Σ ln n_i)`, the same `½ log det(I + K_t/λ)` over every observation
    /// row, repeats included: `krr/merged.rs`; the Nyström model's own `γ`, `krr/nystrom.rs`), and
    /// `β_t = B + R√(2(γ_t + ln(2/δ)))` (§5.2, the concentration lemma), without the scale `β`.
    fn gamma_beta(&self) -> Option<(f64, f64)> {
        let g = self.krr.gamma();
        Some((g, crate::krr::online_width_factor(g, self.b, self.r, self.delta)))
    }
}

/// Per-cell empirical means (the discrete CLCB-SC-LS, SPEC §9):
/// LCB = `mean − √(ln(4·m·T³)/(2N_c))`, unobserved cells at 0.
pub struct CellMeans {
    n: Vec<u64>,
    sum: Vec<f64>,
    horizon: f64,
    total: usize,
}

impl CellMeans {
    pub fn new(horizon: usize) -> Self {
        CellMeans { n: Vec::new(), sum: Vec::new(), horizon: horizon as f64, total: 0 }
    }
    fn lcb_with(&self, i: usize, m: f64) -> f64 {
        if self.n[i] == 0 {
            return 0.0;
        }
        let n = self.n[i] as f64;
        let t = self.horizon;
        self.sum[i] / n - (crate::portable::ln(4.0 * m * t * t * t) / (2.0 * n)).sqrt()
    }
}

impl CostLearner for CellMeans {
    fn add_center(&mut self, _x: &[f32]) {
        self.n.push(0);
        self.sum.push(0.0);
    }
    fn lcb_all(&mut self) -> Vec<f64> {
        let m = self.n.len() as f64;
        (0..self.n.len()).map(|i| self.lcb_with(i, m)).collect()
    }
    fn lcb_at(&mut self, center: usize) -> f64 {
        self.lcb_with(center, self.n.len() as f64)
    }
    fn sds(&mut self) -> Vec<f64> {
        vec![f64::NAN; self.n.len()]
    }
    fn observe(&mut self, center: usize, _x: &[f32], y: f64) {
        self.n[center] += 1;
        self.sum[center] += y;
        self.total += 1;
    }
    fn estimates(&mut self) -> Vec<f64> {
        (0..self.n.len()).map(|i| if self.n[i] == 0 { 0.0 } else { self.sum[i] / self.n[i] as f64 }).collect()
    }
    fn n_obs(&self) -> usize {
        self.total
    }
}

/// The low-switching learner of Alg. 3 over any [`CostLearner`].
pub struct LowSwitch<C: CostLearner> {
    ctx: Context,
    net: EpsilonNet,
    stages: StageClock,
    learner: C,
    cache: CacheSet,
    /// The cache as center indices (the incumbent for Reverse Greedy's tie rule).
    cache_centers: Vec<usize>,
    fetched: Vec<u64>,
    /// `u_t` of the current round.
    center: usize,
    /// `c̲(u_t)` of the last decision ([`Inspect::acting_cost`]).
    acted: f64,
    /// What the last decision did before serving ([`Inspect::acts`]).
    acts: super::Acts,
}

impl LowSwitch<KernelCosts> {
    /// CLCB-SC-LS-Cont.
    pub fn kernel(ctx: &Context) -> Result<Self> {
        LowSwitch::with_learner(ctx, KernelCosts::new(ctx)?)
    }
}

impl LowSwitch<KernelCosts<NystromKrr>> {
    /// CLCB-SC-LS-Cont with the Nyström learner over the centers (a named approximation).
    pub fn nystrom(ctx: &Context) -> Result<Self> {
        LowSwitch::with_learner(ctx, KernelCosts::nystrom(ctx)?)
    }
}

impl LowSwitch<CellMeans> {
    /// CLCB-SC-LS (discrete predecessor).
    pub fn discrete(ctx: &Context) -> Result<Self> {
        LowSwitch::with_learner(ctx, CellMeans::new(ctx.params.horizon))
    }
}

impl<C: CostLearner> LowSwitch<C> {
    pub fn with_learner(ctx: &Context, learner: C) -> Result<Self> {
        Ok(LowSwitch {
            net: EpsilonNet::new(ctx.dim, ctx.params.epsilon, ctx.metric)?,
            stages: StageClock::new(ctx.params.horizon),
            learner,
            cache: CacheSet::new(ctx.dim),
            cache_centers: Vec::new(),
            fetched: Vec::new(),
            center: 0,
            acted: f64::NAN,
            acts: super::Acts::default(),
            ctx: ctx.clone(),
        })
    }

    /// Alg. 4 (`Switch Cache Continuous`): weights `ŵ(u) = N_f(u)/max(1, t−1)` from arrivals
    /// before this round (SPEC §11.4), LCB costs, Reverse Greedy keeping incumbents on ties.
    fn switch(&mut self, t: usize) {
        let counts = self.net.counts();
        let denom = t.max(1) as f64; // rounds before this one: the paper's t − 1
        let weights: Vec<f64> = counts
            .iter()
            .enumerate()
            .map(|(u, &n)| (n - u64::from(u == self.center)) as f64 / denom)
            .collect();
        let costs = self.learner.lcb_all();
        let inst = Instance::new(self.net.center_distances(), &weights, &costs, self.ctx.mismatch)
            .expect("weights and LCBs are finite")
            .with_separation(self.net.eps());
        let out = reverse_greedy(&inst, self.ctx.params.k, &self.cache_centers);
        let origin = self.net.origin();
        let members: Vec<(u64, &[f32])> =
            out.cache.iter().map(|&u| (origin[u] as u64, self.net.centers().row(u))).collect();
        let inserted = self.cache.replace(&members);
        self.fetched.extend(inserted);
        self.cache_centers = out.cache;
    }
}

impl<C: CostLearner> Policy for LowSwitch<C> {
    fn net_counts(&self) -> Option<&[u64]> {
        Some(self.net.counts())
    }

    fn decide(&mut self, r: &Round) -> bool {
        // Alg. 3 lines 5–11: grow the ε-net; a new center forces a switch.
        let a = super::net_insert(&mut self.net, r);
        self.center = a.center;
        let mut switch = false;
        if a.is_new {
            self.stages.add_center();
            self.learner.add_center(r.x);
            switch = true;
        }
        // Lines 12–18: stage limits, checked before serving (SPEC §11.2).
        if self.stages.check() {
            switch = true;
        }
        let (local_advances, global_advance) = self.stages.last;
        self.acts = super::Acts { new_center: a.is_new, local_advances, global_advance, rebuilt: switch };
        if switch {
            self.switch(r.t);
        }
        // Alg. 5 line 2: every round enters the global stage.
        self.stages.record_round();
        // Alg. 5 lines 4–6: call the LLM iff c̲(u_t) ≤ φ(d(x_t, M_t)).
        let lcb = self.learner.lcb_at(self.center);
        self.acted = lcb;
        lcb <= self.ctx.mismatch.phi(self.cache.serving_dist(&self.ctx.metric, r))
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        // Alg. 5 lines 7–10.
        self.learner.observe(self.center, r.x, cost);
        self.stages.record_llm_call(self.center);
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.fetched)
    }

    fn estimates(&mut self) -> Option<Vec<(u64, f64)>> {
        let est = self.learner.estimates();
        Some(self.net.origin().iter().zip(est).map(|(&o, e)| (o as u64, e)).collect())
    }

    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::LowSwitch(LowSwitchDiagnostics {
            centers: self.net.len(),
            observations: self.learner.n_obs(),
            stage_advances: self.stages.advances,
            global_stage: self.stages.global().index,
        })
    }

    fn theory(&self) -> super::theory::LearnerTheory {
        let gb = self.learner.gamma_beta();
        super::theory::LearnerTheory {
            gamma: gb.map(|(g, _)| g),
            beta_t: gb.map(|(_, b)| b),
            sum_tau: Some(self.stages.sum_tau()),
            tau_f: Some(self.stages.global().index),
        }
    }
}

impl<C: CostLearner> Inspect for LowSwitch<C> {
    fn acting_cost(&self) -> Option<f64> {
        Some(self.acted)
    }
    fn acts(&self) -> super::Acts {
        self.acts
    }

    fn centers(&self) -> Option<&[usize]> {
        Some(self.net.origin())
    }
    fn center_details(&mut self) -> Option<Vec<super::CenterInfo>> {
        let est = self.learner.estimates();
        let sds = self.learner.sds();
        let acting = self.learner.lcb_all();
        Some(super::inspect::center_details(
            &self.net,
            &self.cache_centers,
            &est,
            &sds,
            &acting,
            self.ctx.mismatch,
        ))
    }
    fn current_center(&self) -> Option<usize> {
        (!self.net.is_empty()).then_some(self.center)
    }
    fn posterior_at(&self, x: &[f32]) -> Option<crate::krr::Posterior> {
        self.learner.posterior_at(x)
    }
}
