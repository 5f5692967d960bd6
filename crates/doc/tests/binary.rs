//! The `csc-doc` binary as scripts/dist.sh runs it: a Markdown file in, an HTML page out, with
//! the anchors and the title; bad arguments and a missing input give one plain message.

use std::process::Command;

fn csc_doc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_csc-doc")).args(args).output().expect("csc-doc runs")
}

#[test]
fn renders_a_document_to_a_page_with_its_anchors_and_title() {
    let dir = std::env::temp_dir().join(format!("csc-doc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.md");
    let output = dir.join("out.html");
    std::fs::write(&input, "# Report\n\n## What ran, and how long\n\ntext with ![f](figures/a.png)\n")
        .unwrap();
    let out = csc_doc(&[input.to_str().unwrap(), output.to_str().unwrap(), "--title", "A <b> title"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(&output).unwrap();
    assert!(page.contains("<h2 id=\"what-ran-and-how-long\">What ran, and how long</h2>"), "{page}");
    assert!(page.contains("<h1 id=\"report\">Report</h1>"), "{page}");
    assert!(page.contains("<title>A &lt;b> title</title>"), "{page}");
    assert!(page.contains("src=\"figures/a.png\""), "{page}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_and_a_missing_input_fail_with_one_message() {
    let out = csc_doc(&["only-one.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected an input and an output file, got 1"));
    let out = csc_doc(&["a.md", "b.html", "--title"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--title needs a value"));
    let out = csc_doc(&["/nonexistent/x.md", "/tmp/y.html"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("csc-doc: /nonexistent/x.md: "), "{err}");
}
