//! Seeded random sub-streams, the calibration of `σ_e`, and the [`Sampler`] that draws one query
//! from a dataset under an arrival model (SPEC §7, §11.10).

use super::model::ArrivalModel;
use crate::dataset::{plane, Dataset};
use crate::error::{Error, Result};
use crate::portable;
use crate::space::Points;
use crate::trace::Queries;
use rand::distr::weighted::WeightedIndex;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::Distribution;
use std::sync::{Arc, Mutex};

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
    /// Which tenant each round's arrival comes from (the `tenants` model).
    Tenants = 9,
    /// The adversary's coin of each round ([`crate::adversary`]).
    Attack = 10,
}

/// Checks the `tenants` model's settings (docs/SPEC-NOTES.md, "Tenants"): `1 ≤ N ≤ 256` tenants
/// and an overlap `ω ∈ [0, 1]`; one plain message naming the setting otherwise.
pub fn check_tenants(tenants: u32, overlap: f64) -> Result<()> {
    if !(1..=256).contains(&tenants) {
        return Err(Error::param("tenants", format!("must be 1 to 256, got {tenants}")));
    }
    if !(overlap.is_finite() && (0.0..=1.0).contains(&overlap)) {
        return Err(Error::param("overlap", format!("must be in [0, 1], got {overlap}")));
    }
    Ok(())
}

/// The generator for `purpose` under `seed`.
pub fn rng(seed: u64, purpose: Purpose) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(purpose as u64);
    r
}

/// The target of the synthetic calibration: median arrival-to-prompt distance (paper appendix).
pub const SYNTHETIC_MEDIAN_DISTANCE: f64 = 0.074;

/// `σ_e` such that the median distance from a jittered arrival to its source is `target`
/// (SPEC §7). Deterministic: 4,000 fixed draws (calibration sub-stream of seed 0) with common
/// random numbers across the bisection. Cached per dataset checksum.
///
/// A target the jitter cannot reach is an error, never a degenerate stream: the median at
/// `σ = 0` must lie below it (it is 0 for unit-norm rows; rows of another norm are moved by the
/// renormalisation alone) and the median at the bisection's upper end `σ = 1` above it.
pub fn calibrate_sigma(dataset: &Dataset, target: f64) -> Result<f64> {
    static CACHE: Mutex<Vec<(String, u64, f64)>> = Mutex::new(Vec::new());
    let key = (dataset.checksum.clone(), target.to_bits());
    if let Some(&(_, _, s)) = CACHE.lock().unwrap().iter().find(|(c, t, _)| *c == key.0 && *t == key.1) {
        return Ok(s);
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
    let (at_lo, at_hi) = (median_at(lo), median_at(hi));
    if !(at_lo < target && target <= at_hi) {
        return Err(Error::data(format!(
            "{}: cannot calibrate the arrival noise σ_e to a median arrival-to-source distance of {target} (SPEC §7): the median is {at_lo:.4} with no noise and {at_hi:.4} at σ_e = 1{} — give σ_e directly (synthetic_sigma) or use unit-norm embeddings",
            dataset.name,
            if at_lo >= target { ", so every arrival is already too far from its source (are the embedding rows unit-norm?)" } else { "" }
        )));
    }
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
    Ok(s)
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

/// Per group of `dataset` (its sources, or a user field's values) with any rows: the rows and a
/// log-normal(0, 1) popularity over them, drawn from `r` group by group in row order (the bursty
/// model's groups, and the tenants of `--tenant-by`).
fn group_popularity(dataset: &Dataset, r: &mut ChaCha8Rng) -> Vec<(Vec<u32>, WeightedIndex<f64>)> {
    let mut groups = Vec::new();
    for g in 0..dataset.group_names.len() {
        let rows: Vec<u32> =
            (0..dataset.len() as u32).filter(|&i| dataset.groups[i as usize] as usize == g).collect();
        if rows.is_empty() {
            continue;
        }
        let s: Vec<f64> = rows.iter().map(|_| portable::lognormal(r, 0.0, 1.0)).collect();
        groups.push((rows, WeightedIndex::new(&s).expect("log-normal weights are positive")));
    }
    groups
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
                groups = group_popularity(&dataset, &mut rng(seed, Purpose::Popularity));
            }
            ArrivalModel::Tenants { tenants, overlap } => {
                let mut r = rng(seed, Purpose::Popularity);
                match overlap {
                    Some(w) => {
                        check_tenants(tenants, w)?;
                        // SPEC-NOTES "Tenants": log s_i^τ = √ω·z_i + √(1−ω)·z_i^τ, the common z
                        // first (universe order), then each tenant's in turn.
                        let n = dataset.len();
                        let common: Vec<f64> = (0..n).map(|_| portable::std_normal(&mut r)).collect();
                        let (a, b) = (w.sqrt(), (1.0 - w).sqrt());
                        for _ in 0..tenants {
                            let s: Vec<f64> = common
                                .iter()
                                .map(|z| portable::exp(a * z + b * portable::std_normal(&mut r)))
                                .collect();
                            groups.push((
                                (0..n as u32).collect(),
                                WeightedIndex::new(&s).expect("log-normal weights are positive"),
                            ));
                        }
                    }
                    None => groups = group_popularity(&dataset, &mut r),
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
    /// Number of tenants of the `tenants` model (1 otherwise).
    pub fn n_tenants(&self) -> usize {
        match self.model {
            ArrivalModel::Tenants { .. } => self.groups.len().max(1),
            _ => 1,
        }
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
            ArrivalModel::Bursty { .. } | ArrivalModel::Tenants { .. } => {
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
        let (q, c, _) = self.iid_sourced(n, rng);
        (q, c)
    }

    /// [`Sampler::iid`] with the universe row each draw came from (plane: none).
    pub fn iid_sourced<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
    ) -> (Queries, Vec<f64>, Vec<Option<u32>>) {
        let dim = self.dim();
        let mut buf = vec![0f32; dim];
        let mut costs = Vec::with_capacity(n);
        let mut sources = Vec::with_capacity(n);
        if self.model.exact() {
            let mut idx = Vec::with_capacity(n);
            for _ in 0..n {
                let d = self.draw(None, rng, &mut buf);
                idx.push(d.source.expect("bursty draws are universe rows"));
                costs.push(d.cost);
                sources.push(d.source);
            }
            return (Queries::Indices(idx), costs, sources);
        }
        let mut data = Vec::with_capacity(n * dim);
        for _ in 0..n {
            let d = self.draw(None, rng, &mut buf);
            data.extend_from_slice(&buf);
            costs.push(d.cost);
            sources.push(d.source);
        }
        (Queries::Vectors(Points::from_flat(dim, data).expect("finite draws")), costs, sources)
    }
}
