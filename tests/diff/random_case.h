// Random scatter cases for the differential suite: every op, every legal dtype/reduction pair,
// both index dtypes, every out-of-range policy, ranks 1-8 with dimensions that hit remainders
// (1, 13, 127, 255/256/257) and zero sizes, duplicates, negative and out-of-range indices,
// strided/reversed/broadcast views, in-place calls and exclude_self.
#pragma once

#include <cstdint>

#include "scatter_case.h"

namespace scatter_diff {

struct RandomLimits {
    int64_t max_elements = 6000;  // per tensor (data and updates)
};

// The case drawn from `seed`; the same seed always gives the same case.
ScatterCase random_case(uint64_t seed, const RandomLimits& limits);

bool reduction_legal(scatter_dtype dtype, scatter_reduction reduction);

}  // namespace scatter_diff
