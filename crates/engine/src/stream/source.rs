//! What feeds a simulation: the online stream generated lazily, a replayed trace, and the whole
//! random part of one run materialised as a SPEC §12 trace (the online stream, `E` and the
//! offline log of SPEC §8).

use super::model::ArrivalModel;
use super::sampler::{rng, Drawn, Purpose, Sampler};
use crate::answers::Label;
use crate::config::Checked;
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::portable;
use crate::space::Points;
use crate::trace::{Queries, Trace, TraceLabels};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

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
    /// The arrival's ground truth (SPEC §14), when the data has it: what a served answer is
    /// checked against and what a cached item founded by this arrival carries.
    pub label: Option<&'a Label>,
    /// The tenant whose query this is (the `tenants` model, or a trace with tenants); `None`:
    /// one tenant.
    pub tenant: Option<u32>,
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
    /// The tenants' own sub-stream (the `tenants` model): tenant `τ_t` uniform on {0, …, N−1}.
    tenants: Option<(ChaCha8Rng, usize)>,
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
        let tenants = matches!(sampler.model(), ArrivalModel::Tenants { .. })
            .then(|| (rng(seed, Purpose::Tenants), sampler.n_tenants()));
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
            tenants,
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
        // SPEC-NOTES "Tenants": the round's tenant from its own sub-stream, then its query from
        // that tenant's popularity (the arrivals sub-stream).
        let tenant = self.tenants.as_mut().map(|(r, n)| r.random_range(0..*n));
        let group = group.or(tenant);
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
        Some(Arrival {
            t,
            x: &self.buf,
            cost: d.cost,
            eta,
            index: if d.exact { d.source } else { None },
            // SPEC §14: the label of the universe row drawn or perturbed
            label: d.source.and_then(|i| self.sampler.dataset().label(i as usize)),
            tenant: tenant.map(|g| g as u32),
        })
    }
}

impl Trace {
    /// Online round `t` as an [`Arrival`] (true cost, noise, universe row).
    pub fn arrival(&self, t: usize) -> Arrival<'_> {
        Arrival {
            t,
            x: self.x(t),
            cost: self.cost[t],
            eta: self.eta[t],
            index: self.arrivals.index(t),
            label: self.label(t),
            tenant: self.tenants.as_ref().map(|v| v[t]),
        }
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
pub fn generate_trace(dataset: Arc<Dataset>, model: ArrivalModel, params: &Checked) -> Result<Trace> {
    let seed = params.seed;
    let sampler = Arc::new(Sampler::new(dataset.clone(), model, seed)?);
    let mut stream = OnlineStream::new(sampler.clone(), params.horizon, params.noise_r, seed)?;
    let dim = sampler.dim();
    let exact = model.exact();
    let (mut idx, mut data, mut cost, mut eta) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut arrival_labels: Vec<Option<Label>> = Vec::new();
    let mut tenants = Vec::new();
    while let Some(a) = stream.next_arrival() {
        tenants.extend(a.tenant);
        if exact {
            idx.push(a.index.expect("exact arrivals are universe rows"));
        } else {
            data.extend_from_slice(a.x);
        }
        cost.push(a.cost);
        eta.push(a.eta);
        arrival_labels.push(a.label.cloned());
    }
    // Log entries beyond the horizon observe noise from the same sub-stream, continued.
    let mut noise_rng = rng(seed, Purpose::Noise);
    let need = params.horizon.max(params.log_len);
    let all_eta: Vec<f64> =
        (0..need).map(|_| portable::normal(&mut noise_rng, 0.0, params.noise_r)).collect();
    debug_assert_eq!(&all_eta[..eta.len()], &eta[..]);
    let arrivals =
        if exact { Queries::Indices(idx) } else { Queries::Vectors(Points::from_flat(dim, data)?) };
    let (eval, eval_cost, eval_sources) = sampler.iid_sourced(params.n_eval, &mut rng(seed, Purpose::Eval));
    // SPEC §14: ground truth travels with the trace. Exact arrivals and E are universe rows
    // (labelled through `universe_labels`); jittered ones carry their source prompt's label.
    let gt = dataset.ground_truth.labels();
    let (log, log_cost, log_sources) = sampler.iid_sourced(params.log_len, &mut rng(seed, Purpose::Log));
    let labels = TraceLabels {
        arrivals: if exact { None } else { arrival_labels.into_iter().collect::<Option<Vec<_>>>() },
        universe: if exact { gt.map(<[Label]>::to_vec) } else { None },
        eval: match (gt, exact) {
            (Some(l), false) => {
                eval_sources.iter().map(|s| s.map(|i| l[i as usize].clone())).collect::<Option<Vec<_>>>()
            }
            _ => None,
        },
        // The offline log's entries carry their source prompt's label like E's (indices are
        // universe rows, labelled through `universe_labels`).
        log: match (gt, exact) {
            (Some(l), false) => {
                log_sources.iter().map(|s| s.map(|i| l[i as usize].clone())).collect::<Option<Vec<_>>>()
            }
            _ => None,
        },
    };
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
            "params": params.params(),
        }),
        labels,
        tenants: matches!(model, ArrivalModel::Tenants { .. }).then_some(tenants),
    })
}
