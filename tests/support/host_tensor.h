// HostTensor: a tensor in host memory that owns its bytes, shape and strides and hands out the
// scatter_tensor descriptor of them. The view may be contiguous (NULL strides), spaced (a gap
// after every element) or randomly strided: permuted, padded, reversed and, for tensors that are
// only read, broadcast. Tests compare the whole backing store after a call, so the bytes between
// strided elements must stay untouched too. Values are written through doubles (dtypes.h), so
// one test can cover every dtype.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shape.h"

namespace scatter_test {

// How a tensor's elements are laid out in its backing store.
struct Layout {
    enum Kind {
        contiguous,  // row-major, NULL strides
        spaced,      // row-major with every stride doubled: element e at 2e, a gap after each
        strided,     // derived from `seed`: see above
    } kind = contiguous;
    uint32_t seed = 0;
    bool broadcast = false;  // strided only: zero strides allowed (never for a written tensor)

    static Layout row_major() { return {}; }
    static Layout every_second() { return {spaced, 0, false}; }
    static Layout random(uint32_t seed, bool broadcast) { return {strided, seed, broadcast}; }
    std::string describe() const;  // the builder expression: "row_major()", "random(7, false)"
};

class HostTensor {
public:
    HostTensor() = default;
    // Zeros. opaque_size is the element size of OPAQUE (ignored for other dtypes).
    HostTensor(scatter_dtype dtype, Shape shape, uint32_t opaque_size = 0,
               Layout layout = Layout::row_major());

    // The descriptor of the view: valid while this object lives and is not moved. Its data
    // pointer is never NULL, even for an empty tensor (tests null it where they mean to).
    scatter_tensor descriptor() const;

    scatter_dtype dtype() const { return dtype_; }
    uint32_t element_size() const { return element_size_; }
    const Shape& shape() const { return shape_; }
    int64_t element_count() const { return scatter_test::element_count(shape_); }
    // Strides in elements (the contiguous ones when the descriptor's are NULL) and element 0's
    // position in storage(), in elements.
    const Shape& strides() const { return strides_; }
    int64_t offset() const { return offset_; }
    bool null_strides() const { return null_strides_; }

    uint8_t* element(const int64_t* coords);
    const uint8_t* element(const int64_t* coords) const;
    std::vector<uint8_t>& storage() { return storage_; }
    const std::vector<uint8_t>& storage() const { return storage_; }

    // The elements in row-major order, packed.
    std::vector<uint8_t> logical_bytes() const;
    // Whether any byte of storage() that no element covers differs from `before`'s (same layout).
    bool gaps_differ(const HostTensor& before) const;

    // Writes `value` (dtypes.h: encode_value) at row-major position i; at every position i of
    // `values`; at every position.
    HostTensor& set(int64_t i, double value);
    HostTensor& set_all(const std::vector<double>& values);
    HostTensor& fill(double value);
    // Fills every byte of storage() with a position-dependent pattern no operation produces by
    // chance.
    HostTensor& fill_sentinel(uint8_t seed);

private:
    scatter_dtype dtype_ = SCATTER_DTYPE_UNDEFINED;
    uint32_t element_size_ = 0;
    Shape shape_;
    Shape strides_;
    bool null_strides_ = true;
    int64_t offset_ = 0;
    std::vector<uint8_t> storage_;
};

}  // namespace scatter_test
