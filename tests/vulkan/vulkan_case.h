// The Vulkan suites' view of tests/support: a scatter call described by value (shapes, packed
// bytes, options), which the tests build and alter by hand; a generator of small random cases
// that hit duplicates, negative and out-of-range indices, every policy and exclude_self; and
// run_case(), which hands the call to tests/support's runner (host tensors, contiguous or with
// gaps, or buffers between guard regions) and the oracle.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ops.h"
#include "shape.h"

namespace vulkan_test {

using scatter_test::Op;
using scatter_test::element_count;

struct Case {
    Op op = Op::elements;
    scatter_dtype dtype = SCATTER_DTYPE_F32;
    uint32_t element_size = 4;
    std::vector<int64_t> data_shape, index_shape, update_shape;
    std::vector<uint8_t> data, updates, indices;  // contiguous bytes
    bool index_i64 = false;
    scatter_options options = SCATTER_OPTIONS_INIT;
    bool in_place = false;

    std::string describe() const;
};

struct Result {
    scatter_status status = SCATTER_OK;
    std::string message;
    std::vector<uint8_t> out;  // contiguous bytes of out (data's bytes when the call failed)
    std::string canary;        // non-empty when memory outside out's elements was changed
};

enum class Layout {
    Host,         // contiguous host tensors
    HostStrided,  // out and updates as every second element of a larger host array
    Buffer,       // every tensor in its own scatter buffer, between guard regions
};

Result run_case(scatter_context context, const Case& c, Layout layout);

// The same case on the naive oracle of tests/reference (host tensors).
Result run_reference(const Case& c);

// A random valid case for (op, dtype, reduction); `bad_index` puts one out-of-range index in
// (for the ERROR policy), `zero_divisor` one zero update (integer div).
Case random_case(std::mt19937_64& rng, Op op, scatter_dtype dtype, scatter_reduction reduction);

// Fills `count` elements of `dtype` with random values: mostly small numbers, some special ones
// (NaN, infinities, signed zeros, extremes) and random bit patterns.
void random_values(std::mt19937_64& rng, scatter_dtype dtype, uint32_t element_size, size_t count, bool nonzero,
                   std::vector<uint8_t>* out);

}  // namespace vulkan_test
