//! The query string both ways: percent escapes, key–value pairs, and reading ([`decode`],
//! [`decode_lossy`]) and writing ([`encode`]) a state through the key table.

use super::keys::{apply, url_keys};
use super::state::{PageDataset, UrlState};
use crate::error::{Error, Result};

/// Percent-decodes one query component (`+` is a space).
pub(super) fn unescape(part: &str) -> Result<String> {
    let b = part.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b.get(i + 1..i + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
                let hex = hex.and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| {
                    Error::parse(format!("bad percent escape in the link near `{}`", &part[i..]))
                })?;
                out.push(byte);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| Error::parse("the link is not valid UTF-8 once unescaped"))
}

/// Percent-encodes a value: everything but letters, digits and `-._~,` is escaped.
pub(super) fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~,".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a query (`?` optional) into unescaped key–value pairs.
fn pairs(query: &str) -> Vec<Result<(String, String)>> {
    let q = query.strip_prefix('?').unwrap_or(query);
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Ok((unescape(k)?, unescape(v)?))
        })
        .collect()
}

/// Reads a query string, keeping every valid key: returns the state and one message per key that
/// could not be used (unknown, repeated or invalid; the default stands for it).
pub fn decode_lossy(query: &str) -> (UrlState, Vec<String>) {
    let mut errors = Vec::new();
    let mut kv = Vec::new();
    for p in pairs(query) {
        match p {
            Ok((k, _)) if kv.iter().any(|(k2, _): &(String, String)| *k2 == k) => {
                errors.push(Error::param(&k, "is given more than once").to_string());
            }
            Ok(p) => kv.push(p),
            Err(e) => errors.push(e.to_string()),
        }
    }
    // The dataset first: it sets the defaults the other keys are applied to.
    let mut s = UrlState::defaults(PageDataset::default());
    if let Some((k, v)) = kv.iter().find(|(k, _)| k == "dataset") {
        match apply(&mut s, k, v) {
            Ok(()) => s = UrlState::defaults(s.dataset),
            Err(e) => errors.push(e.to_string()),
        }
    }
    // The grid last: it is checked against the base and parameters the other keys set.
    let (grid, rest): (Vec<_>, Vec<_>) = kv.iter().partition(|(k, _)| k == "grid");
    for (k, v) in rest.into_iter().chain(grid).filter(|(k, _)| k != "dataset") {
        let mut next = s.clone();
        match apply(&mut next, k, v).and_then(|_| next.validate()) {
            Ok(()) => s = next,
            Err(e) => errors.push(e.to_string()),
        }
    }
    (s, errors)
}

/// Reads a query string (with or without its `?`); any unusable key is an error naming it.
pub fn decode(query: &str) -> Result<UrlState> {
    let (s, errors) = decode_lossy(query);
    if errors.is_empty() {
        Ok(s)
    } else {
        Err(Error::parse(errors.join("; ")))
    }
}

/// The query string of a state (without `?`; empty for the defaults): only the values that
/// differ from the defaults of its dataset, in a fixed order.
pub fn encode(s: &UrlState) -> Result<String> {
    s.validate()?;
    let d = UrlState::defaults(s.dataset);
    let mut out: Vec<(String, String)> =
        url_keys().iter().filter_map(|k| Some((k.name.to_string(), (k.write)(s, &d)?))).collect();
    let now = serde_json::to_value(&s.params).expect("Params serialises");
    let def = serde_json::to_value(&d.params).expect("Params serialises");
    if let (Some(now), Some(def)) = (now.as_object(), def.as_object()) {
        for (k, v) in now.iter().filter(|(k, v)| def.get(*k) != Some(v)) {
            let text = match v {
                serde_json::Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            out.push((k.clone(), text));
        }
    }
    Ok(out.iter().map(|(k, v)| format!("{}={}", escape(k), escape(v))).collect::<Vec<_>>().join("&"))
}
