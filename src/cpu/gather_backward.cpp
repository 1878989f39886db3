// Gather's backward on the CPU: the gather's own index checks, then the forward scatter-add
// (core/gather_backward_plan.h).
#include "cpu/scatter_backward.h"

#include "core/gather_backward_plan.h"
#include "core/index_check.h"
#include "cpu/cpu_backend.h"

namespace scatter {

Status gather_backward_cpu(const GatherPlan& g, ContextConfig& config) {
    SCATTER_RETURN_IF_ERROR(check_gather_indices(g, *config.runner));
    ScratchArray<int64_t> batched(config.allocator);
    OpPlan scatter;
    SCATTER_RETURN_IF_ERROR(plan_gather_backward_scatter(g, &batched, &scatter));
    scatter.profile = nullptr;  // the CPU backend times the whole call as one pass
    return execute_on_cpu(scatter, config);
}

}  // namespace scatter
