//! The fast online engine (`csc_engine::online`: growing Cholesky with tracked centers, fast Reverse
//! Greedy, `EpsilonNet`, `StageClock`, `LossTracker`) against the plain implementation of the
//! pseudocode in `tests/support/plain_online/` (KRR re-solved from scratch at each use, Alg. 1
//! re-evaluating eq. 4 for every removal, linear scans, stages written out), on the same traces
//! and parameters: the same decision (LLM or cache) in every round, the same cache after every
//! switch, the same `L(M_t)`, and regret, costs and KRR errors equal to a relative 1e-9.
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/plain_online/mod.rs"]
mod plain_online;

use csc_engine::config::Params;
use csc_engine::dataset::{nq_trivia, plane, synthetic, Dataset};
use csc_engine::online::sim::{Checkpoint, Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, ArrivalModel};
use csc_engine::trace::Trace;
use plain_online::{kinds, Options, PlainEnv, PlainRun};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Relative tolerance for floats (dense refit vs growing Cholesky differ in the last bits).
const REL: f64 = 1e-9;

/// Rounds between checkpoints (each computes the KRR error at every center).
const RECORD_EVERY: usize = 25;
const OPTIONS: Options = Options { record_every: RECORD_EVERY, estimates: true };

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= REL * a.abs().max(b.abs()).max(1e-3)
}

/// One fast round as the simulator shows it.
struct FastRound {
    llm: bool,
    cache: Vec<u64>,
    loss: f64,
    realised: f64,
}

struct FastRun {
    rounds: Vec<FastRound>,
    checkpoints: Vec<Checkpoint>,
    last: Checkpoint,
}

fn run_fast(env: &Arc<Environment>, kind: PolicyKind, params: &Params, trace: &Trace) -> FastRun {
    let mut sim = Simulation::new(env.clone(), kind, &params.clone().check().unwrap(), RECORD_EVERY).unwrap();
    let mut rounds = Vec::with_capacity(trace.horizon());
    for t in 0..trace.horizon() {
        let out = sim.step(&trace.arrival(t));
        let mut cache = sim.policy().cache().keys().to_vec();
        cache.sort_unstable();
        rounds.push(FastRound { llm: out.llm, cache, loss: sim.current_loss(), realised: out.realised });
    }
    let r = sim.result();
    FastRun { rounds, checkpoints: r.checkpoints, last: r.last }
}

/// Events the comparison covered.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    rounds: u64,
    llm: u64,
    hits: u64,
    /// Rounds in which the cache membership changed, the first fill excluded.
    switches: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.rounds += o.rounds;
        self.llm += o.llm;
        self.hits += o.hits;
        self.switches += o.switches;
    }
}

fn compare_checkpoint(what: &str, f: &Checkpoint, p: &Checkpoint) -> Result<(), String> {
    let ints = [
        ("t", f.t as u64, p.t as u64),
        ("llm_calls", f.llm_calls, p.llm_calls),
        ("switches", f.switches, p.switches),
        ("cache_size", f.cache_size as u64, p.cache_size as u64),
    ];
    for (name, a, b) in ints {
        if a != b {
            return Err(format!("{what}: {name} fast {a} plain {b}"));
        }
    }
    let floats = [
        ("regret", f.regret, p.regret),
        ("avg_regret", f.avg_regret, p.avg_regret),
        ("realised_cost", f.realised_cost, p.realised_cost),
        ("hit_rate", f.hit_rate, p.hit_rate),
        ("switch_cost", f.switch_cost, p.switch_cost),
        ("loss", f.loss, p.loss),
    ];
    for (name, a, b) in floats {
        if !close(a, b) {
            return Err(format!("{what}: {name} fast {a} plain {b}"));
        }
    }
    let opts = [
        ("est_rmse", f.est_rmse, p.est_rmse),
        ("est_mae", f.est_mae, p.est_mae),
        ("est_max", f.est_max, p.est_max),
    ];
    for (name, a, b) in opts {
        match (a, b) {
            (None, None) => {}
            (Some(a), Some(b)) if close(a, b) => {}
            _ => return Err(format!("{what}: {name} fast {a:?} plain {b:?}")),
        }
    }
    Ok(())
}

/// Round by round: the same decision and cache, `L(M_t)` and realised cost; then every
/// checkpoint. The first difference is returned with the plain run's margin at that round.
fn compare(what: &str, fast: &FastRun, plain: &PlainRun) -> Result<Counts, String> {
    if fast.rounds.len() != plain.rounds.len() {
        return Err(format!("{what}: {} fast rounds, {} plain", fast.rounds.len(), plain.rounds.len()));
    }
    let mut counts = Counts::default();
    let mut prev: Vec<u64> = Vec::new();
    for (f, p) in fast.rounds.iter().zip(&plain.rounds) {
        let t = p.t;
        if f.cache != p.cache {
            return Err(format!("{what}: round {t}: cache fast {:?} plain {:?}", f.cache, p.cache));
        }
        if f.llm != p.llm {
            return Err(format!(
                "{what}: round {t}: fast {} plain {} (plain acting cost {:e}, φ {:e}, margin {:e})",
                if f.llm { "LLM" } else { "cache" },
                if p.llm { "LLM" } else { "cache" },
                p.acting,
                p.phi,
                p.acting - p.phi
            ));
        }
        if !close(f.loss, p.loss) || !close(f.realised, p.realised) {
            return Err(format!(
                "{what}: round {t}: L(M) fast {} plain {}, realised fast {} plain {}",
                f.loss, p.loss, f.realised, p.realised
            ));
        }
        counts.rounds += 1;
        if p.llm {
            counts.llm += 1;
        } else {
            counts.hits += 1;
        }
        if p.cache != prev && !prev.is_empty() {
            counts.switches += 1;
        }
        prev = p.cache.clone();
    }
    if fast.checkpoints.len() != plain.checkpoints.len() {
        return Err(format!(
            "{what}: {} fast checkpoints, {} plain",
            fast.checkpoints.len(),
            plain.checkpoints.len()
        ));
    }
    for (f, p) in fast.checkpoints.iter().zip(&plain.checkpoints) {
        compare_checkpoint(&format!("{what}, checkpoint t = {}", p.t), f, p)?;
    }
    compare_checkpoint(&format!("{what}, final"), &fast.last, &plain.last)?;
    Ok(counts)
}

fn trace_of(dataset: &Arc<Dataset>, params: &Params) -> Trace {
    generate_trace(
        dataset.clone(),
        ArrivalModel::default_for(dataset, params).unwrap(),
        &params.clone().check().unwrap(),
    )
    .unwrap()
}

/// Runs every policy of `kinds` fast and plain on one trace; panics on the first difference.
fn check(
    dataset: &Arc<Dataset>,
    params: &Params,
    kinds: &[PolicyKind],
    tally: &mut BTreeMap<&'static str, Counts>,
) {
    let trace = trace_of(dataset, params);
    let env = Arc::new(Environment::from_trace(&trace, &params.clone().check().unwrap()).unwrap());
    let penv = PlainEnv::from_trace(&trace, params);
    assert_eq!(env.oracle.loss.to_bits(), penv.oracle_loss.to_bits(), "L(M_orc)");
    for &kind in kinds {
        let what = format!(
            "{} {} seed {} T {} (β {}, λ {}, B {}, R {})",
            dataset.name,
            kind.label(),
            params.seed,
            params.horizon,
            params.beta,
            params.lambda,
            params.b,
            params.noise_r
        );
        let t0 = std::time::Instant::now();
        let fast = run_fast(&env, kind, params, &trace);
        let fast_ms = t0.elapsed().as_secs_f64() * 1e3;
        let plain = plain_online::run(&penv, kind, params, arrivals(&trace), OPTIONS);
        let counts = compare(&what, &fast, &plain).unwrap_or_else(|e| panic!("{e}"));
        println!(
            "{what}: {counts:?}; fast {fast_ms:.0} ms, plain {:.0} ms (KRR {:.0}, RG {:.0})",
            plain.wall_ms, plain.krr_ms, plain.rg_ms
        );
        *tally.entry(kind.label()).or_default() += counts;
    }
}

fn arrivals(trace: &Trace) -> impl Iterator<Item = csc_engine::stream::Arrival<'_>> {
    (0..trace.horizon()).map(|t| trace.arrival(t))
}

/// The policies whose mechanism the parameters of [`tuned`] change (the others read none of β,
/// λ, B; R only rescales the trace's noise for them).
const KERNEL: [PolicyKind; 2] = [PolicyKind::ClcbScLsCont, PolicyKind::ClcbFrozenCont];

/// Parameters under which the CLCB learners serve from the cache more often and
/// CLCB-Frozen-Cont reaches its second stage within a few hundred rounds (a narrower confidence
/// width, a larger ridge).
fn tuned(p: &Params) -> Params {
    Params { beta: 0.1, lambda: 5.0, b: 0.05, noise_r: 0.01, ..p.clone() }
}

/// Every policy's comparison must have covered LLM calls, cache hits and cache switches after
/// the first fill, except the listed `(policy, reason)` whose hits never happen on this data.
fn require_events(tally: &BTreeMap<&'static str, Counts>, no_hits: &[(&str, &str)]) {
    for (name, c) in tally {
        println!("{name:<18} {c:?}");
        let hits_optional = no_hits.iter().any(|(n, _)| n == name);
        assert!(
            c.llm > 0 && (c.hits > 0 || hits_optional) && c.switches > 0,
            "{name}: the comparison must cover every kind of event: {c:?}"
        );
    }
    assert_eq!(tally.len(), kinds().len());
}

#[test]
fn plain_equals_fast_on_plane() {
    let d = Arc::new(plane::universe().unwrap());
    let mut tally = BTreeMap::new();
    for seed in 0..3 {
        let base = Params { horizon: 300, n_eval: 2000, epsilon: 0.1, seed, ..Params::default() };
        check(&d, &base, &kinds(), &mut tally);
        check(&d, &tuned(&base), &KERNEL, &mut tally);
    }
    require_events(&tally, &[]);
}

#[test]
fn plain_equals_fast_on_synthetic() {
    let d = Arc::new(synthetic::universe(0.01).unwrap());
    let mut tally = BTreeMap::new();
    let base = Params { horizon: 150, n_eval: 2000, seed: 0, ..Params::default() };
    check(&d, &base, &kinds(), &mut tally);
    check(&d, &tuned(&Params { seed: 1, ..base }), &KERNEL, &mut tally);
    // CLCB-SC-LS's Hoeffding width √(ln(4mT³)/(2N)) stays above every φ for the first hundreds
    // of calls per cell: it calls the LLM in every round here (it does serve on plane).
    require_events(&tally, &[("CLCB-SC-LS", "Hoeffding width")]);
}

/// nq-trivia's arrivals repeat universe queries exactly (distance 0, duplicate KRR observations).
/// With β = 1 the KRR learners never serve (SPEC §13), so only the decisions to call and the
/// switches are covered for them.
#[test]
fn plain_equals_fast_on_nq_trivia() {
    let dir = nq_trivia::default_dir();
    // Like the other data tests: missing data is a failure, not a skip.
    let d = Arc::new(
        nq_trivia::load(&dir, nq_trivia::PER_SOURCE, 0.01)
            .unwrap_or_else(|e| panic!("shared data at {}: {e}", dir.display())),
    );
    let mut tally = BTreeMap::new();
    let base = Params { horizon: 60, n_eval: 2000, seed: 0, ..Params::default() };
    check(&d, &base, &kinds(), &mut tally);
    check(&d, &tuned(&base), &KERNEL, &mut tally);
    for (name, c) in &tally {
        println!("{name:<18} {c:?}");
        assert!(c.llm > 0 && c.switches > 0, "{name}: {c:?}");
    }
}

/// The comparison has teeth: a plain run that differs from the fast one by a tiny perturbation is
/// reported. A noise draw shifted by 1e-6 in round 0 (an LLM call for every policy) moves the
/// cost estimates at the checkpoints of every policy that reports them; CLCB-Frozen-Cont, which
/// reports none, is caught by a 10% larger confidence scale β (some decisions flip); a 10% larger
/// ε changes the ε-net and so the cache keys of every policy that keeps one.
#[test]
fn comparison_notices_a_perturbed_run() {
    let d = Arc::new(plane::universe().unwrap());
    let params = tuned(&Params { horizon: 300, n_eval: 2000, epsilon: 0.1, seed: 0, ..Params::default() });
    let trace = trace_of(&d, &params);
    let env = Arc::new(Environment::from_trace(&trace, &params.clone().check().unwrap()).unwrap());
    let penv = PlainEnv::from_trace(&trace, &params);
    for kind in kinds() {
        let fast = run_fast(&env, kind, &params, &trace);
        compare("unperturbed", &fast, &plain_online::run(&penv, kind, &params, arrivals(&trace), OPTIONS))
            .unwrap();
        let mut perturbed = Vec::new();
        if kind != PolicyKind::ClcbFrozenCont {
            let nudged = arrivals(&trace).map(|a| {
                if a.t == 0 {
                    csc_engine::stream::Arrival { eta: a.eta + 1e-6, ..a }
                } else {
                    a
                }
            });
            perturbed.push(("η_0 + 1e-6", plain_online::run(&penv, kind, &params, nudged, OPTIONS)));
            let p = Params { epsilon: params.epsilon * 1.1, ..params.clone() };
            perturbed.push(("ε × 1.1", plain_online::run(&penv, kind, &p, arrivals(&trace), OPTIONS)));
        } else {
            let p = Params { beta: params.beta * 1.1, ..params.clone() };
            perturbed.push(("β × 1.1", plain_online::run(&penv, kind, &p, arrivals(&trace), OPTIONS)));
        }
        for (what, plain) in perturbed {
            match compare(what, &fast, &plain) {
                Ok(c) => panic!("{}: {what} went unnoticed ({c:?})", kind.label()),
                Err(e) => println!("{}: noticed: {e}", kind.label()),
            }
        }
    }
}
