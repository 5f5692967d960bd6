//! Sentence embeddings for the playground's "Ask a question": all-MiniLM-L6-v2 run with candle's
//! BERT, plus the GPT-2 (r50k_base) token count that gives a typed question its cost (SPEC §2).
//!
//! The embedding is the one the shared data was made with (`../shared/data/README.md`,
//! "Embeddings"): WordPiece tokens truncated to 256, the 6-layer BERT, mean pooling over the
//! attention mask, then L2 normalisation. The token count is
//! `len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))` — no special tokens — through
//! `tiktoken-rs` 0.12.1, whose `assets/r50k_base.tiktoken` is the very file the data used.
//!
//! The crate is its own wasm package (`www/pkg-embed`, `scripts/wasm-embed.sh`) so that the
//! engine's package stays small; the page loads it only when a reader asks a question.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

#[cfg(target_arch = "wasm32")]
mod bindings;

/// all-MiniLM-L6-v2's `max_seq_length` (sentence-transformers' `sentence_bert_config.json`):
/// longer texts are truncated to this many word-pieces, `[CLS]` and `[SEP]` included.
pub const MAX_TOKENS: usize = 256;

/// Width of an embedding row.
pub const DIM: usize = 384;

/// A loaded sentence-embedding model.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    hidden: usize,
}

impl Embedder {
    /// Builds the model from a safetensors buffer (f16 or f32; computed in f32), the tokenizer's
    /// `tokenizer.json` and the model's `config.json`. Errors are readable sentences.
    pub fn from_bytes(weights: &[u8], tokenizer_json: &[u8], config_json: &str) -> Result<Self, String> {
        let config: Config = serde_json::from_str(config_json)
            .map_err(|e| format!("config.json is not a BERT config: {e}"))?;
        let mut tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|e| format!("tokenizer.json could not be read: {e}"))?;
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| format!("tokenizer truncation: {e}"))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..Default::default()
        }));
        let vb = VarBuilder::from_slice_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| format!("the weights are not a safetensors file: {e}"))?;
        let model =
            BertModel::load(vb, &config).map_err(|e| format!("the weights do not match config.json: {e}"))?;
        Ok(Self { model, tokenizer, hidden: config.hidden_size })
    }

    /// Width of the embeddings (384 for all-MiniLM-L6-v2).
    pub fn dim(&self) -> usize {
        self.hidden
    }

    /// Embeds `texts` as one batch: `texts.len() × dim()` floats, row-major, each row of norm 1.
    /// An empty list gives an empty vector.
    /// At most [`MAX_TEXTS`] texts of at most [`MAX_TEXT_CHARS`] characters each; the batch is
    /// run [`CHUNK`] rows at a time, which bounds the memory of one call.
    pub fn embed<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<f32>, String> {
        if texts.len() > MAX_TEXTS {
            return Err(format!(
                "embed: {} texts in one call; give at most {MAX_TEXTS} per call",
                texts.len()
            ));
        }
        for (i, t) in texts.iter().enumerate() {
            check_length(t.as_ref(), &format!("embed: texts[{i}]"))?;
        }
        let mut out = Vec::with_capacity(texts.len() * self.hidden);
        for chunk in texts.chunks(CHUNK) {
            out.extend(self.embed_chunk(chunk)?);
        }
        Ok(out)
    }

    fn embed_chunk<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<f32>, String> {
        let inputs: Vec<&str> = texts.iter().map(|t| t.as_ref()).collect();
        let encodings =
            self.tokenizer.encode_batch(inputs, true).map_err(|e| format!("tokenizing failed: {e}"))?;
        let rows = encodings.len();
        let len = encodings.first().map_or(0, |e| e.get_ids().len());
        let mut ids = Vec::with_capacity(rows * len);
        let mut types = Vec::with_capacity(rows * len);
        let mut mask = Vec::with_capacity(rows * len);
        for e in &encodings {
            ids.extend(e.get_ids());
            types.extend(e.get_type_ids());
            mask.extend(e.get_attention_mask());
        }
        self.forward(ids, types, mask, rows, len).map_err(|e| format!("the model failed: {e}"))
    }

    fn forward(
        &self,
        ids: Vec<u32>,
        types: Vec<u32>,
        mask: Vec<u32>,
        rows: usize,
        len: usize,
    ) -> candle_core::Result<Vec<f32>> {
        let dev = Device::Cpu;
        let ids = Tensor::from_vec(ids, (rows, len), &dev)?;
        let types = Tensor::from_vec(types, (rows, len), &dev)?;
        let mask = Tensor::from_vec(mask, (rows, len), &dev)?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?; // rows × len × dim
                                                                     // Mean pooling over the attention mask (sentence-transformers' Pooling, mean mode).
        let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // rows × len × 1
        let summed = hidden.broadcast_mul(&m)?.sum(1)?; // rows × dim
        let counts = m.sum(1)?.clamp(1e-9f32, f32::MAX)?; // rows × 1
        let mean = summed.broadcast_div(&counts)?;
        // Normalize: x / max(‖x‖, 1e-12), as torch.nn.functional.normalize.
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12f32, f32::MAX)?;
        mean.broadcast_div(&norm)?.flatten_all()?.to_vec1::<f32>()
    }
}

/// GPT-2 token count of `text`: r50k_base, `encode_ordinary` (no special tokens, no prefix
/// space), as the shared data's `tokens` field.
/// At most [`MAX_TEXT_CHARS`] characters: byte-pair encoding of one long word takes time
/// quadratic in its length (about 0.4 s for 40,000 letters in WebAssembly, so hours for 10 MB).
pub fn gpt2_tokens(text: &str) -> Result<usize, String> {
    check_length(text, "gpt2Tokens: text")?;
    Ok(tiktoken_rs::r50k_base_singleton().encode_ordinary(text).len())
}

/// Longest text [`Embedder::embed`] and [`gpt2_tokens`] take, in characters (a question or a
/// paragraph, not a document).
pub const MAX_TEXT_CHARS: usize = 50_000;
/// Most texts one [`Embedder::embed`] call takes.
pub const MAX_TEXTS: usize = 10_000;
/// Rows run through the model at once.
const CHUNK: usize = 16;

fn check_length(text: &str, what: &str) -> Result<(), String> {
    let n = text.chars().count();
    if n > MAX_TEXT_CHARS {
        return Err(format!("{what} is {n} characters long; at most {MAX_TEXT_CHARS} are taken (cut it, or count a long document in parts)"));
    }
    Ok(())
}
