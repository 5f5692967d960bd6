//! GDSF eviction (`eviction = gdsf`; Cherkasova, "Improving WWW proxies performance with
//! Greedy-Dual-Size-Frequency caching policy", HP Labs report HPL-98-69, 1998): the engine's
//! threshold cache and vCache, run through the simulator, against plain re-implementations on a
//! fixed trace whose costs vary (and are observed with noise) — the same decision, the same
//! nearest item and the same cache every round. LRU stays the default and GPTCache's preset
//! keeps it.

#[path = "support/plain_vcache.rs"]
mod plain_vcache;

use csc_engine::answers::Label;
use csc_engine::config::{Eviction, Params};
use csc_engine::online::sim::{Environment, Simulation};
use csc_engine::online::PolicyKind;
use csc_engine::space::Metric;
use csc_engine::trace::Trace;
use plain_vcache::PlainVCache;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The threshold cache with GDSF written out from the definition: a hit iff the nearest entry
/// (strict `<`, ties to the lowest index) lies within `τ`; a miss admits the arrival at
/// priority `L + cost`, first evicting the lowest priority (strict `<`: ties to the oldest) and
/// setting `L` to it; a hit raises the entry's uses and sets its priority to `L + uses·cost`.
struct PlainGdsfThreshold {
    k: usize,
    tau: f64,
    metric: Metric,
    /// (key, vector, uses, cost, priority), in admission order.
    entries: Vec<(usize, Vec<f32>, f64, f64, f64)>,
    clock: f64,
}

impl PlainGdsfThreshold {
    /// Round `t`: whether the LLM was called, and the keys after it.
    fn step(&mut self, t: usize, x: &[f32], cost: f64) -> (bool, Vec<usize>) {
        let mut near: Option<(usize, f64)> = None;
        for (j, e) in self.entries.iter().enumerate() {
            let d = self.metric.dist(x, &e.1);
            if near.is_none_or(|(_, b)| d < b) {
                near = Some((j, d));
            }
        }
        let llm = match near {
            Some((j, d)) if d <= self.tau => {
                let e = &mut self.entries[j];
                e.2 += 1.0;
                e.4 = self.clock + e.2 * e.3;
                false
            }
            _ => {
                if self.entries.len() >= self.k {
                    let mut out = 0;
                    for j in 1..self.entries.len() {
                        if self.entries[j].4 < self.entries[out].4 {
                            out = j;
                        }
                    }
                    self.clock = self.entries[out].4;
                    self.entries.remove(out);
                }
                self.entries.push((t, x.to_vec(), 1.0, cost, self.clock + cost));
                true
            }
        };
        (llm, self.entries.iter().map(|e| e.0).collect())
    }
}

/// A fixed trace: 6 topics in 12 dimensions, each arrival near a random topic (similarity
/// U(0.6, 1)), each topic with its own cost (0.05 … 0.95) and noise N(0, 0.05²) on it; the label
/// is the topic's when the similarity exceeds 0.8, else a label of its own, so vCache explores,
/// exploits and admits.
fn trace(t_max: usize, seed: u64) -> Trace {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let dim = 12;
    let unit = |v: &mut Vec<f64>| {
        let n = v.iter().map(|a| a * a).sum::<f64>().sqrt();
        v.iter_mut().for_each(|a| *a /= n);
    };
    let anchors: Vec<Vec<f64>> = (0..6)
        .map(|_| {
            let mut a: Vec<f64> = (0..dim).map(|_| csc_engine::portable::std_normal(&mut r)).collect();
            unit(&mut a);
            a
        })
        .collect();
    let topic_cost: Vec<f64> = (0..6).map(|a| 0.05 + 0.18 * a as f64).collect();
    let (mut xs, mut costs, mut etas, mut labels) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for t in 0..t_max {
        let a = r.random_range(0..anchors.len());
        let s: f64 = r.random_range(0.6..1.0);
        let mut dir: Vec<f64> = (0..dim).map(|_| csc_engine::portable::std_normal(&mut r)).collect();
        let dot: f64 = dir.iter().zip(&anchors[a]).map(|(u, v)| u * v).sum();
        dir.iter_mut().zip(&anchors[a]).for_each(|(u, v)| *u -= dot * v);
        unit(&mut dir);
        let c = (1.0 - s * s).sqrt();
        xs.push(anchors[a].iter().zip(&dir).map(|(u, d)| (s * u + c * d) as f32).collect::<Vec<f32>>());
        costs.push(topic_cost[a]);
        etas.push(0.05 * csc_engine::portable::std_normal(&mut r));
        labels.push(if s > 0.8 { a as i64 } else { 1000 + t as i64 });
    }
    let json = serde_json::json!({
        "dist_scale": 2.0, "X": xs, "cost": costs, "eta": etas,
        "E": &xs[..50], "eval_cost": &costs[..50], "labels": labels,
    });
    Trace::from_json(&json.to_string()).unwrap()
}

fn keys(sim: &Simulation) -> Vec<usize> {
    sim.policy().cache().keys().iter().map(|&k| k as usize).collect()
}

#[test]
fn threshold_gdsf_agrees_with_a_plain_reimplementation_every_round() {
    let t_max = 1500;
    let tr = trace(t_max, 5);
    let mut evictions = 0;
    for (k, tau) in [(3, 0.3), (5, 0.35), (8, 0.4), (12, 0.3)] {
        let p = Params {
            k,
            threshold_tau: tau,
            eviction: Eviction::Gdsf,
            horizon: t_max,
            n_eval: 50,
            ..Params::default()
        };
        let env = Arc::new(Environment::from_trace(&tr, &p.clone().check().unwrap()).unwrap());
        let mut sim = Simulation::new(env, PolicyKind::Threshold, &p.clone().check().unwrap(), 0).unwrap();
        let mut plain =
            PlainGdsfThreshold { k, tau, metric: Metric::new(2.0).unwrap(), entries: Vec::new(), clock: 0.0 };
        let (mut hits, mut lru_differs) = (0, false);
        let mut lru = Simulation::new(
            Arc::new(
                Environment::from_trace(
                    &tr,
                    &(Params { eviction: Eviction::Lru, ..p.clone() }).check().unwrap(),
                )
                .unwrap(),
            ),
            PolicyKind::Threshold,
            &(Params { eviction: Eviction::Lru, ..p.clone() }).check().unwrap(),
            0,
        )
        .unwrap();
        for t in 0..t_max {
            let a = tr.arrival(t);
            let o = sim.step(&a);
            let (llm, want) = plain.step(t, a.x, a.cost + a.eta);
            assert_eq!((o.llm, keys(&sim)), (llm, want), "k = {k}, τ = {tau}: round {t}");
            hits += usize::from(!o.llm);
            evictions += usize::from(llm && t >= k && plain.clock > 0.0);
            lru.step(&a);
            lru_differs |= keys(&lru) != keys(&sim);
        }
        println!("k = {k}, τ = {tau}: {hits} hits, clock {}", plain.clock);
        assert!(hits > 20 && plain.clock > 0.0, "k = {k}, τ = {tau}: {hits} hits");
        assert!(lru_differs, "k = {k}, τ = {tau}: GDSF kept LRU's caches throughout");
    }
    assert!(evictions > 100, "{evictions} evictions");
}

#[test]
fn vcache_gdsf_agrees_with_a_plain_reimplementation_every_round() {
    let t_max = 1200;
    let tr = trace(t_max, 9);
    for (k, delta, seed) in [(4, 0.05, 0), (8, 0.1, 1), (12, 0.2, 2)] {
        let p = Params {
            k,
            vcache_delta: delta,
            seed,
            eviction: Eviction::Gdsf,
            horizon: t_max,
            n_eval: 50,
            ..Params::default()
        };
        let env = Arc::new(Environment::from_trace(&tr, &p.clone().check().unwrap()).unwrap());
        let mut sim = Simulation::new(env, PolicyKind::VCache, &p.clone().check().unwrap(), 0).unwrap();
        let mut plain = PlainVCache::new(k, delta, Metric::new(2.0).unwrap(), seed);
        plain.gdsf = true;
        let mut hits = 0;
        for t in 0..t_max {
            let a = tr.arrival(t);
            let Some(Label::Class(l)) = a.label else { unreachable!("labelled") };
            let (o, why) = sim.step_explained(&a);
            let want = plain.step_at_cost(t, a.x, *l, a.cost + a.eta);
            let got = plain_vcache::PlainStep {
                llm: o.llm,
                nearest: why.nearest.map(|(k, _)| k as usize),
                cache: keys(&sim),
            };
            assert_eq!(got, want, "k = {k}, δ = {delta}: round {t}");
            hits += usize::from(!o.llm);
        }
        println!("k = {k}, δ = {delta}: {hits} hits, clock {}", plain.clock);
        assert!(hits > 10 && plain.clock > 0.0, "k = {k}, δ = {delta}: {hits} hits, clock {}", plain.clock);
    }
}

#[test]
fn lru_is_the_default_an_unknown_rule_is_one_plain_message_and_gptcache_keeps_lru() {
    assert_eq!(Params::default().eviction, Eviction::Lru);
    let p = Params::default().apply_set("eviction=gdsf").unwrap();
    assert_eq!(p.eviction, Eviction::Gdsf);
    assert_eq!(p.gptcache_preset().eviction, Eviction::Lru);
    for bad in ["eviction=lfu", "eviction=NaN", "eviction=\"\""] {
        let e = Params::default().apply_set(bad).unwrap_err().to_string();
        assert!(e.contains("`eviction`") && e.contains("lru") && e.contains("gdsf"), "{bad}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
