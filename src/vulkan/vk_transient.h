// TransientCache: per-operation Vulkan objects kept for the next operation instead of being
// destroyed — transient memory (staging arenas, scratch), command slots (a pool with its one
// command buffer and a fence) and descriptor slots (a pool with its one set). Creating them costs
// more than a small scatter itself on real drivers (measured on an NVIDIA H100: ~2.5 ms per call
// without the cache, most of it vkAllocateMemory). After warm-up a call creates, allocates and
// frees nothing: slots come back whole (their command buffer and set stay allocated).
// Thread-safe: operations on several threads take and give back objects concurrently; an object
// is used by one operation at a time.
#pragma once

#include "core/status.h"
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
    // Frees every kept allocation (the last context of the device went). Thread-safe.
    void release_memory();
    // Bytes of memory kept now. Thread-safe.
    uint64_t kept_bytes() {
        std::lock_guard<std::mutex> lock(mutex_);
        return kept_bytes_;
    }

    // A command pool with one primary command buffer and an unsignaled fence: one operation's
    // submission. Pools are not shared between threads, hence a pool per slot.
    struct CommandSlot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        VkQueryPool timestamps = VK_NULL_HANDLE;  // created on a profiled operation's first use
    };
    // A kept slot (its command buffer reset, ready to begin), or a new one.
    Status take_command_slot(CommandSlot* out);
    // Keeps the slot (the command buffer is reset on the next take, the fence now) or destroys
    // it when the cache is full or `reusable` is false (its fence may still be pending).
    void give_command_slot(CommandSlot& slot, bool reusable);
    // Gives the slot a pool of `count` timestamp queries unless it has one.
    Status add_timestamps(CommandSlot& slot, uint32_t count);

    // A descriptor pool with one set of `layout`; the set is rewritten by each operation.
    struct DescriptorSlot {
        static constexpr uint32_t kMaxInfos = 24;
        VkDescriptorPool pool = VK_NULL_HANDLE;
        VkDescriptorSet set = VK_NULL_HANDLE;
        // What the set holds now (written_count 0: nothing yet): a call that would write the
        // same buffers and ranges again skips vkUpdateDescriptorSets.
        uint32_t written_count = 0;
        uint64_t written_generation = 0;  // VulkanDevice::buffer_generation when written
        VkDescriptorBufferInfo written[kMaxInfos];
    };
    Status take_descriptor_slot(VkDescriptorSetLayout layout, const VkDescriptorPoolCreateInfo& pool_info,
                                DescriptorSlot* out);
    void give_descriptor_slot(DescriptorSlot& slot);

private:
    struct KeptMemory {
        int use;
        uint64_t size;
        VkBuffer buffer;
        VkDeviceMemory memory;
        char* mapped;
        VkMemoryPropertyFlags flags;
        VkDeviceAddress address;
    };
    // A batch holds an arena, a scratch, a mirror (host inputs on a discrete GPU) and a
    // descriptor slot per operation until it is waited on: enough are kept for a warm batch of
    // a thousand small operations to allocate nothing — but never more than half the device's
    // maxMemoryAllocationCount (4096 on some drivers), which the application needs too.
    static constexpr size_t kMaxKeptMemory = 4096;
    static constexpr uint64_t kMaxKeptBytes = uint64_t(1) << 30;
    static constexpr size_t kMaxKeptObjects = 16;  // command slots: one per call in flight
    static constexpr size_t kMaxKeptDescriptorSlots = 1024;

    VulkanDevice& device_;
    std::mutex mutex_;
    std::vector<KeptMemory> memory_;
    uint64_t kept_bytes_ = 0;
    std::vector<CommandSlot> command_slots_;
    std::vector<DescriptorSlot> descriptor_slots_;
};

}  // namespace scatter
