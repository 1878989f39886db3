// Where a radix sort (vk_radix_sort.h) lives in the scratch binding: a pure function of the
// pair count and key bits, so the path choice (vk_path.h) sizes scratch without a device.
#pragma once

#include <cstdint>

namespace scatter {

// Where a sort of `count` pairs lives, in 32-bit words from the start of the scratch binding.
struct RadixSortLayout {
    uint32_t count = 0;
    uint32_t bits = 0;        // significant key bits, 0..32
    uint32_t digit_bits = 8;  // 8 (module radix_sort) or 4 (radix_sort_d4)
    uint32_t passes = 0;      // ceil(bits / digit_bits)
    uint32_t tiles = 0;       // of RADIX_SORT_TILE pairs
    uint32_t scan_blocks = 0; // of the histograms, RADIX_SORT_SCAN_BLOCK entries each
    uint64_t header = 0;      // RADIX_SORT_H_WORDS words
    uint64_t keys[2] = {0, 0};
    uint64_t payloads[2] = {0, 0};
    uint64_t histograms = 0;  // radix * tiles words, digit-major
    uint64_t sums = 0;        // scan_blocks words
    uint64_t end = 0;         // one past the last word
};

// The layout of a sort of `count` pairs whose keys are below 2^bits, starting at word `first`
// (each array 256-byte aligned relative to the binding). digit_bits: 8 or 4.
RadixSortLayout radix_sort_layout(uint32_t count, uint32_t bits, uint64_t first, uint32_t digit_bits = 8);

// Scratch bytes a sort of `count` pairs of `bits`-bit keys needs from a 256-byte aligned start.
uint64_t radix_sort_scratch_bytes(uint32_t count, uint32_t bits, uint32_t digit_bits = 8);

// The slot (0 or 1) that holds the sorted keys and payloads.
inline uint32_t radix_sort_result_slot(const RadixSortLayout& layout) { return layout.passes & 1u; }

}  // namespace scatter
