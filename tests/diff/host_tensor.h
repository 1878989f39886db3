// A tensor in host memory for the differential tests: a backing byte store plus a view (shape,
// strides in elements, offset of element 0) that may be non-contiguous, reversed or broadcast.
// The whole backing store is compared after a call, so bytes between strided elements must stay
// untouched too.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace scatter_diff {

using Shape = std::vector<int64_t>;

// How a tensor's elements are laid out. `strided` derives a random permutation of the
// dimensions, padding, reversed dimensions and (when `broadcast` is allowed, for tensors that are
// only read) zero strides from `seed`.
struct Layout {
    enum Kind { contiguous, strided } kind = contiguous;
    uint32_t seed = 0;
    bool broadcast = false;

    static Layout row_major() { return {}; }
    static Layout random(uint32_t seed, bool broadcast) { return {strided, seed, broadcast}; }
    std::string describe() const;
};

class HostTensor {
public:
    HostTensor() = default;
    HostTensor(scatter_dtype dtype, uint32_t element_size, Shape shape, Layout layout);

    scatter_tensor descriptor() const;  // valid while this object lives and is not moved
    int64_t element_count() const;
    size_t element_size() const { return element_size_; }
    const Shape& shape() const { return shape_; }
    scatter_dtype dtype() const { return dtype_; }
    uint8_t* element(const int64_t* coords);
    const uint8_t* element(const int64_t* coords) const;
    std::vector<uint8_t>& storage() { return storage_; }
    const std::vector<uint8_t>& storage() const { return storage_; }

    // The elements in row-major order, packed.
    std::vector<uint8_t> logical_bytes() const;

private:
    scatter_dtype dtype_ = SCATTER_DTYPE_UNDEFINED;
    uint32_t element_size_ = 0;
    uint32_t declared_element_size_ = 0;
    Shape shape_;
    Shape strides_;
    bool null_strides_ = true;
    int64_t offset_ = 0;  // element 0's position in storage_, in elements
    std::vector<uint8_t> storage_;
};

// Calls visit(coords) for each coordinate of `shape` in row-major order.
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

std::string describe_shape(const Shape& shape);
size_t dtype_size(scatter_dtype dtype);

}  // namespace scatter_diff
