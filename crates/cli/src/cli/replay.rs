//! `csc replay`: the online policies on a trace's arrivals and the offline algorithms on its
//! offline log (SPEC §12), with the trace's parameters (`meta.params`) unless `--set` changes them.

use super::run::write;
use super::{apply_sets, err, Res};
use clap::Args;
use csc_engine::config::Params;
use csc_engine::offline::{OfflineKind, OfflineProblem};
use csc_engine::online::{sim::run_trace, PolicyKind};
use csc_engine::trace::Trace;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    trace: PathBuf,
    /// Comma-separated online policy ids (default: all).
    #[arg(long)]
    policies: Option<String>,
    /// Comma-separated offline algorithm ids run on the trace's offline log (default: all, when
    /// the trace has one; `none`: skip them).
    #[arg(long)]
    offline: Option<String>,
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Also write the online policies' results as JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the offline algorithms' results as JSON here.
    #[arg(long, value_name = "FILE")]
    offline_out: Option<PathBuf>,
}

/// The offline algorithms `--offline` names (all by default, none for `none`).
fn offline_kinds(s: Option<&str>) -> Res<Vec<OfflineKind>> {
    match s.map(str::trim) {
        None => Ok(OfflineKind::ALL.to_vec()),
        Some("none") => Ok(Vec::new()),
        Some(s) => s
            .split(',')
            .map(|a| OfflineKind::parse(a.trim()).map_err(|e| format!("--offline {s}: {e}")))
            .collect(),
    }
}

pub fn replay(a: &ReplayArgs) -> Res<()> {
    let text = std::fs::read_to_string(&a.trace).map_err(|e| format!("{}: {e}", a.trace.display()))?;
    let t = Trace::from_json(&text).map_err(err)?;
    let algorithms = offline_kinds(a.offline.as_deref())?;
    if a.offline_out.is_some() && algorithms.is_empty() {
        return Err("--offline-out goes with offline algorithms: drop --offline none".into());
    }
    if let Some(d) = t.meta.get("dataset") {
        let field = |k: &str| d.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
        println!("dataset {} (checksum {})", field("name"), field("checksum"));
    }
    let mut params = match t.meta.get("params") {
        Some(p) => csc_engine::json::from_value::<Params>(p).unwrap_or_else(|e| {
            eprintln!("note: the trace's meta.params are not this engine's ({e}); using the defaults");
            Params::default()
        }),
        None => Params::default(),
    };
    params.horizon = t.horizon();
    let params = apply_sets(params, &a.set)?.check().map_err(err)?;
    let kinds = match &a.policies {
        Some(s) => s.split(',').map(PolicyKind::parse).collect::<Result<Vec<_>, _>>().map_err(err)?,
        // Every policy that can run on the trace (vCache needs ground truth labels).
        None => {
            let labelled = (0..t.horizon()).all(|i| t.label(i).is_some());
            PolicyKind::ALL.into_iter().filter(|k| labelled || !k.needs_labels()).collect()
        }
    };
    let results = run_trace(&t, &params, &kinds).map_err(err)?;
    println!(
        "{:<26}{:>14}{:>12}{:>10}{:>12}{:>12}{:>15}",
        "algorithm", "avg regret", "switches", "hit rate", "avg cost", "error rate", "hit precision"
    );
    // SPEC §14: "—" where the trace carries no ground truth (or, for precision, no hits).
    let opt = |v: Option<f64>, digits: usize| v.map_or("—".to_string(), |v| format!("{v:.digits$}"));
    let mut sized = false;
    for r in &results {
        let l = &r.last;
        let name = csc_engine::algorithms::name_of(&r.policy).unwrap_or(&r.policy);
        let label = csc_engine::online::sim::sized_label(name, l.cache_size as f64, params.k);
        sized |= label != name;
        println!(
            "{:<26}{:>14.6}{:>12}{:>10.3}{:>12.4}{:>12}{:>15}",
            label,
            l.avg_regret,
            l.switches,
            l.hit_rate,
            l.avg_realised_cost,
            opt(l.error_rate, 4),
            opt(l.hit_precision, 3)
        );
    }
    if sized {
        println!("{}", csc_engine::online::sim::sized_label_note(params.k));
    }
    if !t.has_labels() {
        println!("error rate, hit precision: — (the trace has no labels, SPEC §14)");
    }
    if let Some(o) = &a.out {
        write(o, &serde_json::to_string_pretty(&results).map_err(err)?)?;
    }

    // the offline algorithms on the offline log (`off_X`, else the arrivals) with its `z`
    if algorithms.is_empty() {
        return Ok(());
    }
    if t.z.is_empty() {
        if a.offline.is_some() || a.offline_out.is_some() {
            return Err(format!(
                "{} has no offline log (no `z`, SPEC §12), so no offline algorithm can run on it; drop --offline",
                a.trace.display()
            ));
        }
        println!("\n(no offline log in this trace — no `z` — so no offline algorithms)");
        return Ok(());
    }
    let problem =
        OfflineProblem::from_trace(&t, &params).map_err(|e| format!("{}: {e}", a.trace.display()))?;
    let (log, _) = t.log();
    println!(
        "\noffline log: {} entries, {} costs observed, {} centers at ε = {}; oracle loss {:.6}",
        log.len(),
        problem.observed.len(),
        problem.m(),
        params.epsilon,
        problem.oracle.loss
    );
    println!("{:<26}{:>14}{:>14}{:>8}", "offline algorithm", "loss", "gap", "|M|");
    let mut out = Vec::new();
    for k in algorithms {
        let r = problem.run(k).map_err(err)?;
        let name = csc_engine::algorithms::name_of(&r.algorithm).unwrap_or(&r.algorithm);
        println!("{name:<26}{:>14.6}{:>14.6}{:>8}", r.loss, r.gap, r.cache.len());
        out.push(r);
    }
    if let Some(o) = &a.offline_out {
        write(o, &serde_json::to_string_pretty(&out).map_err(err)?)?;
    }
    Ok(())
}
