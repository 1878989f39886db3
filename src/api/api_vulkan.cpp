// Exported shims of the Vulkan section of the header: batches, engine interop and the pipeline
// cache. Every function answers on any context: UNSUPPORTED when the context is not a Vulkan one,
// BACKEND_UNAVAILABLE when this build has no Vulkan backend.
#include "api/api_guard.h"
#include "api/context_setup.h"
#include "core/context.h"
#include "core/op_plan.h"
#include "core/struct_size.h"

#if SCATTER_HAVE_VULKAN
#include "vulkan/vk_batch.h"
#endif

#include <cstring>
#include <memory>

#if SCATTER_HAVE_VULKAN
struct scatter_batch_t {
    scatter_context_t* context = nullptr;
    std::unique_ptr<scatter::VulkanBatch> impl;
};

struct scatter_recording_t {
    std::unique_ptr<scatter::RecordedOperation> operation;
};
#endif

using namespace scatter;

namespace {

#if SCATTER_HAVE_VULKAN
Status op_kind(scatter_op op, OpKind* kind) {
    switch (op) {
        case SCATTER_OP_ELEMENTS: *kind = OpKind::Elements; return Status();
        case SCATTER_OP_ROWS: *kind = OpKind::Rows; return Status();
        case SCATTER_OP_ND: *kind = OpKind::Nd; return Status();
        default: return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "op = %d is not a scatter_op", int(op));
    }
}

Status vulkan_of(scatter_context context, VulkanBackend** out) {
    if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
    *out = vulkan_backend_of(context);
    if (*out == nullptr)
        return make_error(SCATTER_ERROR_UNSUPPORTED, "this function needs a Vulkan context; the context runs on the %s",
                          scatter_backend_name(context->backend->kind()));
    return Status();
}

Status plan_for(scatter_context context, scatter_op op, const scatter_tensor* data, const scatter_tensor* indices,
                const scatter_tensor* updates, const scatter_options* options, const scatter_tensor* out,
                OpPlan* plan) {
    OpKind kind = OpKind::Elements;
    SCATTER_RETURN_IF_ERROR(op_kind(op, &kind));
    return plan_operation(OpRequest{kind, data, indices, updates, options, out}, context, plan);
}
#else
Status no_vulkan() {
    return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE,
                      "this build of libscatter has no Vulkan backend (SCATTER_ENABLE_VULKAN=OFF)");
}
#endif

}  // namespace

extern "C" {

SCATTER_API scatter_status scatter_batch_create(scatter_context context, scatter_batch* out_batch) {
    return guard([&]() -> Status {
        if (out_batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_batch is NULL");
#if SCATTER_HAVE_VULKAN
        VulkanBackend* backend;
        SCATTER_RETURN_IF_ERROR(vulkan_of(context, &backend));
        auto batch = std::make_unique<scatter_batch_t>();
        batch->context = context;
        SCATTER_RETURN_IF_ERROR(VulkanBatch::create(*backend, &batch->impl));
        *out_batch = batch.release();
        return Status();
#else
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_batch_record(scatter_batch batch, scatter_op op, const scatter_tensor* data,
                                                const scatter_tensor* indices, const scatter_tensor* updates,
                                                const scatter_options* options, const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
#if SCATTER_HAVE_VULKAN
        OpPlan plan;
        SCATTER_RETURN_IF_ERROR(plan_for(batch->context, op, data, indices, updates, options, out, &plan));
        return batch->impl->record(plan);
#else
        (void)op, (void)data, (void)indices, (void)updates, (void)options, (void)out;
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_batch_submit(scatter_batch batch) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
#if SCATTER_HAVE_VULKAN
        return batch->impl->submit();
#else
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_batch_wait(scatter_batch batch) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
#if SCATTER_HAVE_VULKAN
        return batch->impl->wait();
#else
        return no_vulkan();
#endif
    });
}

SCATTER_API void scatter_batch_destroy(scatter_batch batch) {
#if SCATTER_HAVE_VULKAN
    try {
        delete batch;
    } catch (...) {
    }
#else
    (void)batch;
#endif
}

SCATTER_API scatter_status scatter_context_create_vulkan(const scatter_context_desc* desc,
                                                         const scatter_vulkan_device_desc* device,
                                                         scatter_context* out_context) {
    return guard([&]() -> Status {
        if (out_context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_context is NULL");
        if (device == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "device is NULL");
        SCATTER_RETURN_IF_ERROR(check_struct_size("device", device, device->struct_size, sizeof(scatter_vulkan_device_desc)));
        scatter_context_desc defaults = SCATTER_CONTEXT_DESC_INIT;
        const scatter_context_desc& d = desc != nullptr ? *desc : defaults;
        SCATTER_RETURN_IF_ERROR(check_context_desc(d));
        if (d.backend != SCATTER_BACKEND_AUTO && d.backend != SCATTER_BACKEND_VULKAN)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "desc.backend = %d must be AUTO or VULKAN here", int(d.backend));
        if (device->pipeline_cache_size > 0 && device->pipeline_cache_data == nullptr)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "device.pipeline_cache_data is NULL but its size is %zu",
                              device->pipeline_cache_size);
#if SCATTER_HAVE_VULKAN
        BorrowedDevice borrowed{};
        const BorrowedDevice* borrow = nullptr;
        if (device->device != nullptr) {
            if (device->instance == nullptr || device->physical_device == nullptr || device->get_instance_proc_addr == nullptr)
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                  "device.instance, device.physical_device and device.get_instance_proc_addr are "
                                  "needed with an application device");
            borrowed.get_instance_proc_addr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(device->get_instance_proc_addr);
            borrowed.instance = static_cast<VkInstance>(device->instance);
            borrowed.physical_device = static_cast<VkPhysicalDevice>(device->physical_device);
            borrowed.device = static_cast<VkDevice>(device->device);
            borrowed.queue = static_cast<VkQueue>(device->queue);
            borrowed.queue_family = device->queue_family_index;
            borrowed.enabled_features = device->enabled_features;
            borrow = &borrowed;
        }
        auto context = std::make_unique<scatter_context_t>();
        ContextConfig& config = context->config;
        configure_context(d, &config);
        SCATTER_RETURN_IF_ERROR(make_vulkan_backend_for(d, config, borrow, device->pipeline_cache_data,
                                                        device->pipeline_cache_size, &context->backend));
        *out_context = context.release();
        return Status();
#else
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_buffer_wrap_vulkan(scatter_context context, uint64_t vk_buffer, uint64_t offset,
                                                      uint64_t size, scatter_buffer* out_buffer) {
    return guard([&]() -> Status {
        if (out_buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_buffer is NULL");
        if (vk_buffer == 0) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "vk_buffer is VK_NULL_HANDLE");
#if SCATTER_HAVE_VULKAN
        VulkanBackend* backend;
        SCATTER_RETURN_IF_ERROR(vulkan_of(context, &backend));
        auto buffer = std::make_unique<scatter_buffer_t>();
        buffer->context = context;
        buffer->impl = VulkanBuffer::wrap(backend->device(), reinterpret_cast<VkBuffer>(vk_buffer), offset, size);
        context->live_buffers.fetch_add(1);
        *out_buffer = buffer.release();
        return Status();
#else
        (void)offset;
        (void)size;
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_record_vulkan(scatter_context context, void* command_buffer, scatter_op op,
                                                 const scatter_tensor* data, const scatter_tensor* indices,
                                                 const scatter_tensor* updates, const scatter_options* options,
                                                 const scatter_tensor* out, scatter_recording* out_recording) {
    return guard([&]() -> Status {
        if (command_buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "command_buffer is NULL");
        if (out_recording == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_recording is NULL");
#if SCATTER_HAVE_VULKAN
        VulkanBackend* backend;
        SCATTER_RETURN_IF_ERROR(vulkan_of(context, &backend));
        OpPlan plan;
        SCATTER_RETURN_IF_ERROR(plan_for(context, op, data, indices, updates, options, out, &plan));
        auto recording = std::make_unique<scatter_recording_t>();
        SCATTER_RETURN_IF_ERROR(
            record_into(*backend, static_cast<VkCommandBuffer>(command_buffer), plan, &recording->operation));
        *out_recording = recording.release();
        return Status();
#else
        (void)op, (void)data, (void)indices, (void)updates, (void)options, (void)out;
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return no_vulkan();
#endif
    });
}

SCATTER_API scatter_status scatter_recording_result(scatter_recording recording) {
    return guard([&]() -> Status {
        if (recording == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "recording is NULL");
#if SCATTER_HAVE_VULKAN
        return recording->operation->finish();
#else
        return no_vulkan();
#endif
    });
}

SCATTER_API void scatter_recording_destroy(scatter_recording recording) {
#if SCATTER_HAVE_VULKAN
    try {
        delete recording;
    } catch (...) {
    }
#else
    (void)recording;
#endif
}

SCATTER_API scatter_status scatter_pipeline_cache_data(scatter_context context, void* data, size_t* size) {
    return guard([&]() -> Status {
        if (size == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "size is NULL");
#if SCATTER_HAVE_VULKAN
        VulkanBackend* backend;
        SCATTER_RETURN_IF_ERROR(vulkan_of(context, &backend));
        std::vector<uint8_t> blob;
        SCATTER_RETURN_IF_ERROR(backend->pipelines().export_cache(&blob));
        if (data == nullptr) {
            *size = blob.size();
            return Status();
        }
        if (*size < blob.size())
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "*size = %zu is smaller than the cache's %zu bytes", *size,
                              blob.size());
        std::memcpy(data, blob.data(), blob.size());
        *size = blob.size();
        return Status();
#else
        (void)data;
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return no_vulkan();
#endif
    });
}

}  // extern "C"
