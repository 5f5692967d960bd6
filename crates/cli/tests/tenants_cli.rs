#![cfg(not(target_arch = "wasm32"))]
//! Tenants by a field of the reader's own records through the `csc` binary (docs/SPEC-NOTES.md,
//! "Tenants"; `--arrival tenants --tenant-by FIELD`): a small file written here (24 records of
//! three teams, 8-dimensional embeddings, gold answers), the `tenants` experiment run on it, and
//! each misuse of the flag its one message.

use csc::experiment::{DatasetId, Report};
use csc::stream::ArrivalSpec;
use std::path::Path;

#[path = "support/cli.rs"]
mod cli;
use cli::csc;

const DIM: usize = 8;
const TEAMS: [&str; 3] = ["alice", "bob", "carol"];

/// `q.jsonl` (text, tokens, a `team` field, answers) and `q.emb.f32`: record i is team i mod 3,
/// its embedding a unit vector around one of four directions, so near queries exist across teams.
fn files(dir: &Path) {
    let (mut jsonl, mut emb) = (String::new(), Vec::new());
    for i in 0..24usize {
        let rec = serde_json::json!({
            "text": format!("question {i}"), "tokens": 5 + i % 7, "team": TEAMS[i % 3],
            "answers": [format!("answer {}", i % 4)]
        });
        jsonl.push_str(&format!("{rec}\n"));
        let mut v = [0f32; DIM];
        v[i % 4] = 1.0;
        v[4 + i % 4] = 0.05 * (i / 4) as f32;
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        emb.extend(v.iter().flat_map(|x| (x / n).to_le_bytes()));
    }
    std::fs::write(dir.join("q.jsonl"), jsonl).unwrap();
    std::fs::write(dir.join("q.emb.f32"), emb).unwrap();
}

const FILE: [&str; 6] = ["--dataset", "q.jsonl", "--embeddings", "q.emb.f32", "--dim", "8"];

/// The one `error:` line of a run that must fail cleanly (after the run's heading, if it printed one).
#[track_caller]
fn message(args: &[&str], cwd: &Path) -> String {
    let out = csc(args, cwd);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "csc {args:?} should fail cleanly: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    errors[0].to_string()
}

#[test]
fn tenants_by_a_record_field_run_on_a_users_file() {
    let d = cli::scratch("tenants", "by-field");
    files(&d);
    let mut args =
        vec!["run", "tenants", "--arrival", "tenants", "--tenant-by", "team", "--out", "out", "--quiet"];
    args.extend_from_slice(&FILE);
    args.extend_from_slice(&["--seeds", "2", "--set", "k=6", "--set", "horizon=300", "--set", "n_eval=100"]);
    let out = csc(&args, &d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: Report =
        serde_json::from_str(&std::fs::read_to_string(d.join("out/tenants-q.json")).unwrap()).unwrap();
    let DatasetId::Spec(s) = &r.experiment.dataset else { panic!("a dataset object") };
    assert_eq!(
        s.arrival,
        Some(ArrivalSpec::Tenants { tenants: None, overlap: None, tenant_by: Some("team".into()) })
    );
    // The tenants are the field's three values, in the order first met.
    assert!(r.units.iter().all(|u| u.detail["tenants"] == 3), "{:?}", r.units[0].detail["tenants"]);
    for key in ["lru:shared", "lru:partitioned", "threshold:tagged"] {
        let xs: Vec<f64> = r
            .stats
            .iter()
            .filter(|s| s.algorithm == key && s.metric == "tenant_avg_realised_cost")
            .map(|s| s.x)
            .collect();
        assert_eq!(xs, [0.0, 1.0, 2.0], "{key}: per-tenant costs at x = the tenant");
    }
    // Isolated caches never serve across tenants; the shared one may (and the report says how often).
    for s in r.stats.iter().filter(|s| s.metric == "final_cross_tenant_share") {
        if !s.algorithm.ends_with(":shared") {
            assert_eq!((s.mean, s.std), (0.0, 0.0), "{}", s.algorithm);
        }
    }
    assert!(r.stats.iter().any(|s| s.metric == "final_isolation_price" && s.algorithm == "lru:tagged"));
    // The same file with another field: its one message; tenants and the field together: refused.
    let mut args = vec!["run", "tenants", "--arrival", "tenants", "--tenant-by", "division"];
    args.extend_from_slice(&FILE);
    assert!(message(&args, &d).contains("division"));
    let mut args = vec!["run", "tenants", "--arrival", "tenants", "--tenant-by", "team", "--tenants", "2"];
    args.extend_from_slice(&FILE);
    assert!(message(&args, &d).contains("drop tenants and overlap"));
    // A built-in has no record fields.
    let builtin = [
        "run",
        "tenants",
        "--quick",
        "--dataset",
        "synthetic",
        "--arrival",
        "tenants",
        "--tenant-by",
        "team",
    ];
    assert!(message(&builtin, &d).contains("no record fields"));
}
