//! The unit runner (SPEC §10): one unit — one sweep value × one seed — as a pure function of
//! (dataset, parameters, seed), producing observations `(algorithm, metric, x, value)`.

use crate::config::{Checked, Params};
use crate::dataset::{Dataset, DatasetInfo};
use crate::error::{Error, Result};
use crate::experiment::run::geometry::geometry;
use crate::experiment::run::observation::{obs, Observation};
use crate::experiment::run::threats::{attack_unit, tenants_unit};
use crate::experiment::Metric;
use crate::experiment::{ExperimentSpec, Measure, Unit};
use crate::offline::OfflineProblem;
use crate::online::sim::{Environment, RunResult, Simulation};
use crate::online::PolicyKind;
use crate::stream::{generate_trace, resolve_arrival};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What one unit produced, with its resolved configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UnitResult {
    pub experiment: String,
    pub unit: Unit,
    pub params: Params,
    pub dataset: DatasetInfo,
    pub observations: Vec<Observation>,
    /// Per-algorithm extra detail (caches, diagnostics).
    pub detail: serde_json::Value,
}

// read by the web layer through this crate's one reader (`crate::json::FromJson`)
crate::json::from_json!(UnitResult);

impl UnitResult {
    /// The first observation of `metric` (a frontier unit records each once).
    pub fn value(&self, metric: &str) -> Option<f64> {
        self.observations.iter().find(|o| o.metric == metric).map(|o| o.value)
    }
}

/// Runs one unit. `on_round` is called with the number of rounds done (online) so a caller can
/// show progress; return `false` from it to cancel (the unit then returns an error).
pub fn run_unit(
    spec: &ExperimentSpec,
    unit: &Unit,
    dataset: &Arc<Dataset>,
    on_round: &mut dyn FnMut(usize) -> bool,
) -> Result<UnitResult> {
    let mut params = spec.unit_params(unit)?;
    if let Measure::Geometry { stream } = spec.measure {
        params.horizon = stream;
    }
    spec.dataset.check_loaded(dataset)?;
    let model = resolve_arrival(spec.dataset.arrival(), dataset, &mut params)?;
    let params = params.check()?;
    let trace = generate_trace(dataset.clone(), model, &params)?;
    let mut out = Vec::new();
    let detail = match &spec.measure {
        Measure::Offline { algorithms } => {
            let prob = OfflineProblem::from_trace(&trace, &params)?;
            let x = spec.unit_x(unit);
            let mut d = serde_json::Map::new();
            for &a in algorithms {
                let r = prob.run(a)?;
                obs(&mut out, &r.algorithm, Metric::Gap.id(), x, r.gap);
                obs(&mut out, &r.algorithm, Metric::Loss.id(), x, r.loss);
                // SPEC §14: only where the data has ground truth (absent, never 0, otherwise).
                if let Some(e) = r.error_rate {
                    obs(&mut out, &r.algorithm, Metric::ErrorRate.id(), x, e);
                }
                d.insert(
                    r.algorithm.clone(),
                    serde_json::json!({ "cache": r.cache, "believed_costs": r.believed_costs }),
                );
            }
            d.insert("centers".into(), prob.m().into());
            d.insert("observed_costs".into(), prob.observed.len().into());
            d.insert("oracle_loss".into(), prob.oracle.loss.into());
            serde_json::Value::Object(d)
        }
        Measure::Online { policies } => {
            check_labels(policies, dataset)?;
            let env = Arc::new(Environment::from_trace(&trace, &params)?);
            let total = policies.len() * trace.horizon();
            let mut done = 0usize;
            let mut d = serde_json::Map::new();
            d.insert("oracle_loss".into(), env.oracle.loss.into());
            d.insert("no_cache_loss".into(), no_cache_loss(&env.eval.costs).into());
            for &k in policies {
                let r = play(&env, k, &params, &trace, &mut done, on_round)?;
                let swept = spec.sweep.is_some().then(|| spec.unit_x(unit));
                online_observations(&mut out, &r.policy, swept, &r);
                d.insert(r.policy.clone(), r.diagnostics.clone());
            }
            on_round(total);
            serde_json::Value::Object(d)
        }
        Measure::Frontier { .. } => {
            let (family, _) = spec.family_of(unit.point).expect("a frontier unit's point is in a family");
            check_ground_truth(spec, dataset)?;
            check_labels(&[family.policy], dataset)?;
            let env = Arc::new(Environment::from_trace(&trace, &params)?);
            let mut done = 0usize;
            let r = play(&env, family.policy, &params, &trace, &mut done, on_round)?;
            on_round(done);
            let name = family.key();
            final_metrics(&mut out, &name, spec.unit_x(unit), &r);
            let mut d = serde_json::Map::new();
            d.insert("oracle_loss".into(), env.oracle.loss.into());
            // L(∅), what an empty cache scores: why a family's regret can be flat (frontier.rs).
            d.insert("no_cache_loss".into(), no_cache_loss(&env.eval.costs).into());
            d.insert(name, r.diagnostics.clone());
            serde_json::Value::Object(d)
        }
        Measure::Geometry { stream } => geometry(dataset, &trace, *stream, &mut out)?,
        Measure::Tenants { policies } => {
            check_labels(policies, dataset)?;
            let mut done = 0usize;
            let d =
                tenants_unit(policies, model, &trace, &params, &mut out, &mut done, on_round, final_metrics)?;
            on_round(done);
            d
        }
        Measure::Attack { policies, p, distance } => {
            check_labels(policies, dataset)?;
            let mut done = 0usize;
            let d = attack_unit(
                policies,
                p,
                *distance,
                dataset,
                &trace,
                &params,
                &mut out,
                &mut done,
                on_round,
                final_metrics,
            )?;
            on_round(done);
            d
        }
    };
    // A grid's cell is (x, y): every observation carries the second parameter's value.
    if spec.is_grid() {
        let y = spec.unit_y(unit);
        out.iter_mut().for_each(|o| o.y = y);
    }
    Ok(UnitResult {
        experiment: spec.id.clone(),
        unit: unit.clone(),
        params: params.into_inner(),
        dataset: dataset.info(),
        observations: out,
        detail,
    })
}

/// The observations of one online run `r` under the name `name` (an online unit records these
/// for each of its policies; an external policy's run is recorded the same way,
/// [`crate::online::external`]). Without a sweep (`swept` `None`): the curves at every checkpoint
/// (x = t), then the final metrics at x = T. With one, only the final metrics, at x = the sweep
/// value: the curves of different sweep values would be averaged together.
pub fn online_observations(out: &mut Vec<Observation>, name: &str, swept: Option<f64>, r: &RunResult) {
    let checkpoints = if swept.is_some() { &[][..] } else { &r.checkpoints[..] };
    for c in checkpoints {
        let x = c.t as f64;
        obs(out, name, Metric::AvgRegret.id(), x, c.avg_regret);
        obs(out, name, Metric::AvgLossGap.id(), x, c.avg_loss_gap);
        obs(out, name, Metric::AvgSwitchCost.id(), x, c.avg_switch_cost);
        obs(out, name, Metric::Switches.id(), x, c.switches as f64);
        obs(out, name, Metric::AvgRealisedCost.id(), x, c.avg_realised_cost);
        if let Some(e) = c.error_rate {
            obs(out, name, Metric::ErrorRate.id(), x, e);
        }
        if let (Some(a), Some(b), Some(m)) = (c.est_rmse, c.est_mae, c.est_max) {
            obs(out, name, Metric::EstRmse.id(), x, a);
            obs(out, name, Metric::EstMae.id(), x, b);
            obs(out, name, Metric::EstMax.id(), x, m);
        }
        // The policy's time so far: the curve of its cost against t (the Efficiency view's growth
        // chart). The point at t = T is the run's total, recorded once by final_metrics.
        if c.t != r.last.t {
            obs(out, name, Metric::RuntimeMs.id(), x, c.wall_ms);
        }
    }
    for c in checkpoints {
        theory_curves(out, name, c);
    }
    let x = swept.unwrap_or(r.last.t as f64);
    final_metrics(out, name, x, r);
    theory_slopes(out, name, x, &r.checkpoints);
}

/// What serving without a cache costs per query, `E_x[c(x)]` on the evaluation sample `E` (every
/// query sent to the LLM, paper eq. (1) with `M = ∅`; SPEC §3): the page's no-cache line beside
/// the oracle's `L(M_orc)` (summed in the sample's order).
pub fn no_cache_loss(costs: &[f64]) -> f64 {
    costs.iter().sum::<f64>() / costs.len().max(1) as f64
}

/// Refuses a frontier on a dataset without ground truth, with the dataset's reason: its x axis is
/// the error rate of SPEC §14, which is "—" there, never 0. Other measures run (their correctness
/// metrics are then absent). The page checks before it runs a frontier, the CLI and the page's runs
/// when they start (`ExperimentRun`) and every frontier unit. A frontier whose cache holds the
/// whole universe (some point's `k` ≥ the dataset's queries) is refused too: every policy then
/// keeps every query, so Greedy, LFU and LRU coincide and the regret is the same everywhere — the
/// families cannot differ.
pub fn check_ground_truth(spec: &ExperimentSpec, dataset: &Dataset) -> Result<()> {
    if !matches!(spec.measure, Measure::Frontier { .. }) {
        return Ok(());
    }
    let k = (0..spec.points())
        .filter_map(|p| spec.family_of(p).and_then(|(f, i)| f.params(&spec.params, i).ok()))
        .map(|p| p.k)
        .max()
        .unwrap_or(spec.params.k);
    if k >= dataset.len() {
        return Err(Error::param(
            "k",
            format!(
                "k = {k} holds the whole universe of {} ({} queries): every policy would keep every \
                 query and the frontier's families could not differ; choose k below {}",
                dataset.name,
                dataset.len(),
                dataset.len()
            ),
        ));
    }
    match dataset.ground_truth.absent_reason() {
        None => Ok(()),
        Some(why) => Err(Error::unsupported(format!(
            "error rate: — ({why}); the frontier plots realised cost against the error rate \
             (SPEC §14), so it runs only on data with ground truth: nq-trivia with its answers \
             files, synthetic, or a file with `answers` or `label` on every record"
        ))),
    }
}

/// Refuses a policy that learns from ground truth (vCache, SPEC §15) on a dataset without it,
/// naming the dataset.
fn check_labels(policies: &[PolicyKind], dataset: &Dataset) -> Result<()> {
    if let Some(k) = policies.iter().find(|k| k.needs_labels()) {
        if let Some(why) = dataset.ground_truth.absent_reason() {
            return Err(Error::unsupported(format!(
                "{} needs ground truth labels (SPEC §14) and {why}; run it on data with labels \
                 (nq-trivia, synthetic, or a file with `answers` or `label` on every record)",
                k.label()
            )));
        }
    }
    Ok(())
}

/// Plays policy `kind` over the whole trace, reporting progress (`done` counts rounds over the
/// unit) and honouring cancellation.
fn play(
    env: &Arc<Environment>,
    kind: PolicyKind,
    params: &Checked,
    trace: &crate::trace::Trace,
    done: &mut usize,
    on_round: &mut dyn FnMut(usize) -> bool,
) -> Result<RunResult> {
    let mut sim = Simulation::new(env.clone(), kind, params, 0)?;
    for t in 0..trace.horizon() {
        sim.step(&trace.arrival(t));
        *done += 1;
        if done.is_multiple_of(256) && !on_round(*done) {
            return Err(Error::unsupported("cancelled"));
        }
    }
    Ok(sim.result())
}

/// The theorem's quantities at one checkpoint ([`crate::online::theory`]), for the learners that
/// have any of their own (`γ_t` or the stage indices: the CLCB family), so that baselines' reports
/// do not carry curves of the shared ε-net once per policy.
fn theory_curves(out: &mut Vec<Observation>, name: &str, c: &crate::online::sim::Checkpoint) {
    let Some(p) = c.theory.as_ref().filter(|p| p.gamma.is_some() || p.sum_tau.is_some()) else { return };
    let x = c.t as f64;
    let series = [
        (Metric::Gamma.id(), p.gamma),
        (Metric::BetaT.id(), p.beta_t),
        (Metric::MEff.id(), p.m_eff),
        (Metric::MMax.id(), p.m_max.map(|m| m as f64)),
        (Metric::EpsT.id(), p.eps_t),
        (Metric::SumTau.id(), p.sum_tau.map(|v| v as f64)),
        (Metric::BoundCost.id(), p.bound.cost),
        (Metric::BoundArrival.id(), p.bound.arrival),
        (Metric::BoundDiscretisation.id(), Some(p.bound.discretisation)),
        (Metric::BoundSwitching.id(), p.bound.switching),
    ];
    for (metric, v) in series {
        if let Some(v) = v {
            obs(out, name, metric, x, v);
        }
    }
}

/// Each run's log-log slope of every quantity of [`crate::experiment::theory::Quantity::RUN`] with its
/// least-squares half-width, points and intercept (`theory_slope_<id>`, `theory_half_<id>`,
/// `theory_points_<id>`, `theory_intercept_<id>`; absent when the run has
/// too few points), from which a report's theory checks are made over seeds.
fn theory_slopes(out: &mut Vec<Observation>, name: &str, x: f64, cps: &[crate::online::sim::Checkpoint]) {
    use crate::experiment::theory::fit::{loglog_fit, series, Quantity};
    // Theorem 5.1's four terms at the run's end, up to constants (`theory_bound_<term>`), for
    // the learners [`theory_curves`] draws them for.
    let last =
        cps.last().and_then(|c| c.theory.as_ref()).filter(|p| p.gamma.is_some() || p.sum_tau.is_some());
    if let Some(p) = last {
        let b = &p.bound;
        for (term, v) in [
            ("cost", b.cost),
            ("arrival", b.arrival),
            ("discretisation", Some(b.discretisation)),
            ("switching", b.switching),
        ] {
            if let Some(v) = v {
                obs(out, name, &format!("theory_bound_{term}"), x, v);
            }
        }
    }
    for q in Quantity::RUN {
        if let Some(f) = loglog_fit(&series(q, cps)) {
            obs(out, name, &format!("theory_slope_{}", q.id()), x, f.slope);
            obs(out, name, &format!("theory_half_{}", q.id()), x, f.half);
            obs(out, name, &format!("theory_points_{}", q.id()), x, f.points as f64);
            obs(out, name, &format!("theory_intercept_{}", q.id()), x, f.intercept);
        }
    }
}

/// The final metrics of one run at `x`: average regret, runtime, switches and their cost, hit
/// rate, realised cost, cache size, and each policy family's counters.
fn final_metrics(out: &mut Vec<Observation>, name: &str, x: f64, r: &RunResult) {
    let l = &r.last;
    obs(out, name, Metric::AvgRegret.final_id(), x, l.avg_regret);
    // The regret's two parts (SPEC §9): the loss gap and the switching cost, per round.
    obs(out, name, Metric::AvgLossGap.final_id(), x, l.avg_loss_gap);
    obs(out, name, Metric::AvgSwitchCost.final_id(), x, l.avg_switch_cost);
    obs(out, name, Metric::RuntimeMs.id(), x, l.wall_ms);
    obs(out, name, Metric::Switches.final_id(), x, l.switches as f64);
    obs(out, name, "final_switch_cost", x, l.switch_cost);
    obs(out, name, Metric::HitRate.final_id(), x, l.hit_rate);
    obs(out, name, Metric::AvgRealisedCost.final_id(), x, l.avg_realised_cost);
    obs(out, name, Metric::CacheSize.final_id(), x, l.cache_size as f64);
    // SPEC §14: present only with ground truth; hit precision only with hits.
    if let Some(e) = l.error_rate {
        obs(out, name, Metric::ErrorRate.final_id(), x, e);
    }
    if let Some(p) = l.hit_precision {
        obs(out, name, Metric::HitPrecision.final_id(), x, p);
    }
    // The net's size and the stage counters of the low-switching policies (SPEC §11.2).
    if let Some(m) = r.counters.centers() {
        obs(out, name, "final_centers", x, m as f64);
    }
    if let Some((stage, advances)) = r.counters.stages() {
        obs(out, name, "final_global_stage", x, stage as f64);
        obs(out, name, "final_stage_advances", x, advances as f64);
    }
    // vCache's exploration (SPEC §15): τ's mean and the share of rounds explored.
    if let Some((tau, share)) = r.counters.vcache() {
        obs(out, name, Metric::TauMean.final_id(), x, tau);
        obs(out, name, Metric::ExploreShare.final_id(), x, share);
    }
}
