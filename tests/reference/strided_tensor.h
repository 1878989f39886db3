// A checked view of one scatter_tensor: its shape, its strides in elements (filled in for
// contiguous tensors) and element addressing. Plus row-major iteration over a shape.
#pragma once

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace scatter_reference {

using Shape = std::vector<int64_t>;

struct StridedTensor {
    scatter_dtype dtype = SCATTER_DTYPE_UNDEFINED;
    size_t element_size = 0;
    Shape shape;
    Shape strides;
    char* base = nullptr;

    size_t rank() const { return shape.size(); }
    int64_t element_count() const;
    char* at(const int64_t* coords) const;
    int64_t index_at(const int64_t* coords) const;  // reads an I32/I64 index as int64
};

// The view of `t` (whose dtype and element size are already validated).
StridedTensor view_of(const scatter_tensor& t, size_t element_size);

// Calls visit(coords) for every coordinate of `shape` in row-major order: once (with no
// coordinates) for rank 0, never when a dimension is 0.
template <class Visit> void for_each_coordinate(const Shape& shape, Visit&& visit) {
    for (int64_t extent : shape)
        if (extent == 0) return;
    std::vector<int64_t> coords(shape.size(), 0);
    for (;;) {
        visit(static_cast<const int64_t*>(coords.data()));
        size_t d = shape.size();
        while (d > 0) {
            --d;
            if (++coords[d] < shape[d]) break;
            coords[d] = 0;
            if (d == 0) return;
        }
        if (shape.empty()) return;
    }
}

// Row-major linear position of `coords` in a contiguous tensor of `shape`.
int64_t linear_position(const Shape& shape, const int64_t* coords);

}  // namespace scatter_reference
