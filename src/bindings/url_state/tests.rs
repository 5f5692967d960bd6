//! Tests of the URL codec (`super`): round trips, readable errors, lossy decoding and the
//! property test over every field.

use super::*;

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

/// The live view's third and fourth panels (issue 23, item 6): optional, empty = no panel,
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

/// The live view's colouring (issue 27, item 2): a shared link keeps it; `auto` is the default and
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
    let c = super::super::controls::page_controls().into_iter().find(|c| c.id == "speed").unwrap();
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
    assert!(s.full && s.embed && s.tuned);
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
}

#[test]
fn fingerprints_differ_with_any_parameter() {
    let p = page_params(PageDataset::Synthetic);
    let f = fingerprint("synthetic", &p);
    assert_eq!(f.len(), 16);
    assert_eq!(f, fingerprint("synthetic", &p.clone()));
    assert_ne!(f, fingerprint("plane", &p));
    assert_ne!(f, fingerprint("synthetic", &Params { seed: 1, ..p }));
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

/// The sweep view's base, grid and metric (issue 25, item 5): written only when set, the grid
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
    assert!(s.embed);
    assert_eq!(decode("p2=L%52U").unwrap().p2, PolicyKind::Lru);
}

#[test]
fn never_panics_on_odd_input() {
    for q in ["&&&", "=", "==", "?=1", "%", "%%", "k", "k=", "k=1=2", "dataset", "dataset=", "\u{0}", "é=é"]
    {
        let _ = decode(q);
    }
}

proptest::proptest! {
    #[test]
    fn decode_inverts_encode(
        view in 0usize..7, ds in 0usize..3, p1 in 0usize..10, p2 in 0usize..10, mask in 1u16..1024,
        speed in 1u32..=MAX_SPEED, seeds in 1usize..=MAX_SEEDS, off in 0usize..3, pre in 0usize..7,
        full: bool, embed: bool, seed in 0u64..=MAX_SEED, k in 1usize..60, eps in 1e-6f64..3.0,
        beta in 0.0f64..100.0, horizon in 1usize..1_000_000, sigma in proptest::option::of(0.0f64..10.0),
        p3 in proptest::option::of(0usize..10), p4 in proptest::option::of(0usize..10), colour in 0usize..3,
        sweep in 0usize..16, eps_grid in proptest::collection::btree_set(1u32..1000, 0..4),
        k_grid in proptest::collection::btree_set(1usize..40, 0..4), metric in 0usize..40,
    ) {
        let views = [View::Live, View::Regret, View::Offline, View::Efficiency, View::Paper, View::Sweep, View::Frontier];
        let sets = [PageDataset::Synthetic, PageDataset::Plane, PageDataset::NqTrivia, PageDataset::Upload];
        let mut s = UrlState::defaults(sets[ds]);
        s.view = views[view];
        s.p1 = PolicyKind::ALL[p1];
        s.p2 = PolicyKind::ALL[p2];
        (s.p3, s.p4) = (p3.map(|i| PolicyKind::ALL[i]), p4.map(|i| PolicyKind::ALL[i]));
        s.policies = PolicyKind::ALL.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &p)| p).collect();
        (s.speed, s.seeds, s.full, s.embed) = (speed, seeds, full, embed);
        s.colour = Colouring::ALL[colour];
        s.offline = OFFLINE_EXPERIMENTS[off].into();
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
        let ids = crate::experiment::metrics::METRICS;
        s.metric = match metric.checked_sub(1).map(|i| (i % 2, ids.get(i / 2))) {
            Some((0, Some(m))) => m.id.into(),
            Some((_, Some(m))) => format!("final_{}", m.id),
            _ => String::new(),
        };
        let q = encode(&s).unwrap();
        proptest::prop_assert_eq!(decode(&q).unwrap(), s, "{}", q);
    }

    #[test]
    fn decode_never_panics(q in ".{0,80}") {
        let _ = decode(&q);
    }
}
