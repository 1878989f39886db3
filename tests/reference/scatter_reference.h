// The oracle: a naive, obviously-correct implementation of the three scatter operations of
// docs/semantics.md, written independently of src/. It walks every update in row-major order and applies
// `t = t op u` to its target, one element at a time. Speed is not a goal; clarity is.
//
// It takes the same descriptors as the library (host pointers only) and returns the status the
// library must return, so differential tests can compare both the result and the status.
// Like the library it never writes `out` when it fails.
#pragma once

#include <scatter/scatter.h>

#include "ops.h"

namespace scatter_reference {

using Op = scatter_test::Op;

// Runs `op` on host tensors. `options` may be NULL (the defaults). `out` may describe the same
// memory as `data` (in place).
scatter_status run(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                   const scatter_tensor* updates, const scatter_options* options,
                   const scatter_tensor* out);

}  // namespace scatter_reference
