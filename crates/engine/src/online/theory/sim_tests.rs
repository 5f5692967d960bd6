//! The theory quantities on whole simulated runs: `γ_t` against the dense reference, the net
//! quantities against what the policy's own net holds.

use crate::config::Params;
use crate::dataset::Dataset;
use crate::krr::{reference::gamma_dense, RbfKernel};
use crate::online::sim::{Environment, Simulation};
use crate::online::PolicyKind;
use crate::space::{bit_key, Points};
use crate::stream::{generate_trace, ArrivalModel};
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// 40 random unit vectors in 8 dimensions with random token counts.
fn random_dataset(seed: u64) -> Arc<Dataset> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut points = Points::new(8).unwrap();
    for _ in 0..40 {
        let v: Vec<f32> = (0..8).map(|_| rng.random::<f32>() - 0.5).collect();
        let n = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        points.push(&v.iter().map(|a| a / n).collect::<Vec<_>>()).unwrap();
    }
    let tokens: Vec<u32> = (0..40).map(|_| rng.random_range(1..200)).collect();
    let texts = (0..40).map(|i| format!("q{i}")).collect();
    Arc::new(Dataset::new("random", points, tokens, texts, vec![0; 40], vec!["r".into()], 0.01).unwrap())
}

/// γ_t of every checkpoint equals `½ log det(I + K_t/λ)` of the dense reference over the
/// points the LLM was called on so far, within 1e-9: on jittered arrivals (the row-per-observation
/// learner) and on exact repeats (the merged learner, which must have been used).
#[test]
fn gamma_equals_the_dense_reference_on_random_data() {
    for (seed, exact) in [(1u64, false), (2, true), (3, true)] {
        let d = random_dataset(seed);
        let p = Params { horizon: 240, n_eval: 200, k: 3, epsilon: 0.3, seed, ..Params::default() };
        let model = if exact { ArrivalModel::Popularity } else { ArrivalModel::Jittered { sigma: 0.05 } };
        let trace = generate_trace(d.clone(), model, &p.clone().check().unwrap()).unwrap();
        let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
        let mut sim =
            Simulation::new(env.clone(), PolicyKind::ClcbScLsCont, &p.clone().check().unwrap(), 1).unwrap();
        let mut obs = Points::new(8).unwrap();
        let mut distinct = std::collections::HashSet::new();
        let kernel = RbfKernel::new(p.kernel_length).unwrap();
        let mut compared = 0;
        for t in 0..trace.horizon() {
            let a = trace.arrival(t);
            if sim.step(&a).llm {
                obs.push(a.x).unwrap();
                distinct.insert(bit_key(a.x));
            }
            if t % 20 == 19 || t + 1 == trace.horizon() {
                let got = sim.checkpoints().last().unwrap().theory.unwrap().gamma.unwrap();
                let want = gamma_dense(&obs, kernel, env.metric, p.lambda);
                assert!((got - want).abs() < 1e-9, "seed {seed}, t = {}: γ {got} vs dense {want}", t + 1);
                compared += 1;
            }
        }
        assert!(obs.len() > 10 && compared == 12, "seed {seed}: {} observations", obs.len());
        assert_eq!(exact, distinct.len() < obs.len(), "seed {seed}: exact arrivals repeat an observation");
    }
}

/// On a run: `m_max` is the policy's net size and `m_eff` that of a plain ε-net's counts over the
/// same arrivals (bit for bit), `ε_t ≤ ε`, `1 ≤ m_eff ≤ m_max`, the window is the
/// checkpoint interval, `Σ τ_u ≥ m_max`, and β_t is Lemma 5.2's radius at γ_t; a baseline without
/// a kernel has the net quantities but no γ; a policy without a net has none of them.
#[test]
fn net_quantities_on_a_run() {
    let d = random_dataset(4);
    let p = Params { horizon: 300, n_eval: 200, k: 3, epsilon: 0.3, seed: 4, ..Params::default() };
    let trace = generate_trace(d.clone(), ArrivalModel::Popularity, &p.clone().check().unwrap()).unwrap();
    let env = Arc::new(Environment::from_trace(&trace, &p.clone().check().unwrap()).unwrap());
    // A plain ε-net of the same arrivals, scanned on its own: after each round t, its m_eff and
    // size. The policies' nets (whose counts the probe reads) must give the same bits.
    let mut plain =
        crate::epsilon_net::EpsilonNet::new(trace.arrival(0).x.len(), p.epsilon, env.metric).unwrap();
    let mut after: Vec<(Option<f64>, usize)> = vec![(None, 0)];
    for t in 0..trace.horizon() {
        plain.insert(trace.arrival(t).x).unwrap();
        after.push((crate::online::theory::effective_number(plain.counts()), plain.len()));
    }
    for kind in [PolicyKind::ClcbScLsCont, PolicyKind::Lfu, PolicyKind::Threshold] {
        let mut sim = Simulation::new(env.clone(), kind, &p.clone().check().unwrap(), 30).unwrap();
        for t in 0..trace.horizon() {
            sim.step(&trace.arrival(t));
        }
        let r = sim.result();
        assert_eq!(r.checkpoints.len(), 10);
        for c in &r.checkpoints {
            let th = c.theory.unwrap();
            assert_eq!(th.t, c.t);
            if kind == PolicyKind::Threshold {
                assert_eq!((th.m_max, th.m_eff, th.eps_t, th.gamma), (None, None, None, None));
                continue;
            }
            let (m, eps) = (th.m_max.unwrap() as f64, th.eps_t.unwrap());
            assert!((0.0..=p.epsilon).contains(&eps), "{eps}");
            assert_eq!(th.window, 30);
            assert!((1.0 - 1e-12..=m + 1e-9).contains(&th.m_eff.unwrap()));
            assert_eq!((th.m_eff, th.m_max), (after[c.t].0, Some(after[c.t].1)), "t = {}", c.t);
            if kind == PolicyKind::ClcbScLsCont {
                let g = th.gamma.unwrap();
                let b = crate::krr::online_width_factor(g, p.b, p.noise_r, p.delta);
                assert_eq!(th.beta_t, Some(b));
                assert!(th.sum_tau.unwrap() >= m as u64);
            } else {
                assert_eq!((th.gamma, th.sum_tau), (None, None));
            }
        }
        if kind != PolicyKind::Threshold {
            let last = r.last.theory.unwrap();
            assert_eq!(last.m_max, r.counters.centers());
            assert_eq!(last.eps_t, r.checkpoints.last().unwrap().theory.unwrap().eps_t);
        }
    }
}
