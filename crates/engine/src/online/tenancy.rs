//! Tenants who must not share (docs/SPEC-NOTES.md, "Tenants"): the isolation setting every
//! policy honours, the `partitioned` cache (one policy per tenant, `k` split between them) and
//! what the simulator counts per tenant.
//!
//! Every cache entry is keyed by the round whose arrival founded it (SPEC §9), so the tenant that
//! founded an entry is the tenant of that round. Under `tagged` and `partitioned` the round
//! carries [`Tenancy::own_only`] and the cache serves it through
//! [`CacheSet::serving_dist`]/[`CacheSet::serving_nearest`], which skip the entries another
//! tenant founded: the one place serving is decided for every policy.

use super::inspect::{Inspect, InspectablePolicy};
use super::policy::{CacheSet, Context, Policy, Round};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// How tenants share a cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Isolation {
    /// One cache of `k`; any entry serves any tenant (the policies as the paper states them).
    Shared,
    /// One cache per tenant, the policy run on each tenant's arrivals alone; tenant `τ` of `N`
    /// holds `⌊k/N⌋` items, one more for `τ < k mod N`.
    Partitioned,
    /// One cache of `k` shared in memory; a tenant is served only by entries it founded.
    Tagged,
}

impl Isolation {
    /// Every setting, in the order reports list them.
    pub const ALL: [Isolation; 3] = [Isolation::Shared, Isolation::Partitioned, Isolation::Tagged];

    /// Its name (`shared`, `partitioned`, `tagged`).
    pub fn id(self) -> &'static str {
        match self {
            Isolation::Shared => "shared",
            Isolation::Partitioned => "partitioned",
            Isolation::Tagged => "tagged",
        }
    }

    /// The setting named `name`.
    pub fn parse(name: &str) -> Result<Isolation> {
        Isolation::ALL.into_iter().find(|i| i.id() == name).ok_or_else(|| {
            Error::param(
                "isolation",
                format!("unknown isolation `{name}`; known: shared, partitioned, tagged"),
            )
        })
    }

    /// Whether a tenant is served by its own entries only.
    pub fn own_only(self) -> bool {
        self != Isolation::Shared
    }
}

/// Tenant `tenant`'s share of `k` under `partitioned` with `n` tenants: `⌊k/n⌋`, one more for the
/// first `k mod n` tenants.
pub fn partition_k(k: usize, n: usize, tenant: usize) -> usize {
    k / n + usize::from(tenant < k % n)
}

/// What one tenant's rounds did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TenantCounts {
    /// Rounds whose arrival was this tenant's.
    pub requests: u64,
    /// Of those, the rounds served from the cache.
    pub hits: u64,
    /// Hits whose nearest serving entry another tenant founded.
    pub cross_hits: u64,
    /// Σ realised cost of its rounds (`c(x)` or `φ`).
    pub realised_cost: f64,
    /// Hits whose correctness could be judged (SPEC §14) and the wrong ones.
    pub judged_hits: u64,
    pub wrong_hits: u64,
}

impl TenantCounts {
    /// Cross-tenant hit share: cross hits over hits (NaN without hits).
    pub fn cross_share(&self) -> f64 {
        if self.hits == 0 {
            f64::NAN
        } else {
            self.cross_hits as f64 / self.hits as f64
        }
    }
    /// Realised cost per request.
    pub fn avg_realised_cost(&self) -> f64 {
        self.realised_cost / self.requests.max(1) as f64
    }
    /// Wrong hits over requests (SPEC §14's error rate, for this tenant's rounds).
    pub fn error_rate(&self) -> f64 {
        self.wrong_hits as f64 / self.requests.max(1) as f64
    }
}

/// What builds one part of a partitioned cache from its context and oracle members
/// (`online::make_policy` for a policy kind).
pub type MakePart<'a> = &'a dyn Fn(&Context, &[(u64, Vec<f32>)]) -> Result<Box<dyn InspectablePolicy>>;

/// `partitioned`: one policy per tenant, each with its share of `k`, each seeing only its tenant's
/// arrivals, numbered 0, 1, … in its own stream (its clock, its ε-net's origins and its keys are
/// its own), and scanning its own ε-net. Its cache is the union of the parts' caches in tenant
/// order, each part's keys translated back to the global rounds they were.
pub struct Partitioned {
    parts: Vec<Box<dyn InspectablePolicy>>,
    versions: Vec<u64>,
    /// Per part, the global round of each of its own rounds (from the trace's tenants), and how
    /// many it has played.
    rounds: Vec<Vec<u64>>,
    seen: Vec<usize>,
    cache: CacheSet,
    fetched: Vec<u64>,
    current: usize,
}

impl Partitioned {
    /// `n` parts, each built by `make` (`online::make_policy`) from its context and
    /// oracle members, over a trace whose round `g` is tenant `founders[g]`'s; the oracle
    /// reference's part `τ` gets the oracle members tenant `τ` founded.
    pub fn new(
        make: MakePart,
        ctx: &Context,
        oracle: &[(u64, Vec<f32>)],
        founders: &[u32],
        n: usize,
    ) -> Result<Self> {
        let k = ctx.params.k;
        if n == 0 || k < n {
            return Err(Error::param(
                "k",
                format!("a partitioned cache gives each of the {n} tenants at least one item: k = {k} is below {n}"),
            ));
        }
        let rounds: Vec<Vec<u64>> = (0..n as u32)
            .map(|tenant| (0..founders.len() as u64).filter(|&g| founders[g as usize] == tenant).collect())
            .collect();
        let mut parts = Vec::with_capacity(n);
        for (tenant, own_rounds) in rounds.iter().enumerate() {
            let mut c = ctx.clone();
            c.params.k = partition_k(k, n, tenant);
            // the oracle's members this tenant founded, keyed by the tenant's own round numbers
            let own: Vec<(u64, Vec<f32>)> = oracle
                .iter()
                .filter_map(|(key, x)| Some((own_rounds.binary_search(key).ok()? as u64, x.clone())))
                .collect();
            parts.push(make(&c, &own)?);
        }
        Ok(Partitioned {
            versions: parts.iter().map(|p| p.cache().version()).collect(),
            rounds,
            seen: vec![0; n],
            parts,
            cache: CacheSet::new(ctx.dim),
            fetched: Vec::new(),
            current: 0,
        })
    }

    /// Round `r` as part `tenant` sees it: its own round number, no shared net, no tenancy.
    fn inner<'a>(&self, tenant: usize, r: &Round<'a>) -> Round<'a> {
        Round { t: self.seen[tenant] - 1, net: None, tenancy: None, ..*r }
    }
}

impl Policy for Partitioned {
    fn decide(&mut self, r: &Round) -> bool {
        let tenant = r.tenancy.map_or(0, |t| t.tenant as usize);
        self.current = tenant;
        self.seen[tenant] += 1;
        assert_eq!(
            self.rounds[tenant].get(self.seen[tenant] - 1),
            Some(&(r.t as u64)),
            "a partitioned cache plays its trace's rounds in order"
        );
        let inner = self.inner(tenant, r);
        let part = &mut self.parts[tenant];
        let llm = part.decide(&inner);
        let rounds = &self.rounds[tenant];
        self.fetched.extend(part.take_fetched().into_iter().map(|k| rounds[k as usize]));
        if part.cache().version() != self.versions[tenant] {
            self.versions[tenant] = part.cache().version();
            let members: Vec<(u64, &[f32])> = self
                .parts
                .iter()
                .zip(&self.rounds)
                .flat_map(|(p, rounds)| {
                    p.cache().keys().iter().map(|&k| rounds[k as usize]).zip(p.cache().points().iter())
                })
                .collect();
            self.cache.replace(&members);
        }
        llm
    }

    fn observe(&mut self, r: &Round, cost: f64) {
        let inner = self.inner(self.current, r);
        self.parts[self.current].observe(&inner, cost);
    }

    fn cache(&self) -> &CacheSet {
        &self.cache
    }

    fn take_fetched(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.fetched)
    }

    fn estimates(&mut self) -> Option<Vec<(u64, f64)>> {
        let mut all: Option<Vec<(u64, f64)>> = None;
        for (p, rounds) in self.parts.iter_mut().zip(&self.rounds) {
            if let Some(e) = p.estimates() {
                all.get_or_insert_with(Vec::new).extend(e.into_iter().map(|(k, c)| (rounds[k as usize], c)));
            }
        }
        all
    }
}

impl Inspect for Partitioned {}
