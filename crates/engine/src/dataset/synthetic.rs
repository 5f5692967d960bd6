//! The built-in `synthetic` universe (SPEC §7, paper §6): 50 prompts written for this project,
//! embedded offline with all-MiniLM-L6-v2 and counted with GPT-2's tokenizer by
//! `tools/make_synthetic.py` (see `data/synthetic/README.md`).

use super::embeddings::embeddings_for;
use super::records::parse_jsonl;
use super::{Dataset, GroundTruth};
use crate::answers::Label;
use crate::error::{Error, Result};

const PROMPTS: &str = include_str!("../../../../data/synthetic/prompts.jsonl");
/// all-MiniLM-L6-v2 embeddings are 384-dimensional.
pub const DIM: usize = 384;
/// The size of `data/synthetic/prompts.emb.f32`: 50 rows of [`DIM`] little-endian `f32`.
pub const EMBEDDINGS_BYTES: usize = 50 * DIM * 4;
/// The SHA-256 of `data/synthetic/prompts.emb.f32`, so that embeddings given at run time
/// ([`provide_embeddings`]) are exactly the built-in ones, bit for bit.
pub const EMBEDDINGS_SHA256: &str = "0e3512adf992b2a881ede0747ac16b9f1cf6b8ffa31e8ebc241c306db750377f";

/// The embeddings compiled into the native builds (the CLI, the tests, the benchmarks). A wasm32
/// build leaves them out: the page fetches the same file beside its `.wasm` and gives it to
/// [`provide_embeddings`] (data loaded as data, like nq-trivia's files, so the module the page
/// compiles is code and its strings only).
#[cfg(not(target_arch = "wasm32"))]
const BUILT_IN: Option<&[u8]> = Some(include_bytes!("../../../../data/synthetic/prompts.emb.f32"));
#[cfg(target_arch = "wasm32")]
const BUILT_IN: Option<&[u8]> = None;

static PROVIDED: std::sync::OnceLock<Box<[u8]>> = std::sync::OnceLock::new();

/// Gives the universe its embeddings at run time: the bytes of `data/synthetic/prompts.emb.f32`
/// (the page's `synthetic.emb.f32`), checked by size and SHA-256 against the built-in file. Giving
/// them again is harmless; giving other bytes is an error and changes nothing.
pub fn provide_embeddings(bytes: &[u8]) -> Result<()> {
    check_embeddings(bytes)?;
    PROVIDED.get_or_init(|| bytes.into());
    Ok(())
}

fn check_embeddings(bytes: &[u8]) -> Result<()> {
    use sha2::{Digest, Sha256};
    let what = "the synthetic dataset's embeddings (synthetic.emb.f32)";
    if bytes.len() != EMBEDDINGS_BYTES {
        return Err(Error::data(format!(
            "{what} must be {EMBEDDINGS_BYTES} bytes (50 rows of {DIM} f32), got {}",
            bytes.len()
        )));
    }
    let sum: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    if sum != EMBEDDINGS_SHA256 {
        return Err(Error::data(format!(
            "{what} are not the built-in file data/synthetic/prompts.emb.f32 (SHA-256 {sum})"
        )));
    }
    Ok(())
}

fn embeddings() -> Result<&'static [u8]> {
    BUILT_IN.or_else(|| PROVIDED.get().map(|b| &b[..])).ok_or_else(|| {
        Error::data(
            "the synthetic dataset's embeddings (synthetic.emb.f32, beside the engine's .wasm) have not been loaded: give them to provideSynthetic first",
        )
    })
}

/// The 50-prompt universe with costs from `c_floor` (SPEC §2).
pub fn universe(c_floor: f64) -> Result<Dataset> {
    let records = parse_jsonl(PROMPTS)?;
    let points = embeddings_for(&records, Some((embeddings()?, DIM)))?;
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

    /// The built-in file passes its own check; a byte changed, a byte missing, or nothing at all
    /// are refused with a message saying what was expected.
    #[test]
    fn provided_embeddings_must_be_the_built_in_file() {
        let file = include_bytes!("../../../../data/synthetic/prompts.emb.f32");
        assert_eq!(file.len(), super::EMBEDDINGS_BYTES);
        super::check_embeddings(file).unwrap();
        super::provide_embeddings(file).unwrap();
        assert_eq!(super::embeddings().unwrap(), &file[..]);
        let mut changed = file.to_vec();
        changed[1234] ^= 1;
        let e = super::provide_embeddings(&changed).unwrap_err().to_string();
        assert!(e.contains("are not the built-in file data/synthetic/prompts.emb.f32"), "{e}");
        let e = super::provide_embeddings(&file[1..]).unwrap_err().to_string();
        assert!(e.contains("must be 76800 bytes (50 rows of 384 f32), got 76799"), "{e}");
        let e = super::provide_embeddings(&[]).unwrap_err().to_string();
        assert!(e.contains("got 0"), "{e}");
    }
}
