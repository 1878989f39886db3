// LoopDims: an iteration shape shared by N tensors with their own strides, with size-1 dimensions
// dropped and neighbouring dimensions merged wherever every tensor's strides allow, so that
// contiguous data becomes one long dimension.
#pragma once

#include "core/checked_math.h"

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

template <int N>
struct LoopDims {
    uint32_t rank = 0;  // 0 means a single element (or none when count == 0)
    int64_t count = 1;
    int64_t shape[SCATTER_MAX_RANK];  // first `rank` entries set
    int64_t strides[N][SCATTER_MAX_RANK];

    // The stride of tensor t over a one-dimensional (or scalar) iteration.
    int64_t flat_stride(int t) const { return rank == 0 ? 0 : strides[t][0]; }
};

template <int N>
LoopDims<N> make_loop_dims(uint32_t rank, const int64_t* shape, const int64_t* const* strides) {
    LoopDims<N> dims;
    dims.count = shape_product(shape, 0, rank);
    if (dims.count == 0) return dims;
    for (uint32_t d = 0; d < rank; ++d) {
        if (shape[d] == 1) continue;
        uint32_t last = dims.rank;
        bool merge = last > 0;
        for (int t = 0; t < N && merge; ++t) {
            // stride * shape may pass INT64_MAX (only (shape - 1) * stride is known to fit);
            // such a dimension simply stays unmerged.
            int64_t span = 0;
            merge = checked_mul(strides[t][d], shape[d], &span) && dims.strides[t][last - 1] == span;
        }
        if (merge) {
            dims.shape[last - 1] *= shape[d];
            for (int t = 0; t < N; ++t) dims.strides[t][last - 1] = strides[t][d];
            continue;
        }
        dims.shape[last] = shape[d];
        for (int t = 0; t < N; ++t) dims.strides[t][last] = strides[t][d];
        ++dims.rank;
    }
    return dims;
}

}  // namespace scatter
