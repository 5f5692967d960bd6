//! Results are keyed by algorithm id (src/algorithms.rs); a display name appears only where people
//! read it (the summary table, charts). So renaming an algorithm in the engine's list changes no
//! result file (JSON report, CSV) — only labels.
// Native only: the browser suites are tests/wasm_*.rs.
#![cfg(not(target_arch = "wasm32"))]

use csc_engine::algorithms::{OfflineKind, PolicyKind};
use csc_engine::dataset::plane;
use csc_engine::experiment::{run_unit, ExperimentSpec, Report};
use std::sync::Arc;

fn run(definition: &str) -> Report {
    let spec = ExperimentSpec::from_json(definition).unwrap();
    let d = Arc::new(plane::universe().unwrap());
    Report::new(&spec, spec.units().iter().map(|u| run_unit(&spec, u, &d, &mut |_| true).unwrap()).collect())
}

/// The data files hold every algorithm's id and none of their display names; the table shows the
/// names.
fn keyed_by_id(report: &Report, algorithms: &[(&str, &str)]) {
    let json = serde_json::to_string(report).unwrap();
    let csv = report.to_csv();
    let table = report.summary();
    for (id, name) in algorithms {
        assert!(json.contains(&format!("\"algorithm\":\"{id}\"")), "{id} not a key of the JSON report");
        assert!(csv.contains(&format!(",{id},")), "{id} not a key of the CSV:\n{csv}");
        assert!(!json.contains(&format!("\"{name}\"")), "display name {name} in the JSON report");
        assert!(!csv.contains(&format!(",{name},")), "display name {name} in the CSV");
        assert!(table.contains(name), "{name} not in the summary table:\n{table}");
    }
}

#[test]
fn offline_and_online_results_are_keyed_by_id() {
    let offline = run(
        r#"{"id": "keys-off", "dataset": "plane", "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "cucb-sc", "greedy", "epsilon-greedy", "lfu", "oracle"]},
            "params": {"horizon": 1, "log_len": 60, "n_eval": 100, "epsilon": 0.15}, "seeds": 1}"#,
    );
    let names: Vec<_> = OfflineKind::ALL.iter().map(|a| (a.info().id, a.info().name)).collect();
    keyed_by_id(&offline, &names);
    let online = run(
        r#"{"id": "keys-on", "dataset": "plane", "measure": {"kind": "online", "policies": ["clcb-sc-ls-cont", "clcb-sc-ls", "greedy", "epsilon-greedy", "lfu", "lru", "threshold", "oracle", "clcb-sc-ls-cont-nystrom"]},
            "params": {"horizon": 120, "n_eval": 100, "epsilon": 0.15}, "seeds": 1}"#,
    );
    let names: Vec<_> = PolicyKind::ALL
        .iter()
        // Frozen is slow to fill; vCache needs ground truth, which plane has not (SPEC §14).
        .filter(|p| !matches!(p, PolicyKind::ClcbFrozenCont | PolicyKind::VCache))
        .map(|p| (p.info().id, p.info().name))
        .collect();
    keyed_by_id(&online, &names);
}

/// A report written when results were keyed by display name (with the id beside it in the
/// statistics) reads back keyed by id.
#[test]
fn reports_keyed_by_display_name_read_back_by_id() {
    let report = run(
        r#"{"id": "keys-old", "dataset": "plane", "measure": {"kind": "offline", "algorithms": ["cucb-sc-cont", "greedy"]},
            "params": {"horizon": 1, "log_len": 60, "n_eval": 100, "epsilon": 0.15}, "seeds": 1}"#,
    );
    let mut old = serde_json::to_value(&report).unwrap();
    let name = |id: &str| csc_engine::algorithms::name_of(id).unwrap().to_string();
    for s in old["stats"].as_array_mut().unwrap() {
        let id = s["algorithm"].as_str().unwrap().to_string();
        s["algorithm"] = name(&id).into();
        s["algorithm_id"] = id.into();
    }
    for u in old["units"].as_array_mut().unwrap() {
        for o in u["observations"].as_array_mut().unwrap() {
            let id = o["algorithm"].as_str().unwrap().to_string();
            o["algorithm"] = name(&id).into();
        }
    }
    assert!(old.to_string().contains("\"CUCB-SC-Cont\""));
    let back: Report = serde_json::from_value(old).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&report).unwrap());
}
