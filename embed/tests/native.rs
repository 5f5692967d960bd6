//! The embedder against the shared data: the first 200 NQ questions embed to within cosine 0.99999
//! of `nq.emb.f32`'s rows with the f16 weights `scripts/fetch-model.sh` writes, edge texts embed
//! without a panic, and the GPT-2 counts equal the `tokens` field on the first 1,000 NQ and 1,000
//! TriviaQA questions. Missing model or data is a failure, not a skip.

use csc_embed::{gpt2_tokens, Embedder, DIM, MAX_TOKENS};
use std::path::PathBuf;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data_dir() -> PathBuf {
    std::env::var_os("CSC_DATA")
        .or_else(|| std::env::var_os("CSC_DATA_DIR")) // the old name, still read
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data"))
}

fn read(p: PathBuf, hint: &str) -> Vec<u8> {
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e} ({hint})", p.display()))
}

fn embedder() -> Embedder {
    let m = root().join("www/model");
    let hint = "run scripts/fetch-model.sh";
    let w = read(m.join("model.f16.safetensors"), hint);
    let t = read(m.join("tokenizer.json"), hint);
    let c = String::from_utf8(read(m.join("config.json"), hint)).unwrap();
    Embedder::from_bytes(&w, &t, &c).expect("model loads")
}

/// (text, tokens) of the first `n` lines of a shared jsonl.
fn questions(file: &str, n: usize) -> Vec<(String, usize)> {
    let raw = read(data_dir().join(file), "set CSC_DATA to the shared data folder (../shared/data)");
    let text = String::from_utf8(raw).unwrap();
    text.lines()
        .take(n)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["text"].as_str().unwrap().to_string(), v["tokens"].as_u64().unwrap() as usize)
        })
        .collect()
}

fn rows(file: &str, n: usize) -> Vec<f32> {
    let raw = read(data_dir().join(file), "set CSC_DATA to the shared data folder (../shared/data)");
    raw[..n * DIM * 4].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum()
}

#[test]
fn first_200_nq_match_the_shared_embeddings() {
    let e = embedder();
    let qs = questions("nq.jsonl", 200);
    let want = rows("nq.emb.f32", 200);
    let texts: Vec<&str> = qs.iter().map(|(t, _)| t.as_str()).collect();
    // One at a time (as the page embeds a typed question) and in batches of 20 (padding).
    let t0 = Instant::now();
    let mut single = Vec::new();
    for t in &texts {
        single.extend(e.embed(&[*t]).unwrap());
    }
    let per_q = t0.elapsed().as_secs_f64() * 1e3 / texts.len() as f64;
    let batched: Vec<f32> = texts.chunks(20).flat_map(|c| e.embed(c).unwrap()).collect();
    for (name, got) in [("single", &single), ("batched", &batched)] {
        assert_eq!(got.len(), 200 * DIM);
        let mut min = f64::INFINITY;
        for i in 0..200 {
            let r = i * DIM..(i + 1) * DIM;
            let norm = dot(&got[r.clone()], &got[r.clone()]).sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "{name} row {i} norm {norm}");
            let cos = dot(&got[r.clone()], &want[r]) / norm;
            min = min.min(cos);
        }
        eprintln!("{name}: min cosine {min:.7} over 200 NQ questions");
        assert!(min >= 0.99999, "{name}: min cosine {min}");
    }
    eprintln!("native: {per_q:.1} ms per question (one at a time)");
}

#[test]
fn edge_texts_embed_without_panic() {
    let e = embedder();
    let long = "the quick brown fox jumps over the lazy dog ".repeat(80); // ~720 word-pieces
    let texts = [
        "",
        "   ",
        "東京タワーの高さは何メートルですか",
        "Какая самая длинная река в мире?",
        "🦀🚀 who invented the 🍕?",
        long.as_str(),
    ];
    let out = e.embed(&texts).unwrap();
    assert_eq!(out.len(), texts.len() * DIM);
    for (i, row) in out.chunks(DIM).enumerate() {
        assert!(row.iter().all(|x| x.is_finite()), "row {i} not finite");
        let n = dot(row, row).sqrt();
        assert!((n - 1.0).abs() < 1e-5, "row {i} norm {n}");
    }
    // The long text is truncated to MAX_TOKENS word-pieces: appending more words changes nothing.
    let longer = format!("{long} and then some more words at the very end");
    let a = e.embed(&[long.as_str()]).unwrap();
    let b = e.embed(&[longer.as_str()]).unwrap();
    assert!(dot(&a, &b) > 0.999_999, "truncation at {MAX_TOKENS}");
    assert!(e.embed::<&str>(&[]).unwrap().is_empty());
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    assert!(Embedder::from_bytes(b"nope", b"{}", "{}").is_err());
    let m = root().join("www/model");
    let t = read(m.join("tokenizer.json"), "run scripts/fetch-model.sh");
    let c = String::from_utf8(read(m.join("config.json"), "")).unwrap();
    assert!(Embedder::from_bytes(b"\0\0\0\0\0\0\0\0", &t, &c).is_err());
    assert!(Embedder::from_bytes(&[], &t, "not json").is_err());
}

#[test]
fn gpt2_counts_match_the_tokens_field() {
    for file in ["nq.jsonl", "triviaqa.jsonl"] {
        let qs = questions(file, 1000);
        assert_eq!(qs.len(), 1000);
        for (i, (text, tokens)) in qs.iter().enumerate() {
            assert_eq!(gpt2_tokens(text).unwrap(), *tokens, "{file} line {i}: {text:?}");
        }
    }
    assert_eq!(gpt2_tokens("Hello world").unwrap(), 2); // ../shared/data/README.md: [15496, 995]
    assert_eq!(gpt2_tokens("").unwrap(), 0);
    // Longer texts are refused with one message (BPE of one long word is quadratic).
    let long = "x".repeat(csc_embed::MAX_TEXT_CHARS + 1);
    assert_eq!(
        gpt2_tokens(&long).unwrap_err(),
        "gpt2Tokens: text is 50001 characters long; at most 50000 are taken (cut it, or count a long document in parts)"
    );
    assert_eq!(gpt2_tokens(&long[1..]).unwrap(), 6250);
}
