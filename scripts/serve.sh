#!/usr/bin/env bash
# Builds the playground and serves it. (The page arrives with the WebAssembly build; until then
# this serves www/ as it is.)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8080}
echo "serving www/ on http://localhost:$PORT"
exec python3 -m http.server "$PORT" --directory www
