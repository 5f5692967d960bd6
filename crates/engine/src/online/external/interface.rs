//! The interface of an external policy (docs/SPEC-NOTES.md, "External policies"): what it is
//! told ([`Setup`], [`ExternalRound`]), what it answers ([`Answer`]), and the trait
//! ([`ExternalPolicy`]).

use serde::Serialize;

/// What an external policy is told once, before round 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Setup {
    /// The cache size `k`: the most members a cache may hold.
    pub k: usize,
    /// The arrivals' dimension.
    pub dim: usize,
    /// The horizon `T`: rounds `0 … T−1` will be played.
    pub horizon: usize,
    /// The built-in threshold cache's hit radius `τ` on this run's distance scale
    /// ([`Params::resolved_threshold_tau`](crate::config::Params::resolved_threshold_tau)), for
    /// a policy that wants the same one.
    pub tau: f64,
}

/// What an external policy sees of round `t`: the arrival and its current cache.
#[derive(Clone, Copy, Debug)]
pub struct ExternalRound<'a> {
    /// The round, from 0.
    pub t: usize,
    /// The arrival's vector `x_t`.
    pub x: &'a [f32],
    /// Its cache's members, in the order it named them: the round of each member's arrival.
    pub members: &'a [u64],
    /// `d(x_t, m_i)` for each member, on the run's distance scale (SPEC §3), in that order.
    pub distances: &'a [f64],
}

/// An external policy's answer for a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Serve the arrival from member `i` of its cache (an index into [`ExternalRound::members`]).
    Serve(usize),
    /// Call the LLM.
    CallLlm,
}

/// A caching policy written outside the engine. Every answer is validated by [`External`]; an
/// `Err` is the policy's own failure ([`Fault::Policy`]). Either stops the policy.
pub trait ExternalPolicy {
    /// Told once, before round 0.
    fn start(&mut self, _setup: &Setup) -> Result<(), String> {
        Ok(())
    }
    /// Round `r.t`: serve from a member or call the LLM.
    fn decide(&mut self, r: &ExternalRound) -> Result<Answer, String>;
    /// The LLM was called in round `t` and answered at observed cost `cost` (`C_t = c(x_t) + η_t`).
    /// `Some(keys)`: the cache from round `t + 1` on, as the rounds of its members' arrivals (each
    /// ≤ `t`, at most `k`, no repeats); `None` keeps the cache as it is.
    fn observe(&mut self, t: usize, cost: f64) -> Result<Option<Vec<u64>>, String>;
    /// A short sentence on the last decision (the live view's "why this round"); `None`: nothing.
    fn explain(&mut self) -> Option<String> {
        None
    }
}
