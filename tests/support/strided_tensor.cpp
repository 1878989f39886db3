#include "strided_tensor.h"

#include <cstring>

namespace scatter_test {

char* StridedTensor::at(const int64_t* coords) const {
    int64_t offset = 0;
    for (size_t d = 0; d < rank(); ++d) offset += coords[d] * strides[d];
    return base + offset * int64_t(element_size);
}

int64_t StridedTensor::index_at(const int64_t* coords) const {
    const char* p = at(coords);
    if (dtype == SCATTER_DTYPE_I32) {
        int32_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    int64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

StridedTensor view_of(const scatter_tensor& t, size_t element_size) {
    StridedTensor v;
    v.dtype = t.dtype;
    v.element_size = element_size;
    v.shape.assign(t.shape, t.shape + t.rank);
    v.strides.assign(t.rank, 0);
    int64_t contiguous = 1;
    for (size_t d = t.rank; d-- > 0;) {
        v.strides[d] = t.strides ? t.strides[d] : contiguous;
        contiguous *= v.shape[d];
    }
    v.base = static_cast<char*>(t.data);
    return v;
}

}  // namespace scatter_test
