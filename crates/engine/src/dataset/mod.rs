//! Query universes (SPEC §2, §7): the embedded queries, their GPT-2 token counts and the
//! costs derived from them, the distance scale `D`, and a checksum printed with every result.
//!
//! - [`synthetic`]: the 50 prompts written for this project (`data/synthetic/`), built in.
//! - [`nq_trivia`]: the first 2,500 NQ and 2,500 TriviaQA questions of `shared/data`.
//! - [`plane`]: the 2-D dataset, with a continuous arrival density and cost surface.
//! - user data: [`Dataset::from_jsonl`] with embeddings inline or in the binary layout.

pub mod embeddings;
mod fields;
mod ground_truth;
mod list;
pub mod nq_trivia;
pub mod plane;
pub mod records;
pub mod synthetic;

pub use list::{DatasetEntry, DATASETS};

use crate::answers::Label;
use crate::error::{Error, Result};
use crate::space::{diameter, Metric, Points};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A query universe with its costs.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub name: String,
    pub points: Points,
    pub tokens: Vec<u32>,
    pub texts: Vec<String>,
    /// Source of each query (nq-trivia: 0 = NQ, 1 = TriviaQA); 0 for one-source datasets.
    pub groups: Vec<u8>,
    pub group_names: Vec<String>,
    /// `c(x)` of each query (SPEC §2), in (0, 1].
    pub costs: Vec<f64>,
    /// `D`, the largest pairwise distance of the universe (SPEC §1).
    pub dist_scale: f64,
    /// sha256 (hex, first 16 digits) of the dimension, the vectors and the token counts.
    pub checksum: String,
    /// A dataset read from the user's files (named after them): never given a built-in's
    /// arrival model by name.
    pub user: bool,
    /// The records' `id`s (user data whose JSONL has them; empty otherwise): what the lines of a
    /// replay index file name.
    pub ids: Vec<Option<String>>,
    /// The order of a `replay` stream read from an index file of arrivals, if one was given:
    /// arrival t is row `order[t]`.
    pub replay: Option<ReplayIndex>,
    /// The ground truth of every query (SPEC §14), or why there is none.
    pub ground_truth: GroundTruth,
    /// What loading changed in the data, said with every result (e.g. rows normalised to unit
    /// length).
    pub notes: Vec<String>,
}

/// A universe's ground truth (SPEC §14): one label per row, or the reason there is none (shown
/// where the correctness metrics would be).
#[derive(Clone, Debug, PartialEq)]
pub enum GroundTruth {
    Labels(Vec<Label>),
    Absent(String),
}

impl GroundTruth {
    /// The labels, one per row, if there are any.
    pub fn labels(&self) -> Option<&[Label]> {
        match self {
            GroundTruth::Labels(l) => Some(l),
            GroundTruth::Absent(_) => None,
        }
    }
    /// Why there is no ground truth (`None` when there is).
    pub fn absent_reason(&self) -> Option<&str> {
        match self {
            GroundTruth::Labels(_) => None,
            GroundTruth::Absent(r) => Some(r),
        }
    }
}

/// An index file of arrivals for the `replay` model: one record per line, in arrival order
/// (the record's `id` when the JSONL has ids, else its row number counted from 0); repeated
/// queries are repeated lines and `T` is the number of lines.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayIndex {
    /// The index file's name (as reported).
    pub file: String,
    /// sha256 (hex, first 16 digits) of the rows in order, as little-endian `u32`.
    pub checksum: String,
    /// Row of each arrival.
    pub order: Vec<u32>,
}

/// A user dataset's files as bytes, with the names they are reported under (SPEC §7 "User data").
#[derive(Clone, Copy, Debug)]
pub struct UserFiles<'a> {
    /// The JSONL's file name: the dataset is named after it.
    pub jsonl_name: &'a str,
    pub jsonl: &'a [u8],
    /// The binary embedding file (name, bytes), row i = record i.
    pub embeddings: Option<(&'a str, &'a [u8])>,
    /// The declared dimension of the binary file (inferred from the record count if absent).
    pub dim: Option<usize>,
    /// The record field whose values are the groups of the `bursty` arrival model.
    pub group_by: Option<&'a str>,
    /// An index file of arrivals (name, bytes) for the `replay` model ([`ReplayIndex`]).
    pub replay_index: Option<(&'a str, &'a [u8])>,
}

/// How far the datasets built under [`with_progress`] are (set only for its duration).
type Progress = Box<dyn FnMut(usize, usize)>;
thread_local! {
    static PROGRESS: std::cell::RefCell<Option<Progress>> = const { std::cell::RefCell::new(None) };
}

/// Runs `body` (which builds a dataset) with `progress(rows_done, rows)` called as the distance
/// scale `D` is measured — the O(n²·d) part of loading a dataset — so a page can show a
/// determinate progress bar. The callback is taken out while it runs (a dataset built from
/// inside it gets none).
pub fn with_progress<T>(progress: Progress, body: impl FnOnce() -> T) -> T {
    let before = PROGRESS.with(|p| p.borrow_mut().replace(progress));
    let out = body();
    PROGRESS.with(|p| *p.borrow_mut() = before);
    out
}

/// What a result reports about its dataset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DatasetInfo {
    pub name: String,
    pub size: usize,
    pub dim: usize,
    pub dist_scale: f64,
    pub checksum: String,
    /// Why the dataset has no ground truth (SPEC §14), so its correctness metrics are absent;
    /// not written when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ground_truth: Option<String>,
    /// What loading changed in the data (e.g. rows normalised to unit length); not written
    /// when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The costs of SPEC §2: `c = c_floor + (1 − c_floor)·(tokens − min)/(max − min)`.
/// If every query has the same length the normalisation is undefined; every cost is then 1.
pub fn token_costs(tokens: &[u32], c_floor: f64) -> Vec<f64> {
    match token_range(tokens) {
        Some(range) => tokens.iter().map(|&t| token_cost(t as f64, range, c_floor)).collect(),
        None => vec![1.0; tokens.len()],
    }
}

/// The smallest token count and the span `max − min` of a universe; `None` when the
/// normalisation of SPEC §2 is undefined (no query, or every query of the same length).
fn token_range(tokens: &[u32]) -> Option<(u32, f64)> {
    let (min, max) = tokens.iter().fold((u32::MAX, 0u32), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    (!tokens.is_empty() && max != min).then(|| (min, (max - min) as f64))
}

/// SPEC §2's cost of `tokens` tokens: `c_floor + (1 − c_floor)·(tokens − min)/(max − min)`.
fn token_cost(tokens: f64, (min, span): (u32, f64), c_floor: f64) -> f64 {
    c_floor + (1.0 - c_floor) * (tokens - min as f64) / span
}

/// The checksum of a universe: sha256 over the dimension, the `f32` vectors and the token counts.
pub fn checksum(points: &Points, tokens: &[u32]) -> String {
    let mut h = Sha256::new();
    h.update((points.dim() as u32).to_le_bytes());
    for v in points.as_flat() {
        h.update(v.to_le_bytes());
    }
    for t in tokens {
        h.update(t.to_le_bytes());
    }
    h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

impl Dataset {
    /// `c(x)` of a query outside the universe with `tokens` GPT-2 tokens (a typed question):
    /// SPEC §2's min-max normalisation over this universe's token counts, clamped to `[c_floor, 1]`,
    /// where `c_floor` is the universe's smallest cost (the cost of its shortest query); if every
    /// query has the same length every cost is 1. On a universe query's own count it gives that
    /// query's cost ([`token_costs`]).
    pub fn cost_of_tokens(&self, tokens: usize) -> f64 {
        let Some(range) = token_range(&self.tokens) else { return 1.0 };
        let floor = self.costs.iter().copied().fold(1.0, f64::min);
        token_cost(tokens as f64, range, floor).clamp(floor, 1.0)
    }

    /// Assembles a universe: checks the parts agree, derives costs, `D` and the checksum.
    pub fn new(
        name: &str,
        points: Points,
        tokens: Vec<u32>,
        texts: Vec<String>,
        groups: Vec<u8>,
        group_names: Vec<String>,
        c_floor: f64,
    ) -> Result<Self> {
        let n = points.len();
        if n == 0 {
            return Err(Error::data("a dataset needs at least one query"));
        }
        if tokens.len() != n || texts.len() != n || groups.len() != n {
            return Err(Error::data(format!(
                "mismatched row counts: {n} embeddings, {} token counts, {} texts, {} group labels",
                tokens.len(),
                texts.len(),
                groups.len()
            )));
        }
        if let Some(g) = groups.iter().find(|&&g| g as usize >= group_names.len()) {
            return Err(Error::data(format!("group label {g} has no name")));
        }
        if !(c_floor > 0.0 && c_floor <= 1.0) {
            return Err(Error::param("c_floor", format!("must lie in (0, 1], got {c_floor}")));
        }
        let mut dist_scale = match PROGRESS.with(|p| p.borrow_mut().take()) {
            Some(mut f) => {
                let d = crate::space::diameter_with_progress(&points, &mut *f);
                PROGRESS.with(|p| *p.borrow_mut() = Some(f));
                d
            }
            None => diameter(&points),
        };
        if dist_scale <= 0.0 {
            // A single query (or identical ones): every distance is 0; any positive D will do.
            dist_scale = 1.0;
        }
        Ok(Dataset {
            name: name.to_string(),
            costs: token_costs(&tokens, c_floor),
            checksum: checksum(&points, &tokens),
            points,
            tokens,
            texts,
            groups,
            group_names,
            dist_scale,
            user: false,
            ids: Vec::new(),
            replay: None,
            ground_truth: GroundTruth::Absent(format!("the dataset {name} has no ground truth")),
            notes: Vec::new(),
        })
    }

    /// A user dataset from its files: named after the JSONL, every error naming its file and line.
    pub fn from_user_files(f: &UserFiles<'_>, c_floor: f64) -> Result<Self> {
        let records =
            records::parse_jsonl_bytes_grouped(f.jsonl, f.group_by).map_err(|e| e.in_file(f.jsonl_name))?;
        let points = match f.embeddings {
            Some((name, bytes)) => {
                embeddings::binary_for(&records, f.jsonl_name, bytes, f.dim).map_err(|e| e.in_file(name))?
            }
            None => {
                if f.dim.is_some() {
                    return Err(Error::param(
                        "dim",
                        "is for the binary embedding file; give it (--embeddings FILE) or drop the dimension",
                    ));
                }
                embeddings::inline_embeddings(&records).map_err(|e| e.in_file(f.jsonl_name))?
            }
        };
        let (groups, group_names) = match f.group_by {
            None => (vec![0; records.len()], vec![f.jsonl_name.to_string()]),
            Some(field) => {
                let mut names: Vec<String> = Vec::new();
                let mut groups = Vec::with_capacity(records.len());
                for r in &records {
                    let g = r.group.clone().unwrap_or_default();
                    let i = match names.iter().position(|n| *n == g) {
                        Some(i) => i,
                        None => {
                            names.push(g);
                            names.len() - 1
                        }
                    };
                    if i > u8::MAX as usize {
                        return Err(Error::at(
                            format!("line {}", r.line),
                            format!("the group field `{field}` has more than 256 distinct values; bursts alternate between at most 256 groups — group by a coarser field"),
                        )
                        .in_file(f.jsonl_name));
                    }
                    groups.push(i as u8);
                }
                (groups, names)
            }
        };
        let (points, notes) =
            embeddings::unit_norm(&records, points, f.embeddings.is_some() && f.dim.is_none())
                .map_err(|e| e.in_file(f.embeddings.map_or(f.jsonl_name, |(name, _)| name)))?;
        // SPEC §14: the parser has checked that every record has the same kind of label, or none.
        let ground_truth = match records.iter().map(|r| r.label.clone()).collect::<Option<Vec<_>>>() {
            Some(l) => GroundTruth::Labels(l),
            None => GroundTruth::Absent(format!(
                "{} gives no `answers` or `label` on its records (SPEC §14)",
                f.jsonl_name
            )),
        };
        let tokens = records.iter().map(|r| r.tokens).collect();
        let ids = if records.iter().any(|r| r.id.is_some()) {
            records.iter().map(|r| r.id.clone()).collect()
        } else {
            Vec::new()
        };
        let texts = records.into_iter().map(|r| r.text).collect::<Vec<_>>();
        let mut d = Dataset::new(f.jsonl_name, points, tokens, texts, groups, group_names, c_floor)?;
        d.user = true;
        d.ids = ids;
        d.ground_truth = ground_truth;
        d.notes = notes;
        if let Some((name, bytes)) = f.replay_index {
            d.set_replay_index(name, bytes)?;
        }
        Ok(d)
    }

    /// A user dataset from JSONL (`{"text", "tokens", "embedding"?}` per line) and optionally the
    /// binary embedding layout with its dimension (SPEC §7); named `name`.
    pub fn from_jsonl(
        name: &str,
        jsonl: &[u8],
        binary: Option<(&[u8], usize)>,
        c_floor: f64,
    ) -> Result<Self> {
        let f = UserFiles {
            jsonl_name: name,
            jsonl,
            embeddings: binary.map(|(b, _)| ("the embedding file", b)),
            dim: binary.map(|(_, d)| d),
            group_by: None,
            replay_index: None,
        };
        Dataset::from_user_files(&f, c_floor)
    }

    /// Reads an index file of arrivals (`file` names it in messages) as this dataset's `replay`
    /// order: one arrival per non-blank line, the record's `id` if the JSONL has ids, else its row
    /// number from 0. Every problem is one [`Error::File`] naming the file and its 1-based line.
    pub fn set_replay_index(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        let order = self.parse_replay_index(bytes).map_err(|e| e.in_file(file))?;
        let mut h = Sha256::new();
        for i in &order {
            h.update(i.to_le_bytes());
        }
        let checksum = h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
        self.replay = Some(ReplayIndex { file: file.to_string(), checksum, order });
        Ok(())
    }

    fn parse_replay_index(&self, bytes: &[u8]) -> Result<Vec<u32>> {
        let n = self.len();
        let by_id = !self.ids.is_empty();
        let expected = if by_id {
            format!("one record `id` of {} per line, in arrival order", self.name)
        } else {
            format!("one row number of {} per line (0 to {}; row i is its i-th record, counted from 0), in arrival order", self.name, n - 1)
        };
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            Error::at(format!("line {line}"), "the file is not valid UTF-8; save it as UTF-8 text")
        })?;
        let ids: std::collections::HashMap<&str, u32> = self
            .ids
            .iter()
            .enumerate()
            .filter_map(|(i, id)| id.as_deref().map(|id| (id, i as u32)))
            .collect();
        let mut order = Vec::new();
        for (no, line) in text.lines().enumerate() {
            let (no, line) = (no + 1, line.trim());
            if line.is_empty() {
                continue;
            }
            let at = format!("line {no}");
            let row = if by_id {
                *ids.get(line).ok_or_else(|| {
                    Error::at(
                        &at,
                        format!("unknown id \"{line}\": no record of {} has it; expected {expected} — fix or remove this line", self.name),
                    )
                })?
            } else {
                let i: u64 = line.parse().map_err(|_| {
                    Error::at(
                        &at,
                        format!(
                            "\"{line}\" is not a row number; expected {expected} — fix or remove this line"
                        ),
                    )
                })?;
                if i >= n as u64 {
                    return Err(Error::at(
                        &at,
                        format!("row {i} is out of range: {} has {n} records (rows 0 to {}) — fix or remove this line", self.name, n - 1),
                    ));
                }
                i as u32
            };
            order.push(row);
        }
        if order.is_empty() {
            return Err(Error::at(
                "",
                format!("the file is empty: it holds no arrivals; expected {expected}"),
            ));
        }
        Ok(order)
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
    /// The label of row `i`, when the dataset has ground truth.
    pub fn label(&self, i: usize) -> Option<&Label> {
        self.ground_truth.labels().and_then(|l| l.get(i))
    }
    pub fn metric(&self) -> Metric {
        Metric { scale: self.dist_scale }
    }
    pub fn info(&self) -> DatasetInfo {
        DatasetInfo {
            name: self.name.clone(),
            size: self.len(),
            dim: self.points.dim(),
            dist_scale: self.dist_scale,
            checksum: self.checksum.clone(),
            no_ground_truth: self.ground_truth.absent_reason().map(str::to_string),
            notes: self.notes.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_question_costs_what_a_universe_query_of_its_length_costs() {
        let d = synthetic::universe(0.01).unwrap();
        for (i, &t) in d.tokens.iter().enumerate() {
            assert_eq!(d.cost_of_tokens(t as usize).to_bits(), d.costs[i].to_bits(), "query {i}");
        }
        assert_eq!(d.cost_of_tokens(0), 0.01, "shorter than every query: the floor");
        assert_eq!(d.cost_of_tokens(100_000), 1.0, "longer than every query: 1");
    }

    #[test]
    fn costs_by_hand() {
        let c = token_costs(&[10, 20, 30], 0.01);
        assert_eq!(c[0], 0.01);
        assert!((c[1] - (0.01 + 0.99 * 0.5)).abs() < 1e-15);
        assert_eq!(c[2], 1.0);
        assert_eq!(token_costs(&[7, 7], 0.01), vec![1.0, 1.0]);
    }

    #[test]
    fn user_data_errors_are_readable() {
        let ok = b"{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1]}";
        let d = Dataset::from_jsonl("mine", ok, None, 0.01).unwrap();
        assert_eq!(d.len(), 2);
        assert!((d.dist_scale - 2f64.sqrt()).abs() < 1e-6);
        assert_eq!(d.costs, vec![0.01, 1.0]);
        assert_eq!(d.checksum.len(), 16);
        assert!(Dataset::from_jsonl("x", b"", None, 0.01).is_err());
        let pts = Points::from_rows(&[[0.0f32]]).unwrap();
        let e = Dataset::new("x", pts, vec![1, 2], vec!["a".into()], vec![0], vec!["x".into()], 0.01)
            .unwrap_err();
        assert!(e.to_string().contains("mismatched row counts"), "{e}");
    }
}
