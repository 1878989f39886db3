// BackwardPlan: one validated backward call (scatter_*_backward), the forward's plan inside it.
// Gather's backward is a GatherPlan whose `data` is grad_data (written) and whose `out` is
// grad_out (read): the shapes are the forward's, only the direction differs.
#pragma once

#include "core/gather_plan.h"
#include "core/op_plan.h"
#include "core/tensor_view.h"

#include <scatter/scatter.h>

namespace scatter {

struct BackwardPlan {
    // The forward call as plan_operation would see it (out: the forward's result, empty when
    // the rule does not read it). Its profile pointer is unused: see `profile`.
    OpPlan forward;
    TensorView grad_out, grad_data, grad_updates;
    bool has_out = false;           // the caller passed the forward's result
    bool wants_grad_data = false;   // grad_data was not NULL
    bool wants_grad_updates = false;
    OperationProfile* profile = nullptr;
};

// True when the rule of `reduction` reads the forward's result (mul, div, max, min).
bool backward_reads_out(scatter_reduction reduction);

struct BackwardRequest {
    OpKind op;
    const scatter_tensor* data;
    const scatter_tensor* indices;
    const scatter_tensor* updates;
    const scatter_tensor* out;
    const scatter_tensor* grad_out;
    const scatter_options* options;
    const scatter_tensor* grad_data;
    const scatter_tensor* grad_updates;
};

// Checks options, dtypes, shapes (the forward's rules) and overlaps. Fills `plan`.
Status plan_backward(const BackwardRequest& request, scatter_context_t* context, BackwardPlan* plan);

struct GatherBackwardRequest {
    OpKind op;
    const scatter_tensor* indices;
    const scatter_tensor* grad_out;
    const scatter_gather_options* options;
    const scatter_tensor* grad_data;
};

// Checks options, dtypes, shapes (the forward gather's) and overlaps. Fills `plan`.
Status plan_gather_backward(const GatherBackwardRequest& request, scatter_context_t* context, GatherPlan* plan);

}  // namespace scatter
