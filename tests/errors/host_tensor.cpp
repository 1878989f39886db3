#include "host_tensor.h"

#include <cmath>
#include <cstring>

namespace scatter_test {

namespace {

// Round-to-nearest-even f32 -> IEEE binary16 for the small, finite values tests use.
uint16_t to_f16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
    uint32_t mantissa = bits & 0x7fffffu;
    if (exponent <= 0) return static_cast<uint16_t>(sign);  // tests never need subnormals
    if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
    const uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
    return static_cast<uint16_t>(half);
}

uint16_t to_bf16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

template <class T>
void store(T value, uint8_t* dst) {
    std::memcpy(dst, &value, sizeof(T));
}

}  // namespace

uint32_t element_bytes(scatter_dtype dtype, uint32_t opaque_size) {
    return dtype == SCATTER_DTYPE_OPAQUE ? opaque_size
                                         : static_cast<uint32_t>(scatter_dtype_size(dtype));
}

void encode_value(scatter_dtype dtype, uint32_t opaque_size, double value, uint8_t* dst) {
    switch (dtype) {
    case SCATTER_DTYPE_F16: store(to_f16(static_cast<float>(value)), dst); break;
    case SCATTER_DTYPE_BF16: store(to_bf16(static_cast<float>(value)), dst); break;
    case SCATTER_DTYPE_F32: store(static_cast<float>(value), dst); break;
    case SCATTER_DTYPE_F64: store(value, dst); break;
    case SCATTER_DTYPE_I8: store(static_cast<int8_t>(value), dst); break;
    case SCATTER_DTYPE_I16: store(static_cast<int16_t>(value), dst); break;
    case SCATTER_DTYPE_I32: store(static_cast<int32_t>(value), dst); break;
    case SCATTER_DTYPE_I64: store(static_cast<int64_t>(value), dst); break;
    case SCATTER_DTYPE_U8: store(static_cast<uint8_t>(static_cast<int64_t>(value)), dst); break;
    case SCATTER_DTYPE_U16: store(static_cast<uint16_t>(static_cast<int64_t>(value)), dst); break;
    case SCATTER_DTYPE_U32: store(static_cast<uint32_t>(static_cast<int64_t>(value)), dst); break;
    case SCATTER_DTYPE_U64: store(static_cast<uint64_t>(static_cast<int64_t>(value)), dst); break;
    case SCATTER_DTYPE_BOOL: store(static_cast<uint8_t>(value != 0.0), dst); break;
    case SCATTER_DTYPE_C64:
        store(static_cast<float>(value), dst);
        store(0.0f, dst + 4);
        break;
    case SCATTER_DTYPE_C128:
        store(value, dst);
        store(0.0, dst + 8);
        break;
    case SCATTER_DTYPE_OPAQUE:
        std::memset(dst, static_cast<int>(static_cast<int64_t>(value) & 0xff), opaque_size);
        break;
    default: break;
    }
}

const std::vector<scatter_dtype>& all_data_dtypes() {
    static const std::vector<scatter_dtype> dtypes = {
        SCATTER_DTYPE_F16,  SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,  SCATTER_DTYPE_F64,
        SCATTER_DTYPE_I8,   SCATTER_DTYPE_I16,  SCATTER_DTYPE_I32,  SCATTER_DTYPE_I64,
        SCATTER_DTYPE_U8,   SCATTER_DTYPE_U16,  SCATTER_DTYPE_U32,  SCATTER_DTYPE_U64,
        SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64,  SCATTER_DTYPE_C128, SCATTER_DTYPE_OPAQUE};
    return dtypes;
}

const std::vector<scatter_dtype>& integer_dtypes() {
    static const std::vector<scatter_dtype> dtypes = {
        SCATTER_DTYPE_I8, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
        SCATTER_DTYPE_U8, SCATTER_DTYPE_U16, SCATTER_DTYPE_U32, SCATTER_DTYPE_U64};
    return dtypes;
}

HostTensor::HostTensor(scatter_dtype dtype, std::vector<int64_t> shape, uint32_t element_size)
    : dtype_(dtype), element_size_(element_bytes(dtype, element_size)), shape_(std::move(shape)) {
    bytes_.assign(static_cast<size_t>(element_count()) * element_size_, 0);
}

int64_t HostTensor::element_count() const {
    int64_t count = 1;
    for (int64_t d : shape_) count *= d;
    return count;
}

HostTensor& HostTensor::set(int64_t i, double value) {
    encode_value(dtype_, element_size_, value, bytes_.data() + i * element_size_);
    return *this;
}

HostTensor& HostTensor::set_all(const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); ++i) set(static_cast<int64_t>(i), values[i]);
    return *this;
}

HostTensor& HostTensor::fill(double value) {
    for (int64_t i = 0; i < element_count(); ++i) set(i, value);
    return *this;
}

HostTensor& HostTensor::fill_sentinel(uint8_t seed) {
    for (size_t i = 0; i < bytes_.size(); ++i)
        bytes_[i] = static_cast<uint8_t>((i * 37u + seed) ^ 0xa5u);
    return *this;
}

scatter_tensor HostTensor::desc() const {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype_;
    t.element_size = dtype_ == SCATTER_DTYPE_OPAQUE ? element_size_ : 0u;
    t.rank = static_cast<uint32_t>(shape_.size());
    t.shape = shape_.empty() ? nullptr : shape_.data();
    // A non-null pointer even for empty tensors: tests null it on purpose where they mean to.
    t.data = const_cast<uint8_t*>(bytes_.empty() ? reinterpret_cast<const uint8_t*>(this)
                                                  : bytes_.data());
    return t;
}

}  // namespace scatter_test
