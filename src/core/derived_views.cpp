#include "core/derived_views.h"

#include <algorithm>

namespace scatter {
namespace {

TensorView shaped_like(const TensorView& like, scatter_dtype dtype) {
    TensorView v;
    v.info = find_dtype(dtype);
    v.element_size = v.info->size;
    v.rank = like.rank;
    v.element_count = like.element_count;
    for (uint32_t d = 0; d < like.rank; ++d) v.shape[d] = like.shape[d];
    return v;
}

}  // namespace

TensorView contiguous_like(const TensorView& like, scatter_dtype dtype, void* host) {
    TensorView v = shaped_like(like, dtype);
    int64_t stride = 1;
    for (int d = int(v.rank) - 1; d >= 0; --d) {
        v.strides[d] = stride;
        stride *= std::max<int64_t>(v.shape[d], 1);
    }
    v.min_byte = 0;
    v.end_byte = v.element_count * int64_t(v.element_size);
    v.contiguous = true;
    v.host = static_cast<char*>(host);
    return v;
}

TensorView broadcast_like(const TensorView& like, scatter_dtype dtype, const void* value) {
    TensorView v = shaped_like(like, dtype);
    for (uint32_t d = 0; d < v.rank; ++d) v.strides[d] = 0;
    v.min_byte = 0;
    v.end_byte = v.element_count == 0 ? 0 : int64_t(v.element_size);
    v.contiguous = v.element_count <= 1;
    // Only ever read: the kernels take their inputs through non-const views.
    v.host = static_cast<char*>(const_cast<void*>(value));
    return v;
}

}  // namespace scatter
