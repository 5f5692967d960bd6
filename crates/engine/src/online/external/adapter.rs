//! [`External`]: an [`ExternalPolicy`] played as a [`Policy`], every answer validated
//! (docs/SPEC-NOTES.md, "External policies").

use super::fault::{Fault, PolicyError};
use super::interface::{Answer, ExternalPolicy, ExternalRound, Setup};
use crate::online::{CacheSet, Context, Inspect, Policy, Round};
use crate::space::Points;

/// An external policy as the simulator plays it: it keeps every arrival so far (any may be named
/// as a member), the policy's cache, and the first fault, after which it answers nothing more.
pub struct External {
    policy: Box<dyn ExternalPolicy>,
    ctx: Context,
    /// Every arrival so far, row `t` is `x_t`.
    seen: Points,
    cache: CacheSet,
    distances: Vec<f64>,
    fetched: Vec<u64>,
    served: Option<usize>,
    fault: Option<PolicyError>,
}

impl External {
    /// Tells `policy` the run's [`Setup`]; its refusal is a fault of round 0.
    pub fn new(mut policy: Box<dyn ExternalPolicy>, ctx: &Context, horizon: usize) -> Self {
        let setup = Setup {
            k: ctx.params.k,
            dim: ctx.dim,
            horizon,
            tau: ctx.params.resolved_threshold_tau(ctx.metric.scale),
        };
        let fault = policy.start(&setup).err().map(|m| PolicyError { round: 0, fault: Fault::Policy(m) });
        External {
            policy,
            seen: Points::new(ctx.dim.max(1)).expect("dim ≥ 1"),
            cache: CacheSet::new(ctx.dim),
            ctx: ctx.clone(),
            distances: Vec::new(),
            fetched: Vec::new(),
            served: None,
            fault,
        }
    }

    fn stop(&mut self, round: usize, fault: Fault) {
        self.fault.get_or_insert(PolicyError { round, fault });
    }

    /// The new cache `keys` named after round `t`'s LLM call, if valid: at most `k` members, each
    /// a round `≤ t`, none twice.
    fn check(&self, t: usize, keys: &[u64]) -> Result<(), Fault> {
        let k = self.ctx.params.k;
        if keys.len() > k {
            return Err(Fault::TooMany { size: keys.len(), k });
        }
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        if let Some(&key) = sorted.iter().find(|&&key| key > t as u64) {
            return Err(Fault::NotArrived { key, t });
        }
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Fault::Duplicate { key: w[0] });
        }
        Ok(())
    }
}

impl Policy for External {
    fn decide(&mut self, r: &Round) -> bool {
        self.served = None;
        self.seen.push(r.x).expect("arrivals have the run's dimension");
        if self.fault.is_some() {
            return true;
        }
        self.distances.clear();
        self.distances.extend(self.cache.points().iter().map(|m| self.ctx.metric.dist(r.x, m)));
        let seen = ExternalRound { t: r.t, x: r.x, members: self.cache.keys(), distances: &self.distances };
        match self.policy.decide(&seen) {
            Ok(Answer::CallLlm) => true,
            Ok(Answer::Serve(i)) if i < self.cache.len() => {
                self.served = Some(i);
                false
            }
            Ok(Answer::Serve(member)) => {
                self.stop(r.t, Fault::NoSuchMember { member, size: self.cache.len() });
                true
            }
            Err(m) => {
                self.stop(r.t, Fault::Policy(m));
                true
            }
        }
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        if self.fault.is_some() {
            return;
        }
        let keys = match self.policy.observe(r.t, cost) {
            Ok(Some(keys)) => keys,
            Ok(None) => return,
            Err(m) => return self.stop(r.t, Fault::Policy(m)),
        };
        if let Err(f) = self.check(r.t, &keys) {
            return self.stop(r.t, f);
        }
        let members: Vec<(u64, &[f32])> = keys.iter().map(|&k| (k, self.seen.row(k as usize))).collect();
        let inserted = self.cache.replace_in_order(&members);
        // The response of round t's own arrival was just paid for by its LLM call: storing it
        // fetches nothing (as the threshold cache's admission); any other new member is fetched.
        self.fetched.extend(inserted.into_iter().filter(|&k| k != r.t as u64));
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.fetched)
    }

    fn served(&self) -> Option<usize> {
        self.served
    }

    fn fault(&self) -> Option<&PolicyError> {
        self.fault.as_ref()
    }
}

impl Inspect for External {
    fn note(&mut self) -> Option<String> {
        if self.fault.is_some() {
            return None;
        }
        self.policy.explain()
    }
}
