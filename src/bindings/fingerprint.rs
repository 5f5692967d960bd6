//! The fingerprint of a configuration the page shows beside a run (`configFingerprint`), so a
//! reader can tell two runs, or a page and the CLI, computed the same thing.

use crate::config::Params;

/// A short fingerprint of what a run computes: the first 16 hex digits of the sha256 of the
/// dataset and the fully resolved parameters (seed included) as JSON. Two pages, or a page and
/// the CLI, showing the same fingerprint ran the same configuration.
pub fn fingerprint(dataset: &str, params: &Params) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(dataset.as_bytes());
    h.update([0]);
    h.update(serde_json::to_string(params).expect("Params serialises").as_bytes());
    h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_differ_with_any_parameter() {
        let p = Params::default();
        let f = fingerprint("synthetic", &p);
        assert_eq!(f.len(), 16);
        assert_eq!(f, fingerprint("synthetic", &p.clone()));
        assert_ne!(f, fingerprint("plane", &p));
        assert_ne!(f, fingerprint("synthetic", &Params { seed: 1, ..p }));
    }
}
