#!/usr/bin/env bash
# `npm test`: every check, in order, stopping at the first failure.
#   setup -> rustfmt -> clippy (native) -> clippy (wasm32) -> cargo test
#   -> the library as a dependency (scripts/check-library.sh)
#   -> build (scripts/build.sh: wasm, then dist/) -> browser tests (node --test e2e/)
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

stage "rustfmt (cargo fmt --all -- --check)"
cargo fmt --all -- --check

stage "clippy, native (cargo clippy --workspace --all-targets -- -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

if [[ "$WASM_TOOLCHAIN" == rustup ]]; then
  stage "clippy, wasm32 (cargo clippy -p compaction-playground --lib --target wasm32-unknown-unknown)"
  cargo clippy -p compaction-playground --lib --target wasm32-unknown-unknown --target-dir target/wasm -- -D warnings
else
  skip "clippy, wasm32" "no clippy for Debian's wasm toolchain"
fi

stage "native tests (cargo test --release --workspace)"
cargo test --release --workspace

stage "the library as a dependency: docs, cargo publish --dry-run, a scratch crate (scripts/check-library.sh)"
bash "$ROOT/scripts/check-library.sh"

stage "build: wasm and dist/ (scripts/build.sh)"
bash "$ROOT/scripts/build.sh"

mapfile -t E2E_TESTS < <(
  find "$ROOT/e2e" -type f \( -name '*.test.mjs' -o -name '*.test.js' -o -name '*.test.cjs' \) 2>/dev/null | sort
)
if ((${#E2E_TESTS[@]})); then
  stage "browser tests (node --test e2e/, ${#E2E_TESTS[@]} files)"
  # Files are listed explicitly: `node --test <dir>` recurses on Node 20 but
  # not on Node 22+, where arguments are glob patterns.
  node --test "${E2E_TESTS[@]#"$ROOT"/}"
else
  skip "browser tests" "no *.test.mjs files in e2e/"
fi

stage_end
