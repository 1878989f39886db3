#include "host_tensor.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

namespace scatter_diff {

size_t dtype_size(scatter_dtype dtype) {
    switch (dtype) {
        case SCATTER_DTYPE_I8: case SCATTER_DTYPE_U8: case SCATTER_DTYPE_BOOL: return 1;
        case SCATTER_DTYPE_F16: case SCATTER_DTYPE_BF16:
        case SCATTER_DTYPE_I16: case SCATTER_DTYPE_U16: return 2;
        case SCATTER_DTYPE_F32: case SCATTER_DTYPE_I32: case SCATTER_DTYPE_U32: return 4;
        case SCATTER_DTYPE_F64: case SCATTER_DTYPE_I64: case SCATTER_DTYPE_U64:
        case SCATTER_DTYPE_C64: return 8;
        case SCATTER_DTYPE_C128: return 16;
        default: return 0;
    }
}

std::string Layout::describe() const {
    if (kind == contiguous) return "row_major()";
    std::ostringstream s;
    s << "random(" << seed << ", " << (broadcast ? "true" : "false") << ")";
    return s.str();
}

std::string describe_shape(const Shape& shape) {
    std::ostringstream s;
    s << "{";
    for (size_t i = 0; i < shape.size(); ++i) s << (i ? "," : "") << shape[i];
    s << "}";
    return s.str();
}

HostTensor::HostTensor(scatter_dtype dtype, uint32_t element_size, Shape shape, Layout layout)
    : dtype_(dtype),
      element_size_(dtype == SCATTER_DTYPE_OPAQUE ? element_size : uint32_t(dtype_size(dtype))),
      declared_element_size_(element_size),
      shape_(std::move(shape)) {
    size_t rank = shape_.size();
    strides_.assign(rank, 0);
    null_strides_ = layout.kind == Layout::contiguous;
    std::mt19937 rng(layout.seed);
    // Lay the dimensions out in some order (innermost first), each padded a little.
    std::vector<size_t> order(rank);
    std::iota(order.rbegin(), order.rend(), size_t(0));
    if (!null_strides_ && rng() % 2) std::shuffle(order.begin(), order.end(), rng);
    int64_t step = null_strides_ ? 1 : 1 + int64_t(rng() % 2);
    for (size_t d : order) {
        strides_[d] = step;
        int64_t pad = null_strides_ || rng() % 3 ? 0 : int64_t(rng() % 3);
        step *= std::max<int64_t>(shape_[d], 1) + pad;
    }
    for (size_t d = 0; d < rank && !null_strides_; ++d) {
        if (layout.broadcast && rng() % 4 == 0) strides_[d] = 0;
        else if (rng() % 3 == 0) strides_[d] = -strides_[d];
    }
    // Element 0 sits where every reversed dimension's last element lands at position 0.
    int64_t highest = 0;
    offset_ = 0;
    for (size_t d = 0; d < rank; ++d) {
        int64_t span = std::max<int64_t>(shape_[d] - 1, 0) * strides_[d];
        if (span < 0) offset_ -= span;
        else highest += span;
    }
    size_t elements = element_count() == 0 ? 0 : size_t(offset_ + highest + 1);
    storage_.assign(elements * element_size_, 0);
}

int64_t HostTensor::element_count() const {
    int64_t n = 1;
    for (int64_t extent : shape_) n *= extent;
    return n;
}

const uint8_t* HostTensor::element(const int64_t* coords) const {
    int64_t position = offset_;
    for (size_t d = 0; d < shape_.size(); ++d) position += coords[d] * strides_[d];
    return storage_.data() + position * int64_t(element_size_);
}

uint8_t* HostTensor::element(const int64_t* coords) {
    return const_cast<uint8_t*>(static_cast<const HostTensor*>(this)->element(coords));
}

scatter_tensor HostTensor::descriptor() const {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype_;
    t.element_size = declared_element_size_;
    t.rank = uint32_t(shape_.size());
    t.shape = shape_.data();
    t.strides = null_strides_ ? nullptr : strides_.data();
    t.data = storage_.empty() ? nullptr
                              : const_cast<uint8_t*>(storage_.data()) + offset_ * int64_t(element_size_);
    return t;
}

std::vector<uint8_t> HostTensor::logical_bytes() const {
    std::vector<uint8_t> bytes;
    bytes.reserve(size_t(element_count()) * element_size_);
    for_each_coordinate(shape_, [&](const int64_t* p) {
        const uint8_t* e = element(p);
        bytes.insert(bytes.end(), e, e + element_size_);
    });
    return bytes;
}

}  // namespace scatter_diff
