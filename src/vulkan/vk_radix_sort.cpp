#include "vulkan/vk_radix_sort.h"

#include "radix_sort_shared.h"
#include "scatter_shared.h"

#include <algorithm>

namespace scatter {
namespace {

uint32_t log2_of(uint64_t power_of_two) {
    uint32_t shift = 0;
    while ((uint64_t(1) << shift) < power_of_two) ++shift;
    return shift;
}

void compute_barrier(const VulkanDevice& device, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                     VkAccessFlags src_access, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
    auto barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = src_access;
    barrier.dstAccessMask = dst_access;
    device.vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// One pass of `groups` workgroups (folded into a 2-D grid beyond 65535), then a compute barrier.
void dispatch_pass(const VulkanDevice& device, const PipelineSet& pipelines, VkCommandBuffer cmd, uint32_t mode,
                   uint32_t pass, uint32_t header_word, uint64_t groups) {
    PushConstants push{mode | (pass << RADIX_SORT_PASS_SHIFT), header_word};
    device.vk.vkCmdPushConstants(cmd, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    uint32_t x = uint32_t(std::min<uint64_t>(groups, SCATTER_MAX_GRID_X));
    uint32_t y = uint32_t((groups + x - 1) / x);
    device.vk.vkCmdDispatch(cmd, x, y, 1);
    compute_barrier(device, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

}  // namespace

Status record_radix_sort(VulkanDevice& device, PipelineSet& pipelines, VkCommandBuffer cmd,
                         const RadixSortLayout& layout, const RadixSortBinding& binding, bool implicit_payload,
                         uint32_t order_word) {
    if (layout.count == 0 || layout.passes == 0) return Status();  // already in slot 0
    const uint64_t window_words = binding.window_bytes / sizeof(uint32_t);
    const uint64_t windows = binding.one_window ? 1 : SCATTER_WINDOWS;
    if (layout.end > windows * window_words || layout.header + RADIX_SORT_H_WORDS > window_words)
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "a radix sort of %u keys needs %llu words of scratch, more than the binding's %llu",
                          layout.count, static_cast<unsigned long long>(layout.end),
                          static_cast<unsigned long long>(windows * window_words));
    const uint32_t header[RADIX_SORT_H_WORDS] = {
        layout.count, layout.tiles, layout.scan_blocks, log2_of(window_words), implicit_payload ? 1u : 0u,
        uint32_t(layout.histograms), uint32_t(layout.sums), uint32_t(layout.keys[0]), uint32_t(layout.keys[1]),
        uint32_t(layout.payloads[0]), uint32_t(layout.payloads[1]), order_word};
    static_assert(RADIX_SORT_H_KEYS == 7 && RADIX_SORT_H_PAYLOADS == 9 && RADIX_SORT_H_ORDER_WORD == 11 &&
                      RADIX_SORT_H_WORDS == 12,
                  "the header above follows radix_sort_shared.h");
    PipelineKey key;
    key.shader = Shader::RadixSort;
    key.four_bit_digits = layout.digit_bits == 4;
    key.ordered_writes = device.algorithms.ordered_sort_writes;
    key.one_window = binding.one_window;
    VkPipeline pipeline = VK_NULL_HANDLE;
    SCATTER_RETURN_IF_ERROR(pipelines.get(key, &pipeline));

    device.vk.vkCmdUpdateBuffer(cmd, binding.buffer, binding.start + layout.header * sizeof(uint32_t), sizeof header,
                                header);
    compute_barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    device.vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    device.vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1, &binding.set, 0,
                                      nullptr);
    const uint32_t header_word = uint32_t(layout.header);
    for (uint32_t pass = 0; pass < layout.passes; ++pass) {
        dispatch_pass(device, pipelines, cmd, RADIX_SORT_MODE_HISTOGRAM, pass, header_word, layout.tiles);
        if (layout.scan_blocks > 1) {
            dispatch_pass(device, pipelines, cmd, RADIX_SORT_MODE_SCAN_REDUCE, pass, header_word, layout.scan_blocks);
            dispatch_pass(device, pipelines, cmd, RADIX_SORT_MODE_SCAN_SPINE, pass, header_word, 1);
        }
        dispatch_pass(device, pipelines, cmd, RADIX_SORT_MODE_SCAN_DOWNSWEEP, pass, header_word, layout.scan_blocks);
        dispatch_pass(device, pipelines, cmd, RADIX_SORT_MODE_SCATTER, pass, header_word, layout.tiles);
    }
    compute_barrier(device, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    return Status();
}

}  // namespace scatter
