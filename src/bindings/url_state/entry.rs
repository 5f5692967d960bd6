//! One key of the link ([`UrlKey`], an entry of the key table) and the helpers its entries share:
//! a value written only when it differs from the default, a unit enum by its serde id.

use super::state::UrlState;
use crate::bindings::controls::PageControl;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// One key of the link, after TF Playground's `PROPS`: the one entry from which the link is read
/// ([`super::decode`]) and written ([`super::encode`]), the state checked ([`UrlState::validate`]), the bad
/// value explained, and the page's controls built ([`super::page_controls`]), whose ids are names a link
/// may hide ([`super::hide_names`]). Every `Params` field is a key too (read and written by its serde
/// name, checked as the engine checks it): [`super::param_keys`].
#[derive(Clone, Copy)]
pub struct UrlKey {
    /// The key as the link spells it.
    pub name: &'static str,
    /// What a value may be, in plain words (the message for a bad value names the key, the value
    /// and this).
    pub allowed: fn() -> String,
    /// Reads a value into the state; `Err(detail)` (may be empty) when it is not one of
    /// [`UrlKey::allowed`].
    pub read: fn(&mut UrlState, &str) -> std::result::Result<(), String>,
    /// The value the link writes; `None` when it is the default (`d`, of the state's dataset).
    pub write: fn(&UrlState, &UrlState) -> Option<String>,
    /// Checks the value within the whole state (a range, a known id, a grid on its base).
    pub check: fn(&UrlState) -> Result<()>,
    /// The page's controls that edit it (their ids are names `hide` takes).
    pub controls: fn() -> Vec<PageControl>,
}

/// `d`'s value is the default: written only when it differs.
pub(super) fn unless<T: PartialEq>(now: &T, default: &T, text: impl FnOnce() -> String) -> Option<String> {
    (now != default).then(text)
}
/// The serde id of a unit enum (`View::Sweep` → `sweep`).
pub(super) fn id_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
/// A unit enum from its serde id; `Err("")` for another text.
pub(crate) fn by_id<T: for<'de> Deserialize<'de>>(v: &str) -> std::result::Result<T, String> {
    use serde::de::IntoDeserializer;
    T::deserialize(IntoDeserializer::<serde::de::value::Error>::into_deserializer(v))
        .map_err(|_| String::new())
}
