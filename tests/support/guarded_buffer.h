// GuardedBuffer: one HostTensor's backing store copied into a scatter buffer between guard
// regions, for running a call on buffer tensors and reading the result back.
#pragma once

#include <scatter/scatter.h>

#include <string>

#include "host_tensor.h"

namespace scatter_test {

class GuardedBuffer {
public:
    GuardedBuffer() = default;
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;
    ~GuardedBuffer();

    // guard | t's storage | guard in a new buffer of `context`; false when that fails.
    bool create(scatter_context context, const HostTensor& t);
    // The descriptor of `t`'s view inside this buffer.
    scatter_tensor descriptor(const HostTensor& t) const;
    // Reads the storage back into t; names a changed guard byte in *stray_write.
    void read(HostTensor* t, std::string* stray_write) const;

private:
    scatter_buffer buffer_ = nullptr;
    size_t bytes_ = 0;
};

}  // namespace scatter_test
