//! The user-dataset JSONL parser (`{"text", "tokens", "embedding"?}` per line, SPEC §7), as the
//! playground's file picker and `Dataset.fromJsonl` feed it: arbitrary bytes (invalid UTF-8,
//! truncated JSON, huge numbers, ragged embeddings) must give `Ok` or a readable `Err`, never a
//! panic. An accepted dataset must hold only finite vectors, costs in (0, 1] and a positive `D`.
#![no_main]

use csc::dataset::{records, Dataset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(recs) = records::parse_jsonl_bytes(data) {
        assert!(!recs.is_empty());
        let _ = records::embeddings_for(&recs, None);
    }
    if let Ok(d) = Dataset::from_jsonl("fuzz", data, None, 0.01) {
        assert!(d.len() > 0 && d.points.as_flat().iter().all(|v| v.is_finite()));
        assert!(d.costs.iter().all(|&c| c > 0.0 && c <= 1.0), "costs {:?}", d.costs);
        assert!(d.dist_scale.is_finite() && d.dist_scale > 0.0, "D = {}", d.dist_scale);
        assert_eq!(d.checksum.len(), 16);
    }
});
