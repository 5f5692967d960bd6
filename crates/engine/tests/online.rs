//! Online policies on hand-checkable instances (SPEC §9, §11; Algs. 3–5) and trace replay (§12).
//!
//! The tiny world: three exact query points (0,0), (1,0), (0,1) with costs 0.9, 0.5, 0.1, no
//! noise, arrivals cycling 0, 1, 2, …, `E` = one of each, `D = √2`, ζ = 1. Then
//! φ(d(c0, c1)) = φ(d(c0, c2)) = 1/√2 ≈ 0.707, φ(d(c1, c2)) = 1, and with k = 1:
//! L({c0}) = (0 + 0.5 + 0.1)/3 = 0.2, L({c1}) = (0.707 + 0 + 0.1)/3, L({c2}) = (0.707 + 0.5)/3,
//! so `M_orc = {c0}` with `L(M_orc) = 0.2`.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::online::sim::{run_trace, Environment, Simulation, StepOutcome};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, ArrivalModel};
use csc_engine::trace::Trace;
use std::sync::Arc;

#[path = "support/tiny_world.rs"]
mod tiny_world;
use tiny_world::{tiny_trace, COST};

fn tiny_params(horizon: usize, k: usize) -> Params {
    Params { k, horizon, epsilon: 0.1, ..Params::default() }
}

/// Runs one policy on the tiny world, returning every round's outcome and the simulation.
fn play(
    kind: PolicyKind,
    horizon: usize,
    k: usize,
    tweak: impl Fn(&mut Params),
) -> (Vec<StepOutcome>, Simulation) {
    let trace = tiny_trace(horizon);
    let mut p = tiny_params(horizon, k);
    tweak(&mut p);
    let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
    let mut sim = Simulation::new(env, kind, &p.clone().check().unwrap(), 1).unwrap();
    let steps = (0..horizon).map(|t| sim.step(&trace.arrival(t))).collect();
    (steps, sim)
}

#[test]
fn oracle_of_the_tiny_world_is_c0() {
    let trace = tiny_trace(30);
    let env = Environment::from_trace(&trace, &tiny_params(30, 1).check().unwrap()).unwrap();
    assert!((env.oracle.loss - 0.2).abs() < 1e-12);
    assert_eq!(env.oracle.keys, vec![0]);
    // The oracle policy: regret 0, and per cycle it pays 0 (hit) + 0.5 + 0.1 = 3 × L(M_orc).
    let (steps, mut sim) = play(PolicyKind::Oracle, 30, 1, |_| {});
    assert_eq!(steps.iter().map(|s| s.llm).take(3).collect::<Vec<_>>(), vec![false, true, true]);
    let r = sim.result();
    assert_eq!(r.last.regret, 0.0);
    assert!((r.last.avg_realised_cost - 0.2).abs() < 1e-12);
}

/// Greedy (§11.8): round 0 caches c0 (the only cell) and calls the LLM (mean 0 ≤ φ(0) = 0);
/// rounds 1, 2 call the LLM on unobserved cells; from round 3 on, c0 (mean 0.9 > φ(0)) is a
/// hit and c1, c2 (means 0.5, 0.1 ≤ 0.707) go to the LLM. Score N_f·mean keeps {c0} for ever:
/// one cache change, costing c(c0) = 0.9, and then `L(M_t) = L(M_orc)` every round.
#[test]
fn greedy_by_hand() {
    let (steps, mut sim) = play(PolicyKind::Greedy, 30, 1, |_| {});
    let llm: Vec<bool> = steps.iter().map(|s| s.llm).collect();
    assert_eq!(&llm[..6], &[true, true, true, false, true, true]);
    assert!(llm[3..].iter().enumerate().all(|(i, &l)| l == ((i + 3) % 3 != 0)));
    let r = sim.result();
    assert_eq!(r.last.switches, 1);
    assert!((r.last.switch_cost - 0.9).abs() < 1e-12);
    assert!((r.last.regret - 0.9).abs() < 1e-12, "only the first fetch: {}", r.last.regret);
    assert_eq!(sim.policy().cache().keys(), &[0]);
}

/// CLCB-SC-LS (discrete): LCB = mean − √(ln(4·m·T³)/(2N)) with m = 3, T = 300, so
/// ln(4·3·300³)/2 = 9.798. At c0 (cached, φ = 0) the LLM is called while LCB ≤ 0, i.e. while
/// N ≤ 9.798/0.81 = 12.1: exactly 13 calls, then hits. c2's LCB ≤ 0.1 < φ = 0.707: always the LLM.
/// Every LCB of c1, c2 stays negative for the first 100 rounds, so Reverse Greedy is indifferent
/// and keeps the incumbent {c0} (SPEC §1 tie rule).
#[test]
fn clcb_sc_ls_by_hand() {
    let (steps, sim) = play(PolicyKind::ClcbScLs, 300, 1, |_| {});
    let c0_calls_before_hit = steps.iter().step_by(3).take_while(|s| s.llm).count();
    assert_eq!(c0_calls_before_hit, 13);
    assert!(steps.iter().skip(2).step_by(3).take(33).all(|s| s.llm), "c2 always goes to the LLM");
    assert!(
        steps[..100].iter().skip(1).all(|s| !s.switched || s.t < 3),
        "no cache change after the first rounds"
    );
    let _ = sim;
}

/// CLCB-SC-LS-Cont: the first three rounds each create a center, which forces a switch
/// (Alg. 3 line 8); with no observation the LCB is −B, so they all call the LLM (Alg. 5 line 6).
/// After its one observation c0's LCB is 0.818 − 1.156·0.302 = 0.470 > φ(0) = 0, so c0 is served
/// from the cache and never observed again while cached; c1 and c2 are observed every time.
/// Global stages (T = 300, m = 1) last 1, 19, 79 and 174 rounds, so the checks at rounds 1, 20,
/// 99 and 273 fire. At round 273 c0's optimistic LCB (σ still 0.30, width ≈ 1.24: ≈ 0.444) is
/// below c1's (≈ 0.458 from ~90 observations), and Reverse Greedy explores: the cache becomes {c1}.
#[test]
fn clcb_sc_ls_cont_by_hand() {
    let (steps, mut sim) = play(PolicyKind::ClcbScLsCont, 300, 1, |_| {});
    assert!(steps[..3].iter().all(|s| s.llm));
    let changes: Vec<usize> = steps.iter().filter(|s| s.switched).map(|s| s.t).collect();
    assert_eq!(changes, vec![0, 273]);
    assert!(steps[3..273].iter().step_by(3).all(|s| !s.llm), "cached c0 is never observed again");
    assert!(steps[..273].iter().filter(|s| s.t % 3 != 0).all(|s| s.llm), "c1, c2 always observed");
    let r = sim.result();
    assert_eq!(r.diagnostics["centers"], 3);
    assert_eq!(sim.policy().cache().keys(), &[1], "optimism explores c1");
    assert_eq!(r.diagnostics["observations"].as_u64().unwrap(), r.last.llm_calls);
    let est = sim.policy_mut().estimates().unwrap();
    // after the switch c0 is observed again; c1's ~100 observations pin its estimate
    assert!(est[0].1 > 0.85 && (est[1].1 - 0.5).abs() < 0.005, "{est:?}");
}

/// Threshold cache (τ = 0.15): with k = 1 every arrival is farther than τ from the single
/// (previous) entry, so every round is a miss and an admission; with k = 3 the first three
/// misses fill the cache and every later arrival is an exact hit (φ(0) = 0).
#[test]
fn threshold_cache_by_hand() {
    let (steps, mut sim) = play(PolicyKind::Threshold, 30, 1, |_| {});
    assert!(steps.iter().all(|s| s.llm));
    assert!((sim.result().last.avg_realised_cost - 0.5).abs() < 1e-12);
    let (steps, mut sim) = play(PolicyKind::Threshold, 30, 3, |_| {});
    assert!(steps[..3].iter().all(|s| s.llm) && steps[3..].iter().all(|s| !s.llm));
    let r = sim.result();
    assert!((r.last.realised_cost - 1.5).abs() < 1e-12);
    assert_eq!(r.last.switch_cost, 0.0, "admitting the response just paid for fetches nothing");
}

/// LRU with k = 1 caches the cell requested in the round before (SPEC §11.8: round t ranks by
/// the requests of rounds 1…t−1): round 0 fills the cache with c0 (the only cell), round 1 keeps
/// it (c1 has no earlier request), and from round 2 on the cache changes, and fetches, every
/// round: 29 switches, fetching c0 and then the cells of rounds 1…28.
#[test]
fn lru_by_hand() {
    let (steps, mut sim) = play(PolicyKind::Lru, 30, 1, |_| {});
    let switched: Vec<bool> = steps.iter().map(|s| s.switched).collect();
    assert_eq!(&switched[..3], &[true, false, true]);
    assert!(switched[2..].iter().all(|&s| s));
    let r = sim.result();
    assert_eq!(r.last.switches, 29);
    let fetched: f64 = COST[0] + (1..29).map(|t| COST[t % 3]).sum::<f64>();
    assert!((r.last.switch_cost - fetched).abs() < 1e-9);
}

/// SPEC §12: replaying a generated stream's trace (after a JSON round trip) gives exactly the
/// results of running on the generated trace.
#[test]
fn trace_replay_equals_the_generated_run() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let p = Params { horizon: 400, n_eval: 300, seed: 9, epsilon: 0.2, ..Params::default() };
    let trace =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    let back = Trace::from_json(&trace.to_json()).unwrap();
    let kinds = [PolicyKind::ClcbScLsCont, PolicyKind::ClcbScLs, PolicyKind::Greedy, PolicyKind::Threshold];
    let a = run_trace(&trace, &p.clone().check().unwrap(), &kinds).unwrap();
    let b = run_trace(&back, &p.clone().check().unwrap(), &kinds).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.policy, y.policy);
        assert_eq!(x.last.regret.to_bits(), y.last.regret.to_bits());
        assert_eq!(x.last.realised_cost.to_bits(), y.last.realised_cost.to_bits());
        assert_eq!(x.last.switches, y.last.switches);
    }
}

/// Lemma 5 (switches O(m log log T)): on a stationary stream the stage advances of the shared
/// mechanism grow far slower than T — 16× more rounds give well under 2× more advances.
#[test]
fn stage_advances_grow_like_log_log_t() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let advances = |horizon: usize| {
        let p = Params { horizon, n_eval: 200, seed: 4, epsilon: 0.25, ..Params::default() };
        let trace = generate_trace(
            d.clone(),
            ArrivalModel::default_for(&d, &p).unwrap(),
            &p.clone().check().unwrap(),
        )
        .unwrap();
        let r = run_trace(&trace, &p.clone().check().unwrap(), &[PolicyKind::ClcbScLs]).unwrap();
        let dg = &r[0].diagnostics;
        (dg["stage_advances"].as_u64().unwrap() as f64, dg["centers"].as_u64().unwrap() as f64)
    };
    let (a1, m1) = advances(2_000);
    let (a2, m2) = advances(32_000);
    println!("T = 2,000: {a1} advances over {m1} centers; T = 32,000: {a2} over {m2}");
    assert!(a2 / a1 < 2.0, "advances grew {a1} → {a2}");
    let bound = |m: f64, t: f64| 3.0 * m * (t.ln().ln() + 1.0) + 10.0;
    assert!(a2 <= bound(m2, 32_000.0));
}

/// The inspection view: per-center beliefs, and a cached center's contribution is the rise of
/// L̂ without it (tiny world, Greedy after 30 rounds: only c0 cached; its contribution is
/// ŵ0·min(mean0, φ(d(c0, ∅))) = (1/3)·0.9).
#[test]
fn center_details_explain_the_cache() {
    let (_, mut sim) = play(PolicyKind::Greedy, 30, 1, |_| {});
    let d = sim.policy_mut().center_details().unwrap();
    assert_eq!(d.len(), 3);
    assert!(d[0].cached && !d[1].cached && !d[2].cached);
    assert_eq!(d.iter().map(|c| c.count).collect::<Vec<_>>(), vec![10, 10, 10]);
    assert!((d[0].estimate - 0.9).abs() < 1e-12);
    assert!((d[0].contribution - 0.9 / 3.0).abs() < 1e-12, "{:?}", d[0]);
    assert_eq!(sim.policy().current_center(), Some(2));
    assert!(d.iter().all(|c| c.sd.is_nan()), "cell means carry no posterior spread");
    let (_, mut sim) = play(PolicyKind::ClcbScLsCont, 30, 1, |_| {});
    let d = sim.policy_mut().center_details().unwrap();
    assert!(d.iter().all(|c| c.acting_cost <= c.estimate), "an LCB never exceeds the mean");
    // the tracked posterior's sd is bit-identical to a from-scratch solve at the center
    let trace = tiny_trace(30);
    for c in &d {
        let direct = sim.policy().posterior_at(trace.x(c.key as usize)).unwrap().sd();
        assert_eq!(c.sd.to_bits(), direct.to_bits(), "center {}", c.key);
    }
}

/// The reference the browser test (`tests/wasm_api.rs`, `online_run_matches_native`) asserts
/// bit for bit: plane, seed 7, T = 300, n_eval = 300, ε = 0.2, 100 rounds stepped.
pub const PLANE_REFERENCE_REGRET_BITS: [u64; 2] = [0x4013dce68dbc0f60, 0x401d4458100e8e4f];

#[test]
fn plane_reference_run() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let p = Params { horizon: 300, n_eval: 300, seed: 7, epsilon: 0.2, ..Params::default() };
    let trace =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
    let mut bits = Vec::new();
    for kind in [PolicyKind::ClcbScLsCont, PolicyKind::Greedy] {
        let mut sim = Simulation::new(env.clone(), kind, &p.clone().check().unwrap(), 0).unwrap();
        for t in 0..100 {
            sim.step(&trace.arrival(t));
        }
        let c = sim.snapshot();
        println!(
            "{kind:?}: regret {} ({:#x}), llm {}, switches {}",
            c.regret,
            c.regret.to_bits(),
            c.llm_calls,
            c.switches
        );
        bits.push(c.regret.to_bits());
    }
    assert_eq!(bits, PLANE_REFERENCE_REGRET_BITS);
}

/// FNV-1a over 64-bit words: a fingerprint of a whole run that any difference in any bit of
/// any round changes.
fn fnv(h: &mut u64, word: u64) {
    for b in word.to_le_bytes() {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// Every round of every paper policy — LLM or cache, switch, `φ`, the realised cost — and the
/// cache keys after every round, on a 384-d synthetic trace with exact repeats and on plane; one
/// fingerprint per policy, so that a change to one policy shows that the others kept their bits.
/// Speed work must keep these bits (the constants were computed before the tracked-projection
/// reuse of `Krr::add_observation_at_tracked` and the running dot products, and still hold).
pub const RUN_FINGERPRINTS: [(&str, PolicyKind, u64); 12] = [
    ("synthetic", PolicyKind::ClcbScLsCont, 0xc4a2_2aa5_1f2e_629e),
    ("synthetic", PolicyKind::ClcbFrozenCont, 0xf035_6f2d_50e5_57cf),
    ("synthetic", PolicyKind::ClcbScLs, 0x8d5a_f393_ae18_a77f),
    ("synthetic", PolicyKind::Greedy, 0x80e4_e591_bdf2_e8ee),
    ("synthetic", PolicyKind::EpsilonGreedy, 0xac3d_acd7_05ef_57da),
    ("synthetic", PolicyKind::Lfu, 0xfa00_f4cf_5a53_f2a1),
    ("plane", PolicyKind::ClcbScLsCont, 0xfa67_8d87_c430_c755),
    ("plane", PolicyKind::ClcbFrozenCont, 0x8d6c_f92d_6c9a_1dc7),
    ("plane", PolicyKind::ClcbScLs, 0xd018_72f0_e848_3afb),
    ("plane", PolicyKind::Greedy, 0xb6d3_dada_87a7_11db),
    ("plane", PolicyKind::EpsilonGreedy, 0xb6d3_dada_87a7_11db),
    ("plane", PolicyKind::Lfu, 0xb6d3_dada_87a7_11db),
];

#[test]
fn every_policy_keeps_its_bits() {
    let mut got = Vec::new();
    for (name, dataset, horizon) in [
        ("synthetic", csc_engine::dataset::synthetic::universe(Params::default().c_floor).unwrap(), 400),
        ("plane", csc_engine::dataset::plane::universe().unwrap(), 300),
    ] {
        let d = Arc::new(dataset);
        let p = Params { horizon, n_eval: 300, seed: 3, ..Params::default() };
        let trace = generate_trace(
            d.clone(),
            ArrivalModel::default_for(&d, &p).unwrap(),
            &p.clone().check().unwrap(),
        )
        .unwrap();
        let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
        for kind in csc_engine::experiment::paper_policies() {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            let mut sim = Simulation::new(env.clone(), kind, &p.clone().check().unwrap(), 0).unwrap();
            let (mut llm, mut switches) = (0, 0);
            for t in 0..horizon {
                let o: StepOutcome = sim.step(&trace.arrival(t));
                llm += usize::from(o.llm);
                switches += usize::from(o.switched);
                for w in [u64::from(o.llm), u64::from(o.switched), o.phi.to_bits(), o.realised.to_bits()] {
                    fnv(&mut h, w);
                }
                for &k in sim.policy().cache().keys() {
                    fnv(&mut h, k);
                }
            }
            // The learned model's bits, whether or not they changed a decision.
            for t in 0..20 {
                if let Some(post) = sim.policy().posterior_at(trace.arrival(t).x) {
                    fnv(&mut h, post.mean.to_bits());
                    fnv(&mut h, post.var.to_bits());
                }
            }
            for (key, est) in sim.policy_mut().estimates().unwrap_or_default() {
                fnv(&mut h, key);
                fnv(&mut h, est.to_bits());
            }
            println!("    (\"{name}\", PolicyKind::{kind:?}, {h:#018x}), // {llm} LLM calls, {switches} switching rounds");
            if kind == PolicyKind::ClcbScLsCont {
                assert!(llm > 0 && llm < horizon && switches > 1, "the run must serve, call and switch");
            }
            assert_eq!(switches as u64, sim.snapshot().switches, "{kind:?}: one meaning of a switch");
            got.push((name, kind, h));
        }
    }
    assert_eq!(got, RUN_FINGERPRINTS);
}

/// SPEC §11.8: the baselines rank round t with the counts of rounds 1…t−1. On a line (D = 1,
/// ε = 0.3, k = 1), arrivals 0.0, 1.0, 1.0 make cells c0 = {0.0} and c1 = {1.0}; both are
/// observed at cost 0.5 in rounds 0 and 1. In round 2 the counts before it are c0: 1, c1: 1, so
/// Greedy (1·0.5 vs 1·0.5) and LFU (1 vs 1) tie and keep the lowest index, c0 (key 0). Counting
/// `x_2` first (the old rule) gives c1 two arrivals and caches it (key 1). LRU on 0.0, 1.0, 0.0:
/// before round 2, c0 was last requested in round 0 and c1 in round 1, so LRU caches c1; with
/// round 2 counted first it would cache c0.
#[test]
fn baselines_rank_with_the_counts_before_the_round() {
    use csc_engine::online::{make_policy, Context, Round};
    use csc_engine::space::Metric;
    let p = Params { k: 1, epsilon: 0.3, ..Params::default() };
    let ctx = Context::new(Metric::new(1.0).unwrap(), &p.clone().check().unwrap(), 1).unwrap();
    let cached_in_round_2 = |kind: PolicyKind, xs: [f32; 3]| {
        let mut policy = make_policy(kind, &ctx, &[]).unwrap();
        for (t, x) in xs.iter().enumerate() {
            let r = Round {
                t,
                x: std::slice::from_ref(x),
                index: None,
                true_cost: 0.5,
                net: None,
                label: None,
                tenancy: None,
            };
            let llm = policy.decide(&r);
            if t < 2 {
                assert!(llm, "{kind:?}: an unobserved cell (mean 0) goes to the LLM");
                policy.observe(&r, 0.5);
            }
        }
        policy.cache().keys().to_vec()
    };
    assert_eq!(cached_in_round_2(PolicyKind::Greedy, [0.0, 1.0, 1.0]), vec![0]);
    assert_eq!(cached_in_round_2(PolicyKind::Lfu, [0.0, 1.0, 1.0]), vec![0]);
    assert_eq!(cached_in_round_2(PolicyKind::Lru, [0.0, 1.0, 0.0]), vec![1]);
}

/// A policy whose cache holds fewer than k items is named with its size in tables and charts.
#[test]
fn a_short_cache_is_labelled_with_its_size() {
    use csc_engine::online::sim::sized_label;
    assert_eq!(sized_label("CLCB-Frozen-Cont", 1.0, 5), "CLCB-Frozen-Cont (1 item)");
    assert_eq!(sized_label("LFU", 3.0, 5), "LFU (3 items)");
    assert_eq!(sized_label("LFU", 2.5, 5), "LFU (2.5 items)");
    assert_eq!(sized_label("Greedy", 5.0, 5), "Greedy");
    assert_eq!(sized_label("Greedy", f64::NAN, 5), "Greedy");
    // What such a name means, with the run's k, for the table or figure that shows one.
    assert_eq!(
        csc_engine::online::sim::sized_label_note(5),
        "“(n items)” after a policy's name: its cache held n items at the end of the run (the mean over \
         the seeds of a report), fewer than k = 5; it never filled its cache."
    );
    // The tiny world with k = 3: Greedy fills all three cells, the oracle holds one.
    let (_, mut sim) = play(PolicyKind::Greedy, 30, 3, |_| {});
    assert_eq!(sim.result().last.cache_size, 3);
    let (_, mut sim) = play(PolicyKind::Oracle, 30, 3, |_| {});
    assert_eq!(sim.result().last.cache_size, sim.policy().cache().len());
}

/// `step_explained` (the page's "Ask a question") plays every round exactly as `step` does, and
/// what it reports is the state before the round (the cache `M_{t−1}` and its nearest member),
/// the switch the round made (members in and out), and what the decision compared: `φ` of the
/// nearest cached member's distance,
/// and for the CLCB-SC-LS-Cont/Frozen policies the rule of Alg. 5 lines 4–6 (call the LLM iff
/// `c̲(u_t) ≤ φ(d(x_t, M_t))`) holds on the reported numbers in every round.
#[test]
fn step_explained_plays_as_step_and_explains_the_decision() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let p = Params { horizon: 300, n_eval: 300, seed: 3, epsilon: 0.2, ..Params::default() };
    let trace =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
    // vCache needs labels, which plane has not (its refusal: tests/vcache.rs).
    for kind in PolicyKind::ALL.into_iter().filter(|k| !k.needs_labels()) {
        let mut plain = Simulation::new(env.clone(), kind, &p.clone().check().unwrap(), 0).unwrap();
        let mut told = Simulation::new(env.clone(), kind, &p.clone().check().unwrap(), 0).unwrap();
        let (mut served, mut called) = (0, 0);
        for t in 0..300 {
            let a = trace.arrival(t);
            let o = plain.step(&a);
            // The cache the arrival meets (M_{t−1}): the explanation's "before" must be it.
            let cache = told.policy().cache();
            let mut before: Vec<u64> = cache.keys().to_vec();
            let near_before = env.metric.nearest(a.x, cache.points()).map(|(j, dd)| (cache.keys()[j], dd));
            before.sort_unstable();
            let (e, why) = told.step_explained(&a);
            assert_eq!((why.before, why.before_size), (near_before, before.len()), "{kind:?} round {t}");
            let mut after: Vec<u64> = told.policy().cache().keys().to_vec();
            after.sort_unstable();
            let ins: Vec<u64> = after.iter().copied().filter(|k| !before.contains(k)).collect();
            let out: Vec<u64> = before.iter().copied().filter(|k| !after.contains(k)).collect();
            if kind.keeps_net() || kind == PolicyKind::Oracle {
                assert_eq!((&why.inserted, &why.removed), (&ins, &out), "{kind:?} round {t}");
            } else {
                // The threshold cache admits a miss with the LLM's answer, after the decision the
                // explanation describes (SPEC §9): only this round's arrival may be added later.
                assert!(why.inserted.iter().all(|k| ins.contains(k)), "{kind:?} round {t}");
                assert!(why.removed.iter().all(|k| out.contains(k)), "{kind:?} round {t}");
                assert!(ins.iter().all(|k| why.inserted.contains(k) || *k == t as u64), "{kind:?} round {t}");
            }
            if why.inserted.is_empty() && why.removed.is_empty() {
                // No switch: the cache that served is the one the arrival met.
                assert_eq!(why.before, why.nearest, "{kind:?} round {t}");
            }
            assert_eq!(
                (o.llm, o.switched, o.phi.to_bits(), o.realised.to_bits()),
                (e.llm, e.switched, e.phi.to_bits(), e.realised.to_bits()),
                "{kind:?} round {t}"
            );
            match why.nearest {
                Some((key, dist)) => {
                    // A switch at round t may cache the center this arrival founds (key t).
                    // (The oracle's cache M_orc is keyed by evaluation rows, not rounds.)
                    let played = kind == PolicyKind::Oracle || key as usize <= t;
                    assert!(played, "{kind:?} round {t}: cached key {key} not yet played");
                    assert_eq!(env.eval.mismatch.phi(dist).to_bits(), e.phi.to_bits(), "{kind:?} round {t}");
                }
                None => assert_eq!(e.phi, 1.0, "{kind:?} round {t}: empty cache, φ = 1"),
            }
            // Every policy that decides on a cost estimate calls the LLM iff it is ≤ φ (Alg. 5
            // lines 4–6, Alg. 7; the baselines' acting means, SPEC §11.8).
            match (kind, why.acting_cost) {
                (PolicyKind::Threshold | PolicyKind::Oracle, c) => assert_eq!(c, None, "{kind:?}"),
                (_, Some(c)) => assert_eq!(e.llm, c <= e.phi, "{kind:?} round {t}: c̲ = {c}, φ = {}", e.phi),
                (_, None) => panic!("{kind:?} round {t}: no acting cost"),
            }
            assert_eq!(
                why.center.is_some(),
                !matches!(kind, PolicyKind::Threshold | PolicyKind::Oracle | PolicyKind::ClcbFrozenCont),
                "{kind:?}"
            );
            if e.llm {
                called += 1
            } else {
                served += 1
            }
        }
        assert_eq!(plain.snapshot().regret.to_bits(), told.snapshot().regret.to_bits(), "{kind:?}");
        println!("{kind:?}: {served} served, {called} LLM calls");
    }
}

/// The policies that keep an ε-net take it from the run's shared net. Played side by side as in the
/// live view — including a question asked mid-run (`step_foreign`, after which every policy scans
/// its own net) — each round and cache equal a run in which the policy scans its own net from the
/// start (`step_foreign` on every round). Sequential runs on one environment are
/// `every_policy_keeps_its_bits` (its constants predate the shared net).
#[test]
fn shared_net_changes_nothing() {
    let d = Arc::new(csc_engine::dataset::synthetic::universe(Params::default().c_floor).unwrap());
    let p = Params { horizon: 240, n_eval: 200, seed: 5, ..Params::default() };
    let trace =
        generate_trace(d.clone(), ArrivalModel::default_for(&d, &p).unwrap(), &p.clone().check().unwrap())
            .unwrap();
    let asked_at = 150;
    let asked: Vec<f32> = trace.x(17).iter().map(|v| v * 0.9).collect();
    let arrival = |t: usize| {
        let a = trace.arrival(t);
        if t == asked_at {
            csc_engine::stream::Arrival { x: &asked, index: None, ..a }
        } else {
            a
        }
    };
    let kinds: Vec<PolicyKind> = PolicyKind::ALL.into_iter().filter(PolicyKind::keeps_net).collect();
    let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
    let mut side_by_side: Vec<Simulation> = kinds
        .iter()
        .map(|&k| Simulation::new(env.clone(), k, &p.clone().check().unwrap(), 0).unwrap())
        .collect();
    let mut alone: Vec<Simulation> = kinds
        .iter()
        .map(|&k| {
            Simulation::new(
                Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap()),
                k,
                &p.clone().check().unwrap(),
                0,
            )
            .unwrap()
        })
        .collect();
    for t in 0..p.horizon {
        let a = arrival(t);
        for (shared, private) in side_by_side.iter_mut().zip(&mut alone) {
            let kind = shared.kind();
            let s = if t == asked_at { shared.step_foreign(&a) } else { shared.step(&a) };
            let o = private.step_foreign(&a);
            assert_eq!(s, o, "{kind:?}, round {t}");
            assert_eq!(
                shared.policy().cache().keys(),
                private.policy().cache().keys(),
                "{kind:?}, round {t}"
            );
            assert_eq!(shared.policy().centers(), private.policy().centers(), "{kind:?}, round {t}");
            assert_eq!(
                shared.policy().current_center(),
                private.policy().current_center(),
                "{kind:?}, round {t}"
            );
        }
    }
    for (shared, private) in side_by_side.iter_mut().zip(&mut alone) {
        let (s, o) = (shared.snapshot(), private.snapshot());
        assert_eq!(
            (s.regret.to_bits(), s.switches, s.llm_calls),
            (o.regret.to_bits(), o.switches, o.llm_calls)
        );
        assert_eq!(shared.policy().diagnostics(), private.policy().diagnostics());
    }
    assert!(env.shared_net().elapsed_ms() > 0.0, "the shared net scanned the rounds before the question");
}
