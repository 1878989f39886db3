#!/usr/bin/env bash
# Installs the Debian packages libscatter needs to build, test and run its Vulkan backend on
# lavapipe. Only packages that are missing are installed; safe to run again.
#   scripts/install-deps.sh                  build + test dependencies (make demo / make test)
#   scripts/install-deps.sh --cross-aarch64  only the aarch64 cross compiler, qemu-user, gtest sources
#   scripts/install-deps.sh --cross-mingw    only the mingw-w64 cross compiler, wine and Xvfb
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools mesa-vulkan-drivers
  vulkan-validationlayers vulkan-tools
  python3-numpy python3-pytest python3-torch
  clang libclang-rt-14-dev
  mono-mcs mono-runtime libmono-system-numerics4.0-cil
)
for arg in "$@"; do
  case "$arg" in
    --cross-aarch64) packages=(g++-aarch64-linux-gnu qemu-user googletest) ;;
    --cross-mingw) packages=(g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine64 xvfb xauth) ;;
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
