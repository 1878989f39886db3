#!/usr/bin/env bash
# Cross-builds libscatter for aarch64 Linux on an x86-64 Debian host and runs the C/C++ tests
# under qemu-user: the library (Vulkan backend included: it only dlopens libvulkan), the CLI, and
# the gtest-based unit, errors, reference, diff, header, npy and C-binding tests.
# Not run: tests needing a Vulkan device (no aarch64 Vulkan driver in the sysroot), and tests
# driven by host runtimes that cannot load an aarch64 library or run an aarch64 CLI (Python,
# Rust, C#, the CLI's pytest suites, conformance, the install consumer).
# Usage: scripts/cross-aarch64.sh [build-dir]   (default build-aarch64; JOBS=N for parallelism;
#        SCATTER_SHADERS_FROM_BUILD=<host build tree> to embed its compiled shader modules)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-aarch64}
jobs=${JOBS:-$(nproc)}

bash scripts/install-deps.sh
bash scripts/install-deps.sh --cross-aarch64

# Header-only host packages in a folder of their own (see the script).
stage=$PWD/$build/host-headers
bash scripts/stage-host-headers.sh "$stage"

start=$(date +%s)
# Ninja for a new tree (the Makefile says why); a tree configured before keeps its generator.
generator=(); [ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
# -O2, as Debian builds its packages: -O3 took 77 s of aarch64-linux-gnu-g++ on
# src/cpu/scatter_slices.cpp against 41 s (the largest kernel files set the build's time; CI
# time). The native build and its tests stay at Release's -O3.
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-aarch64-linux-gnu.cmake" \
  -DVulkanHeaders_DIR="$stage/cmake" -DCLI11_DIR="$stage/cmake" -Dnlohmann_json_DIR="$stage/cmake" \
  -DSCATTER_VOLK_INCLUDE_DIR="$stage/include" -DSCATTER_BUILD_VULKAN_DEVICE_TESTS=OFF \
  -DSCATTER_SHADERS_FROM_BUILD="${SCATTER_SHADERS_FROM_BUILD:-}"
cmake --build "$build" -j "$jobs"
built=$(date +%s)
echo "cross-aarch64: configure + build took $((built - start)) s"

# No Vulkan driver exists for the target, so the Vulkan label is left out (and tests/vulkan is
# not built: SCATTER_BUILD_VULKAN_DEVICE_TESTS=OFF above); the library's
# no-Vulkan path (errors.vulkan_hidden: a Vulkan request is BACKEND_UNAVAILABLE) still runs.
cd "$build"
ctest --output-on-failure -j "$jobs" --timeout 900 \
  -LE 'vulkan|consumer|host_python' \
  -E '^(conformance\..*|bindings\.(python|rust|csharp))$'
echo "cross-aarch64: tests under qemu-aarch64 took $(( $(date +%s) - built )) s"
