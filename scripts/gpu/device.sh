#!/usr/bin/env bash
# On a lent GPU machine without Node (the device tool; carry .gpu .gl www/pkg
# dist, made by scripts/gpu/pack.sh): unpacks the Vulkan loader, Node and
# dawn.node, logs the card and its clocks, then in this one call, on this one
# card: the page's wasm through Dawn (scripts/gpu/harness.mjs: every method
# checked, the page's benchmark with Chrome's defaults, without timestamp
# quantisation, and without Dawn's robustness and workgroup zero-init), the
# native benchmark (wgpu on Vulkan, the portable kernels the page runs beside
# the subgroup ones) and NVIDIA CUB on the same sizes. Six files go to $OUT
# (the tool brings back eight at most): the harness's three JSON reports,
# native.jsonl, cub.txt and clocks.csv; the rest is printed.
#   bash scripts/gpu/device.sh [SIZES_LOG2 (default "14 16 18 20 22 24 26")]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
OUT="${OUT:-/tmp/gpu-out}"
mkdir -p "$OUT"
SIZES="${1:-14 16 18 20 22 24 26}"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
T=/tmp/gpu-tools
mkdir -p "$T"
xz -dc .gpu/node.xz >"$T/node" && chmod +x "$T/node"
xz -dc .gpu/webgpu/dist/linux-x64/dawn.node.xz >.gpu/webgpu/dist/linux-x64/dawn.node
xz -dc .gpu/bench.xz >"$T/bench" && chmod +x "$T/bench"
"$T/node" --version
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,temperature.gpu --format=csv | tee "$OUT/clocks.csv"

list=$(for s in $SIZES; do printf '%s,' "$s"; done)
list=${list%,}
echo "==> the page's wasm through Dawn (Chrome's defaults)"
"$T/node" scripts/gpu/harness.mjs --sizes "$list" --json "$OUT/dawn.json" 2>&1
echo "==> the same, timestamps unquantised"
"$T/node" scripts/gpu/harness.mjs --bench --sizes "$list" --toggles "disable-dawn-features=timestamp_quantization" --json "$OUT/dawn-exact.json" 2>&1
echo "==> the same, without Dawn's robustness and workgroup zero-init"
"$T/node" scripts/gpu/harness.mjs --bench --sizes "$list" --densities 0.5 \
  --toggles "enable-dawn-features=allow_unsafe_apis,disable_robustness,disable_workgroup_init disable-dawn-features=timestamp_quantization" \
  --json "$OUT/dawn-unsafe.json" 2>&1

echo "==> native wgpu (Vulkan), one process a size and density"
for d in 0.5 0.1; do
  for s in $SIZES; do
    "$T/bench" --sizes $((1 << s)) --density "$d" --reps 30 --warmup 5 --methods atomic,aggregated,scan,lookback,lookback-bits,tile-atomic,packed-scan --portable --json
  done
done >"$OUT/native.jsonl" 2>/tmp/native.err
tail -3 /tmp/native.err

echo "==> NVIDIA CUB"
nvcc -O3 -arch=sm_90 -o "$T/cub_select" playground/bench/cub_select.cu 2>&1 | tail -3
sizes=$(for s in $SIZES; do printf '%s ' $((1 << s)); done)
for d in 0.5 0.1; do
  echo "density $d"
  DENSITY=$d REPS=30 "$T/cub_select" $sizes
done 2>&1 | tee "$OUT/cub.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv | tee -a "$OUT/clocks.csv"
