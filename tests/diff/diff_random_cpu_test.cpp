// Random differential runs on the CPU: thousands of cases, reference vs the library at 1, 2 and
// 7 threads and through a parallel_for callback, bitwise (random_case.h: seeds and variables).
#include <gtest/gtest.h>

#include "random_case.h"

namespace scatter_test {
namespace {

TEST(DiffRandom, CpuMatchesReference) {
    run_random_cases(6000, RandomLimits{}, [](const ScatterCase& c) { c.run_cpu(); });
}

}  // namespace
}  // namespace scatter_test
