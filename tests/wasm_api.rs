//! The JavaScript API in a real browser (`wasm-pack test --headless --chrome` / `--firefox`, run
//! by scripts/test.sh): round trips through every export, hand-checkable instances, every error
//! path with its message, and bit-identical results to the native build (the determinism
//! checksum, asserted natively by `csc::checksum`'s unit test).
#![cfg(target_arch = "wasm32")]

use csc::bindings::dataset::JsDataset;
use csc::bindings::params::{default_params, determinism_report, native_determinism_report, validate_params};
use csc::bindings::primitives::{
    discretised_loss, epsilon_net, exact_optimum, expected_loss, krr_posterior, reverse_greedy,
};
use csc::bindings::types::{JsPartialParams, JsPhi};
use csc::bindings::version;
use js_sys::{Float64Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// ---- helpers ------------------------------------------------------------------------------------

/// The synthetic universe's embeddings, which the wasm32 build leaves out (the page fetches the
/// package's `synthetic.emb.f32`): given as the page gives them, before a test needs `synthetic`
/// (again is harmless).
fn provide_synthetic() {
    let file = js_sys::Uint8Array::from(&include_bytes!("../data/synthetic/prompts.emb.f32")[..]);
    csc::bindings::dataset::provide_synthetic(file.into()).expect("the built-in embeddings are accepted");
}

/// `Dataset.synthetic(cFloor)`, its embeddings given first.
fn synthetic(c_floor: Option<f64>) -> Result<JsDataset, JsError> {
    provide_synthetic();
    JsDataset::synthetic(c_floor)
}

fn field(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("an object")
}
fn u32_field(v: &JsValue, key: &str) -> Vec<u32> {
    field(v, key).dyn_into::<Uint32Array>().unwrap_or_else(|_| panic!("`{key}` is a Uint32Array")).to_vec()
}
fn f64_field(v: &JsValue, key: &str) -> Vec<f64> {
    field(v, key).dyn_into::<Float64Array>().unwrap_or_else(|_| panic!("`{key}` is a Float64Array")).to_vec()
}
fn num(v: &JsValue, key: &str) -> f64 {
    field(v, key).as_f64().unwrap_or_else(|| panic!("`{key}` is a number"))
}
fn text(v: &JsValue, key: &str) -> String {
    field(v, key).as_string().unwrap_or_else(|| panic!("`{key}` is a string"))
}

/// The message of the JS `Error` an export threw; fails the test if it did not throw one.
#[track_caller]
fn message<T>(r: Result<T, JsError>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => {
            let v: JsValue = e.into();
            let err = v.dyn_into::<js_sys::Error>().expect("a JS Error");
            err.message().as_string().unwrap()
        }
    }
}

#[track_caller]
fn assert_msg<T>(r: Result<T, JsError>, parts: &[&str]) {
    let m = message(r);
    for p in parts {
        assert!(m.contains(p), "error message {m:?} should contain {p:?}");
    }
}

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

fn phi(kind: &str, zeta: f64) -> Option<JsPhi> {
    Some(obj(&[("kind", kind.into()), ("zeta", zeta.into())]).unchecked_into())
}

/// A parameter object for `validateParams`.
fn params(v: JsValue) -> Option<JsPartialParams> {
    Some(v.unchecked_into())
}

// ---- datasets -----------------------------------------------------------------------------------

#[wasm_bindgen_test]
fn synthetic_dataset_getters_round_trip() {
    let d = synthetic(None).unwrap();
    assert_eq!((d.name().as_str(), d.size(), d.dim()), ("synthetic", 50, 384));
    assert!(d.dist_scale() > 0.0 && d.dist_scale() <= 2.0);
    assert_eq!(d.checksum().len(), 16);
    let costs = d.costs();
    assert_eq!(costs.len(), 50);
    assert!(costs.iter().all(|&c| c > 0.0 && c <= 1.0));
    assert!(costs.contains(&0.01) && costs.contains(&1.0));
    assert_eq!(d.tokens().len(), 50);
    assert_eq!(d.texts().len(), 50);
    assert!(d.texts().iter().all(|t| !t.is_empty()));
    assert_eq!(d.groups(), vec![0; 50]);
    assert_eq!(d.group_names(), vec!["synthetic".to_string()]);
    let pts = d.points();
    assert_eq!(pts.len(), 50 * 384);
    let info = d.info().unwrap();
    assert_eq!(
        (text(&info, "name"), num(&info, "size"), num(&info, "dim")),
        ("synthetic".into(), 50.0, 384.0)
    );
    assert_eq!(num(&info, "dist_scale"), d.dist_scale());
    assert_eq!(text(&info, "checksum"), d.checksum());

    // the projection: 2 coordinates per query, centred (fitted on all 50), stable, and `project`
    // uses the same map
    let xy = d.projection().unwrap();
    assert_eq!(xy.len(), 100);
    let (sx, sy) = xy.chunks(2).fold((0.0, 0.0), |(a, b), p| (a + p[0], b + p[1]));
    close(sx / 50.0, 0.0, 1e-6);
    close(sy / 50.0, 0.0, 1e-6);
    assert_eq!(d.projection().unwrap(), xy);
    assert_eq!(d.project(&pts).unwrap(), xy);
    assert_eq!(d.project(&pts[384..768]).unwrap(), xy[2..4].to_vec());
    assert!(d.project(&[]).unwrap().is_empty());
    let ev = d.explained_variance().unwrap();
    assert!(ev.len() == 2 && ev[0] >= ev[1] && ev[1] > 0.0 && ev[0] + ev[1] <= 1.0, "{ev:?}");
    assert_msg(d.project(&[0.0; 5]), &["do not make whole 384-dimensional vectors"]);
    assert_msg(d.project(&[f32::NAN; 384]), &["non-finite"]);

    // the cost floor
    let d2 = synthetic(Some(0.2)).unwrap();
    assert!(d2.costs().iter().all(|&c| c >= 0.2));
    assert_msg(synthetic(Some(0.0)), &["c_floor", "(0, 1]"]);
    assert_msg(synthetic(Some(f64::NAN)), &["c_floor"]);
}

#[wasm_bindgen_test]
fn plane_dataset() {
    let d = JsDataset::plane().unwrap();
    assert_eq!((d.name().as_str(), d.size(), d.dim()), ("plane", 6, 2));
    assert_eq!(d.dist_scale(), std::f64::consts::SQRT_2);
    assert_eq!(d.points()[..2], [0.2f32, 0.25]);
    assert_eq!(d.projection().unwrap().len(), 12);
}

#[wasm_bindgen_test]
fn user_datasets_and_their_errors() {
    let jsonl = b"{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1]}\n";
    let d = JsDataset::from_jsonl("mine", jsonl, None, None, None).unwrap();
    assert_eq!((d.name().as_str(), d.size(), d.dim()), ("mine", 2, 2));
    assert_eq!(d.costs(), vec![0.01, 1.0]);
    assert_eq!(d.tokens(), vec![3, 5]);
    assert_eq!(d.texts(), vec!["a".to_string(), "b".to_string()]);
    close(d.dist_scale(), 2f64.sqrt(), 1e-7);

    // binary embeddings (little-endian f32 rows)
    let bare = b"{\"text\":\"a\",\"tokens\":3}\n{\"text\":\"b\",\"tokens\":5}";
    let emb: Vec<u8> = [1.0f32, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let b = JsDataset::from_jsonl("bin", bare, Some(emb.clone()), Some(3.0), Some(0.5)).unwrap();
    assert_eq!((b.size(), b.dim()), (2, 3));
    assert_eq!(b.points(), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(b.costs(), vec![0.5, 1.0]);

    assert_msg(JsDataset::from_jsonl("x", b"", None, None, None), &["no records"]);
    assert_msg(JsDataset::from_jsonl("x", b"{\"text\":", None, None, None), &["line 1"]);
    assert_msg(JsDataset::from_jsonl("x", &[0xff, 0xfe], None, None, None), &["not valid UTF-8"]);
    assert_msg(JsDataset::from_jsonl("x", bare, None, None, None), &["no `embedding`"]);
    assert_msg(JsDataset::from_jsonl("x", bare, Some(emb.clone()), None, None), &["`dim`", "required"]);
    assert_msg(
        JsDataset::from_jsonl("x", bare, Some(emb.clone()), Some(4.0), None),
        &["not a whole number of 4-float rows"],
    );
    assert_msg(JsDataset::from_jsonl("x", bare, Some(emb.clone()), Some(0.0), None), &["`dim`"]);
    assert_msg(JsDataset::from_jsonl("x", bare, Some(emb.clone()), Some(1e9), None), &["`dim`", "at most"]);
    assert_msg(
        JsDataset::from_jsonl("x", bare, Some(emb[..12].to_vec()), Some(3.0), None),
        &["2 records but only 1 embedding rows"],
    );
    let nan: Vec<u8> = [1.0f32, f32::NAN, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_msg(JsDataset::from_jsonl("x", bare, Some(nan), Some(3.0), None), &["non-finite"]);
    let ragged = b"{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1,2]}";
    assert_msg(
        JsDataset::from_jsonl("x", ragged, None, None, None),
        &["record 2 has a 3-dimensional embedding"],
    );
    assert_msg(
        JsDataset::from_jsonl("x", b"{\"text\":\"a\",\"tokens\":-1}", None, None, None),
        &["`tokens`"],
    );
}

#[wasm_bindgen_test]
fn nq_trivia_from_parts() {
    let row =
        |v: f32| -> Vec<u8> { (0..384).flat_map(|j| if j == 0 { v } else { 0.0 }.to_le_bytes()).collect() };
    let nq_jsonl = "{\"text\":\"who?\",\"tokens\":4}\n{\"text\":\"what?\",\"tokens\":6}";
    let tq_jsonl = "{\"text\":\"where?\",\"tokens\":9}";
    let nq_emb = [row(1.0), row(0.5)].concat();
    let tq_emb = row(-1.0);
    let d = JsDataset::nq_trivia(nq_jsonl, &nq_emb, tq_jsonl, &tq_emb, Some(1.0), None).unwrap();
    assert_eq!((d.name().as_str(), d.size(), d.dim()), ("nq-trivia", 2, 384));
    assert_eq!(d.groups(), vec![0, 1]);
    assert_eq!(d.group_names(), vec!["NQ".to_string(), "TriviaQA".to_string()]);
    assert_eq!(d.texts(), vec!["who?".to_string(), "where?".to_string()]);
    close(d.dist_scale(), 2.0, 1e-12);
    assert_msg(JsDataset::nq_trivia(nq_jsonl, &nq_emb, tq_jsonl, &tq_emb, None, None), &["2500 needed"]);
    assert_msg(JsDataset::nq_trivia(nq_jsonl, &nq_emb, tq_jsonl, &tq_emb, Some(0.0), None), &["per_source"]);
    assert_msg(
        JsDataset::nq_trivia(nq_jsonl, &nq_emb, tq_jsonl, &tq_emb, Some(4e9), None),
        &["per_source", "at most"],
    );
    assert_msg(
        JsDataset::nq_trivia(nq_jsonl, &nq_emb, tq_jsonl, &[], Some(1.0), None),
        &["triviaqa.emb.f32"],
    );
}

// ---- primitives ---------------------------------------------------------------------------------

#[wasm_bindgen_test]
fn epsilon_net_by_hand() {
    // 1-D, D = 1, ε = 0.2: 0 → center 0; 0.18 joins it; 0.3 is 0.3 away → center 1 (point 2);
    // 0.18 is nearer the final center 1 (0.12 vs 0.18), so its cell differs from its assignment.
    let r = epsilon_net(&[0.0, 0.18, 0.3], 1.0, 0.2, 1.0).unwrap();
    assert_eq!(u32_field(&r, "centers"), vec![0, 2]);
    assert_eq!(u32_field(&r, "assignment"), vec![0, 0, 1]);
    assert_eq!(u32_field(&r, "cells"), vec![0, 1, 1]);
    let d = f64_field(&r, "distances");
    assert_eq!(d[0], 0.0);
    close(d[1], 0.18, 1e-7);
    assert_eq!(d[2], 0.0);

    assert_msg(epsilon_net(&[], 1.0, 0.2, 1.0), &["`points` is empty"]);
    assert_msg(epsilon_net(&[0.0, 1.0, 2.0], 2.0, 0.2, 1.0), &["do not make whole 2-dimensional vectors"]);
    assert_msg(epsilon_net(&[0.0, f32::NAN], 1.0, 0.2, 1.0), &["non-finite"]);
    assert_msg(epsilon_net(&[0.0], 0.0, 0.2, 1.0), &["`dim`", "whole number ≥ 1"]);
    assert_msg(epsilon_net(&[0.0], 1.5, 0.2, 1.0), &["`dim`"]);
    assert_msg(epsilon_net(&[0.0], 1.0, 0.0, 1.0), &["`epsilon`", "positive"]);
    assert_msg(epsilon_net(&[0.0], 1.0, 0.2, 0.0), &["`dist_scale`"]);
    assert_msg(epsilon_net(&[0.0], 1.0, 0.2, f64::NAN), &["`dist_scale`"]);
}

const LINE: [f32; 3] = [0.0, 0.1, 0.5];
const W: [f64; 3] = [0.5, 0.3, 0.2];
const C: [f64; 3] = [0.2, 0.05, 0.3];

#[wasm_bindgen_test]
fn reverse_greedy_by_hand() {
    // Removing 0 costs 0.5·min(.2, .1) = .05, removing 1 costs .3·min(.05, .1) = .015, removing 2
    // costs .2·min(.3, .4) = .06 → 1 goes; then {0} costs .2·.3 + .015 = .075 and {2} costs
    // .5·.2 + .015 = .115 → 2 goes.
    let r = reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 2.0, None, None).unwrap();
    assert_eq!((u32_field(&r, "cache"), u32_field(&r, "removed")), (vec![0, 2], vec![1]));
    close(num(&r, "loss"), 0.015, 1e-8);
    let r = reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, None, None).unwrap();
    assert_eq!((u32_field(&r, "cache"), u32_field(&r, "removed")), (vec![0], vec![1, 2]));
    close(num(&r, "loss"), 0.075, 1e-8);
    let r = reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 5.0, None, None).unwrap();
    assert_eq!(u32_field(&r, "cache"), vec![0, 1, 2]);
    assert_eq!(num(&r, "loss"), 0.0);
    let e = exact_optimum(&LINE, 1.0, 1.0, &W, &C, 1.0, None).unwrap();
    assert_eq!((u32_field(&e, "cache"), u32_field(&e, "removed")), (vec![0], vec![]));
    close(num(&e, "loss"), 0.075, 1e-8);

    // quadratic φ: φ(.1) = .01, so removing 1 now costs .3·min(.05, .01) = .003 (removing 0:
    // .005, removing 2: .2·min(.3, .16) = .032)
    let q = reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 2.0, phi("clipped_quadratic", 1.0), None).unwrap();
    close(num(&q, "loss"), 0.3 * 0.01, 1e-8);

    // the tie rule: two symmetric points, k = 1 — without an incumbent the lowest index is
    // removed, with incumbent [0] the non-member goes
    let r = reverse_greedy(&[0.0, 1.0], 1.0, 1.0, &[1.0, 1.0], &[0.5, 0.5], 1.0, None, None).unwrap();
    assert_eq!(u32_field(&r, "cache"), vec![1]);
    let r =
        reverse_greedy(&[0.0, 1.0], 1.0, 1.0, &[1.0, 1.0], &[0.5, 0.5], 1.0, None, Some(vec![0])).unwrap();
    assert_eq!(u32_field(&r, "cache"), vec![0]);

    // the losses
    close(discretised_loss(&LINE, 1.0, 1.0, &W, &C, &[0], None).unwrap(), 0.075, 1e-8);
    close(discretised_loss(&LINE, 1.0, 1.0, &W, &C, &[], None).unwrap(), 0.1 + 0.015 + 0.06, 1e-8);
    close(expected_loss(&LINE, &C, &[0.0], 1.0, 1.0, None).unwrap(), (0.0 + 0.05 + 0.3) / 3.0, 1e-8);
    close(expected_loss(&LINE, &C, &[], 1.0, 1.0, None).unwrap(), (0.2 + 0.05 + 0.3) / 3.0, 1e-8);
}

#[wasm_bindgen_test]
fn reverse_greedy_errors() {
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 0.0, None, None), &["`k`", "whole number ≥ 1"]);
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &W, &C, -1.0, None, None), &["`k`"]);
    assert_msg(
        reverse_greedy(&LINE, 1.0, 1.0, &W[..2], &C, 1.0, None, None),
        &["`weights` has 2 entries but `points` has 3"],
    );
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &W, &[0.1; 4], 1.0, None, None), &["`costs` has 4 entries"]);
    assert_msg(
        reverse_greedy(&LINE, 1.0, 1.0, &[0.5, f64::NAN, 0.2], &C, 1.0, None, None),
        &["`weights`[1] is NaN"],
    );
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &[0.5, -1.0, 0.2], &C, 1.0, None, None), &["weight 1", "≥ 0"]);
    assert_msg(reverse_greedy(&[], 1.0, 1.0, &[], &[], 1.0, None, None), &["`points` is empty"]);
    assert_msg(reverse_greedy(&LINE, 2.0, 1.0, &W, &C, 1.0, None, None), &["whole 2-dimensional"]);
    assert_msg(
        reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, phi("cubic", 1.0), None),
        &["`phi`", "unknown variant", "cubic"],
    );
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, phi("clipped_linear", -2.0), None), &["`zeta`"]);
    assert_msg(
        reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, Some(JsValue::from(3).unchecked_into()), None),
        &["`phi`"],
    );
    assert_msg(
        reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, None, Some(vec![3])),
        &["`incumbent` contains index 3"],
    );
    assert_msg(reverse_greedy(&LINE, 1.0, 1.0, &W, &C, 1.0, None, Some(vec![1, 1])), &["twice"]);
    let many = vec![0.0f32; 26];
    assert_msg(exact_optimum(&many, 1.0, 1.0, &[1.0; 26], &[0.5; 26], 2.0, None), &["at most 25 candidates"]);
    assert_msg(exact_optimum(&LINE, 1.0, 1.0, &W, &C, 0.0, None), &["`k`"]);
    let huge = vec![0.0f32; 5000];
    assert_msg(
        reverse_greedy(&huge, 1.0, 1.0, &[1.0; 5000], &[0.5; 5000], 2.0, None, None),
        &["at most 4096"],
    );
    assert_msg(discretised_loss(&LINE, 1.0, 1.0, &W, &C, &[7], None), &["`cache` contains index 7"]);
    assert_msg(
        expected_loss(&LINE, &C[..1], &[0.0], 1.0, 1.0, None),
        &["`evalCosts` has 1 entries but `evalPoints` has 3"],
    );
    assert_msg(expected_loss(&[], &[], &[0.0], 1.0, 1.0, None), &["`evalPoints` is empty"]);
    assert_msg(expected_loss(&LINE, &C, &[0.0, 1.0], 2.0, 1.0, None), &["`evalPoints`", "2-dimensional"]);
}

#[wasm_bindgen_test]
fn krr_posterior_by_hand() {
    // One observation y at x₀, ridge λ: mean(x₀) = y/(1+λ), σ²(x₀) = 1 − 1/(1+λ),
    // γ = ½ ln(1 + 1/λ); at distance d: κ = exp(−d²/2ℓ²), mean = κy/(1+λ), σ² = 1 − κ²/(1+λ).
    let (y, lambda, ell) = (0.7, 0.1, 0.2);
    let r = krr_posterior(&[0.3, 0.4], &[y], 2.0, 1.0, &[0.3, 0.4, 0.3, 0.5], ell, lambda).unwrap();
    let (mean, sd) = (f64_field(&r, "mean"), f64_field(&r, "sd"));
    close(mean[0], y / (1.0 + lambda), 1e-12);
    close(sd[0], (1.0 - 1.0 / (1.0 + lambda)).sqrt(), 1e-12);
    let d = (0.5f32 - 0.4f32) as f64;
    let kappa = (-d * d / (2.0 * ell * ell)).exp();
    close(mean[1], kappa * y / (1.0 + lambda), 1e-12);
    close(sd[1], (1.0 - kappa * kappa / (1.0 + lambda)).sqrt(), 1e-12);
    close(num(&r, "gamma"), 0.5 * (1.0 + 1.0 / lambda).ln(), 1e-12);

    // no observations: the prior
    let p = krr_posterior(&[], &[], 2.0, 1.0, &[0.1, 0.2], ell, lambda).unwrap();
    assert_eq!((f64_field(&p, "mean"), f64_field(&p, "sd"), num(&p, "gamma")), (vec![0.0], vec![1.0], 0.0));

    assert_msg(
        krr_posterior(&[0.3, 0.4], &[y, y], 2.0, 1.0, &[0.0, 0.0], ell, lambda),
        &["`y` has 2 entries but `obsPoints` has 1"],
    );
    assert_msg(
        krr_posterior(&[0.3, 0.4], &[f64::NAN], 2.0, 1.0, &[0.0, 0.0], ell, lambda),
        &["`y`[0] is NaN"],
    );
    assert_msg(
        krr_posterior(&[0.3, 0.4], &[y], 2.0, 1.0, &[0.0], ell, lambda),
        &["`query`", "2-dimensional"],
    );
    assert_msg(krr_posterior(&[0.3, 0.4], &[y], 2.0, 1.0, &[0.0, 0.0], 0.0, lambda), &["length scale"]);
    assert_msg(krr_posterior(&[0.3, 0.4], &[y], 2.0, 1.0, &[0.0, 0.0], ell, -1.0), &["ridge"]);
    let many = vec![0.5f32; 5001];
    assert_msg(
        krr_posterior(&many, &[y; 5001], 1.0, 1.0, &[0.0], ell, lambda),
        &["at most 5000 observations"],
    );
}

// ---- parameters, determinism --------------------------------------------------------------------

#[wasm_bindgen_test]
fn params_defaults_and_validation() {
    let d = default_params().unwrap();
    assert_eq!((num(&d, "k"), num(&d, "epsilon"), num(&d, "lambda"), num(&d, "seed")), (5.0, 0.4, 0.1, 0.0));
    assert_eq!(text(&d, "phi"), "clipped_linear");
    assert!(field(&d, "synthetic_sigma").is_null());
    let keys = js_sys::Object::keys(d.unchecked_ref::<js_sys::Object>()).length() as usize;
    let native = serde_json::to_value(csc::config::Params::default()).unwrap();
    assert_eq!(keys, native.as_object().unwrap().len(), "every parameter is present");

    let v = validate_params(params(obj(&[("k", 3.into()), ("phi", "clipped_quadratic".into())]))).unwrap();
    assert_eq!(
        (num(&v, "k"), num(&v, "epsilon"), text(&v, "phi")),
        (3.0, 0.4, "clipped_quadratic".to_string())
    );
    let v = validate_params(params(obj(&[("synthetic_sigma", 0.05.into())]))).unwrap();
    assert_eq!(num(&v, "synthetic_sigma"), 0.05);
    assert_eq!(num(&validate_params(None).unwrap(), "k"), 5.0);
    assert_eq!(num(&validate_params(params(JsValue::UNDEFINED)).unwrap(), "k"), 5.0);

    assert_msg(validate_params(params(obj(&[("k", 0.into())]))), &["`k`", "at least 1"]);
    assert_msg(validate_params(params(obj(&[("lambda", f64::NAN.into())]))), &["`lambda`", "ridge λ"]);
    assert_msg(validate_params(params(obj(&[("delta", 1.5.into())]))), &["`delta`", "(0, 1)"]);
    assert_msg(validate_params(params(obj(&[("kapa", 1.into())]))), &["unknown field", "kapa"]);
    assert_msg(validate_params(params(obj(&[("k", "five".into())]))), &["configuration", "invalid type"]);
    assert_msg(validate_params(params(obj(&[("k", 2.5.into())]))), &["configuration"]);
    assert_msg(validate_params(params(obj(&[("phi", "cubic".into())]))), &["unknown variant", "cubic"]);
    assert_msg(validate_params(params(JsValue::from(7))), &["configuration", "expected an object"]);
    assert_msg(validate_params(params(js_sys::Array::new().into())), &["expected an object"]);
}

#[wasm_bindgen_test]
fn bit_identical_to_native() {
    assert!(!version().is_empty());
    provide_synthetic();
    let here = determinism_report(None).unwrap();
    let native = native_determinism_report().unwrap();
    let stages = |r: &JsValue| -> Vec<(String, String)> {
        let a = field(r, "stages").dyn_into::<js_sys::Array>().unwrap();
        a.iter().map(|s| (text(&s, "stage"), text(&s, "hash"))).collect()
    };
    let (got, want) = (stages(&here), stages(&native));
    assert_eq!(got.len(), 4);
    assert_eq!(got.iter().map(|s| &s.0).collect::<Vec<_>>(), want.iter().map(|s| &s.0).collect::<Vec<_>>());
    let portable: Vec<String> = field(&native, "portable")
        .dyn_into::<js_sys::Array>()
        .unwrap()
        .iter()
        .map(|s| s.as_string().unwrap())
        .collect();
    assert_eq!(portable, csc::checksum::PORTABLE_STAGES);
    // the portable stages (stream, ε-net, Reverse Greedy) are bit-identical to the native build
    for ((stage, g), (_, w)) in got.iter().zip(&want) {
        if portable.contains(stage) {
            assert_eq!(g, w, "stage `{stage}` differs from the native build: {got:?} vs {want:?}");
        }
    }
    if got == want {
        assert_eq!(text(&here, "checksum"), text(&native, "checksum"));
    }
    // the others agree to rounding (different exp/ln roundings, see csc::checksum)
    let summary = |r: &JsValue| -> Vec<f64> {
        field(r, "krr_summary")
            .dyn_into::<js_sys::Array>()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let (gs, ws) = (summary(&here), summary(&native));
    assert_eq!(ws, csc::checksum::KRR_SUMMARY_SEED0.to_vec());
    for (g, w) in gs.iter().zip(&ws) {
        assert!((g - w).abs() <= 1e-10 * w.abs().max(1.0), "KRR summary {gs:?} vs native {ws:?}");
    }
    console_log!(
        "determinism: stages {got:?}; native {want:?}; KRR summary relative differences {:?}",
        gs.iter().zip(&ws).map(|(g, w)| (g - w).abs() / w.abs().max(1.0)).collect::<Vec<_>>()
    );

    assert_ne!(text(&determinism_report(Some(1.0)).unwrap(), "checksum"), text(&here, "checksum"));
    assert_msg(determinism_report(Some(-1.0)), &["`seed`"]);
    assert_msg(determinism_report(Some(0.5)), &["`seed`"]);
}

// ---- OnlineRun and ExperimentRun ----------------------------------------------------------------

use csc::bindings::experiment_run::JsExperimentRun;
use csc::bindings::online_run::JsOnlineRun;

fn policies(ids: &[&str]) -> csc::bindings::simulation::JsPolicyIds {
    let a = js_sys::Array::new();
    for id in ids {
        a.push(&JsValue::from_str(id));
    }
    JsValue::from(a).unchecked_into()
}

fn plane_run(ids: &[&str]) -> JsOnlineRun {
    let d = JsDataset::plane().unwrap();
    let p = params(obj(&[
        ("horizon", 300.into()),
        ("n_eval", 300.into()),
        ("seed", 7.into()),
        ("epsilon", JsValue::from_f64(0.2)),
    ]));
    JsOnlineRun::new(&d, p, policies(ids), JsValue::UNDEFINED).unwrap()
}

/// Stepping in the browser reproduces the native engine bit for bit: the regrets after 100
/// rounds equal the constants `tests/online.rs::plane_reference_run` asserts natively.
#[wasm_bindgen_test]
fn online_run_matches_native() {
    let mut run = plane_run(&["clcb-sc-ls-cont", "greedy"]);
    assert_eq!(run.horizon(), 300);
    assert_eq!(run.policies(), vec!["CLCB-SC-LS-Cont".to_string(), "Greedy".to_string()]);
    let b = run.step(60.0, JsValue::UNDEFINED).unwrap();
    assert_eq!(u32_field(&b, "t"), (0..60).collect::<Vec<u32>>());
    assert_eq!(f64_field(&b, "xy").len(), 120);
    let llm = field(&b, "llm").dyn_into::<js_sys::Uint8Array>().unwrap().to_vec();
    assert_eq!(llm.len(), 120);
    // What fired per round and policy (csc::live::RoundEvent, typed): round 0 of CLCB-SC-LS-Cont
    // founds center 0 and its switch caches it (Alg. 3 lines 5–11, Alg. 4); every swap names its
    // keys, and exactly the rounds whose cache changed swapped.
    let events = js_sys::Array::from(&field(&b, "events"));
    let at = |e: &JsValue| num(e, "at") as usize;
    let kind = |e: &JsValue| field(&field(e, "event"), "kind").as_string().unwrap();
    let first: Vec<String> = events.iter().filter(|e| at(e) == 0).map(|e| kind(&e)).collect();
    assert_eq!(first, ["new-center", "switch"], "round 0: a new center and a swap");
    let swap0 = events.iter().find(|e| at(e) == 0 && kind(e) == "switch").unwrap();
    let inserted: Vec<f64> = js_sys::Array::from(&field(&field(&swap0, "event"), "inserted"))
        .iter()
        .map(|k| k.as_f64().unwrap())
        .collect();
    assert_eq!(inserted, vec![0.0]);
    let switched = field(&b, "switched").dyn_into::<js_sys::Uint8Array>().unwrap().to_vec();
    let swapped: Vec<usize> = events.iter().filter(|e| kind(e) == "switch").map(|e| at(&e)).collect();
    let want: Vec<usize> = (0..120).filter(|&i| switched[i] == 1).collect();
    assert_eq!(swapped, want, "the switch events and the switched flags agree");
    // The frame's views: counters at its round, centers per policy, new curve points.
    assert_eq!(num(&b, "round"), 60.0);
    assert_eq!(js_sys::Array::from(&field(&b, "counters")).length(), 2);
    assert_eq!(js_sys::Array::from(&field(&b, "centers")).length(), 2);
    assert!(!f64_field(&js_sys::Array::from(&field(&b, "curves")).get(0), "t").is_empty());
    assert_eq!(f64_field(&b, "acting").len(), 120);
    assert_eq!(run.round_answers(0.0).unwrap(), None, "plane has no ground truth");
    run.step(40.0, JsValue::UNDEFINED).unwrap();
    assert_eq!(run.round(), 100);
    let c = run.counters().unwrap();
    let arr: js_sys::Array = c.dyn_into().unwrap();
    let bits: Vec<u64> = arr.iter().map(|cp| num(&cp, "regret").to_bits()).collect();
    assert_eq!(bits, vec![0x4013dce68dbc0f60, 0x401d4458100e8e4f]);
    assert_eq!(num(&arr.get(0), "llm_calls"), 21.0);
    // views: cache, centers, curves, heatmap, results, trace
    let cache = run.cache(0.0).unwrap();
    assert_eq!(f64_field(&cache, "xy").len(), 2 * u32_field(&cache, "keys").len());
    let centers = run.centers(0.0).unwrap();
    let n = u32_field(&centers, "keys").len();
    assert!(n > 0 && f64_field(&centers, "estimate").len() == n && f64_field(&centers, "sd").len() == n);
    let curves = run.curves(1.0).unwrap();
    assert!(!f64_field(&curves, "avgRegret").is_empty());
    let h = run.heatmap(0.0, 8.0).unwrap();
    assert_eq!(f64_field(&h, "mean").len(), 64);
    assert_msg(run.heatmap(1.0, 8.0), &["Greedy", "kernel"]);
    assert_msg(run.cache(5.0), &["policy", "out of range"]);
    assert_msg(run.step(-1.0, JsValue::UNDEFINED), &["`n`", "whole number"]);
    let t = csc::trace::Trace::from_json(&run.trace_json()).unwrap();
    assert_eq!(t.horizon(), 300);
    run.step(1e6, JsValue::UNDEFINED).unwrap();
    assert_eq!(run.round(), 300, "stepping stops at the horizon");
}

#[wasm_bindgen_test]
fn online_run_errors() {
    let d = JsDataset::plane().unwrap();
    assert_msg(
        JsOnlineRun::new(&d, None, policies(&["nope"]), JsValue::UNDEFINED),
        &["unknown online algorithm", "nope"],
    );
    assert_msg(JsOnlineRun::new(&d, None, policies(&[]), JsValue::UNDEFINED), &["policies"]);
    assert_msg(
        JsOnlineRun::new(
            &d,
            params(obj(&[("horizon", 0.into())])),
            policies(&["greedy"]),
            JsValue::UNDEFINED,
        ),
        &["horizon"],
    );
    assert_msg(
        JsOnlineRun::new(
            &d,
            params(obj(&[("horizon", JsValue::from_f64(2e6))])),
            policies(&["greedy"]),
            JsValue::UNDEFINED,
        ),
        &["horizon", "at most"],
    );
}

/// `ask`: a given vector is the next round for every policy; its cost is the token count min-max
/// normalised over the dataset (SPEC §2), clamped; `roundText` names the rounds.
#[wasm_bindgen_test]
fn online_run_ask() {
    let d = synthetic(None).unwrap();
    let p = params(obj(&[("horizon", 50.into()), ("n_eval", 50.into()), ("seed", 3.into())]));
    let mut run =
        JsOnlineRun::new(&d, p, policies(&["clcb-sc-ls-cont", "greedy"]), JsValue::UNDEFINED).unwrap();
    run.step(10.0, JsValue::UNDEFINED).unwrap();
    let pts = d.points();
    let row3: Vec<f32> = pts[3 * 384..4 * 384].to_vec();
    let x = JsValue::from(js_sys::Float32Array::from(&row3[..]));
    // synthetic tokens: min 3, max 39 (data/synthetic/README.md); c_floor 0.01
    let a = run.ask(x.clone(), 21.0, JsValue::from_str("my question")).unwrap();
    close(num(&a, "cost"), 0.01 + 0.99 * 18.0 / 36.0, 1e-12);
    assert_eq!(run.round(), 11);
    assert_eq!(u32_field(&a, "t"), vec![10]);
    assert_eq!(f64_field(&a, "realised").len(), 2);
    let dd = f64_field(&a, "d");
    let phi = f64_field(&a, "phi");
    for p in 0..2 {
        assert!(phi[p] == dd[p].min(1.0), "φ(d) = min(d, 1)");
    }
    // Each policy's reason (Alg. 5 lines 4–6): the LLM iff its acting cost ≤ φ; CLCB-SC-LS-Cont
    // acts on a lower confidence bound c̲, Greedy on its center's mean ĉ.
    let acting = f64_field(&a, "acting");
    let llm: Vec<u8> = js_sys::Uint8Array::new(&field(&a, "llm")).to_vec();
    for p in 0..2 {
        assert_eq!(llm[p] == 1, acting[p] <= phi[p], "policy {p}: acting {} vs φ {}", acting[p], phi[p]);
    }
    let sym: Vec<String> =
        js_sys::Array::from(&field(&a, "actingSymbol")).iter().filter_map(|v| v.as_string()).collect();
    assert_eq!(sym, ["c̲", "ĉ"]);
    let uni = field(&a, "universe");
    assert_eq!(u32_field(&uni, "index")[0], 3, "the nearest universe row to row 3 is itself");
    assert_eq!(f64_field(&uni, "d")[0], 0.0);
    assert_eq!(run.round_text(10.0).unwrap().as_deref(), Some("my question"));
    assert!(run.round_text(0.0).unwrap().is_some());
    assert_eq!(run.round_text(11.0).unwrap(), None, "unplayed");
    close(num(&run.ask(x.clone(), 0.0, JsValue::UNDEFINED).unwrap(), "cost"), 0.01, 1e-12);
    close(num(&run.ask(x.clone(), 1e4, JsValue::UNDEFINED).unwrap(), "cost"), 1.0, 1e-12);
    assert_msg(
        run.ask(JsValue::from(js_sys::Float32Array::new_with_length(2)), 5.0, JsValue::NULL),
        &["`x`", "384"],
    );
    assert_msg(run.ask(x.clone(), -1.0, JsValue::NULL), &["tokens"]);
    assert_msg(run.ask(JsValue::from_str("x"), 5.0, JsValue::NULL), &["Float32Array"]);
}

#[wasm_bindgen_test]
fn experiment_run_in_chunks_with_progress_and_cancel() {
    let d = JsDataset::plane().unwrap();
    let spec = obj(&[
        ("id", "mini".into()),
        ("dataset", "plane".into()),
        ("measure", obj(&[("kind", "online".into()), ("policies", policies(&["greedy", "lfu"]).into())])),
        ("params", obj(&[("horizon", 200.into()), ("n_eval", 100.into())])),
        ("seeds", 2.into()),
    ]);
    let mut run = JsExperimentRun::new(spec.clone().unchecked_into(), &d, None, None).unwrap();
    assert_eq!(run.total_units(), 2);
    let seen = std::rc::Rc::new(std::cell::Cell::new(0.0));
    let s2 = seen.clone();
    let cb = Closure::<dyn FnMut(f64) -> bool>::new(move |n: f64| {
        s2.set(n);
        true
    });
    let f: JsValue = cb.as_ref().clone();
    assert!(run.run_next(Some(f.clone().unchecked_into())).unwrap());
    assert_eq!(seen.get(), 400.0, "progress reaches rounds × policies");
    assert!(!run.run_next(None).unwrap());
    assert_eq!(run.done_units(), 2);
    assert!(run.csv().contains(",greedy,final_avg_regret"), "results are keyed by id");
    assert!(run.summary().contains("LFU"));
    // cancelling
    let mut run = JsExperimentRun::new(spec.unchecked_into(), &d, None, None).unwrap();
    let stop = Closure::<dyn FnMut(f64) -> bool>::new(|_n: f64| false);
    assert_msg(run.run_next(Some(stop.as_ref().clone().unchecked_into())), &["cancelled"]);
    assert_eq!(run.done_units(), 0);
    // wrong dataset and unknown ids
    let s = synthetic(None).unwrap();
    assert_msg(
        JsExperimentRun::new(JsValue::from_str("fig-a").unchecked_into(), &d, None, None),
        &["synthetic", "plane"],
    );
    assert_msg(
        JsExperimentRun::new(JsValue::from_str("fig-zz").unchecked_into(), &s, None, None),
        &["unknown experiment"],
    );
    let o = params(obj(&[("log_len", 100.into())]));
    let run = JsExperimentRun::new(JsValue::from_str("fig-b").unchecked_into(), &s, o, Some(1.0)).unwrap();
    assert_eq!(run.total_units(), 8);
}

/// A run collecting units (the worker pool's collector, `addUnit`) folds them in as they arrive
/// and builds its report once per change: units added in any order give, bit for bit, the report
/// the engine builds from those units (`Report::new`, sorted by unit index), in JSON, CSV and the
/// summary alike; a report asked for between adds holds exactly the units added so far.
#[wasm_bindgen_test]
fn added_units_fold_into_one_report() {
    use csc::experiment::{ExperimentSpec, Report, UnitResult};
    let d = JsDataset::plane().unwrap();
    let spec = obj(&[
        ("id", "mini".into()),
        ("dataset", "plane".into()),
        ("measure", obj(&[("kind", "online".into()), ("policies", policies(&["greedy", "lfu"]).into())])),
        ("params", obj(&[("horizon", 150.into()), ("n_eval", 100.into())])),
        ("seeds", 3.into()),
    ]);
    let mut worker = JsExperimentRun::new(spec.clone().unchecked_into(), &d, None, None).unwrap();
    let json: Vec<String> = (0..3).map(|i| worker.run_unit_at(f64::from(i), None).unwrap()).collect();
    let mut collector = JsExperimentRun::new(spec.unchecked_into(), &d, None, None).unwrap();
    let resolved: ExperimentSpec = serde_wasm_bindgen::from_value(collector.spec().unwrap()).unwrap();
    let indices = |r: &Report| r.units.iter().map(|u| u.unit.index).collect::<Vec<_>>();
    let mut added: Vec<UnitResult> = Vec::new();
    for (i, want) in [(2, vec![2]), (0, vec![0, 2]), (1, vec![0, 1, 2])] {
        collector.add_unit(JsValue::from_str(&json[i])).unwrap();
        added.push(serde_json::from_str(&json[i]).unwrap());
        let partial: Report = serde_json::from_str(&collector.report_json()).unwrap();
        assert_eq!(indices(&partial), want, "the report after adding unit {i}");
        assert_eq!(collector.done_units(), want.len());
    }
    let reference = Report::new(&resolved, added);
    assert_eq!(collector.report_json(), serde_json::to_string(&reference).unwrap());
    assert_eq!(collector.csv(), reference.to_csv());
    assert_eq!(collector.summary(), reference.summary());
    let shown: Report = serde_wasm_bindgen::from_value(collector.report().unwrap()).unwrap();
    let means =
        |r: &Report| r.stats.iter().map(|s| (s.metric.clone(), s.n, s.mean.to_bits())).collect::<Vec<_>>();
    assert_eq!(means(&shown), means(&reference), "the report object the page draws");
    assert_msg(collector.add_unit(JsValue::from_str(&json[1])), &["added twice"]);
}

// ---- the exports' JS entry points: any JS value in a string or array position -------------------

/// The exports take strings and arrays as `JsValue` (the release JS glue passes any value on
/// unchecked: a number where a string was declared used to trap the module). Each refuses a
/// value of the wrong type with an `Error` naming the argument, and accepts typed arrays, plain
/// arrays of numbers and other numeric typed arrays alike. scripts/hostile_pkg.mjs sweeps every
/// export this way through the shipped glue.
#[wasm_bindgen_test]
fn js_entry_points_check_argument_types() {
    use csc::bindings::page::{config_fingerprint_js, decode_url_state_js, url_state_defaults_js};
    use csc::bindings::primitives::{epsilon_net_js, reverse_greedy_js};
    use js_sys::{Array, Float32Array, Float64Array};
    let nums = |v: &[f64]| -> JsValue { v.iter().map(|&x| JsValue::from(x)).collect::<Array>().into() };
    let pts = JsValue::from(Float32Array::from(&[0.0f32, 0.18, 0.3][..]));
    // Typed, plain and other typed arrays give the same answer.
    for points in [pts.clone(), nums(&[0.0, 0.18, 0.3]), Float64Array::from(&[0.0, 0.18, 0.3][..]).into()] {
        let r = epsilon_net_js(points, 1.0, 0.2, 1.0).unwrap();
        assert_eq!(u32_field(&r, "centers"), vec![0, 2]);
    }
    for bad in [
        JsValue::from(3.0),
        JsValue::from_str("0,1"),
        JsValue::NULL,
        JsValue::UNDEFINED,
        js_sys::Object::new().into(),
    ] {
        assert_msg(
            epsilon_net_js(bad, 1.0, 0.2, 1.0),
            &["`points`", "must be a Float32Array or an array of numbers"],
        );
    }
    let junk: JsValue = [JsValue::from(1.0), JsValue::from_str("x")].iter().collect::<Array>().into();
    assert_msg(
        epsilon_net_js(junk, 1.0, 0.2, 1.0),
        &["`points`", "element 1 must be a number, got a string"],
    );
    // A huge array-like is refused before anything is allocated.
    let fake = js_sys::Object::new();
    Reflect::set(&fake, &"length".into(), &JsValue::from(2f64.powi(30))).unwrap();
    assert_msg(epsilon_net_js(fake.into(), 1.0, 0.2, 1.0), &["`points`"]);
    // Indices must be whole numbers in range.
    let w = JsValue::from(Float64Array::from(&[0.5, 0.3, 0.2][..]));
    let c = JsValue::from(Float64Array::from(&[0.2, 0.05, 0.3][..]));
    let r = reverse_greedy_js(pts.clone(), 1.0, 1.0, w.clone(), c.clone(), 1.0, None, nums(&[0.0])).unwrap();
    assert_eq!(u32_field(&r, "cache"), vec![0]);
    assert_msg(
        reverse_greedy_js(pts, 1.0, 1.0, w, c, 1.0, None, nums(&[1.5])),
        &["`incumbent`", "element 0 must be a whole number"],
    );
    // Strings.
    assert_msg(decode_url_state_js(JsValue::from(f64::NAN)), &["`query`", "must be a string, got a number"]);
    assert_msg(url_state_defaults_js(JsValue::TRUE), &["`dataset`", "must be a string, got a boolean"]);
    let p: csc::bindings::page::JsParams = default_params().unwrap().unchecked_into();
    assert_msg(config_fingerprint_js(JsValue::from(7.0), p), &["`dataset`", "must be a string"]);
    assert_msg(
        JsDataset::from_jsonl_js(
            JsValue::NULL,
            nums(&[]),
            JsValue::UNDEFINED,
            None,
            None,
            JsValue::UNDEFINED,
        ),
        &["`name`"],
    );
    assert_msg(
        JsDataset::from_jsonl_js(
            "x".into(),
            nums(&[300.0]),
            JsValue::UNDEFINED,
            None,
            None,
            JsValue::UNDEFINED,
        ),
        &["`bytes`", "element 0 must be a whole number in [0, 255]"],
    );
    let jsonl = || JsValue::from(js_sys::Uint8Array::from(&user_jsonl()[..]));
    let load = |o: JsValue| JsDataset::from_jsonl_js("x".into(), jsonl(), JsValue::UNDEFINED, None, None, o);
    assert_msg(load(JsValue::from(3.0)), &["`options`", "must be an object"]);
    assert_msg(load(obj(&[("groupBy", 3.into())])), &["`options.groupBy`", "must be a string"]);
    assert_msg(
        load(obj(&[("replayIndexName", JsValue::TRUE), ("replayIndex", nums(&[97.0]))])),
        &["`options.replayIndexName`", "must be a string"],
    );
    assert_msg(load(obj(&[("replayIndex", "a".into())])), &["`options.replayIndex`"]);
    assert_msg(load(obj(&[("onProgress", "a".into())])), &["`options.onProgress`", "function"]);
    let ok = load(obj(&[
        ("groupBy", "src".into()),
        ("replayIndexName", "i.txt".into()),
        ("replayIndex", nums(&[97.0])),
    ]));
    assert_eq!(ok.unwrap().group_names().len(), 2);
    // onProgress sees the rows compared, up to all of them
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let s2 = seen.clone();
    let cb = Closure::<dyn FnMut(f64, f64)>::new(move |d: f64, n: f64| s2.borrow_mut().push((d, n)));
    load(obj(&[("onProgress", cb.as_ref().clone())])).unwrap();
    assert_eq!(seen.borrow().last(), Some(&(6.0, 6.0)));
}

// ---- uploaded data: experimentDefinition and the live view's arrival model ----------------------

/// Six records with ids `a`…`f`, texts `q0`…`q5`, inline 3-d embeddings and a `src` field.
fn user_jsonl() -> Vec<u8> {
    let mut s = String::new();
    for (i, id) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
        let mut e = [0.1f32; 3];
        e[i % 3] = 1.0 + i as f32;
        // Unit-norm rows, as sentence embeddings are (SPEC §1): the uniform arrival model's σ_e
        // calibration refuses rows whose jitter cannot reach its target distance.
        let norm = e.iter().map(|v| v * v).sum::<f32>().sqrt();
        let e = e.map(|v| v / norm);
        s.push_str(&format!(
            "{{\"id\":\"{id}\",\"text\":\"q{i}\",\"tokens\":{},\"src\":\"{}\",\"embedding\":[{},{},{}]}}\n",
            3 + 2 * i,
            if i < 3 { "left" } else { "right" },
            e[0],
            e[1],
            e[2]
        ));
    }
    s.into_bytes()
}

/// `experimentDefinition(id)` returns a definition that round-trips (JSON → the engine's
/// `ExperimentSpec`, equal to the built-in) and, with its dataset replaced by the page's dataset
/// object for an upload, runs on the uploaded data: the report names the user's file and
/// checksum, never a built-in dataset.
#[wasm_bindgen_test]
fn experiment_definition_round_trips_and_runs_on_uploaded_data() {
    use csc::bindings::experiment_run::experiment_definition;
    let def = experiment_definition(JsValue::from_str("fig-e")).unwrap();
    let json = js_sys::JSON::stringify(&def).unwrap().as_string().unwrap();
    let spec = csc::experiment::ExperimentSpec::from_json(&json).unwrap();
    assert_eq!(spec, csc::experiment::builtin("fig-e").unwrap(), "the definition round-trips");
    assert_eq!(text(&def, "dataset"), "nq-trivia");
    assert_msg(experiment_definition(JsValue::from_str("fig-zz")), &["unknown experiment"]);
    assert_msg(experiment_definition(JsValue::from_f64(5.0)), &["`id`", "string"]);
    // the page's form for uploaded data: the definition with a dataset object
    let d = JsDataset::from_jsonl("mine", &user_jsonl(), None, None, None).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["dataset"] = serde_json::json!({
        "jsonl": "mine.jsonl", "checksum": d.checksum(), "arrival": {"model": "popularity"}
    });
    // as www/js/exp-worker.js does: the title names the user's file, not the built-in's data
    v["title"] = v["title"].as_str().unwrap().replace("nq-trivia", "mine.jsonl").into();
    let js = js_sys::JSON::parse(&v.to_string()).unwrap();
    let o = params(obj(&[("horizon", 40.into()), ("n_eval", 30.into())]));
    let mut run = JsExperimentRun::new(js.unchecked_into(), &d, o, Some(1.0)).unwrap();
    while run.run_next(None).unwrap() {}
    let report: serde_json::Value = serde_json::from_str(&run.report_json()).unwrap();
    assert_eq!(report["experiment"]["dataset"]["jsonl"], "mine.jsonl");
    assert_eq!(report["experiment"]["dataset"]["checksum"], d.checksum().as_str());
    assert_eq!(report["units"][0]["dataset"]["name"], "mine");
    assert_eq!(report["units"][0]["dataset"]["checksum"], d.checksum().as_str());
    assert!(!report.to_string().contains("nq-trivia"), "the report names a built-in dataset");
    // the report's definition parses again (an exported definition is runnable)
    let again = csc::experiment::ExperimentSpec::from_json(&report["experiment"].to_string()).unwrap();
    assert_eq!(
        again.dataset.arrival().map(|a| serde_json::to_value(a).unwrap()["model"].clone()),
        Some("popularity".into())
    );
    // a stale checksum is refused
    v["dataset"]["checksum"] = "0000000000000000".into();
    let js = js_sys::JSON::parse(&v.to_string()).unwrap();
    assert_msg(JsExperimentRun::new(js.unchecked_into(), &d, None, Some(1.0)), &["the file changed"]);
}

/// `OnlineRun`'s `arrival`: `replay` plays the file's order (or its index file's), `T` its length;
/// `bursty` needs the dataset read with its group field; bad values are refused with a message,
/// never a trap.
#[wasm_bindgen_test]
fn online_run_follows_the_arrival_model() {
    let d = JsDataset::from_jsonl("mine", &user_jsonl(), None, None, None).unwrap();
    let p = || params(obj(&[("horizon", 5.into()), ("n_eval", 20.into()), ("seed", 1.into())]));
    let texts = |run: &JsOnlineRun, n: usize| -> Vec<String> {
        (0..n).map(|r| run.round_text(r as f64).unwrap().unwrap()).collect()
    };
    let mut run = JsOnlineRun::new(&d, p(), policies(&["greedy"]), JsValue::from_str("replay")).unwrap();
    assert_eq!(run.horizon(), 6, "replay: T is the file's length");
    run.step(6.0, JsValue::UNDEFINED).unwrap();
    assert_eq!(texts(&run, 6), ["q0", "q1", "q2", "q3", "q4", "q5"]);
    // an index file of arrivals, by id
    let idx = JsDataset::from_user_files(
        "mine",
        &user_jsonl(),
        None,
        None,
        None,
        None,
        Some(("log.txt", b"f\nb\nb\na\n")),
    )
    .unwrap();
    let replay = obj(&[("model", "replay".into()), ("index", "log.txt".into())]);
    let mut run = JsOnlineRun::new(&idx, p(), policies(&["greedy"]), replay).unwrap();
    assert_eq!(run.horizon(), 4);
    run.step(4.0, JsValue::UNDEFINED).unwrap();
    assert_eq!(texts(&run, 4), ["q5", "q1", "q1", "q0"]);
    // uniform jitters (texts are "≈ nearest"); popularity plays exact rows
    let mut run = JsOnlineRun::new(&d, p(), policies(&["greedy"]), JsValue::UNDEFINED).unwrap();
    run.step(5.0, JsValue::UNDEFINED).unwrap();
    assert!(texts(&run, 5).iter().all(|t| t.starts_with("≈ ")));
    let pop = obj(&[("model", "popularity".into())]);
    let mut run = JsOnlineRun::new(&d, p(), policies(&["greedy"]), pop).unwrap();
    run.step(5.0, JsValue::UNDEFINED).unwrap();
    assert!(texts(&run, 5).iter().all(|t| t.starts_with('q')));
    // bursty: groups from the field the dataset was read with; bursts stay in one group
    assert_msg(JsOnlineRun::new(&d, p(), policies(&["greedy"]), JsValue::from_str("bursty")), &["group_by"]);
    let g = JsDataset::from_user_files("mine", &user_jsonl(), None, None, None, Some("src"), None).unwrap();
    assert_eq!(g.group_names(), vec!["left".to_string(), "right".to_string()]);
    let bursty = obj(&[("model", "bursty".into()), ("group_by", "src".into())]);
    let mut run = JsOnlineRun::new(&g, p(), policies(&["greedy"]), bursty).unwrap();
    run.step(5.0, JsValue::UNDEFINED).unwrap();
    assert!(texts(&run, 1)[0].as_str() < "q3", "bursts start with the first group");
    // refused values
    for bad in [JsValue::from_f64(3.0), JsValue::TRUE, js_sys::Array::new().into()] {
        assert_msg(JsOnlineRun::new(&d, p(), policies(&["greedy"]), bad), &["`arrival`"]);
    }
    assert_msg(
        JsOnlineRun::new(&d, p(), policies(&["greedy"]), JsValue::from_str("zipf")),
        &["unknown arrival model"],
    );
    assert_msg(
        JsOnlineRun::new(
            &d,
            p(),
            policies(&["greedy"]),
            obj(&[("model", "replay".into()), ("index", "x".into())]),
        ),
        &["not read with the dataset"],
    );
    assert_msg(
        JsDataset::from_user_files(
            "mine",
            &user_jsonl(),
            None,
            None,
            None,
            None,
            Some(("log.txt", b"a\nzz\n")),
        ),
        &["log.txt, line 2: unknown id \"zz\""],
    );
}

/// The page's list of algorithms is the engine's (`csc::algorithms`), in its order, with every
/// field a page shows.
#[wasm_bindgen_test]
fn the_algorithm_lists_are_the_engines() {
    use csc::algorithms::{AlgorithmInfo, OfflineKind, PolicyKind};
    use csc::bindings::catalog::{offline_algorithms, policies};
    let check = |got: JsValue, want: Vec<AlgorithmInfo>| {
        let got = got.dyn_into::<js_sys::Array>().expect("an array");
        assert_eq!(got.length() as usize, want.len());
        for (i, w) in want.iter().enumerate() {
            let o = got.get(i as u32);
            let s = |k: &str| Reflect::get(&o, &k.into()).unwrap().as_string().unwrap();
            assert_eq!(
                (s("id"), s("name"), s("description"), s("paper")),
                (w.id.into(), w.name.into(), w.description.into(), w.paper.into())
            );
        }
    };
    check(policies().unwrap(), PolicyKind::catalog());
    check(offline_algorithms().unwrap(), OfflineKind::catalog());
}

/// The page's lists of parameters, arrival models and datasets and its control table are the
/// engine's (`csc::config::PARAMETERS` with `Params::default()`, `csc::stream::ARRIVALS`,
/// `csc::dataset::DATASETS`, `csc::bindings::controls`), in their order.
#[wasm_bindgen_test]
fn the_parameter_arrival_dataset_and_control_lists_are_the_engines() {
    use csc::bindings::catalog::{arrival_models, datasets, page_controls, parameters};
    let ids = |v: JsValue| -> Vec<String> {
        let a = v.dyn_into::<js_sys::Array>().expect("an array");
        a.iter().map(|o| Reflect::get(&o, &"id".into()).unwrap().as_string().unwrap()).collect()
    };
    let want = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let params = parameters().unwrap();
    assert_eq!(ids(params.clone()), want(&csc::config::PARAMETERS.iter().map(|p| p.id).collect::<Vec<_>>()));
    let k = js_sys::Array::from(&params).get(0);
    assert_eq!(Reflect::get(&k, &"default".into()).unwrap().as_f64(), Some(5.0));
    assert_eq!(
        ids(arrival_models().unwrap()),
        want(&csc::stream::ARRIVALS.iter().map(|a| a.id).collect::<Vec<_>>())
    );
    assert_eq!(
        ids(datasets().unwrap()),
        want(&csc::dataset::DATASETS.iter().map(|d| d.id).collect::<Vec<_>>())
    );
    let table = page_controls().unwrap();
    let controls = Reflect::get(&table, &"controls".into()).unwrap();
    let want_controls: Vec<&str> = csc::bindings::url_state::page_controls().iter().map(|c| c.id).collect();
    assert_eq!(ids(controls), want(&want_controls));
    let names = Reflect::get(&table, &"hideNames".into()).unwrap().dyn_into::<js_sys::Array>().unwrap();
    assert_eq!(names.length() as usize, csc::bindings::url_state::hide_names().len());
}

/// `runtimeGrowth` through the glue: a time ∝ t² over t = 100 … 1,000 (and one wild point before
/// T/10, which the window leaves out) has slope 2 over 10 points; too few points give `undefined`;
/// arrays of different lengths throw one plain message.
#[wasm_bindgen_test]
fn runtime_growth_is_the_engines_fit() {
    let mut t = vec![1.0];
    let mut ms = vec![1e6];
    for i in 1..=10 {
        let x = 100.0 * f64::from(i);
        t.push(x);
        ms.push(3e-4 * x * x);
    }
    let f = csc::bindings::catalog::runtime_growth(
        Float64Array::from(&t[..]).into(),
        Float64Array::from(&ms[..]).into(),
    )
    .expect("a fit");
    assert!((num(&f, "slope") - 2.0).abs() < 1e-12, "{}", num(&f, "slope"));
    assert_eq!(num(&f, "points"), 10.0);
    let none = csc::bindings::catalog::runtime_growth(
        Float64Array::from(&[1000.0][..]).into(),
        Float64Array::from(&[5.0][..]).into(),
    )
    .expect("no error");
    assert!(none.is_undefined());
    let m = message(csc::bindings::catalog::runtime_growth(
        Float64Array::from(&t[..]).into(),
        Float64Array::from(&ms[1..]).into(),
    ));
    assert!(m.contains("11 rounds, 10 times"), "{m}");
}

/// `OwnPolicyStats.theoryAcrossHorizons`: a policy written in JavaScript played at T = 40, 80,
/// 160 on two seeds of plane, each run added at x = T, is checked as a report's sweep over the
/// horizon: each T's checks over the 2 seeds, and Reg(T) = T·R(T)/T per seed — each run's own last
/// average regret times T, bit for bit — fitted against T, its slope the mean of the two seeds'
/// least-squares slopes of ln Reg(T) on ln T (recomputed here by plain code). Its CSV rows are
/// the report's form; a run added at a parameter's value makes it refuse with one message.
#[wasm_bindgen_test]
fn own_policy_across_horizons() {
    use csc::bindings::own_policy::{JsOwnPolicyRun, JsOwnPolicyStats};
    use csc::experiment::theory::report::TheoryReport;
    use csc::experiment::theory::Quantity;
    let d = JsDataset::plane().unwrap();
    // The last arrival kept, served when it is within 0.2.
    let policy = || {
        js_sys::eval("({ decide(a) { return a.distances.length && a.distances[0] < 0.2 ? 0 : 'llm'; }, observe(c, t) { return [t]; } })")
            .unwrap()
            .unchecked_into()
    };
    let run_at = |horizon: u32, seed: u32| {
        let p = obj(&[
            ("horizon", horizon.into()),
            ("n_eval", 60.into()),
            ("seed", seed.into()),
            ("k", 3.into()),
        ]);
        let mut run = JsOwnPolicyRun::new(&d, params(p), policy(), JsValue::UNDEFINED).unwrap();
        run.step(f64::from(horizon)).unwrap();
        assert!(run.stopped().is_none());
        run
    };
    let mut stats = JsOwnPolicyStats::new();
    assert!(stats.theory_across_horizons().unwrap().is_null(), "no runs: null");
    let mut reg: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 2];
    for horizon in [40u32, 80, 160] {
        for seed in 0..2u32 {
            let mut run = run_at(horizon, seed);
            let t = f64::from(horizon);
            reg[seed as usize].push((t, num(&field(&run.result().unwrap(), "last"), "avg_regret") * t));
            stats.add(&mut run, Some(t)).unwrap();
        }
    }
    assert!(reg.iter().flatten().all(|p| p.1 > 0.0), "every Reg(T) is fitted on a log scale: {reg:?}");
    let th: TheoryReport = serde_wasm_bindgen::from_value(stats.theory_across_horizons().unwrap()).unwrap();
    assert_eq!(th.runs.iter().map(|r| r.x).collect::<Vec<_>>(), [40.0, 80.0, 160.0]);
    assert!(th
        .runs
        .iter()
        .all(|r| r.policy == "own-policy" && r.checks[0].quantity == Quantity::Regret && r.checks[0].n == 2));
    assert_eq!(th.horizons.len(), 1);
    let h = &th.horizons[0];
    assert_eq!(h.points, reg);
    let slope = |s: &[(f64, f64)]| {
        let n = s.len() as f64;
        let (x, y): (Vec<f64>, Vec<f64>) = s.iter().map(|p| (p.0.ln(), p.1.ln())).unzip();
        let (sx, sy) = (x.iter().sum::<f64>(), y.iter().sum::<f64>());
        let sxy = x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>();
        let sxx = x.iter().map(|a| a * a).sum::<f64>();
        (n * sxy - sx * sy) / (n * sxx - sx * sx)
    };
    let want = (slope(&reg[0]) + slope(&reg[1])) / 2.0;
    assert!((h.check.slope.mean - want).abs() < 1e-12, "{} ≠ {want}", h.check.slope.mean);
    assert_eq!((h.check.quantity, h.check.n, h.check.over.as_str()), (Quantity::Horizon, 2, "seeds"));
    assert_eq!((h.check.from, h.check.to), (40.0, 160.0));
    // Its statistics as rows of a report's CSV.
    let csv = stats.csv("thy-horizon".into()).unwrap();
    assert!(message(stats.csv(JsValue::from_f64(1.0))).contains("experiment"));
    assert_eq!(csv.lines().count() as u32, js_sys::Array::from(&stats.stats().unwrap()).length());
    assert!(csv.lines().all(|l| l.starts_with("thy-horizon,own-policy,")), "{csv}");
    assert!(
        csv.contains("\nthy-horizon,own-policy,final_avg_regret,160,2,")
            || csv.starts_with("thy-horizon,own-policy,final_avg_regret,160,2,"),
        "{csv}"
    );
    // A run added at a swept parameter's value: not a sweep over the horizon.
    let mut run = run_at(40, 0);
    stats.add(&mut run, Some(0.5)).unwrap();
    let m = message(stats.theory_across_horizons());
    assert!(m.contains("x = 0.5, which is not its horizon"), "{m}");
}
