// Shapes: the extents of a tensor, row-major iteration over them and the few facts every test
// level asks of a shape (element count, linear position, a printable form).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scatter_test {

using Shape = std::vector<int64_t>;

// The product of the extents (1 for rank 0).
int64_t element_count(const Shape& shape);

// Row-major linear position of `coords` in a contiguous tensor of `shape`.
int64_t linear_position(const Shape& shape, const int64_t* coords);

// "{2,3}": how shapes appear in builder expressions and failure messages.
std::string describe_shape(const Shape& shape);

// Calls visit(coords) for every coordinate of `shape` in row-major order: once (with no
// coordinates) for rank 0, never when a dimension is 0.
template <class Visit> void for_each_coordinate(const Shape& shape, Visit&& visit) {
    for (int64_t extent : shape)
        if (extent == 0) return;
    std::vector<int64_t> coords(shape.size(), 0);
    for (;;) {
        visit(static_cast<const int64_t*>(coords.data()));
        size_t d = shape.size();
        for (;;) {
            if (d == 0) return;
            --d;
            if (++coords[d] < shape[d]) break;
            coords[d] = 0;
        }
    }
}

}  // namespace scatter_test
