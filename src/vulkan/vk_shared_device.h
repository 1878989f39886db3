// Contexts share Vulkan objects within a process: one VkInstance per validation setting and one
// device (VkDevice, queue, pipelines, transient cache) per physical device and feature set.
// Creating an instance and a device costs ~75-85 ms, and some drivers refuse more than a few
// dozen instances per process (NVIDIA: the 30th vkCreateInstance fails), so an application or a
// test suite that creates contexts again and again must not create them again and again.
// What is created stays until the process exits (never destroyed explicitly: see the .cpp): the
// next context finds it ready.
#pragma once

#include "vulkan/vk_device.h"
#include "vulkan/vk_pipelines.h"
#include "vulkan/vulkan_entry.h"

#include <atomic>
#include <memory>

namespace scatter {

// A device with its pipelines: what a Vulkan context runs on.
struct DeviceBundle {
    std::unique_ptr<VulkanDevice> device;
    std::unique_ptr<PipelineSet> pipelines;
    // Contexts running on the bundle now: the last one to go frees the cached transient memory
    // (staging and scratch of finished calls), which would otherwise outlive every context.
    std::atomic<int64_t> contexts{0};
    ~DeviceBundle() {
        pipelines.reset();  // before the device they belong to
        device.reset();
    }
};

// The process's instance for `validation` (created on first use). log_to hears a missing
// validation layer when the instance is created now.
Status shared_instance(bool validation, const ContextConfig* log_to, std::shared_ptr<OwnedInstance>* out);

// The process's device for the request's device index (-1: the best one) and validation setting
// and the feature switches in the environment, created on first use (with the request's
// pipeline cache as its initial one). Thread-safe.
Status shared_device(const VulkanDeviceRequest& request, const ContextConfig& config,
                     std::shared_ptr<DeviceBundle>* out);

// A bundle on an application's device (interop): not shared, destroyed with its context.
Status borrowed_device(const BorrowedDevice& borrowed, const void* cache, size_t cache_size,
                       std::shared_ptr<DeviceBundle>* out);

}  // namespace scatter
