// TransientCache: per-operation Vulkan objects kept for the next operation instead of being
// destroyed — transient memory (staging arenas, scratch), command pools, fences and descriptor
// pools. Creating them costs more than a small scatter itself on real drivers (measured on an
// NVIDIA H100: ~2.5 ms per call without the cache, most of it vkAllocateMemory).
// Thread-safe: operations on several threads take and give back objects concurrently; an object
// is used by one operation at a time.
#pragma once

#include "vulkan/vk_functions.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace scatter {

class VulkanDevice;
struct Allocation;

class TransientCache {
public:
    explicit TransientCache(VulkanDevice& device) : device_(device) {}
    ~TransientCache();  // destroys everything kept; the device must be idle
    TransientCache(const TransientCache&) = delete;
    TransientCache& operator=(const TransientCache&) = delete;

    // The size class transient memory of `bytes` is allocated with: a power of two or 1.5 times
    // one (at most a third more than asked), at least 64 KiB.
    static uint64_t size_class(uint64_t bytes);

    // A kept allocation of exactly `size` bytes and `use` (see MemoryUse), if any.
    bool take_memory(int use, uint64_t size, Allocation* out);
    // Keeps `a` for later, or frees it when the cache is full.
    void give_memory(int use, Allocation& a);

    // Each returns VK_NULL_HANDLE when none is kept; the caller then creates one. give_* resets
    // the object (pool reset, fence unsignaled) and keeps it, or destroys it when full.
    VkCommandPool take_command_pool();
    void give_command_pool(VkCommandPool pool);
    VkFence take_fence();
    void give_fence(VkFence fence);
    VkDescriptorPool take_descriptor_pool();
    void give_descriptor_pool(VkDescriptorPool pool);

private:
    struct KeptMemory {
        int use;
        uint64_t size;
        VkBuffer buffer;
        VkDeviceMemory memory;
        char* mapped;
        VkMemoryPropertyFlags flags;
    };
    static constexpr size_t kMaxKeptMemory = 8;
    static constexpr uint64_t kMaxKeptBytes = uint64_t(1) << 30;
    static constexpr size_t kMaxKeptObjects = 16;

    VulkanDevice& device_;
    std::mutex mutex_;
    std::vector<KeptMemory> memory_;
    uint64_t kept_bytes_ = 0;
    std::vector<VkCommandPool> command_pools_;
    std::vector<VkFence> fences_;
    std::vector<VkDescriptorPool> descriptor_pools_;
};

}  // namespace scatter
