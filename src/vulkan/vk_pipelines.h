// The compute pipelines of a context: one descriptor-set layout and pipeline layout shared by
// every shader, one VkPipeline per embedded module created on first use and cached, and a
// VkPipelineCache whose blob can be exported and imported to cut start-up time.
#pragma once

#include "vulkan/vk_device.h"

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

    // The pipeline of module `name` (see shader_registry.h), created on first use. Thread-safe.
    // one_window: specialization constant 0 (ONE_WINDOW in shaders/common.glsl), for operations
    // whose every binding lies within its first window. slab_words: specialization constant 1
    // (SLAB_WORDS in shaders/scatter.comp, the shared table's size), 0 for the shader's default.
    Status get(const std::string& name, bool one_window, uint32_t slab_words, VkPipeline* out);
    Status export_cache(std::vector<uint8_t>* out);

    VkDescriptorSetLayout set_layout() const { return set_layout_; }
    VkPipelineLayout layout() const { return layout_; }

private:
    VulkanDevice& device_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    std::mutex mutex_;
    std::map<std::string, VkPipeline> pipelines_;
};

}  // namespace scatter
