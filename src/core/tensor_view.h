// TensorView: a validated, normalized scatter_tensor (strides resolved, sizes checked).
#pragma once

#include "core/dtype.h"
#include "core/status.h"

#include <scatter/scatter.h>

#include <cstdint>

struct scatter_context_t;
struct scatter_buffer_t;

namespace scatter {

struct TensorView {
    const DtypeInfo* info = nullptr;
    uint32_t element_size = 0;  // bytes, also for opaque
    uint32_t rank = 0;
    // Only the first `rank` entries are set (left uninitialized past them: a call builds four
    // views, and the microsecond budget of a tiny call has no room for zeroing unused entries).
    int64_t shape[SCATTER_MAX_RANK];
    int64_t strides[SCATTER_MAX_RANK];  // in elements, always filled in
    int64_t element_count = 0;
    // Byte offsets of the lowest and one past the highest byte any element occupies, relative to
    // element 0 (both 0 when empty).
    int64_t min_byte = 0;
    int64_t end_byte = 0;
    bool contiguous = true;  // row-major contiguous

    char* host = nullptr;                // element 0 in host memory, or nullptr
    scatter_buffer_t* buffer = nullptr;  // the buffer it lives in, or nullptr
    uint64_t byte_offset = 0;            // element 0's offset in `buffer`

    bool empty() const { return element_count == 0; }
    scatter_dtype dtype() const { return info->dtype; }
};

enum class Access { Read, Write };

// Validates `tensor` (named `name` in messages) for use on `context` and fills `view`.
// Write access also rejects views whose elements overlap each other.
Status make_tensor_view(const char* name, const scatter_tensor* tensor, scatter_context_t* context,
                        Access access, TensorView* view);

// True when the two views occupy at least one common byte.
bool views_overlap(const TensorView& a, const TensorView& b);

// True when both describe exactly the same elements at the same addresses.
bool same_view(const TensorView& a, const TensorView& b);

// Formats a multi-index as "[1][2]" into buffer (for messages).
void format_position(const int64_t* position, uint32_t rank, char* buffer, size_t size);

}  // namespace scatter
