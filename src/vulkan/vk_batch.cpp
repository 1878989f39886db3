#include "vulkan/vk_batch.h"

namespace scatter {

Status VulkanBatch::create(VulkanBackend& backend, std::unique_ptr<VulkanBatch>* out) {
    std::unique_ptr<VulkanBatch> b(new VulkanBatch(backend));
    VulkanDevice& d = backend.device();
    auto pool_info = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pool_info.queueFamilyIndex = d.queue_family;
    SCATTER_VK_CHECK(d.vk.vkCreateCommandPool(d.device, &pool_info, nullptr, &b->pool_), "vkCreateCommandPool");
    auto alloc = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    alloc.commandPool = b->pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    SCATTER_VK_CHECK(d.vk.vkAllocateCommandBuffers(d.device, &alloc, &b->cmd_), "vkAllocateCommandBuffers");
    auto fence_info = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    SCATTER_VK_CHECK(d.vk.vkCreateFence(d.device, &fence_info, nullptr, &b->fence_), "vkCreateFence");
    auto begin = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SCATTER_VK_CHECK(d.vk.vkBeginCommandBuffer(b->cmd_, &begin), "vkBeginCommandBuffer");
    *out = std::move(b);
    return Status();
}

VulkanBatch::~VulkanBatch() {
    VulkanDevice& d = backend_.device();
    if (state_ == State::Submitted) d.vk.vkWaitForFences(d.device, 1, &fence_, VK_TRUE, UINT64_MAX);
    if (state_ == State::Recording && cmd_ != VK_NULL_HANDLE) d.vk.vkEndCommandBuffer(cmd_);
    operations_.clear();
    if (fence_ != VK_NULL_HANDLE) d.vk.vkDestroyFence(d.device, fence_, nullptr);
    if (pool_ != VK_NULL_HANDLE) d.vk.vkDestroyCommandPool(d.device, pool_, nullptr);
}

Status VulkanBatch::record(const OpPlan& plan) {
    if (state_ != State::Recording)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the batch was already submitted; create a new one");
    auto operation = std::make_unique<RecordedOperation>(backend_.device(), backend_.pipelines());
    SCATTER_RETURN_IF_ERROR(operation->record(plan, cmd_, /*allow_host_out=*/false));
    operations_.push_back(std::move(operation));
    return Status();
}

Status VulkanBatch::submit() {
    if (state_ != State::Recording)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the batch was already submitted");
    VulkanDevice& d = backend_.device();
    SCATTER_VK_CHECK(d.vk.vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    state_ = State::Submitted;
    Status status = d.submit(cmd_, fence_);
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
        VkResult r = d.vk.vkWaitForFences(d.device, 1, &fence_, VK_TRUE, UINT64_MAX);
        state_ = State::Finished;
        if (r != VK_SUCCESS) {
            result_ = vk_error(r, "vkWaitForFences");
            return result_;
        }
        for (size_t i = 0; i < operations_.size() && result_.ok(); ++i) {
            Status s = operations_[i]->finish();
            if (!s.ok()) result_ = Status(s.code(), "batch operation " + std::to_string(i) + ": " + s.message());
        }
    }
    return result_;
}

Status record_into(VulkanBackend& backend, VkCommandBuffer cmd, const OpPlan& plan,
                   std::unique_ptr<RecordedOperation>* out) {
    auto operation = std::make_unique<RecordedOperation>(backend.device(), backend.pipelines());
    SCATTER_RETURN_IF_ERROR(operation->record(plan, cmd, /*allow_host_out=*/false));
    *out = std::move(operation);
    return Status();
}

Status make_vulkan_backend_for(const scatter_context_desc& desc, ContextConfig& config, const BorrowedDevice* borrowed,
                               const void* cache, size_t cache_size, std::unique_ptr<Backend>* out) {
    std::unique_ptr<VulkanDevice> device;
    if (borrowed != nullptr) SCATTER_RETURN_IF_ERROR(VulkanDevice::borrow(*borrowed, &device));
    else SCATTER_RETURN_IF_ERROR(VulkanDevice::create(desc, config, &device));
    auto backend = std::make_unique<VulkanBackend>(std::move(device), config);
    SCATTER_RETURN_IF_ERROR(backend->init(cache, cache_size));
    *out = std::move(backend);
    return Status();
}

}  // namespace scatter
