// vulkan_entry.h in a build without Vulkan (SCATTER_ENABLE_VULKAN=OFF): no device to list, and
// whatever would need one is BACKEND_UNAVAILABLE. No batch, recording or Vulkan context can
// exist here, so the functions that take one are never reached with a valid handle.
#include "vulkan/vulkan_entry.h"

namespace scatter {
namespace {

Status no_vulkan() {
    return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE,
                      "this build of libscatter has no Vulkan backend (SCATTER_ENABLE_VULKAN=OFF)");
}

}  // namespace

VulkanDeviceRequest vulkan_device_request(const scatter_context_desc& desc) {
    VulkanDeviceRequest request;
    request.device_index = desc.device_index;
    return request;
}

Status make_vulkan_backend_on_shared_device(const VulkanDeviceRequest&, ContextConfig&, std::unique_ptr<Backend>*) {
    return no_vulkan();
}

Status make_vulkan_backend_on_application_device(const scatter_vulkan_device_desc&, ContextConfig&,
                                                 std::unique_ptr<Backend>*) {
    return no_vulkan();
}

Status list_vulkan_devices(std::vector<scatter_device_info>*) { return Status(); }

Status require_vulkan_context(scatter_context) { return no_vulkan(); }

Status create_batch(scatter_context, scatter_batch*) { return no_vulkan(); }
scatter_context batch_context(scatter_batch) { return nullptr; }
Status record_in_batch(scatter_batch, const OpPlan&) { return no_vulkan(); }
Status submit_batch(scatter_batch) { return no_vulkan(); }
Status wait_for_batch(scatter_batch) { return no_vulkan(); }
void destroy_batch(scatter_batch) noexcept {}

Status record_into_command_buffer(scatter_context, void*, const OpPlan&, scatter_recording*) { return no_vulkan(); }
Status recording_result(scatter_recording) { return no_vulkan(); }
void destroy_recording(scatter_recording) noexcept {}

Status wrap_vulkan_buffer(scatter_context, uint64_t, uint64_t, uint64_t, scatter_buffer*) { return no_vulkan(); }
Status export_pipeline_cache(scatter_context, std::vector<uint8_t>*) { return no_vulkan(); }

}  // namespace scatter
