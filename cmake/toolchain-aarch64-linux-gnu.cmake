# Cross build for 64-bit Arm Linux with Debian's cross compiler (g++-aarch64-linux-gnu), tests
# run under qemu-user (qemu-aarch64) through CMAKE_CROSSCOMPILING_EMULATOR, so plain `ctest` and
# gtest_discover_tests work on an x86-64 host. scripts/cross-aarch64.sh drives it end to end.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SCATTER_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${SCATTER_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SCATTER_CROSS_TRIPLE}-g++)

# The target's libraries and headers live in Debian's cross sysroot; build tools (glslang,
# spirv-val) are the host's.
set(SCATTER_CROSS_SYSROOT /usr/${SCATTER_CROSS_TRIPLE})
list(APPEND CMAKE_FIND_ROOT_PATH ${SCATTER_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# -L: the dynamic loader and shared libraries of the target come from the sysroot.
find_program(SCATTER_QEMU_AARCH64 qemu-aarch64)
if(SCATTER_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SCATTER_QEMU_AARCH64} -L ${SCATTER_CROSS_SYSROOT})
endif()
