//! The ground truth of user records (SPEC §14): an optional `answers` (a list of strings) or
//! `label` (a string or an integer) per record, one kind per file, on every record or none. Each
//! fault is one message naming the line, as the rest of [`super::records`].

use super::fields::{at, kind};
use crate::answers::Label;
use crate::error::{Error, Result};
use serde_json::Value;

/// The ground truth of one record (SPEC §14): `answers` (a list of strings) or `label` (a
/// string or an integer), never both.
pub(super) fn parse_label(obj: &serde_json::Map<String, Value>, no: usize) -> Result<Option<Label>> {
    let answers = obj.get("answers").filter(|v| !v.is_null());
    let label = obj.get("label").filter(|v| !v.is_null());
    match (answers, label) {
        (Some(_), Some(_)) => Err(Error::at(
            at(no),
            "the record has both `answers` and `label`; ground truth is one or the other — keep one (the same on every line)",
        )),
        (Some(Value::Array(a)), None) => {
            let mut v = Vec::with_capacity(a.len());
            for (j, x) in a.iter().enumerate() {
                v.push(x.as_str().ok_or_else(|| {
                    Error::at(
                        at(no),
                        format!("`answers` must be a list of strings, but answer {j} is {}; quote it or remove it", kind(x)),
                    )
                })?);
            }
            Ok(Some(Label::answers(&v)))
        }
        (Some(o), None) => Err(Error::at(
            at(no),
            format!("`answers` must be a list of strings (the gold answers), found {}", kind(o)),
        )),
        (None, Some(Value::String(s))) => Ok(Some(Label::Text(s.clone()))),
        (None, Some(Value::Number(n))) => match n.as_i64() {
            Some(i) => Ok(Some(Label::Class(i))),
            None => Err(Error::at(
                at(no),
                format!("`label` {n} is not a whole number in the 64-bit range; a label is a string or an integer — quote it to make it a string"),
            )),
        },
        (None, Some(o)) => Err(Error::at(
            at(no),
            format!("`label` must be a string or an integer, found {}", kind(o)),
        )),
        (None, None) => Ok(None),
    }
}

/// The name of a record's kind of ground truth, as a field.
fn label_field(l: Option<&Label>) -> Option<&'static str> {
    l.map(|l| if matches!(l, Label::Answers(_)) { "answers" } else { "label" })
}

/// SPEC §14: a file uses one kind of ground truth, on every record or on none.
/// `first` is the first record's label and line.
pub(super) fn check_same_label_kind(
    first: (Option<&Label>, usize),
    this: Option<&Label>,
    no: usize,
) -> Result<()> {
    let (first_label, first_line) = first;
    match (label_field(first_label), label_field(this)) {
        (a, b) if a == b => Ok(()),
        (None, None) => Ok(()),
        (Some(a), None) => Err(Error::at(
            at(no),
            format!("no `{a}` while line {} has one; ground truth must be on every record or on none — add `{a}` here or remove it everywhere", first_line),
        )),
        (None, Some(b)) => Err(Error::at(
            at(no),
            format!("`{b}` here but none on line {}; ground truth must be on every record or on none — add `{b}` to every record or remove it", first_line),
        )),
        (Some(a), Some(b)) => Err(Error::at(
            at(no),
            format!("`{b}` here but `{a}` on line {}; a file uses one kind of ground truth — use `{a}` on every record", first_line),
        )),
    }
}
