// GatherCall: one gather call with its tensors, whose descriptors a test may break in any way, and
// expect_gather_rejected(), which checks the header's failure contract: the exact status, a
// one-sentence message, every tensor byte-for-byte unchanged.
#pragma once

#include <scatter/scatter.h>

#include <memory>
#include <string>
#include <vector>

#include "host_tensor.h"
#include "ops.h"

namespace scatter_test {

class GatherCall {
public:
    GatherCall(Op op, HostTensor data, HostTensor indices, HostTensor out);
    GatherCall(const GatherCall&) = delete;
    GatherCall& operator=(const GatherCall&) = delete;

    Op op;
    HostTensor data, indices, out;
    // What is passed: tests may change any field, or point the *_arg pointers elsewhere (NULL).
    scatter_tensor data_desc, indices_desc, out_desc;
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
    const scatter_tensor* data_arg;
    const scatter_tensor* indices_arg;
    const scatter_tensor* out_arg;
    const scatter_gather_options* options_arg;

    // Replaces a tensor and points its descriptor at it.
    void set_indices(HostTensor t);
    void set_out(HostTensor t);

    scatter_status run(scatter_context context) const;
};

// Valid gathers on small shapes (every index in range, data 1..n) that tests break one rule at a
// time:
//   elements: data [3,4], indices [2,4], out [2,4], axis 0
//   rows:     data [5,3], indices [4],   out [4,3]
//   nd:       data [4,3], indices [2,1], out [2,3]
std::unique_ptr<GatherCall> valid_gather(Op op, scatter_dtype dtype = SCATTER_DTYPE_F32,
                                         scatter_dtype index_dtype = SCATTER_DTYPE_I64, uint32_t opaque_size = 4);

// Runs call and checks the failure contract: status == expected; the last-error message is one
// sentence containing every string in message_parts; data, indices and out (filled with a
// sentinel first) are byte-for-byte what they were.
void expect_gather_rejected(scatter_context context, GatherCall& call, scatter_status expected,
                            const std::vector<std::string>& message_parts = {});

}  // namespace scatter_test
