#include "vulkan/vk_memory.h"

#include <algorithm>
#include <cstring>

namespace scatter {
namespace {
// Below this, one read through an uncached mapping costs less than a copy's submit and wait.
constexpr uint64_t kSmallMappedRead = 256;
// Reads and writes through staging memory move at most this much per copy (the staging block is
// taken once per call; 4 GB in one would exceed some heaps of host memory, lavapipe's 2 GiB).
constexpr uint64_t kStagingPiece = 256ull << 20;

bool all_mapped(const std::vector<Allocation>& chunks) {
    for (const Allocation& chunk : chunks)
        if (chunk.mapped == nullptr) return false;
    return true;
}
}  // namespace

Status allocate(VulkanDevice& device, uint64_t size, MemoryUse use, Allocation* out) {
    Allocation a;
    a.use = use;
    a.transient = use != MemoryUse::Storage;
    // Never empty, and whole words: vkCmdFillBuffer (which zeroes a new buffer on a discrete GPU)
    // and shader stores work in 4-byte units, so a buffer of 4k + 3 bytes would keep 3 bytes of
    // whatever its memory held before (vulkan.chunks_staged caught it once memory was reused).
    a.size = a.transient ? TransientCache::size_class(size) : std::max<uint64_t>((size + 3) & ~uint64_t(3), 16);
    if (a.transient && device.transient->take_memory(int(use), a.size, &a)) {
        *out = a;
        return Status();
    }
    auto info = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    info.size = a.size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    // The parameter block, and the chunked APPLY_TARGETS' dispatch sizes among the status words;
    // in scratch, the radix sort's grids (vk_radix_sort.h).
    if (use == MemoryUse::Staging) info.usage |= VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    if (use == MemoryUse::Scratch) info.usage |= VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    // Every buffer may hold a tensor that the binding windows cannot, reached by its address.
    const bool addressed = (device.features & SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS) != 0;
    if (addressed) info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    SCATTER_VK_CHECK(device.vk.vkCreateBuffer(device.device, &info, nullptr, &a.buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements{};
    device.vk.vkGetBufferMemoryRequirements(device.device, a.buffer, &requirements);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = -1;
    if (use == MemoryUse::Staging) {
        // Cached: the host reads results back from it (uncached or write-combined memory reads
        // at a few MB/s). On a discrete GPU this is system memory; operations copy it to device
        // memory first (RecordedOperation's mirror).
        type = device.find_memory_type(requirements.memoryTypeBits, host, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    } else if (use == MemoryUse::Scratch) {
        type = device.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        if (type < 0) type = device.find_memory_type(requirements.memoryTypeBits, 0, 0);
    } else {
        if (device.algorithms.host_visible_buffers)
            type = device.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | host, 0);
        // Device-local only (or any memory at all): reads and writes go through staging copies.
        if (type < 0) type = device.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        if (type < 0) type = device.find_memory_type(requirements.memoryTypeBits, 0, 0);
    }
    if (type < 0) {
        device.vk.vkDestroyBuffer(device.device, a.buffer, nullptr);
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "the Vulkan device has no suitable memory type for %llu bytes",
                          static_cast<unsigned long long>(size));
    }
    // More than the type's whole heap is invalid usage (VUID-vkAllocateMemory-pAllocateInfo-01713),
    // not merely a failure: lavapipe's one heap is 2 GiB, and it allocated 2 GiB + 1 MiB anyway.
    const uint64_t heap = device.memory.memoryHeaps[device.memory.memoryTypes[type].heapIndex].size;
    if (requirements.size > heap) {
        device.vk.vkDestroyBuffer(device.device, a.buffer, nullptr);
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY,
                          "a Vulkan buffer of %llu bytes needs %llu bytes of memory, more than the %llu bytes of "
                          "this device's memory heap",
                          static_cast<unsigned long long>(size), static_cast<unsigned long long>(requirements.size),
                          static_cast<unsigned long long>(heap));
    }
    auto alloc = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    alloc.allocationSize = requirements.size;
    alloc.memoryTypeIndex = uint32_t(type);
    auto address_flags = vk_struct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    address_flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (addressed) alloc.pNext = &address_flags;
    VkResult r = device.vk.vkAllocateMemory(device.device, &alloc, nullptr, &a.memory);
    if (r == VK_SUCCESS) r = device.vk.vkBindBufferMemory(device.device, a.buffer, a.memory, 0);
    if (r == VK_SUCCESS && addressed) {
        auto address_info = vk_struct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
        address_info.buffer = a.buffer;
        a.address = device.vk.vkGetBufferDeviceAddress(device.device, &address_info);
    }
    a.flags = device.memory.memoryTypes[type].propertyFlags;
    bool visible = (a.flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
    // With host-visible buffers masked, storage memory is used as if the CPU could not map it.
    bool map = visible && use != MemoryUse::Scratch &&
               (use == MemoryUse::Staging || device.algorithms.host_visible_buffers);
    if (r == VK_SUCCESS && map) {
        void* p = nullptr;
        r = device.vk.vkMapMemory(device.device, a.memory, 0, VK_WHOLE_SIZE, 0, &p);
        a.mapped = static_cast<char*>(p);
    }
    if (r != VK_SUCCESS) {
        release(device, a);
        return vk_error(r, "allocating Vulkan memory");
    }
    *out = a;
    return Status();
}

void recycle(VulkanDevice& device, Allocation& a) {
    if (a.transient) device.transient->give_memory(int(a.use), a);
    else release(device, a);
}

void release(VulkanDevice& device, Allocation& a) {
    if (a.buffer != VK_NULL_HANDLE) {
        device.buffer_generation.fetch_add(1);  // before: a new buffer may get the handle at once
        device.vk.vkDestroyBuffer(device.device, a.buffer, nullptr);
    }
    if (a.memory != VK_NULL_HANDLE) device.vk.vkFreeMemory(device.device, a.memory, nullptr);  // unmaps too
    a = Allocation();
}

Status VulkanBuffer::create(VulkanDevice& device, uint64_t size, std::unique_ptr<Buffer>* out) {
    std::unique_ptr<VulkanBuffer> b(new VulkanBuffer(device));
    b->size_ = size;
    b->chunk_bytes_ = device.chunk_bytes;
    const uint64_t count = size <= device.chunk_bytes ? 1 : (size - 1) / device.chunk_bytes + 1;
    if (count > device.max_allocations / 2)  // a bound on the loop; the device would refuse anyway
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY,
                          "a Vulkan buffer of %llu bytes needs %llu allocations of %llu bytes, more than the device allows",
                          static_cast<unsigned long long>(size), static_cast<unsigned long long>(count),
                          static_cast<unsigned long long>(device.chunk_bytes));
    b->chunks_.reserve(size_t(count));
    for (uint64_t c = 0; c < count; ++c) {
        const uint64_t bytes = c + 1 < count ? device.chunk_bytes : size - c * device.chunk_bytes;
        b->chunks_.emplace_back();
        SCATTER_RETURN_IF_ERROR(allocate(device, bytes, MemoryUse::Storage, &b->chunks_.back()));
    }
    std::vector<const Allocation*> unmapped;
    for (const Allocation& chunk : b->chunks_) {
        if (chunk.mapped != nullptr) std::memset(chunk.mapped, 0, chunk.size);
        else unmapped.push_back(&chunk);
    }
    if (!unmapped.empty())
        SCATTER_RETURN_IF_ERROR(device.run_commands([&](VkCommandBuffer cmd) {
            for (const Allocation* chunk : unmapped)
                device.vk.vkCmdFillBuffer(cmd, chunk->buffer, 0, chunk->size, 0);
        }));
    *out = std::move(b);
    return Status();
}

std::unique_ptr<Buffer> VulkanBuffer::wrap(VulkanDevice& device, VkBuffer buffer, uint64_t offset, uint64_t size) {
    std::unique_ptr<VulkanBuffer> b(new VulkanBuffer(device));
    b->chunks_.emplace_back();
    b->chunks_[0].buffer = buffer;
    b->chunks_[0].size = offset + size;
    b->owned_ = false;
    b->offset_ = offset;
    b->size_ = size;
    return b;
}

VulkanBuffer::~VulkanBuffer() {
    if (owned_)
        for (Allocation& chunk : chunks_) release(device_, chunk);
    else
        device_.buffer_generation.fetch_add(1);  // the application may destroy its VkBuffer now
}

VulkanBuffer::Place VulkanBuffer::place(uint64_t at) const {
    const uint64_t c = at / chunk_bytes_;
    if (c >= chunks_.size()) return Place();
    const Allocation& chunk = chunks_[size_t(c)];
    const uint64_t offset = at - c * chunk_bytes_;
    if (offset >= chunk.size) return Place();
    return Place{chunk.buffer, offset, chunk.size - offset, chunk.address != 0 ? chunk.address + offset : 0};
}

template <class Piece>
Status VulkanBuffer::for_each_piece(uint64_t offset, uint64_t size, uint64_t max_piece, Piece piece) const {
    for (uint64_t done = 0; done < size;) {
        const uint64_t at = offset_ + offset + done;
        const size_t c = size_t(at / chunk_bytes_);
        const uint64_t in_chunk = at - c * chunk_bytes_;
        const uint64_t bytes = std::min({size - done, chunks_[c].size - in_chunk, max_piece});
        SCATTER_RETURN_IF_ERROR(piece(chunks_[c], in_chunk, done, bytes));
        done += bytes;
    }
    return Status();
}

Status VulkanBuffer::write(uint64_t offset, const void* src, uint64_t size) {
    const char* from = static_cast<const char*>(src);
    if (all_mapped(chunks_))
        return for_each_piece(offset, size, UINT64_MAX, [&](const Allocation& chunk, uint64_t at, uint64_t done, uint64_t bytes) {
            std::memcpy(chunk.mapped + at, from + done, bytes);
            return Status();
        });
    // One staging block, taken before anything is written, carries every piece in turn.
    ScopedAllocation staging(device_);
    SCATTER_RETURN_IF_ERROR(allocate(device_, std::min(size, kStagingPiece), MemoryUse::Staging, &staging.allocation));
    return for_each_piece(offset, size, kStagingPiece, [&](const Allocation& chunk, uint64_t at, uint64_t done, uint64_t bytes) {
        std::memcpy(staging.allocation.mapped, from + done, bytes);
        VkBufferCopy region{0, at, bytes};
        return device_.run_commands([&](VkCommandBuffer cmd) {
            device_.vk.vkCmdCopyBuffer(cmd, staging.allocation.buffer, chunk.buffer, 1, &region);
        });
    });
}

Status VulkanBuffer::read(uint64_t offset, void* dst, uint64_t size) {
    char* to = static_cast<char*>(dst);
    // Uncached device memory mapped over the bus (ReBAR) reads at a few MB/s (7 MB/s measured
    // on an H100): read it back through a copy into cached staging memory instead.
    const VkMemoryPropertyFlags flags = chunks_[0].flags;
    const bool uncached_device_memory =
        (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (all_mapped(chunks_) && !(uncached_device_memory && size > kSmallMappedRead))
        return for_each_piece(offset, size, UINT64_MAX, [&](const Allocation& chunk, uint64_t at, uint64_t done, uint64_t bytes) {
            std::memcpy(to + done, chunk.mapped + at, bytes);
            return Status();
        });
    ScopedAllocation staging(device_);
    SCATTER_RETURN_IF_ERROR(allocate(device_, std::min(size, kStagingPiece), MemoryUse::Staging, &staging.allocation));
    return for_each_piece(offset, size, kStagingPiece, [&](const Allocation& chunk, uint64_t at, uint64_t done, uint64_t bytes) {
        VkBufferCopy region{at, 0, bytes};
        SCATTER_RETURN_IF_ERROR(device_.run_commands([&](VkCommandBuffer cmd) {
            device_.vk.vkCmdCopyBuffer(cmd, chunk.buffer, staging.allocation.buffer, 1, &region);
            auto barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            device_.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                                            &barrier, 0, nullptr, 0, nullptr);
        }));
        std::memcpy(to + done, staging.allocation.mapped, bytes);
        return Status();
    });
}

Status VulkanBuffer::copy_from(Buffer& src, uint64_t src_offset, uint64_t dst_offset, uint64_t size) {
    VulkanBuffer& from = static_cast<VulkanBuffer&>(src);
    if (!from.owned_ && !owned_ && from.chunks_[0].buffer == chunks_[0].buffer &&
        from.offset_ + src_offset < offset_ + dst_offset + size &&
        offset_ + dst_offset < from.offset_ + src_offset + size)  // two wrappers of one application VkBuffer
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "src and dst are overlapping ranges of one VkBuffer");
    // One copy per piece that lies in one chunk of each buffer.
    struct Copy {
        VkBuffer from, to;
        VkBufferCopy region;
    };
    std::vector<Copy> copies;
    SCATTER_RETURN_IF_ERROR(for_each_piece(dst_offset, size, UINT64_MAX,
        [&](const Allocation& to, uint64_t to_at, uint64_t done, uint64_t bytes) {
            return from.for_each_piece(src_offset + done, bytes, UINT64_MAX,
                [&](const Allocation& source, uint64_t from_at, uint64_t part_done, uint64_t part) {
                    copies.push_back(Copy{source.buffer, to.buffer, VkBufferCopy{from_at, to_at + part_done, part}});
                    return Status();
                });
        }));
    return device_.run_commands([&](VkCommandBuffer cmd) {
        for (const Copy& c : copies) device_.vk.vkCmdCopyBuffer(cmd, c.from, c.to, 1, &c.region);
        auto barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
        device_.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                                        0, nullptr, 0, nullptr);
    });
}

VulkanBuffer& vulkan_buffer(scatter_buffer_t* handle) { return static_cast<VulkanBuffer&>(*handle->impl); }

}  // namespace scatter
