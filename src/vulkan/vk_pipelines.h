// The compute pipelines of a context: one descriptor-set layout and pipeline layout shared by
// every shader, one VkPipeline per embedded module created on first use and cached, and a
// VkPipelineCache whose blob can be exported and imported to cut start-up time.
#pragma once

#include "vulkan/vk_device.h"
#include "vulkan/vk_pipeline_key.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace scatter {

struct PushConstants {
    uint32_t mode;
    uint32_t count;
};

class PipelineSet {
public:
    explicit PipelineSet(VulkanDevice& device) : device_(device) {}
    ~PipelineSet();
    // initial_cache may be empty; a blob from another device or driver is ignored by Vulkan.
    Status init(const void* initial_cache, size_t initial_cache_size);

    // The pipeline `key` names (vk_pipeline_key.h), created on first use. Thread-safe.
    // A driver that refuses it (any failure of vkCreateShaderModule or vkCreateComputePipelines
    // but running out of memory or losing the device, or a null handle) gets UNSUPPORTED naming
    // the module and the VkResult; the refusal is remembered, so a later request for the same
    // pipeline fails at once without asking the driver again (UNSUPPORTED is get's refusal only).
    Status get(const PipelineKey& key, VkPipeline* out);
    Status export_cache(std::vector<uint8_t>* out);

    VkDescriptorSetLayout set_layout() const { return set_layout_; }
    VkPipelineLayout layout() const { return layout_; }

private:
    VulkanDevice& device_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    std::mutex mutex_;
    std::map<PipelineKey, VkPipeline> pipelines_;
    std::map<PipelineKey, int32_t> refused_;  // the VkResult of each refusal (VK_SUCCESS: a null handle)

    Status refuse(const PipelineKey& key, const std::string& name, int32_t result, const char* call);
};

}  // namespace scatter
