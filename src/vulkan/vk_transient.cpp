#include "vulkan/vk_transient.h"

#include "vulkan/vk_device.h"
#include "vulkan/vk_memory.h"

namespace scatter {

TransientCache::~TransientCache() {
    const VolkDeviceTable& vk = device_.vk;
    for (KeptMemory& m : memory_) {
        vk.vkDestroyBuffer(device_.device, m.buffer, nullptr);
        vk.vkFreeMemory(device_.device, m.memory, nullptr);
    }
    for (VkCommandPool p : command_pools_) vk.vkDestroyCommandPool(device_.device, p, nullptr);
    for (VkFence f : fences_) vk.vkDestroyFence(device_.device, f, nullptr);
    for (VkDescriptorPool p : descriptor_pools_) vk.vkDestroyDescriptorPool(device_.device, p, nullptr);
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
    for (size_t i = 0; i < memory_.size(); ++i) {
        KeptMemory m = memory_[i];
        if (m.use != use || m.size != size) continue;
        memory_.erase(memory_.begin() + long(i));
        kept_bytes_ -= m.size;
        out->buffer = m.buffer;
        out->memory = m.memory;
        out->mapped = m.mapped;
        out->flags = m.flags;
        out->size = m.size;
        out->transient = true;
        out->use = MemoryUse(use);
        return true;
    }
    return false;
}

void TransientCache::give_memory(int use, Allocation& a) {
    if (a.buffer == VK_NULL_HANDLE) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (memory_.size() < kMaxKeptMemory && kept_bytes_ + a.size <= kMaxKeptBytes) {
            memory_.push_back(KeptMemory{use, a.size, a.buffer, a.memory, a.mapped, a.flags});
            kept_bytes_ += a.size;
            a = Allocation();
            return;
        }
    }
    release(device_, a);
}

namespace {

template <class Handle>
Handle take_from(std::mutex& mutex, std::vector<Handle>& kept) {
    std::lock_guard<std::mutex> lock(mutex);
    if (kept.empty()) return VK_NULL_HANDLE;
    Handle h = kept.back();
    kept.pop_back();
    return h;
}

// Keeps h unless `max` are kept already; returns whether it was kept.
template <class Handle>
bool keep(std::mutex& mutex, std::vector<Handle>& kept, Handle h, size_t max) {
    std::lock_guard<std::mutex> lock(mutex);
    if (kept.size() >= max) return false;
    kept.push_back(h);
    return true;
}

}  // namespace

VkCommandPool TransientCache::take_command_pool() { return take_from(mutex_, command_pools_); }
VkFence TransientCache::take_fence() { return take_from(mutex_, fences_); }
VkDescriptorPool TransientCache::take_descriptor_pool() { return take_from(mutex_, descriptor_pools_); }

void TransientCache::give_command_pool(VkCommandPool pool) {
    if (pool == VK_NULL_HANDLE) return;
    // Frees the pool's command buffers too: every one is allocated again per use.
    bool reset = device_.vk.vkResetCommandPool(device_.device, pool, 0) == VK_SUCCESS;
    if (!reset || !keep(mutex_, command_pools_, pool, kMaxKeptObjects))
        device_.vk.vkDestroyCommandPool(device_.device, pool, nullptr);
}

void TransientCache::give_fence(VkFence fence) {
    if (fence == VK_NULL_HANDLE) return;
    bool reset = device_.vk.vkResetFences(device_.device, 1, &fence) == VK_SUCCESS;
    if (!reset || !keep(mutex_, fences_, fence, kMaxKeptObjects)) device_.vk.vkDestroyFence(device_.device, fence, nullptr);
}

void TransientCache::give_descriptor_pool(VkDescriptorPool pool) {
    if (pool == VK_NULL_HANDLE) return;
    bool reset = device_.vk.vkResetDescriptorPool(device_.device, pool, 0) == VK_SUCCESS;
    if (!reset || !keep(mutex_, descriptor_pools_, pool, kMaxKeptObjects))
        device_.vk.vkDestroyDescriptorPool(device_.device, pool, nullptr);
}

}  // namespace scatter
