// The CPU gather kernel: every out element is written once, from the data element its index
// names (or from the fill value), so any split of the work gives the same bytes.
#pragma once

#include "core/gather_plan.h"
#include "core/task_runner.h"

namespace scatter {

// Copies the gathered elements into plan.out. The indices must have passed check_gather_indices:
// under ERROR every index is then in range, and under CLAMP no index addresses an empty dimension.
Status gather_cpu(const GatherPlan& plan, TaskRunner& runner);

}  // namespace scatter
