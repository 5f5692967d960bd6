//! The online simulator (SPEC §9): owns the environment — true costs, noise, the evaluation
//! sample and `L(M_orc)` — and measures a policy round by round.
//!
//! Per round t: `Reg(t) = Σ_{s≤t} [L(M_s) − L(M_orc)] + Σ switching costs` with `L(M_s)` the
//! loss of the cache that serves `x_s`, recomputed only when the cache changes; a switching cost
//! (Σ `c(u)` over newly fetched members) counts in its round (SPEC §11.5, §11.9); realised cost
//! counts `c(x)` for LLM calls and `φ` for hits.
//!
//! **Switches** have one meaning for every policy, counted here and nowhere else: round t is a
//! switch iff the set of members of the cache serving `x_t` differs from the set that served
//! `x_{t−1}` (before round 1: the empty set). Any difference counts once per round — an insertion
//! into a cache that is not yet full (including the first fill), a replacement, or a removal — and
//! a round whose policy rebuilt its cache to the same set (a stage that ends without changing the
//! cache) does not (docs/SPEC-NOTES.md). The cache's version is only a hint that the set may have
//! changed; the sets themselves are compared.

use super::{make_policy, Context, InspectablePolicy, PolicyKind, Round};
use crate::answers::{equivalent, Label};
use crate::clock::Instant;
use crate::config::Checked;
use crate::epsilon_net::NetStep;
use crate::error::{Error, Result};
use crate::oracle::LossTracker;
use crate::stream::Arrival;
use crate::trace::Trace;
use std::sync::Arc;

mod environment;
mod outcome;

pub use environment::Environment;
pub use outcome::{sized_label, sized_label_note, Checkpoint, RunResult, StepOutcome};

/// What watches a round without changing it ([`Simulation::step_observed`]): the page's
/// explanations ([`super::explain::Explanation`]). Both hooks default to nothing; `()` is the
/// observer of a plain [`Simulation::step`].
pub trait RoundObserver {
    /// Before the policy decides: the cache `M_{t−1}` the arrival `a` meets.
    fn before_decision(&mut self, _sim: &Simulation, _a: &Arrival) {}
    /// After the policy decided and switched, before it observes any LLM answer: the cache `M_t`
    /// that serves `a` and what the decision compared.
    fn after_decision(&mut self, _sim: &Simulation, _a: &Arrival) {}
}

impl RoundObserver for () {}

/// One policy running in an environment.
pub struct Simulation {
    env: Arc<Environment>,
    policy: Box<dyn InspectablePolicy>,
    /// The built-in policy it plays; `None` for an external one ([`super::external`]).
    kind: Option<PolicyKind>,
    /// The policy's id in results ([`RunResult::policy`]).
    id: String,
    cost_by_round: Vec<f64>,
    tracker: LossTracker,
    version: u64,
    /// The sorted member keys of the cache that served the previous round.
    members: Vec<u64>,
    loss: f64,
    record_every: usize,
    state: Checkpoint,
    hits: u64,
    elapsed: f64,
    checkpoints: Vec<Checkpoint>,
    /// Whether the policy's ε-net follows the environment's shared one: it keeps a net and every
    /// arrival so far was the trace's ([`step_foreign`](Self::step_foreign) ends it).
    shared: bool,
    eps: f64,
    /// A new center's distances to the centers before it, from the shared net.
    net_row: Vec<f64>,
    /// SPEC §14 counters: hits whose correctness could be judged, and the wrong ones.
    judged_hits: u64,
    wrong_hits: u64,
    /// Labels of rounds played with an arrival that was not the trace's (an asked question):
    /// a cached item founded in such a round holds that arrival's answer, not the trace's.
    foreign_labels: std::collections::HashMap<u64, Option<Label>>,
    /// The theory view's per-round record: the shared net's assignments only.
    theory: super::theory::TheoryProbe,
    k: usize,
    lipschitz: f64,
    /// How tenants share the cache, the tenant of every round so far, and what each tenant's
    /// rounds did (with tenants only).
    isolation: super::Isolation,
    founders: Vec<u32>,
    per_tenant: Option<Vec<super::TenantCounts>>,
}

impl Simulation {
    /// `record_every`: rounds between checkpoints (0 = about 200 over the horizon).
    pub fn new(
        env: Arc<Environment>,
        kind: PolicyKind,
        params: &Checked,
        record_every: usize,
    ) -> Result<Self> {
        Self::isolated(env, kind, params, record_every, super::Isolation::Shared)
    }

    /// [`Simulation::new`] under an isolation setting ([`super::tenancy`]); `shared` is `new`.
    /// `partitioned` and `tagged` need a trace with tenants.
    pub fn isolated(
        env: Arc<Environment>,
        kind: PolicyKind,
        params: &Checked,
        record_every: usize,
        isolation: super::Isolation,
    ) -> Result<Self> {
        if isolation.own_only() && env.tenants.is_none() {
            return Err(Error::param(
                "isolation",
                format!(
                    "`{}` isolation needs a stream with tenants (the `tenants` arrival model)",
                    isolation.id()
                ),
            ));
        }
        if kind.needs_labels() && env.labels.is_none() {
            return Err(Error::unsupported(format!(
                "{} needs ground truth labels (SPEC §14) and this run's data has none; run it on \
                 data with labels (nq-trivia, synthetic, or a file with `answers` or `label` on \
                 every record)",
                kind.label()
            )));
        }
        let ctx = Context::new(env.metric, params, env.dim)?;
        let policy: Box<dyn InspectablePolicy> = match (isolation, &env.tenants) {
            (super::Isolation::Partitioned, Some(t)) => Box::new(super::tenancy::Partitioned::new(
                &|c, oracle| make_policy(kind, c, oracle),
                &ctx,
                &env.oracle_members(),
                t,
                env.n_tenants,
            )?),
            _ => make_policy(kind, &ctx, &env.oracle_members())?,
        };
        Self::with_policy(env, policy, Some(kind), kind.id(), params, record_every, isolation)
    }

    /// A simulation of `policy`: a built-in one of `kind`, or an external one (`kind` `None`,
    /// which keeps no ε-net of the run's, and plays `shared`). `id` names it in results.
    pub(crate) fn with_policy(
        env: Arc<Environment>,
        policy: Box<dyn InspectablePolicy>,
        kind: Option<PolicyKind>,
        id: String,
        params: &Checked,
        record_every: usize,
        isolation: super::Isolation,
    ) -> Result<Self> {
        let keeps_net = kind.is_some_and(|k| k.keeps_net());
        // Policies that cache ε-net centers share members' neighbours in `E` (bounded by the
        // net); the others' keys may be new every round (Threshold admits every miss).
        let mut tracker = if keeps_net { LossTracker::shared(env.near.clone()) } else { LossTracker::new() };
        let empty = crate::space::Points::new(env.dim)?;
        let loss = tracker.loss(&env.eval, &[], &empty);
        let record_every = if record_every == 0 { env.horizon.div_ceil(200).max(1) } else { record_every };
        Ok(Simulation {
            policy,
            kind,
            id,
            cost_by_round: Vec::with_capacity(env.horizon),
            tracker,
            version: u64::MAX,
            members: Vec::new(),
            loss,
            record_every,
            state: Checkpoint::default(),
            hits: 0,
            elapsed: 0.0,
            checkpoints: Vec::new(),
            shared: keeps_net && isolation != super::Isolation::Partitioned,
            eps: params.epsilon,
            net_row: Vec::new(),
            judged_hits: 0,
            wrong_hits: 0,
            foreign_labels: std::collections::HashMap::new(),
            theory: super::theory::TheoryProbe::new(keeps_net),
            k: params.k,
            lipschitz: params.lipschitz,
            isolation,
            founders: Vec::new(),
            per_tenant: env.tenants.as_ref().map(|_| vec![super::TenantCounts::default(); env.n_tenants]),
            env,
        })
    }

    /// Plays one round. `a` must be the arrival of round `t` of the trace the environment was
    /// built from (as in every run; the policies that keep an ε-net take its assignment from the
    /// environment's shared net, and their timer is charged the time that scan took). For any
    /// other arrival use [`step_foreign`](Self::step_foreign).
    pub fn step(&mut self, a: &Arrival) -> StepOutcome {
        self.step_observed(a, &mut ())
    }

    /// [`step`](Self::step) with an observer of the round (the page's explanations,
    /// [`super::explain`]): it sees the simulation just before the policy decides and just after,
    /// and changes nothing. `step` itself is this with the observer `()`, which compiles away.
    ///
    /// Only an external policy can fault, and it is played by
    /// [`ExternalRun::try_step`](super::external::ExternalRun::try_step): a simulation made by
    /// [`new`](Self::new) plays a built-in policy, which never does.
    pub fn step_observed<O: RoundObserver>(&mut self, a: &Arrival, observer: &mut O) -> StepOutcome {
        self.play(a, observer).expect("a built-in policy never faults")
    }

    /// One round ([`step_observed`](Self::step_observed)). A fault in the policy's decision: the
    /// round is not played. A fault in its new cache after an LLM call: the round is played and
    /// charged as answered, the cache is not changed. Either way the error names the round and the
    /// policy is not asked again (docs/SPEC-NOTES.md, "External policies").
    pub(crate) fn play<O: RoundObserver>(
        &mut self,
        a: &Arrival,
        observer: &mut O,
    ) -> std::result::Result<StepOutcome, super::external::PolicyError> {
        let t = self.state.t;
        self.cost_by_round.push(a.cost);
        let assignment = if self.shared {
            let got = self.env.net.assign(self.eps, self.env.metric, t, a.x, a.index, &mut self.net_row);
            self.shared = got.is_some();
            got.map(|(assignment, scan_ms)| {
                self.elapsed += scan_ms;
                assignment
            })
        } else {
            None
        };
        self.theory.observe(assignment.as_ref());
        let net = assignment.map(|assignment| NetStep { assignment, row: &self.net_row });
        let tenant = a.tenant.unwrap_or(0);
        if self.per_tenant.is_some() {
            self.founders.push(tenant);
        }
        let tenancy = self.per_tenant.is_some().then(|| super::Tenancy {
            tenant,
            founders: &self.founders,
            own_only: self.isolation.own_only(),
        });
        let round = Round { t, x: a.x, index: a.index, true_cost: a.cost, net, label: a.label, tenancy };
        observer.before_decision(self, a);
        let t0 = Instant::now();
        let llm = self.policy.decide(&round);
        self.elapsed += t0.elapsed().as_secs_f64() * 1e3;
        if let Some(e) = self.policy.fault() {
            let e = e.clone();
            self.cost_by_round.pop();
            return Err(e);
        }
        let fetched = self.policy.take_fetched();
        let switch_cost: f64 = fetched.iter().map(|&k| self.cost_by_round[k as usize]).sum();
        let cache = self.policy.cache();
        let mut switched = false;
        if cache.version() != self.version {
            self.version = cache.version();
            let mut members = cache.keys().to_vec();
            members.sort_unstable();
            if members != self.members {
                self.members = members;
                self.loss = self.tracker.loss(&self.env.eval, cache.keys(), cache.points());
                self.state.switches += 1;
                switched = true;
            }
        }
        self.state.cache_size = cache.len();
        let phi = self.env.eval.mismatch.phi(cache.serving_dist(&self.env.metric, &round));
        let realised = match (llm, self.policy.served()) {
            (true, _) => a.cost,
            (false, None) => phi,
            (false, Some(i)) => self.env.eval.mismatch.phi(self.env.metric.dist(a.x, cache.points().row(i))),
        };
        observer.after_decision(self, a);
        let mut late = None;
        let wrong = if llm {
            self.state.llm_calls += 1;
            let t0 = Instant::now();
            self.policy.observe(&round, a.cost + a.eta);
            self.elapsed += t0.elapsed().as_secs_f64() * 1e3;
            late = self.policy.fault().cloned();
            None
        } else {
            self.hits += 1;
            let wrong = judge_hit(
                &self.env,
                self.policy.cache(),
                self.policy.served(),
                &self.foreign_labels,
                a,
                &round,
            );
            if let Some(w) = wrong {
                self.judged_hits += 1;
                self.wrong_hits += u64::from(w);
            }
            wrong
        };
        if let Some(per) = &mut self.per_tenant {
            let c = &mut per[tenant as usize];
            c.requests += 1;
            c.realised_cost += realised;
            if !llm {
                c.hits += 1;
                let cache = self.policy.cache();
                if let Some((j, _)) = cache.serving_nearest(&self.env.metric, &round) {
                    if self.founders.get(cache.keys()[j] as usize).is_some_and(|&f| f != tenant) {
                        c.cross_hits += 1;
                    }
                }
                if let Some(w) = wrong {
                    c.judged_hits += 1;
                    c.wrong_hits += u64::from(w);
                }
            }
        }
        let s = &mut self.state;
        s.t = t + 1;
        s.realised_cost += realised;
        s.switch_cost += switch_cost;
        s.loss_gap += self.loss - self.env.oracle.loss;
        s.regret += self.loss - self.env.oracle.loss + switch_cost;
        if s.t.is_multiple_of(self.record_every) || s.t == self.env.horizon {
            let cp = self.snapshot();
            self.checkpoints.push(cp);
            self.theory.close_window();
        }
        match late {
            Some(e) => Err(e),
            None => Ok(StepOutcome { t, llm, switched, phi, realised, wrong }),
        }
    }

    /// Plays one round whose arrival is not the trace's (the live view's asked question): from
    /// now on the policy scans its own ε-net, which holds every arrival it has seen.
    pub fn step_foreign(&mut self, a: &Arrival) -> StepOutcome {
        self.step_foreign_observed(a, &mut ())
    }

    /// [`step_foreign`](Self::step_foreign) with an observer ([`step_observed`](Self::step_observed)).
    pub fn step_foreign_observed<O: RoundObserver>(&mut self, a: &Arrival, observer: &mut O) -> StepOutcome {
        self.shared = false;
        self.foreign_labels.insert(self.state.t as u64, a.label.cloned());
        self.step_observed(a, observer)
    }

    /// The metrics now (computes the estimation errors).
    pub fn snapshot(&mut self) -> Checkpoint {
        let mut c = self.state.clone();
        let n = c.t.max(1) as f64;
        c.avg_regret = c.regret / n;
        c.avg_loss_gap = c.loss_gap / n;
        c.avg_switch_cost = c.switch_cost / n;
        c.avg_realised_cost = c.realised_cost / n;
        c.hit_rate = self.hits as f64 / n;
        c.loss = self.loss;
        c.wall_ms = self.elapsed;
        c.theory = Some(self.theory.point(
            c.t,
            self.policy.theory(),
            self.policy.net_counts(),
            self.k,
            self.lipschitz,
        ));
        if self.env.labels.is_some() {
            c.wrong_hits = Some(self.wrong_hits);
            c.error_rate = Some(self.wrong_hits as f64 / n);
            c.hit_precision = (self.judged_hits > 0)
                .then(|| (self.judged_hits - self.wrong_hits) as f64 / self.judged_hits as f64);
        }
        if let Some(est) = self.policy.estimates() {
            if !est.is_empty() {
                let errs: Vec<f64> =
                    est.iter().map(|&(k, e)| (e - self.cost_by_round[k as usize]).abs()).collect();
                let m = errs.len() as f64;
                c.est_rmse = Some((errs.iter().map(|e| e * e).sum::<f64>() / m).sqrt());
                c.est_mae = Some(errs.iter().sum::<f64>() / m);
                c.est_max = Some(errs.iter().fold(0.0, |a: f64, &b| a.max(b)));
            }
        }
        c
    }

    /// The gold answer of the entry keyed by round `key`: the label of the arrival that founded it
    /// (an asked or attacking arrival's own), `None` without ground truth.
    pub fn entry_label(&self, key: u64) -> Option<&Label> {
        match self.foreign_labels.get(&key) {
            Some(l) => l.as_ref(),
            None => self.env.labels.as_ref()?.get(key as usize),
        }
    }

    /// The policy, with its page-inspection hooks ([`super::Inspect`]).
    pub fn policy(&self) -> &dyn InspectablePolicy {
        self.policy.as_ref()
    }
    pub fn policy_mut(&mut self) -> &mut dyn InspectablePolicy {
        self.policy.as_mut()
    }
    /// The built-in policy it plays (`None`: an external one).
    pub fn kind(&self) -> Option<PolicyKind> {
        self.kind
    }
    pub fn rounds(&self) -> usize {
        self.state.t
    }
    pub fn environment(&self) -> &Arc<Environment> {
        &self.env
    }
    pub fn current_loss(&self) -> f64 {
        self.loss
    }
    /// The checkpoints recorded so far (every `record_every` rounds and at the horizon).
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    /// The result so far.
    pub fn result(&mut self) -> RunResult {
        let last = self.snapshot();
        RunResult {
            policy: self.id.clone(),
            oracle_loss: self.env.oracle.loss,
            checkpoints: self.checkpoints.clone(),
            last,
            diagnostics: self.policy.diagnostics().to_json(),
            counters: self.policy.diagnostics(),
            tenants: self.per_tenant.clone(),
        }
    }
}

/// SPEC §14, online: a hit is wrong when the nearest cached item that may serve the round (ties to
/// the lowest index; [`super::CacheSet::serving_nearest`]) holds the answer of an arrival whose
/// label is not equivalent to this one's. The item's label is that of the arrival it was founded
/// by or admitted from: its key is that arrival's round (`Oracle::keys`, the ε-net centers'
/// origins, the threshold cache's admissions). A hit is judged only when both labels are known:
/// `Some(wrong)`, else `None`.
fn judge_hit(
    env: &Environment,
    cache: &super::CacheSet,
    served: Option<usize>,
    foreign_labels: &std::collections::HashMap<u64, Option<Label>>,
    a: &Arrival,
    round: &Round,
) -> Option<bool> {
    let (Some(labels), Some(mine)) = (&env.labels, a.label) else { return None };
    let j = match served {
        Some(i) => i,
        None => cache.serving_nearest(&env.metric, round)?.0,
    };
    let key = cache.keys()[j];
    let theirs = match foreign_labels.get(&key) {
        Some(l) => l.as_ref(),
        None => labels.get(key as usize),
    };
    Some(!equivalent(mine, theirs?))
}

/// Runs `kinds` over a whole trace (each policy sees identical arrivals, noise and `E`).
pub fn run_trace(trace: &Trace, params: &Checked, kinds: &[PolicyKind]) -> Result<Vec<RunResult>> {
    let env = Arc::new(Environment::from_trace(trace, params)?);
    kinds
        .iter()
        .map(|&k| {
            let mut sim = Simulation::new(env.clone(), k, params, 0)?;
            for t in 0..trace.horizon() {
                sim.step(&trace.arrival(t));
            }
            Ok(sim.result())
        })
        .collect()
}
