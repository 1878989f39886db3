#!/usr/bin/env bash
# Packs a build for the lent GPU machine: ../shared/tools/gpu/pack.sh (loaders, the CLI, the
# library, benchmarks/, the driver probes) plus every Vulkan test suite of the build and the differential examples and random Vulkan cases, which
# benchmarks/gpu_session.sh runs there. usage: bash scripts/pack-gpu.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
cd "$(git rev-parse --show-toplevel)"
bash ../shared/tools/gpu/pack.sh "$build"
# Not the radix sort and pipeline-key suites: they link the library in (15 MB each), and the
# run tool carries at most 64 MiB (2026-11-27: the pack with them was refused).
suites="$(find "$build/tests/vulkan" -maxdepth 1 -name 'scatter_vulkan_*' -type f -executable \
  ! -name scatter_vulkan_radix_sort ! -name scatter_vulkan_pipeline_keys)
$build/tests/diff/scatter_diff_examples $build/tests/diff/scatter_diff_random_vulkan"
cp $suites .device/bin/
echo "added $(echo "$suites" | wc -w) Vulkan and differential suites to .device/bin"
