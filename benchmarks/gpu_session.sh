#!/usr/bin/env bash
# Everything the Vulkan issues still need measured on a real GPU, as one command each (the GPU
# machine is lent for 30 minutes, 10 per command; docs/vulkan.md, "Measured"). Pack first, here:
#   bash scripts/pack-gpu.sh                 # ../shared/tools/gpu/pack.sh + every Vulkan suite
# then on the machine (the `run` tool, carry [".device"]):
#   bash .device/run.sh bash benchmarks/gpu_session.sh bench [REPEAT]
#   bash .device/run.sh bash benchmarks/gpu_session.sh tests
# bench: `scatter bench --backend vulkan --resident` on every standard workload with every path
#   on, then again with each path the choice prefers hidden (SCATTER_VULKAN_DISABLE_FEATURES) on
#   the workloads that take it, a --profile run (per-pass times), and PyTorch CUDA in the same
#   run; prints benchmarks/gpu_table.py's table and leaves the JSON lines in $OUT.
# tests: every Vulkan test suite in .device/bin on the GPU, one process each, summary in $OUT.
set -uo pipefail
mode=${1:-bench}
repeat=${2:-7}
out=${OUT:-/tmp/gpu-session}
mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"

# The path each switch hides, and the workloads that take that path by default.
variants=(
  "slab_path W1,W2,W3,W8,W11"
  "key_sort W4,W5,W6,W12,W13"
  "atomic_path W14"
)

case "$mode" in
  bench)
    scatter devices > "$out/devices.txt" 2>&1
    scatter bench --backend vulkan --resident --workload all --repeat "$repeat" --json > "$out/vk.jsonl"
    for v in "${variants[@]}"; do
      set -- $v
      SCATTER_VULKAN_DISABLE_FEATURES=$1 scatter bench --backend vulkan --resident --workload "$2" \
        --repeat "$repeat" --json > "$out/vk_no_$1.jsonl"
    done
    scatter bench --backend vulkan --resident --workload all --repeat 3 --profile > "$out/profile.txt" 2>&1
    python3 "$here/peers_torch.py" --device cuda --workload all --repeat "$repeat" --json > "$out/torch.jsonl"
    python3 "$here/gpu_table.py" "$out" | tee "$out/table.txt"
    ;;
  tests)
    : > "$out/tests.txt"
    for suite in $(find "$(dirname "$(command -v scatter)")" -maxdepth 1 -name 'scatter_vulkan_*' -type f -executable); do
      name=$(basename "$suite")
      start=$(date +%s)
      timeout 300 "$suite" > "$out/$name.log" 2>&1
      rc=$?
      echo "$name rc=$rc $(( $(date +%s) - start ))s $(grep -E '^\[  (PASSED|FAILED) ' "$out/$name.log" | tr '\n' ' ')" |
        tee -a "$out/tests.txt"
    done
    ;;
  *) echo "usage: gpu_session.sh bench [REPEAT] | tests" >&2; exit 2 ;;
esac
