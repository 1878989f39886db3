// Device memory: one VkBuffer with its own VkDeviceMemory, mapped when the CPU can see it, and
// the Buffer implementation behind scatter_buffer on a Vulkan context (one or more of them).
#pragma once

#include "core/backend.h"
#include "vulkan/vk_device.h"

#include <vector>

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
    VkDeviceAddress address = 0;      // the buffer's device address; 0 without bufferDeviceAddress
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
// Owned memory larger than device.chunk_bytes (the device's largest allocation, buffer and heap,
// a multiple of the window) is several VkBuffers, each with its own memory: byte p lies in chunk
// p / chunk_bytes. A tensor's binding windows each lie in one chunk (vk_operation.cpp), so the
// shaders never see the chunks.
class VulkanBuffer final : public Buffer {
public:
    static Status create(VulkanDevice& device, uint64_t size, std::unique_ptr<Buffer>* out);
    static std::unique_ptr<Buffer> wrap(VulkanDevice& device, VkBuffer buffer, uint64_t offset, uint64_t size);
    ~VulkanBuffer() override;

    uint64_t size() const override { return size_; }
    // The mapping of a buffer of one mapped chunk; null otherwise (reads and writes then copy).
    char* host_data() override { return chunks_.size() == 1 ? chunks_[0].mapped : nullptr; }
    Status write(uint64_t offset, const void* src, uint64_t size) override;
    Status read(uint64_t offset, void* dst, uint64_t size) override;
    Status copy_from(Buffer& src, uint64_t src_offset, uint64_t dst_offset, uint64_t size) override;

    // Descriptor offsets count from vk_offset(): byte 0 of this buffer is at vk_offset() (the
    // application's offset for a wrapped buffer, 0 for owned memory).
    uint64_t vk_offset() const { return offset_; }
    // Where `at` (counted like vk_offset()) lies: its VkBuffer, the offset there, and the bytes of
    // that VkBuffer from there on; available == 0 past the end.
    struct Place {
        VkBuffer buffer = VK_NULL_HANDLE;
        uint64_t offset = 0, available = 0;
        VkDeviceAddress address = 0;  // of byte `offset` of `buffer`; 0 when unknown (an
                                      // application's buffer, or no bufferDeviceAddress)
    };
    Place place(uint64_t at) const;
    // Whether bytes [begin, end) (counted like vk_offset()) lie in more than one VkBuffer.
    bool crosses_chunks(uint64_t begin, uint64_t end) const {
        return end > begin && begin / chunk_bytes_ != (end - 1) / chunk_bytes_;
    }

private:
    VulkanBuffer(VulkanDevice& device) : device_(device) {}
    // Calls piece(chunk, offset in the chunk's VkBuffer, bytes done before, bytes) for the pieces
    // of bytes [offset, offset + size) of this buffer, each within one chunk and at most
    // max_piece bytes; stops at the first error.
    template <class Piece>
    Status for_each_piece(uint64_t offset, uint64_t size, uint64_t max_piece, Piece piece) const;

    VulkanDevice& device_;
    std::vector<Allocation> chunks_;  // a wrapped buffer: one, with the application's VkBuffer
    uint64_t chunk_bytes_ = UINT64_MAX;  // bytes per chunk but the last
    uint64_t size_ = 0, offset_ = 0;
    bool owned_ = true;
};

// The Vulkan side of a scatter buffer handle (every buffer of a Vulkan context is one).
VulkanBuffer& vulkan_buffer(scatter_buffer_t* handle);

}  // namespace scatter
