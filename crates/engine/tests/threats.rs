//! Tenants who must not share and queries built to fool the cache (docs/SPEC-NOTES.md, "Tenants"
//! and "Adversarial arrivals"): hand traces, the isolation property for every policy, and the
//! attack's choice against a brute-force search.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::adversary::{attack_coins, Attacker};
use csc_engine::answers::{equivalent, Label};
use csc_engine::config::Params;
use csc_engine::dataset::synthetic;
use csc_engine::online::sim::{Environment, Simulation};
use csc_engine::online::tenancy::partition_k;
use csc_engine::online::{Isolation, PolicyKind};
use csc_engine::space::Points;
use csc_engine::stream::{generate_trace, ArrivalModel};
use csc_engine::trace::{Queries, Trace, TraceLabels};
use proptest::prelude::*;
use std::sync::Arc;

/// Two points on a line (D = 1) 0.01 apart, both labelled "A"; arrivals p0 then p1, by tenants 0
/// then 1.
fn two_tenants() -> Trace {
    let universe = Points::from_rows(&[[0.0f32, 0.0], [0.01, 0.0]]).unwrap();
    let cost = [0.9, 0.9];
    Trace {
        dist_scale: 1.0,
        universe: Some(universe),
        universe_cost: Some(cost.to_vec()),
        cost: cost.to_vec(),
        arrivals: Queries::Indices(vec![0, 1]),
        eta: vec![0.0; 2],
        z: Vec::new(),
        eval: Queries::Indices(vec![0, 1]),
        eval_cost: cost.to_vec(),
        offline: None,
        meta: serde_json::Value::Null,
        labels: TraceLabels {
            universe: Some(vec![Label::Text("A".into()), Label::Text("A".into())]),
            ..TraceLabels::default()
        },
        tenants: Some(vec![0, 1]),
    }
}

/// The threshold cache (τ = 0.05) by hand: round 0, tenant 0's p0 misses and is admitted (founded
/// by tenant 0); round 1, tenant 1's p1 lies 0.01 from it. `shared` serves it from tenant 0's
/// entry (one cross-tenant hit, realised cost φ(0.01) = 0.01); `tagged` does not (no entry of
/// tenant 1: a miss, realised cost c = 0.9); `partitioned` neither (k = 2 → one item a tenant).
#[test]
fn shared_serves_across_tenants_and_tagged_does_not() {
    let t = two_tenants();
    let params =
        Params { horizon: 2, k: 2, threshold_tau: 0.05, epsilon: 0.1, ..Params::default() }.check().unwrap();
    let env = Arc::new(Environment::from_trace(&t, &params).unwrap());
    let run = |iso| {
        let mut sim = Simulation::isolated(env.clone(), PolicyKind::Threshold, &params, 0, iso).unwrap();
        let outs: Vec<_> = (0..2).map(|r| sim.step(&t.arrival(r))).collect();
        (outs, sim.result())
    };
    let (outs, r) = run(Isolation::Shared);
    assert!(outs[0].llm && !outs[1].llm);
    let per = r.tenants.unwrap();
    assert_eq!((per[1].hits, per[1].cross_hits), (1, 1));
    assert!((per[1].realised_cost - 0.01).abs() < 1e-9, "{}", per[1].realised_cost);
    assert_eq!(per[0].cross_hits, 0);
    for iso in [Isolation::Tagged, Isolation::Partitioned] {
        let (outs, r) = run(iso);
        assert!(outs[0].llm && outs[1].llm, "{iso:?}");
        let per = r.tenants.unwrap();
        assert_eq!((per[1].hits, per[1].cross_hits, per[1].realised_cost), (0, 0, 0.9), "{iso:?}");
    }
    // Isolation needs tenants: a trace without them is refused under tagged and partitioned.
    let mut plain = two_tenants();
    plain.tenants = None;
    let env = Arc::new(Environment::from_trace(&plain, &params).unwrap());
    assert!(Simulation::isolated(env.clone(), PolicyKind::Threshold, &params, 0, Isolation::Tagged).is_err());
    assert!(Simulation::isolated(env, PolicyKind::Threshold, &params, 0, Isolation::Shared).is_ok());
}

/// k split under `partitioned`: ⌊k/N⌋, one more for the first k mod N tenants.
#[test]
fn partitioned_splits_k_floor_with_the_remainder_first() {
    assert_eq!((0..3).map(|t| partition_k(10, 3, t)).collect::<Vec<_>>(), [4, 3, 3]);
    assert_eq!((0..4).map(|t| partition_k(8, 4, t)).collect::<Vec<_>>(), [2, 2, 2, 2]);
    assert_eq!((0..3).map(|t| partition_k(10, 3, t)).sum::<usize>(), 10);
}

/// The attack by hand on synthetic data: with p = 1 and a threshold cache that serves anything
/// (τ = 10), round 0 meets an empty cache (the base arrival, admitted); round 1 is the universe
/// row nearest to that entry among those whose label differs (found here by brute force), which
/// the threshold cache must serve: one wrong hit, one attacked round.
#[test]
fn the_threshold_cache_serves_the_attackers_query_wrongly() {
    let d = Arc::new(synthetic::universe(0.01).unwrap());
    let params =
        Params { horizon: 2, k: 5, n_eval: 50, log_len: 10, threshold_tau: 10.0, ..Params::default() }
            .check()
            .unwrap();
    let trace = generate_trace(d.clone(), ArrivalModel::Popularity, &params).unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &params).unwrap());
    let coins = attack_coins(params.seed, 1.0, 2).unwrap();
    assert_eq!(coins, [true, true]);
    let mut attacker = Attacker::new(d.clone()).unwrap();
    let a = attacker.run(&env, &trace, PolicyKind::Threshold, &params, &coins, 10.0).unwrap();
    assert_eq!(a.attacked, 1);
    assert_eq!(a.result.last.wrong_hits, Some(1));
    assert_eq!(a.result.last.llm_calls, 1);
    assert_eq!(a.confusable_serves, 1);
    // the row sent: the nearest with a label not equivalent to the entry's (round 0's arrival)
    let labels = d.ground_truth.labels().unwrap();
    let first = trace.arrivals.index(0).unwrap() as usize;
    let m = d.metric();
    let (mut best, mut bd) = (usize::MAX, f64::INFINITY);
    for i in 0..d.len() {
        let dist = m.dist(d.points.row(first), d.points.row(i));
        if !equivalent(&labels[i], &labels[first]) && dist < bd {
            (best, bd) = (i, dist);
        }
    }
    assert!(best < d.len());
    // the same run with p = 0 has no wrong hit: the attack made it
    let calm = attack_coins(params.seed, 0.0, 2).unwrap();
    let b = attacker.run(&env, &trace, PolicyKind::Threshold, &params, &calm, 10.0).unwrap();
    assert_eq!(b.attacked, 0);
    assert_eq!(
        b.result.last.wrong_hits,
        Some(u64::from(!equivalent(&labels[first], &labels[trace.arrivals.index(1).unwrap() as usize])))
    );
}

/// The coins of a seed are coupled across p (a round attacked at p is attacked at every larger p)
/// and p outside [0, 1] is refused.
#[test]
fn attack_coins_are_coupled_and_checked() {
    let lo = attack_coins(3, 0.1, 500).unwrap();
    let hi = attack_coins(3, 0.4, 500).unwrap();
    assert!(lo.iter().zip(&hi).all(|(a, b)| !a || *b));
    assert!(hi.iter().filter(|c| **c).count() > lo.iter().filter(|c| **c).count());
    for p in [-0.1, 1.5, f64::NAN] {
        assert!(attack_coins(0, p, 10).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Under `tagged` and `partitioned` no policy ever serves a tenant from an entry another
    /// tenant founded: the cross-tenant hit share is 0 for every policy, every tenant.
    #[test]
    fn no_cross_tenant_hit_under_isolation(seed in 0u64..1000, n in 2u32..4, overlap in 0.0f64..1.0) {
        let d = Arc::new(synthetic::universe(0.01).unwrap());
        let params = Params {
            horizon: 120, k: 6, n_eval: 100, log_len: 20, epsilon: 0.3, threshold_tau: 0.3, seed,
            ..Params::default()
        }
        .check()
        .unwrap();
        let model = ArrivalModel::Tenants { tenants: n, overlap: Some(overlap) };
        let trace = generate_trace(d, model, &params).unwrap();
        prop_assert_eq!(trace.tenants.as_ref().map(Vec::len), Some(120));
        let env = Arc::new(Environment::from_trace(&trace, &params).unwrap().with_tenant_count(n as usize));
        for kind in PolicyKind::ALL {
            for iso in Isolation::ALL {
                let mut sim = Simulation::isolated(env.clone(), kind, &params, 0, iso).unwrap();
                for t in 0..trace.horizon() {
                    sim.step(&trace.arrival(t));
                    // every entry is keyed by the round that founded it: its vector is that
                    // round's arrival, and a partitioned cache holds at most k_τ of tenant τ's
                    let cache = sim.policy().cache();
                    let mut held = vec![0usize; n as usize];
                    for (key, x) in cache.keys().iter().zip(cache.points().iter()) {
                        prop_assert!(kind == PolicyKind::Oracle || (*key as usize) <= t, "{:?} {:?}: key {} at round {}", kind, iso, key, t);
                        prop_assert_eq!(x, trace.x(*key as usize), "{:?} {:?}: key {}", kind, iso, key);
                        held[trace.tenants.as_ref().unwrap()[*key as usize] as usize] += 1;
                    }
                    if iso == Isolation::Partitioned {
                        for (tenant, h) in held.iter().enumerate() {
                            prop_assert!(*h <= partition_k(6, n as usize, tenant), "{:?}: {:?}", kind, held);
                        }
                    }
                }
                let per = sim.result().tenants.unwrap();
                prop_assert_eq!(per.len(), n as usize);
                prop_assert_eq!(per.iter().map(|p| p.requests).sum::<u64>(), 120);
                if iso != Isolation::Shared {
                    for p in &per {
                        prop_assert_eq!(p.cross_hits, 0, "{:?} under {:?}", kind, iso);
                    }
                }
            }
        }
    }
}
