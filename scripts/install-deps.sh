#!/usr/bin/env bash
# Installs the Debian packages libscatter needs, only those that are missing; safe to run again.
#   scripts/install-deps.sh                  build + test dependencies (make test)
#   scripts/install-deps.sh --build          only what building the library and running the demo
#                                            on the CPU and on lavapipe needs (make demo)
#   scripts/install-deps.sh --cross-aarch64  only the aarch64 cross compiler, qemu-user, gtest sources
#   scripts/install-deps.sh --cross-mingw    only the mingw-w64 cross compiler, wine and Xvfb
set -euo pipefail
# The library: a C/C++ compiler, CMake and Ninja (the Makefile's generator for new build trees),
# and for the Vulkan backend the headers, volk and glslang (compiles the shaders at build time);
# lavapipe is the Vulkan device the demo runs on.
build_packages=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev libvulkan-volk-dev glslang-tools mesa-vulkan-drivers
)
# Only the tests, tools and bindings need these: GoogleTest, the CLI's parsers, spirv-val, the
# validation layer, numpy/pytest/PyTorch (CLI, Python binding, cross-checks), ONNX (its node tests
# of Gather*, through the CLI), Dask and dask.distributed (scatter.dask, on a local cluster), pip/venv/
# setuptools/wheel (the Python wheel, built and installed offline), clang (its sanitizer runtime
# for the UBSan test), mono and nuget (C# binding and its NuGet package).
test_packages=(
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  spirv-tools vulkan-validationlayers vulkan-tools
  python3-numpy python3-pytest python3-torch python3-onnx python3-dask python3-distributed python3-pip python3-venv python3-setuptools python3-wheel
  clang libclang-rt-14-dev
  mono-mcs mono-runtime libmono-system-numerics4.0-cil nuget
)
packages=("${build_packages[@]}" "${test_packages[@]}")
for arg in "$@"; do
  case "$arg" in
    --build) packages=("${build_packages[@]}") ;;
    --cross-aarch64) packages=(ninja-build g++-aarch64-linux-gnu qemu-user googletest) ;;
    --cross-mingw) packages=(ninja-build g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine64 xvfb xauth) ;;
    *) echo "install-deps.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The JavaScript binding's one dependency, koffi (pinned in bindings/js/package-lock.json), from
# the npm registry, with the machine's Node.js; only with the test packages and where npm exists.
if [ "${packages[*]}" = "${build_packages[*]} ${test_packages[*]}" ] && command -v npm >/dev/null; then
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ ! -d "$here/bindings/js/node_modules/koffi" ]; then
    echo "installing: koffi (npm ci in bindings/js)"
    (cd "$here/bindings/js" && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
