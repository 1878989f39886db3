// How one index value becomes a target coordinate: negative indices count from the back, and an
// index outside [-s, s) is an error, skipped, or clamped, as the policy says.
#pragma once

#include "core/tensor_view.h"

#include <cstdint>
#include <cstring>

namespace scatter {

// Loads the index at element offset `offset` (i32 or i64; unaligned memory is fine).
inline int64_t load_index(const char* base, bool is_i64, int64_t offset) {
    if (is_i64) {
        int64_t v;
        std::memcpy(&v, base + offset * 8, 8);
        return v;
    }
    int32_t v;
    std::memcpy(&v, base + offset * 4, 4);
    return v;
}

inline bool index_in_range(int64_t i, int64_t size) { return i >= -size && i < size; }

// Resolves index `i` into a dimension of `size`. Returns false when the update is skipped (policy
// SKIP, or ERROR after validation, or CLAMP into an empty dimension, which has no valid target).
inline bool resolve_index(int64_t i, int64_t size, scatter_out_of_range policy, int64_t* resolved) {
    if (i < 0) i += size;  // i >= INT64_MIN and size >= 0: cannot overflow
    if (i >= 0 && i < size) {
        *resolved = i;
        return true;
    }
    if (policy == SCATTER_OUT_OF_RANGE_CLAMP && size > 0) {
        *resolved = i < 0 ? 0 : size - 1;
        return true;
    }
    return false;
}

}  // namespace scatter
