#include "vulkan/vk_profile.h"

#include "vulkan/vk_device.h"

namespace scatter {

void PassTimer::begin(VkCommandBuffer cmd) {
    if (pool_ == VK_NULL_HANDLE) return;
    device_.vk.vkCmdResetQueryPool(cmd, pool_, 0, kMaxQueries);
    device_.vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
}

void PassTimer::mark(VkCommandBuffer cmd, const char* name, uint64_t invocations) {
    if (marks_ == SCATTER_PROFILE_MAX_PASSES) return;  // more passes than the profile holds
    names_[marks_] = name;
    invocations_[marks_] = invocations;
    ++marks_;
    if (pool_ != VK_NULL_HANDLE) device_.vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, marks_);
}

void PassTimer::collect(OperationProfile* profile) const {
    uint64_t stamps[kMaxQueries] = {};
    bool timed = pool_ != VK_NULL_HANDLE && marks_ > 0 &&
                 device_.vk.vkGetQueryPoolResults(device_.device, pool_, 0, marks_ + 1, sizeof stamps, stamps,
                                                  sizeof(uint64_t), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
    // Timestamps wrap at timestampValidBits; differences are taken modulo that.
    const uint64_t mask = device_.timestamp_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << device_.timestamp_bits) - 1;
    const double us_per_tick = device_.timestamp_period_ns / 1000.0;
    for (uint32_t i = 0; i < marks_; ++i) {
        double us = timed ? double((stamps[i + 1] - stamps[i]) & mask) * us_per_tick : 0.0;
        profile->add_pass(names_[i], invocations_[i], us);
    }
    if (timed) profile->result.gpu_us = double((stamps[marks_] - stamps[0]) & mask) * us_per_tick;
}

}  // namespace scatter
