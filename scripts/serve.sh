#!/usr/bin/env bash
# Builds the playground bundle and serves it — what a developer sees is what a reader gets:
# installs only what building needs (scripts/setup-build.sh: the wasm32 target, wasm-bindgen-cli,
# wasm-opt; no browsers or test drivers, those are scripts/setup.sh's), builds dist/
# (scripts/dist.sh; the data directory is $CSC_DATA, default ../shared/data), then serves dist/
# on http://localhost:$PORT (default 8080) with `.wasm` as application/wasm (which
# WebAssembly.instantiateStreaming requires) and no caching, so a rebuild shows on reload.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
PORT=${PORT:-8080}
step "setup (build tools)" bash scripts/setup-build.sh
step "dist build" bash scripts/dist.sh
echo "serving dist/ on http://localhost:$PORT"
exec python3 - "$PORT" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".jsonl": "application/x-ndjson",
        ".f32": "application/octet-stream",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

handler = functools.partial(Handler, directory="dist")
with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler) as server:
    server.serve_forever()
PY
