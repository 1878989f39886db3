// HostTensor: a tensor in host memory that owns its shape, strides and bytes, and hands out a
// scatter_tensor descriptor pointing at them. Values are written through doubles so one test can
// cover every dtype.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <vector>

namespace scatter_test {

class HostTensor {
public:
    HostTensor() = default;
    // A contiguous tensor of zeros. element_size is only needed for OPAQUE.
    HostTensor(scatter_dtype dtype, std::vector<int64_t> shape, uint32_t element_size = 0);

    scatter_dtype dtype() const { return dtype_; }
    uint32_t element_size() const { return element_size_; }
    const std::vector<int64_t>& shape() const { return shape_; }
    int64_t element_count() const;
    std::vector<uint8_t>& bytes() { return bytes_; }
    const std::vector<uint8_t>& bytes() const { return bytes_; }

    // Writes value (converted to the dtype; complex gets a zero imaginary part, opaque repeats the
    // low byte) at flat row-major position i.
    HostTensor& set(int64_t i, double value);
    // Writes values[i] at position i for every i.
    HostTensor& set_all(const std::vector<double>& values);
    // Writes value at every position.
    HostTensor& fill(double value);
    // Fills every byte with a position-dependent pattern that no operation produces by chance.
    HostTensor& fill_sentinel(uint8_t seed);

    // A descriptor of the whole tensor (contiguous, NULL strides). Valid while this tensor lives
    // and is not resized.
    scatter_tensor desc() const;

private:
    scatter_dtype dtype_ = SCATTER_DTYPE_UNDEFINED;
    uint32_t element_size_ = 0;
    std::vector<int64_t> shape_;
    std::vector<uint8_t> bytes_;
};

// Size in bytes of one element of dtype (element_size for OPAQUE).
uint32_t element_bytes(scatter_dtype dtype, uint32_t opaque_size);

// Encodes value as one element of dtype into dst (element_bytes(dtype) bytes).
void encode_value(scatter_dtype dtype, uint32_t opaque_size, double value, uint8_t* dst);

// Every data dtype, in enum order.
const std::vector<scatter_dtype>& all_data_dtypes();
// The integer dtypes (signed and unsigned).
const std::vector<scatter_dtype>& integer_dtypes();

}  // namespace scatter_test
