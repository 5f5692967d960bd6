//! [`ExternalRun`]: an external policy played by the simulator, round by round, stopping at its
//! first fault.

use super::adapter::External;
use super::fault::PolicyError;
use super::interface::ExternalPolicy;
use crate::config::Checked;
use crate::error::Result;
use crate::online::sim::{Checkpoint, Environment, RunResult, Simulation, StepOutcome};
use crate::online::Context;
use crate::stream::Arrival;
use std::sync::Arc;

/// One external policy in an environment: the same [`Simulation`] the built-in policies are
/// measured by, with every round's answer validated.
pub struct ExternalRun {
    sim: Simulation,
    stopped: Option<PolicyError>,
}

impl ExternalRun {
    /// `id` names the policy in its [`RunResult`]; `record_every` as [`Simulation::new`]'s. A
    /// policy that refuses its [`Setup`](super::interface::Setup) stops in round 0.
    pub fn new(
        env: Arc<Environment>,
        policy: Box<dyn ExternalPolicy>,
        id: &str,
        params: &Checked,
        record_every: usize,
    ) -> Result<Self> {
        let ctx = Context::new(env.metric, params, env.dim)?;
        let external = External::new(policy, &ctx, env.horizon);
        let stopped = crate::online::Policy::fault(&external).cloned();
        let sim = Simulation::with_policy(
            env,
            Box::new(external),
            None,
            id.to_string(),
            params,
            record_every,
            super::super::Isolation::Shared,
        )?;
        Ok(ExternalRun { sim, stopped })
    }

    /// Plays round `rounds()` with arrival `a` (the trace's arrival of that round). After a fault
    /// every call returns that fault and plays nothing.
    pub fn try_step(&mut self, a: &Arrival) -> std::result::Result<StepOutcome, PolicyError> {
        if let Some(e) = &self.stopped {
            return Err(e.clone());
        }
        self.sim.play(a, &mut ()).inspect_err(|e| self.stopped = Some(e.clone()))
    }

    /// Why the policy stopped, if it did.
    pub fn stopped(&self) -> Option<&PolicyError> {
        self.stopped.as_ref()
    }

    /// The policy's sentence on its last decision ([`ExternalPolicy::explain`]).
    pub fn explain(&mut self) -> Option<String> {
        self.sim.policy_mut().note()
    }

    /// The rounds played (a round whose new cache was refused counts: its LLM call was made).
    pub fn rounds(&self) -> usize {
        self.sim.rounds()
    }

    pub fn environment(&self) -> &Arc<Environment> {
        self.sim.environment()
    }

    /// The simulation, read-only (its cache, loss, checkpoints).
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// The metrics now.
    pub fn snapshot(&mut self) -> Checkpoint {
        self.sim.snapshot()
    }

    /// The result so far, as every policy's ([`Simulation::result`]).
    pub fn result(&mut self) -> RunResult {
        self.sim.result()
    }
}
