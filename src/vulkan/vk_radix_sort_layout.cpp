#include "vulkan/vk_radix_sort_layout.h"

#include "radix_sort_shared.h"

#include <algorithm>

namespace scatter {
namespace {

constexpr uint64_t kAlignWords = 64;  // 256 bytes: minStorageBufferOffsetAlignment's maximum

uint64_t align_words(uint64_t word) { return (word + kAlignWords - 1) / kAlignWords * kAlignWords; }

}  // namespace

RadixSortLayout radix_sort_layout(uint32_t count, uint32_t bits, uint64_t first, uint32_t digit_bits) {
    RadixSortLayout layout;
    layout.count = count;
    layout.bits = std::min<uint32_t>(bits, 32);
    layout.digit_bits = digit_bits == 4 ? 4 : 8;
    layout.passes = (layout.bits + layout.digit_bits - 1) / layout.digit_bits;
    layout.tiles = uint32_t((uint64_t(count) + RADIX_SORT_TILE - 1) / RADIX_SORT_TILE);
    const uint64_t entries = uint64_t(layout.tiles) << layout.digit_bits;
    layout.scan_blocks = uint32_t((entries + RADIX_SORT_SCAN_BLOCK - 1) / RADIX_SORT_SCAN_BLOCK);
    uint64_t at = align_words(first);
    layout.header = at;
    at = align_words(at + RADIX_SORT_H_WORDS);
    for (int slot = 0; slot < 2; ++slot) {
        layout.keys[slot] = at;
        at = align_words(at + count);
        layout.payloads[slot] = at;
        at = align_words(at + count);
    }
    layout.histograms = at;
    at = align_words(at + entries);
    layout.sums = at;
    layout.end = at + layout.scan_blocks;
    return layout;
}

uint64_t radix_sort_scratch_bytes(uint32_t count, uint32_t bits, uint32_t digit_bits) {
    return radix_sort_layout(count, bits, 0, digit_bits).end * sizeof(uint32_t);
}

}  // namespace scatter
