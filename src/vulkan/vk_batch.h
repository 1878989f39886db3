// Batches: several operations, one submission, one fence. A batch keeps each operation's
// transient memory until the device is done with it and reports index/divisor failures found
// on the device afterwards.
#pragma once

#include "vulkan/vulkan_backend.h"

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

}  // namespace scatter
