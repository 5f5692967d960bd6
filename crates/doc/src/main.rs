//! `csc-doc IN.md OUT.html [--title TITLE]`: a project document rendered to a self-contained HTML
//! page ([`csc_doc::render`]); scripts/dist.sh renders docs/REPRODUCTION.md and docs/SPEC-NOTES.md
//! with it. Needs only pulldown-cmark: building it never compiles the engine or the CLI.

use std::process::ExitCode;

const USAGE: &str = "usage: csc-doc IN.md OUT.html [--title TITLE]";

fn run(args: &[String]) -> Result<(), String> {
    let mut files = Vec::new();
    let mut title = "csc".to_string();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--title" => title = it.next().ok_or_else(|| format!("--title needs a value\n{USAGE}"))?.clone(),
            "-h" | "--help" => return Err(USAGE.into()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            _ => files.push(a),
        }
    }
    let [input, output] = files.as_slice() else {
        return Err(format!("expected an input and an output file, got {}\n{USAGE}", files.len()));
    };
    let md = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(output, csc_doc::render(&md, &title)).map_err(|e| format!("{output}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("csc-doc: {e}");
            ExitCode::from(2)
        }
    }
}
