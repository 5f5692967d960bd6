//! The environment of one seed (SPEC §9): the evaluation sample `E`, the oracle cache `M_orc`
//! and its loss, the ground truth and tenants of the trace's rounds, and the ε-net its policies
//! share.

use crate::answers::Label;
use crate::config::Checked;
use crate::epsilon_net::SharedNet;
use crate::error::{Error, Result};
use crate::oracle::{evaluation_oracle, EvalSample, NearMemo, Oracle};
use crate::space::Metric;
use crate::trace::Trace;
use std::sync::Arc;

/// The environment of one seed: `E`, `M_orc` and its loss, the horizon, and the ε-net its
/// policies share (a clone shares it too: it depends only on the trace's arrivals).
#[derive(Clone, Debug)]
pub struct Environment {
    pub eval: EvalSample,
    pub oracle: Oracle,
    pub horizon: usize,
    pub dim: usize,
    pub metric: Metric,
    pub(super) net: Arc<SharedNet>,
    /// Cache members' neighbours in `E`, shared by the loss trackers of the policies that
    /// cache ε-net centers.
    pub(super) near: Arc<NearMemo>,
    /// The ground truth of every round's arrival (SPEC §14), when the trace has it: what a
    /// cached item keyed by its founding round `k` is labelled with. A policy that learns from
    /// labels ([`crate::algorithms::PolicyKind::needs_labels`], vCache) is refused without them.
    pub labels: Option<Arc<Vec<Label>>>,
    /// The tenant of every round's arrival, when the trace has tenants (docs/SPEC-NOTES.md,
    /// "Tenants"), and how many tenants there are.
    pub tenants: Option<Arc<Vec<u32>>>,
    pub n_tenants: usize,
}

impl Environment {
    /// From a trace: `E` from the trace, `M_orc` over its online arrivals (SPEC §5, §11.7).
    pub fn from_trace(trace: &Trace, params: &Checked) -> Result<Self> {
        trace.validate()?;
        if trace.horizon() == 0 {
            return Err(Error::data("the trace has no online arrivals"));
        }
        let eval = EvalSample::from_trace(trace, params.mismatch())?;
        let observed = (0..trace.horizon()).map(|t| (trace.x(t), trace.cost[t]));
        let oracle = evaluation_oracle(observed, trace.dim(), &eval, params.eps_oracle, params.k)?;
        Ok(Environment {
            metric: eval.metric,
            eval,
            oracle,
            horizon: trace.horizon(),
            dim: trace.dim(),
            net: Arc::new(SharedNet::new(trace.horizon())),
            near: Arc::new(NearMemo::new()),
            labels: (0..trace.horizon())
                .map(|t| trace.label(t).cloned())
                .collect::<Option<Vec<_>>>()
                .map(Arc::new),
            n_tenants: trace.tenants.as_ref().and_then(|v| v.iter().max()).map_or(1, |m| *m as usize + 1),
            tenants: trace.tenants.clone().map(Arc::new),
        })
    }

    /// The number of tenants when it is known beyond the ones the trace met (the `tenants`
    /// model's N): at least the trace's.
    pub fn with_tenant_count(mut self, n: usize) -> Self {
        self.n_tenants = self.n_tenants.max(n);
        self
    }

    /// The ε-net shared by the policies that run on this environment's trace ([`super::Simulation::step`]).
    pub fn shared_net(&self) -> &SharedNet {
        &self.net
    }

    /// The oracle cache as `(key, vector)` pairs for [`crate::algorithms::PolicyKind::Oracle`].
    pub fn oracle_members(&self) -> Vec<(u64, Vec<f32>)> {
        self.oracle.keys.iter().zip(self.oracle.cache.iter()).map(|(&k, v)| (k, v.to_vec())).collect()
    }
}
