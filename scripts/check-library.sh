#!/usr/bin/env bash
# The library as a renderer gets it (npm test runs this):
#   1. its docs build with every public item documented (warnings denied), and
#      its public API is the committed listing, nothing of the newest v* tag's
#      gone without a new minor (scripts/public-api.mjs);
#   2. `cargo publish --dry-run` passes, packaging only the library's files;
#   3. a scratch crate that names only wgpu-compaction (the package just made,
#      unpacked: what crates.io would serve), wgpu, bytemuck and pollster
#      (and num-traits' std, only so that it shares the tests' build)
#      builds and runs a GPU-driven frame (examples/multi_draw.rs, as a
#      renderer would write it: per-mesh records and payload into its own buffers,
#      one multi-draw, every pixel checked), and its dependency tree has none of
#      the playground's crates (wasm-bindgen, web-sys, js-sys); the library's own
#      dependencies are wgpu and bytemuck.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
log() { printf 'check-library: %s\n' "$*"; }
die() {
  printf 'check-library: ERROR: %s\n' "$*" >&2
  exit 1
}

log "cargo doc -p wgpu-compaction (missing docs and broken links denied)"
RUSTDOCFLAGS="-D warnings" cargo doc -p wgpu-compaction --no-deps --quiet

log "the public API against api/wgpu-compaction.txt and the newest v* tag's (scripts/public-api.mjs)"
node "$ROOT/scripts/public-api.mjs" --check

log "cargo package --list: only the library's files"
files="$(cargo package -p wgpu-compaction --list --allow-dirty 2>/dev/null)"
printf '%s\n' "$files" | sed 's/^/  /'
# Here-strings, not `printf | grep -q`: grep -q leaves at its first match, and
# under pipefail the printf it cut off (SIGPIPE) failed the check now and then.
if grep -Eq '^(playground|www|e2e|scripts|docs|dist|node_modules)/|\.mjs$|package\.json' <<<"$files"; then
  die "the library's package holds files that are not the library"
fi
for needed in LIBRARY.md LICENSE src/lib.rs shaders/tiles.wgsl shaders/lookback.wgsl examples/renderer.rs examples/multi_draw.rs; do
  grep -qx "$needed" <<<"$files" || die "the package lacks $needed"
done

# The package is built below, as the scratch crate's dependency: not twice.
log "cargo publish -p wgpu-compaction --dry-run --no-verify"
cargo publish -p wgpu-compaction --dry-run --no-verify --allow-dirty --quiet
cargo package -p wgpu-compaction --no-verify --allow-dirty --quiet
crate="$(ls -t "$ROOT"/target/package/wgpu-compaction-*.crate | head -n 1)"
unpacked="$ROOT/target/scratch-package"
rm -rf "$unpacked"
mkdir -p "$unpacked"
tar -xzf "$crate" -C "$unpacked" --strip-components=1

scratch="$ROOT/target/scratch-crate"
log "a scratch crate depending on the library alone ($scratch)"
rm -rf "$scratch"
mkdir -p "$scratch/src"
cat >"$scratch/Cargo.toml" <<TOML
[package]
name = "scratch-renderer"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
wgpu-compaction = { path = "$unpacked" }
# The workspace's features of wgpu, so that the build shares its compiled dependencies.
wgpu = { version = "30", default-features = false, features = ["std", "parking_lot", "wgsl", "webgpu", "vulkan", "metal", "dx12"] }
bytemuck = "1"
pollster = "0.4"
# Not the renderer's: num-traits' std, which the workspace's tests turn on
# (proptest's std), so that naga, and wgpu above it, are the tests' compiled
# units and not compiled again (about 45 s of two cores). The checks below are
# of the library's own dependencies, not this crate's.
num-traits = { version = "0.2", default-features = false, features = ["std"] }
TOML
# The workspace's versions of everything (cargo drops what the crate does not use).
cp "$ROOT/Cargo.lock" "$scratch/Cargo.lock"
# The renderer's frame of the repository's example, built against the library alone.
cp "$ROOT/examples/multi_draw.rs" "$scratch/src/main.rs"
tree="$(cd "$scratch" && cargo tree --edges normal --prefix none)"
if printf '%s\n' "$tree" | grep -Eq '^(wasm-bindgen|web-sys|js-sys|compaction-playground|console_error_panic_hook) '; then
  die "the library pulls in the playground's dependencies: $(printf '%s\n' "$tree" | grep -E '^(wasm-bindgen|web-sys|js-sys)' | sort -u | tr '\n' ' ')"
fi
direct="$(cd "$scratch" && cargo tree --edges normal --depth 1 --prefix none -p wgpu-compaction | tail -n +2 | awk '{print $1}' | sort -u | tr '\n' ' ')"
[[ "$direct" == "bytemuck naga wgpu " ]] || die "the library depends on more than wgpu, its naga and bytemuck: $direct"
log "cargo tree: $(printf '%s\n' "$tree" | sort -u | wc -l) crates, none of wasm-bindgen, web-sys, js-sys; the library's own: $direct"
(cd "$scratch" && CARGO_TARGET_DIR="$ROOT/target" cargo run --release --quiet)
log "ok"
