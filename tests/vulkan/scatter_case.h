// A scatter call described by value (shapes, raw bytes, options), a generator of random cases
// that hit duplicates, negative and out-of-range indices, every policy and exclude_self, and
// runners that execute a case on a context with host tensors (contiguous or strided) or with
// buffer tensors surrounded by canary guard regions.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vulkan_test {

enum class Op { Elements, Rows, Nd };

struct Case {
    Op op = Op::Elements;
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
    std::string canary;        // non-empty when memory outside the tensors was changed
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

int64_t element_count(const std::vector<int64_t>& shape);

}  // namespace vulkan_test
