// Gather's backward as the forward scatter-add it is: out = grad_data, data = a broadcast zero,
// updates = grad_out, with the gather's indices. nd with batch dimensions becomes nd without,
// on indices that spell the batch coordinates out.
#include "cpu/scatter_backward.h"

#include "core/checked_math.h"
#include "core/index_check.h"
#include "core/strided_walk.h"
#include "cpu/backward_tensors.h"
#include "cpu/cpu_backend.h"

#include <cinttypes>

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
                row[b + c] = load_i64(e);
            }
        }
    }
}

}  // namespace

Status gather_backward_cpu(const GatherPlan& g, ContextConfig& config) {
    SCATTER_RETURN_IF_ERROR(check_gather_indices(g, *config.runner));
    OpPlan s;
    s.op = g.op;
    s.data = broadcast_like(g.data, g.data.dtype(), &kZero);
    s.out = g.data;
    s.updates = g.out;
    s.indices = g.indices;
    s.reduction = SCATTER_REDUCTION_ADD;
    // FILL'ed positions contribute nothing: the scatter skips them.
    s.policy = g.policy == SCATTER_OUT_OF_RANGE_FILL ? SCATTER_OUT_OF_RANGE_SKIP : g.policy;
    ScratchArray<int64_t> rows(config.allocator);
    if (g.op == OpKind::Nd && g.batch_dims > 0) {
        const uint32_t width = g.batch_dims + g.index_depth;
        const int64_t heads = shape_product(g.indices.shape, 0, g.indices.rank - 1);
        if (!rows.allocate(size_t(std::max<int64_t>(heads, 1)) * width))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate the batched indices of %" PRId64 " slices",
                              heads);
        spell_out_batches(g, rows.data());
        TensorView like = g.indices;
        like.shape[like.rank - 1] = width;
        like.element_count = heads * width;
        s.indices = contiguous_like(like, SCATTER_DTYPE_I64, rows.data());
    }
    SCATTER_RETURN_IF_ERROR(plan_operation_shapes(&s, g.axis));
    return execute_on_cpu(s, config);
}

}  // namespace scatter
