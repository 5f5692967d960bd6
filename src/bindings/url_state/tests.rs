//! Tests of the URL codec (`super`): round trips, readable errors, lossy decoding and the
//! property test over every field.

use super::query::{escape, unescape};
use super::*;
use crate::config::Params;
use crate::experiment::Sweep;
use crate::online::PolicyKind;

#[test]
fn defaults_encode_to_nothing_and_back() {
    for d in [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload] {
        let s = UrlState::defaults(d);
        let q = encode(&s).unwrap();
        assert_eq!(decode(&q).unwrap(), s, "{q}");
    }
    assert_eq!(encode(&UrlState::defaults(PageDataset::Synthetic)).unwrap(), "");
    assert_eq!(encode(&UrlState::defaults(PageDataset::Plane)).unwrap(), "dataset=plane");
    assert_eq!(decode("").unwrap(), decode("?").unwrap());
}

/// The live view's third and fourth panels: optional, empty = no panel,
/// written only when set, any policy id, a bad one an error naming the key.
#[test]
fn p3_and_p4_are_optional_panels() {
    let d = UrlState::defaults(PageDataset::Synthetic);
    assert_eq!((d.p3, d.p4), (None, None));
    let s = decode("p3=lfu&p4=clcb-sc-ls").unwrap();
    assert_eq!((s.p3, s.p4), (Some(PolicyKind::Lfu), Some(PolicyKind::ClcbScLs)));
    assert_eq!(encode(&s).unwrap(), "p3=lfu&p4=clcb-sc-ls");
    assert_eq!(decode("p3=&p4=").unwrap(), d);
    let mut only4 = d.clone();
    only4.p4 = Some(PolicyKind::Threshold);
    assert_eq!(encode(&only4).unwrap(), "p4=threshold");
    assert_eq!(decode(&encode(&only4).unwrap()).unwrap(), only4);
    let e = decode("p3=nope").unwrap_err().to_string();
    assert!(e.contains("nope"), "{e}");
    let (s, errors) = decode_lossy("p3=greedy&p4=zzz");
    assert_eq!((s.p3, s.p4, errors.len()), (Some(PolicyKind::Greedy), None, 1));
    // The engine's state as the page holds it (JSON): `null` for no panel.
    let j = serde_json::to_value(&s).unwrap();
    assert_eq!((j["p3"].as_str(), j["p4"].is_null()), (Some("greedy"), true));
    let back: UrlState = serde_json::from_value(j).unwrap();
    assert_eq!(back, s);
}

/// The live view's colouring: a shared link keeps it; `auto` is the default and
/// not written; a bad value is an error naming the key and the known ids, the rest of the link used.
#[test]
fn colour_is_in_the_link_only_when_set() {
    let d = UrlState::defaults(PageDataset::Synthetic);
    assert_eq!(d.colour, Colouring::Auto);
    let s = decode("colour=cell").unwrap();
    assert_eq!(s.colour, Colouring::Cell);
    assert_eq!(encode(&s).unwrap(), "colour=cell");
    assert_eq!(decode("colour=decision&speed=9").unwrap().colour, Colouring::Decision);
    assert_eq!(decode("colour=auto").unwrap(), d);
    let e = decode("colour=rainbow").unwrap_err().to_string();
    assert!(e.contains("`colour`") && e.contains("rainbow") && e.contains("auto, decision, cell"), "{e}");
    let (s, errors) = decode_lossy("colour=&k=3");
    assert_eq!((s.colour, s.params.k, errors.len()), (Colouring::Auto, 3, 1));
    // As the page holds it (JSON), and a state of before the field (no `colour`) reads as auto.
    let mut j = serde_json::to_value(decode("colour=cell").unwrap()).unwrap();
    assert_eq!(j["colour"].as_str(), Some("cell"));
    j.as_object_mut().unwrap().remove("colour");
    assert_eq!(serde_json::from_value::<UrlState>(j).unwrap().colour, Colouring::Auto);
}

/// The speed's range is the control table's (one constant): its ends are accepted, beyond them
/// an error naming the range.
#[test]
fn speed_range_is_the_control_tables() {
    let c = page_controls().into_iter().find(|c| c.id == "speed").unwrap();
    assert_eq!((c.min, c.max), (Some(1.0), Some(f64::from(MAX_SPEED))));
    assert_eq!(decode(&format!("speed={MAX_SPEED}")).unwrap().speed, MAX_SPEED);
    assert_eq!(decode("speed=1").unwrap().speed, 1);
    for bad in [0, MAX_SPEED + 1] {
        let e = decode(&format!("speed={bad}")).unwrap_err().to_string();
        assert!(e.contains(&format!("[1, {MAX_SPEED}]")), "{e}");
    }
}

#[test]
fn workers_and_tuned_are_in_the_link_only_when_set() {
    let mut s = UrlState::defaults(PageDataset::Synthetic);
    s.workers = 2;
    s.tuned = true;
    assert_eq!(encode(&s).unwrap(), "tuned=1&workers=2");
    assert_eq!(decode("tuned=1&workers=2").unwrap(), s);
    assert!(decode(&format!("workers={}", MAX_WORKERS + 1)).is_err());
    assert!(decode("workers=-1").is_err());
}

#[test]
fn a_full_state_round_trips() {
    let q = "?view=regret&dataset=plane&p1=lfu&p2=threshold&policies=greedy,lru&speed=20&seeds=3\
             &offline=abl-k&preset=geom&full=1&tuned=1&workers=3&embed=1&seed=42&k=3&epsilon=0.25&beta=0.1\
             &kernel_length=0.35&phi=clipped_quadratic&synthetic_sigma=0.02&lambda=1e-7";
    let s = decode(q).unwrap();
    assert_eq!(
        (s.view, s.dataset, s.p1, s.p2),
        (View::Regret, PageDataset::Plane, PolicyKind::Lfu, PolicyKind::Threshold)
    );
    assert_eq!((s.params.seed, s.params.k, s.params.epsilon, s.params.lambda), (42, 3, 0.25, 1e-7));
    assert_eq!(s.params.synthetic_sigma, Some(0.02));
    assert!(s.full && s.embed == Some(Embed::Page) && s.tuned);
    assert_eq!(s.workers, 3);
    let again = decode(&encode(&s).unwrap()).unwrap();
    assert_eq!(again, s);
    // Floats survive bit for bit.
    let mut t = s.clone();
    t.params.epsilon = 0.1 + 0.2;
    t.params.zeta = 1.0 / 3.0;
    assert_eq!(decode(&encode(&t).unwrap()).unwrap(), t);
}

#[test]
fn plane_defaults_and_dataset_order() {
    let s = decode("k=4&dataset=plane").unwrap();
    assert_eq!((s.params.epsilon, s.params.k, s.params.horizon), (0.1, 4, 1000));
    // The SPEC's ε on plane differs from the plane default, so it is written.
    let mut t = UrlState::defaults(PageDataset::Plane);
    t.params.epsilon = 0.4;
    assert_eq!(encode(&t).unwrap(), "dataset=plane&epsilon=0.4");
}

#[test]
fn readable_errors_and_lossy_decoding() {
    let e = decode("kapa=1").unwrap_err().to_string();
    assert!(e.contains("unknown key `kapa`") && e.contains("epsilon"), "{e}");
    let e = decode("k=0").unwrap_err().to_string();
    assert!(e.contains("`k`") && e.contains("at least 1"), "{e}");
    let e = decode("p1=nope").unwrap_err().to_string();
    assert!(e.contains("nope") && e.contains("greedy"), "{e}");
    let e = decode("view=x").unwrap_err().to_string();
    assert!(e.contains("view") && e.contains("paper") && e.contains("sweep"), "{e}");
    let s = decode("view=sweep").unwrap();
    assert_eq!(s.view, View::Sweep);
    assert_eq!(encode(&s).unwrap(), "view=sweep");
    assert!(decode("k=3&k=4").unwrap_err().to_string().contains("more than once"));
    assert!(decode("seeds=0").is_err() && decode("speed=abc").is_err() && decode("preset=fig-z").is_err());
    assert!(decode("policies=greedy,greedy").is_err() && decode("policies=").is_err());
    assert!(decode("seed=9007199254740992").is_err());
    assert!(decode("k=%zz").is_err() && decode("k=%").is_err() && decode("k=%ff").is_err());
    let (s, errors) = decode_lossy("k=3&epsilon=-1&kapa=2&p2=lru");
    assert_eq!((s.params.k, s.params.epsilon, s.p2), (3, 0.4, PolicyKind::Lru));
    assert_eq!(errors.len(), 2, "{errors:?}");
    // A bad grid names the link's key once, with the grid's own reason inside.
    let e = decode("view=sweep&grid=k%3D2,x").unwrap_err().to_string();
    assert_eq!(e.matches("`grid`").count(), 1, "{e}");
    assert!(e.contains("`x` is not a number") && e.contains("`k`"), "{e}");
}

#[test]
fn the_frontier_view_has_a_link() {
    let mut s = UrlState::defaults(PageDataset::NqTrivia);
    s.view = View::Frontier;
    assert_eq!(encode(&s).unwrap(), "view=frontier&dataset=nq-trivia");
    assert_eq!(decode("view=frontier&dataset=nq-trivia").unwrap(), s);
    let e = decode("view=frontiers").unwrap_err().to_string();
    assert!(e.contains("frontiers") && e.contains("frontier"), "{e}");
}

/// The sweep view's base, grid and metric: written only when set, the grid
/// as the CLI's `--grid` writes it, each checked by the engine with a message naming its key.
#[test]
fn the_sweep_view_has_a_link() {
    let d = UrlState::defaults(PageDataset::Synthetic);
    assert_eq!((d.sweep.as_str(), d.grid.as_str(), d.metric.as_str()), ("online", "", ""));
    let q = "view=sweep&sweep=sens-off-beta&grid=beta_off%3D0%2C%200.10%3B%20lambda%3D1e-2%2C1&metric=gap";
    let s = decode(q).unwrap();
    assert_eq!(
        (s.sweep.as_str(), s.grid.as_str(), s.metric.as_str()),
        ("sens-off-beta", "beta_off=0,0.1;lambda=0.01,1", "gap")
    );
    assert_eq!(s.grid, Sweep::parse(&s.grid).unwrap().to_arg().unwrap());
    let q2 = encode(&s).unwrap();
    assert_eq!(q2, "view=sweep&sweep=sens-off-beta&grid=beta_off%3D0,0.1%3Blambda%3D0.01,1&metric=gap");
    assert_eq!(decode(&q2).unwrap(), s);
    // Unescaped, in any order, with the `final_` prefix: the same.
    let t = decode("metric=final_hit_rate&grid=k=2,4;epsilon=0.2,0.4&sweep=online").unwrap();
    assert_eq!((t.grid.as_str(), t.metric.as_str()), ("k=2,4;epsilon=0.2,0.4", "final_hit_rate"));
    assert_eq!(encode(&t).unwrap(), "grid=k%3D2,4%3Bepsilon%3D0.2,0.4&metric=final_hit_rate");
    // A state the page holds with the form's text is written canonically.
    let mut u = d.clone();
    u.grid = "k = 2, 4".into();
    assert_eq!(encode(&u).unwrap(), "grid=k%3D2,4");
    // Bad values: one message naming the key; the rest of the link applies.
    let msg = |q: &str| decode(q).unwrap_err().to_string();
    let e = msg("grid=epsilon=0.1,x");
    assert!(e.contains("`grid`") && e.contains("`x` is not a number"), "{e}");
    let e = msg("grid=nope=1,2");
    assert!(e.contains("`grid`") && e.contains("nope") && e.contains("no such parameter"), "{e}");
    assert!(msg("grid=epsilon=0.1;epsilon=0.2").contains("two different parameters"));
    assert!(msg("grid=a=1;b=2;c=3").contains("one or two parameters"));
    let e = msg("grid=k=0,2");
    assert!(e.contains("`grid`") && e.contains("`k`"), "{e}");
    let e = msg("sweep=fig-c");
    assert!(e.contains("`sweep`") && e.contains("online") && e.contains("sens-off-beta"), "{e}");
    let e = msg("metric=nope");
    assert!(e.contains("`metric`") && e.contains("avg_regret"), "{e}");
    let (s, errors) = decode_lossy("view=sweep&grid=epsilon=0.1,x&k=3&metric=gap&sweep=nq-tune");
    assert_eq!((s.view, s.params.k, s.metric.as_str(), s.sweep.as_str()), (View::Sweep, 3, "gap", "nq-tune"));
    assert_eq!((s.grid.as_str(), errors.len()), ("", 1), "{errors:?}");
    // The page's state is checked too (encodeUrlState refuses an invalid one).
    assert!(encode(&UrlState { grid: "k=0".into(), ..d.clone() }).is_err());
    assert!(encode(&UrlState { sweep: "x".into(), ..d.clone() }).is_err());
    assert!(encode(&UrlState { metric: "x".into(), ..d }).is_err());
}

#[test]
fn escapes() {
    assert_eq!(unescape("a%20b+c%2C").unwrap(), "a b c,");
    assert_eq!(escape("a b+é"), "a%20b%2B%C3%A9");
    let s = decode("embed").unwrap();
    assert_eq!(s.embed, Some(Embed::Page));
    assert_eq!(decode("p2=L%52U").unwrap().p2, PolicyKind::Lru);
}

#[test]
fn never_panics_on_odd_input() {
    for q in ["&&&", "=", "==", "?=1", "%", "%%", "k", "k=", "k=1=2", "dataset", "dataset=", "\u{0}", "é=é"]
    {
        let _ = decode(q);
    }
}

#[test]
fn control_hints_and_hide_names() {
    let table = page_controls();
    let k = table.iter().find(|c| c.id == "k").unwrap();
    assert_eq!((k.key.as_str(), k.min, k.section, k.restart), ("params.k", Some(1.0), "settings", false));
    assert!(k.hint.starts_with("Cache size (items). "), "{}", k.hint);
    assert!(table.iter().find(|c| c.id == "seed").unwrap().restart);
    assert_eq!(table.iter().position(|c| c.id == "seed"), Some(1), "the seed follows the dataset");
    let names = hide_names();
    assert!(names.contains(&"controls") && names.contains(&"k") && names.contains(&"workers"));
    assert!(check_hide(&["k".into(), "nope".into()]).unwrap_err().to_string().contains("`nope`"));
}

/// The live view's controls: the policies from the engine's online list
/// (p3, p4 with "none" first), the speed's range the codec's, the colourings; each may be hidden
/// by its id (tests/catalog_lists.rs checks the hide names are unique).
#[test]
fn live_controls_from_the_engines_lists() {
    let table = page_controls();
    let get = |id: &str| table.iter().find(|c| c.id == id).unwrap();
    let ids: Vec<&str> = PolicyKind::ALL.iter().map(|p| p.info().id).collect();
    for (id, optional) in [("p1", false), ("p2", false), ("p3", true), ("p4", true)] {
        let c = get(id);
        assert_eq!(
            (c.kind, c.key.as_str(), c.section, c.restart),
            (super::super::controls::Kind::Select, id, "live", true)
        );
        let values: Vec<&str> = c.choices.iter().map(|o| o.value).collect();
        let expected: Vec<&str> = optional.then_some("").into_iter().chain(ids.iter().copied()).collect();
        assert_eq!(values, expected, "{id}");
        let last = c.choices.last().unwrap();
        assert_eq!(last.label, PolicyKind::ALL[PolicyKind::ALL.len() - 1].label());
    }
    assert_eq!(get("p3").choices[0].label, "none (no panel)");
    let speed = get("speed");
    assert_eq!(
        (speed.kind, speed.key.as_str(), speed.restart),
        (super::super::controls::Kind::Number, "speed", false)
    );
    assert_eq!((speed.min, speed.max, speed.step), (Some(1.0), Some(10_000.0), Some(1.0)));
    let colour = get("colour-by");
    assert_eq!(
        (colour.kind, colour.key.as_str(), colour.reference),
        (super::super::controls::Kind::Select, "colour", "§4")
    );
    let values: Vec<&str> = colour.choices.iter().map(|o| o.value).collect();
    assert_eq!(values, ["auto", "decision", "cell"]);
    assert_eq!(colour.choices[2].label, "ε-net cell");
    for c in &Colouring::ALL {
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json.as_str(), Some(c.id()), "the id is the serde name");
    }
    let hide: Vec<String> = ["speed", "colour-by", "p3", "p1"].map(String::from).to_vec();
    assert!(check_hide(&hide).is_ok());
    assert!(check_hide(&["p5".into()]).is_err());
}

/// URL errors in plain words: every key of the table and every parameter, given
/// a bad value, names the key, the value and what it takes, and never a Rust type ("expected u64").
#[test]
fn every_bad_value_is_named_in_plain_words() {
    let keys: Vec<String> = url_keys().iter().map(|k| k.name.to_string()).chain(param_keys()).collect();
    assert!(keys.len() > 40, "{keys:?}");
    for key in &keys {
        for bad in ["zzz", "-1", "1.5", "1e999"] {
            let Err(e) = decode(&format!("{key}={bad}")) else { continue };
            let e = e.to_string();
            assert!(e.contains(&format!("`{key}`")), "{key}={bad}: {e}");
            let shown = if bad == "1e999" { "" } else { bad };
            assert!(e.contains(shown), "{key}={bad}: the value is not named: {e}");
            for rust in ["u64", "usize", "u32", "f64", "invalid type", "expected"] {
                assert!(!e.contains(rust), "{key}={bad}: `{rust}` in {e}");
            }
        }
        assert!(decode(&format!("{key}=zzz")).is_err(), "{key}=zzz was accepted");
    }
    // What is allowed, from the entry or the parameter's type.
    let msg = |q: &str| decode(q).unwrap_err().to_string();
    assert_eq!(
        decode_lossy("speed=abc").1,
        [format!(
            "invalid parameter `speed`: `abc` is not allowed; allowed: a whole number from 1 to {MAX_SPEED}"
        )]
    );
    assert!(
        msg("seed=abc").contains("`abc` is not allowed; allowed: a whole number, 0 or more"),
        "{}",
        msg("seed=abc")
    );
    assert!(
        msg("k=2.5").contains("`2.5` is not allowed; allowed: a whole number, 0 or more (cache size)"),
        "{}",
        msg("k=2.5")
    );
    assert!(msg("beta=x").contains("allowed: a number ("), "{}", msg("beta=x"));
    assert!(msg("synthetic_sigma=x").contains("a number, or null for none"), "{}", msg("synthetic_sigma=x"));
    assert!(
        msg("phi=x").contains("allowed: clipped_linear or clipped_quadratic (mismatch function)"),
        "{}",
        msg("phi=x")
    );
    assert!(msg("view=x")
        .contains("allowed: one of live, regret, offline, efficiency, paper, sweep, frontier, theory"));
    assert!(msg("embed=2").contains("`2` is not allowed; allowed: 1 (the page"), "{}", msg("embed=2"));
    assert!(msg("seeds=0").contains("must lie in [1, 100], got 0"), "{}", msg("seeds=0"));
}

/// The key table drives both directions: a state whose every page key differs from its default
/// is written with every key of the table once, in the table's order, and read back.
#[test]
fn every_key_of_the_table_is_read_and_written() {
    let mut s = UrlState::defaults(PageDataset::Plane);
    s.view = View::Sweep;
    (s.p1, s.p2, s.p3, s.p4) =
        (PolicyKind::Lfu, PolicyKind::Lru, Some(PolicyKind::Greedy), Some(PolicyKind::Lfu));
    s.policies = vec![PolicyKind::Lru];
    (s.speed, s.colour, s.seeds, s.workers) = (7, Colouring::Cell, 4, 2);
    (s.offline, s.preset, s.full, s.tuned) = ("abl-k".into(), "geom".into(), true, true);
    (s.sweep, s.grid, s.metric) = ("nq-tune".into(), "k=2,4".into(), "gap".into());
    (s.embed, s.hide) = (Some(Embed::Figure), vec!["k".into(), "tabs".into()]);
    (s.tenants, s.overlap, s.distance) = (4, 0.25, 0.1);
    s.isolations = vec![crate::online::Isolation::Tagged];
    (s.threat_policies, s.attack_p) = (vec![PolicyKind::Threshold, PolicyKind::Lru], vec![0.5, 0.1]);
    #[cfg(feature = "fixture-key")]
    {
        s.fixture = 3;
    }
    let q = encode(&s).unwrap();
    let written: Vec<&str> = q.split('&').map(|p| p.split_once('=').unwrap().0).collect();
    let table: Vec<&str> = url_keys().iter().map(|k| k.name).collect();
    assert_eq!(written, table, "{q}");
    assert_eq!(decode(&q).unwrap(), s);
    // Every key, read alone, is the one field its entry writes.
    let d = UrlState::defaults(PageDataset::Synthetic);
    for k in url_keys().iter().filter(|k| k.name != "dataset") {
        let Some(v) = (k.write)(&s, &d) else { continue };
        let one = decode(&format!("{}={}", k.name, escape(&v))).unwrap();
        assert_eq!((k.write)(&one, &d), Some(v), "{}", k.name);
        let others: Vec<&str> =
            url_keys().iter().filter(|o| (o.write)(&one, &d).is_some()).map(|o| o.name).collect();
        assert_eq!(others, [k.name], "`{}` alone set another key", k.name);
    }
}

/// Hide flags only ever remove: embedded, the link's hide list is added to what
/// embedding hides; not embedded, it is all that is hidden.
#[test]
fn hide_flags_only_ever_remove() {
    let hidden = |q: &str| decode(q).unwrap().hidden();
    assert_eq!(hidden("embed=1"), ["controls", "text"]);
    assert_eq!(hidden("embed=1&hide=controls"), ["controls", "text"]);
    assert_eq!(hidden("embed=1&hide=seed,text,tabs"), ["controls", "text", "seed", "tabs"]);
    assert_eq!(hidden("embed=figure"), ["controls", "text"]);
    assert_eq!(hidden("hide=k"), ["k"]);
    assert!(hidden("").is_empty());
    for extra in hide_names() {
        let base = hidden("embed=1");
        let more = hidden(&format!("embed=1&hide={extra}"));
        assert!(base.iter().all(|n| more.contains(n)), "hide={extra} shows {base:?} − {more:?}");
    }
}

/// The figure-only embed: `embed=figure`, written back as such; `embed=0` is not
/// embedded; `embed`, `embed=1` and `embed=true` the page.
#[test]
fn the_figure_embed_has_a_link() {
    let s = decode("embed=figure&view=regret").unwrap();
    assert_eq!((s.embed, s.view), (Some(Embed::Figure), View::Regret));
    assert_eq!(encode(&s).unwrap(), "view=regret&embed=figure");
    for (q, e) in [("embed", Some(Embed::Page)), ("embed=true", Some(Embed::Page)), ("embed=0", None)] {
        assert_eq!(decode(q).unwrap().embed, e, "{q}");
    }
    let j = serde_json::to_value(&s).unwrap();
    assert_eq!(j["embed"], "figure");
    assert!(serde_json::to_value(decode("").unwrap()).unwrap()["embed"].is_null());
}

/// Adding a key is one entry: with cargo feature `fixture-key`, the fixture
/// entry is read, written, checked, explained, a control of the page and a name `hide` takes.
#[cfg(feature = "fixture-key")]
#[test]
fn the_fixture_key_is_one_entry() {
    let s = decode("fixture=3").unwrap();
    assert_eq!(s.fixture, 3);
    assert_eq!(encode(&s).unwrap(), "fixture=3");
    assert_eq!(decode("fixture=0").unwrap(), UrlState::defaults(PageDataset::Synthetic));
    let e = decode("fixture=10").unwrap_err().to_string();
    assert!(e.contains("`fixture`") && e.contains("[0, 9], got 10"), "{e}");
    let e = decode("fixture=x").unwrap_err().to_string();
    assert!(e.contains("`x` is not allowed; allowed: a whole number from 0 to 9"), "{e}");
    let c = page_controls().into_iter().find(|c| c.id == "fixture").expect("the fixture's control");
    assert_eq!((c.key.as_str(), c.section, c.max), ("fixture", "live", Some(9.0)));
    assert!(hide_names().contains(&"fixture"));
    assert_eq!(decode("hide=fixture").unwrap().hidden(), ["fixture"]);
}

/// Without the feature the fixture key does not exist.
#[cfg(not(feature = "fixture-key"))]
#[test]
fn the_fixture_key_is_not_shipped() {
    let e = decode("fixture=3").unwrap_err().to_string();
    assert!(e.contains("unknown key `fixture`"), "{e}");
    assert!(!hide_names().contains(&"fixture") && page_controls().iter().all(|c| c.id != "fixture"));
}

proptest::proptest! {
    #[test]
    fn decode_inverts_encode(
        view in 0usize..8, ds in 0usize..3, p1 in 0usize..10, p2 in 0usize..10, mask in 1u16..1024,
        speed in 1u32..=MAX_SPEED, seeds in 1usize..=MAX_SEEDS, off in 0usize..3, pre in 0usize..7,
        full: bool, embed in 0usize..3, seed in 0u64..=MAX_SEED, k in 1usize..60, eps in 1e-6f64..3.0,
        beta in 0.0f64..100.0, horizon in 1usize..1_000_000, sigma in proptest::option::of(0.0f64..10.0),
        p3 in proptest::option::of(0usize..10), p4 in proptest::option::of(0usize..10), colour in 0usize..3,
        sweep in 0usize..16, eps_grid in proptest::collection::btree_set(1u32..1000, 0..4),
        k_grid in proptest::collection::btree_set(1usize..40, 0..4), metric in 0usize..40,
    ) {
        let views = View::ALL;
        let sets = [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload];
        let mut s = UrlState::defaults(sets[ds]);
        s.view = views[view];
        s.p1 = PolicyKind::ALL[p1];
        s.p2 = PolicyKind::ALL[p2];
        (s.p3, s.p4) = (p3.map(|i| PolicyKind::ALL[i]), p4.map(|i| PolicyKind::ALL[i]));
        s.policies = PolicyKind::ALL.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &p)| p).collect();
        (s.speed, s.seeds, s.full) = (speed, seeds, full);
        s.embed = [None, Some(Embed::Page), Some(Embed::Figure)][embed];
        s.colour = Colouring::ALL[colour];
        s.offline = offline_experiments()[off].into();
        s.preset = presets()[pre].into();
        s.params = Params { seed, k, epsilon: eps, beta, horizon, synthetic_sigma: sigma, ..s.params };
        let bases = crate::experiment::sweep_presets();
        s.sweep = bases.get(sweep).copied().unwrap_or("online").into();
        let axes: Vec<(&str, Vec<serde_json::Value>)> = [
            ("epsilon", eps_grid.iter().map(|&e| serde_json::json!(f64::from(e) / 100.0)).collect()),
            ("k", k_grid.iter().map(|&k| serde_json::json!(k)).collect()),
        ].into_iter().filter(|(_, v): &(&str, Vec<_>)| !v.is_empty()).collect();
        s.grid = match axes.as_slice() {
            [] => String::new(),
            [(p, v)] => Sweep::new(p, v.clone()).to_arg().unwrap(),
            [(p, v), (q, w), ..] => Sweep::grid(p, v.clone(), q, w.clone()).to_arg().unwrap(),
        };
        let ids = crate::experiment::definition::metrics::METRICS;
        s.metric = match metric.checked_sub(1).map(|i| (i % 2, ids.get(i / 2))) {
            Some((0, Some(m))) => m.id.into(),
            Some((_, Some(m))) => format!("final_{}", m.id),
            _ => String::new(),
        };
        let q = encode(&s).unwrap();
        // Every key written is the table's or a parameter, once; the page keys in the table's order.
        let written: Vec<&str> = q.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap().0).collect();
        let table: Vec<&str> = url_keys().iter().map(|k| k.name).collect();
        let page: Vec<&str> = written.iter().copied().filter(|k| table.contains(k)).collect();
        let order: Vec<&str> = table.iter().copied().filter(|k| page.contains(k)).collect();
        proptest::prop_assert_eq!(&page, &order, "{}", q);
        let params = param_keys();
        proptest::prop_assert!(written.iter().all(|k| table.contains(k) || params.iter().any(|p| p == k)), "{}", q);
        proptest::prop_assert_eq!(decode(&q).unwrap(), s, "{}", q);
    }

    #[test]
    fn decode_never_panics(q in ".{0,80}") {
        let _ = decode(&q);
    }
}

/// The threats view's settings have a link both ways, and every bad value is one message naming
/// its key: tenants 0 or 300, overlap NaN, −1 or 2, p outside [0, 1] or twice, d ≤ 0, an unknown
/// isolation or policy.
#[test]
fn the_threats_view_has_a_link() {
    let s = decode("view=threats&dataset=nq-trivia&tenants=5&overlap=0.2&isolations=shared,tagged&threat_policies=threshold,vcache&attack_p=0,0.3&distance=0.2").unwrap();
    assert_eq!((s.view, s.tenants, s.overlap, s.distance), (View::Threats, 5, 0.2, 0.2));
    assert_eq!(s.isolations, [crate::online::Isolation::Shared, crate::online::Isolation::Tagged]);
    assert_eq!(s.threat_policies, [PolicyKind::Threshold, PolicyKind::VCache]);
    assert_eq!(s.attack_p, [0.0, 0.3]);
    assert_eq!(decode(&encode(&s).unwrap()).unwrap(), s);
    // The defaults are the built-ins' own settings, and are not written.
    let d = decode("view=threats").unwrap();
    assert_eq!((d.tenants, d.overlap, d.distance, d.attack_p.clone()), (3, 0.5, 0.15, vec![0.0, 0.05, 0.2]));
    assert_eq!(encode(&d).unwrap(), "view=threats");
    let msg = |q: &str| decode(q).unwrap_err().to_string();
    for (q, key) in [
        ("tenants=0", "tenants"),
        ("tenants=300", "tenants"),
        ("tenants=-1", "tenants"),
        ("tenants=x", "tenants"),
        ("overlap=NaN", "overlap"),
        ("overlap=-1", "overlap"),
        ("overlap=2", "overlap"),
        ("attack_p=1.5", "attack_p"),
        ("attack_p=-0.1", "attack_p"),
        ("attack_p=0.1,0.1", "attack_p"),
        ("attack_p=", "attack_p"),
        ("distance=0", "distance"),
        ("distance=-1", "distance"),
        ("distance=inf", "distance"),
        ("isolations=walled", "isolations"),
        ("isolations=", "isolations"),
        ("threat_policies=nope", "threat_policies"),
        ("threat_policies=lru,lru", "threat_policies"),
    ] {
        let m = msg(q);
        assert!(m.contains(key) && !m.contains('\n'), "{q}: {m}");
    }
}
