//! vCache, the verified-threshold semantic cache (SPEC §15; Schroeder et al., "vCache: Verified
//! Semantic Prompt Caching", arXiv 2502.03771, Alg. 1): each cached item learns its own
//! similarity threshold from judged explores, and a round exploits only when the estimated
//! probability of a wrong hit keeps the error rate within `δ` (`vcache_delta`).
//!
//! Round t (arrival `x`, SPEC §15 steps 1–5):
//! 1. empty cache: call the LLM and admit `x`;
//! 2. else `u` = the nearest item (ties to the lowest index), `s` its similarity
//!    ([`fit::similarity`]); too few observations or only one label: explore;
//! 3. fit `P(correct | s) = σ(γ(s − t̂))` to `u`'s observations ([`fit::fit`]); no fit: explore;
//! 4. `τ` = [`fit::exploration_probability`]; draw `v ~ U(0, 1)` from the policy's own seeded
//!    stream (`Purpose::Policy`, as Epsilon-Greedy): explore iff `v ≤ τ`, else exploit (serve `u`);
//! 5. explore: call the LLM, judge `y` = `u`'s label equivalent to `x`'s (SPEC §14), append
//!    `(s, y)` to `u`'s observations; if `y = 0` admit `x`, evicting when `k` are held by the rule
//!    `eviction` names ([`super::eviction`]): the least recently used item (the default), or
//!    GDSF's lowest `L + frequency·cost` (Cherkasova, HPL-98-69, 1998), with the cost observed by
//!    the admitting round. An exploit or a judged explore is a use of `u`.
//!
//! Admission stores the response this round's LLM call just paid for: no switching cost, though
//! it is a cache change (SPEC §9, as the threshold cache). Each item keeps the label of the
//! arrival it was admitted with (SPEC §14).
//!
//! Without ground truth vCache cannot learn: the simulator refuses it on data without labels. An
//! arrival without a label (a question asked on the page) is served by steps 1–4, but on explore
//! nothing is judged or admitted — there is nothing to judge it by (docs/SPEC-NOTES.md).

pub mod fit;

use super::diagnostics::{Diagnostics, VCacheDiagnostics};
use super::eviction::{Evictor, Slot};
use super::{CacheSet, Context, Inspect, Policy, Round};
use crate::answers::{equivalent, Label};
use crate::stream::{rng, Purpose};
use fit::Observation;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One cached item.
#[derive(Clone, Debug)]
struct Item {
    /// The round whose arrival (and LLM response) it is.
    key: u64,
    x: Vec<f32>,
    label: Label,
    /// `(s_j, y_j)` of its judged explores, in order.
    obs: Vec<Observation>,
    /// Its eviction bookkeeping: the last round it was admitted, exploited or judged, its uses,
    /// its admission's observed cost and GDSF priority.
    slot: Slot,
}

/// What `decide` chose, for `observe`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// Step 1: the cache is empty; admit the arrival.
    Admit,
    /// Step 5: explore against item `j` at similarity `s`.
    Judge { j: usize, s: f64 },
    /// Step 4: exploit (no LLM call).
    Exploit,
}

pub struct VCache {
    ctx: Context,
    items: Vec<Item>,
    cache: CacheSet,
    evictor: Evictor,
    rng: ChaCha8Rng,
    plan: Plan,
    rounds: u64,
    explored: u64,
    /// Rounds that computed `τ` (step 4) and the sum of `τ` clipped to [0, 1] over them.
    tau_rounds: u64,
    tau_sum: f64,
    /// The `τ` of the current round (step 4), if computed.
    tau: Option<f64>,
}

impl VCache {
    pub fn new(ctx: &Context) -> Self {
        VCache {
            ctx: ctx.clone(),
            items: Vec::new(),
            cache: CacheSet::new(ctx.dim),
            evictor: Evictor::new(ctx.params.eviction),
            rng: rng(ctx.params.seed, Purpose::Policy),
            plan: Plan::Exploit,
            rounds: 0,
            explored: 0,
            tau_rounds: 0,
            tau_sum: 0.0,
            tau: None,
        }
    }

    fn sync(&mut self) {
        let m: Vec<(u64, &[f32])> = self.items.iter().map(|i| (i.key, i.x.as_slice())).collect();
        self.cache.replace(&m);
    }

    /// Admits round `r`'s arrival (whose LLM call cost `cost`), first evicting when `k` are held
    /// (SPEC §15, step 5): the least recently used item (ties: the oldest entry), or GDSF's lowest
    /// priority (ties: the oldest entry).
    fn admit(&mut self, r: &Round, label: &Label, cost: f64) {
        if self.items.len() >= self.ctx.params.k {
            let slots: Vec<Slot> = self.items.iter().map(|i| i.slot).collect();
            let victim = self.evictor.victim(&slots);
            self.items.remove(victim);
        }
        self.items.push(Item {
            key: r.t as u64,
            x: r.x.to_vec(),
            label: label.clone(),
            obs: Vec::new(),
            slot: self.evictor.admitted(r.t, cost),
        });
        self.sync();
    }

    /// Steps 2–4: the plan for an arrival whose nearest item is `j` at similarity `s`.
    fn plan_for(&mut self, j: usize, s: f64) -> Plan {
        let Ok(model) = fit::fit(&self.items[j].obs) else {
            return Plan::Judge { j, s };
        };
        let tau = fit::exploration_probability(s, &model, self.ctx.params.vcache_delta);
        self.tau = Some(tau);
        self.tau_rounds += 1;
        self.tau_sum += tau.clamp(0.0, 1.0);
        let v: f64 = self.rng.random();
        if v <= tau {
            Plan::Judge { j, s }
        } else {
            Plan::Exploit
        }
    }

    /// The items' observations, by key (for tests and inspection).
    pub fn observations(&self) -> Vec<(u64, Vec<Observation>)> {
        self.items.iter().map(|i| (i.key, i.obs.clone())).collect()
    }

    /// The `τ` computed in the last round, if it reached step 4.
    pub fn last_tau(&self) -> Option<f64> {
        self.tau
    }
}

impl Policy for VCache {
    fn decide(&mut self, r: &Round) -> bool {
        self.rounds += 1;
        self.tau = None;
        let near = self.cache.serving_nearest(&self.ctx.metric, r);
        self.plan = match near {
            None => Plan::Admit,
            Some((j, d)) => {
                let s = fit::similarity(self.ctx.metric.scale, d);
                self.plan_for(j, s)
            }
        };
        if let Plan::Exploit = self.plan {
            let Some((j, _)) = near else { unreachable!("exploit needs an item") };
            self.evictor.used(&mut self.items[j].slot, r.t);
            false
        } else {
            self.explored += 1;
            true
        }
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        let Some(label) = r.label else { return };
        match self.plan {
            Plan::Admit => self.admit(r, label, cost),
            Plan::Judge { j, s } => {
                let correct = equivalent(&self.items[j].label, label);
                let item = &mut self.items[j];
                item.obs.push(Observation { s, correct });
                self.evictor.used(&mut item.slot, r.t);
                if !correct {
                    self.admit(r, label, cost);
                }
            }
            Plan::Exploit => {}
        }
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        Vec::new()
    }

    fn diagnostics(&self) -> Diagnostics {
        let n = self.rounds.max(1) as f64;
        Diagnostics::VCache(VCacheDiagnostics {
            items: self.items.len(),
            observations: self.items.iter().map(|i| i.obs.len()).sum(),
            explore_share: self.explored as f64 / n,
            tau_mean: if self.tau_rounds == 0 { f64::NAN } else { self.tau_sum / self.tau_rounds as f64 },
            tau_rounds: self.tau_rounds,
        })
    }
}

impl Inspect for VCache {}

#[cfg(test)]
#[path = "vcache/tests.rs"]
mod tests;
