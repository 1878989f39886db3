#include "guarded_buffer.h"

#include <cstring>
#include <vector>

namespace scatter_test {
namespace {

constexpr size_t kGuardBytes = 256;
constexpr uint8_t kGuardByte = 0xA5;

}  // namespace

GuardedBuffer::~GuardedBuffer() { scatter_buffer_destroy(buffer_); }

bool GuardedBuffer::create(scatter_context context, const HostTensor& t) {
    bytes_ = t.storage().size();
    std::vector<uint8_t> all(bytes_ + 2 * kGuardBytes, kGuardByte);
    if (bytes_) std::memcpy(all.data() + kGuardBytes, t.storage().data(), bytes_);
    return scatter_buffer_create(context, all.size(), &buffer_) == SCATTER_OK &&
           scatter_buffer_write(buffer_, 0, all.data(), all.size()) == SCATTER_OK;
}

scatter_tensor GuardedBuffer::descriptor(const HostTensor& t) const {
    scatter_tensor d = t.descriptor();
    d.data = nullptr;
    d.buffer = buffer_;
    d.byte_offset = uint64_t(kGuardBytes + size_t(t.offset()) * t.element_size());
    return d;
}

void GuardedBuffer::read(HostTensor* t, std::string* stray_write) const {
    std::vector<uint8_t> all(bytes_ + 2 * kGuardBytes);
    if (scatter_buffer_read(buffer_, 0, all.data(), all.size()) != SCATTER_OK) {
        *stray_write = std::string("reading a buffer back failed: ") + scatter_last_error_message();
        return;
    }
    for (size_t b = 0; b < kGuardBytes; ++b)
        if (all[b] != kGuardByte || all[kGuardBytes + bytes_ + b] != kGuardByte)
            *stray_write = "a guard region around a buffer changed";
    if (bytes_) std::memcpy(t->storage().data(), all.data() + kGuardBytes, bytes_);
}

}  // namespace scatter_test
