#!/usr/bin/env bash
# Builds the playground and serves it: installs what is missing (scripts/setup.sh), builds the
# WebAssembly package into www/pkg (scripts/wasm.sh), then serves www/ on
# http://localhost:$PORT (default 8080) with `.wasm` as application/wasm (which
# WebAssembly.instantiateStreaming requires) and no caching, so a rebuild shows on reload.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
PORT=${PORT:-8080}
step "setup" bash scripts/setup.sh
step "wasm build" bash scripts/wasm.sh
echo "serving www/ on http://localhost:$PORT"
exec python3 - "$PORT" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

handler = functools.partial(Handler, directory="www")
with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler) as server:
    server.serve_forever()
PY
