//! The online setting (SPEC §9, paper §5): one policy interface used by every online algorithm,
//! and the simulator that owns the environment.
//!
//! A round: a query arrives → the policy sees it and may switch its cache → it decides cache or
//! LLM → a (noisy) cost is revealed only for LLM calls. The simulator ([`sim`]) holds the true
//! costs, the noise and the evaluation sample; a learning policy never sees true costs.

pub mod baselines;
pub mod diagnostics;
pub mod eviction;
pub mod explain;
pub mod external;
pub mod frozen;
pub mod inspect;
pub mod low_switch;
mod policy;
pub mod sim;
pub mod tenancy;
pub mod theory;
pub mod threshold;
pub mod vcache;

pub use crate::algorithms::PolicyKind;
use crate::error::Result;
use crate::mismatch::Mismatch;
pub use diagnostics::Diagnostics;
pub use inspect::{Acts, CenterInfo, Inspect, InspectablePolicy};
use policy::net_insert;
pub use policy::{CacheSet, Context, Policy, Round, Tenancy};
pub use tenancy::{Isolation, TenantCounts};

impl PolicyKind {
    /// Whether the cost the policy compares with `φ` ([`Inspect::acting_cost`]) is a lower
    /// confidence bound `c̲` (the CLCB family: Algs. 5, 7 and CLCB-SC-LS) rather than a point
    /// estimate `ĉ` (the count-based baselines, SPEC §11.8).
    pub fn acts_on_lcb(&self) -> bool {
        self.family() == crate::algorithms::Family::Clcb
    }
}

/// Builds a policy. `oracle` is the evaluation oracle's cache as `(key, vector)` pairs (used by
/// [`PolicyKind::Oracle`] only).
pub fn make_policy(
    kind: PolicyKind,
    ctx: &Context,
    oracle: &[(u64, Vec<f32>)],
) -> Result<Box<dyn InspectablePolicy>> {
    use baselines::{CellPolicy, Score};
    Ok(match kind {
        PolicyKind::ClcbScLsCont => Box::new(low_switch::LowSwitch::kernel(ctx)?),
        PolicyKind::ClcbScLsContNystrom => Box::new(low_switch::LowSwitch::nystrom(ctx)?),
        PolicyKind::ClcbScLs => Box::new(low_switch::LowSwitch::discrete(ctx)?),
        PolicyKind::ClcbFrozenCont => Box::new(frozen::Frozen::new(ctx)?),
        PolicyKind::Greedy => Box::new(CellPolicy::new(ctx, Score::Greedy)?),
        PolicyKind::EpsilonGreedy => Box::new(CellPolicy::new(ctx, Score::EpsilonGreedy)?),
        PolicyKind::Lfu => Box::new(CellPolicy::new(ctx, Score::Lfu)?),
        PolicyKind::Lru => Box::new(CellPolicy::new(ctx, Score::Lru)?),
        PolicyKind::Threshold => Box::new(threshold::ThresholdCache::new(ctx)),
        PolicyKind::VCache => Box::new(vcache::VCache::new(ctx)),
        PolicyKind::Oracle => Box::new(baselines::OracleCache::new(ctx, oracle)),
    })
}
