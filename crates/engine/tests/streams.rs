//! Datasets and arrival streams (SPEC §2, §7, §11.10, §12): statistics the paper states,
//! determinism, and trace round trips. The nq-trivia tests read `../shared/data` (or `$CSC_DATA`).
// Native only: the browser suites are tests/wasm_*.rs (`wasm-pack test` compiles every test file
// for wasm32).
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::config::Params;
use csc_engine::dataset::{nq_trivia, synthetic, Dataset};
use csc_engine::stream::{
    calibrate_sigma, generate_trace, ArrivalModel, ArrivalSource, OnlineStream, Sampler, TraceReplay,
};
use csc_engine::trace::{Queries, Trace};
use std::sync::{Arc, OnceLock};

fn synth() -> Arc<Dataset> {
    static D: OnceLock<Arc<Dataset>> = OnceLock::new();
    D.get_or_init(|| Arc::new(synthetic::universe(0.01).unwrap())).clone()
}

fn nq() -> Arc<Dataset> {
    static D: OnceLock<Arc<Dataset>> = OnceLock::new();
    D.get_or_init(|| {
        let dir = nq_trivia::default_dir();
        Arc::new(
            nq_trivia::load(&dir, nq_trivia::PER_SOURCE, 0.01)
                .unwrap_or_else(|e| panic!("shared data at {}: {e}", dir.display())),
        )
    })
    .clone()
}

fn collect(stream: &mut dyn ArrivalSource) -> Vec<(Vec<f32>, f64, f64, Option<u32>)> {
    let mut v = Vec::new();
    while let Some(a) = stream.next_arrival() {
        v.push((a.x.to_vec(), a.cost, a.eta, a.index));
    }
    v
}

/// Paper appendix: jittered synthetic arrivals lie a median 0.074 from their source prompt.
#[test]
fn synthetic_median_arrival_to_prompt_distance_is_0_074() {
    let d = synth();
    let sigma = calibrate_sigma(&d, 0.074).unwrap();
    let params = Params { horizon: 3000, n_eval: 10, log_len: 10, seed: 11, ..Params::default() };
    let model = ArrivalModel::default_for(&d, &params).unwrap();
    assert_eq!(model, ArrivalModel::Jittered { sigma });
    let sampler = Sampler::new(d.clone(), model, params.seed).unwrap();
    let mut rng = csc_engine::stream::rng(99, csc_engine::stream::Purpose::Arrivals);
    let mut buf = vec![0f32; 384];
    let m = d.metric();
    let mut dist: Vec<f64> = (0..3000)
        .map(|_| {
            let s = sampler.draw(None, &mut rng, &mut buf).source.unwrap() as usize;
            m.dist(&buf, d.points.row(s))
        })
        .collect();
    dist.sort_by(f64::total_cmp);
    let median = dist[1500];
    println!(
        "synthetic: D = {:.4}, calibrated σ_e = {sigma:.6}, median arrival-to-prompt distance = {median:.4}",
        d.dist_scale
    );
    assert!((median - 0.074).abs() < 0.003, "median {median}");
    assert!(sigma > 0.0 && sigma < 0.05);
    // arrivals stay unit-norm and keep the source prompt's cost
    let n: f64 = buf.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt();
    assert!((n - 1.0).abs() < 1e-5);
}

#[test]
fn same_seed_same_stream_other_seed_other_stream() {
    let d = synth();
    let p = Params::default();
    let model = ArrivalModel::default_for(&d, &p).unwrap();
    let run = |seed| {
        let s = Arc::new(Sampler::new(d.clone(), model, seed).unwrap());
        collect(&mut OnlineStream::new(s, 200, 0.05, seed).unwrap())
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

/// SPEC §12: a generated stream, written as a trace and read back, replays identically.
#[test]
fn trace_round_trips_and_replays_the_stream() {
    let d = synth();
    let params = Params { horizon: 120, n_eval: 50, log_len: 80, seed: 3, ..Params::default() };
    let model = ArrivalModel::default_for(&d, &params).unwrap();
    let trace = generate_trace(d.clone(), model, &params.clone().check().unwrap()).unwrap();
    trace.validate().unwrap();
    let back = Trace::from_json(&trace.to_json()).unwrap();
    assert!(
        back.arrivals == trace.arrivals && back.eval == trace.eval && back.offline == trace.offline,
        "queries differ"
    );
    assert!(
        back.cost == trace.cost && back.eta == trace.eta && back.eval_cost == trace.eval_cost,
        "costs or noise differ"
    );
    assert!(
        back.z == trace.z && back.meta == trace.meta && back.dist_scale == trace.dist_scale,
        "z, meta or D differ"
    );
    assert!(back == trace);
    let s = Arc::new(Sampler::new(d.clone(), model, params.seed).unwrap());
    let live = collect(&mut OnlineStream::new(s, params.horizon, params.noise_r, params.seed).unwrap());
    let replay = collect(&mut TraceReplay::new(&back));
    assert_eq!(live, replay);
    assert_eq!(back.z.len(), 80);
    let observed = back.z.iter().filter(|&&z| z).count();
    assert!((20..=60).contains(&observed), "ν = 0.5 should observe about half of 80: {observed}");
}

#[test]
fn malformed_traces_are_rejected_with_reasons() {
    let bad = [
        (r#"{"dist_scale":1,"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0]]}"#, "`X` or `arrival_idx`"),
        (r#"{"dist_scale":1,"X":[[0]],"cost":[0.5],"eta":[],"eval_cost":[0.5],"E":[[0]]}"#, "`eta`"),
        (
            r#"{"dist_scale":1,"arrival_idx":[0],"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0]]}"#,
            "no `universe`",
        ),
        (
            r#"{"dist_scale":1,"X":[[0]],"cost":[1.5],"eta":[0],"eval_cost":[0.5],"E":[[0]]}"#,
            "outside (0, 1]",
        ),
        (r#"{"dist_scale":1,"X":[[0]],"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0,1]]}"#, "dimensional"),
        (r#"{"dist_scale":0,"X":[[0]],"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0]]}"#, "dist_scale"),
        (
            r#"{"dist_scale":1,"X":[[0]],"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0]],"z":[2]}"#,
            "0 or 1",
        ),
        (
            r#"{"dist_scale":1,"X":[[0]],"cost":[0.5],"eta":[0],"eval_cost":[0.5],"E":[[0]],"bogus":1}"#,
            "unknown field",
        ),
        ("[1,2", "trace JSON"),
    ];
    for (text, needle) in bad {
        let e = Trace::from_json(text).unwrap_err().to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
}

/// nq-trivia universe: 2,500 + 2,500 rows; D matches the data README (1.6365).
#[test]
fn nq_trivia_universe_matches_the_shared_data() {
    let d = nq();
    assert_eq!(d.len(), 5000);
    assert_eq!(d.groups.iter().filter(|&&g| g == 0).count(), 2500);
    assert!((d.dist_scale - 1.6365).abs() < 5e-4, "D = {}", d.dist_scale);
    // The f32-screened diameter is the all-pairs f64 one, bit for bit, on the real data.
    assert_eq!(d.dist_scale.to_bits(), csc_engine::space::diameter_plain(&d.points).to_bits());
    // TriviaQA is longer than NQ in this data (SPEC §7 note): median 15 vs 10 tokens.
    let med = |g: u8| {
        let mut t: Vec<u32> =
            d.tokens.iter().zip(&d.groups).filter(|(_, &x)| x == g).map(|(&t, _)| t).collect();
        t.sort();
        t[t.len() / 2]
    };
    assert_eq!((med(0), med(1)), (10, 15));
}

/// Paper appendix: log-normal popularity makes a few queries very frequent (heavy tail), and
/// bursts alternate between NQ and TriviaQA starting with NQ, mean length about 100.
#[test]
fn nq_trivia_stream_is_bursty_and_heavy_tailed() {
    let d = nq();
    let params = Params::default();
    let model = ArrivalModel::default_for(&d, &params).unwrap();
    assert_eq!(model, ArrivalModel::Bursty { burst_mean: 100.0 });
    let s = Arc::new(Sampler::new(d.clone(), model, 1).unwrap());
    let arr = collect(&mut OnlineStream::new(s, 20_000, 0.05, 1).unwrap());
    let groups: Vec<u8> = arr.iter().map(|a| d.groups[a.3.unwrap() as usize]).collect();
    assert_eq!(groups[0], 0, "bursts start with NQ");
    let mut runs = vec![1usize];
    for w in groups.windows(2) {
        if w[0] == w[1] {
            *runs.last_mut().unwrap() += 1;
        } else {
            runs.push(1);
        }
    }
    let mean_run = 20_000.0 / runs.len() as f64;
    assert!((70.0..140.0).contains(&mean_run), "mean burst length {mean_run}");
    // heavy tail: the most frequent 1% of distinct queries take far more than 1% of arrivals
    let mut freq = std::collections::HashMap::new();
    for a in &arr {
        *freq.entry(a.3.unwrap()).or_insert(0usize) += 1;
    }
    let mut f: Vec<usize> = freq.values().copied().collect();
    f.sort_unstable_by(|a, b| b.cmp(a));
    let top = f.iter().take(f.len() / 100).sum::<usize>() as f64 / 20_000.0;
    println!(
        "nq-trivia: {} distinct of 20,000; top 1% of them carry {:.1}% of arrivals; max count {}",
        f.len(),
        100.0 * top,
        f[0]
    );
    assert!(top > 0.05, "top-1% share {top}");
    // E is i.i.d. from the 50/50 mixture, as indices
    let small = Params { horizon: 10, n_eval: 4000, log_len: 10, ..Params::default() };
    let t = generate_trace(d.clone(), model, &small.clone().check().unwrap()).unwrap();
    match &t.eval {
        Queries::Indices(ix) => {
            let nq_share = ix.iter().filter(|&&i| d.groups[i as usize] == 0).count() as f64 / 4000.0;
            assert!((nq_share - 0.5).abs() < 0.04, "{nq_share}");
        }
        _ => panic!("nq-trivia E should be universe indices"),
    }
}
