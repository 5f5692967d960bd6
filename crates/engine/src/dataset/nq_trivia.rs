//! The `nq-trivia` universe (SPEC §7, paper §6): the first 2,500 Natural Questions and the first
//! 2,500 TriviaQA questions of `shared/data` (never copied into this repository: the caller gives
//! the bytes or, natively, the folder).

use super::embeddings::embeddings_for;
use super::records::parse_jsonl_limited;
use super::{Dataset, GroundTruth};
use crate::answers::Label;
use crate::error::{Error, Result};
use crate::space::Points;

/// Queries taken from each source (SPEC §7).
pub const PER_SOURCE: usize = 2_500;
/// Embedding dimension of the shared data.
pub const DIM: usize = 384;

/// Builds the universe from the four files' contents. `per_source` rows of each are used. It
/// has no ground truth: see [`from_parts_with_answers`].
pub fn from_parts(
    nq_jsonl: &str,
    nq_emb: &[u8],
    tq_jsonl: &str,
    tq_emb: &[u8],
    per_source: usize,
    c_floor: f64,
) -> Result<Dataset> {
    let no = GroundTruth::Absent(
        "the gold answers (nq.answers.jsonl, triviaqa.answers.jsonl) were not given with the data".into(),
    );
    from_parts_with_answers(nq_jsonl, nq_emb, tq_jsonl, tq_emb, Err(no), per_source, c_floor)
}

/// [`from_parts`] with the gold answers (SPEC §14): `answers` is `Ok((nq.answers.jsonl,
/// triviaqa.answers.jsonl))` as text, or `Err` with the ground truth to record instead (the
/// reason it is absent). Line i of an answers file belongs to line i of its JSONL, with the
/// same `id` (data README, "Gold answers"); a mismatch is an error naming the file and line.
pub fn from_parts_with_answers(
    nq_jsonl: &str,
    nq_emb: &[u8],
    tq_jsonl: &str,
    tq_emb: &[u8],
    answers: std::result::Result<(&str, &str), GroundTruth>,
    per_source: usize,
    c_floor: f64,
) -> Result<Dataset> {
    if per_source == 0 {
        return Err(Error::param("per_source", "take at least one query from each source"));
    }
    let mut points = Points::new(DIM)?;
    let (mut tokens, mut texts, mut groups) = (Vec::new(), Vec::new(), Vec::new());
    let answer_texts = answers.as_ref().ok().map(|&(a, b)| [a, b]);
    let mut labels = Vec::new();
    for (g, (name, jsonl, emb)) in
        [("nq", nq_jsonl, nq_emb), ("triviaqa", tq_jsonl, tq_emb)].into_iter().enumerate()
    {
        let recs = parse_jsonl_limited(jsonl, per_source).map_err(|e| e.in_file(&format!("{name}.jsonl")))?;
        if recs.len() < per_source {
            return Err(Error::data(format!("{name}.jsonl has {} records, {per_source} needed", recs.len())));
        }
        if let Some(texts) = answer_texts {
            let file = format!("{name}.answers.jsonl");
            labels.extend(
                parse_answers(texts[g], &recs, &format!("{name}.jsonl")).map_err(|e| e.in_file(&file))?,
            );
        }
        let rows = (per_source * DIM * 4).min(emb.len() - emb.len() % (DIM * 4));
        let p = embeddings_for(&recs, Some((&emb[..rows], DIM)))
            .map_err(|e| e.in_file(&format!("{name}.emb.f32")))?;
        for (i, r) in recs.into_iter().enumerate() {
            points.push(p.row(i))?;
            tokens.push(r.tokens);
            texts.push(r.text);
            groups.push(g as u8);
        }
    }
    let mut d = Dataset::new(
        "nq-trivia",
        points,
        tokens,
        texts,
        groups,
        vec!["NQ".into(), "TriviaQA".into()],
        c_floor,
    )?;
    d.ground_truth = match answers {
        Ok(_) => GroundTruth::Labels(labels),
        Err(absent) => absent,
    };
    Ok(d)
}

/// The gold answers of `recs` (the first rows of `jsonl_name`) from an answers file: one
/// `{"id": str, "answers": [str, ...]}` per line, line i for record i with the same `id`
/// (data README, "Gold answers"), as normalised [`Label::answers`] (SPEC §14).
pub fn parse_answers(text: &str, recs: &[super::records::Record], jsonl_name: &str) -> Result<Vec<Label>> {
    #[derive(serde::Deserialize)]
    struct Line {
        id: String,
        answers: Vec<String>,
    }
    let mut lines = text.lines().enumerate();
    let mut out = Vec::with_capacity(recs.len());
    for r in recs {
        let (no, line) = lines.next().ok_or_else(|| {
            Error::at(
                "",
                format!("the file ends before line {} of {jsonl_name}; it needs one line of answers per question, in the same order — use the answers file that came with {jsonl_name}", r.line),
            )
        })?;
        let at = format!("line {}", no + 1);
        let l: Line = serde_json::from_str(line).map_err(|e| {
            Error::at(&at, format!("expected {{\"id\": string, \"answers\": [strings]}} ({e}) — use the answers file that came with {jsonl_name}"))
        })?;
        if r.id.as_deref() != Some(l.id.as_str()) || no + 1 != r.line {
            return Err(Error::at(
                &at,
                format!(
                    "id \"{}\" does not match line {} of {jsonl_name} (id {}); line i of the answers must belong to line i of {jsonl_name} — use the answers file that came with it",
                    l.id,
                    r.line,
                    r.id.as_deref().map_or("none".to_string(), |i| format!("\"{i}\""))
                ),
            ));
        }
        out.push(Label::answers(&l.answers));
    }
    Ok(out)
}

/// Reads the universe from a folder holding `nq.jsonl`, `nq.emb.f32`, `triviaqa.jsonl`,
/// `triviaqa.emb.f32` (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn load(dir: &std::path::Path, per_source: usize, c_floor: f64) -> Result<Dataset> {
    if !dir.is_dir() {
        return Err(Error::at("", missing_dir_message(dir)));
    }
    let read = |f: &str| {
        std::fs::read(dir.join(f)).map_err(|e| {
            Error::data(format!(
                "cannot read {} ({e}); the shared data folder must hold nq.jsonl, nq.emb.f32, triviaqa.jsonl and triviaqa.emb.f32",
                dir.join(f).display()
            ))
        })
    };
    let text = |f: &str| -> Result<String> {
        String::from_utf8(read(f)?).map_err(|_| Error::at("", "not valid UTF-8").in_file(f))
    };
    // The gold answers are optional: without them the correctness metrics are absent and the
    // reason says which file was missing (SPEC §14).
    let missing = ["nq.answers.jsonl", "triviaqa.answers.jsonl"].into_iter().find(|f| !dir.join(f).is_file());
    let (nq_a, tq_a) = match missing {
        Some(_) => (String::new(), String::new()),
        None => (text("nq.answers.jsonl")?, text("triviaqa.answers.jsonl")?),
    };
    let answers = match missing {
        Some(f) => Err(GroundTruth::Absent(format!("no {f} beside the data in {}", dir.display()))),
        None => Ok((nq_a.as_str(), tq_a.as_str())),
    };
    from_parts_with_answers(
        &text("nq.jsonl")?,
        &read("nq.emb.f32")?,
        &text("triviaqa.jsonl")?,
        &read("triviaqa.emb.f32")?,
        answers,
        per_source,
        c_floor,
    )
}

/// The documented default data folder, relative to the working directory.
pub const DEFAULT_DIR: &str = "../shared/data";

/// The shared data folder: `flag` (`--data`) if given, else `$CSC_DATA`, else [`DEFAULT_DIR`]
/// relative to the working directory (never a path compiled into the binary).
#[cfg(not(target_arch = "wasm32"))]
pub fn data_dir(flag: Option<&std::path::Path>) -> std::path::PathBuf {
    flag.map(std::path::Path::to_path_buf)
        .or_else(|| std::env::var_os("CSC_DATA").filter(|v| !v.is_empty()).map(Into::into))
        .unwrap_or_else(|| DEFAULT_DIR.into())
}

/// [`data_dir`] without a flag: `$CSC_DATA`, else `../shared/data` from the working directory.
#[cfg(not(target_arch = "wasm32"))]
pub fn default_dir() -> std::path::PathBuf {
    data_dir(None)
}

/// What to say when the data folder is not there: where it was looked for and how to point at it.
#[cfg(not(target_arch = "wasm32"))]
pub fn missing_dir_message(dir: &std::path::Path) -> String {
    let cwd = std::env::current_dir().map(|p| p.display().to_string()).unwrap_or_else(|_| "?".into());
    format!(
        "cannot read the data folder {}: it does not exist (looked for --data, then $CSC_DATA, then {DEFAULT_DIR} relative to the working directory {cwd}); point at the folder holding nq.jsonl, nq.emb.f32, triviaqa.jsonl and triviaqa.emb.f32 with --data DIR or CSC_DATA=DIR",
        dir.display()
    )
}
