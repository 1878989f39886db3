// The CPU kernels' per-target counts (src/cpu/kernel_context.h) at sizes whose byte count
// overflows: issue 43 found a signed overflow (UB) in the OUT_OF_MEMORY message, which printed
// "0 bytes". Run under UBSan by make sanitize.
#include "cpu/kernel_context.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace scatter {
namespace {

TEST(TargetCounts, OverflowingSizesAreOutOfMemoryWithTheirFactors) {
    HostAllocator allocator;
    ScratchArray<int64_t> counts(allocator);
    for (int64_t per_task : {INT64_MAX / 2, INT64_MAX / 16 + 1, int64_t(1) << 61}) {
        Status status = allocate_target_counts(counts, per_task, 7, "per-target");
        ASSERT_EQ(status.code(), SCATTER_ERROR_OUT_OF_MEMORY) << per_task;
        EXPECT_NE(status.message().find(std::to_string(per_task) + " per-target counts"), std::string::npos)
            << status.message();
        EXPECT_NE(status.message().find("7 tasks"), std::string::npos) << status.message();
    }
    ASSERT_TRUE(allocate_target_counts(counts, 1000, 3, "per-row").ok());
    for (int i = 0; i < 3000; ++i) ASSERT_EQ(counts[size_t(i)], 0) << i;
}

}  // namespace
}  // namespace scatter
