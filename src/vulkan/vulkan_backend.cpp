#include "vulkan/vulkan_backend.h"

#include "core/gather_backward_plan.h"
#include "core/index_check.h"
#include "core/op_plan.h"
#include "core/profile.h"

namespace scatter {

VulkanBackend::VulkanBackend(std::shared_ptr<DeviceBundle> bundle, ContextConfig& config)
    : bundle_(std::move(bundle)), device_(bundle_->device.get()), pipelines_(*bundle_->pipelines), config_(config) {
    if (OwnedInstance* instance = device_->owned_instance()) instance->add_log(&config_);
    device_->log_device(config_);
    bundle_->contexts.fetch_add(1);
}

VulkanBackend::~VulkanBackend() {
    if (OwnedInstance* instance = device_->owned_instance()) instance->remove_log(&config_);
    if (bundle_->contexts.fetch_sub(1) == 1) device_->transient->release_memory();
}

Status VulkanBackend::create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) {
    return VulkanBuffer::create(*device_, size, out);
}

Status VulkanBackend::execute(const OpPlan& plan) {
    return run([&plan](RecordedOperation& operation, VkCommandBuffer cmd, PassTimer* timer) {
        return operation.record(plan, cmd, /*allow_host_out=*/true, timer);
    }, plan.profile);
}

Status VulkanBackend::execute_backward(const BackwardPlan&) {
    return make_error(SCATTER_ERROR_UNSUPPORTED,
                      "the Vulkan backend has no backward kernels yet; run scatter_*_backward on a CPU context "
                      "(an AUTO context does so for host tensors)");
}

Status VulkanBackend::execute_gather_backward(const GatherPlan& plan) {
    // Host indices get the gather's own checks here (its CLAMP refuses an empty dimension, where
    // the scatter would skip); indices in a buffer are checked on the GPU by the scatter, whose
    // ERROR rule and message are the gather's. Only the gather's CLAMP into an empty dimension
    // would need them read back.
    if (plan.indices.host != nullptr) {
        SCATTER_RETURN_IF_ERROR(check_gather_indices(plan, *config_.runner));
    } else if (plan.policy == SCATTER_OUT_OF_RANGE_CLAMP && plan.data.empty() && !plan.indices.empty()) {
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "a gather backward under CLAMP into an empty dimension needs host indices on Vulkan");
    }
    ScratchArray<int64_t> batched(config_.allocator);
    OpPlan scatter;
    SCATTER_RETURN_IF_ERROR(plan_gather_backward_scatter(plan, &batched, &scatter));
    return execute(scatter);
}

Status VulkanBackend::execute_gather(const GatherPlan& plan) {
    return run([&plan](RecordedOperation& operation, VkCommandBuffer cmd, PassTimer* timer) {
        return operation.record_gather(plan, cmd, /*allow_host_out=*/true, timer);
    }, plan.profile);
}

// No fused pass yet: a staged gather + scatter would build the E x F messages the call exists to
// avoid. AUTO contexts run host tensors on their CPU backend.
Status VulkanBackend::execute_message_passing(const MessagePlan&) {
    return make_error(SCATTER_ERROR_UNSUPPORTED,
                      "the Vulkan backend does not run scatter_message_passing yet; use host tensors on a CPU or "
                      "AUTO context");
}

Status VulkanBackend::run(const Recorder& record, OperationProfile* profile) {
    if (profile != nullptr) return run_profiled(record, *profile);
    RecordedOperation operation(*device_, pipelines_);
    Status recorded;
    SCATTER_RETURN_IF_ERROR(device_->run_commands([&](VkCommandBuffer cmd) {
        recorded = record(operation, cmd, nullptr);
    }));
    // A failed recording submitted a partial command buffer that wrote nothing the caller sees:
    // every pass that writes comes after the checks that could fail.
    SCATTER_RETURN_IF_ERROR(recorded);
    return operation.finish();
}

// run() with each stage timed and timestamps around each pass.
Status VulkanBackend::run_profiled(const Recorder& record, OperationProfile& profile) {
    scatter_profile& times = profile.result;
    Stopwatch stage;
    TransientCache::CommandSlot slot;
    SCATTER_RETURN_IF_ERROR(device_->transient->take_command_slot(&slot));
    Status status;
    if (device_->timestamp_bits > 0) status = device_->transient->add_timestamps(slot, PassTimer::kMaxQueries);
    PassTimer timer(*device_, slot.timestamps);
    RecordedOperation operation(*device_, pipelines_);
    const VolkDeviceTable& vk = device_->vk;
    auto begin = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (status.ok()) {
        VkResult r = vk.vkBeginCommandBuffer(slot.cmd, &begin);
        if (r != VK_SUCCESS) status = vk_error(r, "vkBeginCommandBuffer");
    }
    Status recorded;
    if (status.ok()) {
        timer.begin(slot.cmd);
        recorded = record(operation, slot.cmd, &timer);
        VkResult r = vk.vkEndCommandBuffer(slot.cmd);
        if (r != VK_SUCCESS) status = vk_error(r, "vkEndCommandBuffer");
    }
    times.record_us = stage.lap_us();
    bool submitted = false;
    if (status.ok()) {
        status = device_->submit(slot.cmd, slot.fence);
        submitted = status.ok();
        times.submit_us = stage.lap_us();
    }
    bool idle = !submitted;  // nothing of the slot's is still pending on the device
    if (submitted) {
        status = device_->wait_for(slot.fence);
        idle = status.ok();
        times.wait_us = stage.lap_us();
    }
    if (status.ok()) {
        timer.collect(&profile);
        status = recorded.ok() ? operation.finish() : recorded;
        times.read_back_us = stage.lap_us();
    }
    device_->transient->give_command_slot(slot, idle);
    return status;
}

VulkanBackend* vulkan_backend_of(scatter_context_t* context) {
    if (context == nullptr || context->backend == nullptr) return nullptr;
    Backend* owner = context->backend->buffer_owner();
    return owner->kind() == SCATTER_BACKEND_VULKAN ? static_cast<VulkanBackend*>(owner) : nullptr;
}

}  // namespace scatter
