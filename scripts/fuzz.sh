#!/usr/bin/env bash
# The clang build's checks (make fuzz): the libFuzzer targets, built by clang under ASan + UBSan:
# each replays its committed corpus and fuzzes for a bounded time. Any finding stops the script
# with the reproducer saved in the build folder.
#   scripts/fuzz.sh BUILD_DIR [SECONDS_PER_TARGET]
# docs/testing.md says how to run the fuzzers for hours.
set -euo pipefail
build=$(cd "$1" && pwd)
seconds=${2:-120}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
lavapipe=$(sed -n 's/^SCATTER_LAVAPIPE_ICD:FILEPATH=//p' "$build/CMakeCache.txt")  # tests/CMakeLists.txt
[ -n "$lavapipe" ] || { echo "fuzz.sh: SCATTER_LAVAPIPE_ICD is not in $build/CMakeCache.txt" >&2; exit 1; }

# 6 frames per allocation stack: the Makefile's sanitize target says why (lavapipe's JIT).
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=6
export LSAN_OPTIONS=suppressions=$source_dir/tests/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# libFuzzer first runs every input of both folders (the committed corpus replayed), then fuzzes;
# new inputs go to a scratch folder, so the run never edits the repository.
rm -rf "$build/fuzz-artifacts"
fuzz() {  # label binary corpus_dir seconds extra-args...
    local label=$1 binary=$build/tests/fuzz/$2 corpus=$3 time=$4
    shift 4
    local scratch=$build/fuzz-corpus/$label log=$build/fuzz-$label.log status=0
    mkdir -p "$scratch" "$build/fuzz-artifacts"
    echo "== $label: replay $(ls "$corpus" | wc -l) corpus inputs, then fuzz for ${time} s"
    "$binary" -max_total_time="$time" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/" \
        "$@" "$scratch" "$corpus" >"$log" 2>&1 || status=$?
    grep -E '^#[0-9]+[[:space:]]+INITED' "$log" || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|slowest_unit_time_sec)' "$log" || true
    if [ "$status" != 0 ]; then
        tail -40 "$log" >&2
        echo "$label: a finding (exit status $status); log $log, reproducers in $build/fuzz-artifacts" >&2
        exit 1
    fi
}

SCATTER_FUZZ_BACKENDS=cpu fuzz api-cpu fuzz_api "$source_dir/tests/fuzz/corpus/api" "$seconds" -max_len=256
# Vulkan: lavapipe keeps device memory in host memory and the transient cache keeps up to 1 GiB
# of it (docs/vulkan.md); with ASan's quarantine on top, libFuzzer's default 2 GiB is too little.
# Most inputs need pipelines no earlier input compiled, and lavapipe's JIT runs several times
# slower under ASan's allocator (~1 s an input in CI, 2026-11-29: 230 s for every 25th), so the
# whole corpus would take an hour: the long tier replays every 4th input on lavapipe
# (fuzz.api_regression_vulkan) and make test every 41st, and here a fixed sample (every 50th
# input) seeds the fuzzer.
seeds=$build/fuzz-seeds/api-vulkan
rm -rf "$seeds"
mkdir -p "$seeds"
(cd "$source_dir/tests/fuzz/corpus/api" && LC_ALL=C ls | awk 'NR % 50 == 1' | xargs cp -t "$seeds")
VK_DRIVER_FILES=$lavapipe VK_ICD_FILENAMES=$lavapipe LP_NUM_THREADS=2 SCATTER_FUZZ_BACKENDS=cpu,vulkan \
    fuzz api-vulkan fuzz_api "$seeds" "$seconds" -max_len=256 -timeout=120 -rss_limit_mb=6144
fuzz npy fuzz_npy "$source_dir/tests/fuzz/corpus/npy" "$seconds" -max_len=1024
