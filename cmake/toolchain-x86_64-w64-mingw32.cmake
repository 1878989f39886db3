# Cross build for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64), posix thread
# model (std::thread, std::mutex need it; the win32 model has neither in GCC 12). Produces
# scatter.dll, its import library libscatter.dll.a and the static libscatter.a; programs run
# under wine through CMAKE_CROSSCOMPILING_EMULATOR. scripts/cross-mingw.sh drives it end to end.
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-x86_64-w64-mingw32.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(SCATTER_CROSS_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${SCATTER_CROSS_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${SCATTER_CROSS_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${SCATTER_CROSS_TRIPLE}-windres)

set(SCATTER_CROSS_SYSROOT /usr/${SCATTER_CROSS_TRIPLE})
list(APPEND CMAKE_FIND_ROOT_PATH ${SCATTER_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The C and C++ runtimes (libgcc, libstdc++, winpthread) are linked statically, so scatter.dll
# and the test programs need no mingw DLLs beside them on Windows or under wine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

find_program(SCATTER_WINE NAMES wine64 wine PATHS /usr/lib/wine)  # Debian: /usr/lib/wine/wine64
if(SCATTER_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SCATTER_WINE})
endif()
