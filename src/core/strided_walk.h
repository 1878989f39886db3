// StridedWalk: visits the elements of a shape in row-major order, keeping the element offset
// of several tensors that share that shape (each with its own strides).
#pragma once

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

template <int N>
class StridedWalk {
public:
    // strides[t] points at tensor t's strides (rank entries), in elements.
    StridedWalk(uint32_t rank, const int64_t* shape, const int64_t* const* strides) : rank_(rank) {
        for (uint32_t d = 0; d < rank; ++d) shape_[d] = shape[d];
        for (int t = 0; t < N; ++t) {
            for (uint32_t d = 0; d < rank; ++d) strides_[t][d] = strides[t][d];
            offset_[t] = 0;
        }
        for (uint32_t d = 0; d < rank; ++d) position_[d] = 0;
    }

    // The same, with the strides as rows of a table (as LoopDims keeps them).
    StridedWalk(uint32_t rank, const int64_t* shape, const int64_t (&strides)[N][SCATTER_MAX_RANK]) : rank_(rank) {
        for (uint32_t d = 0; d < rank; ++d) shape_[d] = shape[d];
        for (int t = 0; t < N; ++t) {
            for (uint32_t d = 0; d < rank; ++d) strides_[t][d] = strides[t][d];
            offset_[t] = 0;
        }
        for (uint32_t d = 0; d < rank; ++d) position_[d] = 0;
    }

    // Moves to the element with row-major flat index `flat`.
    void seek(int64_t flat) {
        for (int t = 0; t < N; ++t) offset_[t] = 0;
        for (int d = int(rank_) - 1; d >= 0; --d) {
            int64_t p = shape_[d] > 0 ? flat % shape_[d] : 0;
            flat = shape_[d] > 0 ? flat / shape_[d] : 0;
            position_[d] = p;
            for (int t = 0; t < N; ++t) offset_[t] += p * strides_[t][d];
        }
    }

    // Moves to the next element in row-major order.
    void next() {
        for (int d = int(rank_) - 1; d >= 0; --d) {
            if (++position_[d] < shape_[d]) {
                for (int t = 0; t < N; ++t) offset_[t] += strides_[t][d];
                return;
            }
            for (int t = 0; t < N; ++t) offset_[t] -= (shape_[d] - 1) * strides_[t][d];
            position_[d] = 0;
        }
    }

    int64_t offset(int t) const { return offset_[t]; }
    const int64_t* position() const { return position_; }
    int64_t position(uint32_t d) const { return position_[d]; }

private:
    uint32_t rank_;
    int64_t shape_[SCATTER_MAX_RANK];
    int64_t strides_[N][SCATTER_MAX_RANK];
    int64_t offset_[N];
    int64_t position_[SCATTER_MAX_RANK];
};

}  // namespace scatter
