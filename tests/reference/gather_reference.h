// The oracle of the three gathers (scatter_gather_elements / _rows / _nd), written from
// docs/semantics.md independently of src/: it validates the call, checks every index under the
// policy, then visits every position of `out` in row-major order and copies the bytes of the
// data element (or the fill value) that position names. Like the library it writes `out` only
// when it succeeds.
#pragma once

#include <scatter/scatter.h>

#include "ops.h"

namespace scatter_reference {

// Runs the gather `op` on host tensors; `options` may be NULL (the defaults).
scatter_status gather(scatter_test::Op op, const scatter_tensor* data, const scatter_tensor* indices,
                      const scatter_gather_options* options, const scatter_tensor* out);

}  // namespace scatter_reference
