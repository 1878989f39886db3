// The oracle of the backward calls (scatter_*_backward, scatter_gather_*_backward), written from
// docs/semantics.md ("Backward") independently of src/: it maps every update (or gathered
// position) to its target element, collects each target's updates in row-major order, and
// applies each rule's formula target by target, rounding every step to the dtype. The calls must
// be valid but for index values: it returns INDEX_OUT_OF_RANGE under ERROR (and gather CLAMP
// into an empty dimension), else OK, and writes the gradients only on OK.
#pragma once

#include <scatter/scatter.h>

#include "ops.h"

namespace scatter_reference {

scatter_status scatter_backward(scatter_test::Op op, const scatter_tensor* data, const scatter_tensor* indices,
                                const scatter_tensor* updates, const scatter_tensor* out,
                                const scatter_tensor* grad_out, const scatter_options* options,
                                const scatter_tensor* grad_data, const scatter_tensor* grad_updates);

scatter_status gather_backward(scatter_test::Op op, const scatter_tensor* indices, const scatter_tensor* grad_out,
                               const scatter_gather_options* options, const scatter_tensor* grad_data);

}  // namespace scatter_reference
