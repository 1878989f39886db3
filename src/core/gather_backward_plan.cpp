#include "core/gather_backward_plan.h"

#include "core/checked_math.h"
#include "core/derived_views.h"
#include "core/strided_walk.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

namespace scatter {
namespace {

const int64_t kZero = 0;  // +0 in every float dtype

// The gather's indices [..., k] as i64 [..., b + k]: each index tuple prefixed with its batch
// position, so that a plain scatter_nd reaches the same elements.
void spell_out_batches(const GatherPlan& g, int64_t* rows) {
    const TensorView& i = g.indices;
    const uint32_t head_rank = i.rank - 1, b = g.batch_dims, k = g.index_depth;
    const int64_t step = i.strides[head_rank] * int64_t(i.element_size);
    const int64_t* strides[] = {i.strides};
    StridedWalk<1> walk(head_rank, i.shape, strides);
    const int64_t heads = shape_product(i.shape, 0, head_rank);
    for (int64_t h = 0; h < heads; ++h, walk.next()) {
        int64_t* row = rows + h * (b + k);
        for (uint32_t d = 0; d < b; ++d) row[d] = walk.position(d);
        const char* first = i.host + walk.offset(0) * int64_t(i.element_size);
        for (uint32_t c = 0; c < k; ++c) {
            const char* e = first + c * step;
            if (i.dtype() == SCATTER_DTYPE_I32) {
                int32_t v;
                std::memcpy(&v, e, 4);
                row[b + c] = v;
            } else {
                std::memcpy(&row[b + c], e, 8);
            }
        }
    }
}

}  // namespace

Status plan_gather_backward_scatter(const GatherPlan& g, ScratchArray<int64_t>* batched, OpPlan* scatter) {
    OpPlan& s = *scatter;
    s.op = g.op;
    s.data = broadcast_like(g.data, g.data.dtype(), &kZero);
    s.out = g.data;
    s.updates = g.out;
    s.indices = g.indices;
    s.reduction = SCATTER_REDUCTION_ADD;
    s.exclude_self = false;
    s.in_place = false;
    s.deterministic = true;
    s.profile = g.profile;
    // FILL'ed positions read nothing, so they contribute nothing: the scatter skips them.
    s.policy = g.policy == SCATTER_OUT_OF_RANGE_FILL ? SCATTER_OUT_OF_RANGE_SKIP : g.policy;
    if (g.op == OpKind::Nd && g.batch_dims > 0) {
        if (g.indices.host == nullptr && !g.indices.empty())
            return make_error(SCATTER_ERROR_UNSUPPORTED,
                              "gather_nd's backward with batch_dims reads its indices on the host; pass host indices");
        const uint32_t width = g.batch_dims + g.index_depth;
        const int64_t heads = shape_product(g.indices.shape, 0, g.indices.rank - 1);
        if (!batched->allocate(size_t(std::max<int64_t>(heads, 1)) * width))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate the batched indices of %" PRId64 " slices",
                              heads);
        spell_out_batches(g, batched->data());
        TensorView like = g.indices;
        like.shape[like.rank - 1] = width;
        like.element_count = heads * width;
        s.indices = contiguous_like(like, SCATTER_DTYPE_I64, batched->data());
    }
    return plan_operation_shapes(&s, g.axis);
}

}  // namespace scatter
