//! Arrival streams (SPEC §7, §8, §11.10). Every stream is a pure function of
//! (dataset, parameters, seed): seeded ChaCha8 generators, one independent sub-stream per
//! purpose, no global state — so the evaluation sample is the same whatever the horizon is.
//!
//! - `Jittered` (synthetic, user data): pick a universe query uniformly, add `N(0, σ_e² I)` to its
//!   embedding, renormalise; the arrival keeps that query's cost (SPEC §2).
//! - `Bursty` (nq-trivia): bursts alternate between the sources, starting with the first;
//!   lengths are Geometric(p = 1/mean) on {1, 2, …}; within a source, query i has popularity
//!   `p_i ∝ s_i`, `s_i ~ LogNormal(0, 1)`; arrivals are exact universe queries. `E` and the
//!   offline log are i.i.d. from the stationary mixture (each source with equal probability).
//! - `Plane`: i.i.d. from the blob mixture of [`crate::dataset::plane`].
//! - `Popularity` (any dataset): query i has popularity `p_i ∝ s_i`, `s_i ~ LogNormal(0, 1)`
//!   over the whole universe, no bursts; arrivals, `E` and the log are i.i.d. exact queries.
//! - `Replay` (any dataset): the file's order is the stream, arrival t = row t, `T` at most the
//!   number of rows (repeated queries are repeated lines); `E` and the log are i.i.d. from the
//!   file's empirical distribution (each row equally likely). With an index file of arrivals
//!   ([`crate::dataset::ReplayIndex`]) arrival t is row `order[t]`, `T` at most its length, and
//!   `E` and the log are i.i.d. from the index's empirical distribution (each line equally likely).
//!
//! [`ArrivalSpec`] is how a user names one of them (`uniform`, `bursty`, `popularity`,
//! `replay`, `plane`), for any dataset.

use crate::config::Params;
use crate::dataset::{plane, Dataset};
use crate::error::{Error, Result};
use crate::portable;
use crate::space::Points;
use crate::trace::{Queries, Trace};
use rand::distr::weighted::WeightedIndex;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::Distribution;
use std::sync::{Arc, Mutex};

/// How arrivals are drawn from a universe.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum ArrivalModel {
    Jittered { sigma: f64 },
    Bursty { burst_mean: f64 },
    Plane,
    Popularity,
    Replay,
}

/// An arrival model as a user names it (CLI `--arrival`, the `arrival` of a dataset object in an
/// experiment definition). Its numbers come from the parameters (`synthetic_sigma` for
/// `uniform`, `burst_mean` for `bursty`, SPEC §7); the groups of `bursty` from the record field
/// `group_by` of a user dataset (the built-in nq-trivia's groups are its two sources).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum ArrivalSpec {
    /// Pick a query uniformly, jitter it by `N(0, σ_e² I)` and renormalise; `σ_e` calibrated to
    /// a median arrival-to-query distance of 0.074 unless `synthetic_sigma` is set.
    Uniform,
    /// Bursts alternating between groups, Geometric lengths of mean `burst_mean`, log-normal
    /// popularity within a group.
    Bursty {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        group_by: Option<String>,
    },
    /// Log-normal popularity over all queries, no bursts.
    Popularity,
    /// The file's order is the stream; `T` is its length. With `index`, the stream is that index
    /// file of arrivals instead (one record id or row number per line; read with the dataset,
    /// [`crate::dataset::Dataset::set_replay_index`]); `index_checksum`, when given, must match it.
    Replay {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index_checksum: Option<String>,
    },
    /// The `plane` blob mixture (the plane dataset only).
    Plane,
}

impl ArrivalSpec {
    /// Parses a CLI name: `uniform`, `bursty`, `popularity`, `replay`, `plane`.
    pub fn parse(name: &str, group_by: Option<&str>) -> Result<ArrivalSpec> {
        let spec = match name {
            "uniform" => ArrivalSpec::Uniform,
            "bursty" => ArrivalSpec::Bursty { group_by: group_by.map(str::to_string) },
            "popularity" => ArrivalSpec::Popularity,
            "replay" => ArrivalSpec::Replay { index: None, index_checksum: None },
            "plane" => ArrivalSpec::Plane,
            _ => {
                return Err(Error::param(
                    "arrival",
                    format!(
                        "unknown arrival model `{name}`; known: uniform, bursty, popularity, replay, plane"
                    ),
                ))
            }
        };
        if group_by.is_some() && !matches!(spec, ArrivalSpec::Bursty { .. }) {
            return Err(Error::param("group_by", "groups are for the `bursty` model only"));
        }
        Ok(spec)
    }

    /// The record field a user dataset must be grouped by.
    pub fn group_by(&self) -> Option<&str> {
        match self {
            ArrivalSpec::Bursty { group_by } => group_by.as_deref(),
            _ => None,
        }
    }

    /// The index file of arrivals a `replay` model names, if any.
    pub fn replay_index(&self) -> Option<&str> {
        match self {
            ArrivalSpec::Replay { index, .. } => index.as_deref(),
            _ => None,
        }
    }

    /// The model for `dataset` under `params`; `replay` sets `params.horizon` to the number of
    /// rows, or of lines of its index file (SPEC: `T` is the log's length).
    pub fn resolve(&self, dataset: &Dataset, params: &mut Params) -> Result<ArrivalModel> {
        Ok(match self {
            ArrivalSpec::Uniform => ArrivalModel::Jittered {
                sigma: params
                    .synthetic_sigma
                    .unwrap_or_else(|| calibrate_sigma(dataset, SYNTHETIC_MEDIAN_DISTANCE)),
            },
            ArrivalSpec::Bursty { group_by } => {
                if dataset.user && group_by.is_none() {
                    return Err(Error::param(
                        "arrival",
                        "`bursty` on a user dataset needs the field its groups come from: --group-by FIELD (\"group_by\" in JSON)",
                    ));
                }
                if !dataset.user && group_by.is_some() {
                    return Err(Error::param(
                        "group_by",
                        format!("the built-in `{}` has its own groups; drop group_by", dataset.name),
                    ));
                }
                ArrivalModel::Bursty { burst_mean: params.burst_mean }
            }
            ArrivalSpec::Popularity => ArrivalModel::Popularity,
            ArrivalSpec::Replay { index, index_checksum } => {
                params.horizon = match (index, &dataset.replay) {
                    (None, None) => dataset.len(),
                    (Some(f), Some(r)) => {
                        if let Some(c) = index_checksum.as_ref().filter(|c| **c != r.checksum) {
                            return Err(Error::at(
                                "",
                                format!(
                                    "its arrivals have checksum {} but the experiment was defined with an index of checksum {c}; the file changed (drop \"index_checksum\" to accept it)",
                                    r.checksum
                                ),
                            )
                            .in_file(f));
                        }
                        r.order.len()
                    }
                    (Some(f), None) => {
                        return Err(Error::param(
                            "arrival",
                            format!("the replay index `{f}` was not read with the dataset; load it with the data"),
                        ))
                    }
                    (None, Some(r)) => {
                        return Err(Error::param(
                            "arrival",
                            format!(
                                "the dataset was read with the replay index `{}`; name it (\"index\") or read the data without it",
                                r.file
                            ),
                        ))
                    }
                };
                ArrivalModel::Replay
            }
            ArrivalSpec::Plane => {
                if dataset.user || dataset.name != "plane" {
                    return Err(Error::param("arrival", "the `plane` model belongs to the plane dataset"));
                }
                ArrivalModel::Plane
            }
        })
    }
}

/// The model of `arrival` if given, else the dataset's SPEC §7 default (replay sets the horizon).
pub fn resolve_arrival(
    arrival: Option<&ArrivalSpec>,
    dataset: &Dataset,
    params: &mut Params,
) -> Result<ArrivalModel> {
    match arrival {
        Some(a) => a.resolve(dataset, params),
        None => Ok(ArrivalModel::default_for(dataset, params)),
    }
}

/// Independent random sub-streams of one seed.
#[derive(Clone, Copy, Debug)]
pub enum Purpose {
    Popularity = 1,
    Arrivals = 2,
    Noise = 3,
    Eval = 4,
    Log = 5,
    Propensity = 6,
    Policy = 7,
    Calibration = 8,
}

/// The generator for `purpose` under `seed`.
pub fn rng(seed: u64, purpose: Purpose) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(purpose as u64);
    r
}

/// The target of the synthetic calibration: median arrival-to-prompt distance (paper appendix).
pub const SYNTHETIC_MEDIAN_DISTANCE: f64 = 0.074;

impl ArrivalModel {
    /// The SPEC §7 model of a dataset: bursty for nq-trivia, the blob mixture for plane,
    /// jittered prompts otherwise (σ_e from `params` or calibrated).
    pub fn default_for(dataset: &Dataset, params: &Params) -> ArrivalModel {
        let builtin = if dataset.user { "" } else { dataset.name.as_str() };
        match builtin {
            "nq-trivia" => ArrivalModel::Bursty { burst_mean: params.burst_mean },
            "plane" => ArrivalModel::Plane,
            _ => ArrivalModel::Jittered {
                sigma: params
                    .synthetic_sigma
                    .unwrap_or_else(|| calibrate_sigma(dataset, SYNTHETIC_MEDIAN_DISTANCE)),
            },
        }
    }
}

impl ArrivalModel {
    /// Whether arrivals are exact universe rows (then traces store row indices).
    pub fn exact(&self) -> bool {
        matches!(self, ArrivalModel::Bursty { .. } | ArrivalModel::Popularity | ArrivalModel::Replay)
    }
}

/// `σ_e` such that the median distance from a jittered arrival to its source is `target`
/// (SPEC §7). Deterministic: 4,000 fixed draws (calibration sub-stream of seed 0) with common
/// random numbers across the bisection. Cached per dataset checksum.
pub fn calibrate_sigma(dataset: &Dataset, target: f64) -> f64 {
    static CACHE: Mutex<Vec<(String, u64, f64)>> = Mutex::new(Vec::new());
    let key = (dataset.checksum.clone(), target.to_bits());
    if let Some(&(_, _, s)) = CACHE.lock().unwrap().iter().find(|(c, t, _)| *c == key.0 && *t == key.1) {
        return s;
    }
    let mut r = rng(0, Purpose::Calibration);
    let dim = dataset.points.dim();
    let draws: Vec<(usize, Vec<f64>)> = (0..4000)
        .map(|_| (r.random_range(0..dataset.len()), (0..dim).map(|_| portable::std_normal(&mut r)).collect()))
        .collect();
    let metric = dataset.metric();
    let median_at = |sigma: f64| -> f64 {
        let mut buf = vec![0f32; dim];
        let mut d: Vec<f64> = draws
            .iter()
            .map(|(i, z)| {
                jitter_into(dataset.points.row(*i), sigma, z.iter().copied(), &mut buf);
                metric.dist(&buf, dataset.points.row(*i))
            })
            .collect();
        d.sort_by(f64::total_cmp);
        d[d.len() / 2]
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if median_at(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let s = 0.5 * (lo + hi);
    CACHE.lock().unwrap().push((key.0, key.1, s));
    s
}

/// `normalise(x + σ·z)` into `out` (computed in f64, stored as f32).
fn jitter_into(x: &[f32], sigma: f64, z: impl Iterator<Item = f64>, out: &mut [f32]) {
    let v: Vec<f64> = x.iter().zip(z).map(|(&xi, zi)| xi as f64 + sigma * zi).collect();
    let norm = v.iter().map(|a| a * a).sum::<f64>().sqrt();
    let scale = if norm > 0.0 { 1.0 / norm } else { 1.0 };
    for (o, a) in out.iter_mut().zip(&v) {
        *o = (a * scale) as f32;
    }
}

/// One drawn query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drawn {
    pub cost: f64,
    /// The universe row it came from (plane: none).
    pub source: Option<u32>,
    /// Whether the query *is* that universe row (no jitter).
    pub exact: bool,
}

/// Draws queries from a dataset under an arrival model.
pub struct Sampler {
    dataset: Arc<Dataset>,
    model: ArrivalModel,
    /// Per source: its universe rows and their popularity distribution.
    groups: Vec<(Vec<u32>, WeightedIndex<f64>)>,
}

impl Sampler {
    /// The popularity draws (bursty model) use the `Popularity` sub-stream of `seed`.
    pub fn new(dataset: Arc<Dataset>, model: ArrivalModel, seed: u64) -> Result<Self> {
        let mut groups = Vec::new();
        match model {
            ArrivalModel::Jittered { sigma } if !(sigma.is_finite() && sigma >= 0.0) => {
                return Err(Error::param("synthetic_sigma", format!("must be finite and ≥ 0, got {sigma}")));
            }
            ArrivalModel::Bursty { burst_mean } => {
                if !(burst_mean.is_finite() && burst_mean >= 1.0) {
                    return Err(Error::param("burst_mean", format!("must be ≥ 1, got {burst_mean}")));
                }
                let mut r = rng(seed, Purpose::Popularity);
                for g in 0..dataset.group_names.len() {
                    let rows: Vec<u32> = (0..dataset.len() as u32)
                        .filter(|&i| dataset.groups[i as usize] as usize == g)
                        .collect();
                    if rows.is_empty() {
                        continue;
                    }
                    let s: Vec<f64> = rows.iter().map(|_| portable::lognormal(&mut r, 0.0, 1.0)).collect();
                    groups.push((rows, WeightedIndex::new(&s).expect("log-normal weights are positive")));
                }
            }
            ArrivalModel::Popularity => {
                let mut r = rng(seed, Purpose::Popularity);
                let rows: Vec<u32> = (0..dataset.len() as u32).collect();
                let s: Vec<f64> = rows.iter().map(|_| portable::lognormal(&mut r, 0.0, 1.0)).collect();
                groups.push((rows, WeightedIndex::new(&s).expect("log-normal weights are positive")));
            }
            _ => {}
        }
        Ok(Sampler { dataset, model, groups })
    }

    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }
    pub fn model(&self) -> ArrivalModel {
        self.model
    }
    pub fn dim(&self) -> usize {
        self.dataset.points.dim()
    }
    /// Number of sources that bursts alternate between.
    pub fn n_groups(&self) -> usize {
        self.groups.len().max(1)
    }

    /// One draw from source `group` (bursty) or from `f` (other models) into `out`.
    pub fn draw<R: Rng + ?Sized>(&self, group: Option<usize>, rng: &mut R, out: &mut [f32]) -> Drawn {
        match self.model {
            ArrivalModel::Jittered { sigma } => {
                let i = rng.random_range(0..self.dataset.len());
                let x = self.dataset.points.row(i);
                // drawn lazily in coordinate order: the same draws as collecting them first
                jitter_into(x, sigma, (0..x.len()).map(|_| portable::std_normal(rng)), out);
                Drawn { cost: self.dataset.costs[i], source: Some(i as u32), exact: sigma == 0.0 }
            }
            ArrivalModel::Bursty { .. } => {
                let g = group.unwrap_or_else(|| rng.random_range(0..self.groups.len()));
                let (rows, w) = &self.groups[g];
                let i = rows[w.sample(rng)] as usize;
                out.copy_from_slice(self.dataset.points.row(i));
                Drawn { cost: self.dataset.costs[i], source: Some(i as u32), exact: true }
            }
            ArrivalModel::Popularity => {
                let (rows, w) = &self.groups[0];
                let i = rows[w.sample(rng)] as usize;
                out.copy_from_slice(self.dataset.points.row(i));
                Drawn { cost: self.dataset.costs[i], source: Some(i as u32), exact: true }
            }
            ArrivalModel::Replay => {
                // the empirical distribution of the file (the online stream is the file itself),
                // or of its index file of arrivals
                let i = match &self.dataset.replay {
                    Some(r) => r.order[rng.random_range(0..r.order.len())] as usize,
                    None => rng.random_range(0..self.dataset.len()),
                };
                out.copy_from_slice(self.dataset.points.row(i));
                Drawn { cost: self.dataset.costs[i], source: Some(i as u32), exact: true }
            }
            ArrivalModel::Plane => {
                let p = plane::sample(rng);
                out.copy_from_slice(&p);
                Drawn { cost: plane::cost(&p), source: None, exact: false }
            }
        }
    }

    /// `n` i.i.d. draws from `f` (the stationary mixture for bursty data): for `E` and the log.
    pub fn iid<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> (Queries, Vec<f64>) {
        let dim = self.dim();
        let mut buf = vec![0f32; dim];
        let mut costs = Vec::with_capacity(n);
        if self.model.exact() {
            let mut idx = Vec::with_capacity(n);
            for _ in 0..n {
                let d = self.draw(None, rng, &mut buf);
                idx.push(d.source.expect("bursty draws are universe rows"));
                costs.push(d.cost);
            }
            return (Queries::Indices(idx), costs);
        }
        let mut data = Vec::with_capacity(n * dim);
        for _ in 0..n {
            let d = self.draw(None, rng, &mut buf);
            data.extend_from_slice(&buf);
            costs.push(d.cost);
        }
        (Queries::Vectors(Points::from_flat(dim, data).expect("finite draws")), costs)
    }
}

/// One online arrival.
#[derive(Clone, Copy, Debug)]
pub struct Arrival<'a> {
    /// Round, from 0.
    pub t: usize,
    pub x: &'a [f32],
    /// True expected cost `c(x_t)`.
    pub cost: f64,
    /// Noise added when the LLM is called: it observes `cost + eta`.
    pub eta: f64,
    /// The universe row, when the arrival is exactly one.
    pub index: Option<u32>,
}

/// Anything that feeds a simulation: a generated stream or a replayed trace.
pub trait ArrivalSource {
    fn dim(&self) -> usize;
    fn horizon(&self) -> usize;
    fn next_arrival(&mut self) -> Option<Arrival<'_>>;
}

/// The online stream of SPEC §7, generated lazily (memory does not grow with `T`).
pub struct OnlineStream {
    sampler: Arc<Sampler>,
    arrivals: ChaCha8Rng,
    noise_rng: ChaCha8Rng,
    noise_sd: f64,
    horizon: usize,
    t: usize,
    group: usize,
    burst_left: u64,
    /// Success probability of the burst-length geometric (bursty model).
    burst: Option<f64>,
    buf: Vec<f32>,
}

impl OnlineStream {
    pub fn new(sampler: Arc<Sampler>, horizon: usize, noise_r: f64, seed: u64) -> Result<Self> {
        let burst = match sampler.model() {
            ArrivalModel::Bursty { burst_mean } => Some(1.0 / burst_mean),
            _ => None,
        };
        if !(noise_r.is_finite() && noise_r >= 0.0) {
            return Err(Error::param("noise_r", format!("must be finite and ≥ 0, got {noise_r}")));
        }
        if sampler.model() == ArrivalModel::Replay {
            let (len, what) = match &sampler.dataset().replay {
                Some(r) => {
                    (r.order.len(), format!("its index file {} has {} arrivals", r.file, r.order.len()))
                }
                None => (sampler.dataset().len(), format!("the file has {} rows", sampler.dataset().len())),
            };
            if horizon > len {
                return Err(Error::param(
                    "horizon",
                    format!("a replayed file is its own stream: T = {horizon} but {what}; T is at most its length"),
                ));
            }
        }
        let dim = sampler.dim();
        Ok(OnlineStream {
            sampler,
            arrivals: rng(seed, Purpose::Arrivals),
            noise_rng: rng(seed, Purpose::Noise),
            noise_sd: noise_r,
            horizon,
            t: 0,
            group: 0,
            burst_left: 0,
            burst,
            buf: vec![0f32; dim],
        })
    }
}

impl ArrivalSource for OnlineStream {
    fn dim(&self) -> usize {
        self.buf.len()
    }
    fn horizon(&self) -> usize {
        self.horizon
    }
    fn next_arrival(&mut self) -> Option<Arrival<'_>> {
        if self.t >= self.horizon {
            return None;
        }
        let group = match &self.burst {
            Some(g) => {
                if self.burst_left == 0 {
                    // SPEC §11.10: bursts start with the first source and alternate; length 1 + Geometric.
                    if self.t > 0 {
                        self.group = (self.group + 1) % self.sampler.n_groups();
                    }
                    self.burst_left = portable::geometric(&mut self.arrivals, *g);
                }
                self.burst_left -= 1;
                Some(self.group)
            }
            None => None,
        };
        let d = if self.sampler.model() == ArrivalModel::Replay {
            let i = match &self.sampler.dataset().replay {
                Some(r) => r.order[self.t] as usize,
                None => self.t,
            };
            self.buf.copy_from_slice(self.sampler.dataset().points.row(i));
            Drawn { cost: self.sampler.dataset().costs[i], source: Some(i as u32), exact: true }
        } else {
            self.sampler.draw(group, &mut self.arrivals, &mut self.buf)
        };
        let eta = portable::normal(&mut self.noise_rng, 0.0, self.noise_sd);
        let t = self.t;
        self.t += 1;
        Some(Arrival { t, x: &self.buf, cost: d.cost, eta, index: if d.exact { d.source } else { None } })
    }
}

impl Trace {
    /// Online round `t` as an [`Arrival`] (true cost, noise, universe row).
    pub fn arrival(&self, t: usize) -> Arrival<'_> {
        Arrival { t, x: self.x(t), cost: self.cost[t], eta: self.eta[t], index: self.arrivals.index(t) }
    }
}

/// Replays a trace's online part.
pub struct TraceReplay<'a> {
    trace: &'a Trace,
    t: usize,
}

impl<'a> TraceReplay<'a> {
    pub fn new(trace: &'a Trace) -> Self {
        TraceReplay { trace, t: 0 }
    }
}

impl ArrivalSource for TraceReplay<'_> {
    fn dim(&self) -> usize {
        self.trace.dim()
    }
    fn horizon(&self) -> usize {
        self.trace.horizon()
    }
    fn next_arrival(&mut self) -> Option<Arrival<'_>> {
        let t = self.t;
        if t >= self.trace.horizon() {
            return None;
        }
        self.t += 1;
        Some(self.trace.arrival(t))
    }
}

/// Everything random about one run under `params` (its seed): the online stream materialised,
/// `E`, and the offline log with its observation draws `z ~ Bernoulli(ν)` (SPEC §8).
pub fn generate_trace(dataset: Arc<Dataset>, model: ArrivalModel, params: &Params) -> Result<Trace> {
    params.validate()?;
    let seed = params.seed;
    let sampler = Arc::new(Sampler::new(dataset.clone(), model, seed)?);
    let mut stream = OnlineStream::new(sampler.clone(), params.horizon, params.noise_r, seed)?;
    let dim = sampler.dim();
    let exact = model.exact();
    let (mut idx, mut data, mut cost, mut eta) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while let Some(a) = stream.next_arrival() {
        if exact {
            idx.push(a.index.expect("exact arrivals are universe rows"));
        } else {
            data.extend_from_slice(a.x);
        }
        cost.push(a.cost);
        eta.push(a.eta);
    }
    // Log entries beyond the horizon observe noise from the same sub-stream, continued.
    let mut noise_rng = rng(seed, Purpose::Noise);
    let need = params.horizon.max(params.log_len);
    let all_eta: Vec<f64> =
        (0..need).map(|_| portable::normal(&mut noise_rng, 0.0, params.noise_r)).collect();
    debug_assert_eq!(&all_eta[..eta.len()], &eta[..]);
    let arrivals =
        if exact { Queries::Indices(idx) } else { Queries::Vectors(Points::from_flat(dim, data)?) };
    let (eval, eval_cost) = sampler.iid(params.n_eval, &mut rng(seed, Purpose::Eval));
    let (log, log_cost) = sampler.iid(params.log_len, &mut rng(seed, Purpose::Log));
    let mut zr = rng(seed, Purpose::Propensity);
    let z = (0..params.log_len).map(|_| zr.random::<f64>() < params.propensity).collect();
    Ok(Trace {
        dist_scale: dataset.dist_scale,
        universe: exact.then(|| dataset.points.clone()),
        universe_cost: exact.then(|| dataset.costs.clone()),
        arrivals,
        cost,
        eta: all_eta,
        z,
        eval,
        eval_cost,
        offline: Some((log, log_cost)),
        meta: serde_json::json!({
            "generator": concat!("csc ", env!("CARGO_PKG_VERSION")),
            "dataset": dataset.info(),
            "arrival_model": model,
            "params": params,
        }),
    })
}
