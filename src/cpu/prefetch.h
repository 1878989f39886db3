// Software prefetches of a block of memory. A block need not start on a line (malloc gives 16-byte
// alignment), and then it touches one 64-byte line more than bytes / 64.
//
// Where a kernel prefetches many lines ahead at random (update slices, rows of pieces), the lines
// go to L2 (prefetcht1), not L1 (prefetcht0): on the EPYC test machine the L1 form kept the
// prefetch instructions themselves waiting (W4: two thirds of the blocked loop's samples on the
// instruction after one), and the L2 form measured faster wherever it replaced it (2026-11-27,
// old and new library alternated, median of the minimums of 5 runs of 5, 1 / 2 threads, ms:
// W4 92.1 / 51.2 -> 74.2 / 45.0, W5 23.9 / 13.7 -> 17.5 / 12.0, W14 61.8 / 32.1 -> 44.6 / 25.4,
// W1 56.3 / 32.8 -> 52.4 / 29.3, W11 45.2 / 27.4 -> 43.2 / 24.5, W6 18.6 -> 17.7 / same,
// W8 18.5 -> 17.6 / same). Slices that follow one another in memory (sorted indices: W13) keep
// the L1 form, whose lines the next loads use at once (W13 on one thread took 15.0 ms with the L2
// form, 13.5-13.9 with this choice). The blocked path's target-table entries go to L2 as well
// (1 / 2 threads: W4 70.5 / 43.0 -> 65.7 / 42.1 ms, W14 42.5 / 26.3 -> 38.4 / 24.6); prefetching
// 24 or 32 slices ahead instead of 16 gained nothing.
#pragma once

#include <cstdint>

namespace scatter {

enum class PrefetchTo { L1, L2 };

template <PrefetchTo To>
inline void prefetch_line(const void* p) {
    __builtin_prefetch(p, 0, To == PrefetchTo::L1 ? 3 : 2);
}

// Every line [p, p + bytes) touches: W6's 64-byte update slices each span two lines at malloc's
// offset, and prefetching only the first left W6 at 34-35 ms on one thread (27.6 with both).
template <PrefetchTo To>
inline void prefetch_lines(const void* p, int64_t bytes) {
    if (bytes <= 0) return;
    const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
    const uintptr_t last = reinterpret_cast<uintptr_t>(p) + uintptr_t(bytes - 1);
    for (uintptr_t line = first; line <= last; line += 64) prefetch_line<To>(reinterpret_cast<const void*>(line));
}

// The lines at p, p + 64, ... below p + bytes, into L2: the last line of a block that crosses one
// more is left to the hardware. For the staged elements path's rows of pieces (several lines
// each), prefetching it too measured slower (W1, 1 thread: 49.5-50.8 -> 52.1-53.1 ms).
inline void prefetch_from(const void* p, int64_t bytes) {
    for (int64_t k = 0; k < bytes; k += 64) prefetch_line<PrefetchTo::L2>(static_cast<const char*>(p) + k);
}

}  // namespace scatter
