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

/// An engine type read from JSON by code compiled once, in the engine.
///
/// A generic call such as `serde_json::from_str::<ReportRecord>` or [`from_value`] compiles the
/// type's whole deserialiser (and every type inside it) in the crate that makes the call; Rust
/// shares no generic instance between crates in a release build. The web layer calling them
/// compiled a second copy of the deserialisers of `Params`, `ExperimentSpec`, `UnitResult` and
/// the report record beside the engine's, ≈ 68 KB of the page's wasm (docs/PERFORMANCE.md, "Where
/// the page's wasm goes"). The web layer reads the engine's types through this trait instead: its
/// methods are concrete functions of this crate, never inlined elsewhere. Same reader, same
/// values, same messages.
pub trait FromJson: Sized {
    /// `Self` from JSON text (serde_json's error, with its position).
    fn from_json_str(text: &str) -> serde_json::Result<Self>;
    /// `Self` from a JSON value, as [`from_value`] reads it (the message without a position).
    fn from_json_value(v: &Value) -> Result<Self, String>;
}

/// [`FromJson`] for each type, its two readers compiled once, in the engine: each type's module
/// invokes it (`crate::json::from_json!(Params);`), so this module imports none of them.
macro_rules! from_json {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::json::FromJson for $t {
            #[inline(never)]
            fn from_json_str(text: &str) -> serde_json::Result<Self> {
                serde_json::from_str(text)
            }
            #[inline(never)]
            fn from_json_value(v: &serde_json::Value) -> std::result::Result<Self, String> {
                $crate::json::from_value(v)
            }
        }
    )*};
}
pub(crate) use from_json;

/// JSON text as a value, by the engine's reader (compiled once, here: [`FromJson`]).
#[inline(never)]
pub fn parse(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str(text)
}

/// An internally tagged enum (`{"kind": "…", …fields}`) read by hand: the object is read as a
/// JSON value, its tag `tag` taken out and looked up in `variants` (the variant's position is
/// returned), and the rest is left for the variant's own fields ([`fields`]). serde's
/// `#[serde(tag = …)]` derive does the same through its private `Content` buffer, which compiles
/// every variant's fields a second time (with the `untagged` enums, ≈ 80 KB of the page's wasm,
/// docs/PERFORMANCE.md, "Where the page's wasm goes"); this reads them through the one text
/// reader. Messages are the derive's (``missing field `kind` ``, ``unknown variant `x`, expected
/// one of `a`, `b` ``, tested below); unlike the derive, a list `[tag, fields…]` is refused.
pub fn tagged<'de, D: serde::Deserializer<'de>>(
    d: D,
    tag: &'static str,
    variants: &'static [&'static str],
    what: &str,
) -> Result<(usize, Value), D::Error> {
    use serde::de::Error;
    let mut v = <Value as serde::Deserialize>::deserialize(d)?;
    let Value::Object(map) = &mut v else {
        return Err(D::Error::invalid_type(unexpected(&v), &what));
    };
    let name = match map.remove(tag) {
        None => return Err(D::Error::missing_field(tag)),
        Some(Value::String(name)) => name,
        Some(other) => return Err(D::Error::invalid_type(unexpected(&other), &"variant identifier")),
    };
    let i =
        variants.iter().position(|x| *x == name).ok_or_else(|| D::Error::unknown_variant(&name, variants))?;
    Ok((i, v))
}

/// What a JSON value is, in serde's words for a type error.
fn unexpected(v: &Value) -> serde::de::Unexpected<'_> {
    use serde::de::Unexpected;
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A variant's fields (the rest of a [`tagged`] object) as the struct `T`, with `E`'s message.
pub fn fields<T: DeserializeOwned, E: serde::de::Error>(rest: &Value) -> Result<T, E> {
    from_value(rest).map_err(E::custom)
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

    /// A tagged enum as serde derives it, and the same read by [`tagged`] and [`fields`].
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Derived {
        One { x: f64 },
        Two { y: Option<String>, z: Option<u64> },
    }
    #[derive(Debug, PartialEq)]
    enum Hand {
        One { x: f64 },
        Two { y: Option<String>, z: Option<u64> },
    }
    impl<'de> Deserialize<'de> for Hand {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            #[derive(Deserialize)]
            struct One {
                x: f64,
            }
            #[derive(Deserialize)]
            struct Two {
                y: Option<String>,
                z: Option<u64>,
            }
            let (i, rest) = tagged(d, "kind", &["one", "two"], "internally tagged enum Derived")?;
            Ok(if i == 0 {
                Hand::One { x: fields::<One, _>(&rest)?.x }
            } else {
                let Two { y, z } = fields(&rest)?;
                Hand::Two { y, z }
            })
        }
    }

    #[test]
    fn a_hand_read_tagged_enum_reads_and_refuses_as_the_derive_does() {
        let same = |d: &Derived, h: &Hand| match (d, h) {
            (Derived::One { x: a }, Hand::One { x: b }) => a.to_bits() == b.to_bits(),
            (Derived::Two { y: a, z: p }, Hand::Two { y: b, z: q }) => a == b && p == q,
            _ => false,
        };
        for text in [
            r#"{"kind": "one", "x": 0.30000000000000004}"#,
            r#"{"x": -1e-300, "kind": "one", "extra": [1, 2]}"#,
            r#"{"kind": "two"}"#,
            r#"{"kind": "two", "y": "s", "z": 18446744073709551615}"#,
        ] {
            let (d, h) =
                (serde_json::from_str::<Derived>(text).unwrap(), serde_json::from_str::<Hand>(text).unwrap());
            assert!(same(&d, &h), "{text}: {d:?} vs {h:?}");
        }
        for text in [
            r#"{"x": 1}"#,
            r#"{"kind": "three", "x": 1}"#,
            r#"{"kind": 5}"#,
            r#"{"kind": null}"#,
            r#"{"kind": "one"}"#,
            r#"{"kind": "one", "x": "1"}"#,
            r#"{"kind": "two", "z": -1}"#,
            r#""one""#,
            r#"3.5"#,
            r#"null"#,
        ] {
            let derived = message(&serde_json::from_str::<Derived>(text).unwrap_err());
            let hand = message(&serde_json::from_str::<Hand>(text).unwrap_err());
            assert_eq!(hand, derived, "{text}");
        }
        // The one difference: the derive also reads a list `[tag, fields…]`; no definition,
        // trace or link of ours is written that way, and the hand-read form refuses it.
        let e = message(&serde_json::from_str::<Hand>(r#"["one", 1.5]"#).unwrap_err());
        assert_eq!(e, "invalid type: sequence, expected internally tagged enum Derived");
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
