//! The binary embedding layout (raw little-endian f32, row-major, no header; SPEC §7 and
//! shared/data/README.md), alone and paired with JSONL records, plus the nq-trivia assembler
//! (`nq_trivia::from_parts`, 384-d): truncated files, NaN/±Inf rows, too few rows, a zero or odd
//! dimension. The first input byte picks the dimension and how the rest is split.
#![no_main]

use csc::dataset::{nq_trivia, records, Dataset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else { return };
    let dim = (head & 0x1f) as usize; // 0..=31, 0 included on purpose
    match records::parse_embeddings(rest, dim) {
        Ok(p) => {
            assert_eq!(p.dim(), dim);
            assert_eq!(p.len() * dim * 4, rest.len());
            assert!(p.as_flat().iter().all(|v| v.is_finite()));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    // JSONL records in front of a NUL separator, the binary file after it.
    let (jsonl, bin) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    if let Ok(d) = Dataset::from_jsonl("fuzz", jsonl, Some((bin, dim)), 0.01) {
        assert_eq!(d.points.dim(), dim);
        assert!(d.costs.iter().all(|&c| c > 0.0 && c <= 1.0));
    }
    if head & 0x80 != 0 {
        // nq-trivia from parts: both JSONL texts and both binaries from the same bytes.
        let text = String::from_utf8_lossy(jsonl);
        let per_source = 1 + ((head >> 5) & 0x3) as usize;
        if let Ok(d) = nq_trivia::from_parts(&text, bin, &text, bin, per_source, 0.01) {
            assert_eq!(d.len(), 2 * per_source);
            assert_eq!(d.points.dim(), nq_trivia::DIM);
        }
    }
});
