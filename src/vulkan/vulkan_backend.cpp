#include "vulkan/vulkan_backend.h"

#include "vulkan/vk_backend_impl.h"

namespace scatter {

Status VulkanBackend::create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) {
    return VulkanBuffer::create(*device_, size, out);
}

Status VulkanBackend::execute(const OpPlan& plan) {
    RecordedOperation operation(*device_, pipelines_);
    Status recorded;
    SCATTER_RETURN_IF_ERROR(device_->run_commands([&](VkCommandBuffer cmd) {
        recorded = operation.record(plan, cmd, /*allow_host_out=*/true);
    }));
    // A failed recording submitted a partial command buffer that wrote nothing the caller sees:
    // every pass that writes comes after the checks that could fail.
    SCATTER_RETURN_IF_ERROR(recorded);
    return operation.finish();
}

VulkanBackend* vulkan_backend_of(scatter_context_t* context) {
    if (context == nullptr || context->backend == nullptr || context->backend->kind() != SCATTER_BACKEND_VULKAN)
        return nullptr;
    return static_cast<VulkanBackend*>(context->backend.get());
}

Status make_vulkan_backend(const scatter_context_desc& desc, ContextConfig& config, std::unique_ptr<Backend>* out) {
    std::unique_ptr<VulkanDevice> device;
    SCATTER_RETURN_IF_ERROR(VulkanDevice::create(desc, config, &device));
    auto backend = std::make_unique<VulkanBackend>(std::move(device), config);
    SCATTER_RETURN_IF_ERROR(backend->init(nullptr, 0));
    *out = std::move(backend);
    return Status();
}

Status list_vulkan_devices(std::vector<scatter_device_info>* out) {
    std::unique_ptr<OwnedInstance> instance;
    if (!create_instance(false, nullptr, &instance).ok()) return Status();  // no Vulkan: nothing to list
    std::vector<PhysicalDeviceEntry> devices;
    if (!enumerate_devices(instance->fns, instance->instance, &devices).ok()) return Status();
    for (const PhysicalDeviceEntry& d : devices) out->push_back(d.info);
    return Status();
}

}  // namespace scatter
