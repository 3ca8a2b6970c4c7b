#!/usr/bin/env bash
# `npm test`: every check, stopping at the first failure. Two cores: the
# wasm's and the native side's Rust builds run side by side (each has long
# single-threaded stretches: linking, the wasm's fat LTO), and nothing is
# compiled twice.
#   setup -> rustfmt, biome (JS and CSS)
#   -> beside each other:
#        wasm:   clippy (wasm32) -> build (scripts/build.sh: the wasm, then dist/)
#        native: the native tests' build, linted by clippy as it compiles
#                (cargo test --no-run with clippy-driver as the workspace's
#                rustc wrapper: the dependencies compile once, not also for
#                a `cargo clippy` check)
#   -> native tests (cargo test, built above) -> the library as a dependency
#      (scripts/check-library.sh: its scratch crate reuses the tests' build),
#      while the wasm side's single-threaded LTO ends on the other core
#   -> tsc (JSDoc types), unit tests (node --test tests/js/)
#   -> browser tests (node --test e2e/, two files at a time, the slowest
#      first; the docs generators' sites among them)
# The docs generators (MkDocs Material, Zensical, Sphinx, VitePress,
# Docusaurus, Starlight, mdBook) and Firefox install in the background from
# the start; the browser tests wait for them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

STAGE_NAME=""
STAGE_START=0
SUMMARY=()
RUN_START=$SECONDS

stage() { # name
  stage_end
  STAGE_NAME="$1"
  STAGE_START=$SECONDS
  printf '\n==> test: %s\n' "$STAGE_NAME"
}
stage_end() {
  if [[ -n "$STAGE_NAME" ]]; then
    local d=$((SECONDS - STAGE_START))
    printf '<== test: %s: ok (%ds)\n' "$STAGE_NAME" "$d"
    SUMMARY+=("$(printf '  ok      %5ds  %s' "$d" "$STAGE_NAME")")
    STAGE_NAME=""
  fi
}
skip() { # name reason
  stage_end
  printf '\n==> test: %s: skipped: %s\n' "$1" "$2"
  SUMMARY+=("$(printf '  skipped %5s   %s (%s)' - "$1" "$2")")
}
on_exit() {
  local rc=$?
  # Whatever still runs in the background (a failed stage's sibling) goes with it.
  local pids
  pids="$(jobs -pr)"
  [[ -n "$pids" ]] && kill $pids 2>/dev/null
  if [[ $rc -ne 0 && -n "$STAGE_NAME" ]]; then
    printf '<== test: %s: FAILED (exit %d) after %ds\n' "$STAGE_NAME" "$rc" "$((SECONDS - STAGE_START))"
    SUMMARY+=("$(printf '  FAILED  %5ds  %s' "$((SECONDS - STAGE_START))" "$STAGE_NAME")")
  fi
  printf '\ntest: summary (total %ds)\n' "$((SECONDS - RUN_START))"
  printf '%s\n' "${SUMMARY[@]}"
  if [[ $rc -eq 0 ]]; then echo "test: all stages passed"; else echo "test: FAILED"; fi
}
trap on_exit EXIT

stage "setup"
# shellcheck source=scripts/setup.sh
source "$ROOT/scripts/setup.sh"

# Native GPU tests run on Mesa's lavapipe (software Vulkan on the CPU).
export WGPU_BACKEND=vulkan
lvp_icd="/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json"
if [[ -f "$lvp_icd" ]]; then
  export VK_ICD_FILENAMES="$lvp_icd" VK_DRIVER_FILES="$lvp_icd"
  echo "test: native GPU: WGPU_BACKEND=vulkan, Vulkan driver $lvp_icd (lavapipe)"
else
  echo "test: warning: $lvp_icd not found; wgpu will use whatever Vulkan driver it finds" >&2
fi

# Firefox and the generators of docs/embedding.md's recipes: downloads and one compile, beside the stages below,
# at the lowest CPU priority: they wait on the network, and the cargo stages they run beside are what the
# whole waits for (at the same priority, Docusaurus' and Starlight's installs made the build 90 s longer).
DOCS_TOOLS_LOG="$ROOT/target/docs-tools.log"
mkdir -p "$ROOT/target"
(
  renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
  SETUP_FUNCTIONS_ONLY=1
  # shellcheck source=scripts/setup.sh
  source "$ROOT/scripts/setup.sh"
  setup_firefox
  setup_docs_tools
) >"$DOCS_TOOLS_LOG" 2>&1 &
DOCS_TOOLS_PID=$!

stage "rustfmt (cargo fmt --all -- --check)"
cargo fmt --all -- --check

stage "biome: format and lint of JS and CSS (biome check)"
node_modules/.bin/biome check

# The wasm side, in the background: clippy for wasm32, then the build.
WASM_LOG="$ROOT/target/test-wasm.log"
(
  set -euo pipefail
  if [[ "$WASM_TOOLCHAIN" == rustup ]]; then
    echo "==> clippy, wasm32 (cargo clippy -p compaction-playground --lib --target wasm32-unknown-unknown)"
    cargo clippy -p compaction-playground --lib --target wasm32-unknown-unknown --target-dir target/wasm -- -D warnings
  else
    echo "==> clippy, wasm32: skipped: no clippy for Debian's wasm toolchain"
  fi
  echo "==> build: wasm and dist/ (scripts/build.sh)"
  bash "$ROOT/scripts/build.sh"
) >"$WASM_LOG" 2>&1 &
WASM_PID=$!

# Clippy on the native side is the tests' build itself: `cargo clippy` is
# `cargo check` with clippy-driver as the wrapper of the workspace's rustc, and
# the same wrapper on `cargo test` lints the same targets (lib, bins, tests,
# examples) while it compiles them, so the dependencies are compiled once, in
# release, instead of checked for clippy and then compiled again (207 s of two
# cores). CLIPPY_ARGS is clippy-driver's argument list (`-D warnings`), as
# cargo-clippy passes it. The run below keeps the same environment, or cargo
# would compile the workspace's crates again.
CLIPPY_DRIVER="$(command -v clippy-driver || true)"
[[ -n "$CLIPPY_DRIVER" ]] || { echo "test: clippy-driver not found (rustup component add clippy)" >&2; exit 1; }
LINTED=(env RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__")

stage "the native tests' build, linted (clippy-driver -D warnings as the workspace's rustc: cargo test --release --workspace --no-run), beside the wasm's clippy and build"
"${LINTED[@]}" cargo test --release --workspace --no-run

stage "native tests (cargo test --release --workspace, built above)"
"${LINTED[@]}" cargo test --release --workspace

stage "the library as a dependency: docs, cargo publish --dry-run, a scratch crate (scripts/check-library.sh)"
bash "$ROOT/scripts/check-library.sh"

# The wasm side's fat LTO runs on one core: the native tests and the library's
# check above used the other meanwhile.
stage "the wasm side: clippy (wasm32), build: wasm and dist/ (started beside the native stages)"
if ! wait "$WASM_PID"; then
  cat "$WASM_LOG" >&2
  echo "test: the wasm side failed (its log above)" >&2
  exit 1
fi
grep -E '^==>|^build-(web|dist):|^  (a page|one element)' "$WASM_LOG" || true

stage "types of the page's JavaScript (tsc -p tsconfig.json: JSDoc, checkJs)"
node_modules/.bin/tsc -p tsconfig.json

stage "unit tests of the pure modules (node --test tests/js/)"
mapfile -t UNIT_TESTS < <(find "$ROOT/tests/js" -name '*.test.mjs' | sort)
node --test "${UNIT_TESTS[@]#"$ROOT"/}"

# The page's built wasm on this machine's GPU through Dawn (Chrome's WebGPU, the npm package webgpu): every
# method against a reference up to what the adapter binds. Where Dawn finds no adapter (lavapipe is too old
# for it) it says "skipped: no adapter"; on a GPU machine it is what visitors run.
stage "the page's wasm on this machine's GPU through Dawn (scripts/gpu/harness.mjs --check)"
node scripts/gpu/harness.mjs --check 2>&1 | grep -v -e XDG_RUNTIME_DIR -e 'shaderUniform' -e 'While initializing adapter' -e 'PhysicalDeviceVk.cpp' -e '^$'

stage "docs generators (scripts/setup.sh setup_docs_tools, started at the beginning)"
if ! wait "$DOCS_TOOLS_PID"; then
  cat "$DOCS_TOOLS_LOG" >&2
  echo "test: the docs generators did not install" >&2
  exit 1
fi
grep '^setup:' "$DOCS_TOOLS_LOG" || true

mapfile -t E2E_TESTS < <(
  find "$ROOT/e2e" -type f \( -name '*.test.mjs' -o -name '*.test.js' -o -name '*.test.cjs' \) 2>/dev/null | sort
)
if ((${#E2E_TESTS[@]})); then
  stage "browser tests (node --test e2e/, ${#E2E_TESTS[@]} files, two at a time, the slowest first)"
  # Files are listed explicitly: `node --test <dir>` recurses on Node 20 but
  # not on Node 22+, where arguments are glob patterns. Two at a time (590 s
  # where one at a time took 889): a file waits on pages far more than it
  # computes, and a device that misses a page's start takes over when it comes
  # (www/core/engine.js, LATE_TIMEOUT_MS). Not beside the cargo stages: with
  # them the native tests took 279 s (85 alone), the library's check 440 s
  # (85) and the whole no less time, with a timing test of sharing.test.mjs past
  # its bound.
  SLOW_FIRST=(steppers language links sharing guest sites-js kernel playground panels tiles a11y)
  ORDERED=()
  for name in "${SLOW_FIRST[@]}"; do
    for f in "${E2E_TESTS[@]}"; do [[ "$(basename "$f")" == "$name.test.mjs" ]] && ORDERED+=("$f"); done
  done
  for f in "${E2E_TESTS[@]}"; do [[ " ${ORDERED[*]} " == *" $f "* ]] || ORDERED+=("$f"); done
  node --test --test-concurrency=2 "${ORDERED[@]#"$ROOT"/}"
else
  skip "browser tests" "no *.test.mjs files in e2e/"
fi

stage_end
