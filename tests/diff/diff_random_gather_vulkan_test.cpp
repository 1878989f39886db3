// Gather on Vulkan (lavapipe in CI) against its oracle and the CPU, bitwise: random cases
// (random_gather_case; SCATTER_TEST_SEED / SCATTER_TEST_ITERATIONS as for the scatter runs) on
// host tensors and on buffer tensors of the Vulkan context; statuses and messages as the CPU's.
#include <gtest/gtest.h>

#include <string>

#include "random_case.h"
#include "test_backends.h"

namespace scatter_test {
namespace {

bool vulkan_or_skip() {
    std::string why;
    if (vulkan_context(&why)) return true;
    if (vulkan_required()) ADD_FAILURE() << "SCATTER_TEST_REQUIRE_VULKAN=1 but Vulkan is unavailable: " << why;
    return false;
}

TEST(DiffRandomGatherVulkan, VulkanMatchesReference) {
    if (!vulkan_or_skip()) GTEST_SKIP() << "Vulkan unavailable";
    RandomLimits small;
    small.max_elements = 1000;
    run_random_seeds(400, [&small](uint64_t seed) { random_gather_case(seed, small).run_vulkan(); });
}

// Every element size of the byte copy, unaligned buffer offsets aside: 1, 2, 4, 8, 16 and odd
// opaque sizes, under each policy, with strided, negative-stride and broadcast views.
TEST(DiffGatherVulkan, ElementSizesAndPolicies) {
    if (!vulkan_or_skip()) GTEST_SKIP() << "Vulkan unavailable";
    const IndexProfile outside{0, 0.3, 0.2, true};
    for (scatter_out_of_range policy : {OOR_ERROR, OOR_CLAMP, OOR_FILL}) {
        const IndexProfile profile = policy == OOR_ERROR ? IndexProfile{0, 0.3, 0.0, false} : outside;
        GatherCase().op(ROWS).dtype(U8).data({7, 5}).indices({9}).out_of_range(policy).fill_value()
            .index_profile(profile).out_layout(Layout::random(3, false)).run_vulkan();
        GatherCase().op(ELEMENTS).dtype(F16).data({6, 5}).indices({8, 3}).axis(0).out_of_range(policy)
            .index_profile(profile).data_layout(Layout::random(4, true)).run_vulkan();
        GatherCase().op(ND).dtype(F64).data({3, 4, 5}).indices({3, 6, 2}).batch_dims(1).out_of_range(policy)
            .fill_value().index_profile(profile).indices_layout(Layout::random(5, true)).run_vulkan();
        GatherCase().op(ROWS).dtype(C128).data({4, 3, 2}).indices({2, 2}).axis(1).out_of_range(policy)
            .index_profile(profile).run_vulkan();
        GatherCase().op(ND).dtype(OPAQUE, 7).data({5, 3}).indices({4, 2}).out_of_range(policy).fill_value()
            .index_profile(profile).out_layout(Layout::random(6, false)).run_vulkan();
        GatherCase().op(ELEMENTS).dtype(I32).index_dtype(I32).data({4, 6}).indices({4, 9}).axis(-1)
            .out_of_range(policy).index_profile(profile).run_vulkan();
    }
}

// Failures found on the GPU before out is written: an index out of range under ERROR (status and
// message as the CPU's), an index into an empty dimension under CLAMP.
TEST(DiffGatherVulkan, IndexFailuresLeaveOutUnchanged) {
    if (!vulkan_or_skip()) GTEST_SKIP() << "Vulkan unavailable";
    GatherCase().op(ROWS).dtype(F32).data({5, 4}).indices({3, 4}, {0, 1, 2, 3, 4, -5, 5, 1, 2, 3, -6, 0})
        .expect_status(SCATTER_ERROR_INDEX_OUT_OF_RANGE).run_vulkan();
    GatherCase().op(ND).dtype(I64).data({2, 3, 4}).indices({2, 2, 2}, {0, 1, 1, 2, 0, 0, 1, 4})
        .batch_dims(1).expect_status(SCATTER_ERROR_INDEX_OUT_OF_RANGE).run_vulkan();
    GatherCase().op(ELEMENTS).dtype(U16).index_dtype(I32).data({3, 4}).indices({2, 4}, {0, 1, 2, 3, 2, 1, 0, -4})
        .axis(0).expect_status(SCATTER_ERROR_INDEX_OUT_OF_RANGE).run_vulkan();
    GatherCase().op(ROWS).dtype(F32).data({0, 3}).indices({2}, {1, 0}).out_of_range(OOR_CLAMP)
        .expect_status(SCATTER_ERROR_INDEX_OUT_OF_RANGE).run_vulkan();
    GatherCase().op(ND).dtype(U8).data({3, 0, 2}).indices({2, 2}, {0, 0, 1, 0}).out_of_range(OOR_CLAMP)
        .expect_status(SCATTER_ERROR_INDEX_OUT_OF_RANGE).run_vulkan();
}

}  // namespace
}  // namespace scatter_test
