// Batches (several operations, one submission, one fence) and recordings (one operation in an
// application's command buffer). Both keep each operation's transient memory until the device
// is done with it and report index/divisor failures found on the device afterwards.
#pragma once

#include "vulkan/vk_backend_impl.h"

#include <memory>
#include <vector>

namespace scatter {

class VulkanBatch {
public:
    static Status create(VulkanBackend& backend, std::unique_ptr<VulkanBatch>* out);
    ~VulkanBatch();

    Status record(const OpPlan& plan);
    Status submit();
    Status wait();

private:
    explicit VulkanBatch(VulkanBackend& backend) : backend_(backend) {}
    enum class State { Recording, Submitted, Finished };
    VulkanBackend& backend_;
    TransientCache::CommandSlot slot_;  // from the device's cache, given back when destroyed
    State state_ = State::Recording;
    Status result_;
    std::vector<std::unique_ptr<RecordedOperation>> operations_;
};

// Records `plan` into an application command buffer (no host out allowed).
Status record_into(VulkanBackend& backend, VkCommandBuffer cmd, const OpPlan& plan,
                   std::unique_ptr<RecordedOperation>* out);

// Creates a backend for scatter_context_create_vulkan: on the borrowed device when
// borrowed.device is set, else on its own device; with an initial pipeline cache.
Status make_vulkan_backend_for(const scatter_context_desc& desc, ContextConfig& config, const BorrowedDevice* borrowed,
                               const void* cache, size_t cache_size, std::unique_ptr<Backend>* out);

}  // namespace scatter
