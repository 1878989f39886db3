// Contexts and devices.
#include "api/api_guard.h"
#include "api/context_setup.h"
#include "api/backend_factory.h"
#include "core/context.h"

#include <cstring>
#include <vector>


using namespace scatter;

namespace scatter {

void release_context(scatter_context_t* context) noexcept {
    if (context->references.fetch_sub(1) != 1) return;
    try {
        delete context;
    } catch (...) {
    }
}

}  // namespace scatter

extern "C" {

SCATTER_API scatter_status scatter_context_create(const scatter_context_desc* desc,
                                                  scatter_context* out_context) {
    return guard([&]() -> Status {
        if (out_context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_context is NULL");
        scatter_context_desc defaults = SCATTER_CONTEXT_DESC_INIT;
        const scatter_context_desc& d = desc != nullptr ? *desc : defaults;
        SCATTER_RETURN_IF_ERROR(check_context_desc(d));
        auto context = std::make_unique<scatter_context_t>();
        ContextConfig& config = context->config;
        configure_context(d, &config);
        SCATTER_RETURN_IF_ERROR(create_backend(d, config, &context->backend));
        *out_context = context.release();
        return Status();
    });
}

SCATTER_API void scatter_context_destroy(scatter_context context) {
    if (context != nullptr) release_context(context);
}

SCATTER_API scatter_status scatter_context_backend(scatter_context context, scatter_backend* out_backend) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        if (out_backend == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_backend is NULL");
        *out_backend = context->backend->kind();
        return Status();
    });
}

SCATTER_API scatter_status scatter_devices(scatter_device_info* infos, uint32_t* count) {
    return guard([&]() -> Status {
        if (count == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "count is NULL");
        std::vector<scatter_device_info> devices;
        SCATTER_RETURN_IF_ERROR(list_devices(&devices));
        if (infos == nullptr) {
            *count = uint32_t(devices.size());
            return Status();
        }
        uint32_t n = *count < devices.size() ? *count : uint32_t(devices.size());
        if (n == 0) {
            *count = 0;
            return Status();
        }
        // The caller's array may be of a newer, larger scatter_device_info: its elements are
        // infos[0].struct_size bytes apart, not sizeof of the struct this library knows.
        char* base = reinterpret_cast<char*>(infos);
        uint32_t stride = 0;
        std::memcpy(&stride, base, sizeof stride);
        if (stride < sizeof(scatter_device_info))
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "infos[0].struct_size = %u is smaller than sizeof(scatter_device_info) = %zu", stride,
                              sizeof(scatter_device_info));
        for (uint32_t i = 1; i < n; ++i) {
            uint32_t size = 0;
            std::memcpy(&size, base + size_t(i) * stride, sizeof size);
            if (size != stride)
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                  "infos[%u].struct_size = %u must equal infos[0].struct_size = %u", i, size, stride);
        }
        for (uint32_t i = 0; i < n; ++i) {
            char* entry = base + size_t(i) * stride;
            // Fields this library does not know read as zero ("not reported").
            std::memset(entry, 0, stride);
            std::memcpy(entry, &devices[i], sizeof(scatter_device_info));
            std::memcpy(entry, &stride, sizeof stride);
        }
        *count = n;
        return Status();
    });
}

}  // extern "C"
