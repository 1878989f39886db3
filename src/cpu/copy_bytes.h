// copy_bytes: memcpy for the medium blocks a kernel copies in its inner loop (a fiber or a row of
// a tile, a few hundred bytes to tens of KiB), in 64-byte pieces the compiler turns into vector
// moves. glibc's memcpy takes `rep movsb` from 2 KiB up, which measured 2x slower than this on
// the EPYC test machine for W3's 2 KiB fibers (benchmarks/compare.sh); large one-off copies
// (copy_tensor) keep memcpy and its non-temporal stores.
#pragma once

#include <cstdint>
#include <cstring>

namespace scatter {

inline void copy_bytes(char* to, const char* from, int64_t bytes) {
    int64_t k = 0;
    for (; k + 64 <= bytes; k += 64) std::memcpy(to + k, from + k, 64);
    if (k < bytes) std::memcpy(to + k, from + k, size_t(bytes - k));
}

}  // namespace scatter
