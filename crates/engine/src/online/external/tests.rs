//! External policies by hand: what the policy sees, how its answers are charged, and every
//! refused answer (docs/SPEC-NOTES.md, "External policies").

use super::*;
use crate::answers::Label;
use crate::config::Params;
use crate::online::sim::{run_trace, Environment};
use crate::online::PolicyKind;
use crate::space::Points;
use crate::trace::{Queries, Trace, TraceLabels};
use std::sync::Arc;

/// Three points on a line: p0 and p1 are 0.01 apart, p2 is 1 from p0; costs 0.9, 0.5, 0.7;
/// labels A, B, C.
fn line_trace(arrivals: Vec<u32>) -> Trace {
    let universe = Points::from_rows(&[[0.0f32, 0.0], [0.01, 0.0], [1.0, 0.0]]).unwrap();
    let cost = [0.9, 0.5, 0.7];
    let n = arrivals.len();
    let labels = vec![Label::Text("A".into()), Label::Text("B".into()), Label::Text("C".into())];
    Trace {
        dist_scale: 1.0,
        universe: Some(universe),
        universe_cost: Some(cost.to_vec()),
        cost: arrivals.iter().map(|&i| cost[i as usize]).collect(),
        arrivals: Queries::Indices(arrivals),
        eta: vec![0.0; n],
        z: Vec::new(),
        eval: Queries::Indices(vec![0, 1, 2]),
        eval_cost: cost.to_vec(),
        offline: None,
        meta: serde_json::Value::Null,
        labels: TraceLabels { universe: Some(labels), ..TraceLabels::default() },
        tenants: None,
    }
}

fn params(horizon: usize) -> Params {
    Params { horizon, k: 2, threshold_tau: 0.05, epsilon: 0.1, ..Params::default() }
}

/// What a scripted policy was shown each round: (t, members, distances), and its costs.
#[derive(Default)]
struct Seen {
    rounds: Vec<(usize, Vec<u64>, Vec<f64>)>,
    costs: Vec<(usize, f64)>,
    setup: Option<Setup>,
}

/// Answers from a script: `decide[t]` for round t, `observe[t]` after an LLM call in round t.
struct Script {
    decide: Vec<Result<Answer, String>>,
    observe: Vec<Result<Option<Vec<u64>>, String>>,
    seen: std::rc::Rc<std::cell::RefCell<Seen>>,
    refuse_start: bool,
}

impl ExternalPolicy for Script {
    fn start(&mut self, setup: &Setup) -> Result<(), String> {
        self.seen.borrow_mut().setup = Some(*setup);
        if self.refuse_start {
            return Err("no setup wanted".into());
        }
        Ok(())
    }
    fn decide(&mut self, r: &ExternalRound) -> Result<Answer, String> {
        self.seen.borrow_mut().rounds.push((r.t, r.members.to_vec(), r.distances.to_vec()));
        self.decide[r.t].clone()
    }
    fn observe(&mut self, t: usize, cost: f64) -> Result<Option<Vec<u64>>, String> {
        self.seen.borrow_mut().costs.push((t, cost));
        self.observe[t].clone()
    }
    fn explain(&mut self) -> Option<String> {
        Some(format!("seen {} rounds", self.seen.borrow().rounds.len()))
    }
}

type Shared = std::rc::Rc<std::cell::RefCell<Seen>>;

fn script(
    decide: Vec<Result<Answer, String>>,
    observe: Vec<Result<Option<Vec<u64>>, String>>,
) -> (Box<dyn ExternalPolicy>, Shared) {
    let seen = Shared::default();
    (Box::new(Script { decide, observe, seen: seen.clone(), refuse_start: false }), seen)
}

fn run_on(trace: &Trace, p: Box<dyn ExternalPolicy>) -> ExternalRun {
    let checked = params(trace.horizon()).check().unwrap();
    let env = Arc::new(Environment::from_trace(trace, &checked).unwrap());
    ExternalRun::new(env, p, "scripted", &checked, 1).unwrap()
}

use Answer::{CallLlm, Serve};

/// Arrivals p0 p1 p0 p2 p1, k = 2, by hand:
/// - t0: empty cache; calls the LLM (0.9), then caches round 0 (its own arrival: no fetch).
/// - t1 (p1): sees [0] at 0.01; serves member 0: φ(0.01), label A vs B: wrong. A switch (∅ → {0}).
/// - t2 (p0): sees [0] at 0; calls the LLM (0.9), then caches [0, 1]: round 1's answer is fetched.
/// - t3 (p2): sees [0, 1] at 1 and 0.99; serves member 0 (not the nearest): φ(1), A vs C: wrong.
///   A switch ({0} → {0, 1}) charged c(p1) = 0.5.
/// - t4 (p1): sees [0, 1] at 0.01 and 0; serves member 1: φ(0) = 0, B vs B: right.
#[test]
fn a_scripted_policy_by_hand() {
    let trace = line_trace(vec![0, 1, 0, 2, 1]);
    let (p, seen) = script(
        vec![Ok(CallLlm), Ok(Serve(0)), Ok(CallLlm), Ok(Serve(0)), Ok(Serve(1))],
        vec![Ok(Some(vec![0])), Ok(None), Ok(Some(vec![0, 1])), Ok(None), Ok(None)],
    );
    let mut run = run_on(&trace, p);
    let phi = run.environment().eval.mismatch;
    let outcomes: Vec<_> = (0..5).map(|t| run.try_step(&trace.arrival(t)).unwrap()).collect();
    assert_eq!(run.explain().as_deref(), Some("seen 5 rounds"));
    let llm: Vec<bool> = outcomes.iter().map(|o| o.llm).collect();
    assert_eq!(llm, [true, false, true, false, false]);
    let switched: Vec<bool> = outcomes.iter().map(|o| o.switched).collect();
    assert_eq!(switched, [false, true, false, true, false]);
    let wrong: Vec<_> = outcomes.iter().map(|o| o.wrong).collect();
    assert_eq!(wrong, [None, Some(true), None, Some(true), Some(false)]);
    let d = |a: [f32; 2], b: [f32; 2]| run.environment().metric.dist(&a, &b);
    let (p0, p1, p2) = ([0.0, 0.0], [0.01, 0.0], [1.0, 0.0]);
    let realised: Vec<f64> = outcomes.iter().map(|o| o.realised).collect();
    assert_eq!(realised, [0.9, phi.phi(d(p1, p0)), 0.9, phi.phi(d(p2, p0)), 0.0]);
    // What it saw: members in its own order, their distances, the costs of its LLM calls.
    let s = seen.borrow();
    let members: Vec<Vec<u64>> = s.rounds.iter().map(|r| r.1.clone()).collect();
    assert_eq!(members, [vec![], vec![0], vec![0], vec![0, 1], vec![0, 1]]);
    assert_eq!(s.rounds[3].2, [d(p2, p0), d(p2, p1)]);
    assert_eq!(s.rounds[4].2, [d(p1, p0), 0.0]);
    assert_eq!(s.costs, [(0, 0.9), (2, 0.9)]);
    assert_eq!(s.setup, Some(Setup { k: 2, dim: 2, horizon: 5, tau: 0.05 }));
    let last = run.snapshot();
    assert_eq!((last.t, last.llm_calls, last.switches, last.switch_cost), (5, 2, 2, 0.5));
    assert_eq!((last.wrong_hits, last.hit_precision), (Some(2), Some(1.0 / 3.0)));
    assert_eq!(last.error_rate, Some(0.4));
    assert_eq!(last.realised_cost, realised.iter().sum::<f64>());
    assert_eq!(last.hit_rate, 0.6);
    assert!((last.regret - (last.loss_gap + last.switch_cost)).abs() < 1e-12);
    assert_eq!(run.result().policy, "scripted");
}

/// The same answers the threshold cache gives are charged as the threshold cache is: its run,
/// scripted (p0 p1 p0 p2 p1 with τ = 0.05, k = 2: miss, hit, hit, miss, hit), matches it.
#[test]
fn the_threshold_cache_scripted_is_the_threshold_cache() {
    let trace = line_trace(vec![0, 1, 0, 2, 1]);
    let (p, _) = script(
        vec![Ok(CallLlm), Ok(Serve(0)), Ok(Serve(0)), Ok(CallLlm), Ok(Serve(0))],
        vec![Ok(Some(vec![0])), Ok(None), Ok(None), Ok(Some(vec![0, 3])), Ok(None)],
    );
    let mut run = run_on(&trace, p);
    for t in 0..5 {
        run.try_step(&trace.arrival(t)).unwrap();
    }
    let built_in = run_trace(&trace, &params(5).check().unwrap(), &[PolicyKind::Threshold]).unwrap();
    let untimed = |cps: &[crate::online::sim::Checkpoint]| -> Vec<_> {
        cps.iter().map(|c| crate::online::sim::Checkpoint { wall_ms: 0.0, ..c.clone() }).collect()
    };
    assert_eq!(untimed(&run.result().checkpoints), untimed(&built_in[0].checkpoints));
}

/// Each refused answer: the error names the round and the fault, the policy stops (the same
/// error again, nothing more played), and the run's metrics are those of the rounds before.
#[test]
fn hostile_answers_stop_the_policy_naming_round_and_fault() {
    let trace = line_trace(vec![0, 1, 0, 2, 1]);
    let fine = |n: usize| -> Vec<Result<Answer, String>> { vec![Ok(CallLlm); n] };
    let keep = |n: usize| -> Vec<Result<Option<Vec<u64>>, String>> { vec![Ok(Some(vec![0])); n] };
    let with = |mut v: Vec<Result<Answer, String>>, t: usize, a| {
        v[t] = a;
        v
    };
    let with_o = |mut v: Vec<Result<Option<Vec<u64>>, String>>, t: usize, a| {
        v[t] = a;
        v
    };
    // (decide script, observe script, the fault, its round, rounds played)
    let cases: Vec<(_, _, Fault, usize, usize)> = vec![
        (with(fine(5), 0, Ok(Serve(0))), keep(5), Fault::NoSuchMember { member: 0, size: 0 }, 0, 0),
        (with(fine(5), 2, Ok(Serve(1))), keep(5), Fault::NoSuchMember { member: 1, size: 1 }, 2, 2),
        (with(fine(5), 1, Err("boom".into())), keep(5), Fault::Policy("boom".into()), 1, 1),
        (fine(5), with_o(keep(5), 2, Ok(Some(vec![0, 1, 2]))), Fault::TooMany { size: 3, k: 2 }, 2, 3),
        (fine(5), with_o(keep(5), 2, Ok(Some(vec![3]))), Fault::NotArrived { key: 3, t: 2 }, 2, 3),
        (fine(5), with_o(keep(5), 3, Ok(Some(vec![1, 1]))), Fault::Duplicate { key: 1 }, 3, 4),
        (fine(5), with_o(keep(5), 1, Err("bad cache".into())), Fault::Policy("bad cache".into()), 1, 2),
    ];
    for (decide, observe, fault, round, played) in cases {
        let (p, seen) = script(decide, observe);
        let mut run = run_on(&trace, p);
        let mut first = None;
        for t in 0..5 {
            if let Err(e) = run.try_step(&trace.arrival(t)) {
                first.get_or_insert((t, e));
            }
        }
        let want = PolicyError { round, fault: fault.clone() };
        assert_eq!(first, Some((round, want.clone())), "{fault:?}");
        assert_eq!(run.stopped(), Some(&want));
        assert_eq!(run.rounds(), played, "{fault:?}");
        assert_eq!(run.snapshot().t, played);
        assert_eq!(seen.borrow().rounds.len(), round + 1, "{fault:?}: asked after it stopped");
        assert_eq!(run.explain(), None, "a stopped policy is not asked to explain");
        // The cache a refused answer named was not taken.
        if played > round {
            assert_eq!(run.simulation().policy().cache().keys(), [0], "{fault:?}");
        }
        assert!(want.to_string().starts_with(&format!("the policy stopped in round {round}: ")));
    }
}

/// A refused setup stops the policy before round 0; the messages read as sentences.
#[test]
fn a_refused_setup_stops_it_in_round_0_and_messages_read() {
    let trace = line_trace(vec![0, 1]);
    let seen = Shared::default();
    let p = Script { decide: vec![], observe: vec![], seen: seen.clone(), refuse_start: true };
    let mut run = run_on(&trace, Box::new(p));
    let e = run.try_step(&trace.arrival(0)).unwrap_err();
    assert_eq!(e.to_string(), "the policy stopped in round 0: no setup wanted");
    assert!(seen.borrow().rounds.is_empty());
    let msg = |f: Fault| PolicyError { round: 7, fault: f }.to_string();
    assert_eq!(
        msg(Fault::NoSuchMember { member: 3, size: 2 }),
        "the policy stopped in round 7: it served from cache member 3, but its cache holds members 0 to 1"
    );
    assert_eq!(
        msg(Fault::NoSuchMember { member: 0, size: 0 }),
        "the policy stopped in round 7: it served from cache member 0, but its cache is empty"
    );
    assert_eq!(
        msg(Fault::TooMany { size: 4, k: 3 }),
        "the policy stopped in round 7: its new cache has 4 members, more than k = 3"
    );
    assert_eq!(
        msg(Fault::NotArrived { key: 9, t: 7 }),
        "the policy stopped in round 7: its new cache names round 9, which has not arrived (only rounds 0 to 7 have)"
    );
    assert_eq!(
        msg(Fault::Duplicate { key: 2 }),
        "the policy stopped in round 7: its new cache names round 2 twice"
    );
}

/// Reordering the same members is no switch, and the policy sees its own order afterwards.
#[test]
fn a_new_order_of_the_same_members_is_seen_and_is_no_switch() {
    let trace = line_trace(vec![0, 2, 1, 0]);
    let (p, seen) = script(
        vec![Ok(CallLlm), Ok(CallLlm), Ok(CallLlm), Ok(Serve(1))],
        vec![Ok(Some(vec![0])), Ok(Some(vec![0, 1])), Ok(Some(vec![1, 0])), Ok(None)],
    );
    let mut run = run_on(&trace, p);
    let switched: Vec<bool> = (0..4).map(|t| run.try_step(&trace.arrival(t)).unwrap().switched).collect();
    assert_eq!(switched, [false, true, true, false]);
    assert_eq!(seen.borrow().rounds[3].1, [1, 0]);
    assert_eq!(run.snapshot().switch_cost, 0.0, "rounds 0 and 1 were stored as they were paid for");
}
