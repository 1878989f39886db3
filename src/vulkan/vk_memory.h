// Device memory: one VkBuffer with its own VkDeviceMemory, mapped when the CPU can see it, and
// the Buffer implementation behind scatter_buffer on a Vulkan context.
#pragma once

#include "core/backend.h"
#include "vulkan/vk_device.h"

namespace scatter {

enum class MemoryUse {
    Storage,  // long-lived scatter buffers: device-local, host-visible when the device allows
    Staging,  // per-operation memory the host fills and reads: host-visible, coherent, cached if possible
    Scratch,  // per-operation memory only shaders touch: device-local, never mapped
};

struct Allocation {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    char* mapped = nullptr;  // null when the memory is not host-visible
    uint64_t size = 0;
    VkMemoryPropertyFlags flags = 0;  // of the memory type
    bool transient = false;  // Staging or Scratch: comes from and goes back to the TransientCache
    MemoryUse use = MemoryUse::Storage;
};

// Staging and Scratch memory is rounded up to TransientCache::size_class and reused.
Status allocate(VulkanDevice& device, uint64_t size, MemoryUse use, Allocation* out);
void release(VulkanDevice& device, Allocation& allocation);
// Gives transient memory back to the device's cache; releases anything else.
void recycle(VulkanDevice& device, Allocation& allocation);

// An Allocation that releases itself.
class ScopedAllocation {
public:
    explicit ScopedAllocation(VulkanDevice& device) : device_(device) {}
    ScopedAllocation(const ScopedAllocation&) = delete;
    ScopedAllocation& operator=(const ScopedAllocation&) = delete;
    ~ScopedAllocation() { recycle(device_, allocation); }
    Allocation allocation;

private:
    VulkanDevice& device_;
};

// A scatter buffer: owned memory, or an application's VkBuffer range (interop, not owned).
class VulkanBuffer final : public Buffer {
public:
    static Status create(VulkanDevice& device, uint64_t size, std::unique_ptr<Buffer>* out);
    static std::unique_ptr<Buffer> wrap(VulkanDevice& device, VkBuffer buffer, uint64_t offset, uint64_t size);
    ~VulkanBuffer() override;

    uint64_t size() const override { return size_; }
    char* host_data() override { return allocation_.mapped; }
    Status write(uint64_t offset, const void* src, uint64_t size) override;
    Status read(uint64_t offset, void* dst, uint64_t size) override;
    Status copy_from(Buffer& src, uint64_t src_offset, uint64_t dst_offset, uint64_t size) override;

    VkBuffer vk_buffer() const { return allocation_.buffer; }
    uint64_t vk_offset() const { return offset_; }       // where byte 0 of this buffer is
    uint64_t vk_size() const { return vk_size_; }        // size of the whole VkBuffer

private:
    VulkanBuffer(VulkanDevice& device) : device_(device) {}
    VulkanDevice& device_;
    Allocation allocation_;
    uint64_t size_ = 0, offset_ = 0, vk_size_ = 0;
    bool owned_ = true;
};

// The Vulkan side of a scatter buffer handle (every buffer of a Vulkan context is one).
VulkanBuffer& vulkan_buffer(scatter_buffer_t* handle);

}  // namespace scatter
