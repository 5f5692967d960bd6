//! The live run (`csc_engine::live::LiveRun`, the page's live view): what fired in a round on a
//! hand-checkable world, and a differential test that it plays exactly what `online::sim` plays —
//! the same decisions and caches every round, the same metrics.
//!
//! The tiny world (as tests/online.rs): three exact query points (0,0), (1,0), (0,1) with costs
//! 0.9, 0.5, 0.1, no noise, arrivals cycling 0, 1, 2, …, `D = √2`, ε = 0.1, so that every pair
//! of points is 1/√2 ≥ ε apart: rounds 0, 1, 2 each found a center (Alg. 3 lines 5–11) and no
//! later round does.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::answers::{equivalent, Label};
use csc_engine::config::Params;
use csc_engine::dataset::Dataset;
use csc_engine::live::{LiveRun, PolicyRound, RoundEvent};
use csc_engine::online::sim::{run_trace, Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::projection::Projection;
use csc_engine::space::Points;
use csc_engine::stream::{generate_trace, ArrivalModel};
use csc_engine::trace::{Trace, TraceLabels};
use std::sync::Arc;

#[path = "support/tiny_world.rs"]
mod tiny_world;
use tiny_world::{COST, ROWS};

fn tiny_dataset() -> Arc<Dataset> {
    let points = Points::from_rows(&ROWS).unwrap();
    let texts = vec!["zero?".to_string(), "one?".into(), "two?".into()];
    let mut d =
        Dataset::new("tiny", points, vec![1, 2, 3], texts, vec![0; 3], vec!["tiny".into()], 0.1).unwrap();
    d.costs = COST.to_vec();
    d.dist_scale = 2f64.sqrt();
    Arc::new(d)
}

/// The tiny world's trace with gold answers: rows 0 and 2 answer "paris", row 1 "rome".
fn tiny_trace(horizon: usize) -> Trace {
    let gold = ["paris", "rome", "paris"].map(|a| Label::answers(&[a])).to_vec();
    Trace {
        labels: TraceLabels { universe: Some(gold), ..TraceLabels::default() },
        ..tiny_world::tiny_trace(horizon)
    }
}

fn tiny_run(kinds: &[PolicyKind], horizon: usize, k: usize) -> LiveRun {
    let p = Params { k, horizon, epsilon: 0.1, ..Params::default() };
    LiveRun::from_trace(tiny_dataset(), None, tiny_trace(horizon), &p.clone().check().unwrap(), kinds)
        .unwrap()
}

/// CLCB-SC-LS-Cont with k = 1, T = 30, by hand (Algs. 3–5):
/// - round 0: the net is empty, so x_0 founds center 0 (Alg. 3 l. 5–11) and forces a switch:
///   Reverse Greedy over one center keeps it, so key 0 goes in (Alg. 4 l. 17–18). No stage has
///   any round yet, so none advances. The decision compares the prior LCB `c̲ = −B·σ < 0` with
///   `φ(d(x_0, {x_0})) = φ(0) = 0`: `c̲ ≤ φ`, the LLM is called (Alg. 5 l. 4–6).
/// - round 1: x_1 founds center 1. The global stage holds round 0: `1 ≥ 1 + √(T·0)`, it advances
///   (Alg. 3 l. 16–18); center 0's local stage holds round 0's call: `1 ≥ 1 + √(T/m·0)`, it
///   advances (l. 12–15); center 1's is empty. So one local advance and the global one.
/// - round 2: x_2 founds center 2; rounds 3… find no new center (every point is a center).
#[test]
fn hand_computed_events_of_clcb_sc_ls_cont() {
    let mut run = tiny_run(&[PolicyKind::ClcbScLsCont, PolicyKind::Greedy], 30, 1);
    assert_eq!((run.horizon(), run.round()), (30, 0));
    // L(∅) = mean cost of E = (0.9 + 0.5 + 0.1)/3; L(M_orc) = L({c0}) = (0 + 0.5 + 0.1)/3.
    assert!((run.no_cache_loss() - 0.5).abs() < 1e-12, "{}", run.no_cache_loss());
    assert!((run.oracle_loss() - 0.2).abs() < 1e-12, "{}", run.oracle_loss());
    let r0 = run.step(1).rounds.remove(0);
    assert_eq!((r0.t, r0.xy), (0, [0.0, 0.0]));
    let e = &r0.policies[0];
    assert_eq!(
        e.events,
        [RoundEvent::NewCenter { center: 0 }, RoundEvent::Switch { inserted: vec![0], removed: vec![] }]
    );
    assert!(e.swapped());
    assert_eq!((e.why.inserted.as_slice(), e.why.removed.as_slice()), (&[0u64][..], &[][..]));
    assert_eq!((e.why.before, e.why.before_size), (None, 0));
    assert_eq!(e.why.nearest, Some((0, 0.0)));
    let lcb = e.why.acting_cost.unwrap();
    assert!(lcb < 0.0, "the prior LCB −B·σ is negative: {lcb}");
    assert!(r0.policies[0].outcome.llm && r0.policies[0].outcome.switched);
    assert_eq!(r0.policies[0].outcome.phi, 0.0);
    assert_eq!(r0.policies[0].outcome.realised, 0.9);
    // Greedy grows the same net; it has no stages and re-ranks every round (no rebuild event).
    assert_eq!(
        r0.policies[1].events,
        [RoundEvent::NewCenter { center: 0 }, RoundEvent::Switch { inserted: vec![0], removed: vec![] }]
    );

    let r1 = run.step(1).rounds.remove(0);
    let e = &r1.policies[0];
    // A new center, one local stage and the global one; the switch ran (a new center forces it,
    // Alg. 3 line 19): it either changed the cache or rebuilt it unchanged, never both.
    assert_eq!(
        e.events[..3],
        [
            RoundEvent::NewCenter { center: 1 },
            RoundEvent::LocalStages { advanced: 1 },
            RoundEvent::GlobalStage
        ]
    );
    assert_eq!(e.events.len(), 4);
    assert!(matches!(e.events[3], RoundEvent::Switch { .. } | RoundEvent::Rebuilt), "{:?}", e.events);
    assert_eq!(e.why.before, Some((0, 1.0 / 2f64.sqrt())));
    assert_eq!(r1.policies[1].events[0], RoundEvent::NewCenter { center: 1 });

    let r2 = run.step(1).rounds.remove(0);
    assert!(r2.policies.iter().all(|p| p.events[0] == RoundEvent::NewCenter { center: 2 }));
    let rest = run.step(100).rounds;
    assert_eq!(rest.len(), 27, "the horizon stops the run");
    assert_eq!(run.step(5).rounds.len(), 0);
    for r in &rest {
        for p in &r.policies {
            assert!(
                !p.events.iter().any(|e| matches!(e, RoundEvent::NewCenter { .. })),
                "round {}: every point is already a center",
                r.t
            );
            // No swap without a switch, and the cache that served is the one the arrival met.
            if !p.swapped() {
                assert_eq!(p.why.before, p.why.nearest, "round {}", r.t);
            }
        }
        // Alg. 5 lines 4–6 on the reported numbers: call iff c̲ ≤ φ.
        let p = &r.policies[0];
        assert_eq!(p.outcome.llm, p.why.acting_cost.unwrap() <= p.outcome.phi, "round {}", r.t);
    }
    // The questions and gold answers of played rounds (SPEC §14), none for unplayed ones.
    assert_eq!(run.round_text(4).as_deref(), Some("one?"));
    assert_eq!(run.round_answers(5), Some(vec!["paris".to_string()]));
    assert_eq!(run.round_answers(30), None);
    assert_eq!(run.round_text(30), None);
}

/// A question asked as the next round replaces the stream's arrival there: its text and no gold
/// answer; the round after it plays the stream again.
#[test]
fn an_asked_question_is_the_next_round() {
    let mut run = tiny_run(&[PolicyKind::ClcbScLsCont], 10, 1);
    run.step(3);
    let asked = run.ask(vec![0.0, 0.9], 3, "near two?".into()).unwrap();
    assert_eq!((asked.round.t, run.round()), (3, 4));
    assert_eq!(asked.cost, 0.1 + 0.9 * (3.0 - 1.0) / 2.0);
    assert_eq!(asked.universe[0].0, 2, "(0, 1) is the nearest universe point");
    assert_eq!(run.round_text(3).as_deref(), Some("near two?"));
    assert_eq!(run.round_answers(3), None);
    assert!(run.ask(vec![0.0], 3, String::new()).unwrap_err().to_string().contains("2"));
    assert!(run.ask(vec![f32::NAN, 0.0], 3, String::new()).is_err());
    assert_eq!(run.step(1).rounds[0].t, 4);
    run.step(10);
    assert!(run.ask(vec![0.0, 0.0], 3, String::new()).unwrap_err().to_string().contains("horizon"));
}

/// Bad indices and setups are errors, never panics.
#[test]
fn bad_input_is_an_error() {
    let p = Params { k: 1, horizon: 5, epsilon: 0.1, ..Params::default() };
    assert!(
        LiveRun::from_trace(tiny_dataset(), None, tiny_trace(5), &p.clone().check().unwrap(), &[]).is_err()
    );
    let mut run = tiny_run(&[PolicyKind::Greedy], 5, 1);
    assert!(run.cache(1).is_err() && run.centers(3).is_err() && run.curves(2).is_err());
    assert!(run.heatmap(0, 8).is_err(), "Greedy has no kernel model");
    assert!(run.heatmap(0, 1000).is_err());
}

/// The differential test: on the plane (and synthetic, with labels, through a projection) every
/// policy plays in `LiveRun` exactly what it plays alone in `online::sim` — the same outcome and
/// the same cache in every round, the same metrics (within 1e-9; they are in fact equal) as
/// `run_trace` — and the events say what the round did: a new center exactly when the arrival is
/// farther than ε from every center so far (Alg. 3 line 5), the members swapped exactly the
/// change of the cache, the hit's served item judged wrong exactly when its gold answer differs.
#[test]
fn plays_exactly_what_online_sim_plays() {
    let plane = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let synthetic = Arc::new(csc_engine::dataset::synthetic::universe(0.01).unwrap());
    for (d, seed) in [(plane, 5), (synthetic, 9)] {
        let p = Params { horizon: 400, n_eval: 200, seed, epsilon: 0.15, k: 4, ..Params::default() };
        let trace = generate_trace(
            d.clone(),
            ArrivalModel::default_for(&d, &p).unwrap(),
            &p.clone().check().unwrap(),
        )
        .unwrap();
        let kinds: Vec<PolicyKind> =
            PolicyKind::ALL.into_iter().filter(|k| !k.needs_labels() || trace.has_labels()).collect();
        let projection = (d.points.dim() != 2).then(|| Projection::fit(&d.points).unwrap());
        let mut run =
            LiveRun::from_trace(d.clone(), projection, trace.clone(), &p.clone().check().unwrap(), &kinds)
                .unwrap();
        let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
        let mut alone: Vec<Simulation> = kinds
            .iter()
            .map(|&k| Simulation::new(env.clone(), k, &p.clone().check().unwrap(), 0).unwrap())
            .collect();
        let mut centers: Vec<Vec<usize>> = vec![Vec::new(); kinds.len()];
        let (mut wrong_seen, mut swaps) = (0, 0);
        let mut t = 0;
        while t < p.horizon {
            // Batches of uneven sizes, as the page asks for them.
            let frame = run.step(1 + t % 7);
            assert_eq!(frame.round, run.round());
            for r in frame.rounds {
                assert_eq!(r.t, t);
                let a = trace.arrival(t);
                for (i, (pr, sim)) in r.policies.iter().zip(&mut alone).enumerate() {
                    let kind = kinds[i];
                    let before: Vec<u64> = sorted(sim.policy().cache().keys());
                    let o = sim.step(&a);
                    assert_eq!(pr.outcome, o, "{kind:?} round {t}");
                    let now = sorted(sim.policy().cache().keys());
                    let (k_live, _) = run.cache(i).unwrap();
                    if t + 1 == run.round() {
                        assert_eq!(sorted(&k_live), now, "{kind:?} round {t}");
                    }
                    let e = pr;
                    let fired = |f: fn(&RoundEvent) -> bool| e.events.iter().any(f);
                    let new_center = fired(|e| matches!(e, RoundEvent::NewCenter { .. }));
                    let stage =
                        fired(|e| matches!(e, RoundEvent::LocalStages { .. } | RoundEvent::GlobalStage));
                    let rebuilt = fired(|e| matches!(e, RoundEvent::Rebuilt));
                    // A rebuild is a switch that kept the cache: never with a swap.
                    assert!(!(rebuilt && e.swapped()), "{kind:?} round {t}");
                    if matches!(kind, PolicyKind::ClcbScLsCont | PolicyKind::ClcbScLs) {
                        // Alg. 3 line 19: the switch runs iff a center was founded or a stage ended.
                        assert_eq!(new_center || stage, rebuilt || e.swapped(), "{kind:?} round {t}");
                    }
                    if kind.keeps_net() {
                        let far = centers[i].iter().all(|&c| env.metric.dist(a.x, trace.x(c)) > p.epsilon);
                        assert_eq!(new_center, far, "{kind:?} round {t}");
                        if far {
                            let center = centers[i].len() as u32;
                            assert!(
                                e.events.contains(&RoundEvent::NewCenter { center }),
                                "{kind:?} round {t}"
                            );
                        }
                        if far {
                            centers[i].push(t);
                        }
                        let ins: Vec<u64> = now.iter().copied().filter(|k| !before.contains(k)).collect();
                        let out: Vec<u64> = before.iter().copied().filter(|k| !now.contains(k)).collect();
                        assert_eq!((&e.why.inserted, &e.why.removed), (&ins, &out), "{kind:?} round {t}");
                        assert_eq!(e.swapped(), o.switched, "{kind:?} round {t}");
                        swaps += usize::from(e.swapped());
                    } else {
                        assert!(!new_center, "{kind:?} keeps no net");
                    }
                    if !kind.acts_on_lcb() {
                        assert!(!stage && !rebuilt, "{kind:?} has no stages and no rebuild");
                    }
                    if o.wrong == Some(true) {
                        wrong_seen += 1;
                        let (key, _) = e.why.nearest.expect("a hit has a nearest member");
                        let theirs = trace.label(key as usize).unwrap();
                        assert!(!equivalent(trace.label(t).unwrap(), theirs), "{kind:?} round {t}");
                    }
                }
                t += 1;
            }
        }
        assert!(swaps > 0);
        if trace.has_labels() {
            assert!(wrong_seen > 0, "the synthetic stream serves some wrong answers");
        }
        let reference = run_trace(&trace, &p.clone().check().unwrap(), &kinds).unwrap();
        let live = run.results();
        for ((a, b), sim) in live.iter().zip(&reference).zip(&mut alone) {
            assert_eq!(a.policy, b.policy);
            assert_eq!(a.checkpoints.len(), b.checkpoints.len());
            for (x, y) in a.checkpoints.iter().chain([&a.last]).zip(b.checkpoints.iter().chain([&b.last])) {
                close(x, y, &a.policy);
            }
            close(&a.last, &sim.snapshot(), &a.policy);
            assert_eq!(a.diagnostics, b.diagnostics);
        }
        let counters = run.counters();
        for (c, r) in counters.iter().zip(&live) {
            close(c, &r.last, &r.policy);
        }
    }
}

/// A frame carries only what changed: concatenated, the frames' curve points are the run's whole
/// recorded history (each point once), and every frame's counters are the policies' metrics at
/// its round; a frame of 0 rounds plays nothing and carries no new point.
#[test]
fn frames_carry_new_curve_points_once() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let p = Params { horizon: 300, n_eval: 100, seed: 2, ..Params::default() };
    let kinds = [PolicyKind::ClcbScLsCont, PolicyKind::Lfu];
    let mut run = LiveRun::new(
        d.clone(),
        None,
        ArrivalModel::default_for(&d, &p).unwrap(),
        &p.clone().check().unwrap(),
        &kinds,
    )
    .unwrap();
    let mut got: Vec<Vec<csc_engine::online::sim::Checkpoint>> = vec![Vec::new(); kinds.len()];
    let (mut t, mut frames) = (0, 0);
    while run.round() < run.horizon() {
        let f = run.step(1 + frames % 11);
        frames += 1;
        assert_eq!(f.rounds.iter().map(|r| r.t).collect::<Vec<_>>(), (t..f.round).collect::<Vec<_>>());
        t = f.round;
        for (i, new) in f.curves.into_iter().enumerate() {
            assert!(new.iter().all(|c| c.t <= f.round), "no point of a later round");
            assert_eq!(f.counters[i].t, f.round);
            got[i].extend(new);
        }
        let idle = run.step(0);
        assert!(idle.rounds.is_empty() && idle.curves.iter().all(Vec::is_empty) && idle.round == t);
    }
    for (i, r) in run.results().iter().enumerate() {
        assert_eq!(got[i].len(), r.checkpoints.len(), "{}", r.policy);
        for (a, b) in got[i].iter().zip(&r.checkpoints) {
            close(a, b, &r.policy);
        }
    }
}

/// The policies record what they did while they step: the events are those the policies' own
/// counters imply (no state is diffed to find them) — summed over a run, the local and global
/// stage advances of CLCB-SC-LS-Cont are its `stage_advances`, its new centers its `centers`,
/// and CLCB-Frozen-Cont's stage ends its `stage − 1`.
#[test]
fn events_add_up_to_the_policies_counters() {
    let d = Arc::new(csc_engine::dataset::plane::universe().unwrap());
    let p = Params { horizon: 500, n_eval: 100, seed: 3, ..Params::default() };
    let kinds = [PolicyKind::ClcbScLsCont, PolicyKind::ClcbFrozenCont];
    let mut run = LiveRun::new(
        d.clone(),
        None,
        ArrivalModel::default_for(&d, &p).unwrap(),
        &p.clone().check().unwrap(),
        &kinds,
    )
    .unwrap();
    let rounds = run.step(500).rounds;
    let count = |i: usize, f: &dyn Fn(&RoundEvent) -> u64| -> u64 {
        rounds.iter().map(|r| r.policies[i].events.iter().map(f).sum::<u64>()).sum()
    };
    let adv = |e: &RoundEvent| match e {
        RoundEvent::LocalStages { advanced } => u64::from(*advanced),
        RoundEvent::GlobalStage => 1,
        _ => 0,
    };
    let centers = |e: &RoundEvent| u64::from(matches!(e, RoundEvent::NewCenter { .. }));
    let res = run.results();
    match &res[0].counters {
        csc_engine::online::Diagnostics::LowSwitch(l) => {
            assert_eq!(count(0, &adv), l.stage_advances);
            assert_eq!(count(0, &centers), l.centers as u64);
        }
        other => panic!("{other:?}"),
    }
    match &res[1].counters {
        csc_engine::online::Diagnostics::Frozen(f) => assert_eq!(count(1, &adv), u64::from(f.stage - 1)),
        other => panic!("{other:?}"),
    }
    assert!(count(1, &centers) == 0, "CLCB-Frozen-Cont keeps no ε-net");
    let _: &PolicyRound = &rounds[0].policies[0];
}

/// What the live view writes about a run comes from the run: the canvas caption names the
/// data's dimension and the variance its projection keeps (synthetic's PCA, measured here
/// again), the plane is drawn as is; a center's details name the run's k, never the symbol.
#[test]
fn the_captions_and_cache_rules_name_the_runs_numbers() {
    let synthetic = Arc::new(csc_engine::dataset::synthetic::universe(0.01).unwrap());
    let p = Params { horizon: 50, n_eval: 50, k: 7, ..Params::default() };
    let projection = Projection::fit(&synthetic.points).unwrap();
    let kept = 100.0 * (projection.explained[0] + projection.explained[1]);
    assert!(kept > 1.0 && kept < 99.0, "{kept}");
    let kinds = [PolicyKind::ClcbScLsCont, PolicyKind::Lfu, PolicyKind::Threshold];
    let trace = generate_trace(
        synthetic.clone(),
        ArrivalModel::default_for(&synthetic, &p).unwrap(),
        &p.clone().check().unwrap(),
    )
    .unwrap();
    let run =
        LiveRun::from_trace(synthetic.clone(), Some(projection), trace, &p.clone().check().unwrap(), &kinds)
            .unwrap();
    assert_eq!(
        run.caption(),
        format!(
            "2-D PCA of {}-d embeddings: keeps {kept:.0}% of the variance; nearby points here may be far apart",
            synthetic.points.dim()
        )
    );
    let rules = run.cache_rules();
    assert!(rules[0].ends_with("kept 7 others"), "{}", rules[0]);
    assert!(rules[1].starts_with("LFU keeps the 7 most requested cells"), "{}", rules[1]);
    assert_eq!(rules[2], "", "the threshold cache keeps no ε-net");
    assert!(tiny_run(&[PolicyKind::Greedy], 5, 1).caption().contains("2-D data drawn as is"));
}

fn sorted(keys: &[u64]) -> Vec<u64> {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v
}

/// Every metric of two checkpoints within 1e-9 (the time spent is not a metric of the run).
fn close(a: &csc_engine::online::sim::Checkpoint, b: &csc_engine::online::sim::Checkpoint, who: &str) {
    let pairs = [
        (a.regret, b.regret),
        (a.avg_regret, b.avg_regret),
        (a.realised_cost, b.realised_cost),
        (a.avg_realised_cost, b.avg_realised_cost),
        (a.hit_rate, b.hit_rate),
        (a.switch_cost, b.switch_cost),
        (a.loss_gap, b.loss_gap),
        (a.loss, b.loss),
        (a.error_rate.unwrap_or(0.0), b.error_rate.unwrap_or(0.0)),
        (a.est_rmse.unwrap_or(0.0), b.est_rmse.unwrap_or(0.0)),
    ];
    for (i, (x, y)) in pairs.into_iter().enumerate() {
        assert!((x - y).abs() <= 1e-9, "{who} at t = {}: metric {i}: {x} vs {y}", a.t);
    }
    assert_eq!(
        (a.t, a.llm_calls, a.switches, a.cache_size, a.wrong_hits),
        (b.t, b.llm_calls, b.switches, b.cache_size, b.wrong_hits),
        "{who}"
    );
}
