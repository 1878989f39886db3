// The Vulkan radix sort (src/vulkan/vk_radix_sort.h, shaders/radix_sort.comp), the target
// path's key sort: every sort is checked against std::stable_sort of
// (key, payload) by key, payloads included, so a sort that loses input order among equal keys
// fails. Sizes hit the remainders of subgroups, workgroups, tiles and scan blocks.
#include "vulkan_env.h"

#include "core/context.h"
#include "vulkan/vk_memory.h"
#include "vulkan/vk_radix_sort.h"
#include "vulkan/vulkan_backend.h"

#include "radix_sort_shared.h"
#include "scatter_shared.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace vulkan_test {
namespace {

using scatter::RadixSortLayout;

struct Pairs {
    std::vector<uint32_t> keys;
    std::vector<uint32_t> payloads;
};

// The oracle: a stable sort by key.
Pairs stable_sorted(const Pairs& in) {
    std::vector<uint32_t> order(in.keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return in.keys[a] < in.keys[b]; });
    Pairs out;
    for (uint32_t i : order) {
        out.keys.push_back(in.keys[i]);
        out.payloads.push_back(in.payloads[i]);
    }
    return out;
}

// Payloads that are neither the position nor monotone in it, so a swap of equal keys shows.
std::vector<uint32_t> scrambled_payloads(size_t count) {
    std::vector<uint32_t> payloads(count);
    for (size_t i = 0; i < count; ++i) payloads[i] = uint32_t(i) * 2654435761u ^ 0x5bd1e995u;
    return payloads;
}

std::vector<uint32_t> random_keys(size_t count, uint32_t bits, uint64_t seed) {
    std::mt19937 rng{uint32_t(seed)};
    std::vector<uint32_t> keys(count);
    const uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
    for (uint32_t& key : keys) key = rng() & mask;
    return keys;
}

class RadixSort : public VulkanTest {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        backend_ = scatter::vulkan_backend_of(vulkan);
        ASSERT_NE(backend_, nullptr);
        scatter::VulkanDevice& device = backend_->device();
        VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 + 5 * SCATTER_WINDOWS}};
        auto pool_info = scatter::vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
        pool_info.maxSets = 1;
        pool_info.poolSizeCount = 2;
        pool_info.pPoolSizes = sizes;
        ASSERT_EQ(device.vk.vkCreateDescriptorPool(device.device, &pool_info, nullptr, &pool_), VK_SUCCESS);
        auto set_info = scatter::vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
        VkDescriptorSetLayout set_layout = backend_->pipelines().set_layout();
        set_info.descriptorPool = pool_;
        set_info.descriptorSetCount = 1;
        set_info.pSetLayouts = &set_layout;
        ASSERT_EQ(device.vk.vkAllocateDescriptorSets(device.device, &set_info, &set_), VK_SUCCESS);
    }

    void TearDown() override {
        if (pool_ != VK_NULL_HANDLE) {
            scatter::VulkanDevice& device = backend_->device();
            device.vk.vkDestroyDescriptorPool(device.device, pool_, nullptr);
        }
        VulkanTest::TearDown();
    }

    // Points the set's scratch binding at `buffer`'s windows of window_bytes (0: the device's).
    scatter::RadixSortBinding bind_scratch(const scatter::Allocation& scratch, const RadixSortLayout& layout,
                                           uint64_t window_bytes) {
        scatter::VulkanDevice& device = backend_->device();
        if (window_bytes == 0) window_bytes = device.window_bytes;
        VkDescriptorBufferInfo infos[SCATTER_WINDOWS];
        for (uint64_t w = 0; w < SCATTER_WINDOWS; ++w) {
            uint64_t offset = w * window_bytes;
            infos[w] = offset < scratch.size
                           ? VkDescriptorBufferInfo{scratch.buffer, offset, std::min(window_bytes, scratch.size - offset)}
                           : VkDescriptorBufferInfo{scratch.buffer, 0, std::min(window_bytes, scratch.size)};
        }
        auto write = scatter::vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        write.dstSet = set_;
        write.dstBinding = SCATTER_BINDING_SCRATCH;
        write.descriptorCount = SCATTER_WINDOWS;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = infos;
        device.vk.vkUpdateDescriptorSets(device.device, 1, &write, 0, nullptr);
        scatter::RadixSortBinding binding;
        binding.set = set_;
        binding.buffer = scratch.buffer;
        binding.start = 0;
        binding.window_bytes = window_bytes;
        binding.one_window = layout.end * sizeof(uint32_t) <= window_bytes;
        return binding;
    }

    // Sorts `in` on the device (payloads implicit: each key's position); `seconds` gets the
    // submit-to-finish time of the sort alone. window_bytes: the scratch binding's windows (0:
    // the device's). order: the value of an order word in scratch past the sort (0: the keys
    // are in order, so the sort is skipped and slot 0 read back; -1: no order word).
    Pairs device_sort(const Pairs& in, uint32_t bits, uint32_t digit_bits, bool implicit_payload = false,
                      double* seconds = nullptr, uint64_t window_bytes = 0, int64_t order = -1) {
        scatter::VulkanDevice& device = backend_->device();
        const uint32_t count = uint32_t(in.keys.size());
        const RadixSortLayout layout = scatter::radix_sort_layout(count, bits, 0, digit_bits);
        EXPECT_EQ(scatter::radix_sort_scratch_bytes(count, bits, digit_bits), layout.end * sizeof(uint32_t));
        scatter::ScopedAllocation scratch(device), staging(device);
        const uint64_t bytes = uint64_t(count) * sizeof(uint32_t);
        const uint64_t order_word = (layout.end + 63) / 64 * 64;
        EXPECT_TRUE(scatter::allocate(device, (order_word + 64) * 4, scatter::MemoryUse::Scratch, &scratch.allocation)
                        .ok());
        EXPECT_TRUE(scatter::allocate(device, std::max<uint64_t>(2 * bytes, 256), scatter::MemoryUse::Staging,
                                      &staging.allocation).ok());
        if (scratch.allocation.buffer == VK_NULL_HANDLE || staging.allocation.mapped == nullptr) return {};
        const scatter::RadixSortBinding binding = bind_scratch(scratch.allocation, layout, window_bytes);
        if (count > 0) {
            std::memcpy(staging.allocation.mapped, in.keys.data(), bytes);
            std::memcpy(staging.allocation.mapped + bytes, in.payloads.data(), bytes);
        }
        auto& vk = device.vk;
        EXPECT_TRUE(device.run_commands([&](VkCommandBuffer cmd) {
                               if (count == 0) return;
                               VkBufferCopy copies[2] = {{0, layout.keys[0] * 4, bytes},
                                                         {bytes, layout.payloads[0] * 4, bytes}};
                               vk.vkCmdCopyBuffer(cmd, staging.allocation.buffer, scratch.allocation.buffer,
                                                  implicit_payload ? 1 : 2, copies);
                               if (order >= 0)
                                   vk.vkCmdFillBuffer(cmd, scratch.allocation.buffer, order_word * 4, 4,
                                                      uint32_t(order));
                               auto b = scatter::vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
                               b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
                               b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
                               vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, nullptr, 0,
                                                       nullptr);
                           }).ok());
        scatter::Status recorded;
        const auto start = std::chrono::steady_clock::now();
        EXPECT_TRUE(device.run_commands([&](VkCommandBuffer cmd) {
                               recorded = scatter::record_radix_sort(
                                   device, backend_->pipelines(), cmd, layout, binding, implicit_payload,
                                   order >= 0 ? uint32_t(order_word) : RADIX_SORT_ALWAYS);
                           }).ok());
        if (seconds != nullptr) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_TRUE(recorded.ok()) << recorded.message();
        const uint32_t slot = order == 0 ? 0 : scatter::radix_sort_result_slot(layout);
        EXPECT_TRUE(device.run_commands([&](VkCommandBuffer cmd) {
                               if (count == 0) return;
                               VkBufferCopy copies[2] = {{layout.keys[slot] * 4, 0, bytes},
                                                         {layout.payloads[slot] * 4, bytes, bytes}};
                               vk.vkCmdCopyBuffer(cmd, scratch.allocation.buffer, staging.allocation.buffer, 2, copies);
                               auto b = scatter::vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
                               b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
                               b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
                               vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                                                       0, 1, &b, 0, nullptr, 0, nullptr);
                           }).ok());
        Pairs out;
        out.keys.resize(count);
        out.payloads.resize(count);
        if (count > 0) {
            std::memcpy(out.keys.data(), staging.allocation.mapped, bytes);
            std::memcpy(out.payloads.data(), staging.allocation.mapped + bytes, bytes);
        }
        return out;
    }

    // Sorts `keys` (with scrambled payloads) on the device and compares with the oracle.
    void check(const std::vector<uint32_t>& keys, uint32_t bits, uint32_t digit_bits = 8) {
        Pairs in{keys, scrambled_payloads(keys.size())};
        Pairs expected = stable_sorted(in);
        Pairs got = device_sort(in, bits, digit_bits);
        ASSERT_EQ(got.keys.size(), expected.keys.size());
        size_t first_key = 0, first_payload = 0;
        while (first_key < keys.size() && got.keys[first_key] == expected.keys[first_key]) ++first_key;
        while (first_payload < keys.size() && got.payloads[first_payload] == expected.payloads[first_payload])
            ++first_payload;
        EXPECT_EQ(first_key, keys.size()) << "n = " << keys.size() << ", bits = " << bits << ", digit bits "
                                          << digit_bits << ": first wrong key at " << first_key;
        EXPECT_EQ(first_payload, keys.size()) << "n = " << keys.size() << ", bits = " << bits << ", digit bits "
                                              << digit_bits << ": first wrong payload at " << first_payload;
    }

    scatter::VulkanBackend* backend_ = nullptr;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

constexpr uint32_t kTile = RADIX_SORT_TILE;
constexpr uint32_t kWorkgroup = RADIX_SORT_WORKGROUP_SIZE;
// A scan block holds the histograms of this many tiles (8-bit digits); one more tile takes the
// REDUCE/SPINE passes.
constexpr uint32_t kTilesPerScanBlock = RADIX_SORT_SCAN_BLOCK / 256;

std::vector<uint32_t> edge_sizes() {
    return {0, 1, 2, 7, 9, 15, 17, 31, 33, 63, 65,  // subgroups of 8 (lavapipe) to 64, +-1
            kWorkgroup - 1, kWorkgroup, kWorkgroup + 1, kTile - 1, kTile, kTile + 1, 3 * kTile - 1, 3 * kTile + 1,
            kTilesPerScanBlock * kTile, kTilesPerScanBlock * kTile + 1, 5 * kTilesPerScanBlock * kTile + 7};
}

TEST_F(RadixSort, EdgeSizesRandomKeys) {
    for (uint32_t digit_bits : {8u, 4u})
        for (uint32_t n : edge_sizes())
            for (uint32_t bits : {32u, 17u}) check(random_keys(n, bits, n * 33 + bits), bits, digit_bits);
}

TEST_F(RadixSort, KeyWidths) {
    for (uint32_t digit_bits : {8u, 4u})
        for (uint32_t bits : {1u, 7u, 8u, 9u, 17u, 32u}) check(random_keys(3 * kTile + 5, bits, bits), bits, digit_bits);
}

TEST_F(RadixSort, AllEqualKeys) {
    for (uint32_t bits : {1u, 7u, 32u}) {
        check(std::vector<uint32_t>(5 * kTile + 3, 0u), bits);
        check(std::vector<uint32_t>(5 * kTile + 3, bits >= 32 ? 0xffffffffu : (1u << bits) - 1u), bits);
    }
}

TEST_F(RadixSort, SortedAndReverseSorted) {
    const uint32_t n = 20 * kTile + 11;
    for (uint32_t bits : {17u, 32u}) {
        std::vector<uint32_t> keys = random_keys(n, bits, bits + 1000);
        std::sort(keys.begin(), keys.end());
        check(keys, bits);
        std::reverse(keys.begin(), keys.end());
        check(keys, bits);
    }
    std::vector<uint32_t> ramp(n);
    std::iota(ramp.begin(), ramp.end(), 0u);
    check(ramp, 32);
    std::reverse(ramp.begin(), ramp.end());
    check(ramp, 32);
}

TEST_F(RadixSort, FewDistinctKeys) {
    const uint32_t n = 40 * kTile + 5;
    const uint32_t values[5] = {0u, 7u, 0x10000u, 0x80000000u, 0xffffffffu};
    std::mt19937 rng(13);
    std::vector<uint32_t> keys(n);
    for (uint32_t& key : keys) key = values[rng() % 5];
    check(keys, 32);
    check(keys, 32, 4);
    for (uint32_t& key : keys) key = rng() % 3;
    check(keys, 2);
}

TEST_F(RadixSort, ImplicitPayloadIsThePosition) {
    const uint32_t n = 7 * kTile + 9;
    Pairs in{random_keys(n, 9, 77), std::vector<uint32_t>(n)};
    std::iota(in.payloads.begin(), in.payloads.end(), 0u);
    Pairs expected = stable_sorted(in);
    Pairs got = device_sort(in, 9, 8, true);
    EXPECT_TRUE(got.keys == expected.keys);
    EXPECT_TRUE(got.payloads == expected.payloads);
}

// Scratch windows of 64 KiB: the sort's arrays straddle all four windows (not one_window).
TEST_F(RadixSort, AcrossFourWindows) {
    const uint32_t n = 7 * kTile + 3;
    const uint64_t window_bytes = 1u << 16;
    const RadixSortLayout layout = scatter::radix_sort_layout(n, 32, 0);
    ASSERT_GT(layout.end * 4, 3 * window_bytes);
    ASSERT_LE(layout.end * 4, 4 * window_bytes);
    Pairs in{random_keys(n, 32, 4), scrambled_payloads(n)};
    Pairs expected = stable_sorted(in);
    Pairs got = device_sort(in, 32, 8, false, nullptr, window_bytes);
    EXPECT_TRUE(got.keys == expected.keys);
    EXPECT_TRUE(got.payloads == expected.payloads);
}

// With an order word (the key sort's): 0 dispatches the passes with no workgroups, so slot 0
// keeps the input, whatever its order; anything else sorts, through the same indirect grids,
// 2-D ones included (beyond 65535 tiles is too large for lavapipe's memory; folded grids of
// scan blocks are not reached either: the sizes here cover remainders and the spine).
TEST_F(RadixSort, OrderWordSkipsOrSorts) {
    for (uint32_t n : {1u, kTile - 1, 3 * kTile + 1, 5 * kTilesPerScanBlock * kTile + 7}) {
        Pairs in{random_keys(n, 17, n), scrambled_payloads(n)};
        Pairs skipped = device_sort(in, 17, 8, false, nullptr, 0, 0);
        EXPECT_TRUE(skipped.keys == in.keys && skipped.payloads == in.payloads) << "n = " << n;
        Pairs expected = stable_sorted(in);
        for (int64_t order : {1, 7}) {
            Pairs sorted = device_sort(in, 17, 8, false, nullptr, 0, order);
            EXPECT_TRUE(sorted.keys == expected.keys && sorted.payloads == expected.payloads)
                << "n = " << n << ", order word " << order;
        }
        Pairs implicit{in.keys, std::vector<uint32_t>(n)};
        std::iota(implicit.payloads.begin(), implicit.payloads.end(), 0u);
        Pairs sorted = device_sort(implicit, 17, 8, true, nullptr, 0, 1);
        Pairs implicit_expected = stable_sorted(implicit);
        EXPECT_TRUE(sorted.keys == implicit_expected.keys && sorted.payloads == implicit_expected.payloads)
            << "n = " << n << ", implicit payloads";
    }
}

TEST_F(RadixSort, MillionKeys) {
    check(random_keys((1u << 20) + 3, 32, 20), 32);
}

// The lavapipe time docs/vulkan.md quotes (printed, never asserted): 2^20 keys of 20 bits.
TEST_F(RadixSort, TimeMillionKeysOf20Bits) {
    const uint32_t n = 1u << 20;
    for (uint32_t digit_bits : {8u, 4u}) {
        Pairs in{random_keys(n, 20, 99), scrambled_payloads(n)};
        double best = 1e9;
        Pairs got;
        for (int repeat = 0; repeat < 3; ++repeat) {
            double seconds = 0;
            got = device_sort(in, 20, digit_bits, false, &seconds);
            best = std::min(best, seconds);
        }
        Pairs expected = stable_sorted(in);
        EXPECT_TRUE(got.keys == expected.keys && got.payloads == expected.payloads);
        std::printf("radix sort, 2^20 keys of 20 bits, %u-bit digits (%u passes): %.1f ms\n", digit_bits,
                    scatter::radix_sort_layout(n, 20, 0, digit_bits).passes, best * 1e3);
    }
}

TEST_F(RadixSort, LayoutAndLimits) {
    // Pure arithmetic: passes, tiles, scan blocks, and 2^32 - 1 keys stay exact in 64-bit words.
    RadixSortLayout layout = scatter::radix_sort_layout(0xffffffffu, 32, 0);
    EXPECT_EQ(layout.passes, 4u);
    EXPECT_EQ(layout.tiles, (uint64_t(0xffffffffu) + kTile - 1) / kTile);
    EXPECT_GT(layout.end, 4 * uint64_t(0xffffffffu));
    EXPECT_EQ(scatter::radix_sort_layout(100, 20, 0, 4).passes, 5u);
    EXPECT_EQ(scatter::radix_sort_layout(100, 20, 0, 8).passes, 3u);
    EXPECT_EQ(scatter::radix_sort_layout(100, 0, 0).passes, 0u);
    EXPECT_EQ(scatter::radix_sort_layout(100, 20, 5).header % 64, 0u);
    // A binding too small for the layout is refused before anything is recorded.
    scatter::RadixSortBinding binding;
    binding.set = set_;
    binding.window_bytes = 1024;
    scatter::Status status;
    scatter::VulkanDevice& device = backend_->device();
    ASSERT_TRUE(device.run_commands([&](VkCommandBuffer cmd) {
                          status = scatter::record_radix_sort(device, backend_->pipelines(), cmd,
                                                              scatter::radix_sort_layout(5000, 32, 0), binding, false);
                      }).ok());
    EXPECT_EQ(status.code(), SCATTER_ERROR_UNSUPPORTED);
}

}  // namespace
}  // namespace vulkan_test
