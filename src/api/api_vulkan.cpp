// Exported shims of the Vulkan section of the header: batches, engine interop and the pipeline
// cache. Each checks the arguments that need no Vulkan, then asks vulkan_entry.h, which answers
// BACKEND_UNAVAILABLE in a build without Vulkan; on a context that is not a Vulkan one the answer
// is UNSUPPORTED.
#include "api/api_guard.h"
#include "api/context_setup.h"
#include "core/context.h"
#include "core/op_plan.h"
#include "core/struct_size.h"
#include "vulkan/vulkan_entry.h"

#include <cstring>
#include <memory>
#include <vector>

using namespace scatter;

namespace {

Status op_kind(scatter_op op, OpKind* kind) {
    switch (op) {
        case SCATTER_OP_ELEMENTS: *kind = OpKind::Elements; return Status();
        case SCATTER_OP_ROWS: *kind = OpKind::Rows; return Status();
        case SCATTER_OP_ND: *kind = OpKind::Nd; return Status();
        default: return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "op = %d is not a scatter_op", int(op));
    }
}

// The context is not NULL and runs on Vulkan.
Status check_vulkan_context(scatter_context context) {
    if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
    return require_vulkan_context(context);
}

Status plan_for(scatter_context context, scatter_op op, const scatter_tensor* data, const scatter_tensor* indices,
                const scatter_tensor* updates, const scatter_options* options, const scatter_tensor* out,
                OpPlan* plan) {
    OpKind kind = OpKind::Elements;
    SCATTER_RETURN_IF_ERROR(op_kind(op, &kind));
    return plan_operation(OpRequest{kind, data, indices, updates, options, out}, context, plan);
}

}  // namespace

extern "C" {

SCATTER_API scatter_status scatter_batch_create(scatter_context context, scatter_batch* out_batch) {
    return guard([&]() -> Status {
        if (out_batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_batch is NULL");
        SCATTER_RETURN_IF_ERROR(check_vulkan_context(context));
        return create_batch(context, out_batch);
    });
}

SCATTER_API scatter_status scatter_batch_record(scatter_batch batch, scatter_op op, const scatter_tensor* data,
                                                const scatter_tensor* indices, const scatter_tensor* updates,
                                                const scatter_options* options, const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
        OpPlan plan;
        SCATTER_RETURN_IF_ERROR(plan_for(batch_context(batch), op, data, indices, updates, options, out, &plan));
        return record_in_batch(batch, plan);
    });
}

SCATTER_API scatter_status scatter_batch_submit(scatter_batch batch) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
        return submit_batch(batch);
    });
}

SCATTER_API scatter_status scatter_batch_wait(scatter_batch batch) {
    return guard([&]() -> Status {
        if (batch == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "batch is NULL");
        return wait_for_batch(batch);
    });
}

SCATTER_API void scatter_batch_destroy(scatter_batch batch) { destroy_batch(batch); }

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
        const bool application_device = device->device != nullptr;
        if (application_device &&
            (device->instance == nullptr || device->physical_device == nullptr || device->get_instance_proc_addr == nullptr))
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "device.instance, device.physical_device and device.get_instance_proc_addr are "
                              "needed with an application device");
        auto context = std::make_unique<scatter_context_t>();
        ContextConfig& config = context->config;
        configure_context(d, &config);
        if (application_device) {
            SCATTER_RETURN_IF_ERROR(make_vulkan_backend_on_application_device(*device, config, &context->backend));
        } else {
            VulkanDeviceRequest request = vulkan_device_request(d);
            request.pipeline_cache = device->pipeline_cache_data;
            request.pipeline_cache_size = device->pipeline_cache_size;
            SCATTER_RETURN_IF_ERROR(make_vulkan_backend_on_shared_device(request, config, &context->backend));
        }
        *out_context = context.release();
        return Status();
    });
}

SCATTER_API scatter_status scatter_buffer_wrap_vulkan(scatter_context context, uint64_t vk_buffer, uint64_t offset,
                                                      uint64_t size, scatter_buffer* out_buffer) {
    return guard([&]() -> Status {
        if (out_buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_buffer is NULL");
        if (vk_buffer == 0) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "vk_buffer is VK_NULL_HANDLE");
        SCATTER_RETURN_IF_ERROR(check_vulkan_context(context));
        return wrap_vulkan_buffer(context, vk_buffer, offset, size, out_buffer);
    });
}

SCATTER_API scatter_status scatter_record_vulkan(scatter_context context, void* command_buffer, scatter_op op,
                                                 const scatter_tensor* data, const scatter_tensor* indices,
                                                 const scatter_tensor* updates, const scatter_options* options,
                                                 const scatter_tensor* out, scatter_recording* out_recording) {
    return guard([&]() -> Status {
        if (command_buffer == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "command_buffer is NULL");
        if (out_recording == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out_recording is NULL");
        SCATTER_RETURN_IF_ERROR(check_vulkan_context(context));
        OpPlan plan;
        SCATTER_RETURN_IF_ERROR(plan_for(context, op, data, indices, updates, options, out, &plan));
        return record_into_command_buffer(context, command_buffer, plan, out_recording);
    });
}

SCATTER_API scatter_status scatter_recording_result(scatter_recording recording) {
    return guard([&]() -> Status {
        if (recording == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "recording is NULL");
        return recording_result(recording);
    });
}

SCATTER_API void scatter_recording_destroy(scatter_recording recording) { destroy_recording(recording); }

SCATTER_API scatter_status scatter_pipeline_cache_data(scatter_context context, void* data, size_t* size) {
    return guard([&]() -> Status {
        if (size == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "size is NULL");
        SCATTER_RETURN_IF_ERROR(check_vulkan_context(context));
        std::vector<uint8_t> blob;
        SCATTER_RETURN_IF_ERROR(export_pipeline_cache(context, &blob));
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
    });
}

}  // extern "C"
