//! The offline setting (SPEC §8, paper §4): learn a cache from a logged dataset
//! `D = {(M_t, x_t, C_t)}` in which each cost is observed with propensity `ν`, and compare it with
//! the evaluation oracle by the suboptimality gap `L(M̂) − L(M_orc)` on `E`.
//!
//! Every algorithm shares the ε-net over the log and its final Voronoi cells (§11.1):
//! - CUCB-SC-Cont (Alg. 2): KRR on the observed costs with ridge `ℓλ`, pessimistic
//!   `c̄ = ĉ + β_off(B + √(ln(2m/δ)/(ℓλ)))σ` at the centers, Reverse Greedy.
//! - CUCB-SC (the discrete predecessor): each cell's own empirical mean plus the Hoeffding
//!   width `√(ln(2mn/δ)/(2N_i))` (scaled by `β_off` like the kernel width), unobserved cells at
//!   1; Reverse Greedy. No sharing across cells.
//! - Greedy: top-k cells by `ŵ_i·ĉ_i` (empirical means, 0 if unobserved).
//! - Epsilon-Greedy: each of the k slots is, with probability `explore_rate`, a uniformly random
//!   remaining cell, else the next best by Greedy's score.
//! - LFU: top-k cells by count.
//! - Oracle: `M_orc` itself (gap 0 by construction).

pub use crate::algorithms::OfflineKind;
use crate::answers::{equivalent, Label};
use crate::config::{Checked, Params};
use crate::epsilon_net::EpsilonNet;
use crate::error::{Error, Result};
use crate::krr::{pessimistic_cost, Krr, RbfKernel};
use crate::oracle::{evaluation_oracle, EvalSample, Oracle};
use crate::reverse_greedy::{reverse_greedy, Instance};
use crate::space::{Metric, Points};
use crate::stream::{rng, Purpose};
use crate::trace::Trace;
use rand::Rng;
use serde::Serialize;

/// One algorithm's result on one log.
#[derive(Clone, Debug, Serialize)]
pub struct OfflineResult {
    /// The algorithm's id (`"cucb-sc-cont"`; its display name: [`crate::algorithms::name_of`]).
    pub algorithm: String,
    /// `L(M̂)` on `E`.
    pub loss: f64,
    /// `L(M̂) − L(M_orc)`.
    pub gap: f64,
    /// Log indices of the cached centers.
    pub cache: Vec<usize>,
    /// The costs the algorithm believed at its centers (pessimistic or empirical).
    pub believed_costs: Vec<f64>,
    /// SPEC §14, offline: the fraction of `E` served wrongly by `M̂`; `None` without ground
    /// truth for `E` and for the log entries `M̂` holds.
    pub error_rate: Option<f64>,
}

/// What every offline algorithm shares for one log: the net, its cells, the observations.
pub struct OfflineProblem {
    pub params: Params,
    pub metric: Metric,
    pub log: Points,
    pub net: EpsilonNet,
    /// Final Voronoi cell of each log entry (§11.1).
    pub cells: Vec<usize>,
    /// `ŵ_i` (Alg. 2 line 3).
    pub weights: Vec<f64>,
    /// Observed `(log index, C_t)` pairs (`z_t = 1`).
    pub observed: Vec<(usize, f64)>,
    pub eval: EvalSample,
    pub oracle: Oracle,
    /// Ground truth (SPEC §14) of the points of `E` and of the log entries, when the trace has
    /// both (a log of jittered vectors has none: SPEC §12 gives no key for it).
    pub labels: Option<(Vec<Label>, Vec<Label>)>,
}

impl OfflineProblem {
    /// Builds the shared parts from a trace's offline log (SPEC §8, §12).
    pub fn from_trace(trace: &Trace, params: &Checked) -> Result<Self> {
        trace.validate()?;
        let (queries, costs) = trace.log();
        let n = queries.len();
        if n == 0 {
            return Err(Error::data("the offline log is empty"));
        }
        if trace.z.len() != n {
            return Err(Error::data(format!(
                "the offline log has {n} entries but `z` has {}",
                trace.z.len()
            )));
        }
        let metric = Metric::new(trace.dist_scale)?;
        let mut log = Points::new(trace.dim())?;
        for t in 0..n {
            log.push(trace.log_x(t))?;
        }
        let (net, _) = EpsilonNet::build(&log, params.epsilon, metric)?;
        let cells = net.voronoi_cells(&log);
        let weights =
            EpsilonNet::cell_counts(&cells, net.len()).iter().map(|&c| c as f64 / n as f64).collect();
        let observed = (0..n).filter(|&t| trace.z[t]).map(|t| (t, costs[t] + trace.eta[t])).collect();
        let eval = EvalSample::from_trace(trace, params.mismatch())?;
        let oracle = evaluation_oracle(
            (0..n).map(|t| (log.row(t), costs[t])),
            log.dim(),
            &eval,
            params.eps_oracle,
            params.k,
        )?;
        let eval_labels =
            (0..trace.eval.len()).map(|i| trace.eval_label(i).cloned()).collect::<Option<Vec<_>>>();
        let log_labels = (0..n)
            .map(|t| match &trace.offline {
                None => trace.label(t).cloned(),
                Some((q, _)) => match &trace.labels.log {
                    Some(l) => l.get(t).cloned(),
                    None => q
                        .index(t)
                        .and_then(|i| trace.labels.universe.as_ref().and_then(|u| u.get(i as usize)))
                        .cloned(),
                },
            })
            .collect::<Option<Vec<_>>>();
        Ok(OfflineProblem {
            labels: eval_labels.zip(log_labels),
            params: params.params().clone(),
            metric,
            log,
            net,
            cells,
            weights,
            observed,
            eval,
            oracle,
        })
    }

    /// SPEC §14, offline: the error rate of the cache holding log entries `items` (with
    /// vectors `cache`) on `E`: point `e` is served from the cache iff `φ(d(e, M̂)) < c(e)`
    /// (eq. 1 with true costs), by its nearest item (ties to the lowest index), and served
    /// wrongly when that item's label is not equivalent to its own. `None` without labels.
    pub fn error_rate(&self, items: &[usize], cache: &Points) -> Option<f64> {
        let (eval_labels, log_labels) = self.labels.as_ref()?;
        let mut wrong = 0usize;
        for (i, e) in self.eval.points.iter().enumerate() {
            let Some((j, d)) = self.metric.nearest(e, cache) else { continue };
            if self.eval.mismatch.phi(d) < self.eval.costs[i]
                && !equivalent(&eval_labels[i], &log_labels[items[j]])
            {
                wrong += 1;
            }
        }
        Some(wrong as f64 / self.eval.len() as f64)
    }

    /// Number of ε-net centers `m`.
    pub fn m(&self) -> usize {
        self.net.len()
    }

    /// Per-cell empirical means of the observed costs and their counts.
    pub fn cell_means(&self) -> (Vec<f64>, Vec<u64>) {
        let m = self.m();
        let (mut sum, mut n) = (vec![0.0; m], vec![0u64; m]);
        for &(t, c) in &self.observed {
            sum[self.cells[t]] += c;
            n[self.cells[t]] += 1;
        }
        (sum.iter().zip(&n).map(|(s, &k)| if k == 0 { 0.0 } else { s / k as f64 }).collect(), n)
    }

    /// Alg. 2 lines 4–5: KRR with ridge `ℓλ` on the observed costs, pessimistic costs at the centers.
    pub fn pessimistic_kernel_costs(&self) -> Result<Vec<f64>> {
        let p = &self.params;
        let l = self.observed.len();
        if l == 0 {
            return Ok(vec![p.b; self.m()]);
        }
        let mut krr =
            Krr::new(RbfKernel::new(p.kernel_length)?, self.metric, l as f64 * p.lambda, self.log.dim())?;
        for &(t, c) in &self.observed {
            krr.add_observation(self.log.row(t), c)?;
        }
        Ok((0..self.m())
            .map(|u| {
                let post = krr.posterior_at(self.net.centers().row(u));
                pessimistic_cost(&post, l, self.m(), p.lambda, p.b, p.delta, p.beta_off)
            })
            .collect())
    }

    /// CUCB-SC's pessimistic per-cell costs: mean + β_off·√(ln(2mn/δ)/(2N_i)); unobserved at 1.
    pub fn pessimistic_cell_costs(&self) -> Vec<f64> {
        let p = &self.params;
        let (mean, n) = self.cell_means();
        let big_n = self.log.len() as f64;
        let m = self.m() as f64;
        mean.iter()
            .zip(&n)
            .map(|(&mu, &k)| {
                if k == 0 {
                    1.0
                } else {
                    mu + p.beta_off
                        * (crate::portable::ln(2.0 * m * big_n / p.delta) / (2.0 * k as f64)).sqrt()
                }
            })
            .collect()
    }

    fn reverse_greedy_over_cells(&self, costs: &[f64]) -> Result<Vec<usize>> {
        let inst = Instance::new(self.net.center_distances(), &self.weights, costs, self.params.mismatch())?
            .with_separation(self.net.eps());
        Ok(reverse_greedy(&inst, self.params.k, &[]).cache)
    }

    fn top_k(&self, score: impl Fn(usize) -> f64) -> Vec<usize> {
        crate::epsilon_net::top_k_cells(self.m(), self.params.k, score)
    }

    /// Runs one algorithm.
    pub fn run(&self, kind: OfflineKind) -> Result<OfflineResult> {
        let (means, _) = self.cell_means();
        let (cells, believed): (Vec<usize>, Vec<f64>) = match kind {
            OfflineKind::CucbScCont => {
                let c = self.pessimistic_kernel_costs()?;
                (self.reverse_greedy_over_cells(&c)?, c)
            }
            OfflineKind::CucbSc => {
                let c = self.pessimistic_cell_costs();
                (self.reverse_greedy_over_cells(&c)?, c)
            }
            OfflineKind::Greedy => (self.top_k(|u| self.weights[u] * means[u]), means.clone()),
            // ŵ_i is the cell's count over n: ranking by it is ranking by count.
            OfflineKind::Lfu => (self.top_k(|u| self.weights[u]), means.clone()),
            OfflineKind::EpsilonGreedy => {
                let mut r = rng(self.params.seed, Purpose::Policy);
                let mut order: Vec<usize> = (0..self.m()).collect();
                // descending by ŵ·μ, ties to the lower index (negated key: crate::order)
                crate::order::sort_indices_by(&mut order, |u| -(self.weights[u] * means[u]));
                let mut chosen = Vec::new();
                while chosen.len() < self.params.k.min(self.m()) {
                    let rest: Vec<usize> = order.iter().copied().filter(|u| !chosen.contains(u)).collect();
                    let pick = if r.random::<f64>() < self.params.explore_rate {
                        rest[r.random_range(0..rest.len())]
                    } else {
                        rest[0]
                    };
                    chosen.push(pick);
                }
                chosen.sort_unstable();
                (chosen, means.clone())
            }
            OfflineKind::Oracle => {
                let loss = self.oracle.loss;
                let items: Vec<usize> = self.oracle.keys.iter().map(|&k| k as usize).collect();
                return Ok(OfflineResult {
                    algorithm: kind.id(),
                    loss,
                    gap: 0.0,
                    error_rate: self.error_rate(&items, &self.oracle.cache),
                    cache: items,
                    believed_costs: Vec::new(),
                });
            }
        };
        let cache = self.net.centers().select(&cells);
        let loss = self.eval.loss(&cache);
        let items: Vec<usize> = cells.iter().map(|&u| self.net.origin()[u]).collect();
        Ok(OfflineResult {
            algorithm: kind.id(),
            loss,
            gap: loss - self.oracle.loss,
            error_rate: self.error_rate(&items, &cache),
            cache: items,
            believed_costs: cells.iter().map(|&u| believed[u]).collect(),
        })
    }
}
