// Random scatter cases for the differential suite: every op, every legal dtype/reduction pair,
// both index dtypes, every out-of-range policy, ranks 1-8 with dimensions that hit remainders
// (1, 13, 127, 255/256/257) and zero sizes, duplicates, negative and out-of-range indices,
// strided/reversed/broadcast views, in-place calls and exclude_self.
#pragma once

#include <cstdint>
#include <functional>

#include "gather_case.h"
#include "scatter_case.h"

namespace scatter_test {

struct RandomLimits {
    int64_t max_elements = 6000;  // per tensor (data and updates)
};

// The case drawn from `seed`; the same seed always gives the same case.
ScatterCase random_case(uint64_t seed, const RandomLimits& limits);

// The gather case drawn from `seed`: every op, dtype (opaque of 1-24 bytes), index dtype, policy
// (FILL with and without a value; a value the other policies ignore), axis (also negative), ranks
// 1-6, batch_dims 0-2 for nd, 0-d indices for rows, zero sizes, strided/reversed/broadcast views.
GatherCase random_gather_case(uint64_t seed, const RandomLimits& limits);

// Runs `count` random cases through `run`, stopping after a few failing ones. Deterministic: the
// base seed is fixed unless SCATTER_TEST_SEED is set, and every case's seed derives from it; a
// failure names the base seed, the case number and a builder expression that reproduces the
// case. SCATTER_TEST_ITERATIONS changes the number of cases, SCATTER_TEST_MAX_FAILING_CASES how
// many failing cases are reported before the run stops (5).
void run_random_cases(uint64_t count, const RandomLimits& limits,
                      const std::function<void(const ScatterCase&)>& run);

// The loop behind run_random_cases for any kind of case: run(seed) with each case's seed, under
// the same environment variables and failure reporting.
void run_random_seeds(uint64_t count, const std::function<void(uint64_t seed)>& run);

}  // namespace scatter_test
