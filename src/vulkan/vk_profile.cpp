#include "vulkan/vk_profile.h"

#include "vulkan/vk_device.h"

#include <cstring>

namespace scatter {

void PassTimer::begin(VkCommandBuffer cmd) {
    if (pool_ == VK_NULL_HANDLE) return;
    device_.vk.vkCmdResetQueryPool(cmd, pool_, 0, kMaxQueries);
    device_.vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
}

void PassTimer::mark(VkCommandBuffer cmd, const char* name, uint64_t invocations) {
    if (marks_ == kMaxMarks) return;  // more passes than the timer holds: the rest go unmarked
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
    // Each name once, where it first ran, with its marks' invocations and times summed.
    for (uint32_t i = 0; i < marks_; ++i) {
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; ++j) seen = std::strcmp(names_[j], names_[i]) == 0;
        if (seen) continue;
        uint64_t invocations = 0;
        double us = 0.0;
        for (uint32_t j = i; j < marks_; ++j) {
            if (std::strcmp(names_[j], names_[i]) != 0) continue;
            invocations += invocations_[j];
            if (timed) us += double((stamps[j + 1] - stamps[j]) & mask) * us_per_tick;
        }
        profile->add_pass(names_[i], invocations, us);
    }
    if (timed) profile->result.gpu_us = double((stamps[marks_] - stamps[0]) & mask) * us_per_tick;
}

}  // namespace scatter
