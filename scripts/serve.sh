#!/usr/bin/env bash
# Builds the playground bundle and serves it — what a developer sees is what a reader gets:
# installs only what building needs (scripts/setup-build.sh: the wasm32 target, wasm-bindgen-cli,
# wasm-opt; no browsers or test drivers, those are scripts/setup.sh's), builds dist/ without
# "Ask a question" (`ASK=later scripts/dist.sh`; the data directory is $CSC_DATA, default
# ../shared/data), then serves dist/ on http://localhost:$PORT (default 8080) with `.wasm` as
# application/wasm (which WebAssembly.instantiateStreaming requires) and no caching, so a rebuild
# shows on reload. The page is served as soon as the engine's package and the page are there; the
# embedding package and the model (scripts/dist-ask.sh, the slowest part of a first build) are
# built afterwards by this same command, their progress printed here, while the Ask panel says
# what it waits for and starts working without a reload once they arrive.
# Stops the server when it stops (Ctrl-C, or a failed Ask build: then the page stays served until
# Ctrl-C, with the failure printed). Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
PORT=${PORT:-8080}
t_start=$SECONDS
step "setup (build tools)" bash scripts/setup-build.sh
ASK=later step "dist build (the page)" bash scripts/dist.sh

python3 - "$PORT" <<'PY' &
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

    def log_message(self, *args):
        pass  # the build's progress is what this terminal shows

handler = functools.partial(Handler, directory="dist")
with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler) as server:
    server.serve_forever()
PY
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
# Serving once it answers (a port already in use ends the server: then stop here).
for _ in $(seq 50); do
    kill -0 "$server" 2>/dev/null || { echo "serve.sh: the server did not start (is port $PORT in use? PORT=… picks another)" >&2; exit 1; }
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=1)' "$PORT" 2>/dev/null && break
    sleep 0.2
done
echo "serving dist/ on http://localhost:$PORT after $((SECONDS - t_start)) s; building \"Ask a question\" now (the page works meanwhile; its Ask panel waits for it)"
if step "Ask a question (dist-ask.sh)" bash scripts/dist-ask.sh; then
    echo "\"Ask a question\" is ready after $((SECONDS - t_start)) s: the open page picks it up by itself. Serving on http://localhost:$PORT until Ctrl-C"
else
    echo "serve.sh: building \"Ask a question\" failed (above); the rest of the page is still served on http://localhost:$PORT until Ctrl-C" >&2
fi
wait "$server"
