//! The page names the paper it reproduces as the paper names itself: the title and every author
//! of `../shared/paper/continuous-semantic-caching.tex` appear in the page's citation block, its
//! BibTeX and CITATION.cff. A missing paper fails the test.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

/// The arguments of every uncommented `\command{…}` in the .tex.
fn commands(tex: &str, command: &str) -> Vec<String> {
    let needle = format!("\\{command}{{");
    tex.lines()
        .filter(|l| !l.trim_start().starts_with('%'))
        .filter_map(|l| l.find(&needle).map(|i| &l[i + needle.len()..]))
        .filter_map(|rest| rest.find('}').map(|j| rest[..j].to_string()))
        .collect()
}

#[test]
fn the_page_and_citation_cff_name_the_paper_as_it_names_itself() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tex_path = root.join("../shared/paper/continuous-semantic-caching.tex");
    let tex = std::fs::read_to_string(&tex_path)
        .unwrap_or_else(|e| panic!("the paper is needed ({}): {e}", tex_path.display()));
    let page = std::fs::read_to_string(root.join("www/index.html")).unwrap();
    let cff = std::fs::read_to_string(root.join("CITATION.cff")).unwrap();
    let title = commands(&tex, "title").pop().expect("the paper has a title");
    assert!(page.contains(&format!(">{title}</cite>")), "the page does not name the paper `{title}`");
    assert!(cff.contains(&format!("title: \"{title}\"")), "CITATION.cff does not name `{title}`");
    let bib_title = title.replace("LLM", "{LLM}");
    assert!(page.contains(&format!("title   = {{{bib_title}}}")), "the BibTeX title differs from `{title}`");
    let authors = commands(&tex, "author");
    assert_eq!(authors.len(), 6, "{authors:?}");
    let listed = authors.join(", ");
    assert!(page.contains(&format!(">{listed}</span>")), "the page's authors differ from {listed}");
    for a in &authors {
        let (given, family) = a.rsplit_once(' ').unwrap();
        assert!(page.contains(&format!("{family}, {given}")), "BibTeX lacks {a}");
        assert!(
            cff.contains(&format!("family-names: {family}\n      given-names: {given}")),
            "CITATION.cff lacks {a}"
        );
    }
}
