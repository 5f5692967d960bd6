//! The configuration parsers: `Params` from JSON (`csc run`'s definitions, the JS API's
//! `validateParams`), `--set KEY=VALUE` overrides (`Params::apply_set`, one per line here), and
//! experiment definitions (`ExperimentSpec::from_json`). Accepted values must validate; nothing
//! may panic.
#![no_main]

use csc::config::Params;
use csc::experiment::ExperimentSpec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = Params::from_json(text) {
        p.validate().expect("an accepted configuration is valid");
        assert_eq!(Params::from_json(&p.to_json()).expect("round trip"), p);
    }
    let mut p = Params::default();
    for line in text.lines() {
        if let Ok(q) = p.apply_set(line) {
            q.validate().expect("an accepted override is valid");
            p = q;
        }
    }
    if let Ok(spec) = ExperimentSpec::from_json(text) {
        // Bounded: a definition may ask for billions of units; only the first few are listed.
        if (spec.seeds as u128) * spec.sweep.as_ref().map_or(1, |s| s.values.len() as u128) <= 10_000 {
            let _ = spec.units();
        }
    }
});
