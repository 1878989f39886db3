// A stable LSD radix sort of (32-bit key, 32-bit payload) pairs on the device: the target
// path's key sort (issue 13). Keys compare as unsigned integers; pairs with equal keys keep
// their input order.
//
// Limits: 32-bit keys (the caller turns int64 indices into 32-bit row keys), at most
// 2^32 - 1 pairs, keys below 2^bits (higher bits are ignored). Every word the sort touches lies
// in the scratch binding (SCATTER_BINDING_SCRATCH, its SCATTER_WINDOWS windows), the header in
// the first window.
//
// Passes (shaders/radix_sort.comp): per digit of RADIX_SORT_DIGIT_BITS (or 4) bits,
// ceil(bits / digit bits) in all, HISTOGRAM, then SCAN_REDUCE and SCAN_SPINE (only when the
// histograms exceed one scan block), SCAN_DOWNSWEEP and SCATTER, each a dispatch followed by a
// compute barrier; with an order word, a GRIDS pass first. Keys and payloads ping-pong between
// two slots; the result is in slot passes % 2 (radix_sort_result_slot).
//
// Usage: radix_sort_layout() (vk_radix_sort_layout.h) places the sort in scratch; the caller
// writes keys (and payloads, unless implicit) to slot 0 and makes them visible to compute
// shaders; record_radix_sort() records everything else into the command buffer, ending with a
// barrier that makes the result visible to compute shaders and transfers (nothing at all when
// count or bits is 0: the pairs are in slot 0 already).
#pragma once

#include "vulkan/vk_device.h"
#include "vulkan/vk_pipelines.h"
#include "vulkan/vk_profile.h"
#include "vulkan/vk_radix_sort_layout.h"

#include "radix_sort_shared.h"

#include <cstdint>

namespace scatter {

// The scratch binding the sort runs over.
struct RadixSortBinding {
    VkDescriptorSet set = VK_NULL_HANDLE;  // of pipelines.set_layout(); its scratch binding is
                                           // windows of window_bytes over `buffer` from `start`
    VkBuffer buffer = VK_NULL_HANDLE;      // (the header is written with vkCmdUpdateBuffer)
    uint64_t start = 0;                    // byte of `buffer` where window 0 begins
    uint64_t window_bytes = 0;             // a power of two
    bool one_window = false;               // every word of the sort lies in window 0
};

// Records the sort described by `layout` over `binding` into `cmd`. implicit_payload: the
// payload of each key is its position (slot 0's payloads are neither read nor needed).
// order_word: a scratch word an earlier pass sets to 0 when it found the keys already in order;
// the passes are then dispatched indirectly from grids in the sort's header, which one
// invocation empties when the word is 0 (no workgroup of the sort runs), and the pairs stay in
// slot 0 (with implicit payloads, slot 0's payloads are not written: the caller takes
// positions). The binding's buffer then needs VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT (scratch
// memory has it). RADIX_SORT_ALWAYS: always sort, direct dispatches. timer: marks the passes
// "key_sort_grids", "key_sort_histogram", "key_sort_scan" (reduce, spine, downsweep) and
// "key_sort_scatter" (the profile sums each kind over the digits).
// Fails with UNSUPPORTED when the layout does not fit the binding's windows.
Status record_radix_sort(VulkanDevice& device, PipelineSet& pipelines, VkCommandBuffer cmd,
                         const RadixSortLayout& layout, const RadixSortBinding& binding, bool implicit_payload,
                         uint32_t order_word = RADIX_SORT_ALWAYS, PassTimer* timer = nullptr);

}  // namespace scatter
