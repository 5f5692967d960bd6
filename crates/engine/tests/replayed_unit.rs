//! An external policy's runs are measured exactly as an experiment's units: the threshold cache's
//! decisions in every unit of `thy-horizon` at its quick settings (T = 250 … 2,000, 3 seeds), recorded
//! round by round and replayed by an [`ExternalPolicy`] on the same (T, seed) streams, give through
//! [`online_observations`] every observation the unit records (bit for bit; only the wall-clock
//! runtime differs), through [`aggregate_observations`] the report's statistics, and through
//! [`online_theory`] the report's theory checks — each T's checks and Reg(T) fitted against T —
//! as the Theory view's "Your policy" across horizons reads them.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::dataset::synthetic;
use csc_engine::experiment::run::runner::online_observations;
use csc_engine::experiment::stats::aggregate_observations;
use csc_engine::experiment::theory::report::online_theory;
use csc_engine::experiment::{quick_spec, run_unit, Measure, Metric, Observation, Report};
use csc_engine::online::external::{Answer, ExternalPolicy, ExternalRound, ExternalRun};
use csc_engine::online::sim::{Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::stream::{generate_trace, resolve_arrival};
use std::sync::Arc;

/// One recorded round of a built-in policy: whether it called the LLM, and its cache after the
/// round (the rounds of its members' arrivals, in its order).
struct Recorded {
    llm: bool,
    cache: Vec<u64>,
}

/// Plays back recorded rounds: calls the LLM where the policy did, else serves from the nearest
/// member (ties to the first: the member a built-in policy's hit is served by, SPEC §14,
/// `CacheSet::serving_nearest`), and after each LLM call names the recorded cache when it changed.
/// It checks that it is shown the cache it named.
struct Replay {
    rounds: Vec<Recorded>,
    named: Vec<u64>,
}

impl ExternalPolicy for Replay {
    fn decide(&mut self, r: &ExternalRound) -> Result<Answer, String> {
        assert_eq!(r.members, &self.named[..], "round {}: the members shown are the cache named", r.t);
        if self.rounds[r.t].llm {
            return Ok(Answer::CallLlm);
        }
        let nearest =
            (0..r.distances.len()).fold(0, |j, i| if r.distances[i] < r.distances[j] { i } else { j });
        Ok(Answer::Serve(nearest))
    }

    fn observe(&mut self, t: usize, _cost: f64) -> Result<Option<Vec<u64>>, String> {
        let cache = &self.rounds[t].cache;
        if *cache == self.named {
            return Ok(None);
        }
        self.named = cache.clone();
        Ok(Some(cache.clone()))
    }
}

/// Without the wall-clock runtime (`runtime_ms`): the only observation a replay cannot equal.
fn untimed(o: &[Observation]) -> Vec<&Observation> {
    o.iter().filter(|o| o.metric != Metric::RuntimeMs.id()).collect()
}

/// Observations compared bit for bit (NaN equal to NaN: an observation's `y` outside a grid).
fn same(a: &[&Observation], b: &[&Observation]) -> bool {
    let bits = |o: &&Observation| {
        (o.algorithm.clone(), o.metric.clone(), o.x.to_bits(), o.y.to_bits(), o.value.to_bits())
    };
    a.len() == b.len() && a.iter().map(bits).eq(b.iter().map(bits))
}

#[test]
fn a_replayed_external_run_is_measured_as_the_unit_it_replays() {
    let mut spec = quick_spec("thy-horizon").unwrap();
    let id = &*PolicyKind::Threshold.id();
    spec.measure = Measure::Online { policies: vec![PolicyKind::Threshold] };
    let d = Arc::new(synthetic::universe(spec.params.c_floor).unwrap());
    let units = spec.units();
    assert_eq!(units.len(), 4 * 3, "T = 250, 500, 1,000, 2,000 × 3 seeds");
    let mut results = Vec::new();
    let mut replayed: Vec<(u64, Vec<Observation>)> = Vec::new();
    let (mut hits, mut changes) = (0, 0);
    for u in &units {
        let unit = run_unit(&spec, u, &d, &mut |_| true).unwrap();
        // The unit's stream, as the runner builds it (and the web layer's OwnPolicyRun).
        let mut p = spec.unit_params(u).unwrap();
        let model = resolve_arrival(spec.dataset.arrival(), &d, &mut p).unwrap();
        let p = p.check().unwrap();
        let trace = generate_trace(d.clone(), model, &p).unwrap();
        let env = Arc::new(Environment::from_trace(&trace, &p).unwrap());
        // The threshold cache's decisions, round by round.
        let mut sim = Simulation::new(env.clone(), PolicyKind::Threshold, &p, 0).unwrap();
        let mut rounds = Vec::with_capacity(trace.horizon());
        for t in 0..trace.horizon() {
            let llm = sim.step(&trace.arrival(t)).llm;
            let cache = sim.policy().cache().keys().to_vec();
            changes += usize::from(rounds.last().is_none_or(|r: &Recorded| r.cache != cache));
            rounds.push(Recorded { llm, cache });
        }
        hits += rounds.iter().filter(|r| !r.llm).count();
        // Replayed from outside, on the same stream.
        let mut ext =
            ExternalRun::new(env, Box::new(Replay { rounds, named: Vec::new() }), id, &p, 0).unwrap();
        for t in 0..trace.horizon() {
            ext.try_step(&trace.arrival(t)).unwrap();
        }
        let mut mine = Vec::new();
        online_observations(&mut mine, id, Some(p.horizon as f64), &ext.result());
        assert!(
            same(&untimed(&mine), &untimed(&unit.observations)),
            "T = {}, seed {}: the replay's observations differ from the unit's",
            p.horizon,
            u.seed
        );
        // Its final metrics and its Reg(t) fit, at x = T.
        assert!(mine.len() >= 14 && mine.iter().any(|o| o.metric == "theory_slope_regret"), "{mine:?}");
        replayed.push((u.seed, mine));
        results.push(unit);
    }
    assert!(
        hits > 500 && changes > 100,
        "the runs must serve and change their caches ({hits} hits, {changes} changes)"
    );
    let report = Report::new(&spec, results);
    // The statistics over seeds, from the replays' observations alone.
    let stats = aggregate_observations(&mut replayed.iter().flat_map(|(_, o)| o));
    let timed = |s: &csc_engine::experiment::Stat| s.metric != Metric::RuntimeMs.id();
    let key = |s: &csc_engine::experiment::Stat| serde_json::to_string(s).unwrap();
    let (a, b): (Vec<_>, Vec<_>) = (
        stats.iter().filter(|s| timed(s)).map(key).collect(),
        report.stats.iter().filter(|s| timed(s)).map(key).collect(),
    );
    assert_eq!(a, b);
    assert!(a.len() >= 4 * 8, "{} statistics", a.len());
    // The theory checks: each T's over the seeds, and Reg(T) across horizons.
    let theory = online_theory(&mut replayed.iter().map(|(s, o)| (*s, &o[..])), None, true).unwrap();
    let want = report.theory.as_ref().unwrap();
    // Debug text: every number in its shortest exact form, and NaN (a check without points) equal to NaN.
    assert_eq!(format!("{theory:?}"), format!("{want:?}"));
    assert_eq!(theory.runs.len(), 4);
    assert_eq!(theory.horizons.len(), 1);
    let h = &theory.horizons[0];
    assert_eq!((h.policy.as_str(), h.points.len(), h.check.n), (id, 3, 3));
    assert!(
        h.points.iter().all(|s| s.iter().map(|p| p.0).eq([250.0, 500.0, 1000.0, 2000.0])),
        "{:?}",
        h.points
    );
    assert!(h.check.slope.mean.is_finite(), "{:?}", h.check);
}
