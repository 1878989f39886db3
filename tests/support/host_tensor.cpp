#include "host_tensor.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <sstream>

#include "dtypes.h"

namespace scatter_test {

std::string Layout::describe() const {
    if (kind == contiguous) return "row_major()";
    if (kind == spaced) return "every_second()";
    std::ostringstream s;
    s << "random(" << seed << ", " << (broadcast ? "true" : "false") << ")";
    return s.str();
}

HostTensor::HostTensor(scatter_dtype dtype, Shape shape, uint32_t opaque_size, Layout layout)
    : dtype_(dtype), element_size_(element_bytes(dtype, opaque_size)), shape_(std::move(shape)) {
    const size_t rank = shape_.size();
    const bool random = layout.kind == Layout::strided;
    null_strides_ = layout.kind == Layout::contiguous;
    strides_.assign(rank, 0);
    std::mt19937 rng(layout.seed);
    // Lay the dimensions out in some order (innermost first), each padded a little when random.
    std::vector<size_t> order(rank);
    std::iota(order.rbegin(), order.rend(), size_t(0));
    if (random && rng() % 2) std::shuffle(order.begin(), order.end(), rng);
    int64_t step = layout.kind == Layout::spaced ? 2 : random ? 1 + int64_t(rng() % 2) : 1;
    for (size_t d : order) {
        strides_[d] = step;
        int64_t pad = !random || rng() % 3 ? 0 : int64_t(rng() % 3);
        step *= std::max<int64_t>(shape_[d], 1) + pad;
    }
    for (size_t d = 0; d < rank && random; ++d) {
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
    // A spaced tensor keeps the gap after its last element too.
    int64_t elements = element_count() == 0 ? 0 : offset_ + highest + 1;
    if (layout.kind == Layout::spaced) elements = 2 * element_count();
    storage_.assign(size_t(elements) * element_size_, 0);
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
    t.element_size = dtype_ == SCATTER_DTYPE_OPAQUE ? element_size_ : 0u;
    t.rank = uint32_t(shape_.size());
    t.shape = shape_.empty() ? nullptr : shape_.data();
    t.strides = null_strides_ ? nullptr : strides_.data();
    t.data = storage_.empty() ? static_cast<void*>(const_cast<HostTensor*>(this))
                              : static_cast<void*>(const_cast<uint8_t*>(storage_.data()) + offset_ * int64_t(element_size_));
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

bool HostTensor::gaps_differ(const HostTensor& before) const {
    std::vector<bool> covered(storage_.size(), false);
    for_each_coordinate(shape_, [&](const int64_t* p) {
        size_t at = size_t(element(p) - storage_.data());
        std::fill(covered.begin() + long(at), covered.begin() + long(at + element_size_), true);
    });
    for (size_t b = 0; b < storage_.size(); ++b)
        if (!covered[b] && storage_[b] != before.storage_.at(b)) return true;
    return false;
}

HostTensor& HostTensor::set(int64_t i, double value) {
    Shape coords(shape_.size());
    for (size_t d = shape_.size(); d-- > 0;) {
        coords[d] = i % shape_[d];
        i /= shape_[d];
    }
    encode_value(dtype_, element_size_, value, element(coords.data()));
    return *this;
}

HostTensor& HostTensor::set_all(const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); ++i) set(int64_t(i), values[i]);
    return *this;
}

HostTensor& HostTensor::fill(double value) {
    for (int64_t i = 0; i < element_count(); ++i) set(i, value);
    return *this;
}

HostTensor& HostTensor::fill_sentinel(uint8_t seed) {
    for (size_t i = 0; i < storage_.size(); ++i) storage_[i] = uint8_t((i * 37u + seed) ^ 0xa5u);
    return *this;
}

}  // namespace scatter_test
