//! Ground truth and the correctness of served answers (SPEC §14): a query's [`Label`], the
//! SQuAD v1.1 answer normalisation ([`normalize`]) and the equivalence test ([`equivalent`]).
//!
//! A leaf: it knows nothing of datasets or policies. Loaders build labels with
//! [`Label::answers`] (or [`Label::canonical`] after deserialising), so every `Answers` label
//! holds normalised, non-empty, sorted and de-duplicated strings and [`equivalent`] is a merge.

use serde::{Deserialize, Serialize};

mod word_chars;

/// A query's ground truth (SPEC §14).
///
/// - `Class`: an integer label (synthetic data: the index of the prompt an arrival perturbs;
///   user data: an integer `label`).
/// - `Text`: a string `label` of user data, compared by value (not normalised).
/// - `Answers`: a gold answer list (nq-trivia, user `answers`), normalised by [`normalize`],
///   empty answers dropped, sorted and de-duplicated — build it with [`Label::answers`].
///
/// In JSON (traces, SPEC §12 + §14) a label is an integer, a string or a list of strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum Label {
    Class(i64),
    Text(String),
    Answers(Vec<String>),
}

/// An integer (that fits `i64`), a string or a list of strings, as serde's `untagged` derive
/// reads them, but read from a JSON value by hand: the derive buffers each label in its private
/// `Content` type and compiles the variants a second time for it (docs/PERFORMANCE.md, "Where
/// the page's wasm goes").
impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde_json::Value;
        let v = Value::deserialize(d)?;
        let answers =
            |a: &[Value]| a.iter().map(|s| s.as_str().map(str::to_string)).collect::<Option<Vec<_>>>();
        match &v {
            Value::Number(n) if n.as_i64().is_some() => n.as_i64().map(Label::Class),
            Value::String(s) => Some(Label::Text(s.clone())),
            Value::Array(a) => answers(a).map(Label::Answers),
            _ => None,
        }
        .ok_or_else(|| serde::de::Error::custom("data did not match any variant of untagged enum Label"))
    }
}

impl Label {
    /// An answer list, normalised (empty ones dropped), sorted and de-duplicated (SPEC §14,
    /// "Answers that normalise to "" are dropped first").
    pub fn answers<S: AsRef<str>>(raw: &[S]) -> Label {
        let mut v: Vec<String> =
            raw.iter().map(|s| normalize(s.as_ref())).filter(|s| !s.is_empty()).collect();
        v.sort_unstable();
        v.dedup();
        Label::Answers(v)
    }

    /// The same label with an answer list put in canonical form (as [`Label::answers`]); use it
    /// on labels read from JSON, which may hold raw answers.
    pub fn canonical(self) -> Label {
        match self {
            Label::Answers(v) => Label::answers(&v),
            other => other,
        }
    }

    /// True for an answer list left with no answer: it is equivalent to nothing (SPEC §14).
    pub fn is_empty_answers(&self) -> bool {
        matches!(self, Label::Answers(v) if v.is_empty())
    }
}

/// SPEC §14 equivalence: equal by value; answer lists when their normalised sets intersect (an
/// empty list is equivalent to nothing, not even itself). Labels of different kinds are never
/// equivalent. Answer lists are expected in the canonical form of [`Label::answers`]; one that
/// is not (unsorted or holding "") is canonicalised here first, so the result never depends on
/// how the label was built.
pub fn equivalent(a: &Label, b: &Label) -> bool {
    match (a, b) {
        (Label::Class(x), Label::Class(y)) => x == y,
        (Label::Text(x), Label::Text(y)) => x == y,
        (Label::Answers(x), Label::Answers(y)) => {
            if is_canonical_shape(x) && is_canonical_shape(y) {
                sorted_intersect(x, y)
            } else {
                match (Label::answers(x), Label::answers(y)) {
                    (Label::Answers(x), Label::Answers(y)) => sorted_intersect(&x, &y),
                    _ => false,
                }
            }
        }
        _ => false,
    }
}

/// Strictly increasing and without "" (the shape [`Label::answers`] returns).
fn is_canonical_shape(v: &[String]) -> bool {
    v.first().is_none_or(|s| !s.is_empty()) && v.windows(2).all(|w| w[0] < w[1])
}

/// Whether two strictly increasing lists share an element (a merge).
fn sorted_intersect(x: &[String], y: &[String]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// SQuAD v1.1 normalisation, exactly as SPEC §14 states it (Python semantics):
/// 1. lowercase with Unicode's full mapping (`str.lower`, Rust `to_lowercase`);
/// 2. delete the 32 ASCII punctuation characters of `string.punctuation`, nothing else;
/// 3. a maximal run of word characters (categories L and N, and `_`) equal to `a`, `an` or
///    `the` becomes one space (`re.sub(r"\b(a|an|the)\b", " ", s)`);
/// 4. split on whitespace (White_Space plus U+001C–U+001F, `str.split()`) and join with one
///    space.
pub fn normalize(s: &str) -> String {
    // Steps 1 and 2.
    let lowered: String = s.to_lowercase().chars().filter(|c| !c.is_ascii_punctuation()).collect();
    // Step 3: copy word runs, replacing a/an/the by a space; other characters pass through.
    let mut replaced = String::with_capacity(lowered.len());
    let mut run_start: Option<usize> = None;
    let flush = |out: &mut String, run: &str| {
        if matches!(run, "a" | "an" | "the") {
            out.push(' ');
        } else {
            out.push_str(run);
        }
    };
    for (i, c) in lowered.char_indices() {
        if is_word_char(c) {
            run_start.get_or_insert(i);
        } else {
            if let Some(start) = run_start.take() {
                flush(&mut replaced, &lowered[start..i]);
            }
            replaced.push(c);
        }
    }
    if let Some(start) = run_start {
        flush(&mut replaced, &lowered[start..]);
    }
    // Step 4.
    let mut out = String::with_capacity(replaced.len());
    for word in replaced.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Python's `\w` (SPEC §14): general categories L and N, and `_`.
pub fn is_word_char(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    let table = &word_chars::WORD_CHARS;
    // The last range starting at or before `cp`.
    let k = table.partition_point(|&(lo, _)| lo <= cp);
    k > 0 && cp <= table[k - 1].1
}

/// Python's `str.isspace` (SPEC §14): the White_Space property plus U+001C–U+001F.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1C}'..='\u{1F}').contains(&c)
}

#[cfg(test)]
mod tests;
