//! Parsing user and shared data (SPEC §7 "User data", `shared/data/README.md`): JSONL records of
//! `{"id"?, "text", "tokens", "embedding"?}` and the binary embedding layout (raw little-endian
//! `f32`, row-major, N × d, no header).
//!
//! Every problem is reported once, as an [`Error::File`]: the 1-based line of the JSONL (binary
//! rows are counted from 0 and named with the line of their record, "row 6 = line 7"), what was
//! expected and how to fix it. The caller names the file with [`Error::in_file`].

use super::fields::{at, kind};
use crate::answers::Label;
use crate::error::{Error, Result};
use crate::space::Points;
use serde_json::Value;

/// One query of a dataset file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The record's `id`, if it has one (a string or a number, kept as written).
    pub id: Option<String>,
    pub text: String,
    /// GPT-2 token count (the cost model of SPEC §2).
    pub tokens: u32,
    pub embedding: Option<Vec<f32>>,
    /// The value of the group field asked for (see [`parse_jsonl_grouped`]).
    pub group: Option<String>,
    /// Ground truth (SPEC §14): `answers` (a list of strings, normalised) or `label` (a string
    /// or an integer). One kind per file, on every record or on none.
    pub label: Option<Label>,
    /// 1-based line of the record in its file.
    pub line: usize,
}

/// What one line must look like (quoted in the messages).
const SHAPE: &str = r#"{"id"?: string, "text": string, "tokens": whole number, "embedding"?: [numbers]}"#;

/// Parses JSONL text; blank lines are skipped; at least one record is required.
pub fn parse_jsonl(text: &str) -> Result<Vec<Record>> {
    parse_jsonl_grouped(text, usize::MAX, None)
}

/// As [`parse_jsonl`] but stops after `limit` records (the nq-trivia universe takes the first
/// 2,500 of each file).
pub fn parse_jsonl_limited(text: &str, limit: usize) -> Result<Vec<Record>> {
    parse_jsonl_grouped(text, limit, None)
}

/// Parses at most `limit` records; with `group_field`, every record must have that field (a
/// string, number or boolean), kept as [`Record::group`]. Ids, when present, must be unique.
pub fn parse_jsonl_grouped(text: &str, limit: usize, group_field: Option<&str>) -> Result<Vec<Record>> {
    let mut out: Vec<Record> = Vec::new();
    let mut ids: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (no, line) in text.lines().enumerate() {
        if out.len() >= limit {
            break;
        }
        let no = no + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| {
            if e.is_eof() {
                Error::at(
                    at(no),
                    format!(
                        "the line ends inside a JSON object (the file looks cut short); expected one complete {SHAPE} per line — re-export or remove the last line"
                    ),
                )
            } else {
                Error::at(at(no), format!("not valid JSON ({e}); expected one {SHAPE} per line"))
            }
        })?;
        let obj = v.as_object().ok_or_else(|| {
            Error::at(at(no), format!("expected a JSON object {SHAPE}, found {}", kind(&v)))
        })?;
        let field = |name: &str| -> Result<&Value> {
            obj.get(name).ok_or_else(|| {
                Error::at(
                    at(no),
                    format!("missing field `{name}`; expected {SHAPE} — add `{name}` to this line"),
                )
            })
        };
        let text = field("text")?
            .as_str()
            .ok_or_else(|| {
                Error::at(at(no), format!("`text` must be a string, found {}", kind(&obj["text"])))
            })?
            .to_string();
        let tokens = field("tokens")?;
        let t = tokens
            .as_f64()
            .filter(|t| t.is_finite() && *t >= 0.0 && t.fract() == 0.0 && *t <= u32::MAX as f64);
        let tokens = t.ok_or_else(|| {
            Error::at(
                at(no),
                format!("`tokens` must be a whole number ≥ 0 (the GPT-2 token count), got {tokens}"),
            )
        })? as u32;
        let id = match obj.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(o) => {
                return Err(Error::at(
                    at(no),
                    format!("`id` must be a string or a number, found {}", kind(o)),
                ))
            }
        };
        if let Some(id) = &id {
            if let Some(first) = ids.insert(id.clone(), no) {
                return Err(Error::at(
                    at(no),
                    format!("duplicate id \"{id}\" (first on line {first}); every id must be unique — rename or remove one of the two records (a repeated query in a log is a new line with its own id)"),
                ));
            }
        }
        let group = match group_field {
            None => None,
            Some(g) => Some(match field(g)? {
                Value::String(s) => s.clone(),
                o @ (Value::Number(_) | Value::Bool(_)) => o.to_string(),
                o => {
                    return Err(Error::at(
                        at(no),
                        format!("the group field `{g}` must be a string or number, found {}", kind(o)),
                    ))
                }
            }),
        };
        let embedding = match obj.get("embedding") {
            None | Some(Value::Null) => None,
            Some(Value::Array(a)) => {
                if a.is_empty() {
                    return Err(Error::at(at(no), "`embedding` is empty; expected a list of d numbers"));
                }
                let mut e = Vec::with_capacity(a.len());
                for (j, x) in a.iter().enumerate() {
                    let f = x.as_f64().map(|f| f as f32).filter(|f| f.is_finite()).ok_or_else(|| {
                        Error::at(
                            at(no),
                            format!("embedding value {j} ({x}) is not a finite 32-bit number; every coordinate must be finite — recompute this embedding"),
                        )
                    })?;
                    e.push(f);
                }
                Some(e)
            }
            Some(o) => {
                return Err(Error::at(
                    at(no),
                    format!("`embedding` must be a list of numbers, found {}", kind(o)),
                ))
            }
        };
        let label = super::ground_truth::parse_label(obj, no)?;
        if let Some(first) = out.first() {
            super::ground_truth::check_same_label_kind(
                (first.label.as_ref(), first.line),
                label.as_ref(),
                no,
            )?;
        }
        out.push(Record { id, text, tokens, embedding, group, label, line: no });
    }
    if out.is_empty() {
        return Err(Error::at(
            "",
            format!("the file is empty: it holds no records; expected one {SHAPE} per line"),
        ));
    }
    Ok(out)
}

/// Parses JSONL given as bytes (as a file picker delivers it), rejecting invalid UTF-8.
pub fn parse_jsonl_bytes(bytes: &[u8]) -> Result<Vec<Record>> {
    parse_jsonl_bytes_grouped(bytes, None)
}

/// [`parse_jsonl_grouped`] over bytes.
pub fn parse_jsonl_bytes_grouped(bytes: &[u8], group_field: Option<&str>) -> Result<Vec<Record>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::at(
            at(line),
            format!(
                "the file is not valid UTF-8 (first bad byte at offset {}); save it as UTF-8",
                e.valid_up_to()
            ),
        )
    })?;
    parse_jsonl_grouped(text, usize::MAX, group_field)
}

/// Parses the binary embedding layout: raw little-endian `f32`, row-major, `dim` per row.
pub fn parse_embeddings(bytes: &[u8], dim: usize) -> Result<Points> {
    if dim == 0 {
        return Err(Error::param("dim", "the embedding dimension must be at least 1"));
    }
    let row = dim * 4;
    if bytes.is_empty() {
        return Err(Error::at("", "the embedding file is empty; expected N × d little-endian f32 values"));
    }
    if !bytes.len().is_multiple_of(row) {
        return Err(Error::at(
            "",
            format!(
                "{} bytes is not a whole number of {dim}-float rows ({row} bytes each); is it truncated, or is the dimension not {dim}?",
                bytes.len()
            ),
        ));
    }
    let data: Vec<f32> =
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    if let Some(k) = data.iter().position(|x| !x.is_finite()) {
        return Err(Error::at(
            format!("row {}", k / dim),
            format!(
                "coordinate {} is {} (non-finite); every value must be finite — recompute this embedding",
                k % dim,
                data[k]
            ),
        ));
    }
    Points::from_flat(dim, data)
}

/// The dimensions `d` under which a file of `bytes` holds exactly `n` rows.
fn fitting_dim(bytes: usize, n: usize) -> Option<usize> {
    (n > 0 && bytes.is_multiple_of(4 * n)).then(|| bytes / (4 * n))
}

/// Embeddings for `records`: from the binary file if given (row i = record i, with exactly as
/// many rows as records), else from each record's `embedding` field. `dim` of the binary file
/// may be `None`: it is then the one under which the rows equal the records. Errors name the
/// binary file's row and the record's line; the caller names the file.
pub fn embeddings_for(records: &[Record], binary: Option<(&[u8], usize)>) -> Result<Points> {
    match binary {
        Some((bytes, dim)) => binary_for(records, "the JSONL", bytes, Some(dim)),
        None => inline_embeddings(records),
    }
}

/// [`embeddings_for`] with the binary file's dimension optional; `records_file` names the JSONL
/// in the messages.
pub fn binary_for(
    records: &[Record],
    records_file: &str,
    bytes: &[u8],
    dim: Option<usize>,
) -> Result<Points> {
    let n = records.len();
    let guess = fitting_dim(bytes.len(), n);
    let dim = match (dim, guess) {
        (Some(d), _) => d,
        (None, Some(d)) if d > 0 => d,
        (None, _) => {
            return Err(Error::at(
                "",
                format!(
                    "{} bytes do not divide into {n} rows of f32 (one per record of {records_file}); give the dimension (--dim) and check the files belong together",
                    bytes.len()
                ),
            ))
        }
    };
    let suggest =
        |g: usize| format!("; {n} rows of {g} floats would fit exactly — is the dimension {g} (--dim {g})?");
    // whole rows of another size: that size is the likely dimension
    let any_hint = guess.filter(|&g| g != dim && g > 0).map_or(String::new(), suggest);
    // whole rows of the declared size but not one per record: another dimension is likely only
    // when it is a multiple or a divisor of the declared one (768 read as 384, …)
    let hint = match guess {
        Some(g) if g != dim && g > 0 && dim > 0 && (g % dim == 0 || dim % g == 0) => {
            format!("; {n} rows of {g} floats would fit exactly — is the dimension {g} (--dim {g})?")
        }
        _ => String::new(),
    };
    if dim > 0 && !bytes.is_empty() && !bytes.len().is_multiple_of(dim * 4) {
        return Err(Error::at(
            "",
            format!(
                "{} bytes is not a whole number of {dim}-float rows ({} bytes each){}",
                bytes.len(),
                dim * 4,
                if any_hint.is_empty() { "; is it truncated?".to_string() } else { any_hint }
            ),
        ));
    }
    let p = parse_embeddings(bytes, dim).map_err(|e| match e {
        Error::File { file, at, msg } if at.starts_with("row ") => {
            let r: usize = at[4..].parse().unwrap_or(0);
            let line =
                records.get(r).map_or(String::new(), |rec| format!(" = line {} of {records_file}", rec.line));
            Error::File { file, at: format!("{at}{line}"), msg }
        }
        e => e,
    })?;
    if p.len() != n {
        let fix = if p.len() > n {
            format!("remove the extra rows {}–{} or add their records", n, p.len() - 1)
        } else {
            format!("add the missing rows {}–{} or remove their records", p.len(), n - 1)
        };
        return Err(Error::at(
            "",
            format!(
                "{} has {} records but {}{} embedding rows of {dim} floats are in this file; the rows must equal the records exactly{}",
                records_file,
                n,
                if p.len() < n { "only " } else { "" },
                p.len(),
                if hint.is_empty() { format!(" — {fix}") } else { hint }
            ),
        ));
    }
    Ok(p)
}

/// How far from 1 a row's Euclidean norm may be and still count as unit-norm.
const UNIT_NORM_TOLERANCE: f64 = 1e-3;

/// SPEC §1: text embeddings are L2-normalised, and the distance `‖x − y‖₂ / D` is read on that
/// sphere (the synthetic arrival model jitters a row and renormalises it, SPEC §7, which moves a
/// row of another norm by the renormalisation alone and leaves its σ_e uncalibratable). Rows
/// that are not unit-norm are therefore normalised to unit length, and the returned note says
/// so with every result (the page shows it with "Loaded"): a sentence embedding's direction is
/// what it means — cosine similarity, which scaling a row does not change. Refused, with the
/// fix: a row of norm 0 (it has no direction), and rows not of unit norm when the dimension of a
/// binary file was inferred from its size (the inference was then almost surely wrong: a file
/// holding every embedding twice reads as rows of twice the dimension, each of norm √2).
pub fn unit_norm(records: &[Record], points: Points, dim_inferred: bool) -> Result<(Points, Vec<String>)> {
    let norms: Vec<f64> =
        points.iter().map(|r| r.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt()).collect();
    let off: Vec<usize> =
        (0..norms.len()).filter(|&i| (norms[i] - 1.0).abs() > UNIT_NORM_TOLERANCE).collect();
    let Some(&first) = off.first() else { return Ok((points, Vec::new())) };
    let (lo, hi) =
        off.iter().fold((f64::INFINITY, 0f64), |(lo, hi), &i| (lo.min(norms[i]), hi.max(norms[i])));
    let line = records.get(first).map_or(String::new(), |r| format!(" (line {})", r.line));
    if dim_inferred {
        return Err(Error::at(
            format!("row {first}{}", line.replace(" (", " = ").replace(')', "")),
            format!(
                "{} of {} rows are not unit-norm (norms {lo:.4} to {hi:.4}; this row {:.4}) under the inferred dimension {}: embeddings are L2-normalised (SPEC §1), so the dimension is probably not {} — does the file hold each embedding more than once, or belong to other records? Give the dimension (--dim d) if {} is right",
                off.len(),
                norms.len(),
                norms[first],
                points.dim(),
                points.dim(),
                points.dim()
            ),
        ));
    }
    if let Some(zero) = (0..norms.len()).find(|&i| norms[i] == 0.0) {
        let line = records.get(zero).map_or(String::new(), |r| format!(" = line {}", r.line));
        return Err(Error::at(
            format!("row {zero}{line}"),
            "the embedding is all zeros: it has no direction to normalise to unit length (SPEC §1) — give this record its embedding, or remove it",
        ));
    }
    let data: Vec<f32> = points
        .iter()
        .zip(&norms)
        .flat_map(|(r, &n)| {
            let unit = (n - 1.0).abs() > UNIT_NORM_TOLERANCE;
            r.iter().map(move |&v| if unit { (v as f64 / n) as f32 } else { v })
        })
        .collect();
    let points = Points::from_flat(points.dim(), data)?;
    Ok((
        points,
        vec![format!(
            "{} of {} embedding rows were not unit-norm (norms {lo:.4} to {hi:.4}, first row {first}{line}); they were normalised to unit length, as SPEC §1 assumes (their cosine similarities are unchanged)",
            off.len(),
            norms.len()
        )],
    ))
}

/// Embeddings from each record's `embedding` field (all present, all the same length).
pub fn inline_embeddings(records: &[Record]) -> Result<Points> {
    let first = &records[0];
    let dim = match &first.embedding {
        Some(e) => e.len(),
        None => {
            return Err(Error::at(
                at(first.line),
                "no `embedding`: give every record an `embedding` list, or supply the binary embedding file (--embeddings FILE --dim d)",
            ))
        }
    };
    let mut p = Points::new(dim)?;
    for (i, r) in records.iter().enumerate() {
        let e = r.embedding.as_ref().ok_or_else(|| {
            Error::at(
                at(r.line),
                format!(
                    "record {} has no `embedding` while the first record has one; give every record one",
                    i + 1
                ),
            )
        })?;
        if e.len() != dim {
            return Err(Error::at(
                at(r.line),
                format!(
                    "record {} has a {}-dimensional embedding but record 1 has {dim} dimensions; every embedding must have the same length",
                    i + 1,
                    e.len()
                ),
            ));
        }
        p.push(e)?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates_jsonl() {
        let r = parse_jsonl("{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1],\"id\":\"x\"}\n").unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!((r[1].tokens, r[1].line, r[1].id.as_deref()), (5, 3, Some("x")));
        assert_eq!(embeddings_for(&r, None).unwrap().len(), 2);
        let e = parse_jsonl("{\"text\":\"a\"}").unwrap_err().to_string();
        assert!(e.starts_with("line 1: missing field `tokens`"), "{e}");
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
        let g = parse_jsonl_grouped("{\"text\":\"a\",\"tokens\":1,\"src\":\"x\"}", 9, Some("src")).unwrap();
        assert_eq!(g[0].group.as_deref(), Some("x"));
        let e = parse_jsonl("{\"id\":1,\"text\":\"a\",\"tokens\":1}\n{\"id\":1,\"text\":\"b\",\"tokens\":1}")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 2: duplicate id \"1\" (first on line 1)"), "{e}");
    }

    #[test]
    fn ground_truth_fields() {
        let r = parse_jsonl("{\"text\":\"a\",\"tokens\":1,\"answers\":[\"The Beatles\",\"---\"]}\n{\"text\":\"b\",\"tokens\":1,\"answers\":[]}").unwrap();
        assert_eq!(r[0].label, Some(Label::Answers(vec!["beatles".into()])));
        assert_eq!(r[1].label, Some(Label::Answers(vec![])));
        let r = parse_jsonl(
            "{\"text\":\"a\",\"tokens\":1,\"label\":3}\n{\"text\":\"b\",\"tokens\":1,\"label\":\"x\"}",
        )
        .unwrap();
        assert_eq!(
            (r[0].label.clone(), r[1].label.clone()),
            (Some(Label::Class(3)), Some(Label::Text("x".into())))
        );
        let err = |s: &str| parse_jsonl(s).unwrap_err().to_string();
        let e = err("{\"text\":\"a\",\"tokens\":1,\"label\":3}\n{\"text\":\"b\",\"tokens\":1}");
        assert!(e.starts_with("line 2: no `label` while line 1 has one"), "{e}");
        let e = err("{\"text\":\"a\",\"tokens\":1}\n\n{\"text\":\"b\",\"tokens\":1,\"answers\":[\"x\"]}");
        assert!(e.starts_with("line 3: `answers` here but none on line 1"), "{e}");
        let e = err(
            "{\"text\":\"a\",\"tokens\":1,\"label\":3}\n{\"text\":\"b\",\"tokens\":1,\"answers\":[\"x\"]}",
        );
        assert!(e.starts_with("line 2: `answers` here but `label` on line 1"), "{e}");
        let e = err("{\"text\":\"a\",\"tokens\":1,\"label\":3,\"answers\":[\"x\"]}");
        assert!(e.starts_with("line 1: the record has both"), "{e}");
        let e = err("{\"text\":\"a\",\"tokens\":1,\"answers\":[\"x\",2]}");
        assert!(
            e.starts_with("line 1: `answers` must be a list of strings, but answer 1 is a number"),
            "{e}"
        );
        let e = err("{\"text\":\"a\",\"tokens\":1,\"answers\":\"x\"}");
        assert!(e.contains("`answers` must be a list of strings"), "{e}");
        let e = err("{\"text\":\"a\",\"tokens\":1,\"label\":1.5}");
        assert!(e.contains("`label` 1.5 is not a whole number"), "{e}");
        let e = err("{\"text\":\"a\",\"tokens\":1,\"label\":[1]}");
        assert!(e.contains("`label` must be a string or an integer, found a list"), "{e}");
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
        assert!(embeddings_for(&recs, Some((&bytes, 2)))
            .unwrap_err()
            .to_string()
            .contains("3 records but only 2 embedding rows"));
        // more rows than records is an error too, and the likely dimension is suggested
        let e = embeddings_for(&recs[..1], Some((&bytes, 2))).unwrap_err().to_string();
        assert!(e.contains("has 1 records but 2 embedding rows") && e.contains("--dim 4"), "{e}");
        assert_eq!(binary_for(&recs[..2], "x.jsonl", &bytes, None).unwrap().dim(), 2);
    }
}
