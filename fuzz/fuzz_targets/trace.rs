//! The SPEC §12 trace reader (`csc replay`, the playground's trace import): arbitrary text must
//! give `Ok` or a readable `Err`. An accepted trace must round-trip through `to_json` exactly and,
//! when small, replay without a panic for a kernel policy and a baseline (so that every
//! validated trace is one the simulator can run).
#![no_main]

use csc::config::Params;
use csc::online::{sim::run_trace, PolicyKind};
use csc::trace::Trace;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(t) = Trace::from_json(text) else { return };
    let back = Trace::from_json(&t.to_json()).expect("a written trace reads back");
    assert_eq!(back, t);
    if t.horizon() == 0 || t.horizon() > 64 || t.eval.len() > 64 || t.dim() > 16 {
        return;
    }
    let params = Params { horizon: t.horizon(), k: 2, ..Params::default() };
    let kinds = [PolicyKind::parse("clcb-sc-ls-cont").unwrap(), PolicyKind::parse("greedy").unwrap()];
    if let Ok(results) = run_trace(&t, &params, &kinds) {
        for r in results {
            assert!(r.last.avg_regret.is_finite(), "avg regret {}", r.last.avg_regret);
        }
    }
});
