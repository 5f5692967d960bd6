//! Conversions and input checks shared by the exports: engine errors to JS errors, JS numbers to
//! counts, flat arrays to point sets, result objects with typed-array fields.

use super::types::JsPhi;
use crate::error::Error;
use crate::mismatch::Mismatch;
use crate::space::{Metric, Points};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An engine error as a JS `Error` with the engine's message.
pub(crate) fn js_err(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

/// Shorthand for results that cross the boundary.
pub(crate) type JsResult<T> = Result<T, JsError>;

// ---- Arguments a JS caller could give any value for ----
//
// The release JS glue passes arguments on unchecked: a number where a `&str` is declared reaches
// the module as a garbage pointer and length, and an object `{ length: 2**30 }` where a slice is
// declared asks the allocator for 4 GiB, which aborts. Either kills the instance (a
// `WebAssembly.RuntimeError`), and every later call fails too. So every string and array
// parameter of the API is a `JsValue`, checked here with a readable error naming it
// (scripts/hostile_pkg.mjs sweeps every export with every kind of JS value).

/// What a JS value is, for messages (`typeof`, with `null` and arrays told apart).
fn kind(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if js_sys::Array::is_array(v) {
        "an array".into()
    } else {
        let t = v.js_typeof().as_string().unwrap_or_default();
        match t.as_str() {
            "object" | "undefined" => t,
            _ => format!("a {t}"),
        }
    }
}

fn wrong_type(name: &str, expected: &str, v: &JsValue) -> JsError {
    js_err(Error::param(name, format!("must be {expected}, got {}", kind(v))))
}

/// A string argument (`&str` in the API's TypeScript).
pub(crate) fn string(name: &str, v: &JsValue) -> JsResult<String> {
    v.as_string().ok_or_else(|| wrong_type(name, "a string", v))
}

/// `undefined` and `null` as `None` (an optional argument left out).
pub(crate) fn optional(v: JsValue) -> Option<JsValue> {
    if v.is_undefined() || v.is_null() {
        None
    } else {
        Some(v)
    }
}

/// A zeroed vector of `n` elements, or a readable error if the memory cannot be had (a failed
/// allocation would abort the module).
fn alloc<T: Copy + Default>(name: &str, n: usize) -> JsResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        js_err(Error::unsupported(format!(
            "`{name}` has {n} elements, more than fits in this module's memory"
        )))
    })?;
    v.resize(n, T::default());
    Ok(v)
}

/// A numeric array argument: the typed array `A` itself (copied), or any other array-like of
/// numbers — a plain array, another non-BigInt typed array — read element by element, each
/// element checked by `accept` (which says what it must be). Anything else is refused.
fn numbers<T, A>(
    name: &str,
    v: &JsValue,
    expected: &str,
    copy: impl Fn(&A, &mut [T]),
    len: impl Fn(&A) -> u32,
    accept: (&str, fn(f64) -> Option<T>),
) -> JsResult<Vec<T>>
where
    T: Copy + Default,
    A: JsCast,
{
    if let Some(a) = v.dyn_ref::<A>() {
        let mut out = alloc(name, len(a) as usize)?;
        copy(a, &mut out);
        return Ok(out);
    }
    let bigint = v.is_instance_of::<js_sys::BigInt64Array>() || v.is_instance_of::<js_sys::BigUint64Array>();
    let array = if js_sys::Array::is_array(v) {
        v.clone().unchecked_into::<js_sys::Array>()
    } else if js_sys::ArrayBuffer::is_view(v) && !bigint && !v.is_instance_of::<js_sys::DataView>() {
        js_sys::Array::from(v)
    } else {
        return Err(wrong_type(name, expected, v));
    };
    let mut out = alloc(name, array.length() as usize)?;
    for (i, slot) in out.iter_mut().enumerate() {
        let x = array.get(i as u32);
        *slot = x.as_f64().and_then(accept.1).ok_or_else(|| {
            js_err(Error::param(name, format!("element {i} must be {}, got {}", accept.0, kind(&x))))
        })?;
    }
    Ok(out)
}

/// Points as a `Float32Array` (or an array of numbers).
pub(crate) fn f32s(name: &str, v: &JsValue) -> JsResult<Vec<f32>> {
    numbers(
        name,
        v,
        "a Float32Array or an array of numbers",
        js_sys::Float32Array::copy_to,
        js_sys::Float32Array::length,
        ("a number", |x| Some(x as f32)),
    )
}

/// Weights and costs as a `Float64Array` (or an array of numbers).
pub(crate) fn f64s(name: &str, v: &JsValue) -> JsResult<Vec<f64>> {
    numbers(
        name,
        v,
        "a Float64Array or an array of numbers",
        js_sys::Float64Array::copy_to,
        js_sys::Float64Array::length,
        ("a number", Some),
    )
}

/// Indices as a `Uint32Array` (or an array of whole numbers in `[0, 2³²)`).
pub(crate) fn u32s_in(name: &str, v: &JsValue) -> JsResult<Vec<u32>> {
    numbers(
        name,
        v,
        "a Uint32Array or an array of whole numbers",
        js_sys::Uint32Array::copy_to,
        js_sys::Uint32Array::length,
        ("a whole number in [0, 2³²)", |x| {
            (x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x)).then_some(x as u32)
        }),
    )
}

/// Bytes as a `Uint8Array` (or an array of whole numbers in `[0, 255]`).
pub(crate) fn bytes(name: &str, v: &JsValue) -> JsResult<Vec<u8>> {
    numbers(
        name,
        v,
        "a Uint8Array or an array of bytes",
        js_sys::Uint8Array::copy_to,
        js_sys::Uint8Array::length,
        ("a whole number in [0, 255]", |x| {
            (x.fract() == 0.0 && (0.0..=255.0).contains(&x)).then_some(x as u8)
        }),
    )
}

/// A JS number that must be a whole number in `[min, 2³²)` (counts, dimensions, `k`), named in
/// the error. wasm-bindgen would silently wrap `-1` or truncate `2.5` for a `usize` parameter.
pub(crate) fn whole(name: &str, v: f64, min: u32) -> JsResult<usize> {
    if v.is_finite() && v.fract() == 0.0 && v >= min as f64 && v <= u32::MAX as f64 {
        Ok(v as usize)
    } else {
        Err(js_err(Error::param(name, format!("must be a whole number ≥ {min}, got {v}"))))
    }
}

/// Largest embedding dimension accepted from JS (sentence embeddings are ≤ 4,096; this keeps
/// every byte-size computation far from overflow on 32-bit wasm).
pub(crate) const MAX_DIM: usize = 1 << 16;

/// A JS number that must be a valid dimension: a whole number in `[1, MAX_DIM]`.
pub(crate) fn dimension(v: f64) -> JsResult<usize> {
    let d = whole("dim", v, 1)?;
    if d > MAX_DIM {
        return Err(js_err(Error::param("dim", format!("must be at most {MAX_DIM}, got {d}"))));
    }
    Ok(d)
}

/// A flat row-major buffer as points of dimension `dim`: rejects `dim = 0`, a length that is not a
/// multiple of `dim`, NaN/±Inf and (unless `allow_empty`) no points at all. `what` names the
/// argument in messages.
pub(crate) fn to_points(what: &str, flat: &[f32], dim: usize, allow_empty: bool) -> JsResult<Points> {
    if flat.is_empty() && !allow_empty {
        return Err(js_err(Error::data(format!("`{what}` is empty: at least one point is needed"))));
    }
    Points::from_flat(dim, flat.to_vec()).map_err(|e| js_err(Error::data(format!("`{what}`: {e}"))))
}

/// The metric `d = ‖x − y‖ / D` for a JS `distScale`.
pub(crate) fn metric(dist_scale: f64) -> JsResult<Metric> {
    Metric::new(dist_scale).map_err(js_err)
}

/// One number per point: `values.len() == n`, every value finite.
pub(crate) fn per_point(what: &str, values: &[f64], n: usize, points_name: &str) -> JsResult<()> {
    if values.len() != n {
        return Err(js_err(Error::data(format!(
            "`{what}` has {} entries but `{points_name}` has {n} points",
            values.len()
        ))));
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(js_err(Error::data(format!("`{what}`[{i}] is {} (must be finite)", values[i]))));
    }
    Ok(())
}

/// Costs `c(x)` must lie in `(0, 1]` (SPEC §2): a cost of 0, a negative one or one above 1 is
/// refused with its position rather than silently clipped (the losses would otherwise be wrong
/// without a word). Call after [`per_point`] (which checks the length and finiteness).
pub(crate) fn unit_costs(what: &str, values: &[f64]) -> JsResult<()> {
    if let Some(i) = values.iter().position(|&c| !(c > 0.0 && c <= 1.0)) {
        return Err(js_err(Error::data(format!(
            "`{what}`[{i}] = {} is outside (0, 1]: costs are normalised token counts (SPEC §2)",
            values[i]
        ))));
    }
    Ok(())
}

/// Largest memory a generated stream may take in the browser (its arrivals, evaluation sample and
/// offline log as `f32` vectors plus per-entry numbers): beyond it the allocation would fail and
/// abort the module (a wasm trap), so the request is refused first.
pub(crate) const MAX_STREAM_BYTES: f64 = (1u64 << 30) as f64;

/// Refuses a configuration whose stream would not fit [`MAX_STREAM_BYTES`] for `dim`-dimensional
/// data (estimate: `(T + n_eval + log_len) · (4·dim + 32)` bytes).
pub(crate) fn stream_fits(params: &crate::config::Params, dim: usize) -> JsResult<()> {
    let entries = params.horizon as f64 + params.n_eval as f64 + params.log_len as f64;
    let bytes = entries * (4.0 * dim as f64 + 32.0);
    if bytes > MAX_STREAM_BYTES {
        return Err(js_err(Error::unsupported(format!(
            "a stream of T = {} rounds, n_eval = {} and log_len = {} of {dim}-dimensional queries needs about {:.0} MB, more than the {:.0} MB a browser run may take; lower `horizon` or `n_eval`",
            params.horizon,
            params.n_eval,
            params.log_len,
            bytes / 1e6,
            MAX_STREAM_BYTES / 1e6
        ))));
    }
    Ok(())
}

/// Indices into a set of `n` items: each `< n`, no repeats.
pub(crate) fn indices(what: &str, idx: &[u32], n: usize) -> JsResult<Vec<usize>> {
    let mut seen = vec![false; n];
    idx.iter()
        .map(|&i| {
            let i = i as usize;
            if i >= n {
                return Err(js_err(Error::data(format!(
                    "`{what}` contains index {i}, but there are only {n} points"
                ))));
            }
            if std::mem::replace(&mut seen[i], true) {
                return Err(js_err(Error::data(format!("`{what}` contains index {i} twice"))));
            }
            Ok(i)
        })
        .collect()
}

/// `φ` from an optional `{ kind, zeta }` object; `undefined`/`null` is the SPEC default
/// (clipped linear, ζ = 1).
pub(crate) fn mismatch(phi: Option<JsPhi>) -> JsResult<Mismatch> {
    let m = match phi.map(JsValue::from) {
        None => Mismatch::default(),
        Some(v) if v.is_undefined() || v.is_null() => Mismatch::default(),
        Some(v) => {
            let expected = "(expected { kind: \"clipped_linear\" | \"clipped_quadratic\", zeta: number })";
            // JSON has no NaN or ±∞, which would read as `null` below: name them as they are
            let zeta = js_sys::Reflect::get(&v, &JsValue::from_str("zeta")).ok().and_then(|z| z.as_f64());
            if let Some(z) = zeta.filter(|z| !z.is_finite()) {
                return Err(js_err(Error::param(
                    "phi",
                    format!("zeta must be a finite number, got {z} {expected}"),
                )));
            }
            // read as JSON by the engine's one reader (`crate::json`), as every object the page
            // passes, so `Mismatch` has one deserialiser in the module
            let j: serde_json::Value = serde_wasm_bindgen::from_value(v)
                .map_err(|e| js_err(Error::param("phi", format!("{e} {expected}"))))?;
            <Mismatch as crate::json::FromJson>::from_json_value(&j)
                .map_err(|e| js_err(Error::param("phi", format!("{e} {expected}"))))?
        }
    };
    m.validate().map_err(js_err)?;
    Ok(m)
}

/// `usize` indices as a `Uint32Array` (every index the engine returns is below the number of
/// points given, which came from a JS array, so it fits).
pub(crate) fn u32s(v: &[usize]) -> js_sys::Uint32Array {
    let v: Vec<u32> = v.iter().map(|&i| i as u32).collect();
    js_sys::Uint32Array::from(&v[..])
}

/// A plain JS object built field by field.
pub(crate) struct Obj(js_sys::Object);

impl Obj {
    pub(crate) fn new() -> Self {
        Obj(js_sys::Object::new())
    }
    pub(crate) fn set(self, key: &str, value: impl Into<JsValue>) -> Self {
        // Setting a data property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }
    pub(crate) fn build(self) -> JsValue {
        self.0.into()
    }
}

/// A serialisable value as a JSON-compatible JS value (`None` → `null`, maps → objects).
pub(crate) fn to_js<T: serde::Serialize>(v: &T) -> JsResult<JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("internal: could not convert a result to JS: {e}")))
}
