// VulkanBackend: a context's device, pipelines and the execution of operations and batches.
#pragma once

#include "vulkan/vk_device.h"
#include "vulkan/vk_operation.h"
#include "vulkan/vk_pipelines.h"
#include "vulkan/vk_shared_device.h"

#include <functional>
#include <memory>
#include <vector>

namespace scatter {

class VulkanBackend final : public Backend {
public:
    // Runs on `bundle` (shared with other contexts unless borrowed); `config` hears its
    // validation messages while the backend lives.
    VulkanBackend(std::shared_ptr<DeviceBundle> bundle, ContextConfig& config);
    ~VulkanBackend() override;

    scatter_backend kind() const override { return SCATTER_BACKEND_VULKAN; }
    Status create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) override;
    Status execute(const OpPlan& plan) override;
    Status execute_gather(const GatherPlan& plan) override;
    Status execute_message_passing(const MessagePlan& plan) override;
    // The scatters' backward has no Vulkan kernels yet: UNSUPPORTED before anything is touched
    // (an AUTO context runs those calls on host tensors on its CPU backend).
    Status execute_backward(const BackwardPlan& plan) override;
    // Gather's backward is the forward scatter-add (core/gather_backward_plan.h), run by this
    // backend's scatter: bitwise equal to the CPU.
    Status execute_gather_backward(const GatherPlan& plan) override;

    VulkanDevice& device() { return *device_; }
    PipelineSet& pipelines() { return pipelines_; }

private:
    // Records one operation (RecordedOperation::record or record_gather) into a command buffer.
    using Recorder = std::function<Status(RecordedOperation&, VkCommandBuffer, PassTimer*)>;
    // Records, submits and waits for one operation, then finishes it; with `profile`, each stage
    // timed and timestamps around each pass.
    Status run(const Recorder& record, OperationProfile* profile);
    Status run_profiled(const Recorder& record, OperationProfile& profile);

    std::shared_ptr<DeviceBundle> bundle_;
    VulkanDevice* device_;    // bundle_'s
    PipelineSet& pipelines_;  // bundle_'s
    ContextConfig& config_;
};

// The backend of a context when it is a Vulkan one, else nullptr.
VulkanBackend* vulkan_backend_of(scatter_context_t* context);

}  // namespace scatter
