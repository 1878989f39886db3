// VulkanBackend: a context's device, pipelines and the execution of operations and batches.
#pragma once

#include "vulkan/vk_device.h"
#include "vulkan/vk_operation.h"
#include "vulkan/vk_pipelines.h"

#include <memory>
#include <vector>

namespace scatter {

class VulkanBackend final : public Backend {
public:
    VulkanBackend(std::unique_ptr<VulkanDevice> device, ContextConfig& config)
        : device_(std::move(device)), pipelines_(*device_), config_(config) {}
    Status init(const void* pipeline_cache, size_t pipeline_cache_size) {
        return pipelines_.init(pipeline_cache, pipeline_cache_size);
    }

    scatter_backend kind() const override { return SCATTER_BACKEND_VULKAN; }
    Status create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) override;
    Status execute(const OpPlan& plan) override;
    Status execute_profiled(const OpPlan& plan, OperationProfile& profile);

    VulkanDevice& device() { return *device_; }
    PipelineSet& pipelines() { return pipelines_; }

private:
    std::unique_ptr<VulkanDevice> device_;
    PipelineSet pipelines_;
    ContextConfig& config_;
};

// The backend of a context when it is a Vulkan one, else nullptr.
VulkanBackend* vulkan_backend_of(scatter_context_t* context);

}  // namespace scatter
