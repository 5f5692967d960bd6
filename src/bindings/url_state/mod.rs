//! The playground's state as a URL query string: which view, which dataset, every parameter of
//! the run, the policies, the seed, the experiment settings and the embed flag. A link carries
//! exactly what the page shows, and the page reads it back with [`decode`].
//!
//! One table drives it both ways, after TF Playground's `PROPS`: [`url_keys`] has one entry per
//! page key, which reads ([`decode`]) and writes ([`encode`]) it, checks it within the state
//! ([`UrlState::validate`]), says in plain words what it takes (the message for a bad value names
//! the key, the value and that), and builds the page's controls for it ([`page_controls`]), whose
//! ids are names `hide` takes ([`hide_names`]). Adding a key is its entry and its field of
//! [`UrlState`] (the storage); cargo feature `fixture-key` adds one to show it. Every `Params`
//! field is a key too (by its serde name, checked as the engine checks it).
//!
//! Only values that differ from the defaults of the state's dataset are written ([`encode`]), so
//! links stay short. Unknown keys, repeated keys and bad values are errors with a readable
//! message; [`decode_lossy`] keeps every valid key and reports the others, so a page given a
//! damaged link still opens with as much of it as can be used.
//!
//! Round trip: `decode(&encode(&s)) == Ok(s)` for every valid state `s`.
//!
//! The files:
//! - [`state`]: [`UrlState`], the views and datasets, and the page's defaults;
//! - [`entry`]: one key's entry ([`UrlKey`]) and the helpers entries share;
//! - [`keys`]: the key table, each key with its kind, check and controls;
//! - [`threat_keys`]: the threats view's keys (tenants, overlap, isolations, policies, p, d);
//! - [`query`]: the query string: percent escapes, [`decode`], [`decode_lossy`], [`encode`].

mod entry;
mod keys;
mod query;
mod state;
mod threat_keys;

#[cfg(test)]
mod tests;

pub use super::controls::{offline_experiments, Colouring, MAX_SEEDS, MAX_SPEED, MAX_WORKERS};
#[cfg(target_arch = "wasm32")]
pub(crate) use entry::by_id;
pub use keys::{check_hide, dataset_ids, hide_names, page_controls, param_keys, url_keys, UrlKey};
pub use query::{decode, decode_lossy, encode};
pub use state::{page_params, presets, Embed, PageDataset, UrlState, View, MAX_SEED};
