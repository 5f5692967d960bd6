//! Reading JSON into the engine's types by one path: from text, through serde_json's reader.
//!
//! A `serde_json::Value` already in hand (a link's parameters, an object the page passed) is
//! written out and read back ([`from_value`]) instead of being deserialised in place by
//! `serde_json::from_value`: that second path compiles every type's deserialiser once more, which
//! in the page's wasm was ≈ 117 KB of code (docs/PERFORMANCE.md, "Where the page's wasm goes").
//! The result is the same typed value: the text is what serde_json writes for the value (numbers
//! as they are held, floats round-tripping), and a `Value` has no duplicate keys to differ on.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// `T` from a JSON value, read as text; the error is serde_json's message without a position
/// (the text is ours, not the reader's).
pub fn from_value<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    serde_json::from_str(&v.to_string()).map_err(|e| message(&e))
}

/// serde_json's message without its " at line L column C" (for text the user did not write).
pub fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&at) {
        Some(head) if e.line() > 0 => head.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct P {
        a: f64,
        b: Option<u64>,
        kind: K,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum K {
        One,
        Two,
    }

    #[test]
    fn reads_what_from_value_reads_and_says_the_same_without_a_position() {
        let v = serde_json::json!({ "a": 0.1 + 0.2, "b": 18446744073709551615u64, "kind": "two" });
        let direct: P = serde_json::from_value(v.clone()).unwrap();
        let read: P = from_value(&v).unwrap();
        assert_eq!(read, direct);
        assert_eq!(read.a.to_bits(), (0.1f64 + 0.2).to_bits());
        for bad in [
            serde_json::json!({ "a": "x", "kind": "one" }),
            serde_json::json!({ "a": 1.0, "kind": "three" }),
            serde_json::json!({ "a": 1.0, "kind": "one", "c": 1 }),
            serde_json::json!({ "kind": "one" }),
        ] {
            let direct = serde_json::from_value::<P>(bad.clone()).unwrap_err().to_string();
            let read = from_value::<P>(&bad).unwrap_err();
            assert!(!read.contains(" at line "), "{read}");
            assert_eq!(read, direct, "the same words as the in-place path");
        }
    }
}
