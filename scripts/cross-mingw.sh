#!/usr/bin/env bash
# Cross-builds libscatter for 64-bit Windows with mingw-w64 on a Debian host: scatter.dll, its
# import library and the static library (CPU and Vulkan backends), checks that the DLL exports
# exactly the scatter_* functions of the header, and runs under wine, headless: the header tests,
# run-time loading with LoadLibrary, static linking, the C API unit tests, the reference tests,
# and a Vulkan smoke test through wine's vulkan-1.dll on the host's lavapipe.
# Usage: scripts/cross-mingw.sh [build-dir]   (default build-mingw; JOBS=N for parallelism;
#        SCATTER_SHADERS_FROM_BUILD=<host build tree> to embed its compiled shader modules)
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
# Ninja for a new tree (the Makefile says why); a tree configured before keeps its generator.
generator=(); [ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
# -O2, as Debian builds its packages: -O3 took 77 s of aarch64-linux-gnu-g++ on
# src/cpu/scatter_slices.cpp against 41 s (the largest kernel files set the build's time; CI
# time). The native build and its tests stay at Release's -O3.
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-x86_64-w64-mingw32.cmake" \
  -DSCATTER_BUILD_TOOLS=OFF \
  -DVulkanHeaders_DIR="$stage/cmake" -DCLI11_DIR="$stage/cmake" -Dnlohmann_json_DIR="$stage/cmake" \
  -DSCATTER_VOLK_INCLUDE_DIR="$stage/include" \
  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST \
  -DSCATTER_SHADERS_FROM_BUILD="${SCATTER_SHADERS_FROM_BUILD:-}"
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
# One wineserver for the whole run. By default each test's wine starts a server that quits seconds
# after its last client, and a test that starts as it quits fails with "wine client error:
# recvmsg: Connection reset by peer" (a CI run failed so, on a test that passes). The server is
# kept alive and its services (explorer on the virtual display among them) are started first by a
# program whose output goes nowhere: started by a test instead, they would hold that test's output
# pipe open for as long as they live. A test that fails is run once more alone, and counts as failed
# only if it fails again: wine's start-up is then told apart from a real failure in the log.
xvfb-run -a bash -c '
  labels="header|bindings|unit|reference|vulkan_smoke"
  /usr/lib/wine/wineserver -p
  trap "/usr/lib/wine/wineserver -k 2> /dev/null || true" EXIT
  /usr/lib/wine/wine64 cmd /c exit < /dev/null > /dev/null 2>&1 || true
  rm -f Testing/Temporary/LastTestsFailed.log
  ctest --output-on-failure -j "$0" --timeout 900 -L "$labels" && exit 0
  [ -s Testing/Temporary/LastTestsFailed.log ] || exit 1
  echo "cross-mingw: running the failed tests once more, alone:"; cat Testing/Temporary/LastTestsFailed.log
  ctest --output-on-failure --timeout 900 -L "$labels" --rerun-failed' "$jobs"
echo "cross-mingw: tests under wine took $(( $(date +%s) - built )) s"
