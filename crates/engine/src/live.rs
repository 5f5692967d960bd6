//! The live run (the page's live view): one seeded stream played round by round by several policies
//! side by side, with what fired in each round as typed events, a typed question played as the next
//! round ("Ask a question"), and the views the page draws (2-D positions, caches, ε-net centers,
//! curves, the KRR cost surface).
//!
//! Every round is played by [`Simulation::step_traced`], which plays exactly what
//! [`Simulation::step`] plays (`tests/live.rs` checks it against `online::sim` round by round):
//! the live view shows the runs the experiments measure. The events of a round
//! ([`crate::online::explain::Explanation`]) follow the order of the paper's algorithms: a new ε-net center (Alg. 3
//! lines 5–11), stage advances (Alg. 3 lines 12–18; CLCB-Frozen-Cont's stage, Alg. 6 lines 7–12), the switch
//! with the members swapped (Alg. 3 lines 19–20 → Alg. 4 lines 17–18), then the decision: call
//! the LLM iff the acting cost `c̲(u_t) ≤ φ(d(x_t, M_t))` (Alg. 5 lines 4–6), else serve the
//! nearest cached answer (Alg. 5 line 12).

use crate::answers::Label;
use crate::config::Checked;
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::online::explain::Explanation;
use crate::online::sim::{Checkpoint, Environment, RunResult, Simulation, StepOutcome};
use crate::online::{CenterInfo, PolicyKind};
use crate::projection::Projection;
use crate::stream::{generate_trace, Arrival, ArrivalModel};
use crate::trace::Trace;
use serde::Serialize;
use std::sync::Arc;

/// What fired in one round for one policy, in the order the round happened (Alg. 3 → Alg. 4 →
/// Alg. 5), as the policy recorded it while it stepped ([`crate::online::Acts`]) and the
/// simulator saw its cache change ([`Explanation`]). The decision itself (Alg. 5 lines 4–6) is
/// every round's [`StepOutcome`] and [`Explanation`], not an event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind")]
pub enum RoundEvent {
    /// Alg. 3 lines 5–11: the arrival was farther than ε from every center and founded center
    /// `center` (it forces a switch).
    #[serde(rename = "new-center")]
    NewCenter { center: u32 },
    /// Alg. 3 lines 12–15: `advanced` local stages (one per center) reached their limit.
    #[serde(rename = "local-stages")]
    LocalStages { advanced: u32 },
    /// Alg. 3 lines 16–18: the global stage advanced (CLCB-Frozen-Cont: its stage `s` ended,
    /// Alg. 6 lines 7–12).
    #[serde(rename = "global-stage")]
    GlobalStage,
    /// Alg. 4 lines 17–18: the switch changed the cache; the members (round keys) it put in and
    /// took out, sorted.
    #[serde(rename = "switch")]
    Switch { inserted: Vec<u32>, removed: Vec<u32> },
    /// The round ran the policy's switch (a new center or a stage end) and it kept the same cache.
    #[serde(rename = "rebuilt")]
    Rebuilt,
}

impl RoundEvent {
    /// The events of a round from what the policy recorded and the cache it served with.
    pub fn of(why: &Explanation) -> Vec<RoundEvent> {
        let a = &why.acts;
        let mut out = Vec::new();
        if a.new_center {
            out.push(RoundEvent::NewCenter { center: why.center.unwrap_or_default() as u32 });
        }
        if a.local_advances > 0 {
            out.push(RoundEvent::LocalStages { advanced: a.local_advances as u32 });
        }
        if a.global_advance {
            out.push(RoundEvent::GlobalStage);
        }
        let keys = |v: &[u64]| v.iter().map(|&k| k as u32).collect::<Vec<_>>();
        if !why.inserted.is_empty() || !why.removed.is_empty() {
            out.push(RoundEvent::Switch { inserted: keys(&why.inserted), removed: keys(&why.removed) });
        } else if a.rebuilt {
            out.push(RoundEvent::Rebuilt);
        }
        out
    }
}

/// One event of a frame as the page receives it: the entry it fired in (`round · policies +
/// policy`, the index of the frame's per-round, per-policy arrays) and what fired.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrameEvent {
    pub at: u32,
    pub event: RoundEvent,
}

/// One policy's round: what it did ([`StepOutcome`]), what the decision saw ([`Explanation`])
/// and what fired ([`RoundEvent`]s).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyRound {
    pub outcome: StepOutcome,
    pub why: Explanation,
    pub events: Vec<RoundEvent>,
}

impl PolicyRound {
    /// Whether the round's switch changed the cache (members in or out).
    pub fn swapped(&self) -> bool {
        self.events.iter().any(|e| matches!(e, RoundEvent::Switch { .. }))
    }
}

/// What changed since the last frame ([`LiveRun::step`]): the rounds played, every policy's
/// counters now, and the curve points each policy recorded since (the page appends them).
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub rounds: Vec<PlayedRound>,
    /// Rounds played so far.
    pub round: usize,
    pub counters: Vec<Checkpoint>,
    pub curves: Vec<Vec<Checkpoint>>,
}

/// One played round: its index, the arrival's 2-D position and each policy's round.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedRound {
    pub t: usize,
    pub xy: [f64; 2],
    pub policies: Vec<PolicyRound>,
}

/// A question asked as the next round ([`LiveRun::ask`]): the round, its cost and the universe
/// questions nearest to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub round: PlayedRound,
    /// `c(x)` from its token count (SPEC §2).
    pub cost: f64,
    /// The five universe rows nearest to the question, with their distances.
    pub universe: Vec<(usize, f64)>,
}

/// A policy's KRR cost surface on an `n × n` grid of the unit square (row-major, y up).
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    pub n: usize,
    pub mean: Vec<f64>,
    pub sd: Vec<f64>,
}

/// One seeded stream, its evaluation sample and oracle, and policies playing it side by side.
pub struct LiveRun {
    dataset: Arc<Dataset>,
    projection: Option<Projection>,
    trace: Trace,
    sims: Vec<Simulation>,
    t: usize,
    /// Rounds played by [`ask`](Self::ask): the round, its vector and its text. They replace the
    /// trace's arrival of that round (the trace, [`trace_json`](Self::trace_json) and the oracle
    /// keep the planned one).
    asked: Vec<(usize, Vec<f32>, String)>,
    /// Per policy, the checkpoints already handed out in a [`Frame`].
    sent: Vec<usize>,
    /// The cache size `k` of the run.
    k: usize,
}

impl LiveRun {
    /// Generates the stream of `model` and `params` on `dataset` and sets up `policies` on it.
    /// `projection` draws data of more than two dimensions (2-D data is drawn as is).
    pub fn new(
        dataset: Arc<Dataset>,
        projection: Option<Projection>,
        model: ArrivalModel,
        params: &Checked,
        policies: &[PolicyKind],
    ) -> Result<Self> {
        let trace = generate_trace(dataset.clone(), model, params)?;
        Self::from_trace(dataset, projection, trace, params, policies)
    }

    /// Sets up `policies` on a given trace of `dataset` (its evaluation sample and `M_orc` too).
    pub fn from_trace(
        dataset: Arc<Dataset>,
        projection: Option<Projection>,
        trace: Trace,
        params: &Checked,
        policies: &[PolicyKind],
    ) -> Result<Self> {
        if policies.is_empty() {
            return Err(Error::param("policies", "name at least one policy"));
        }
        if dataset.points.dim() != trace.dim() {
            return Err(Error::data(format!(
                "the trace's vectors have {} numbers but the dataset's have {}",
                trace.dim(),
                dataset.points.dim()
            )));
        }
        if dataset.points.dim() != 2 && projection.is_none() {
            return Err(Error::param(
                "projection",
                "data of more than two dimensions needs a 2-D projection",
            ));
        }
        let env = Arc::new(Environment::from_trace(&trace, params)?);
        let sims = policies
            .iter()
            .map(|&k| Simulation::new(env.clone(), k, params, 0))
            .collect::<Result<Vec<_>>>()?;
        let sent = vec![0; sims.len()];
        Ok(LiveRun { dataset, projection, trace, sims, t: 0, asked: Vec::new(), sent, k: params.k })
    }

    /// The horizon `T`.
    pub fn horizon(&self) -> usize {
        self.trace.horizon()
    }
    /// Rounds played so far.
    pub fn round(&self) -> usize {
        self.t
    }
    /// The policies, in order.
    pub fn policies(&self) -> Vec<PolicyKind> {
        self.sims.iter().filter_map(|s| s.kind()).collect()
    }
    /// The environment the policies share (`E`, `M_orc`, the metric).
    pub fn environment(&self) -> &Arc<Environment> {
        self.sims[0].environment()
    }
    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Per policy, how it chooses its cache among its ε-net's centers, with the run's `k`
    /// ([`PolicyKind::cache_rule_for`]): why a center it does not cache is left out. Empty for a
    /// policy without ε-net centers.
    pub fn cache_rules(&self) -> Vec<String> {
        self.policies().iter().map(|k| k.cache_rule_for(self.k)).collect()
    }

    /// What the view's picture is, in one line (drawn in each canvas): on 2-D data the space
    /// itself, else the projection with the variance it keeps ([`Projection::caption`]).
    pub fn caption(&self) -> String {
        match &self.projection {
            Some(p) => p.caption(),
            None => "2-D data drawn as is: distances are exact".to_string(),
        }
    }

    /// The 2-D position the view draws `x` at: the point itself on 2-D data, else its projection.
    pub fn xy(&self, x: &[f32]) -> [f64; 2] {
        xy_of(&self.projection, x)
    }

    /// The arrival vector of a played round (an asked question's, or the trace's).
    pub fn x_at(&self, r: usize) -> &[f32] {
        match self.asked.iter().find(|(k, ..)| *k == r) {
            Some((_, x, _)) => x,
            None => self.trace.x(r),
        }
    }

    /// `L(M_orc)`, the oracle's loss on the evaluation sample (SPEC §3, §5): regret 0.
    pub fn oracle_loss(&self) -> f64 {
        self.environment().oracle.loss
    }

    /// `L(∅)`, the loss of the empty cache on the evaluation sample: what a run that sends every
    /// query to the LLM pays per round (eq. 2 with `φ(d(x, ∅)) = φ(∞)`); its average regret is
    /// `L(∅) − L(M_orc)`.
    pub fn no_cache_loss(&self) -> f64 {
        let env = self.environment();
        env.eval.loss(&crate::space::Points::new(env.dim).expect("the run's dimension is at least 1"))
    }

    /// The policy at `i`, or an error naming the range.
    pub fn policy(&self, i: usize) -> Result<&Simulation> {
        self.sims.get(i).ok_or_else(|| {
            Error::param(
                "policy",
                format!("there are {} policies, index {i} is out of range", self.sims.len()),
            )
        })
    }
    fn policy_mut(&mut self, i: usize) -> Result<&mut Simulation> {
        self.policy(i)?;
        Ok(&mut self.sims[i])
    }

    /// Plays up to `n` more rounds of the stream for every policy (fewer at the horizon) and
    /// returns them as a [`Frame`] (`n = 0`: the counters now, nothing played).
    pub fn step(&mut self, n: usize) -> Frame {
        let n = n.min(self.horizon() - self.t);
        let mut rounds = Vec::with_capacity(n);
        for _ in 0..n {
            let a = self.trace.arrival(self.t);
            let xy = xy_of(&self.projection, a.x);
            rounds.push(play(&mut self.sims, &a, xy, false));
            self.t += 1;
        }
        self.frame(rounds)
    }

    /// Closes a frame of `rounds`: every policy's counters now and the checkpoints it recorded
    /// since the last frame.
    pub fn frame(&mut self, rounds: Vec<PlayedRound>) -> Frame {
        let counters = self.counters();
        let curves = self
            .sims
            .iter()
            .zip(&mut self.sent)
            .map(|(s, sent)| {
                let new = s.checkpoints()[*sent..].to_vec();
                *sent = s.checkpoints().len();
                new
            })
            .collect();
        Frame { rounds, round: self.t, counters, curves }
    }

    /// Plays the next round with a given arrival instead of the stream's ("Ask a question"): `x` of
    /// the dataset's dimension, `tokens` its GPT-2 token count, `text` its text. Its cost is
    /// `c = c_floor + (1 − c_floor)·(tokens − min)/(max − min)` over the dataset's token counts
    /// (SPEC §2), clamped to `[c_floor, 1]`; an LLM call observes it with the round's planned noise
    /// `η_t`.
    pub fn ask(&mut self, x: Vec<f32>, tokens: usize, text: String) -> Result<Asked> {
        let r = self.t;
        if r >= self.horizon() {
            return Err(Error::param("round", "the run has reached its horizon: no round is left"));
        }
        let dim = self.dataset.points.dim();
        if x.len() != dim {
            return Err(Error::param(
                "x",
                format!("has {} numbers but the dataset's vectors have {dim}", x.len()),
            ));
        }
        if x.iter().any(|f| !f.is_finite()) {
            return Err(Error::param("x", "has a value that is not a finite number"));
        }
        let cost = self.dataset.cost_of_tokens(tokens);
        let eta = self.trace.arrival(r).eta;
        let a = Arrival { t: r, x: &x, cost, eta, index: None, label: None, tenant: None };
        let xy = self.xy(&x);
        let round = play(&mut self.sims, &a, xy, true);
        self.t += 1;
        let universe = self.nearest_universe(&x, 5);
        self.asked.push((r, x, text));
        Ok(Asked { round, cost, universe })
    }

    /// The `k` universe rows nearest to `x` (ties to the lowest row) with their distances.
    pub fn nearest_universe(&self, x: &[f32], k: usize) -> Vec<(usize, f64)> {
        let m = &self.environment().metric;
        let mut all: Vec<(usize, f64)> =
            self.dataset.points.iter().enumerate().map(|(i, y)| (i, m.dist(x, y))).collect();
        crate::order::sort_by_value_then_index(&mut all);
        all.truncate(k);
        all
    }

    /// The question of a played round, for hovering a center or an arrival: an asked question's
    /// text, the universe text of an exact arrival, else `"≈ "` and the nearest universe text
    /// (perturbed arrivals); `None` for an unplayed round or a dataset without texts.
    pub fn round_text(&self, r: usize) -> Option<String> {
        if r >= self.t {
            return None;
        }
        if let Some((_, _, text)) = self.asked.iter().find(|(k, ..)| *k == r) {
            return Some(text.clone());
        }
        let (i, prefix) = match self.trace.arrival(r).index {
            Some(i) => (i as usize, ""),
            None => (self.nearest_universe(self.trace.x(r), 1).first()?.0, "≈ "),
        };
        self.dataset.texts.get(i).filter(|t| !t.is_empty()).map(|t| format!("{prefix}{t}"))
    }

    /// The gold answers (SPEC §14) of a played round's arrival, as the page shows them: an answer
    /// list, a text or a class; `None` for an unplayed round, an asked question or data without
    /// ground truth.
    pub fn round_answers(&self, r: usize) -> Option<Vec<String>> {
        if r >= self.t || self.asked.iter().any(|(k, ..)| *k == r) {
            return None;
        }
        Some(match self.trace.label(r)? {
            Label::Answers(v) => v.clone(),
            Label::Text(s) => vec![s.clone()],
            Label::Class(c) => vec![format!("class {c}")],
        })
    }

    /// Every policy's metrics now.
    pub fn counters(&mut self) -> Vec<Checkpoint> {
        self.sims.iter_mut().map(|s| s.snapshot()).collect()
    }

    /// Policy `i`'s current cache: member keys and their 2-D positions.
    pub fn cache(&self, i: usize) -> Result<(Vec<u64>, Vec<f64>)> {
        let c = self.policy(i)?.policy().cache();
        Ok((c.keys().to_vec(), c.points().iter().flat_map(|x| self.xy(x)).collect()))
    }

    /// The oracle's cache: member keys and their 2-D positions.
    pub fn oracle_cache(&self) -> (Vec<u64>, Vec<f64>) {
        let o = &self.environment().oracle;
        (o.keys.clone(), o.cache.iter().flat_map(|x| self.xy(x)).collect())
    }

    /// 2-D positions of the dataset's universe (`[x0, y0, x1, y1, …]`).
    pub fn universe_xy(&self) -> Vec<f64> {
        self.dataset.points.iter().flat_map(|x| self.xy(x)).collect()
    }

    /// Policy `i`'s ε-net centers with what it believes of each, and their 2-D positions (empty
    /// without a net).
    pub fn centers(&mut self, i: usize) -> Result<(Vec<CenterInfo>, Vec<f64>)> {
        let details = self.policy_mut(i)?.policy_mut().center_details().unwrap_or_default();
        let xy = details.iter().flat_map(|c| self.xy(self.x_at(c.key as usize))).collect();
        Ok((details, xy))
    }

    /// Policy `i`'s recorded checkpoints.
    pub fn curves(&mut self, i: usize) -> Result<Vec<Checkpoint>> {
        Ok(self.policy_mut(i)?.result().checkpoints)
    }

    /// Policy `i`'s KRR cost surface on an `n × n` grid of the unit square (2-D data and kernel
    /// policies only; 2 ≤ `n` ≤ 128).
    pub fn heatmap(&self, i: usize, n: usize) -> Result<Heatmap> {
        let sim = self.policy(i)?;
        let (pol, name) = (sim.policy(), sim.kind().map_or("this policy", |k| k.label()));
        if !(2..=128).contains(&n) {
            return Err(Error::param("n", format!("the grid is 2 × 2 to 128 × 128, got {n}")));
        }
        if self.dataset.points.dim() != 2 {
            return Err(Error::unsupported(
                "the cost heatmap is drawn for 2-D data (the plane dataset) only",
            ));
        }
        let (mut mean, mut sd) = (Vec::with_capacity(n * n), Vec::with_capacity(n * n));
        for gy in 0..n {
            for gx in 0..n {
                let x = [(gx as f32 + 0.5) / n as f32, (gy as f32 + 0.5) / n as f32];
                let p = pol
                    .posterior_at(&x)
                    .ok_or_else(|| Error::unsupported(format!("{name} has no kernel cost model")))?;
                mean.push(p.mean);
                sd.push(p.sd());
            }
        }
        Ok(Heatmap { n, mean, sd })
    }

    /// Every policy's result so far (curves, last checkpoint, diagnostics), for export.
    pub fn results(&mut self) -> Vec<RunResult> {
        self.sims.iter_mut().map(|s| s.result()).collect()
    }

    /// The stream as a SPEC §12 trace (JSON text), so the run can be replayed elsewhere.
    pub fn trace_json(&self) -> String {
        self.trace.to_json()
    }
}

/// Where the view draws `x`: the point itself on 2-D data, else its projection.
fn xy_of(projection: &Option<Projection>, x: &[f32]) -> [f64; 2] {
    match projection {
        Some(p) => p.project(x),
        None => [x[0] as f64, x[1] as f64],
    }
}

/// Plays one round with arrival `a` for every policy (`foreign`: not the trace's arrival, as an
/// asked question), with what each policy recorded doing.
fn play(sims: &mut [Simulation], a: &Arrival, xy: [f64; 2], foreign: bool) -> PlayedRound {
    let policies = sims
        .iter_mut()
        .map(|sim| {
            let (outcome, why) = if foreign { sim.step_explained(a) } else { sim.step_traced(a) };
            let events = RoundEvent::of(&why);
            PolicyRound { outcome, why, events }
        })
        .collect();
    PlayedRound { t: a.t, xy, policies }
}
