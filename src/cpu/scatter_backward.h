// The CPU scatter backward: each rule of docs/semantics.md ("Backward") as a few passes built
// from the forward's own kernels (scatters of counts and products into scratch tensors of data's
// shape, gathers of per-target values to the updates) and element-wise passes. Scratch space is
// allocated, and the indices checked, before grad_data or grad_updates is written.
#pragma once

#include "core/backward_plan.h"
#include "core/context.h"

namespace scatter {

Status scatter_backward_cpu(const BackwardPlan& plan, ContextConfig& config);

// Gather's backward: a scatter-add of grad_out (plan.out) into a zeroed grad_data (plan.data).
Status gather_backward_cpu(const GatherPlan& plan, ContextConfig& config);

}  // namespace scatter
