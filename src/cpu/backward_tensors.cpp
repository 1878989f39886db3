#include "cpu/backward_tensors.h"

#include "core/gather_plan.h"
#include "cpu/gather.h"
#include "cpu/scatter_elements.h"
#include "cpu/scatter_slices.h"

#include <algorithm>
#include <cinttypes>

namespace scatter {

ScratchTensors::~ScratchTensors() {
    for (int i = 0; i < count_; ++i) allocator_.release_scratch(blocks_[i], capacities_[i]);
}

Status ScratchTensors::make(const TensorView& like, scatter_dtype dtype, TensorView* view) {
    if (count_ == kMax) return make_error(SCATTER_ERROR_INTERNAL, "a backward call asked for too many scratch tensors");
    const size_t bytes = size_t(std::max<int64_t>(like.element_count, 1)) * find_dtype(dtype)->size;
    void* block = allocator_.allocate_scratch(bytes, &capacities_[count_]);
    if (block == nullptr)
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate %zu bytes of scratch for the gradients", bytes);
    blocks_[count_++] = block;
    *view = contiguous_like(like, dtype, block);
    return Status();
}

Status scatter_in_place(const OpPlan& forward, const int64_t* targets, const TensorView& target,
                        const TensorView& updates, scatter_reduction reduction, TaskRunner& runner,
                        const HostAllocator& allocator) {
    OpPlan plan = forward;
    plan.data = plan.out = target;
    plan.updates = updates;
    plan.reduction = reduction;
    plan.exclude_self = false;
    plan.in_place = true;
    plan.deterministic = true;
    plan.profile = nullptr;
    auto nothing_to_fill = [] { return Status(); };
    if (plan.op == OpKind::Elements) return scatter_elements_cpu(plan, runner, allocator, nothing_to_fill);
    return scatter_slices_cpu(plan, targets, runner, allocator, nothing_to_fill);
}

Status gather_at_updates(const OpPlan& forward, const TensorView& source, const TensorView& dest, const void* fill,
                         TaskRunner& runner) {
    GatherPlan plan;
    plan.op = forward.op;
    plan.data = source;
    plan.indices = forward.indices;
    plan.out = dest;
    plan.axis = forward.axis;
    plan.batch_dims = 0;
    plan.index_depth = forward.op == OpKind::Nd ? forward.index_depth : 1;
    // The scatter's SKIP is the gather's FILL: the same positions, the same whole-slice rule.
    plan.policy = forward.policy == SCATTER_OUT_OF_RANGE_SKIP ? SCATTER_OUT_OF_RANGE_FILL : forward.policy;
    plan.fill_value = static_cast<const char*>(fill);
    return gather_cpu(plan, runner);
}

}  // namespace scatter
