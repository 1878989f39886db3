#include "core/shape_checks.h"

#include <cinttypes>

namespace scatter {

Status check_rank(const char* name, const TensorView& v, uint32_t rank) {
    if (v.rank != rank)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s.rank = %u must equal %u", name, v.rank, rank);
    return Status();
}

Status check_dims_equal(const char* a_name, const TensorView& a, uint32_t a_first, const char* b_name,
                        const TensorView& b, uint32_t b_first, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        if (a.shape[a_first + i] != b.shape[b_first + i])
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                              "%s.shape[%u] = %" PRId64 " must equal %s.shape[%u] = %" PRId64, a_name,
                              a_first + i, a.shape[a_first + i], b_name, b_first + i,
                              b.shape[b_first + i]);
    }
    return Status();
}

Status normalize_axis(int32_t axis, uint32_t rank, int32_t* out) {
    int64_t r = rank;
    if (axis < -r || axis >= r)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "axis = %d is outside [-%u, %u) for data of rank %u",
                          int(axis), rank, rank, rank);
    *out = axis < 0 ? int32_t(axis + r) : axis;
    return Status();
}

Status check_indices_within_data(const TensorView& indices, const TensorView& data, int32_t axis) {
    for (uint32_t d = 0; d < data.rank; ++d) {
        if (int32_t(d) != axis && indices.shape[d] > data.shape[d])
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                              "indices.shape[%u] = %" PRId64 " must not exceed data.shape[%u] = %" PRId64
                              " off the axis",
                              d, indices.shape[d], d, data.shape[d]);
    }
    return Status();
}

}  // namespace scatter
