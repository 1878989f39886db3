// PassTimer: GPU timestamps around the passes of one profiled operation
// (SCATTER_CONTEXT_FLAG_PROFILE). A timestamp opens the command buffer and one follows each pass
// (after its barrier), so consecutive differences are the passes' GPU times. Marks of the same
// name are summed into one entry of the profile (the radix sort's digit passes: one entry per
// kind of pass, however many digits).
#pragma once

#include "core/profile.h"
#include "vulkan/vk_functions.h"

#include <cstdint>

namespace scatter {

class VulkanDevice;

class PassTimer {
public:
    static constexpr uint32_t kMaxMarks = 2 * SCATTER_PROFILE_MAX_PASSES;
    static constexpr uint32_t kMaxQueries = kMaxMarks + 1;

    // pool: kMaxQueries timestamp queries (a command slot's); VK_NULL_HANDLE when the queue
    // cannot write timestamps (then only pass names and invocations are reported).
    PassTimer(VulkanDevice& device, VkQueryPool pool) : device_(device), pool_(pool) {}

    void begin(VkCommandBuffer cmd);
    void mark(VkCommandBuffer cmd, const char* name, uint64_t invocations);
    // After the command buffer completed: each pass with its GPU time.
    void collect(OperationProfile* profile) const;

private:
    VulkanDevice& device_;
    VkQueryPool pool_;
    uint32_t marks_ = 0;
    const char* names_[kMaxMarks] = {};
    uint64_t invocations_[kMaxMarks] = {};
};

}  // namespace scatter
