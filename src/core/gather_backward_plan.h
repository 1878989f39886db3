// Gather's backward as the forward scatter-add it is: out = grad_data, data = a broadcast zero,
// updates = grad_out, with the gather's indices; FILL'ed positions skipped. nd with batch
// dimensions becomes nd without, on indices that spell the batch coordinates out. Both backends
// run the resulting plan with their own scatter.
#pragma once

#include "core/gather_plan.h"
#include "core/host_allocator.h"
#include "core/op_plan.h"

namespace scatter {

// Fills *scatter from the validated gather backward `gather` (gather.data is grad_data,
// gather.out is grad_out). With batch dimensions the spelled-out indices go into *batched (host
// memory, kept alive by the caller while the plan runs); that needs host-addressable indices
// (UNSUPPORTED otherwise). The indices must have passed the gather's own checks.
Status plan_gather_backward_scatter(const GatherPlan& gather, ScratchArray<int64_t>* batched, OpPlan* scatter);

}  // namespace scatter
