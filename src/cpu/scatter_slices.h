// The CPU rows/nd kernel. data is seen as [outer, target_rows, inner] and updates as
// [outer, slices, inner]. A task owns a range of outer positions, or (when outer is small) a range
// of target rows, and applies the slices that reach its targets in row-major order of indices, so
// results do not depend on the thread count. With one outer position and an out larger than the
// caches, the slices are first grouped by block of target rows (slice_blocks.h); a task then
// copies one block of out from data and applies that block's slices while it sits in L2.
#pragma once

#include "core/host_allocator.h"
#include "core/op_plan.h"
#include "core/task_runner.h"

#include <functional>

namespace scatter {

// targets: per slice, the target row or -1 (from resolve_slice_targets). Allocates what the
// kernel needs (OUT_OF_MEMORY before anything is written), then calls fill_out() and scatters;
// the blocked path instead copies data into out block by block itself, just before each block's
// slices (fill_out is then not called).
Status scatter_slices_cpu(const OpPlan& plan, const int64_t* targets, TaskRunner& runner,
                          const HostAllocator& allocator, const std::function<Status()>& fill_out);

}  // namespace scatter
