#!/usr/bin/env bash
# Build the playground crate (playground/, over the wgpu-compaction library) for the browser:
#   target/wasm/wasm32-unknown-unknown/wasm-release/compaction_playground.wasm
#   -> wasm-bindgen --target web -> www/pkg/compaction_playground{.js,_bg.wasm}
#
# The wasm build uses its own target dir (target/wasm) so it never invalidates
# the native build's artifacts in target/.
# Runs scripts/setup.sh first unless the caller already did (WASM_TOOLCHAIN set).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ -z "${WASM_TOOLCHAIN:-}" || -z "${WASM_BINDGEN:-}" ]]; then
  # shellcheck source=scripts/setup.sh
  source "$ROOT/scripts/setup.sh"
fi

CRATE_LIB=compaction_playground
TARGET=wasm32-unknown-unknown
TARGET_DIR="$ROOT/target/wasm"
PROFILE=wasm-release
WASM="$TARGET_DIR/$TARGET/$PROFILE/$CRATE_LIB.wasm"
OUT_DIR="$ROOT/www/pkg"

log() { printf 'build-web: %s\n' "$*"; }

t0=$SECONDS
log "compiling Rust to wasm (the first build takes several minutes)..."
log "toolchain: $WASM_TOOLCHAIN, profile: $PROFILE (Cargo.toml: opt-level z, LTO), target dir: target/wasm"

case "$WASM_TOOLCHAIN" in
  rustup)
    cargo build -p compaction-playground --lib --profile "$PROFILE" --target "$TARGET" --target-dir "$TARGET_DIR"
    ;;
  debian)
    # Debian's rustc-web has the wasm32 target but no prebuilt std for it:
    # build std from rust-web-src's sources (-Zbuild-std, allowed on a stable
    # compiler by RUSTC_BOOTSTRAP=1) and link with lld's wasm-ld.
    # RUSTC/RUSTDOC point at Debian's compiler even if rustup's proxies come
    # first in PATH.
    log "Debian toolchain: $("$WASM_DEBIAN_RUSTC" --version), -Zbuild-std=std,panic_abort, linker $WASM_DEBIAN_LINKER"
    RUSTC_BOOTSTRAP=1 \
      RUSTC="$WASM_DEBIAN_RUSTC" \
      RUSTDOC="${WASM_DEBIAN_RUSTC%/rustc}/rustdoc" \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$WASM_DEBIAN_LINKER" \
      "$WASM_DEBIAN_CARGO" build -p compaction-playground --lib --profile "$PROFILE" --target "$TARGET" --target-dir "$TARGET_DIR" \
      -Zbuild-std=std,panic_abort
    ;;
  *)
    echo "build-web: ERROR: unknown WASM_TOOLCHAIN '$WASM_TOOLCHAIN' (expected rustup or debian)" >&2
    exit 1
    ;;
esac

[[ -f "$WASM" ]] || {
  echo "build-web: ERROR: cargo succeeded but $WASM is missing (is crate-type cdylib set?)" >&2
  exit 1
}
log "cargo build done in $((SECONDS - t0))s: ${WASM#"$ROOT"/} ($(du -h "$WASM" | cut -f1))"

log "wasm-bindgen $WASM_BINDGEN_VERSION --target web -> www/pkg/"
mkdir -p "$OUT_DIR"
"$WASM_BINDGEN" --target web --out-dir "$OUT_DIR" "$WASM"
for f in "$OUT_DIR/$CRATE_LIB.js" "$OUT_DIR/${CRATE_LIB}_bg.wasm"; do
  [[ -f "$f" ]] || {
    echo "build-web: ERROR: wasm-bindgen did not write ${f#"$ROOT"/}" >&2
    exit 1
  }
done
# Every built-in the glue reaches, through what www/core/captured.js captured when it loaded.
node "$ROOT/scripts/harden-glue.mjs" "$OUT_DIR/$CRATE_LIB.js"
log "wrote $(cd "$ROOT" && du -h "www/pkg/$CRATE_LIB.js" "www/pkg/${CRATE_LIB}_bg.wasm" | awk '{printf "%s (%s) ", $2, $1}')"
log "done in $((SECONDS - t0))s"
