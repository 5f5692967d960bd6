//! Adding a paper preset is one figure record of `csc::experiment::definition::presets`: with the
//! cargo feature `fixture-preset`, that list has one more record (`sens-on-beta`, whose definition
//! is the registry's), and the URL codec accepts it, `csc list` (text and `--json`) lists it, and
//! the page's preset list (`paperPresets()`, from which js/views/paper.js builds its menu;
//! tests/e2e/controls.mjs checks that the menu is that list) carries it. Run with
//! `cargo test --features fixture-preset --test fixture_preset` (scripts/test.sh does). The page's
//! end, a package built with the feature and its paper view's menu, URL and run, is
//! tests/e2e/fixture_preset.mjs.
#![cfg(all(feature = "fixture-preset", not(target_arch = "wasm32")))]

use csc::bindings::url_state::{decode, encode};
use csc::experiment::definition::presets::preset;
use csc::experiment::{paper_presets, quick_spec};
use std::process::Command;

const ID: &str = "sens-on-beta";

#[test]
fn the_fixture_preset_is_in_the_list_the_codec_the_cli_and_the_quick_run() {
    let p = paper_presets().into_iter().find(|p| p.id == ID).expect("the fixture entry is listed");
    assert!(std::ptr::eq(preset(ID).unwrap(), p), "the fixture is found by its id");
    // The URL codec validates presets against the list.
    let s = decode(&format!("view=paper&preset={ID}")).unwrap();
    assert_eq!(s.preset, ID);
    assert_eq!(encode(&s).unwrap(), format!("view=paper&preset={ID}"));
    // Its quick settings apply to the registry's definition, as the page's quick run does.
    let q = quick_spec(ID).unwrap();
    assert_eq!((q.seeds, q.params.horizon, q.params.n_eval), (5, 500, 1000));

    let csc = env!("CARGO_BIN_EXE_csc");
    let out = Command::new(csc).arg("list").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let presets = text.split("Paper presets").nth(1).expect("csc list has a presets section");
    let presets = presets.split("\n\n").next().unwrap();
    assert!(presets.contains(ID) && presets.contains(p.label), "{presets}");
    let out = Command::new(csc).args(["list", "--json"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> =
        json["presets"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids.last(), Some(&ID), "{ids:?}");
}

#[test]
fn without_the_entry_the_codec_refuses_it() {
    // The same id minus one letter is no preset: the codec checks the list, not a pattern.
    let e = decode("preset=sens-on-bet").unwrap_err().to_string();
    assert!(e.contains("preset") && e.contains(ID), "{e}");
}
