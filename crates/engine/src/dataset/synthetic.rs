//! The built-in `synthetic` universe (SPEC §7, paper §6): 50 prompts written for this project,
//! embedded offline with all-MiniLM-L6-v2 and counted with GPT-2's tokenizer by
//! `tools/make_synthetic.py` (see `data/synthetic/README.md`).

use super::records::{embeddings_for, parse_jsonl};
use super::{Dataset, GroundTruth};
use crate::answers::Label;
use crate::error::Result;

const PROMPTS: &str = include_str!("../../../../data/synthetic/prompts.jsonl");
const EMBEDDINGS: &[u8] = include_bytes!("../../../../data/synthetic/prompts.emb.f32");
/// all-MiniLM-L6-v2 embeddings are 384-dimensional.
pub const DIM: usize = 384;

/// The 50-prompt universe with costs from `c_floor` (SPEC §2).
pub fn universe(c_floor: f64) -> Result<Dataset> {
    let records = parse_jsonl(PROMPTS)?;
    let points = embeddings_for(&records, Some((EMBEDDINGS, DIM)))?;
    let tokens = records.iter().map(|r| r.tokens).collect();
    let texts: Vec<String> = records.into_iter().map(|r| r.text).collect();
    let n = texts.len();
    let mut d =
        Dataset::new("synthetic", points, tokens, texts, vec![0; n], vec!["synthetic".into()], c_floor)?;
    // SPEC §14: an arrival's label is the index of the prompt it was perturbed from.
    d.ground_truth = GroundTruth::Labels((0..n as i64).map(Label::Class).collect());
    Ok(d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn fifty_prompts_with_the_spec_token_profile() {
        let d = super::universe(0.01).unwrap();
        assert_eq!(d.len(), 50);
        assert_eq!(d.points.dim(), 384);
        let mut t = d.tokens.clone();
        t.sort();
        let median = (t[24] + t[25]) as f64 / 2.0;
        assert!((8.0..=12.0).contains(&median), "median tokens {median}");
        assert!((35..=40).contains(&t[49]), "max tokens {}", t[49]);
        // two groups: near 0–15 and 25–40, nothing in between
        assert!(t.iter().all(|&x| x <= 15 || x >= 25));
        // unit-norm rows
        for x in d.points.iter() {
            let n: f64 = x.iter().map(|&v| (v as f64) * (v as f64)).sum::<f64>().sqrt();
            assert!((n - 1.0).abs() < 1e-5);
        }
        assert!(d.costs.iter().all(|&c| c > 0.0 && c <= 1.0));
        // SPEC §14: prompt i is labelled i.
        assert_eq!(d.label(7), Some(&crate::answers::Label::Class(7)));
        assert_eq!(d.ground_truth.labels().map(|l| l.len()), Some(50));
    }
}
