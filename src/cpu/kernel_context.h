// What a CPU kernel needs besides the plan: the threads, and the per-task target state
// (hit counts for exclude_self and mean) allocated before anything is written.
#pragma once

#include "core/checked_math.h"
#include "core/host_allocator.h"
#include "core/op_plan.h"
#include "core/task_runner.h"

#include <cstdint>
#include <cstring>

namespace scatter {

// Per-target counts: how many updates reached each target of a task's current region.
// Needed for mean (the divisor) and exclude_self (the first hit starts from the identity).
inline bool needs_target_counts(const OpPlan& plan) {
    return plan.exclude_self || plan.reduction == SCATTER_REDUCTION_MEAN;
}

// Zeroed hit counts, per_task for each of `tasks` tasks (nothing when per_task is 0), allocated
// before anything is written: OUT_OF_MEMORY names `what` ("per-row", "per-target").
// The product is checked: a count that overflows is as unallocatable as one the system refuses,
// and the message names its factors rather than a wrapped byte count.
inline Status allocate_target_counts(ScratchArray<int64_t>& counts, int64_t per_task, uint32_t tasks, const char* what) {
    if (per_task == 0) return Status();
    int64_t count = 0, bytes = 0;
    if (!checked_mul(per_task, int64_t(tasks), &count) || !checked_mul(count, int64_t(sizeof(int64_t)), &bytes) ||
        !counts.allocate(size_t(count)))
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY,
                          "could not allocate %lld %s counts of 8 bytes for each of %u tasks", (long long)per_task,
                          what, tasks);
    std::memset(counts.data(), 0, size_t(bytes));
    return Status();
}

// Below this many updates a kernel runs on the calling thread: waking workers costs more.
constexpr int64_t kParallelThreshold = 1 << 15;

inline uint32_t task_count_for(const TaskRunner& runner, int64_t work, int64_t units) {
    if (work < kParallelThreshold || units <= 1) return 1;
    int64_t tasks = int64_t(runner.concurrency());
    return uint32_t(tasks < units ? tasks : units);
}

}  // namespace scatter
