//! The units of the two threat measures: tenants who must not share ([`Measure::Tenants`]) and
//! queries built to fool the cache ([`Measure::Attack`]) (docs/SPEC-NOTES.md, "Tenants" and
//! "Adversarial arrivals").

use crate::adversary::{attack_coins, confusable_pairs, Attacker};
use crate::config::Checked;
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::experiment::run::observation::{obs, Observation};
use crate::experiment::Metric;
use crate::online::sim::{Environment, RunResult, Simulation};
use crate::online::{Isolation, PolicyKind};
use crate::stream::ArrivalModel;
use crate::trace::Trace;
use std::sync::Arc;

/// The result key of `policy` under `isolation`: `lru:tagged`.
pub fn tenant_key(policy: PolicyKind, isolation: Isolation) -> String {
    format!("{}:{}", policy.id(), isolation.id())
}

/// One tenants unit: every policy under every isolation setting on the trace, each run's final
/// metrics at x = T, its per-tenant metrics at x = the tenant, and the price of isolation
/// (realised cost per round minus shared's on this seed) at x = T.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tenants_unit(
    policies: &[PolicyKind],
    model: ArrivalModel,
    trace: &Trace,
    params: &Checked,
    out: &mut Vec<Observation>,
    done: &mut usize,
    on_round: &mut dyn FnMut(usize) -> bool,
    final_metrics: fn(&mut Vec<Observation>, &str, f64, &RunResult),
) -> Result<serde_json::Value> {
    let ArrivalModel::Tenants { tenants, .. } = model else {
        return Err(Error::param("arrival", "a tenants experiment runs on the `tenants` arrival model"));
    };
    let env = Arc::new(Environment::from_trace(trace, params)?.with_tenant_count(tenants as usize));
    let mut d = serde_json::Map::new();
    d.insert("oracle_loss".into(), env.oracle.loss.into());
    d.insert("tenants".into(), env.n_tenants.into());
    for &kind in policies {
        let mut shared_cost = f64::NAN;
        for iso in Isolation::ALL {
            let mut sim = Simulation::isolated(env.clone(), kind, params, 0, iso)?;
            for t in 0..trace.horizon() {
                sim.step(&trace.arrival(t));
                *done += 1;
                if done.is_multiple_of(256) && !on_round(*done) {
                    return Err(Error::unsupported("cancelled"));
                }
            }
            let r = sim.result();
            let key = tenant_key(kind, iso);
            let x = r.last.t as f64;
            final_metrics(out, &key, x, &r);
            let per = r.tenants.clone().unwrap_or_default();
            let (hits, cross) = per.iter().fold((0, 0), |(h, c), p| (h + p.hits, c + p.cross_hits));
            if hits > 0 {
                obs(out, &key, Metric::CrossTenantShare.final_id(), x, cross as f64 / hits as f64);
            }
            if iso == Isolation::Shared {
                shared_cost = r.last.avg_realised_cost;
            } else {
                obs(out, &key, Metric::IsolationPrice.final_id(), x, r.last.avg_realised_cost - shared_cost);
            }
            for (tenant, p) in per.iter().enumerate() {
                let tx = tenant as f64;
                obs(out, &key, Metric::TenantRealisedCost.id(), tx, p.avg_realised_cost());
                if r.last.error_rate.is_some() {
                    obs(out, &key, Metric::TenantErrorRate.id(), tx, p.error_rate());
                }
                if p.hits > 0 {
                    obs(out, &key, Metric::TenantCrossShare.id(), tx, p.cross_share());
                }
            }
            d.insert(key, r.diagnostics.clone());
        }
    }
    Ok(serde_json::Value::Object(d))
}

/// One attack unit: every policy attacked at every probability of `p` (x = p) with the seed's
/// coins, on the same base trace; the dataset's confusable pairs nearer than `distance`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn attack_unit(
    policies: &[PolicyKind],
    p: &[f64],
    distance: f64,
    dataset: &Arc<Dataset>,
    trace: &Trace,
    params: &Checked,
    out: &mut Vec<Observation>,
    done: &mut usize,
    on_round: &mut dyn FnMut(usize) -> bool,
    final_metrics: fn(&mut Vec<Observation>, &str, f64, &RunResult),
) -> Result<serde_json::Value> {
    let env = Arc::new(Environment::from_trace(trace, params)?);
    let mut attacker = Attacker::new(dataset.clone())?;
    let mut d = serde_json::Map::new();
    d.insert("oracle_loss".into(), env.oracle.loss.into());
    d.insert("confusable_pairs".into(), confusable_pairs(dataset, distance)?.into());
    for &prob in p {
        let coins = attack_coins(params.seed, prob, trace.horizon())?;
        for &kind in policies {
            let a = attacker.run(&env, trace, kind, params, &coins, distance)?;
            *done += trace.horizon();
            if !on_round(*done) {
                return Err(Error::unsupported("cancelled"));
            }
            let name = kind.id();
            let l = &a.result.last;
            final_metrics(out, &name, prob, &a.result);
            if let Some(e) = l.error_rate {
                obs(out, &name, Metric::WrongPer1000.final_id(), prob, 1000.0 * e);
            }
            obs(out, &name, Metric::AttackShare.final_id(), prob, a.attacked as f64 / l.t.max(1) as f64);
            obs(out, &name, Metric::ConfusableServes.final_id(), prob, a.confusable_serves as f64);
        }
    }
    Ok(serde_json::Value::Object(d))
}
