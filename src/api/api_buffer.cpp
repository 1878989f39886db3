// Buffers: memory owned by a context's backend.
#include "api/api_guard.h"
#include "core/context.h"

#include <cinttypes>

using namespace scatter;

namespace {

Status check_range(const char* what, scatter_buffer buffer, uint64_t offset, const void* host, uint64_t size) {
    if (buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    if (host == nullptr && size > 0) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    uint64_t total = buffer->impl->size();
    if (offset > total || size > total - offset)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "bytes [%" PRIu64 ", %" PRIu64 " + %" PRIu64 ") are outside the buffer's %" PRIu64 " bytes",
                          offset, offset, size, total);
    return Status();
}

}  // namespace

extern "C" {

SCATTER_API scatter_status scatter_buffer_create(scatter_context context, uint64_t size, scatter_buffer* out_buffer) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        if (out_buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_buffer is NULL");
        auto buffer = std::make_unique<scatter_buffer_t>();
        buffer->context = context;
        SCATTER_RETURN_IF_ERROR(context->backend->create_buffer(size, &buffer->impl));
        retain_context(context);
        *out_buffer = buffer.release();
        return Status();
    });
}

SCATTER_API void scatter_buffer_destroy(scatter_buffer buffer) {
    if (buffer == nullptr) return;
    scatter_context_t* context = buffer->context;
    try {
        delete buffer;  // before its context: the buffer's memory belongs to the context's device
    } catch (...) {
    }
    release_context(context);
}

SCATTER_API uint64_t scatter_buffer_size(scatter_buffer buffer) {
    return buffer != nullptr ? buffer->impl->size() : 0;
}

SCATTER_API scatter_status scatter_buffer_write(scatter_buffer buffer, uint64_t offset, const void* src, uint64_t size) {
    return guard([&]() -> Status {
        SCATTER_RETURN_IF_ERROR(check_range("src", buffer, offset, src, size));
        if (size == 0) return Status();
        return buffer->impl->write(offset, src, size);
    });
}

SCATTER_API scatter_status scatter_buffer_read(scatter_buffer buffer, uint64_t offset, void* dst, uint64_t size) {
    return guard([&]() -> Status {
        SCATTER_RETURN_IF_ERROR(check_range("dst", buffer, offset, dst, size));
        if (size == 0) return Status();
        return buffer->impl->read(offset, dst, size);
    });
}

SCATTER_API scatter_status scatter_buffer_copy(scatter_buffer src, uint64_t src_offset, scatter_buffer dst,
                                               uint64_t dst_offset, uint64_t size) {
    return guard([&]() -> Status {
        if (src == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "src is NULL");
        static const char kNotNull = 0;  // check_range wants a host pointer; there is none here
        SCATTER_RETURN_IF_ERROR(check_range("src", src, src_offset, &kNotNull, size));
        SCATTER_RETURN_IF_ERROR(check_range("dst", dst, dst_offset, &kNotNull, size));
        if (src->context != dst->context)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "src and dst belong to different contexts");
        if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "bytes [%" PRIu64 ", %" PRIu64 ") and [%" PRIu64 ", %" PRIu64 ") of one buffer overlap",
                              src_offset, src_offset + size, dst_offset, dst_offset + size);
        if (size == 0) return Status();
        return dst->impl->copy_from(*src->impl, src_offset, dst_offset, size);
    });
}

}  // extern "C"
