//! A hand-worked run of SPEC §15 through the first fit, and its LRU admission.
//!
//! Arrival `t ≥ 1` is `s_t·e₀ + √(1 − s_t²)·e_t` in 12 dimensions with distance scale `D = 2`
//! (so `D·d` is the Euclidean distance and `s = 1 − ‖x − e₀‖²/2 = s_t`): its similarity to the
//! first arrival `e₀` is `s_t`, and to any other arrival `s_t·s_u < s_t`, so the first item is
//! always the nearest.

use super::*;
use crate::config::Params;
use crate::space::Metric;

const DIM: usize = 12;

fn arrival(t: usize, s: f64) -> Vec<f32> {
    let mut x = vec![0f32; DIM];
    x[0] = s as f32;
    if t > 0 {
        x[t] = (1.0 - s * s).sqrt() as f32;
    }
    x
}

/// The rounds: (similarity to `e₀`, label); label 1 is the first item's.
const ROUNDS: [(f64, i64); 8] =
    [(1.0, 1), (0.2, 1), (0.2, 2), (0.2, 3), (0.8, 1), (0.8, 1), (0.8, 6), (0.9, 1)];

/// Plays the rounds; returns the policy and whether each round called the LLM.
fn play(k: usize, seed: u64) -> (VCache, Vec<bool>) {
    let params = Params { k, seed, vcache_delta: 0.01, ..Params::default() };
    let ctx = Context::new(Metric::new(2.0).unwrap(), &params.clone().check().unwrap(), DIM).unwrap();
    let mut p = VCache::new(&ctx);
    let mut llm = Vec::new();
    for (t, &(s, l)) in ROUNDS.iter().enumerate() {
        let x = arrival(t, s);
        let label = Label::Class(l);
        let r =
            Round { t, x: &x, index: None, true_cost: 0.5, net: None, label: Some(&label), tenancy: None };
        let call = p.decide(&r);
        if call {
            p.observe(&r, 0.5);
        }
        llm.push(call);
    }
    (p, llm)
}

#[test]
fn first_fit_and_its_exploration_probability() {
    let (mut explored, mut exploited) = (0, 0);
    for seed in 0..300 {
        let (p, llm) = play(10, seed);
        // Rounds 0–6 explore (empty cache, then fewer than 6 observations); 2, 3 and 6 are
        // judged wrong and admitted.
        assert!(llm[..7].iter().all(|&c| c));
        let obs = p.observations();
        let first: Vec<(f64, bool)> = obs[0].1.iter().map(|o| (o.s, o.correct)).collect();
        let want = [(0.2, true), (0.2, false), (0.2, false), (0.8, true), (0.8, true), (0.8, false)];
        // Round 7 is the first fit: the two-point closed form of fit_tests.rs (t̂ = 0.5,
        // γ = 2.31, Var = 0.0675/ln²2), τ(s = 0.9, δ = 0.01) = 0.98206.
        assert_eq!(p.last_tau(), Some(0.98206));
        let v: f64 = rng(seed, Purpose::Policy).random();
        assert_eq!(llm[7], v <= 0.98206, "seed {seed}: v = {v}");
        if llm[7] {
            explored += 1;
            // A judged explore: (0.9, correct) appended, nothing admitted.
            assert_eq!(obs[0].1.len(), 7);
            assert_eq!(obs[0].1[6], Observation { s: 0.9, correct: true });
        } else {
            exploited += 1;
            assert_eq!(obs[0].1.len(), 6);
            assert_eq!(p.items[0].slot.last_use, 7);
        }
        assert_eq!(&first[..6], &want);
        assert_eq!(p.cache().keys(), &[0, 2, 3, 6]);
        match p.diagnostics() {
            Diagnostics::VCache(d) => {
                assert_eq!((d.items, d.tau_rounds, d.tau_mean), (4, 1, 0.98206));
                assert_eq!(d.explore_share, if llm[7] { 1.0 } else { 7.0 / 8.0 });
            }
            other => panic!("{other:?}"),
        }
    }
    // About 1.8% of seeds exploit (v > 0.98206).
    assert!(exploited > 0 && explored > exploited, "{explored} explored, {exploited} exploited");
}

#[test]
fn admission_evicts_the_least_recently_used() {
    // k = 2: round 3 evicts item 2 (last used in round 2; item 0 was judged in round 3), round 6
    // evicts item 3.
    let (p, _) = play(2, 0);
    assert_eq!(p.cache().keys(), &[0, 6]);
    // k = 1: every wrong judgement replaces the one item, even the one just judged; round 7
    // meets item 6 at s = 0.8·0.9 = 0.72, is judged wrong and replaces it, without observations.
    let (p, llm) = play(1, 0);
    assert!(llm.iter().all(|&c| c));
    assert_eq!(p.cache().keys(), &[7]);
    assert_eq!(p.observations(), vec![(7, vec![])]);
}

#[test]
fn an_unlabelled_arrival_is_served_but_teaches_nothing() {
    let ctx = Context::new(Metric::new(2.0).unwrap(), &Params::default().check().unwrap(), DIM).unwrap();
    let mut p = VCache::new(&ctx);
    let x = arrival(0, 1.0);
    let r = Round { t: 0, x: &x, index: None, true_cost: 0.5, net: None, label: None, tenancy: None };
    assert!(p.decide(&r));
    p.observe(&r, 0.5);
    assert!(p.cache().is_empty());
}
