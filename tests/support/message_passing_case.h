// MessagePassingCase: scatter_message_passing checked three ways, bitwise (status and every byte
// of out's backing store): against the oracle (tests/reference: its gather, its rows scatter with
// MUL for the weights, its rows scatter), against the same three calls on the library
// (scatter_gather_rows, scatter_rows MUL, scatter_rows), and on every CPU context of
// test_backends.h (threads 1, 2, 7, parallel_for). Inputs must stay untouched.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <string>
#include <vector>

#include "host_tensor.h"
#include "tensor_values.h"

namespace scatter_test {

struct MessagePassingCase {
    scatter_dtype dtype = SCATTER_DTYPE_F32;
    uint32_t opaque_size = 0;
    scatter_dtype src_dtype = SCATTER_DTYPE_I64, dst_dtype = SCATTER_DTYPE_I64;
    Shape data_shape{4, 3};  // [M, F...]
    int64_t sources = 5;     // N: x is [N, F...]
    int64_t edges = 6;       // E
    bool weighted = false;
    bool in_place = false;
    scatter_reduction reduction = SCATTER_REDUCTION_ADD;
    scatter_out_of_range src_policy = SCATTER_OUT_OF_RANGE_DEFAULT, dst_policy = SCATTER_OUT_OF_RANGE_DEFAULT;
    bool exclude_self = false;
    bool fill_given = false;  // FILL with a random value (else NULL: zeros)
    Layout data_layout, x_layout, src_layout, dst_layout, weights_layout, out_layout;
    ValueProfile values;
    IndexProfile src_indices, dst_indices;
    uint64_t seed = 1;

    std::string describe() const;
    // Runs the three checks; `expected`, when not SCATTER_ERROR_INTERNAL, is the status the
    // oracle must return too.
    void run(scatter_status expected = SCATTER_ERROR_INTERNAL) const;
};

// A random case: every dtype (opaque 1-24 bytes), reduction, index width and policy, ranks 1-4,
// zero sizes, duplicates (hot targets), negative and out-of-range indices, strided, reversed and
// broadcast views, in place, exclude_self, weights.
MessagePassingCase random_message_passing_case(uint64_t seed);

// The three calls the fused call equals, on host tensors, through `gather` and `rows`
// (the library's, with a context bound, or the oracle's). `weights` may be NULL.
struct ComposedCalls {
    scatter_status (*gather)(void* user, const scatter_tensor* data, const scatter_tensor* indices,
                             const scatter_gather_options* options, const scatter_tensor* out);
    scatter_status (*rows)(void* user, const scatter_tensor* data, const scatter_tensor* indices,
                           const scatter_tensor* updates, const scatter_options* options, const scatter_tensor* out);
    void* user;
};
scatter_status compose_message_passing(const ComposedCalls& calls, const scatter_tensor* data,
                                       const scatter_tensor* x, const scatter_tensor* src, const scatter_tensor* dst,
                                       const scatter_tensor* weights, const scatter_message_passing_options* options,
                                       const scatter_tensor* out);
ComposedCalls reference_calls();
ComposedCalls library_calls(scatter_context context);

}  // namespace scatter_test
