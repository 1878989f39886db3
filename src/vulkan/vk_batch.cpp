#include "vulkan/vk_batch.h"

namespace scatter {

Status VulkanBatch::create(VulkanBackend& backend, std::unique_ptr<VulkanBatch>* out) {
    std::unique_ptr<VulkanBatch> b(new VulkanBatch(backend));
    VulkanDevice& d = backend.device();
    SCATTER_RETURN_IF_ERROR(d.transient->take_command_slot(&b->slot_));
    auto begin = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SCATTER_VK_CHECK(d.vk.vkBeginCommandBuffer(b->slot_.cmd, &begin), "vkBeginCommandBuffer");
    *out = std::move(b);
    return Status();
}

VulkanBatch::~VulkanBatch() {
    VulkanDevice& d = backend_.device();
    bool idle = true;
    if (state_ == State::Submitted) idle = d.vk.vkWaitForFences(d.device, 1, &slot_.fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
    if (state_ == State::Recording && slot_.cmd != VK_NULL_HANDLE) d.vk.vkEndCommandBuffer(slot_.cmd);
    operations_.clear();
    d.transient->give_command_slot(slot_, idle);
}

Status VulkanBatch::record(const OpPlan& plan) {
    if (state_ != State::Recording)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the batch was already submitted; create a new one");
    auto operation = std::make_unique<RecordedOperation>(backend_.device(), backend_.pipelines());
    SCATTER_RETURN_IF_ERROR(operation->record(plan, slot_.cmd, /*allow_host_out=*/false));
    operations_.push_back(std::move(operation));
    return Status();
}

Status VulkanBatch::submit() {
    if (state_ != State::Recording)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the batch was already submitted");
    VulkanDevice& d = backend_.device();
    SCATTER_VK_CHECK(d.vk.vkEndCommandBuffer(slot_.cmd), "vkEndCommandBuffer");
    state_ = State::Submitted;
    Status status = d.submit(slot_.cmd, slot_.fence);
    if (!status.ok()) {
        state_ = State::Finished;
        result_ = status;
    }
    return status;
}

Status VulkanBatch::wait() {
    if (state_ == State::Recording)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the batch was not submitted; call scatter_batch_submit first");
    if (state_ == State::Submitted) {
        VulkanDevice& d = backend_.device();
        Status waited = d.wait_for(slot_.fence);
        if (!waited.ok()) {
            result_ = waited;  // the fence stays Submitted: the destructor waits again
            return result_;
        }
        state_ = State::Finished;
        for (size_t i = 0; i < operations_.size() && result_.ok(); ++i) {
            Status s = operations_[i]->finish();
            if (!s.ok()) result_ = Status(s.code(), "batch operation " + std::to_string(i) + ": " + s.message());
        }
    }
    return result_;
}

}  // namespace scatter
