//! Where and what a field of a user record is, for error messages (shared by
//! [`super::records`] and the ground-truth fields of SPEC §14).

use serde_json::Value;

/// Where in its file a record is: `line N` (1-based).
pub(super) fn at(line: usize) -> String {
    format!("line {line}")
}

/// What a JSON value is, in words (`a string`, `a list`, …).
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
