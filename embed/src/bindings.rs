//! The JS API of `www/pkg-embed` (docs/JS-API.md, "Sentence embeddings"). Every export takes
//! `JsValue`s and converts them with a readable error, so no JS value makes it trap (the same rule
//! as the engine's exports).

use js_sys::{Array, Float32Array, Uint8Array};
use wasm_bindgen::prelude::*;

/// A loaded all-MiniLM-L6-v2 (see the crate docs).
#[wasm_bindgen(js_name = Embedder)]
pub struct JsEmbedder {
    inner: crate::Embedder,
}

fn bytes(v: &JsValue, what: &str) -> Result<Vec<u8>, JsError> {
    if let Some(s) = v.as_string() {
        return Ok(s.into_bytes());
    }
    if v.is_instance_of::<Uint8Array>() {
        return Ok(Uint8Array::new(v).to_vec());
    }
    if v.is_instance_of::<js_sys::ArrayBuffer>() {
        return Ok(Uint8Array::new(v).to_vec());
    }
    Err(JsError::new(&format!("{what} must be a Uint8Array, an ArrayBuffer or a string")))
}

#[wasm_bindgen(js_class = Embedder)]
impl JsEmbedder {
    /// `Embedder.load(weights, tokenizerJson, configJson)`: `weights` the model's safetensors
    /// (f16 or f32) as a Uint8Array/ArrayBuffer; `tokenizerJson` and `configJson` as strings or
    /// bytes.
    pub fn load(
        weights: JsValue,
        tokenizer_json: JsValue,
        config_json: JsValue,
    ) -> Result<JsEmbedder, JsError> {
        let w = bytes(&weights, "weights")?;
        let t = bytes(&tokenizer_json, "tokenizerJson")?;
        let c = bytes(&config_json, "configJson")?;
        let c = String::from_utf8(c).map_err(|_| JsError::new("configJson is not UTF-8"))?;
        crate::Embedder::from_bytes(&w, &t, &c)
            .map(|inner| JsEmbedder { inner })
            .map_err(|e| JsError::new(&e))
    }

    /// Width of an embedding row (384).
    #[wasm_bindgen(getter)]
    pub fn dim(&self) -> usize {
        self.inner.dim()
    }

    /// `embed(texts: string[])`: a Float32Array of `texts.length × dim` floats, row-major, each
    /// row L2-normalised.
    pub fn embed(&self, texts: JsValue) -> Result<Float32Array, JsError> {
        if !Array::is_array(&texts) {
            return Err(JsError::new("embed: texts must be an array of strings"));
        }
        let arr = Array::from(&texts);
        if arr.length() as usize > crate::MAX_TEXTS {
            return Err(JsError::new(&format!(
                "embed: {} texts in one call; give at most {} per call",
                arr.length(),
                crate::MAX_TEXTS
            )));
        }
        let mut v = Vec::with_capacity(arr.length() as usize);
        for (i, t) in arr.iter().enumerate() {
            match t.as_string() {
                Some(s) => v.push(s),
                None => return Err(JsError::new(&format!("embed: texts[{i}] is not a string"))),
            }
        }
        let out = self.inner.embed(&v).map_err(|e| JsError::new(&e))?;
        Ok(Float32Array::from(out.as_slice()))
    }
}

/// `gpt2Tokens(text)`: the GPT-2 (r50k_base) token count of a string, the shared data's `tokens`.
#[wasm_bindgen(js_name = gpt2Tokens)]
pub fn gpt2_tokens(text: JsValue) -> Result<u32, JsError> {
    let s = text.as_string().ok_or_else(|| JsError::new("gpt2Tokens: text must be a string"))?;
    crate::gpt2_tokens(&s).map(|n| n as u32).map_err(|e| JsError::new(&e))
}
