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

// A grid of `groups` workgroups, folded into 2-D beyond 65535.
struct Grid {
    uint32_t x, y, z;
};

Grid grid_of(uint64_t groups) {
    const uint32_t x = uint32_t(std::min<uint64_t>(groups, SCATTER_MAX_GRID_X));
    return {x, uint32_t((groups + x - 1) / x), 1};
}

// Where the passes' workgroup counts come from: the recorder's own (direct dispatches), or the
// header's grids, which the GRIDS pass empties when the keys were in order (indirect).
struct PassRecorder {
    const VulkanDevice& device;
    const PipelineSet& pipelines;
    VkCommandBuffer cmd;
    uint32_t header_word;
    Grid grids[RADIX_SORT_GRIDS];
    bool indirect;
    VkBuffer buffer;      // holding the header (indirect)
    uint64_t grids_byte;  // of the header's first grid in `buffer`
    PassTimer* timer;

    // One pass, then a compute barrier (and the timer's mark).
    void pass(uint32_t mode, uint32_t digit_pass, uint32_t grid, const char* name) const {
        PushConstants push{mode | (digit_pass << RADIX_SORT_PASS_SHIFT), header_word};
        device.vk.vkCmdPushConstants(cmd, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
        if (indirect) device.vk.vkCmdDispatchIndirect(cmd, buffer, grids_byte + 3 * sizeof(uint32_t) * grid);
        else device.vk.vkCmdDispatch(cmd, grids[grid].x, grids[grid].y, grids[grid].z);
        compute_barrier(device, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        if (timer != nullptr)
            timer->mark(cmd, name, uint64_t(grids[grid].x) * grids[grid].y * RADIX_SORT_WORKGROUP_SIZE);
    }
};

}  // namespace

Status record_radix_sort(VulkanDevice& device, PipelineSet& pipelines, VkCommandBuffer cmd,
                         const RadixSortLayout& layout, const RadixSortBinding& binding, bool implicit_payload,
                         uint32_t order_word, PassTimer* timer) {
    if (layout.count == 0 || layout.passes == 0) return Status();  // already in slot 0
    const uint64_t window_words = binding.window_bytes / sizeof(uint32_t);
    const uint64_t windows = binding.one_window ? 1 : SCATTER_WINDOWS;
    if (layout.end > windows * window_words || layout.header + RADIX_SORT_H_WORDS > window_words)
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "a radix sort of %u keys needs %llu words of scratch, more than the binding's %llu",
                          layout.count, static_cast<unsigned long long>(layout.end),
                          static_cast<unsigned long long>(windows * window_words));
    const Grid grids[RADIX_SORT_GRIDS] = {grid_of(layout.tiles), grid_of(layout.scan_blocks), grid_of(1)};
    static_assert(RADIX_SORT_GRID_TILES == 0 && RADIX_SORT_GRID_SCAN_BLOCKS == 1 && RADIX_SORT_GRID_ONE == 2 &&
                      RADIX_SORT_GRIDS == 3,
                  "grids[] follows radix_sort_shared.h");
    const uint32_t header[RADIX_SORT_H_WORDS] = {
        layout.count, layout.tiles, layout.scan_blocks, log2_of(window_words), implicit_payload ? 1u : 0u,
        uint32_t(layout.histograms), uint32_t(layout.sums), uint32_t(layout.keys[0]), uint32_t(layout.keys[1]),
        uint32_t(layout.payloads[0]), uint32_t(layout.payloads[1]), order_word,
        grids[0].x, grids[0].y, grids[0].z, grids[1].x, grids[1].y, grids[1].z, grids[2].x, grids[2].y, grids[2].z};
    static_assert(RADIX_SORT_H_KEYS == 7 && RADIX_SORT_H_PAYLOADS == 9 && RADIX_SORT_H_ORDER_WORD == 11 &&
                      RADIX_SORT_H_GRIDS == 12 && RADIX_SORT_H_WORDS == 21,
                  "the header above follows radix_sort_shared.h");
    PipelineKey key;
    key.shader = Shader::RadixSort;
    key.four_bit_digits = layout.digit_bits == 4;
    key.ordered_writes = device.algorithms.ordered_sort_writes;
    key.one_window = binding.one_window;
    VkPipeline pipeline = VK_NULL_HANDLE;
    SCATTER_RETURN_IF_ERROR(pipelines.get(key, &pipeline));

    const uint64_t header_byte = binding.start + layout.header * sizeof(uint32_t);
    const bool indirect = order_word != RADIX_SORT_ALWAYS;
    device.vk.vkCmdUpdateBuffer(cmd, binding.buffer, header_byte, sizeof header, header);
    compute_barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    device.vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    device.vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1, &binding.set, 0,
                                      nullptr);
    const PassRecorder passes{device, pipelines, cmd, uint32_t(layout.header), {grids[0], grids[1], grids[2]},
                              indirect, binding.buffer, header_byte + RADIX_SORT_H_GRIDS * sizeof(uint32_t), timer};
    if (indirect) {
        // Keys in order skip the sort's 5 dispatches per digit (a workgroup per tile each, 16 k of
        // them for 32 M keys) rather than launching them to return at once.
        PushConstants push{RADIX_SORT_MODE_GRIDS, uint32_t(layout.header)};
        device.vk.vkCmdPushConstants(cmd, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
        device.vk.vkCmdDispatch(cmd, 1, 1, 1);
        compute_barrier(device, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
        if (timer != nullptr) timer->mark(cmd, "key_sort_grids", 1);
    }
    for (uint32_t pass = 0; pass < layout.passes; ++pass) {
        passes.pass(RADIX_SORT_MODE_HISTOGRAM, pass, RADIX_SORT_GRID_TILES, "key_sort_histogram");
        if (layout.scan_blocks > 1) {
            passes.pass(RADIX_SORT_MODE_SCAN_REDUCE, pass, RADIX_SORT_GRID_SCAN_BLOCKS, "key_sort_scan");
            passes.pass(RADIX_SORT_MODE_SCAN_SPINE, pass, RADIX_SORT_GRID_ONE, "key_sort_scan");
        }
        passes.pass(RADIX_SORT_MODE_SCAN_DOWNSWEEP, pass, RADIX_SORT_GRID_SCAN_BLOCKS, "key_sort_scan");
        passes.pass(RADIX_SORT_MODE_SCATTER, pass, RADIX_SORT_GRID_TILES, "key_sort_scatter");
    }
    compute_barrier(device, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    return Status();
}

}  // namespace scatter
