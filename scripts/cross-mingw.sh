#!/usr/bin/env bash
# Cross-builds libscatter for 64-bit Windows with mingw-w64 on a Debian host: scatter.dll, its
# import library and the static library (CPU and Vulkan backends), checks that the DLL exports
# exactly the scatter_* functions of the header, and runs under wine, headless: the header tests,
# run-time loading with LoadLibrary, static linking, the C API unit tests, the reference tests,
# and a Vulkan smoke test through wine's vulkan-1.dll on the host's lavapipe.
# Usage: scripts/cross-mingw.sh [build-dir]   (default build-mingw; JOBS=N for parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-mingw}
jobs=${JOBS:-$(nproc)}

bash scripts/install-deps.sh
bash scripts/install-deps.sh --cross-mingw

mkdir -p "$build"
build_dir=$(cd "$build" && pwd)   # absolute, whether $build was given relative or not
# wine's prefix lives in the build folder.
export WINEPREFIX=$build_dir/wineprefix
export WINEDEBUG=-all
export WINEPATH="Z:$build_dir/src"   # scatter.dll for the programs linked against it
# Create the wine prefix before anything runs under wine: its first start takes longer than
# gtest's test-discovery timeout.
/usr/lib/wine/wine64 wineboot --init > /dev/null 2>&1 || true
/usr/lib/wine/wineserver -w

stage=$build_dir/host-headers
bash scripts/stage-host-headers.sh "$stage"

start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-x86_64-w64-mingw32.cmake" \
  -DSCATTER_BUILD_TOOLS=OFF \
  -DVulkanHeaders_DIR="$stage/cmake" -DCLI11_DIR="$stage/cmake" -Dnlohmann_json_DIR="$stage/cmake" \
  -DSCATTER_VOLK_INCLUDE_DIR="$stage/include" \
  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST
# The library and the tests that build on Windows: tests/diff and tests/errors use POSIX calls
# (dlopen, setenv) in their mains, so they are not built here.
cmake --build "$build" -j "$jobs" --target scatter_shared scatter_static scatter_demo \
  scatter_header_c99 scatter_header_cxx11 scatter_header_cxx17 scatter_header_c99_static \
  scatter_header_hpp_cxx17 scatter_header_hpp_cxx20 scatter_header_hpp_cxx17_noexcept \
  scatter_dlopen_example scatter_static_example scatter_unit_tests scatter_checked_math_test scatter_reference_test \
  scatter_vulkan_smoke
built=$(date +%s)
echo "cross-mingw: configure + build took $((built - start)) s"

cd "$build"
# wine's vulkan-1.dll needs its X11 driver to reach the host's Vulkan (lavapipe), so the tests run
# with a virtual X server; the others do not need it but do not mind.
export VK_DRIVER_FILES=$(sed -n 's/^SCATTER_LAVAPIPE_ICD:FILEPATH=//p' CMakeCache.txt)  # tests/CMakeLists.txt
xvfb-run -a ctest --output-on-failure -j "$jobs" --timeout 900 -L 'header|bindings|unit|reference|vulkan_smoke'
echo "cross-mingw: tests under wine took $(( $(date +%s) - built )) s"
