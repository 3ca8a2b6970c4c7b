#!/usr/bin/env bash
# On a lent GPU machine without Node (the device tool; carry .gpu .gl www/pkg
# dist, made by scripts/gpu/pack.sh): unpacks the Vulkan loader, Node and
# dawn.node, logs the card and its clocks, then in this one call, on this one
# card: the page's wasm through Dawn (scripts/gpu/harness.mjs: every method
# checked, then the page's benchmark with Chrome's defaults over every size in
# that one process, as a tab sweeping the sizes would; then one process a size,
# as the native benchmark runs: timestamps unquantised, and also without Dawn's
# robustness and workgroup zero-init), the native benchmark (wgpu on Vulkan,
# the portable kernels the page runs beside the subgroup ones) and NVIDIA CUB
# on the same sizes. The SM clock is logged every 100 ms through it all: the
# driver lowers it within a second of light work (small sizes, the checks'
# readbacks) and takes seconds to raise it again, so a size timed after the
# small ones in one process can run at half the clock (BENCHMARKS.md v34).
# Six files go to $OUT (the tool brings back eight at most): the harness's
# three JSON reports (each row with its start and end), native.jsonl (each
# process's rows after a line with its start), cub.txt and clocks.csv (the
# card, then the log); the rest is printed, each stage with its start time.
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
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/clocks.csv"
echo "ms since the epoch, SM MHz, memory MHz, W, °C" >>"$OUT/clocks.csv"
# nvidia-smi's own timestamp is local time to 1 ms; the log's rows are stamped
# here in ms since the epoch, as the harness's rows are.
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader,nounits -lms 100 \
  > >(while IFS= read -r line; do echo "$(date +%s%3N), $line"; done >>"$OUT/clocks.csv") &
LOG=$! # nvidia-smi's; the stamping loop ends with its output
stage() { echo "==> $* ($(date -u +%T))"; }

list=$(for s in $SIZES; do printf '%s,' "$s"; done)
list=${list%,}
stage "the page's wasm through Dawn (Chrome's defaults), every size in one process"
"$T/node" scripts/gpu/harness.mjs --sizes "$list" --json "$OUT/dawn.json" 2>&1
# The page's benchmark in one process a size, appended to one report ($1),
# with Dawn's toggles ($2) and the harness's other arguments; the adapter and
# header lines, the same every process, left out.
per_size() {
  local report=$1 toggles=$2
  shift 2
  for s in $SIZES; do
    "$T/node" scripts/gpu/harness.mjs --bench --sizes "$s" --toggles "$toggles" "$@" --json "$OUT/$report" --append 2>&1 |
      grep -v "^gpu-harness: .*\(Dawn toggles\|the page's benchmark\)"
  done
}
stage "the same, timestamps unquantised, one process a size"
per_size dawn-exact.json "disable-dawn-features=timestamp_quantization"
stage "the same, without Dawn's robustness and workgroup zero-init, one process a size"
per_size dawn-unsafe.json \
  "enable-dawn-features=allow_unsafe_apis,disable_robustness,disable_workgroup_init disable-dawn-features=timestamp_quantization" \
  --densities 0.5

stage "native wgpu (Vulkan), one process a size and density"
for d in 0.5 0.1; do
  for s in $SIZES; do
    printf '{"startedAt":%s,"n":%s,"density":%s}\n' "$(date +%s%3N)" $((1 << s)) "$d"
    "$T/bench" --sizes $((1 << s)) --density "$d" --reps 30 --warmup 5 --methods atomic,aggregated,scan,lookback,lookback-bits,tile-atomic,packed-scan --portable --json
  done
done >"$OUT/native.jsonl" 2>/tmp/native.err
tail -3 /tmp/native.err

stage "NVIDIA CUB"
nvcc -O3 -arch=sm_90 -o "$T/cub_select" playground/bench/cub_select.cu 2>&1 | tail -3
sizes=$(for s in $SIZES; do printf '%s ' $((1 << s)); done)
for d in 0.5 0.1; do
  echo "density $d"
  DENSITY=$d REPS=30 "$T/cub_select" $sizes
done 2>&1 | tee "$OUT/cub.txt"
kill "$LOG"
