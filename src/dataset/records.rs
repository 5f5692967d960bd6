//! Parsing user and shared data (SPEC §7 "User data", `shared/data/README.md`): JSONL records of
//! `{"text", "tokens", "embedding"?}` and the binary embedding layout (raw little-endian `f32`,
//! row-major, N × d, no header). Every error names the line or byte where it happened.

use crate::error::{Error, Result};
use crate::space::Points;
use serde::Deserialize;

/// One query of a dataset file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub text: String,
    /// GPT-2 token count (the cost model of SPEC §2).
    pub tokens: u32,
    pub embedding: Option<Vec<f32>>,
}

#[derive(Deserialize)]
struct Raw {
    text: String,
    tokens: f64,
    #[serde(default)]
    embedding: Option<Vec<f64>>,
}

/// Parses JSONL text; blank lines are skipped; at least one record is required.
pub fn parse_jsonl(text: &str) -> Result<Vec<Record>> {
    parse_jsonl_limited(text, usize::MAX)
}

/// As [`parse_jsonl`] but stops after `limit` records (the nq-trivia universe takes the first
/// 2,500 of each file).
pub fn parse_jsonl_limited(text: &str, limit: usize) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for (no, line) in text.lines().enumerate() {
        if out.len() >= limit {
            break;
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let raw: Raw =
            serde_json::from_str(line).map_err(|e| Error::parse(format!("line {}: {e}", no + 1)))?;
        if !(raw.tokens.is_finite()
            && raw.tokens >= 0.0
            && raw.tokens.fract() == 0.0
            && raw.tokens <= u32::MAX as f64)
        {
            return Err(Error::data(format!(
                "line {}: `tokens` must be a whole number ≥ 0, got {}",
                no + 1,
                raw.tokens
            )));
        }
        let embedding = match raw.embedding {
            None => None,
            Some(v) => {
                if v.is_empty() {
                    return Err(Error::data(format!("line {}: `embedding` is empty", no + 1)));
                }
                let e: Vec<f32> = v.iter().map(|&x| x as f32).collect();
                if let Some(j) = e.iter().position(|x| !x.is_finite()) {
                    return Err(Error::data(format!(
                        "line {}: embedding coordinate {j} is not a finite 32-bit number ({})",
                        no + 1,
                        v[j]
                    )));
                }
                Some(e)
            }
        };
        out.push(Record { text: raw.text, tokens: raw.tokens as u32, embedding });
    }
    if out.is_empty() {
        return Err(Error::data("the file holds no records (expected one JSON object per line)"));
    }
    Ok(out)
}

/// Parses JSONL given as bytes (as a file picker delivers it), rejecting invalid UTF-8.
pub fn parse_jsonl_bytes(bytes: &[u8]) -> Result<Vec<Record>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::parse(format!("the file is not valid UTF-8 (first bad byte at offset {})", e.valid_up_to()))
    })?;
    parse_jsonl(text)
}

/// Parses the binary embedding layout: raw little-endian `f32`, row-major, `dim` per row.
pub fn parse_embeddings(bytes: &[u8], dim: usize) -> Result<Points> {
    if dim == 0 {
        return Err(Error::param("dim", "the embedding dimension must be at least 1"));
    }
    let row = dim * 4;
    if bytes.is_empty() {
        return Err(Error::data("the embedding file is empty"));
    }
    if !bytes.len().is_multiple_of(row) {
        return Err(Error::data(format!(
            "the embedding file has {} bytes, not a whole number of {dim}-float rows ({row} bytes each); is it truncated?",
            bytes.len()
        )));
    }
    let data: Vec<f32> =
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    Points::from_flat(dim, data).map_err(|e| Error::data(format!("embedding file: {e}")))
}

/// Embeddings for `records`: from the binary file if given (row i = record i), else from each
/// record's `embedding` field.
pub fn embeddings_for(records: &[Record], binary: Option<(&[u8], usize)>) -> Result<Points> {
    match binary {
        Some((bytes, dim)) => {
            let p = parse_embeddings(bytes, dim)?;
            if p.len() < records.len() {
                return Err(Error::data(format!(
                    "{} records but only {} embedding rows",
                    records.len(),
                    p.len()
                )));
            }
            Ok(p.select(&(0..records.len()).collect::<Vec<_>>()))
        }
        None => {
            let dim = match &records[0].embedding {
                Some(e) => e.len(),
                None => {
                    return Err(Error::data(
                        "line 1 has no `embedding`: give every record an embedding or supply the binary embedding file",
                    ))
                }
            };
            let mut p = Points::new(dim)?;
            for (i, r) in records.iter().enumerate() {
                let e = r.embedding.as_ref().ok_or_else(|| {
                    Error::data(format!("record {} has no `embedding` while record 1 has one", i + 1))
                })?;
                if e.len() != dim {
                    return Err(Error::data(format!(
                        "record {} has a {}-dimensional embedding but record 1 has {dim} dimensions",
                        i + 1,
                        e.len()
                    )));
                }
                p.push(e)?;
            }
            Ok(p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates_jsonl() {
        let r = parse_jsonl("{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1],\"id\":\"x\"}\n").unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[1].tokens, 5);
        assert_eq!(embeddings_for(&r, None).unwrap().len(), 2);
        let e = parse_jsonl("{\"text\":\"a\"}").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("tokens"), "{e}");
        let e = parse_jsonl("{\"text\":\"a\",\"tokens\":-2}").unwrap_err().to_string();
        assert!(e.contains("whole number"), "{e}");
        let e = parse_jsonl("{\"text\":\"a\",\"tokens\":2,\"embedding\":[1e300]}").unwrap_err().to_string();
        assert!(e.contains("finite"), "{e}");
        assert!(parse_jsonl("\n\n").unwrap_err().to_string().contains("no records"));
        assert!(parse_jsonl("not json").unwrap_err().to_string().contains("line 1"));
        let e = parse_jsonl_bytes(&[b'{', 0xff, 0xfe]).unwrap_err().to_string();
        assert!(e.contains("UTF-8"), "{e}");
        let ragged = parse_jsonl("{\"text\":\"a\",\"tokens\":1,\"embedding\":[1,0]}\n{\"text\":\"b\",\"tokens\":1,\"embedding\":[1]}").unwrap();
        assert!(embeddings_for(&ragged, None)
            .unwrap_err()
            .to_string()
            .contains("record 2 has a 1-dimensional"));
        let none = parse_jsonl("{\"text\":\"a\",\"tokens\":1}").unwrap();
        assert!(embeddings_for(&none, None).is_err());
    }

    #[test]
    fn parses_and_validates_binary() {
        let mut bytes = Vec::new();
        for v in [1.0f32, 0.0, 0.0, 1.0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let p = parse_embeddings(&bytes, 2).unwrap();
        assert_eq!(p.row(1), &[0.0, 1.0]);
        assert!(parse_embeddings(&bytes[..7], 2).unwrap_err().to_string().contains("truncated"));
        assert!(parse_embeddings(&[], 2).is_err());
        assert!(parse_embeddings(&bytes, 0).is_err());
        let mut nan = bytes.clone();
        nan[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(parse_embeddings(&nan, 2).unwrap_err().to_string().contains("non-finite"));
        let recs = parse_jsonl(
            "{\"text\":\"a\",\"tokens\":1}\n{\"text\":\"b\",\"tokens\":1}\n{\"text\":\"c\",\"tokens\":1}",
        )
        .unwrap();
        assert!(embeddings_for(&recs, Some((&bytes, 2))).unwrap_err().to_string().contains("only 2"));
    }
}
