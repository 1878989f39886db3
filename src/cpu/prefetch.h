// Software prefetches of a block of memory. A block need not start on a line (malloc gives 16-byte
// alignment), and then it touches one 64-byte line more than bytes / 64.
#pragma once

#include <cstdint>

namespace scatter {

// Every line [p, p + bytes) touches: W6's 64-byte update slices each span two lines at malloc's
// offset, and prefetching only the first left W6 at 34-35 ms on one thread (27.6 with both).
inline void prefetch_lines(const void* p, int64_t bytes) {
    if (bytes <= 0) return;
    const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
    const uintptr_t last = reinterpret_cast<uintptr_t>(p) + uintptr_t(bytes - 1);
    for (uintptr_t line = first; line <= last; line += 64) __builtin_prefetch(reinterpret_cast<const void*>(line));
}

// The lines at p, p + 64, ... below p + bytes: the last line of a block that crosses one more is
// left to the hardware. For the staged elements path's rows of pieces (several lines each),
// prefetching it too measured slower (W1, 1 thread: 49.5-50.8 -> 52.1-53.1 ms).
inline void prefetch_from(const void* p, int64_t bytes) {
    for (int64_t k = 0; k < bytes; k += 64) __builtin_prefetch(static_cast<const char*>(p) + k);
}

}  // namespace scatter
