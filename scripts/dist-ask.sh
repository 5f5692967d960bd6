#!/usr/bin/env bash
# Adds "Ask a question" to a built dist/: the model (scripts/fetch-model.sh, www/model)
# and the sentence-embedding package (scripts/wasm-embed.sh, www/pkg-embed), each copied into
# dist/ whole and then renamed into place, so a page being served never sees half of one (the Ask
# panel waits until both are there: www/js/embed-files.js, views/ask.js). scripts/dist.sh runs it
# as its last build step; scripts/serve.sh after it has started serving the page.
# $out/ask.json says which parts are in place (ASK_STATUS of www/js/embed-files.js); `--pending`
# only writes it with none (scripts/dist.sh with ASK=later). Safe to re-run; needs what
# scripts/setup-build.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export PATH="$HOME/.cargo/bin:$PATH"
pending=0
[ "${1:-}" != --pending ] || { pending=1; shift; }
out=${1:-dist}
# ask_status PKG_EMBED MODEL (true/false): $out/ask.json, replaced in one rename.
ask_status() {
    printf '{"about": "Which parts of Ask a question this server has (scripts/dist-ask.sh)", "parts": {"pkg-embed": %s, "model": %s}}\n' \
        "$1" "$2" >"$out/.ask.json.part"
    mv "$out/.ask.json.part" "$out/ask.json"
}
if [ $pending = 1 ]; then
    ask_status false false
    exit 0
fi
[ -f "$out/index.html" ] || { echo "dist-ask.sh: $out/index.html is missing: build the page first (bash scripts/dist.sh)" >&2; exit 1; }

step "model (fetch-model.sh)" bash scripts/fetch-model.sh
step "embedding package (wasm-embed.sh)" bash scripts/wasm-embed.sh
# place SRC NAME: SRC copied to $out/NAME, replacing it in one rename.
place() {
    rm -rf "$out/.$2.part" "$out/.$2.old"
    cp -r "$1" "$out/.$2.part"
    [ ! -e "$out/$2" ] || mv "$out/$2" "$out/.$2.old"
    mv "$out/.$2.part" "$out/$2"
    rm -rf "$out/.$2.old"
}
# The status first says missing what is about to be replaced (a re-run over a served bundle).
ask_status false false
place www/pkg-embed pkg-embed
ask_status true false
place www/model model
ask_status true true
echo "dist-ask: $out/pkg-embed ($(stat -c %s "$out/pkg-embed/csc_embed_bg.wasm") bytes of wasm) and $out/model ($(stat -c %s "$out/model/model.f16.safetensors") bytes of weights) are served"
