// Filling HostTensors: explicit values (written as doubles, converted to the dtype), random
// values per dtype (with NaN, infinities, signed zeros, subnormals when asked), and random
// indices (hot targets for duplicates, negative and out-of-range ones).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "host_tensor.h"

namespace scatter_test {

using Rng = std::mt19937_64;

// Writes `values` (row-major) into the elements of `t`.
void fill_values(HostTensor& t, const std::vector<double>& values);

struct ValueProfile {
    bool specials = false;      // NaN, +-inf, +-0, subnormals, extremes among the values
    bool avoid_zero = false;    // integer divisors: never 0
    bool plant_zero = false;    // integer divisors: exactly one 0 somewhere
    bool loose_bools = false;   // bool bytes other than 0 and 1
};

// Fills every byte of the backing store (so gaps hold noise too), then the elements.
void fill_random_values(HostTensor& t, const ValueProfile& profile, Rng& rng);

struct IndexProfile {
    int64_t hot_targets = 0;         // > 0: indices drawn from the first few targets only
    double negative_rate = 0.0;      // in-range indices written as i - s
    double out_of_range_rate = 0.0;  // indices outside [-s, s)
    bool extremes = false;           // out-of-range ones may be the dtype's min/max
};

// Fills the index tensor; extent(coords) gives the size s of the dimension an index addresses.
void fill_random_indices(HostTensor& indices, const std::function<int64_t(const int64_t*)>& extent,
                         const IndexProfile& profile, Rng& rng);

}  // namespace scatter_test
