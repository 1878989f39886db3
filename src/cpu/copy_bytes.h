// copy_bytes: memcpy for the medium blocks a kernel copies in its inner loop (a fiber or a row of
// a tile, a few hundred bytes to tens of KiB), in 64-byte pieces the compiler turns into vector
// moves. glibc's memcpy takes `rep movsb` from 2 KiB up, which measured 2x slower than this on
// the EPYC test machine for W3's 2 KiB fibers (benchmarks/compare.sh); large one-off copies
// (copy_tensor) keep memcpy and its non-temporal stores.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace scatter {

inline void copy_bytes(char* to, const char* from, int64_t bytes) {
    int64_t k = 0;
    for (; k + 64 <= bytes; k += 64) std::memcpy(to + k, from + k, 64);
    if (k < bytes) std::memcpy(to + k, from + k, size_t(bytes - k));
}

// copy_bytes for a block written once and not read again soon (a large output): the whole 64-byte
// lines of `to` by non-temporal stores, which skip reading the line first and leave the caches to
// the data still in use (W1's staged tiles, 2 threads: 30 -> 26 ms). Call stream_fence() after
// the last one, before the thread reports its work done.
inline void stream_bytes(char* to, const char* from, int64_t bytes) {
#if defined(__SSE2__)
    int64_t k = int64_t(-reinterpret_cast<uintptr_t>(to) & 63);
    if (k > bytes) k = bytes;
    std::memcpy(to, from, size_t(k));
    for (; k + 64 <= bytes; k += 64)
        for (int q = 0; q < 64; q += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(to + k + q),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + k + q)));
    std::memcpy(to + k, from + k, size_t(bytes - k));
#else
    copy_bytes(to, from, bytes);
#endif
}

inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

}  // namespace scatter
