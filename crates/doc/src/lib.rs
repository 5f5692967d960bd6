//! The project's documents rendered to self-contained HTML pages for the companion bundle
//! (scripts/dist.sh: docs/REPRODUCTION.md, docs/SPEC-NOTES.md, by the `csc-doc` binary), with
//! CommonMark and tables by pulldown-cmark (feature `markdown`, on by default). Every heading gets
//! the anchor the page links to, [`slug`] of its text. Links and images stay relative, so
//! `figures/…` resolve beside the page.
//!
//! [`slug`] is the one anchor rule of the project: the engine re-exports it
//! (`csc_engine::experiment::definition::spec::slug`, for frontier series keys) and depends on this crate
//! with default features off, so the engine never compiles the Markdown library.

/// `text` as an identifier: lowercased, each run of characters other than a–z and 0–9 one `-`,
/// none at either end (`"Where we differ, and why"` → `where-we-differ-and-why`). The anchors of
/// the rendered documents and the engine's frontier series keys use it.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    out
}

#[cfg(feature = "markdown")]
pub use markdown::render;

#[cfg(feature = "markdown")]
mod markdown {
    use super::slug;
    use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

    /// The page: `title`, a style sheet for reading, and the document's HTML.
    pub fn render(markdown: &str, title: &str) -> String {
        let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES;
        let mut events: Vec<Event> = Parser::new_ext(markdown, opts).collect();
        // Give each heading its anchor, from the text inside it.
        let mut i = 0;
        while i < events.len() {
            if let Event::Start(Tag::Heading { .. }) = &events[i] {
                let mut text = String::new();
                let mut j = i + 1;
                while j < events.len() && !matches!(events[j], Event::End(TagEnd::Heading(_))) {
                    if let Event::Text(t) | Event::Code(t) = &events[j] {
                        text.push_str(t);
                    }
                    j += 1;
                }
                if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
                    if id.is_none() {
                        *id = Some(CowStr::from(slug(&text)));
                    }
                }
                i = j;
            }
            i += 1;
        }
        let mut body = String::new();
        html::push_html(&mut body, events.into_iter());
        let esc = title.replace('&', "&amp;").replace('<', "&lt;");
        format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{esc}</title>\n<style>\n{STYLE}</style></head>\n\
             <body><main>\n{body}</main></body></html>\n"
        )
    }

    const STYLE: &str = "body{margin:0;background:#fafafa;color:#1f2328;font:16px/1.55 system-ui,sans-serif}\
main{max-width:52rem;margin:0 auto;padding:1rem 1.2rem 4rem;background:#fff}\
h1,h2,h3,h4{line-height:1.25;margin:1.6em 0 .5em}h1{font-size:1.7rem}h2{font-size:1.35rem;border-bottom:1px solid #ddd;padding-bottom:.2em}\
table{border-collapse:collapse;display:block;overflow-x:auto;font-size:.88rem;margin:1em 0}\
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}thead th{background:#f6f8fa}\
code{font:.88em ui-monospace,monospace;background:#f3f4f6;padding:0 .2em;border-radius:3px}\
pre{overflow-x:auto;background:#f6f8fa;padding:.8em;border-radius:4px}pre code{background:none;padding:0}\
img{max-width:100%;height:auto}a{color:#0b57d0}\n";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_lowercases_and_joins_runs_of_other_characters_with_one_dash() {
        assert_eq!(slug("Where we differ, and why"), "where-we-differ-and-why");
        assert_eq!(slug("Fig. 1c, 1d — online synthetic"), "fig-1c-1d-online-synthetic");
        assert_eq!(slug("  --Ünïcode §7 (T = 5,000)!  "), "n-code-7-t-5-000");
        assert_eq!(slug("—"), "");
    }

    #[cfg(feature = "markdown")]
    #[test]
    fn headings_tables_and_images_render_with_the_anchors_the_page_links_to() {
        let page = render(
            "# Report\n\n## Where we differ, and why\n\n| a | b |\n|---|---|\n| 1 | `x<y` |\n\n![fig](figures/fig-a.png)\n",
            "R & D",
        );
        assert!(page.contains("<h2 id=\"where-we-differ-and-why\">Where we differ, and why</h2>"), "{page}");
        assert!(page.contains("<table>") && page.contains("<td><code>x&lt;y</code></td>"), "{page}");
        assert!(page.contains("<img src=\"figures/fig-a.png\" alt=\"fig\""), "{page}");
        assert!(page.contains("<title>R &amp; D</title>"), "{page}");
        assert!(!page.contains("<pre>\n# Report"), "{page}");
    }
}
