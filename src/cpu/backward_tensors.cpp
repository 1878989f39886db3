#include "cpu/backward_tensors.h"

#include "core/gather_plan.h"
#include "cpu/gather.h"
#include "cpu/scatter_elements.h"
#include "cpu/scatter_slices.h"

#include <cinttypes>

namespace scatter {
namespace {

TensorView shaped_like(const TensorView& like, scatter_dtype dtype) {
    TensorView v;
    v.info = find_dtype(dtype);
    v.element_size = v.info->size;
    v.rank = like.rank;
    v.element_count = like.element_count;
    for (uint32_t d = 0; d < like.rank; ++d) v.shape[d] = like.shape[d];
    return v;
}

}  // namespace

TensorView contiguous_like(const TensorView& like, scatter_dtype dtype, void* host) {
    TensorView v = shaped_like(like, dtype);
    int64_t stride = 1;
    for (int d = int(v.rank) - 1; d >= 0; --d) {
        v.strides[d] = stride;
        stride *= std::max<int64_t>(v.shape[d], 1);
    }
    v.min_byte = 0;
    v.end_byte = v.element_count * int64_t(v.element_size);
    v.contiguous = true;
    v.host = static_cast<char*>(host);
    return v;
}

TensorView broadcast_like(const TensorView& like, scatter_dtype dtype, const void* value) {
    TensorView v = shaped_like(like, dtype);
    for (uint32_t d = 0; d < v.rank; ++d) v.strides[d] = 0;
    v.min_byte = 0;
    v.end_byte = v.element_count == 0 ? 0 : int64_t(v.element_size);
    v.contiguous = v.element_count <= 1;
    // Only ever read: the kernels take their inputs through non-const views.
    v.host = static_cast<char*>(const_cast<void*>(value));
    return v;
}

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
