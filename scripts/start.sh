#!/usr/bin/env bash
# `npm start`: install what is missing, build the wasm package, serve the page.
#   PORT=9000 npm start        serve on another port (default 8080)
#   HOST=0.0.0.0 npm start     listen on all interfaces (default 127.0.0.1)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

echo "start: [1/3] setup"
# shellcheck source=scripts/setup.sh
source "$ROOT/scripts/setup.sh"

# Fail now, not after a several-minute build, if the port is taken.
node "$ROOT/scripts/serve.mjs" --check

echo "start: [2/3] building the wasm package and dist/ (scripts/build.sh)"
bash "$ROOT/scripts/build.sh"

if [[ ! -f "$ROOT/index.html" ]]; then
  echo "start: warning: index.html not found in $ROOT; the server will answer 404 for /" >&2
fi

echo "start: [3/3] serving $ROOT (Ctrl+C to stop)"
exec node "$ROOT/scripts/serve.mjs"
