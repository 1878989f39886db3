// The Vulkan build's side of vulkan_entry.h (vulkan_off.cpp is the other build's).
#include "vulkan/vulkan_entry.h"

#include "vulkan/vk_batch.h"
#include "vulkan/vk_memory.h"
#include "vulkan/vulkan_backend.h"

struct scatter_batch_t {
    scatter_context_t* context = nullptr;
    std::unique_ptr<scatter::VulkanBatch> impl;
};

struct scatter_recording_t {
    scatter_context_t* context = nullptr;
    std::unique_ptr<scatter::RecordedOperation> operation;
};

namespace scatter {

VulkanDeviceRequest vulkan_device_request(const scatter_context_desc& desc) {
    VulkanDeviceRequest request;
    request.device_index = desc.device_index;
    request.validation = (desc.flags & SCATTER_CONTEXT_FLAG_VALIDATION) != 0;
    return request;
}

Status make_vulkan_backend_on_shared_device(const VulkanDeviceRequest& request, ContextConfig& config,
                                            std::unique_ptr<Backend>* out) {
    std::shared_ptr<DeviceBundle> bundle;
    SCATTER_RETURN_IF_ERROR(shared_device(request, config, &bundle));
    *out = std::make_unique<VulkanBackend>(std::move(bundle), config);
    return Status();
}

Status make_vulkan_backend_on_application_device(const scatter_vulkan_device_desc& device, ContextConfig& config,
                                                 std::unique_ptr<Backend>* out) {
    BorrowedDevice borrowed{};
    borrowed.get_instance_proc_addr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(device.get_instance_proc_addr);
    borrowed.instance = static_cast<VkInstance>(device.instance);
    borrowed.physical_device = static_cast<VkPhysicalDevice>(device.physical_device);
    borrowed.device = static_cast<VkDevice>(device.device);
    borrowed.queue = static_cast<VkQueue>(device.queue);
    borrowed.queue_family = device.queue_family_index;
    borrowed.enabled_features = device.enabled_features;
    std::shared_ptr<DeviceBundle> bundle;
    SCATTER_RETURN_IF_ERROR(
        borrowed_device(borrowed, device.pipeline_cache_data, device.pipeline_cache_size, &bundle));
    *out = std::make_unique<VulkanBackend>(std::move(bundle), config);
    return Status();
}

Status list_vulkan_devices(std::vector<scatter_device_info>* out) {
    std::shared_ptr<OwnedInstance> instance;
    if (!shared_instance(false, nullptr, &instance).ok()) return Status();  // no Vulkan: nothing to list
    std::vector<PhysicalDeviceEntry> devices;
    if (!enumerate_devices(instance->fns, instance->instance, &devices).ok()) return Status();
    for (const PhysicalDeviceEntry& d : devices) out->push_back(d.info);
    return Status();
}

Status require_vulkan_context(scatter_context context) {
    if (vulkan_backend_of(context) != nullptr) return Status();
    return make_error(SCATTER_ERROR_UNSUPPORTED, "this function needs a Vulkan context; the context runs on the %s",
                      scatter_backend_name(context->backend->kind()));
}

Status create_batch(scatter_context context, scatter_batch* out) {
    auto batch = std::make_unique<scatter_batch_t>();
    batch->context = context;
    SCATTER_RETURN_IF_ERROR(VulkanBatch::create(*vulkan_backend_of(context), &batch->impl));
    retain_context(context);
    *out = batch.release();
    return Status();
}

scatter_context batch_context(scatter_batch batch) { return batch->context; }

Status record_in_batch(scatter_batch batch, const OpPlan& plan) { return batch->impl->record(plan); }

Status submit_batch(scatter_batch batch) { return batch->impl->submit(); }

Status wait_for_batch(scatter_batch batch) { return batch->impl->wait(); }

void destroy_batch(scatter_batch batch) noexcept {
    if (batch == nullptr) return;
    scatter_context_t* context = batch->context;
    try {
        delete batch;
    } catch (...) {
    }
    release_context(context);
}

Status record_into_command_buffer(scatter_context context, void* command_buffer, const OpPlan& plan,
                                  scatter_recording* out) {
    VulkanBackend& backend = *vulkan_backend_of(context);
    auto recording = std::make_unique<scatter_recording_t>();
    recording->context = context;
    recording->operation = std::make_unique<RecordedOperation>(backend.device(), backend.pipelines());
    SCATTER_RETURN_IF_ERROR(recording->operation->record(plan, static_cast<VkCommandBuffer>(command_buffer),
                                                         /*allow_host_out=*/false));
    retain_context(context);
    *out = recording.release();
    return Status();
}

Status recording_result(scatter_recording recording) { return recording->operation->finish(); }

void destroy_recording(scatter_recording recording) noexcept {
    if (recording == nullptr) return;
    scatter_context_t* context = recording->context;
    try {
        delete recording;
    } catch (...) {
    }
    release_context(context);
}

Status wrap_vulkan_buffer(scatter_context context, uint64_t vk_buffer, uint64_t offset, uint64_t size,
                          scatter_buffer* out) {
    auto buffer = std::make_unique<scatter_buffer_t>();
    buffer->context = context;
    buffer->impl = VulkanBuffer::wrap(vulkan_backend_of(context)->device(), reinterpret_cast<VkBuffer>(vk_buffer),
                                      offset, size);
    retain_context(context);
    *out = buffer.release();
    return Status();
}

Status export_pipeline_cache(scatter_context context, std::vector<uint8_t>* out) {
    return vulkan_backend_of(context)->pipelines().export_cache(out);
}

}  // namespace scatter
