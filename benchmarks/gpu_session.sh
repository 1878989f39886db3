#!/usr/bin/env bash
# Everything the Vulkan issues still need measured on a real GPU, as one command each (the GPU
# machine is lent for 30 minutes, 10 per command; docs/vulkan.md, "Measured"). Pack first, here:
#   bash scripts/pack-gpu.sh                 # ../shared/tools/gpu/pack.sh + every Vulkan suite
# then on the machine (the `run` tool, carry [".device"]):
#   bash .device/run.sh bash benchmarks/gpu_session.sh bench [REPEAT]
#   bash .device/run.sh bash benchmarks/gpu_session.sh tests
#   bash .device/run.sh bash benchmarks/gpu_session.sh all [SECONDS]   # floors, bench, diff, tests
# bench: `scatter bench --backend vulkan --resident` on every standard workload with every path
#   on, then again with each path the choice prefers hidden (SCATTER_VULKAN_DISABLE_FEATURES) on
#   the workloads that take it, a --profile run (per-pass times), and PyTorch CUDA in the same
#   run; prints benchmarks/gpu_table.py's table and leaves the JSON lines in $OUT.
# tests: every Vulkan test suite in .device/bin on the GPU, in shards of at most 8 tests a process
#   (the driver there refuses the 30th VkInstance of a process; a test makes up to 3), then the
#   differential examples and random cases; summary in $OUT/tests.txt.
# all: the driver floors (vkfloor), bench, tests, in that order, each step skipped once SECONDS
#   (default 420) have passed, so that one command fits the machine's time.
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

start_all=$(date +%s)
budget=${2:-420}
in_time() { (( $(date +%s) - start_all < budget )); }

run_logged() {  # NAME TIMEOUT COMMAND...: runs, logs to $out/NAME.log, one summary line
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc $(( $(date +%s) - t0 ))s $(grep -E '^\[  (PASSED|FAILED) ' "$out/$name.log" | tr '\n' ' ')" |
    tee -a "$out/tests.txt"
}

run_tests() {
  : > "$out/tests.txt"
  local bin suite name count shards i
  bin=$(dirname "$(command -v scatter)")
  for name in scatter_diff_examples scatter_diff_random_vulkan; do
    in_time || return 0
    [ -x "$bin/$name" ] && run_logged "$name" 240 "$bin/$name"
  done
  for suite in $(ls "$bin"/scatter_vulkan_* | sort); do
    [ -f "$suite" ] && [ -x "$suite" ] || continue
    name=$(basename "$suite")
    count=$("$suite" --gtest_list_tests 2>/dev/null | grep -c '^  ')
    shards=$(( (count + 7) / 8 ))
    (( shards > 0 )) || shards=1
    for (( i = 0; i < shards; i++ )); do
      in_time || return 0
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i run_logged "$name.$i" 200 "$suite"
    done
  done
}

case "$mode" in
  all)
    repeat=7
    vkfloor 16777216 > "$out/vkfloor.txt" 2>&1
    bash "$0" bench "$repeat"
    in_time && run_tests
    echo "all: $(( $(date +%s) - start_all ))s" | tee -a "$out/tests.txt"
    ;;
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
    budget=100000
    run_tests
    ;;
  *) echo "usage: gpu_session.sh bench [REPEAT] | tests | all [SECONDS]" >&2; exit 2 ;;
esac
