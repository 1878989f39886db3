// ScatterCall: one operation call with its tensors, whose descriptors a test may break in any
// way, and expect_rejected(), which checks the error contract of the header: the exact status, a
// one-sentence message, and every tensor byte-for-byte unchanged.
#pragma once

#include <scatter/scatter.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "dtypes.h"
#include "host_tensor.h"
#include "ops.h"
#include "run_case.h"
#include "test_backends.h"

namespace scatter_test {

class ScatterCall {
public:
    // The tensors must already have their final shapes; descriptors are taken from them.
    ScatterCall(Op op, HostTensor data, HostTensor indices, HostTensor updates);
    ScatterCall(const ScatterCall&) = delete;
    ScatterCall& operator=(const ScatterCall&) = delete;

    Op op;
    HostTensor data, indices, updates, out;
    // What is passed: tests may change any field, or point the *_arg pointers elsewhere (NULL).
    scatter_tensor data_desc, indices_desc, updates_desc, out_desc;
    scatter_options options = SCATTER_OPTIONS_INIT;
    const scatter_tensor* data_arg;
    const scatter_tensor* indices_arg;
    const scatter_tensor* updates_arg;
    const scatter_tensor* out_arg;
    const scatter_options* options_arg;

    // Makes `out` the same memory as `data` (in place).
    ScatterCall& in_place();
    ScatterCall& reduction(scatter_reduction r) { options.reduction = r; return *this; }
    ScatterCall& axis(int32_t a) { options.axis = a; return *this; }
    ScatterCall& policy(scatter_out_of_range p) { options.out_of_range = p; return *this; }
    ScatterCall& flags(uint32_t f) { options.flags = f; return *this; }

    scatter_status run(scatter_context context) const;

private:
    bool in_place_ = false;
};

// Valid calls on small shapes (every index in range, every update 2, data 1..n) that tests break
// one rule at a time:
//   elements: data [3,4], indices [2,4], updates [2,4], axis 0
//   rows:     data [5,3], indices [4],   updates [4,3]
//   nd:       data [4,3], indices [2,1], updates [2,3]
std::unique_ptr<ScatterCall> valid_call(Op op, scatter_dtype dtype = SCATTER_DTYPE_F32,
                                        scatter_dtype index_dtype = SCATTER_DTYPE_I64,
                                        uint32_t opaque_size = 4);

// Runs call and checks the header's failure contract: status == expected; the last-error message
// is one non-empty sentence containing every string in message_parts; and out, data, indices and
// updates are byte-for-byte what they were (out is filled with a sentinel first).
void expect_rejected(scatter_context context, ScatterCall& call, scatter_status expected,
                     const std::vector<std::string>& message_parts = {});

// A context handle no successful call writes: out-parameters start with it, so a failed call
// can be seen to have written nothing.
scatter_context untouched_context();

// Calls scatter_context_create(desc) and checks the failure contract: status == expected, a
// one-sentence message containing every string in parts, and the out-context not written.
void expect_create_fails(const scatter_context_desc* desc, scatter_status expected,
                         const std::vector<std::string>& parts = {});

// Checks that message is one sentence: not empty, no line break, no second sentence.
::testing::AssertionResult is_one_sentence(const std::string& message);

}  // namespace scatter_test
