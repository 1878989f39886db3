// plan_operation: every rule of docs/semantics.md (operations, types, errors) that does not need index or update values.
#include "core/checked_math.h"
#include "core/context.h"
#include "core/op_plan.h"
#include "core/shape_checks.h"
#include "core/struct_size.h"

#include <cinttypes>

namespace scatter {
namespace {

constexpr uint32_t kKnownOptionFlags = SCATTER_OPTION_EXCLUDE_SELF | SCATTER_OPTION_ALLOW_NONDETERMINISM;

}  // namespace

Status normalize_scatter_options(const scatter_options* options, OpKind op, scatter_options* normalized) {
    scatter_options defaults = SCATTER_OPTIONS_INIT;
    if (options == nullptr) options = &defaults;
    SCATTER_RETURN_IF_ERROR(check_struct_size("options", options, options->struct_size, sizeof(scatter_options)));
    *normalized = *options;
    if (normalized->reduction == SCATTER_REDUCTION_DEFAULT) normalized->reduction = SCATTER_REDUCTION_NONE;
    if (normalized->reduction < SCATTER_REDUCTION_NONE || normalized->reduction > SCATTER_REDUCTION_MEAN)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.reduction = %d is not a scatter_reduction", int(options->reduction));
    if (normalized->out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT)
        normalized->out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    if (normalized->out_of_range < SCATTER_OUT_OF_RANGE_ERROR ||
        normalized->out_of_range > SCATTER_OUT_OF_RANGE_CLAMP)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.out_of_range = %d is not a scatter_out_of_range",
                          int(options->out_of_range));
    if ((options->flags & ~kKnownOptionFlags) != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.flags = 0x%x has unknown bits 0x%x",
                          options->flags, options->flags & ~kKnownOptionFlags);
    if (op == OpKind::Nd && options->axis != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.axis = %d must be 0 for nd, whose index depth names the dimensions",
                          int(options->axis));
    return Status();
}

namespace {

Status check_dtypes(const OpPlan& p) {
    const TensorView* same[] = {&p.updates, &p.out};
    const char* names[] = {"updates", "out"};
    for (int i = 0; i < 2; ++i) {
        if (same[i]->info != p.data.info)
            return make_error(SCATTER_ERROR_TYPE_MISMATCH, "%s.dtype = %s must equal data.dtype = %s",
                              names[i], same[i]->info->name, p.data.info->name);
        if (same[i]->element_size != p.data.element_size)
            return make_error(SCATTER_ERROR_TYPE_MISMATCH,
                              "%s.element_size = %u must equal data.element_size = %u", names[i],
                              same[i]->element_size, p.data.element_size);
    }
    scatter_dtype index_dtype = p.indices.dtype();
    if (index_dtype != SCATTER_DTYPE_I32 && index_dtype != SCATTER_DTYPE_I64)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "indices.dtype = %s must be i32 or i64",
                          p.indices.info->name);
    if (!reduction_allowed(p.data.info->kind, p.reduction))
        return make_error(SCATTER_ERROR_UNSUPPORTED, "reduction %s is not defined for dtype %s",
                          reduction_name(p.reduction), p.data.info->name);
    return Status();
}

Status plan_elements(OpPlan* p, int32_t axis) {
    const uint32_t r = p->data.rank;
    SCATTER_RETURN_IF_ERROR(normalize_axis(axis, r, &p->axis));
    SCATTER_RETURN_IF_ERROR(check_rank("indices", p->indices, r));
    SCATTER_RETURN_IF_ERROR(check_rank("updates", p->updates, r));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, 0, "indices", p->indices, 0, r));
    return check_indices_within_data(p->indices, p->data, p->axis);
}

Status plan_rows(OpPlan* p, int32_t axis) {
    const uint32_t r = p->data.rank, q = p->indices.rank;
    SCATTER_RETURN_IF_ERROR(normalize_axis(axis, r, &p->axis));
    const uint32_t a = uint32_t(p->axis);
    if (r - 1 + q > SCATTER_MAX_RANK)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                          "updates would need rank %u, more than the maximum %d", r - 1 + q, SCATTER_MAX_RANK);
    SCATTER_RETURN_IF_ERROR(check_rank("updates", p->updates, r - 1 + q));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, 0, "data", p->data, 0, a));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, a, "indices", p->indices, 0, q));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, a + q, "data", p->data, a + 1, r - a - 1));
    p->outer = shape_product(p->data.shape, 0, a);
    p->target_rows = p->data.shape[a];
    p->inner = shape_product(p->data.shape, a + 1, r);
    p->slices = p->indices.element_count;
    return Status();
}

Status plan_nd(OpPlan* p) {
    const uint32_t r = p->data.rank, q = p->indices.rank;
    if (q == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "indices is 0-d but nd needs indices of rank >= 1");
    const int64_t k = p->indices.shape[q - 1];
    if (k < 1 || k > int64_t(r))
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                          "indices.shape[%u] = %" PRId64 " (the index depth) must be in [1, %u]", q - 1, k, r);
    const uint32_t depth = uint32_t(k);
    SCATTER_RETURN_IF_ERROR(check_rank("updates", p->updates, q - 1 + r - depth));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, 0, "indices", p->indices, 0, q - 1));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("updates", p->updates, q - 1, "data", p->data, depth, r - depth));
    p->index_depth = depth;
    p->axis = 0;
    p->outer = 1;
    p->target_rows = shape_product(p->data.shape, 0, depth);
    p->inner = shape_product(p->data.shape, depth, r);
    p->slices = shape_product(p->indices.shape, 0, q - 1);
    return Status();
}

Status check_overlaps(OpPlan* p) {
    p->in_place = same_view(p->out, p->data);
    if (!p->in_place && views_overlap(p->out, p->data))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "out overlaps data without being the same view; pass identical views to work in place");
    if (views_overlap(p->out, p->indices))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out overlaps indices");
    if (views_overlap(p->out, p->updates))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out overlaps updates");
    return Status();
}

}  // namespace

const char* op_name(OpKind op) {
    switch (op) {
        case OpKind::Elements: return "elements";
        case OpKind::Rows: return "rows";
        case OpKind::Nd: return "nd";
    }
    return "unknown";
}

Status plan_operation_shapes(OpPlan* plan, int32_t axis) {
    switch (plan->op) {
        case OpKind::Elements: return plan_elements(plan, axis);
        case OpKind::Rows: return plan_rows(plan, axis);
        case OpKind::Nd: return plan_nd(plan);
    }
    return make_error(SCATTER_ERROR_INTERNAL, "unknown operation");
}

Status plan_operation(const OpRequest& request, scatter_context_t* context, OpPlan* plan) {
    // Built in place: the caller discards the plan when this fails.
    OpPlan& p = *plan;
    p.op = request.op;
    scatter_options options;
    SCATTER_RETURN_IF_ERROR(normalize_scatter_options(request.options, request.op, &options));
    p.reduction = options.reduction;
    p.policy = options.out_of_range;
    p.exclude_self = (options.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0 && p.reduction != SCATTER_REDUCTION_NONE;
    p.deterministic = (options.flags & SCATTER_OPTION_ALLOW_NONDETERMINISM) == 0 &&
                      (context->config.flags & SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM) == 0;

    SCATTER_RETURN_IF_ERROR(make_tensor_view("data", request.data, context, Access::Read, &p.data));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("indices", request.indices, context, Access::Read, &p.indices));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("updates", request.updates, context, Access::Read, &p.updates));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("out", request.out, context, Access::Write, &p.out));
    SCATTER_RETURN_IF_ERROR(check_dtypes(p));

    if (p.data.rank == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "data is 0-d but every operation needs rank >= 1");
    SCATTER_RETURN_IF_ERROR(check_rank("out", p.out, p.data.rank));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("out", p.out, 0, "data", p.data, 0, p.data.rank));

    SCATTER_RETURN_IF_ERROR(plan_operation_shapes(&p, options.axis));
    return check_overlaps(&p);
}

}  // namespace scatter
