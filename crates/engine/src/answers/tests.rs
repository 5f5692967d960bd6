//! Tests of SPEC §14 normalisation and equivalence: the data README's examples ("Gold answers",
//! "Comparing answers") and the edge cases the rules name.

use super::*;
use proptest::prelude::*;

#[test]
fn readme_examples() {
    // ASCII punctuation is deleted without a space in its place.
    assert_eq!(normalize("1930-1939"), "19301939");
    // Non-ASCII punctuation stays.
    assert_eq!(normalize("Don’t"), "don’t");
    assert_eq!(normalize("1930–1939"), "1930–1939");
    // U+00A0 inside dates is whitespace.
    assert_eq!(normalize("May\u{a0}10,\u{a0}2018"), "may 10 2018");
    // `\n` inside an answer is whitespace; runs collapse.
    assert_eq!(normalize("Perry\n\n107"), "perry 107");
    // The README's answers that normalise to "".
    for s in ["---", ")", "A+", "*", ",", "/", "+-*/", "'A", "@"] {
        assert_eq!(normalize(s), "", "{s:?}");
    }
    // Articles go, whole words only.
    assert_eq!(normalize("The Beatles"), "beatles");
    assert_eq!(normalize("An apple a day"), "apple day");
    assert_eq!(normalize("theatre"), "theatre");
    assert_eq!(normalize("Anathema, then"), "anathema then");
    assert_eq!(normalize("the_a"), "thea"); // `_` is punctuation, deleted before step 3
    assert_eq!(normalize("'BEACHCOMBER'"), "beachcomber");
    assert_eq!(normalize(r#"Michael Jackson's ""Thriller"""#), "michael jacksons thriller");
    assert_eq!(normalize("Ruby "), "ruby");
    assert_eq!(normalize("Scorpio (disambiguation)"), "scorpio disambiguation");
}

#[test]
fn non_ascii_words() {
    // Letters beyond ASCII are word characters: `Äa` is one run, not the article `a`.
    assert_eq!(normalize("Äa"), "äa");
    assert_eq!(normalize("a Ä"), "ä");
    assert_eq!(normalize("ÄN"), "än");
    // A combining mark is not a word character: it ends the run `a`, which becomes a space,
    // and the mark stays.
    assert_eq!(normalize("a\u{301}"), "\u{301}");
    assert_eq!(normalize("the\u{301}x"), "\u{301}x");
    // Digits of other scripts are numbers (category N).
    assert_eq!(normalize("a٣"), "a٣");
    // Full lowercase mapping: `İ` becomes `i` + U+0307 (a mark, which ends the run `i`).
    assert_eq!(normalize("İ"), "i\u{307}");
    // Final sigma, as Python's `str.lower`.
    assert_eq!(normalize("ΟΔΟΣ"), "\u{3bf}\u{3b4}\u{3bf}\u{3c2}");
    // Private-use characters and U+0083 are neither words nor spaces.
    assert_eq!(normalize("SÄ\u{83}o Paulo"), "sä\u{83}o paulo");
    assert_eq!(normalize("a\u{f8ff}"), "\u{f8ff}");
}

#[test]
fn whitespace_is_pythons() {
    for c in
        ['\u{1c}', '\u{1d}', '\u{1e}', '\u{1f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}', '\t', '\u{b}']
    {
        assert_eq!(normalize(&format!("x{c}y")), "x y", "U+{:04X}", c as u32);
    }
    // U+200B (zero width space) is not whitespace in Python.
    assert_eq!(normalize("x\u{200b}y"), "x\u{200b}y");
}

#[test]
fn word_char_table() {
    assert!(is_word_char('_') && is_word_char('a') && is_word_char('9'));
    assert!(is_word_char('Ä') && is_word_char('ß') && is_word_char('中') && is_word_char('²'));
    assert!(!is_word_char('\u{301}') && !is_word_char('-') && !is_word_char(' ') && !is_word_char('’'));
    assert!(!is_word_char('Ⓐ')); // So, although Alphabetic
    assert!(is_word_char('Ⅻ')); // Nl
    let t = &word_chars::WORD_CHARS;
    assert!(t.windows(2).all(|w| w[0].1 + 1 < w[1].0) && t.iter().all(|r| r.0 <= r.1));
}

#[test]
fn labels_and_equivalence() {
    let a = Label::answers(&["The Beatles", "beatles", "---", "Fab Four"]);
    assert_eq!(a, Label::Answers(vec!["beatles".into(), "fab four".into()]));
    let b = Label::answers(&["BEATLES!"]);
    assert!(equivalent(&a, &b) && equivalent(&b, &a));
    assert!(!equivalent(&a, &Label::answers(&["Rolling Stones"])));
    // An answer list left empty is equivalent to nothing, not even itself.
    let empty = Label::answers(&["A+", ")"]);
    assert!(empty.is_empty_answers());
    assert!(!equivalent(&empty, &empty) && !equivalent(&empty, &a));
    // By value; kinds never mix.
    assert!(
        equivalent(&Label::Class(3), &Label::Class(3)) && !equivalent(&Label::Class(3), &Label::Class(4))
    );
    assert!(equivalent(&Label::Text("x".into()), &Label::Text("x".into())));
    assert!(!equivalent(&Label::Text("X".into()), &Label::Text("x".into())));
    assert!(!equivalent(&Label::Text("3".into()), &Label::Class(3)));
    assert!(!equivalent(&Label::Text("beatles".into()), &b));
    // A raw list (as deserialised) is canonicalised before comparing.
    let raw = Label::Answers(vec!["The Beatles!".into(), "".into()]);
    assert!(equivalent(&raw, &b));
    assert_eq!(raw.canonical(), Label::Answers(vec!["beatles".into()]));
}

#[test]
fn labels_in_json() {
    let v: Vec<Label> = serde_json::from_str(r#"[3, "x", ["a b", "c"]]"#).unwrap();
    assert_eq!(
        v,
        vec![Label::Class(3), Label::Text("x".into()), Label::Answers(vec!["a b".into(), "c".into()])]
    );
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"[3,"x",["a b","c"]]"#);
}

proptest! {
    #[test]
    fn normalize_is_idempotent(s in "\\PC{0,24}|[aAnN tThHeE\\-\\.\u{a0}\u{301}Ä_]{0,16}") {
        let once = normalize(&s);
        prop_assert_eq!(normalize(&once), once.clone());
        prop_assert!(!once.starts_with(' ') && !once.ends_with(' ') && !once.contains("  "));
        prop_assert!(!once.chars().any(|c| c.is_ascii_punctuation()));
    }

    #[test]
    fn equivalence_is_symmetric_and_matches_sets(
        x in proptest::collection::vec("[aAb. ]{0,4}", 0..4),
        y in proptest::collection::vec("[aAb. ]{0,4}", 0..4),
    ) {
        let (lx, ly) = (Label::answers(&x), Label::answers(&y));
        let sx: std::collections::HashSet<String> = x.iter().map(|s| normalize(s)).filter(|s| !s.is_empty()).collect();
        let sy: std::collections::HashSet<String> = y.iter().map(|s| normalize(s)).filter(|s| !s.is_empty()).collect();
        prop_assert_eq!(equivalent(&lx, &ly), !sx.is_disjoint(&sy));
        prop_assert_eq!(equivalent(&lx, &ly), equivalent(&ly, &lx));
    }
}

/// `Label` is read by hand (not by serde's `untagged` derive, whose `Content` buffer doubled its
/// code in the page's wasm): the same labels and the same refusals as the derive.
#[test]
fn labels_read_as_the_untagged_derive_reads_them() {
    #[derive(Debug, serde::Deserialize)]
    #[serde(untagged)]
    enum Derived {
        Class(i64),
        Text(String),
        Answers(Vec<String>),
    }
    let as_label = |d: Derived| match d {
        Derived::Class(c) => Label::Class(c),
        Derived::Text(t) => Label::Text(t),
        Derived::Answers(a) => Label::Answers(a),
    };
    for text in [
        "3",
        "-3",
        "0",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "3.0",
        "1e3",
        r#""x""#,
        r#""""#,
        "[]",
        r#"["a", "b"]"#,
        r#"["a", 1]"#,
        "[[]]",
        "{}",
        r#"{"a": 1}"#,
        "null",
        "true",
    ] {
        let derived = serde_json::from_str::<Derived>(text)
            .map(as_label)
            .map_err(|e| crate::json::message(&e).replace("Derived", "Label"));
        let hand = serde_json::from_str::<Label>(text).map_err(|e| crate::json::message(&e));
        assert_eq!(hand, derived, "{text}");
    }
}
