// Checks the arguments of one operation the way docs/semantics.md and docs/api.md describe, before anything is read
// from the tensors' memory, and produces the views the scatter loop works on.
#pragma once

#include "dtypes.h"
#include "scatter_reference.h"
#include "strided_tensor.h"

namespace scatter_reference {

using scatter_test::Shape;
using scatter_test::StridedTensor;
using scatter_test::for_each_coordinate;
using scatter_test::linear_position;

struct CheckedCall {
    Op op = Op::elements;
    StridedTensor data, indices, updates, out;
    size_t axis = 0;  // resolved to [0, rank)
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;
    scatter_out_of_range out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    bool exclude_self = false;
};

scatter_status validate_call(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                             const scatter_tensor* updates, const scatter_options* options,
                             const scatter_tensor* out, CheckedCall* call);

}  // namespace scatter_reference
