//! Inspection of a policy for the page (the live view's hover and heatmap): what a policy
//! believes at its ε-net centers and the cost surface of its kernel model. Not part of the
//! paper's algorithms — the [`Policy`](super::Policy) trait does not carry it; the simulator
//! hands it to the live run (`crate::live`) and the bindings, its only users.

use super::Mismatch;
use crate::epsilon_net::EpsilonNet;
use serde::Serialize;

/// Page-inspection hooks of a policy; every hook defaults to "nothing to show".
pub trait Inspect {
    /// The ε-net centers as keys (for drawing), if the policy keeps a net.
    fn centers(&self) -> Option<&[usize]> {
        None
    }
    /// What the policy believes at each of its ε-net centers; `None` for policies without a net.
    fn center_details(&mut self) -> Option<Vec<CenterInfo>> {
        None
    }
    /// The ε-net center of the current round's arrival, if the policy keeps a net.
    fn current_center(&self) -> Option<usize> {
        None
    }
    /// The policy's KRR posterior of the cost at any point (for drawing the cost surface);
    /// `None` for policies without a kernel model.
    fn posterior_at(&self, _x: &[f32]) -> Option<crate::krr::Posterior> {
        None
    }
    /// The cost estimate the last `decide` compared with `φ(d(x_t, M_t))` (it called the LLM
    /// iff this ≤ φ): `c̲` at the round's center for CLCB-SC-LS-Cont (Alg. 5 lines 4–6),
    /// `ĉ^LCB(x_t)` for CLCB-Frozen-Cont (Alg. 7), the center's acting mean for the count-based
    /// baselines (SPEC §11.8); `None` for policies that decide otherwise (the threshold cache,
    /// the oracle). Read between `decide` and `observe` (the page's "Ask a question" explains a
    /// decision with it, through `Simulation::step_explained`).
    fn acting_cost(&self) -> Option<f64> {
        None
    }
    /// What the last `decide` did before serving, as the policy recorded it while it stepped
    /// ([`Acts`]; nothing for policies without a net or stages).
    fn acts(&self) -> Acts {
        Acts::default()
    }
    /// The policy's own sentence on its last decision (an external policy's `explain`, read
    /// between `decide` and `observe`); `None` for the built-in policies, whose decisions the
    /// live view words from [`Acts`] and the acting cost.
    fn note(&mut self) -> Option<String> {
        None
    }
}

/// What a policy's `decide` did before serving a round, recorded by the policy as it steps (the
/// live view's "why this round" words them; no state is diffed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acts {
    /// Alg. 3 lines 5–11: the arrival was farther than ε from every center and founded one (it
    /// forces a switch).
    pub new_center: bool,
    /// Alg. 3 lines 12–15: local stages (one per center) that reached their limit and advanced.
    pub local_advances: u64,
    /// Alg. 3 lines 16–18: the global stage advanced (CLCB-Frozen-Cont: its stage `s` ended,
    /// Alg. 6 lines 7–12).
    pub global_advance: bool,
    /// Whether the round ran the policy's switch (Alg. 3 line 19 → Alg. 4; CLCB-Frozen-Cont's
    /// rebuild, Alg. 6 lines 8–13), whatever cache it chose.
    pub rebuilt: bool,
}

/// A policy the simulator can also inspect (every policy [`super::make_policy`] builds).
pub trait InspectablePolicy: super::Policy + Inspect {}
impl<T: super::Policy + Inspect> InspectablePolicy for T {}

/// One ε-net center as a policy sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CenterInfo {
    /// The round whose arrival created the center.
    pub key: u64,
    /// Arrivals assigned to it so far (`N_f`).
    pub count: u64,
    /// `ŵ = N_f / t`.
    pub weight: f64,
    /// The point estimate of its cost (KRR mean or empirical mean).
    pub estimate: f64,
    /// The posterior standard deviation of that estimate (KRR learners; NaN otherwise).
    pub sd: f64,
    /// The cost the policy acts on (the LCB for the CLCB family, the mean for the baselines).
    pub acting_cost: f64,
    pub cached: bool,
    /// For a cached center, how much `L̂` under the acting costs would rise without it — why it
    /// is kept (0 for centers not cached).
    pub contribution: f64,
}

/// [`CenterInfo`] for every center of `net` given the cache (as center indices) and costs.
pub(crate) fn center_details(
    net: &EpsilonNet,
    cache: &[usize],
    estimates: &[f64],
    sds: &[f64],
    acting: &[f64],
    mismatch: Mismatch,
) -> Vec<CenterInfo> {
    let t = net.inserted().max(1) as f64;
    let weights: Vec<f64> = net.counts().iter().map(|&n| n as f64 / t).collect();
    let inst = crate::reverse_greedy::Instance::new(net.center_distances(), &weights, acting, mismatch).ok();
    let base = inst.as_ref().map_or(0.0, |i| i.loss(cache));
    (0..net.len())
        .map(|u| {
            let cached = cache.contains(&u);
            let contribution = match (&inst, cached) {
                (Some(i), true) => {
                    let rest: Vec<usize> = cache.iter().copied().filter(|&c| c != u).collect();
                    i.loss(&rest) - base
                }
                _ => 0.0,
            };
            CenterInfo {
                key: net.origin()[u] as u64,
                count: net.counts()[u],
                weight: weights[u],
                estimate: estimates[u],
                sd: sds[u],
                acting_cost: acting[u],
                cached,
                contribution,
            }
        })
        .collect()
}
