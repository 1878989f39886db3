#include "vulkan/vk_transient.h"

#include <algorithm>

#include "vulkan/vk_device.h"
#include "vulkan/vk_memory.h"

namespace scatter {

TransientCache::~TransientCache() {
    const VolkDeviceTable& vk = device_.vk;
    release_memory();
    for (CommandSlot& s : command_slots_) {
        if (s.timestamps != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_.device, s.timestamps, nullptr);
        vk.vkDestroyFence(device_.device, s.fence, nullptr);
        vk.vkDestroyCommandPool(device_.device, s.pool, nullptr);
    }
    for (DescriptorSlot& s : descriptor_slots_) vk.vkDestroyDescriptorPool(device_.device, s.pool, nullptr);
}

void TransientCache::release_memory() {
    std::vector<KeptMemory> kept;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        kept.swap(memory_);
        kept_bytes_ = 0;
    }
    if (kept.empty()) return;
    device_.buffer_generation.fetch_add(1);  // before: a new buffer may get a freed handle at once
    const VolkDeviceTable& vk = device_.vk;
    for (KeptMemory& m : kept) {
        vk.vkDestroyBuffer(device_.device, m.buffer, nullptr);
        vk.vkFreeMemory(device_.device, m.memory, nullptr);
    }
}

uint64_t TransientCache::size_class(uint64_t bytes) {
    uint64_t power = uint64_t(64) << 10;
    while (power < bytes && power < (uint64_t(1) << 62)) {
        if (power + power / 2 >= bytes) return power + power / 2;
        power *= 2;
    }
    return power < bytes ? bytes : power;
}

bool TransientCache::take_memory(int use, uint64_t size, Allocation* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    // From the most recently kept: a repeating pattern of calls finds its match near the end,
    // where erasing is cheap.
    for (size_t i = memory_.size(); i-- > 0;) {
        KeptMemory m = memory_[i];
        if (m.use != use || m.size != size) continue;
        memory_.erase(memory_.begin() + long(i));
        kept_bytes_ -= m.size;
        out->buffer = m.buffer;
        out->memory = m.memory;
        out->mapped = m.mapped;
        out->flags = m.flags;
        out->address = m.address;
        out->size = m.size;
        out->transient = true;
        out->use = MemoryUse(use);
        return true;
    }
    return false;
}

void TransientCache::give_memory(int use, Allocation& a) {
    if (a.buffer == VK_NULL_HANDLE) return;
    std::vector<KeptMemory> evicted;
    if (a.size <= kMaxKeptBytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        // The least recently given back goes first: a workload that moves to new size classes
        // (another tensor shape) must not find the cache full of the old ones and allocate per
        // call (a vkAllocateMemory costs ~0.6 ms on NVIDIA).
        const size_t max_kept = std::min<size_t>(kMaxKeptMemory, device_.max_allocations / 2);
        while (!memory_.empty() && (memory_.size() >= max_kept || kept_bytes_ + a.size > kMaxKeptBytes)) {
            evicted.push_back(memory_.front());
            kept_bytes_ -= memory_.front().size;
            memory_.erase(memory_.begin());
        }
        memory_.push_back(KeptMemory{use, a.size, a.buffer, a.memory, a.mapped, a.flags, a.address});
        kept_bytes_ += a.size;
        a = Allocation();
    }
    for (KeptMemory& m : evicted) {
        device_.buffer_generation.fetch_add(1);  // before: a new buffer may get the handle at once
        device_.vk.vkDestroyBuffer(device_.device, m.buffer, nullptr);
        device_.vk.vkFreeMemory(device_.device, m.memory, nullptr);
    }
    if (a.buffer != VK_NULL_HANDLE) release(device_, a);
}

Status TransientCache::take_command_slot(CommandSlot* out) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!command_slots_.empty()) {
            *out = command_slots_.back();
            command_slots_.pop_back();
        }
    }
    const VolkDeviceTable& vk = device_.vk;
    if (out->pool != VK_NULL_HANDLE) {
        // Resetting a pool that holds one command buffer is cheap (a pool holding every buffer
        // ever allocated is not: that was the per-call leak).
        VkResult r = vk.vkResetCommandPool(device_.device, out->pool, 0);
        if (r == VK_SUCCESS) return Status();
        give_command_slot(*out, false);
        return vk_error(r, "vkResetCommandPool");
    }
    CommandSlot slot;
    auto pool_info = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = device_.queue_family;
    VkResult r = vk.vkCreateCommandPool(device_.device, &pool_info, nullptr, &slot.pool);
    if (r == VK_SUCCESS) {
        auto alloc = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        alloc.commandPool = slot.pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        r = vk.vkAllocateCommandBuffers(device_.device, &alloc, &slot.cmd);
    }
    if (r == VK_SUCCESS) {
        auto fence_info = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        r = vk.vkCreateFence(device_.device, &fence_info, nullptr, &slot.fence);
    }
    if (r != VK_SUCCESS) {
        give_command_slot(slot, false);
        return vk_error(r, "creating a command pool, command buffer and fence");
    }
    *out = slot;
    return Status();
}

void TransientCache::give_command_slot(CommandSlot& slot, bool reusable) {
    const VolkDeviceTable& vk = device_.vk;
    if (slot.pool == VK_NULL_HANDLE && slot.fence == VK_NULL_HANDLE && slot.timestamps == VK_NULL_HANDLE) return;
    if (reusable && slot.cmd != VK_NULL_HANDLE && slot.fence != VK_NULL_HANDLE &&
        vk.vkResetFences(device_.device, 1, &slot.fence) == VK_SUCCESS) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (command_slots_.size() < kMaxKeptObjects) {
            command_slots_.push_back(slot);
            slot = CommandSlot();
            return;
        }
    }
    if (slot.timestamps != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_.device, slot.timestamps, nullptr);
    if (slot.fence != VK_NULL_HANDLE) vk.vkDestroyFence(device_.device, slot.fence, nullptr);
    if (slot.pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_.device, slot.pool, nullptr);  // frees cmd
    slot = CommandSlot();
}

Status TransientCache::add_timestamps(CommandSlot& slot, uint32_t count) {
    if (slot.timestamps != VK_NULL_HANDLE) return Status();
    auto info = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = count;
    SCATTER_VK_CHECK(device_.vk.vkCreateQueryPool(device_.device, &info, nullptr, &slot.timestamps), "vkCreateQueryPool");
    return Status();
}

Status TransientCache::take_descriptor_slot(VkDescriptorSetLayout layout, const VkDescriptorPoolCreateInfo& pool_info,
                                            DescriptorSlot* out) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!descriptor_slots_.empty()) {
            *out = descriptor_slots_.back();
            descriptor_slots_.pop_back();
            return Status();
        }
    }
    const VolkDeviceTable& vk = device_.vk;
    DescriptorSlot slot;
    SCATTER_VK_CHECK(vk.vkCreateDescriptorPool(device_.device, &pool_info, nullptr, &slot.pool), "vkCreateDescriptorPool");
    auto alloc = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    alloc.descriptorPool = slot.pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &layout;
    VkResult r = vk.vkAllocateDescriptorSets(device_.device, &alloc, &slot.set);
    if (r != VK_SUCCESS) {
        vk.vkDestroyDescriptorPool(device_.device, slot.pool, nullptr);
        return vk_error(r, "vkAllocateDescriptorSets");
    }
    *out = slot;
    return Status();
}

void TransientCache::give_descriptor_slot(DescriptorSlot& slot) {
    if (slot.pool == VK_NULL_HANDLE) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (descriptor_slots_.size() < kMaxKeptDescriptorSlots) {
            descriptor_slots_.push_back(slot);
            slot = DescriptorSlot();
            return;
        }
    }
    device_.vk.vkDestroyDescriptorPool(device_.device, slot.pool, nullptr);  // frees the set
    slot = DescriptorSlot();
}

}  // namespace scatter
