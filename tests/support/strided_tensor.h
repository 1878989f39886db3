// A view of one scatter_tensor as the oracle reads it: its shape, its strides in elements
// (filled in for contiguous tensors) and element addressing.
#pragma once

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdint>

#include "shape.h"

namespace scatter_test {

struct StridedTensor {
    scatter_dtype dtype = SCATTER_DTYPE_UNDEFINED;
    size_t element_size = 0;
    Shape shape;
    Shape strides;
    char* base = nullptr;

    size_t rank() const { return shape.size(); }
    int64_t element_count() const { return scatter_test::element_count(shape); }
    char* at(const int64_t* coords) const;
    int64_t index_at(const int64_t* coords) const;  // reads an I32/I64 index as int64
};

// The view of host tensor `t` (whose dtype and element size are already validated).
StridedTensor view_of(const scatter_tensor& t, size_t element_size);

}  // namespace scatter_test
