//! The geometry experiment (paper appendix, SPEC §10 `geom`): distance distributions,
//! token-length CDFs per source and a 2-D projection of the stream.

use crate::dataset::Dataset;
use crate::error::Result;
use crate::experiment::run::observation::{obs, Observation};
use std::sync::Arc;

/// Quantile levels reported for every distance distribution.
const QUANTILES: [f64; 9] = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99];

fn quantiles(out: &mut Vec<Observation>, series: &str, metric: &str, mut v: Vec<f64>) {
    if v.is_empty() {
        return;
    }
    v.sort_by(f64::total_cmp);
    for q in QUANTILES {
        let i = ((v.len() - 1) as f64 * q).round() as usize;
        obs(out, series, metric, q, v[i]);
    }
}

/// The `geom` measure: distance quantiles (universe pairwise, stream pairwise, stream nearest
/// neighbour, stream to universe), token-length CDFs per source and the stream's 2-D projection.
pub(crate) fn geometry(
    dataset: &Arc<Dataset>,
    trace: &crate::trace::Trace,
    stream: usize,
    out: &mut Vec<Observation>,
) -> Result<serde_json::Value> {
    let m = dataset.metric();
    let n = trace.horizon().min(stream);
    let u = &dataset.points;
    let pairwise = |pts: &[&[f32]]| -> Vec<f64> {
        let k = pts.len();
        (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).map(|(i, j)| m.dist(pts[i], pts[j])).collect()
    };
    let universe_rows: Vec<&[f32]> = u.iter().collect();
    quantiles(out, "universe", "pairwise_distance", pairwise(&universe_rows[..u.len().min(2000)]));
    let stream_pts: Vec<&[f32]> = (0..n).map(|t| trace.x(t)).collect();
    let distinct: Vec<&[f32]> = {
        let mut seen = std::collections::HashSet::new();
        stream_pts.iter().copied().filter(|x| seen.insert(crate::space::bit_key(x))).collect()
    };
    quantiles(out, "stream", "pairwise_distance", pairwise(&distinct[..distinct.len().min(1500)]));
    let nn = |pts: &[&[f32]]| -> Vec<f64> {
        (0..pts.len())
            .map(|i| {
                (0..pts.len())
                    .filter(|&j| j != i)
                    .map(|j| m.dist(pts[i], pts[j]))
                    .fold(f64::INFINITY, f64::min)
            })
            .filter(|d| d.is_finite())
            .collect()
    };
    quantiles(out, "stream", "nn_distance", nn(&distinct));
    quantiles(out, "universe", "nn_distance", nn(&universe_rows));
    quantiles(
        out,
        "stream",
        "distance_to_universe",
        stream_pts.iter().map(|x| m.nearest(x, u).map_or(f64::NAN, |(_, d)| d)).collect(),
    );
    for (g, name) in dataset.group_names.iter().enumerate() {
        let mut t: Vec<u32> = dataset
            .tokens
            .iter()
            .zip(&dataset.groups)
            .filter(|(_, &gg)| gg as usize == g)
            .map(|(&t, _)| t)
            .collect();
        t.sort_unstable();
        let len = t.len() as f64;
        let mut i = 0;
        while i < t.len() {
            let v = t[i];
            while i < t.len() && t[i] == v {
                i += 1;
            }
            obs(out, name, "token_cdf", v as f64, i as f64 / len);
        }
    }
    let proj = crate::projection::Projection::fit_sample(u, 2000)?;
    let xy: Vec<[f64; 2]> = stream_pts
        .iter()
        .take(1000)
        .map(|x| if u.dim() == 2 { [x[0] as f64, x[1] as f64] } else { proj.project(x) })
        .collect();
    let uxy: Vec<[f64; 2]> =
        u.iter().map(|x| if u.dim() == 2 { [x[0] as f64, x[1] as f64] } else { proj.project(x) }).collect();
    Ok(
        serde_json::json!({ "distinct_arrivals": distinct.len(), "stream_projection": xy, "universe_projection": uxy }),
    )
}
