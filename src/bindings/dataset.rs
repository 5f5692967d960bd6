//! The `Dataset` class: a query universe with its costs, distance scale, checksum and a 2-D
//! projection for drawing it.

use super::convert::{bytes, dimension, f32s, js_err, optional, string, to_js, to_points, whole, JsResult};
use crate::dataset::{nq_trivia, plane, synthetic, Dataset, UserFiles};
use crate::error::Error;
use crate::projection::{Projection, DEFAULT_FIT_POINTS};
use std::cell::OnceCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Default cost floor `c_floor` (SPEC §2).
const C_FLOOR: f64 = 0.01;

/// Largest `perSource` of `Dataset.nqTrivia` (keeps the byte counts of the embedding files far
/// from overflowing 32-bit wasm; the shared data has 2,500 used per source).
const MAX_PER_SOURCE: usize = 1_000_000;

/// A query universe (SPEC §2, §7): embedded queries, their GPT-2 token counts, the costs
/// `c(x) ∈ (0, 1]` derived from them, the distance scale `D` and a checksum. Immutable.
/// Call `free()` when done with it (or rely on the garbage collector's finalizer).
#[wasm_bindgen(js_name = Dataset)]
pub struct JsDataset {
    inner: Arc<Dataset>,
    projection: OnceCell<Projection>,
}

impl JsDataset {
    fn wrap(d: Dataset) -> JsDataset {
        JsDataset { inner: Arc::new(d), projection: OnceCell::new() }
    }

    /// The engine's dataset (for the other binding classes).
    pub fn inner(&self) -> &Arc<Dataset> {
        &self.inner
    }

    /// The dataset's 2-D projection (fitted once), for the other binding classes.
    pub(crate) fn fitted_projection(&self) -> JsResult<&Projection> {
        self.fitted()
    }

    /// `Dataset.fromJsonl` with typed arguments, for Rust callers (the export checks each JS argument's type,
    /// then calls this).
    pub fn from_jsonl(
        name: &str,
        bytes: &[u8],
        embeddings: Option<Vec<u8>>,
        dim: Option<f64>,
        c_floor: Option<f64>,
    ) -> JsResult<JsDataset> {
        JsDataset::from_user_files(name, bytes, embeddings, dim, c_floor, None, None)
    }

    /// [`JsDataset::from_jsonl`] with the group field of the `bursty` model and an index file of
    /// arrivals (name, bytes) for `replay`.
    pub fn from_user_files(
        name: &str,
        bytes: &[u8],
        embeddings: Option<Vec<u8>>,
        dim: Option<f64>,
        c_floor: Option<f64>,
        group_by: Option<&str>,
        replay_index: Option<(&str, &[u8])>,
    ) -> JsResult<JsDataset> {
        let dim = match (&embeddings, dim) {
            (Some(_), Some(d)) => Some(dimension(d)?),
            (Some(_), None) => {
                return Err(js_err(Error::param("dim", "is required when `embeddings` are given")));
            }
            (None, _) => None,
        };
        let files = UserFiles {
            jsonl_name: name,
            jsonl: bytes,
            embeddings: embeddings.as_deref().map(|b| ("the embedding file", b)),
            dim,
            group_by,
            replay_index,
        };
        Ok(JsDataset::wrap(Dataset::from_user_files(&files, resolve_c_floor(c_floor)?).map_err(js_err)?))
    }

    /// `Dataset.nqTrivia` with typed arguments, for Rust callers (the export checks each JS argument's type,
    /// then calls this).
    pub fn nq_trivia(
        nq_jsonl: &str,
        nq_emb: &[u8],
        tq_jsonl: &str,
        tq_emb: &[u8],
        per_source: Option<f64>,
        c_floor: Option<f64>,
    ) -> JsResult<JsDataset> {
        let per_source = whole("per_source", per_source.unwrap_or(nq_trivia::PER_SOURCE as f64), 1)?;
        if per_source > MAX_PER_SOURCE {
            return Err(js_err(Error::param("per_source", format!("must be at most {MAX_PER_SOURCE}"))));
        }
        let d =
            nq_trivia::from_parts(nq_jsonl, nq_emb, tq_jsonl, tq_emb, per_source, resolve_c_floor(c_floor)?)
                .map_err(js_err)?;
        Ok(JsDataset::wrap(d))
    }

    /// `Dataset.project` with typed arguments, for Rust callers (the export checks each JS argument's type,
    /// then calls this).
    pub fn project(&self, points: &[f32]) -> JsResult<Vec<f64>> {
        let p = to_points("points", points, self.dim(), true)?;
        self.fitted()?.project_all(&p).map_err(js_err)
    }

    /// The projection fitted on (a strided sample of at most 2,000 points of) the universe, once.
    fn fitted(&self) -> JsResult<&Projection> {
        if let Some(p) = self.projection.get() {
            return Ok(p);
        }
        let p = Projection::fit_sample(&self.inner.points, DEFAULT_FIT_POINTS).map_err(js_err)?;
        Ok(self.projection.get_or_init(|| p))
    }
}

/// The `options` of `Dataset.fromJsonl` / `Dataset.nqTrivia`, each field checked (any JS value
/// may arrive: a wrong one is refused with a message naming it).
#[derive(Default)]
struct LoadOptions {
    group_by: Option<String>,
    index: Option<(String, Vec<u8>)>,
    progress: Option<js_sys::Function>,
    /// nq-trivia's gold answers (SPEC §14): `nqAnswers`, `tqAnswers` (the answers files' text).
    answers: Option<(String, String)>,
}

impl LoadOptions {
    fn from_js(v: JsValue) -> JsResult<LoadOptions> {
        let Some(v) = optional(v) else { return Ok(LoadOptions::default()) };
        if !v.is_object() || js_sys::Array::is_array(&v) {
            return Err(js_err(Error::param(
                "options",
                "must be an object such as {groupBy, replayIndex, replayIndexName, onProgress}",
            )));
        }
        let get = |key: &str| -> JsResult<Option<JsValue>> {
            js_sys::Reflect::get(&v, &JsValue::from_str(key))
                .map(optional)
                .map_err(|_| js_err(Error::param("options", format!("`{key}` could not be read"))))
        };
        let group_by = get("groupBy")?.map(|g| string("options.groupBy", &g)).transpose()?;
        let index = get("replayIndex")?.map(|b| bytes("options.replayIndex", &b)).transpose()?;
        let index_name =
            get("replayIndexName")?.map(|n| string("options.replayIndexName", &n)).transpose()?;
        let progress = match get("onProgress")? {
            None => None,
            Some(f) => Some(f.dyn_into::<js_sys::Function>().map_err(|_| {
                js_err(Error::param("options.onProgress", "must be a function (rowsDone, rows) => void"))
            })?),
        };
        if index_name.is_some() && index.is_none() {
            return Err(js_err(Error::param(
                "options.replayIndexName",
                "names `replayIndex`; give that too",
            )));
        }
        let index = index.map(|b| (index_name.unwrap_or_else(|| "the replay index".into()), b));
        let nq_answers = get("nqAnswers")?.map(|a| string("options.nqAnswers", &a)).transpose()?;
        let tq_answers = get("tqAnswers")?.map(|a| string("options.tqAnswers", &a)).transpose()?;
        let answers = match (nq_answers, tq_answers) {
            (Some(a), Some(b)) => Some((a, b)),
            (None, None) => None,
            _ => {
                return Err(js_err(Error::param(
                    "options",
                    "`nqAnswers` and `tqAnswers` go together (nq.answers.jsonl and triviaqa.answers.jsonl); give both or neither",
                )))
            }
        };
        Ok(LoadOptions { group_by, index, progress, answers })
    }

    /// Runs `build` with the progress callback installed (its throws are ignored).
    fn run<T>(&self, build: impl FnOnce() -> T) -> T {
        match &self.progress {
            None => build(),
            Some(f) => {
                let f = f.clone();
                crate::dataset::with_progress(
                    Box::new(move |done, total| {
                        let _ = f.call2(
                            &JsValue::NULL,
                            &JsValue::from(done as f64),
                            &JsValue::from(total as f64),
                        );
                    }),
                    build,
                )
            }
        }
    }
}

fn resolve_c_floor(v: Option<f64>) -> JsResult<f64> {
    let c = v.unwrap_or(C_FLOOR);
    if c.is_finite() && c > 0.0 && c <= 1.0 {
        Ok(c)
    } else {
        Err(js_err(Error::param("c_floor", format!("the cost floor must lie in (0, 1], got {c}"))))
    }
}

/// Gives the engine the `synthetic` universe's embeddings (SPEC §7): the bytes of
/// `synthetic.emb.f32`, the file beside the package's `.wasm` (`data/synthetic/prompts.emb.f32`,
/// 50 × 384 little-endian `f32`). The `.wasm` leaves them out, as data the page fetches once; every
/// instance of the module needs them before `Dataset.synthetic()` or a run on `synthetic`. Throws
/// unless they are exactly the built-in file (size and SHA-256); giving them again is harmless.
///
/// ```js
/// const res = await fetch(new URL('synthetic.emb.f32', pkgUrl));
/// provideSynthetic(new Uint8Array(await res.arrayBuffer()));
/// ```
#[wasm_bindgen(js_name = provideSynthetic)]
pub fn provide_synthetic(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | number[]")] bytes: JsValue,
) -> JsResult<()> {
    synthetic::provide_embeddings(&self::bytes("bytes", &bytes)?).map_err(js_err)
}

#[wasm_bindgen(js_class = Dataset)]
impl JsDataset {
    /// The built-in `synthetic` universe (SPEC §7): 50 prompts, 384-dimensional embeddings,
    /// costs from their token counts with floor `cFloor` (default 0.01). In a browser its
    /// embeddings must have been given to `provideSynthetic` first.
    pub fn synthetic(#[wasm_bindgen(js_name = cFloor)] c_floor: Option<f64>) -> JsResult<JsDataset> {
        Ok(JsDataset::wrap(synthetic::universe(resolve_c_floor(c_floor)?).map_err(js_err)?))
    }

    /// The 2-D `plane` dataset (SPEC §7): the six blob centres of its arrival mixture, with the
    /// smooth cost surface and `D = √2`.
    pub fn plane() -> JsResult<JsDataset> {
        Ok(JsDataset::wrap(plane::universe().map_err(js_err)?))
    }

    /// A user dataset from JSONL bytes, one `{"text", "tokens", "embedding"?}` object per line
    /// (SPEC §7). Without `embeddings` every line must carry its `embedding`; with them,
    /// `embeddings` holds the rows as little-endian `f32` (the binary layout of the shared data)
    /// and `dim` is required. `options`: `groupBy`, the record field whose values are the groups of
    /// the `bursty` arrival model; `replayIndex` (bytes) and `replayIndexName`, an index file of
    /// arrivals for `replay` (one record id, or row number from 0 when the records have no ids, per
    /// line); `onProgress(rowsDone, rows)`, called as the distances are measured (the slow part of
    /// a large file). Throws on wrong dimensions, NaN, empty input, bad JSON, a bad index file.
    #[wasm_bindgen(js_name = fromJsonl)]
    pub fn from_jsonl_js(
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | number[]")] bytes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array | number[] | null")] embeddings: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] dim: Option<f64>,
        #[wasm_bindgen(js_name = cFloor, unchecked_optional_param_type = "number | null")] c_floor: Option<
            f64,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "LoadOptions | null")] options: JsValue,
    ) -> JsResult<JsDataset> {
        let embeddings = optional(embeddings).map(|e| self::bytes("embeddings", &e)).transpose()?;
        let o = LoadOptions::from_js(options)?;
        if o.answers.is_some() {
            return Err(js_err(Error::param(
                "options",
                "`nqAnswers` and `tqAnswers` are for Dataset.nqTrivia; a JSONL gives `answers` or `label` on its records",
            )));
        }
        let (name, bytes) = (string("name", &name)?, self::bytes("bytes", &bytes)?);
        o.run(|| {
            JsDataset::from_user_files(
                &name,
                &bytes,
                embeddings,
                dim,
                c_floor,
                o.group_by.as_deref(),
                o.index.as_ref().map(|(n, b)| (n.as_str(), &b[..])),
            )
        })
    }

    /// The `nq-trivia` universe (SPEC §7) from the four files of the shared data: the first
    /// `perSource` (default 2,500) questions of each source, 384-dimensional.
    #[wasm_bindgen(js_name = nqTrivia)]
    pub fn nq_trivia_js(
        #[wasm_bindgen(js_name = nqJsonl, unchecked_param_type = "string")] nq_jsonl: JsValue,
        #[wasm_bindgen(js_name = nqEmb, unchecked_param_type = "Uint8Array | number[]")] nq_emb: JsValue,
        #[wasm_bindgen(js_name = tqJsonl, unchecked_param_type = "string")] tq_jsonl: JsValue,
        #[wasm_bindgen(js_name = tqEmb, unchecked_param_type = "Uint8Array | number[]")] tq_emb: JsValue,
        #[wasm_bindgen(js_name = perSource, unchecked_optional_param_type = "number | null")]
        per_source: Option<f64>,
        #[wasm_bindgen(js_name = cFloor, unchecked_optional_param_type = "number | null")] c_floor: Option<
            f64,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "LoadOptions | null")] options: JsValue,
    ) -> JsResult<JsDataset> {
        let (nq_jsonl, nq_emb) = (string("nqJsonl", &nq_jsonl)?, bytes("nqEmb", &nq_emb)?);
        let (tq_jsonl, tq_emb) = (string("tqJsonl", &tq_jsonl)?, bytes("tqEmb", &tq_emb)?);
        let o = LoadOptions::from_js(options)?;
        if o.group_by.is_some() || o.index.is_some() {
            return Err(js_err(Error::param(
                "options",
                "nq-trivia has its own groups; only `onProgress`, `nqAnswers` and `tqAnswers` apply to it",
            )));
        }
        let Some((nq_a, tq_a)) = &o.answers else {
            return o
                .run(|| JsDataset::nq_trivia(&nq_jsonl, &nq_emb, &tq_jsonl, &tq_emb, per_source, c_floor));
        };
        let per_source = whole("per_source", per_source.unwrap_or(nq_trivia::PER_SOURCE as f64), 1)?;
        if per_source > MAX_PER_SOURCE {
            return Err(js_err(Error::param("per_source", format!("must be at most {MAX_PER_SOURCE}"))));
        }
        let c_floor = resolve_c_floor(c_floor)?;
        let answers = Ok((nq_a.as_str(), tq_a.as_str()));
        o.run(|| {
            nq_trivia::from_parts_with_answers(
                &nq_jsonl, &nq_emb, &tq_jsonl, &tq_emb, answers, per_source, c_floor,
            )
            .map(JsDataset::wrap)
            .map_err(js_err)
        })
    }

    /// The dataset's name (`"synthetic"`, `"plane"`, `"nq-trivia"` or the user's).
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// Number of queries in the universe.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }

    /// Number of arrivals of the index file of arrivals read with the dataset (`replay`'s `T`),
    /// or `undefined` without one.
    #[wasm_bindgen(getter, js_name = replayLength)]
    pub fn replay_length(&self) -> Option<usize> {
        self.inner.replay.as_ref().map(|r| r.order.len())
    }

    /// Dimension of the embeddings.
    #[wasm_bindgen(getter)]
    pub fn dim(&self) -> usize {
        self.inner.points.dim()
    }

    /// `D`, the largest pairwise distance of the universe: distances are `‖x − y‖ / D` (SPEC §1).
    #[wasm_bindgen(getter, js_name = distScale)]
    pub fn dist_scale(&self) -> f64 {
        self.inner.dist_scale
    }

    /// First 16 hex digits of the sha256 of the dimension, the vectors and the token counts.
    #[wasm_bindgen(getter)]
    pub fn checksum(&self) -> String {
        self.inner.checksum.clone()
    }

    /// Name, size, dimension, `D` and checksum in one object (as printed with every result).
    #[wasm_bindgen(unchecked_return_type = "DatasetInfo")]
    pub fn info(&self) -> JsResult<JsValue> {
        to_js(&self.inner.info())
    }

    /// `c(x)` of every query (SPEC §2), in `(0, 1]`.
    pub fn costs(&self) -> Vec<f64> {
        self.inner.costs.clone()
    }

    /// GPT-2 token count of every query.
    pub fn tokens(&self) -> Vec<u32> {
        self.inner.tokens.clone()
    }

    /// The text of every query.
    pub fn texts(&self) -> Vec<String> {
        self.inner.texts.clone()
    }

    /// The source group of every query (an index into `groupNames()`; nq-trivia: 0 = NQ,
    /// 1 = TriviaQA).
    pub fn groups(&self) -> Vec<u8> {
        self.inner.groups.clone()
    }

    /// The names of the source groups.
    #[wasm_bindgen(js_name = groupNames)]
    pub fn group_names(&self) -> Vec<String> {
        self.inner.group_names.clone()
    }

    /// Every embedding, flat row-major: `size × dim` numbers.
    pub fn points(&self) -> Vec<f32> {
        self.inner.points.as_flat().to_vec()
    }

    /// The 2-D PCA coordinates of every query, flat `[x0, y0, x1, y1, …]`. The projection is
    /// fitted once per dataset (on at most 2,000 evenly strided queries) with a fixed sign
    /// convention, so the picture is the same on every call; `project()` uses the same map.
    pub fn projection(&self) -> JsResult<Vec<f64>> {
        self.fitted()?.project_all(&self.inner.points).map_err(js_err)
    }

    /// The same 2-D coordinates for any points of this dataset's dimension (arrivals, centers,
    /// a cache), given flat row-major; returns `[x0, y0, x1, y1, …]`.
    #[wasm_bindgen(js_name = project)]
    pub fn project_js(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] points: JsValue,
    ) -> JsResult<Vec<f64>> {
        self.project(&f32s("points", &points)?)
    }

    /// The fraction of the universe's variance each of the two projection axes shows.
    #[wasm_bindgen(js_name = explainedVariance)]
    pub fn explained_variance(&self) -> JsResult<Vec<f64>> {
        Ok(self.fitted()?.explained.to_vec())
    }
}
