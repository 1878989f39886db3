// Shape and axis rules shared by the scatter and gather planners, each failing with the message
// docs/semantics.md shows.
#pragma once

#include "core/status.h"
#include "core/tensor_view.h"

#include <cstdint>

namespace scatter {

// SHAPE_MISMATCH unless v.rank == rank.
Status check_rank(const char* name, const TensorView& v, uint32_t rank);

// SHAPE_MISMATCH unless a.shape[a_first + i] == b.shape[b_first + i] for i < count.
Status check_dims_equal(const char* a_name, const TensorView& a, uint32_t a_first, const char* b_name,
                        const TensorView& b, uint32_t b_first, uint32_t count);

// elements (scatter and gather): SHAPE_MISMATCH unless indices.shape[d] <= data.shape[d] for every
// d != axis (both of the same rank).
Status check_indices_within_data(const TensorView& indices, const TensorView& data, int32_t axis);

// INVALID_ARGUMENT unless axis is in [-rank, rank); *out is the axis in [0, rank).
Status normalize_axis(int32_t axis, uint32_t rank, int32_t* out);

}  // namespace scatter
