#!/usr/bin/env bash
# Installs the Debian packages libscatter needs to build, test and run its Vulkan backend on
# lavapipe. Only packages that are missing are installed; safe to run again.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools mesa-vulkan-drivers
  vulkan-validationlayers vulkan-tools
  python3-numpy python3-pytest python3-torch
  clang libclang-rt-14-dev
)
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
