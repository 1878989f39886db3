#!/usr/bin/env bash
# Cross-builds libscatter for 64-bit Windows with mingw-w64 on a Debian host: scatter.dll, its
# import library and the static library (CPU backend; the Vulkan backend's loader code is
# POSIX-only so far), checks that the DLL exports exactly the scatter_* functions of the header,
# and runs under wine, headless: the header tests, run-time loading with LoadLibrary, static
# linking, the C API unit tests and the reference tests.
# Usage: scripts/cross-mingw.sh [build-dir]   (default build-mingw; JOBS=N for parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-mingw}
jobs=${JOBS:-$(nproc)}

bash scripts/install-deps.sh
bash scripts/install-deps.sh --cross-mingw

# wine needs no display for console programs; its prefix lives in the build folder.
export WINEPREFIX=$PWD/$build/wineprefix
export WINEDEBUG=-all
export WINEPATH="Z:$PWD/$build/src"   # scatter.dll for the programs linked against it
mkdir -p "$build"

start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-x86_64-w64-mingw32.cmake" \
  -DSCATTER_ENABLE_VULKAN=OFF -DSCATTER_BUILD_TOOLS=OFF -DSCATTER_BUILD_BENCHMARKS=OFF
# The library and the tests that build on Windows: tests/diff and tests/errors use POSIX calls
# (dlopen, setenv) in their mains, so they are not built here.
cmake --build "$build" -j "$jobs" --target scatter_shared scatter_static scatter_demo \
  scatter_header_c99 scatter_header_cxx11 scatter_header_cxx17 scatter_header_c99_static \
  scatter_dlopen_example scatter_static_example scatter_unit_tests scatter_reference_test
built=$(date +%s)
echo "cross-mingw: configure + build took $((built - start)) s"

cd "$build"
ctest --output-on-failure -j "$jobs" --timeout 900 -L 'header|bindings|unit|reference'
echo "cross-mingw: tests under wine took $(( $(date +%s) - built )) s"
