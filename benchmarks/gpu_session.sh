#!/usr/bin/env bash
# Everything the Vulkan issues still need measured on a real GPU, as one command each (a session
# gets 15 minutes of device time in all, its start included, 10 per command; docs/vulkan.md,
# "Measured"). Pack first, here:
#   bash scripts/pack-gpu.sh                 # ../shared/tools/gpu/pack.sh + every Vulkan suite
# then on the machine (the `run` tool, carry [".device"]):
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh bench [REPEAT]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh tests
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh all [SECONDS]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh ab FEATURES
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh large
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh cpu [THREADS]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh probe [FEATURES [SECONDS]]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh check [SECONDS]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh confirm
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh fold [SECONDS]
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh occupancy
#   bash .device/run.sh bash .device/benchmarks/gpu_session.sh next [SECONDS]
# next: what the open questions need first, in one command for a 15-minute lease (docs/vulkan.md,
#   "Not done"), most telling first, files written as they are made, each step after the first
#   table only while SECONDS (default 480) have not passed; back: next.txt, next_raw.tgz.
# bench: `scatter bench --backend vulkan --resident` on every standard workload with every path
#   on, then again under each switch that changes a workload's path on those workloads
#   (SCATTER_VULKAN_DISABLE_FEATURES), a process per workload; --profile runs of both (per-pass
#   times), and PyTorch CUDA in the same run; prints benchmarks/gpu_table.py's table and leaves the JSON lines in $OUT.
# tests: the differential random cases and every Vulkan test suite in .device/bin on the GPU,
#   most telling first, in shards of at most 8 tests a process (the driver there refuses the 30th
#   VkInstance of a process; a test makes up to 3); summary and failures in $OUT/tests.txt.
# all: the driver floors (vkfloor), bench, tests, each test step only while SECONDS (default
#   420) have not passed, so that one command fits the machine's time; only three files come
#   back (the machine returns at most 8): bench.txt, bench_raw.tgz, tests.txt.
# ab: bench with every path on (A) and with FEATURES (a switch list) hidden under every variant
#   (B), each once more without variants (the spread between processes), a --profile run of B, then the
#   differential random cases under B; back: ab.txt (both tables, B's profile, the test), ab_raw.tgz.
# large (issue 15): the 4 GiB table test by buffer device address at the device's windows
#   (vulkan.Basics.DISABLED_FourGiBTableByAddress) and W15 (rows add into a 4 GiB table) that way,
#   resident with --profile; then with storage-buffer windows of 1 GiB
#   (SCATTER_VULKAN_TEST_WINDOW_BYTES) the same table through 4 windows
#   (DISABLED_FourGiBTableWithGiBWindows) and W15 again; PyTorch CUDA on W15; back: large.txt.
#   If the windowed test passes, the default window cap can rise to 1 GiB (src/vulkan/vk_switches.h).
# cpu (issue 14): the CPU backend against PyTorch's CPU operators on the machine's own cores:
#   benchmarks/compare.sh at 1, 2 and THREADS threads (default: every core), every standard
#   workload, repeat 5, under a 540 s limit; back: cpu.txt (the tables, the machine's CPU).
# SCATTER_BENCH_HIDE (environment): switches hidden in every bench process of this run.
set -uo pipefail
mode=${1:-bench}
repeat=${2:-7}
out=${OUT:-/tmp/gpu-session}
mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"

# Each switch, and the workloads whose path it changes on a GPU (vk_path.cpp): gpu_slab_limits
# gives the slab path the calls a GPU keeps from it, slab_path takes W3's away, key_sort sends
# the target path's reductions through the bucket passes, atomic_path sends order-free ones to
# the target or slab path.
variants=(
  "gpu_slab_limits W1,W2,W8,W10,W11"
  "slab_path W3"
  "key_sort W2,W4,W5,W6,W9,W10,W12,W13"
  "atomic_path W8,W14"
)
# (SCATTER_SESSION_WORKLOADS: another list, e.g. to try a mode quickly on lavapipe.)
all_workloads=${SCATTER_SESSION_WORKLOADS:-"W1 W2 W3 W4 W5 W6 W7 W8 W9 W10 W11 W12 W13 W14 W16 W17 W18"}

# One process per workload, so that no workload runs after others (on an H200 the same path
# ran up to 3-4x slower as the 14th workload of a process than alone: W14, 2026-11-26).
bench_each() {  # HIDDEN WORKLOADS(comma or space separated) EXTRA_ARGS...
  local hidden=$1 list=$2 w
  shift 2
  for w in ${list//,/ }; do
    SCATTER_VULKAN_DISABLE_FEATURES=$hidden scatter bench --backend vulkan --resident --workload "$w" "$@"
  done
}

# probe and check: results gathered in a temporary folder (only a summary and a tarball come
# back), the summary $OUT/NAME.txt begun, the devices and every workload with every path on (A).
collect_a() {  # NAME
  final=$out
  out=$(mktemp -d)
  summary=$final/$1.txt
  : > "$summary"
  scatter devices > "$out/devices.txt" 2>&1
  bench_each "" "$all_workloads" --repeat 7 --json > "$out/vk.jsonl" 2> "$out/a.err"
}

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
    tee -a "$summary"
  if (( rc != 0 )); then  # what failed, where the summary is all that comes back
    grep -E 'Failure|FAILED|Expected|Which is|Value of|error|what:|\.cpp:[0-9]+' "$out/$name.log" | head -40 >> "$summary"
  fi
}

# The suites that check the most per second first (the machine's time may run out).
suite_order="scatter_diff_random_vulkan scatter_vulkan_slab scatter_vulkan_key_sort scatter_vulkan_atomics
  scatter_vulkan_masked_features scatter_vulkan_pipeline_keys scatter_vulkan_radix_sort scatter_vulkan_loop_limit
  scatter_diff_examples scatter_vulkan_call_path scatter_vulkan_float_exactness scatter_vulkan_interop
  scatter_vulkan_basics scatter_vulkan_long_run scatter_vulkan_sweep"

run_tests() {
  local bin suite name count shards i
  bin=$(dirname "$(command -v scatter)")
  for name in $suite_order; do
    suite=$bin/$name
    [ -f "$suite" ] && [ -x "$suite" ] || continue
    if [[ $name == scatter_diff_* ]]; then
      in_time && run_logged "$name" 240 "$suite"
      continue
    fi
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
  all)  # three files come back: bench.txt, bench_raw.tgz, tests.txt
    final=$out
    out=$(mktemp -d)
    summary=$final/tests.txt
    : > "$summary"
    vkfloor 16777216 > "$out/vkfloor.txt" 2>&1
    OUT=$out bash "$0" bench 7
    cat "$out/devices.txt" "$out/vkfloor.txt" "$out/table.txt" "$out"/profile*.txt > "$final/bench.txt" 2>&1
    tar czf "$final/bench_raw.tgz" -C "$out" .
    in_time && run_tests
    echo "all: $(( $(date +%s) - start_all ))s" | tee -a "$summary"
    ;;
  bench)
    base=${SCATTER_BENCH_HIDE:+$SCATTER_BENCH_HIDE,}
    scatter devices > "$out/devices.txt" 2>&1
    bench_each "${base%,}" "$all_workloads" --repeat "$repeat" --json > "$out/vk.jsonl"
    for v in "${variants[@]}"; do
      set -- $v
      bench_each "$base$1" "$2" --repeat "$repeat" --json > "$out/vk_no_$1.jsonl"
    done
    bench_each "${base%,}" "$all_workloads" --repeat 3 --profile > "$out/profile.txt" 2>&1
    for v in "${variants[@]}"; do
      set -- $v
      bench_each "$base$1" "$2" --repeat 3 --profile > "$out/profile_no_$1.txt" 2>&1
    done
    if [ -f "${SCATTER_TORCH_JSON:-}" ]; then cp "$SCATTER_TORCH_JSON" "$out/torch.jsonl"
    else python3 "$here/peers_torch.py" --device cuda --workload all --repeat "$repeat" --json > "$out/torch.jsonl"; fi
    python3 "$here/gpu_table.py" "$out" | tee "$out/table.txt"
    ;;
  ab)  # two files come back: ab.txt, ab_raw.tgz
    hide=${2:?usage: gpu_session.sh ab FEATURES}
    final=$out
    out=$(mktemp -d)
    summary=$out/tests.txt
    : > "$summary"
    OUT=$out/a1 bash "$0" bench 5 > /dev/null
    export SCATTER_TORCH_JSON=$out/a1/torch.jsonl  # PyTorch once: the same for every table
    OUT=$out/b1 SCATTER_BENCH_HIDE=$hide bash "$0" bench 5 > /dev/null
    for r in a2 b2; do  # every path on only: does a process land on other times?
      mkdir -p "$out/$r"
      cp "$SCATTER_TORCH_JSON" "$out/$r/torch.jsonl"
      bench_each "$([[ $r == b* ]] && echo "$hide")" "$all_workloads" --repeat 5 --json > "$out/$r/vk.jsonl"
      python3 "$here/gpu_table.py" "$out/$r" > "$out/$r/table.txt"
    done
    SCATTER_VULKAN_DISABLE_FEATURES=$hide run_logged diff_random_hidden 200 "$(dirname "$(command -v scatter)")/scatter_diff_random_vulkan"
    for r in a1 b1 a2 b2; do echo "== $r (${r%%[0-9]}: $([[ $r == b* ]] && echo "$hide hidden" || echo "every path on"))"; cat "$out/$r/table.txt"; done > "$final/ab.txt"
    { cat "$summary"; echo "== profile, $hide hidden"; cat "$out/b1/profile.txt"; } >> "$final/ab.txt"
    tar czf "$final/ab_raw.tgz" -C "$out" .
    ;;
  large)  # one file comes back: large.txt
    summary=$out/large.txt
    : > "$summary"
    bin=$(dirname "$(command -v scatter)")
    scatter devices >> "$summary" 2>&1
    run_logged four_gib_by_address 300 "$bin/scatter_vulkan_basics" --gtest_also_run_disabled_tests \
      --gtest_filter='*FourGiBTableByAddress*:*TableBeyondFourWindows*:*PastTwoGiB*'
    echo "W15 by buffer device address:" >> "$summary"
    timeout 300 scatter bench --backend vulkan --resident --workload W15 --repeat 5 --profile >> "$summary" 2>&1
    echo "scatter bench rc=$?" >> "$summary"
    export SCATTER_VULKAN_TEST_WINDOW_BYTES=1073741824
    run_logged four_gib_table 300 "$bin/scatter_vulkan_basics" --gtest_also_run_disabled_tests \
      --gtest_filter='*FourGiBTableWithGiBWindows*:*TableOfFourWindows*'
    echo "W15 through 4 windows of 1 GiB:" >> "$summary"
    timeout 300 scatter bench --backend vulkan --resident --workload W15 --repeat 5 --profile >> "$summary" 2>&1
    echo "scatter bench rc=$?" >> "$summary"
    unset SCATTER_VULKAN_TEST_WINDOW_BYTES
    timeout 200 python3 "$here/peers_torch.py" --device cuda --workload W15 --repeat 5 >> "$summary" 2>&1
    echo "peers_torch rc=$?" >> "$summary"
    ;;
  probe)  # two files come back: probe.txt, probe_raw.tgz
    # Every workload in its own process with every path on (A) and with FEATURES hidden (B,
    # default reduction_constants), PyTorch CUDA, --profile runs of A and B with the driver's
    # statistics of every pipeline compiled (SCATTER_VULKAN_PIPELINE_STATS: registers, shared
    # memory, spills), the differential random cases with every path on, the slab's passes
    # where gpu_slab_limits is hidden, A again (the spread between processes); each step only
    # while SECONDS (default 400) have not passed.
    hide=${2:-reduction_constants}
    budget=${3:-400}
    collect_a probe
    echo "A: $(( $(date +%s) - start_all ))s" >> "$summary"
    bench_each "$hide" "$all_workloads" --repeat 7 --json > "$out/vk_no_$hide.jsonl" 2> "$out/b.err"
    echo "B: $(( $(date +%s) - start_all ))s" >> "$summary"
    timeout 120 python3 "$here/peers_torch.py" --device cuda --workload all --repeat 7 --json > "$out/torch.jsonl" 2> "$out/torch.err"
    python3 "$here/gpu_table.py" "$out" > "$out/table.txt" 2>&1
    echo "torch: $(( $(date +%s) - start_all ))s" >> "$summary"
    export SCATTER_VULKAN_PIPELINE_STATS=1
    in_time && bench_each "" "$all_workloads" --repeat 3 --profile > "$out/profile.txt" 2>&1
    in_time && run_logged diff_random 150 "$(dirname "$(command -v scatter)")/scatter_diff_random_vulkan"
    in_time && bench_each "$hide" "$all_workloads" --repeat 3 --profile > "$out/profile_no_$hide.txt" 2>&1
    in_time && bench_each gpu_slab_limits "W1 W2 W8 W11" --repeat 3 --profile > "$out/profile_slab.txt" 2>&1
    unset SCATTER_VULKAN_PIPELINE_STATS
    in_time && { mkdir -p "$out/again"; cp "$out/torch.jsonl" "$out/again/";
                 bench_each "" "$all_workloads" --repeat 7 --json > "$out/again/vk.jsonl" 2>&1;
                 python3 "$here/gpu_table.py" "$out/again" > "$out/again/table.txt" 2>&1; }
    echo "probe: $(( $(date +%s) - start_all ))s" >> "$summary"
    { cat "$out/devices.txt" "$out/table.txt"; echo "== A again"; cat "$out/again/table.txt" 2>/dev/null
      echo "== profile (A)"; cat "$out/profile.txt" 2>/dev/null; } >> "$summary"
    tar czf "$final/probe_raw.tgz" -C "$out" .
    ;;
  check)  # two files come back: check.txt, check_raw.tgz
    # The looping passes and the quads (2026-11-27): every workload in its own process with
    # every path on (A); with the looping passes' grid uncapped (B, "no grid_cap": one tile of
    # ids per workgroup, as before); W8/W14 with the atomic path hidden (the key sort and the
    # quads instead); W4-W6, W12, W13 with the key sort hidden (the bucket passes); PyTorch CUDA;
    # A's --profile with the pipelines' statistics; the differential random cases and
    # KeySort.Quads* on the GPU. Each step after PyTorch only while SECONDS (default 400) remain.
    budget=${2:-400}
    collect_a check
    SCATTER_VULKAN_TEST_MAX_GROUPS=1048576 bench_each "" "$all_workloads" --repeat 7 --json > "$out/vk_no_grid_cap.jsonl" 2> "$out/b.err"
    bench_each atomic_path "W8 W14" --repeat 7 --json > "$out/vk_no_atomic_path.jsonl" 2>> "$out/b.err"
    bench_each key_sort "W4 W5 W6 W12 W13" --repeat 7 --json > "$out/vk_no_key_sort.jsonl" 2>> "$out/b.err"
    echo "bench: $(( $(date +%s) - start_all ))s" >> "$summary"
    timeout 120 python3 "$here/peers_torch.py" --device cuda --workload all --repeat 7 --json > "$out/torch.jsonl" 2> "$out/torch.err"
    python3 "$here/gpu_table.py" "$out" > "$out/table.txt" 2>&1
    echo "torch: $(( $(date +%s) - start_all ))s" >> "$summary"
    bin=$(dirname "$(command -v scatter)")
    in_time && run_logged diff_random 150 "$bin/scatter_diff_random_vulkan"
    in_time && run_logged key_sort_quads 60 "$bin/scatter_vulkan_key_sort" --gtest_filter='*Quads*:*EveryDtype*'
    in_time && SCATTER_VULKAN_PIPELINE_STATS=1 bench_each "" "$all_workloads" --repeat 3 --profile > "$out/profile.txt" 2>&1
    in_time && SCATTER_VULKAN_TEST_MAX_GROUPS=1048576 bench_each "" "W3 W4 W8" --repeat 3 --profile > "$out/profile_no_grid_cap.txt" 2>&1
    echo "check: $(( $(date +%s) - start_all ))s" >> "$summary"
    { cat "$out/devices.txt" "$out/table.txt"; echo "== profile (A)"; grep -v '^scatter pipeline' "$out/profile.txt" 2>/dev/null
      echo "== profile, grid uncapped"; grep -v '^scatter pipeline' "$out/profile_no_grid_cap.txt" 2>/dev/null; } >> "$summary"
    tar czf "$final/check_raw.tgz" -C "$out" .
    ;;
  confirm)  # files written as they are made (a short lease may end the command early)
    # Every workload with every path on, PyTorch CUDA, the table; the differential random cases
    # on the GPU (at most 190 s); --profile with the pipelines' statistics of the folds' workloads,
    # and W2 and W10 again with the radix sort's ordered writes hidden.
    scatter devices > "$out/devices.txt" 2>&1
    bench_each "" "$all_workloads" --repeat 7 --json > "$out/vk.jsonl" 2> "$out/a.err"
    timeout 100 python3 "$here/peers_torch.py" --device cuda --workload all --repeat 7 --json > "$out/torch.jsonl" 2> "$out/torch.err"
    python3 "$here/gpu_table.py" "$out" > "$out/table.txt" 2>&1
    timeout 190 "$(dirname "$(command -v scatter)")/scatter_diff_random_vulkan" > "$out/diff_random.log" 2>&1
    echo "diff_random rc=$? after $(( $(date +%s) - start_all ))s" >> "$out/table.txt"
    SCATTER_VULKAN_PIPELINE_STATS=1 bench_each "" "W2 W4 W5 W6 W10 W12" --repeat 3 --profile > "$out/profile.txt" 2>&1
    # The radix sort's ordered writes (on by default on GPUs since 2026-11-27, unmeasured): the
    # key_sort pass of W2 and W10 with them hidden, against the runs above.
    echo "== ordered_sort_writes hidden" >> "$out/profile.txt"
    bench_each "ordered_sort_writes" "W2 W10" --repeat 3 --profile >> "$out/profile.txt" 2>&1
    ;;
  fold)  # files written as they are made (a short lease may end the command early)
    # The slab's ordered fold by subgroups (W2 and W10 take it on a GPU since 2026-11-27):
    # every workload, then W2 and W10 with it hidden (the key sort takes them), W5 with
    # float_fast_path hidden (f32 division the long way), PyTorch CUDA,
    # the table; --profile with pipeline statistics; the slab suite, the key sort's sorted-fiber
    # tests and the differential random cases on the GPU.
    scatter devices > "$out/devices.txt" 2>&1
    bench_each "" "$all_workloads" --repeat 7 --json > "$out/vk.jsonl" 2> "$out/a.err"
    bench_each "slab_subgroups" "W2 W10" --repeat 7 --json > "$out/vk_no_slab_subgroups.jsonl" 2>> "$out/a.err"
    # f32 division from the hardware's estimate (2026-11-28) against the long division.
    bench_each "float_fast_path" "W5" --repeat 7 --json > "$out/vk_no_float_fast_path.jsonl" 2>> "$out/a.err"
    timeout 100 python3 "$here/peers_torch.py" --device cuda --workload all --repeat 7 --json > "$out/torch.jsonl" 2> "$out/torch.err"
    python3 "$here/gpu_table.py" "$out" > "$out/table.txt" 2>&1
    SCATTER_VULKAN_PIPELINE_STATS=1 bench_each "" "W2 W10 W5" --repeat 3 --profile > "$out/profile.txt" 2>&1
    # The key sort's own passes (key_sort_histogram, _scan, _scatter since 2026-11-28): a 16 M
    # sort of 24-bit keys (W2 without the slab's fold), a small one (W9), rows (W4), skipped (W16).
    bench_each "" "W9 W4 W16" --repeat 3 --profile >> "$out/profile.txt" 2>&1
    bench_each "slab_subgroups" "W2" --repeat 3 --profile >> "$out/profile.txt" 2>&1
    bin=$(dirname "$(command -v scatter)")
    timeout 150 "$bin/scatter_vulkan_slab" > "$out/slab.log" 2>&1
    echo "slab rc=$? after $(( $(date +%s) - start_all ))s" >> "$out/table.txt"
    grep -E '^\[  (PASSED|FAILED) |Failure|trace:' "$out/slab.log" | head -30 >> "$out/table.txt"
    # Keys in order along an outer axis (2026-11-28: the sort skipped, folds by the stride).
    timeout 60 "$bin/scatter_vulkan_key_sort" --gtest_filter='KeySort.ElementsSortedAlong*:KeySort.LongElements*' \
      > "$out/key_sort.log" 2>&1
    echo "key_sort rc=$? after $(( $(date +%s) - start_all ))s" >> "$out/table.txt"
    grep -E '^\[  (PASSED|FAILED) |Failure|trace:' "$out/key_sort.log" | head -30 >> "$out/table.txt"
    timeout "${2:-120}" "$bin/scatter_diff_random_vulkan" > "$out/diff_random.log" 2>&1
    echo "diff_random rc=$? after $(( $(date +%s) - start_all ))s" >> "$out/table.txt"
    ;;
  occupancy)  # one file comes back: occupancy.txt
    # The slab pass with more shared memory per workgroup than it needs (the table's size class
    # raised by SCATTER_VULKAN_TEST_SLAB_WORDS), the same work: if its time rises with the
    # footprint, fewer workgroups are resident per multiprocessor than the limits allow.
    for words in 0 2048 4096 8192 12224; do
      echo "== SCATTER_VULKAN_TEST_SLAB_WORDS=$words" >> "$out/occupancy.txt"
      for w in W3 W2; do
        SCATTER_VULKAN_TEST_SLAB_WORDS=$words SCATTER_VULKAN_PIPELINE_STATS=1 \
          scatter bench --backend vulkan --resident --workload $w --repeat 5 --profile 2>&1 |
          grep -E '^W|  slab|Shared Memory Size' >> "$out/occupancy.txt"
      done
    done
    ;;
  next)  # two files come back: next.txt (made as it goes), next_raw.tgz
    budget=${2:-480}
    summary=$out/next.txt
    raw=$(mktemp -d)  # many files: only next.txt and the tarball come back (at most 8 files do)
    step() {  # the tarball too after every step: a short lease may end the command
      echo "$1: $(( $(date +%s) - start_all ))s" >> "$summary"
      tar czf "$out/next_raw.tgz" -C "$raw" .
    }
    scatter devices > "$raw/devices.txt" 2>&1
    cat "$raw/devices.txt" > "$summary"
    : > "$raw/profile.txt"
    # 1. Every workload with every path on, PyTorch CUDA, the table.
    bench_each "" "$all_workloads" --repeat 7 --json > "$raw/vk.jsonl" 2> "$raw/a.err"
    timeout 100 python3 "$here/peers_torch.py" --device cuda --workload all --repeat 7 --json > "$raw/torch.jsonl" 2> "$raw/torch.err"
    python3 "$here/gpu_table.py" "$raw" > "$raw/table.txt" 2>&1
    cat "$raw/table.txt" >> "$summary"
    step table
    # 2. Why W2's fold by subgroups takes 3.6 ms (model: ~0.1): the pipelines' statistics and
    # per-pass times, then with the reduction a runtime value (reduction_constants hidden: the
    # form measured at 3.6 ms; the specialized fold's SPIR-V has 2.5x fewer instructions), then
    # with 12224 words of shared memory per workgroup for the same work (occupancy).
    prof() {  # LABEL HIDDEN WORKLOADS [ENV...]
      local label=$1 hidden=$2 list=$3
      shift 3
      echo "== $label" >> "$raw/profile.txt"
      env "$@" SCATTER_VULKAN_PIPELINE_STATS=1 bash -c 'for w in $2; do SCATTER_VULKAN_DISABLE_FEATURES=$1 \
        scatter bench --backend vulkan --resident --workload $w --repeat 3 --profile; done' _ "$hidden" "${list//,/ }" \
        >> "$raw/profile.txt" 2>&1
    }
    in_time && prof "every path on" "" "W2 W10 W5 W4"
    in_time && prof "reduction_constants hidden" reduction_constants "W2 W10 W5 W4"
    in_time && prof "W2 with 12224 table words" "" W2 SCATTER_VULKAN_TEST_SLAB_WORDS=12224
    in_time && prof "W2 with 2048 table words" "" W2 SCATTER_VULKAN_TEST_SLAB_WORDS=2048
    grep -E '^(==|W[0-9]|scatter pipeline)|^    [a-z_]+ .* us$' "$raw/profile.txt" >> "$summary"
    step "fold profiles"
    # 3. The same as timed calls (a process each): reduction_constants, the fold by subgroups and
    # f32 division from the hardware's estimate hidden.
    in_time && bench_each reduction_constants "W2 W4 W5 W10 W12" --repeat 7 --json > "$raw/vk_no_reduction_constants.jsonl" 2>> "$raw/a.err"
    in_time && bench_each slab_subgroups "W2 W10" --repeat 7 --json > "$raw/vk_no_slab_subgroups.jsonl" 2>> "$raw/a.err"
    in_time && bench_each float_fast_path W5 --repeat 7 --json > "$raw/vk_no_float_fast_path.jsonl" 2>> "$raw/a.err"
    python3 "$here/gpu_table.py" "$raw" > "$raw/table_hidden.txt" 2>&1
    { echo "== hidden switches"; cat "$raw/table_hidden.txt"; } >> "$summary"
    step "hidden switches"
    # 4. The key sort's own passes (a 16 M sort of 24-bit keys: W2 without the slab; small: W9;
    # rows: W4; keys in order, skipped: W16).
    seen=$(wc -l < "$raw/profile.txt")  # step 2's lines are in the summary already
    in_time && prof "the key sort's passes" "" "W9 W16" && prof "W2 on the key sort" slab_subgroups W2
    tail -n +$(( seen + 1 )) "$raw/profile.txt" | grep -E '^(==|W[0-9])|^    [a-z_]+ .* us$' >> "$summary"
    step "sort passes"
    # 5. Correctness on the GPU with what time is left: the slab suite, then the random cases.
    bin=$(dirname "$(command -v scatter)")
    left() { echo $(( budget - ($(date +%s) - start_all) )); }
    if (( $(left) > 30 )); then
      timeout "$(left)" "$bin/scatter_vulkan_slab" > "$raw/slab.log" 2>&1
      echo "slab rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$raw/slab.log" | tr '\n' ' ')" >> "$summary"
      grep -E 'Failure|trace:' "$raw/slab.log" | head -20 >> "$summary"
    fi
    if (( $(left) > 30 )); then
      timeout "$(left)" "$bin/scatter_diff_random_vulkan" > "$raw/diff_random.log" 2>&1
      echo "diff_random rc=$? $(tail -3 "$raw/diff_random.log" | tr '\n' ' ')" >> "$summary"
    fi
    step next
    ;;
  cpu)  # one file comes back: cpu.txt
    threads=1,2
    (( ${2:-$(nproc)} > 2 )) && threads=$threads,${2:-$(nproc)}
    { lscpu | grep -E '^(Model name|CPU\(s\)|Thread|L2|L3)'; echo; } > "$out/cpu.txt" 2>&1
    PYTHON=${PYTHON:-python3} timeout 540 bash "$here/compare.sh" --cli "$(command -v scatter)" --workload all \
      --threads "$threads" --repeat 5 >> "$out/cpu.txt" 2>&1
    echo "compare.sh rc=$?" >> "$out/cpu.txt"
    ;;
  tests)
    budget=100000
    summary=$out/tests.txt
    : > "$summary"
    run_tests
    ;;
  *) echo "usage: gpu_session.sh bench [REPEAT] | tests | all [SECONDS] | ab FEATURES | large | cpu [THREADS] | probe [FEATURES [SECONDS]] | check [SECONDS] | confirm | fold [SECONDS] | occupancy | next [SECONDS]" >&2; exit 2 ;;
esac
