// The CPU elements kernel. Work is split so that no two tasks share a target: a task owns whole
// fibers along the axis (an outer position and a range of inner positions) and applies their
// updates in row-major order, so results do not depend on the thread count.
#pragma once

#include "core/host_allocator.h"
#include "core/op_plan.h"
#include "core/task_runner.h"

#include <functional>

namespace scatter {

// Allocates what the kernel needs (OUT_OF_MEMORY before anything is written), then calls
// fill_out() to give out data's values, then scatters. Indices and divisors must be checked.
Status scatter_elements_cpu(const OpPlan& plan, TaskRunner& runner, const HostAllocator& allocator,
                            const std::function<Status()>& fill_out);

}  // namespace scatter
