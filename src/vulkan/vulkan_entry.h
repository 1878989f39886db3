// What the API layer asks of the Vulkan backend: creating backends, listing devices, and the
// Vulkan half of the functions in scatter.h's Vulkan section (api/api_vulkan.cpp checks the
// arguments that need no Vulkan first). Defined by vulkan/vulkan_entry.cpp, or in a build without
// Vulkan (SCATTER_ENABLE_VULKAN=OFF) by vulkan/vulkan_off.cpp, where every function that would
// create something returns BACKEND_UNAVAILABLE: the API layer has no preprocessor branch.
// This header names no Vulkan type, so it compiles in both builds.
#pragma once

#include "core/backend.h"
#include "core/context.h"
#include "core/op_plan.h"

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace scatter {

// The device a context asks for: what the device depends on, not the whole context descriptor.
struct VulkanDeviceRequest {
    int32_t device_index = -1;  // -1: the best device type
    bool validation = false;    // SCATTER_CONTEXT_FLAG_VALIDATION
    const void* pipeline_cache = nullptr;  // initial pipeline cache when the device is created now
    size_t pipeline_cache_size = 0;
};

VulkanDeviceRequest vulkan_device_request(const scatter_context_desc& desc);

// A backend on the process's shared device for `request` (created on first use, kept for the
// next context). BACKEND_UNAVAILABLE with the reason when there is no loader, driver or device.
Status make_vulkan_backend_on_shared_device(const VulkanDeviceRequest& request, ContextConfig& config,
                                            std::unique_ptr<Backend>* out);

// A backend on the application's VkDevice (device.device set, its companions checked by the
// caller): not shared, released with its context.
Status make_vulkan_backend_on_application_device(const scatter_vulkan_device_desc& device, ContextConfig& config,
                                                 std::unique_ptr<Backend>* out);

// Appends every Vulkan device; with no Vulkan at all appends nothing and returns OK.
Status list_vulkan_devices(std::vector<scatter_device_info>* out);

// OK when the (non-null) context runs on Vulkan; UNSUPPORTED naming its backend otherwise.
Status require_vulkan_context(scatter_context context);

// Batches (scatter_batch_*): created on a context that passed require_vulkan_context.
Status create_batch(scatter_context context, scatter_batch* out);
scatter_context batch_context(scatter_batch batch);
Status record_in_batch(scatter_batch batch, const OpPlan& plan);
Status submit_batch(scatter_batch batch);
Status wait_for_batch(scatter_batch batch);
void destroy_batch(scatter_batch batch) noexcept;

// Recordings (scatter_record_vulkan): `plan` recorded into the application's command buffer.
Status record_into_command_buffer(scatter_context context, void* command_buffer, const OpPlan& plan,
                                  scatter_recording* out);
Status recording_result(scatter_recording recording);
void destroy_recording(scatter_recording recording) noexcept;

// scatter_buffer_wrap_vulkan and scatter_pipeline_cache_data on a Vulkan context.
Status wrap_vulkan_buffer(scatter_context context, uint64_t vk_buffer, uint64_t offset, uint64_t size,
                          scatter_buffer* out);
Status export_pipeline_cache(scatter_context context, std::vector<uint8_t>* out);

}  // namespace scatter
