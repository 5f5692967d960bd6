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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates_jsonl() {
        let r = parse_jsonl("{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1],\"id\":\"x\"}\n").unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!((r[1].tokens, r[1].line, r[1].id.as_deref()), (5, 3, Some("x")));
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
}
