// Random differential runs: reference vs the library, bitwise. Deterministic: the base seed is
// fixed unless SCATTER_TEST_SEED is set, and every case's seed derives from it; a failure names
// the base seed, the case number and a builder expression that reproduces the case.
// SCATTER_TEST_ITERATIONS changes the number of cases, SCATTER_TEST_MAX_FAILING_CASES how many
// failing cases are reported before the run stops (5).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "random_case.h"
#include "test_backends.h"

namespace scatter_diff {
namespace {

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

uint64_t case_seed(uint64_t base, uint64_t i) {
    // splitmix64 of (base, i): neighbouring cases get unrelated seeds.
    uint64_t z = base * 0x9e3779b97f4a7c15ull + i + 0x632be59bd9b4e5ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Runs `count` random cases through `run`, stopping after a few failing ones.
template <class Run> void run_random_cases(uint64_t count, const RandomLimits& limits, Run run) {
    uint64_t base = env_number("SCATTER_TEST_SEED", 20240601);
    count = env_number("SCATTER_TEST_ITERATIONS", count);
    uint64_t max_failing = env_number("SCATTER_TEST_MAX_FAILING_CASES", 5);
    uint64_t failing = 0;
    for (uint64_t i = 0; i < count && failing < max_failing; ++i) {
        SCOPED_TRACE("SCATTER_TEST_SEED=" + std::to_string(base) + " case " + std::to_string(i));
        ScatterCase c = random_case(case_seed(base, i), limits);
        const auto* result = ::testing::UnitTest::GetInstance()->current_test_info()->result();
        int parts_before = result->total_part_count();
        run(c);
        if (result->total_part_count() != parts_before) ++failing;
    }
    std::printf("base seed %llu, %llu cases, %llu failing\n", (unsigned long long)base,
                (unsigned long long)count, (unsigned long long)failing);
}

TEST(DiffRandom, CpuMatchesReference) {
    run_random_cases(6000, RandomLimits{}, [](const ScatterCase& c) { c.run_cpu(); });
}

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
}  // namespace scatter_diff
