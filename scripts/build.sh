#!/usr/bin/env bash
# `npm run build`: install what is missing, build the wasm package (www/pkg/),
# then dist/ (scripts/build-dist.mjs): the element, its styles, the optimised
# wasm, the full page and embed.html, ready to copy to any static host.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ -z "${WASM_TOOLCHAIN:-}" || -z "${WASM_BINDGEN:-}" ]]; then
  # shellcheck source=scripts/setup.sh
  source "$ROOT/scripts/setup.sh"
fi
bash "$ROOT/scripts/build-web.sh"
node "$ROOT/scripts/build-dist.mjs"
