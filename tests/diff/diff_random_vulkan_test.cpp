// Random differential runs on Vulkan: fewer, smaller cases than on the CPU (lavapipe is slow),
// reference vs the library, bitwise (random_case.h: seeds and variables).
#include <gtest/gtest.h>

#include <string>

#include "random_case.h"
#include "test_backends.h"

namespace scatter_test {
namespace {

TEST(DiffRandomVulkan, VulkanMatchesReference) {
    std::string why;
    if (!vulkan_context(&why)) {
        if (vulkan_required()) FAIL() << "SCATTER_TEST_REQUIRE_VULKAN=1 but Vulkan is unavailable: " << why;
        GTEST_SKIP() << "Vulkan unavailable: " << why;
    }
    RandomLimits small;
    small.max_elements = 1000;
    run_random_cases(1500, small, [](const ScatterCase& c) { c.run_vulkan(); });
}

}  // namespace
}  // namespace scatter_test
