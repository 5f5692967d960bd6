//! Wall time of the plain pseudocode (`tests/support/plain_online/`: KRR re-solved from scratch
//! at each use, Reverse Greedy re-evaluating eq. 4 for every removal) against the engine
//! (`Simulation`) on the same trace, per policy and for all policies together, at growing
//! horizons; then the plain cost extrapolated to a target horizon from its measured growth.
//!
//! ```sh
//! cargo run --release --example plain_vs_fast -- [dataset] [horizons] [budget_s] [target_T] [fast_reps] [policy ids…]
//! # defaults: nq-trivia 50,100,150,200,250,300 300 5000 3 (the six policies of the paper)
//! ```
//!
//! A policy stops at the first horizon where its plain run takes longer than `budget_s`. Both
//! sides run the same seeded trace (seed 0, SPEC defaults, k = 5) against the same `E`; the
//! evaluation-oracle set-up (shared by all policies) is timed separately. Fast: the median of
//! `fast_reps` runs of `Simulation::new` + every `step` + `result` (with its ~200 checkpoints and
//! the KRR error at each). Plain: one run, without the KRR-error metric (so the ratio is, if
//! anything, understated). Each pair is checked to end with the same LLM calls, switches and
//! average regret (to 1e-9) before its time is reported. With `target_T > 0` the fast run is also
//! timed at `target_T` and the plain time there is extrapolated (a) by a power law `a·T^p` fitted by
//! least squares in log-log over the measured horizons ≥ 100, and (b) for the two policies that
//! run Reverse Greedy (CLCB-SC-LS-Cont, CLCB-SC-LS), by counting the plain Reverse Greedy's work
//! at `target_T` exactly (`rg_units` at every switch call, the calls and ε-net sizes read from the
//! fast run's trajectory, which the plain run shares) and pricing it at the time per unit measured
//! at the largest horizon, plus the rest of the plain time by (a).
// Native only (wall-clock timing, files on disk). `wasm-pack test` builds every example for
// wasm32: there this is an empty program.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]
// The plain re-implementation shared with the root's differential tests, which name the engine
// `csc` (the web layer's re-export).
extern crate csc_engine as csc;
#[path = "../tests/support/plain_online/mod.rs"]
mod plain_online;

use csc_engine::config::{Checked, Params};
use csc_engine::dataset::{nq_trivia, plane, synthetic, Dataset};
use csc_engine::online::sim::{Environment, RunResult, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::oracle::LossTracker;
use csc_engine::space::Points;
use csc_engine::stream::{generate_trace, ArrivalModel};
use csc_engine::trace::Trace;
use plain_online::{kinds, Options, PlainEnv};
use std::sync::Arc;
use std::time::Instant;

/// One measured plain run.
struct Measured {
    kind: PolicyKind,
    horizon: usize,
    plain_ms: f64,
    rg_ms: f64,
    rg_units: f64,
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

fn run_fast(env: &Arc<Environment>, kind: PolicyKind, params: &Checked, trace: &Trace) -> (f64, RunResult) {
    let t0 = Instant::now();
    let mut sim = Simulation::new(env.clone(), kind, params, 0).unwrap();
    for t in 0..trace.horizon() {
        sim.step(&trace.arrival(t));
    }
    let r = sim.result();
    (t0.elapsed().as_secs_f64() * 1e3, r)
}

/// Builds the environment's lazily built index over `E` (its first `L(M)` of a non-empty cache
/// would otherwise be charged to the first policy timed): part of the shared set-up.
fn warm(env: Arc<Environment>, trace: &Trace) -> Arc<Environment> {
    let mut one = Points::new(trace.dim()).unwrap();
    one.push(trace.x(0)).unwrap();
    LossTracker::new().loss(&env.eval, &[0], &one);
    env
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms >= 1e5 {
        format!("{:.0} s", ms / 1e3)
    } else if ms >= 1e3 {
        format!("{:.2} s", ms / 1e3)
    } else {
        format!("{ms:.1} ms")
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("nq-trivia", String::as_str);
    let horizons: Vec<usize> = args
        .get(1)
        .map_or("50,100,150,200,250,300", String::as_str)
        .split(',')
        .map(|s| s.parse().expect("horizons: comma-separated integers"))
        .collect();
    let budget_ms: f64 = args.get(2).map_or(300.0, |s| s.parse().expect("budget_s")) * 1e3;
    let target: usize = args.get(3).map_or(5000, |s| s.parse().expect("target_T"));
    let reps: usize = args.get(4).map_or(3, |s| s.parse().expect("fast_reps"));
    let kinds: Vec<PolicyKind> = if args.len() > 5 {
        args[5..].iter().map(|s| PolicyKind::parse(s).expect("policy id")).collect()
    } else {
        kinds()
    };
    let base = Params::default();
    let dataset: Arc<Dataset> = Arc::new(match name {
        "synthetic" => synthetic::universe(base.c_floor).unwrap(),
        "plane" => plane::universe().unwrap(),
        _ => nq_trivia::load(&nq_trivia::default_dir(), nq_trivia::PER_SOURCE, base.c_floor).unwrap(),
    });
    println!(
        "{name}, seed 0, SPEC defaults (k = {}, ε = {}, β = {}), load average {}",
        base.k,
        base.epsilon,
        base.beta,
        loadavg()
    );
    let opts = Options { record_every: 0, estimates: false };
    let mut active = kinds.clone();
    let mut measured: Vec<Measured> = Vec::new();
    for &horizon in &horizons {
        if active.is_empty() {
            break;
        }
        let params = Params { horizon, seed: 0, ..base.clone() }.check().expect("valid parameters");
        let trace =
            generate_trace(dataset.clone(), ArrivalModel::default_for(&dataset, &params).unwrap(), &params)
                .unwrap();
        let t0 = Instant::now();
        let env = warm(Arc::new(Environment::from_trace(&trace, &params).unwrap()), &trace);
        let env_ms = t0.elapsed().as_secs_f64() * 1e3;
        let t0 = Instant::now();
        let penv = PlainEnv::from_trace(&trace, &params);
        let penv_ms = t0.elapsed().as_secs_f64() * 1e3;
        assert_eq!(env.oracle.loss.to_bits(), penv.oracle_loss.to_bits());
        println!(
            "\nT = {horizon}: set-up (E, M_orc) fast {} plain {}; load {}",
            fmt_ms(env_ms),
            fmt_ms(penv_ms),
            loadavg()
        );
        println!(
            "  {:<17} {:>10} {:>12} {:>8}   {:>10} {:>10}  centers/obs/switches   load",
            "policy", "fast", "plain", "ratio", "plain KRR", "plain RG"
        );
        let (mut sum_fast, mut sum_plain) = (0.0, 0.0);
        let mut next = Vec::new();
        for &kind in &active {
            let mut times = Vec::new();
            let mut result = None;
            for _ in 0..reps.max(1) {
                let (ms, r) = run_fast(&env, kind, &params, &trace);
                times.push(ms);
                result = Some(r);
            }
            let fast = result.expect("ran");
            let fast_ms = median(times);
            let arrivals = (0..trace.horizon()).map(|t| trace.arrival(t));
            let plain = plain_online::run(&penv, kind, &params, arrivals, opts);
            let (f, p) = (&fast.last, &plain.last);
            let same = f.llm_calls == p.llm_calls
                && f.switches == p.switches
                && (f.avg_regret - p.avg_regret).abs() <= 1e-9 * f.avg_regret.abs().max(1e-3);
            assert!(same, "{}: fast {f:?} plain {p:?}", kind.label());
            // The Reverse Greedy work counted from the fast trajectory (used for extrapolating)
            // must be the plain run's own.
            let (_, units) = run_fast_counting(&env, kind, &params, &trace);
            assert_eq!(units, plain.rg_units, "{}: Reverse Greedy work", kind.label());
            let d = &fast.diagnostics;
            let shape = format!(
                "{}/{}/{}",
                d.get("centers").or_else(|| d.get("distinct_arrivals")).map_or("-".into(), |v| v.to_string()),
                d.get("observations").map_or("-".into(), |v| v.to_string()),
                f.switches
            );
            println!(
                "  {:<17} {:>10} {:>12} {:>7.0}×   {:>10} {:>10}  {:<21} {}",
                kind.label(),
                fmt_ms(fast_ms),
                fmt_ms(plain.wall_ms),
                plain.wall_ms / fast_ms,
                fmt_ms(plain.krr_ms),
                fmt_ms(plain.rg_ms),
                shape,
                loadavg()
            );
            sum_fast += fast_ms;
            sum_plain += plain.wall_ms;
            measured.push(Measured {
                kind,
                horizon,
                plain_ms: plain.wall_ms,
                rg_ms: plain.rg_ms,
                rg_units: plain.rg_units,
            });
            if plain.wall_ms <= budget_ms {
                next.push(kind);
            } else {
                println!("  ({} stops here: plain run over {:.0} s)", kind.label(), budget_ms / 1e3);
            }
        }
        if active.len() == kinds.len() {
            println!(
                "  {:<17} {:>10} {:>12} {:>7.0}×",
                "all policies",
                fmt_ms(sum_fast),
                fmt_ms(sum_plain),
                sum_plain / sum_fast
            );
        }
        active = next;
    }

    if target == 0 {
        return;
    }
    println!(
        "\nT = {target}: fast measured (one run); plain extrapolated two ways from the horizons above:\n  \
         (a) power law a·T^p, least squares in log-log over the horizons ≥ {FIT_FROM} (all if fewer than two);\n  \
         (b) for the policies that run Reverse Greedy: the Reverse Greedy work at T = {target} counted \
         exactly from the run's trajectory (ε-net size at every switch call, read from the fast run: the \
         plain run makes the same calls) times the measured time per unit at the largest horizon, \
         plus the rest of the plain time by (a)."
    );
    let params = Params { horizon: target, seed: 0, ..base.clone() }.check().expect("valid parameters");
    let trace =
        generate_trace(dataset.clone(), ArrivalModel::default_for(&dataset, &params).unwrap(), &params)
            .unwrap();
    let env = warm(Arc::new(Environment::from_trace(&trace, &params).unwrap()), &trace);
    println!(
        "  {:<17} {:>10} {:>6} {:>12} {:>10}   {:>10} {:>12} {:>12} {:>10}   load",
        "policy", "fast", "p", "plain (a)", "ratio (a)", "ns/unit", "RG units", "plain (b)", "ratio (b)"
    );
    let (mut sum_fast, mut sum_plain) = (0.0, 0.0);
    for &kind in &kinds {
        let pts: Vec<&Measured> = measured.iter().filter(|m| m.kind == kind).collect();
        if pts.len() < 2 {
            println!("  {:<17} (fewer than two plain horizons measured)", kind.label());
            continue;
        }
        let (fast_ms, units) = run_fast_counting(&env, kind, &params, &trace);
        let (a, p) = power_fit(&pts, |m| m.plain_ms);
        let plain_a = a * (target as f64).powf(p);
        let last = pts[pts.len() - 1];
        let (plain_b, per_unit) = if last.rg_units > 0.0 {
            let per_unit = last.rg_ms / last.rg_units;
            let (ar, pr) = power_fit(&pts, |m| (m.plain_ms - m.rg_ms).max(1e-3));
            (units * per_unit + ar * (target as f64).powf(pr), Some(per_unit))
        } else {
            (f64::NAN, None)
        };
        let best = if plain_b.is_nan() { plain_a } else { plain_b };
        sum_fast += fast_ms;
        sum_plain += best;
        println!(
            "  {:<17} {:>10} {:>6.2} {:>12} {:>9.0}×   {:>10} {:>12} {:>12} {:>9}   {}",
            kind.label(),
            fmt_ms(fast_ms),
            p,
            fmt_ms(plain_a),
            plain_a / fast_ms,
            per_unit.map_or("-".into(), |u| format!("{:.2}", u * 1e6)),
            if units > 0.0 { format!("{units:.3e}") } else { "-".into() },
            if plain_b.is_nan() { "-".into() } else { fmt_ms(plain_b) },
            if plain_b.is_nan() { "-".into() } else { format!("{:.0}×", plain_b / fast_ms) },
            loadavg()
        );
    }
    println!(
        "  {:<17} {:>10} {:>6} {:>12} {:>9.0}×   ((b) where available, else (a))",
        "all",
        fmt_ms(sum_fast),
        "",
        fmt_ms(sum_plain),
        sum_plain / sum_fast
    );
}

/// The smallest horizon the power-law fit uses (below it, fixed costs distort the growth).
const FIT_FROM: usize = 100;

/// `(a, p)` of `y = a·T^p` by least squares in log-log over the measured horizons ≥ [`FIT_FROM`]
/// (all of them if fewer than two are).
fn power_fit(pts: &[&Measured], y: impl Fn(&Measured) -> f64) -> (f64, f64) {
    let big: Vec<&&Measured> = pts.iter().filter(|m| m.horizon >= FIT_FROM).collect();
    let use_pts: Vec<&Measured> =
        if big.len() >= 2 { big.into_iter().copied().collect() } else { pts.to_vec() };
    let xs: Vec<f64> = use_pts.iter().map(|m| (m.horizon as f64).ln()).collect();
    let ys: Vec<f64> = use_pts.iter().map(|m| y(m).ln()).collect();
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    let p = sxy / sxx;
    ((my - p * mx).exp(), p)
}

/// A timed fast run that also counts the Reverse Greedy work the plain run would do on the same
/// trajectory: CLCB-SC-LS(-Cont) calls Reverse Greedy in every round where a center is created or
/// a stage advances (both visible in the policy's diagnostics), over all current centers.
fn run_fast_counting(
    env: &Arc<Environment>,
    kind: PolicyKind,
    params: &Checked,
    trace: &Trace,
) -> (f64, f64) {
    let counts = matches!(kind, PolicyKind::ClcbScLsCont | PolicyKind::ClcbScLs);
    let t0 = Instant::now();
    let mut sim = Simulation::new(env.clone(), kind, params, 0).unwrap();
    let (mut units, mut centers, mut advances) = (0.0, 0u64, 0u64);
    for t in 0..trace.horizon() {
        sim.step(&trace.arrival(t));
        if counts {
            let d = sim.policy().diagnostics();
            let c = d.centers().expect("centers") as u64;
            let (_, a) = d.stages().expect("stage advances");
            if c != centers || a != advances {
                units += plain_online::rg_units(c as usize, params.k);
            }
            (centers, advances) = (c, a);
        }
    }
    sim.result();
    (t0.elapsed().as_secs_f64() * 1e3, units)
}
