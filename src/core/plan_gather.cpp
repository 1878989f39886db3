// plan_gather: the rules of docs/semantics.md ("Gather") that need no index value.
#include "core/checked_math.h"
#include "core/context.h"
#include "core/gather_plan.h"
#include "core/shape_checks.h"
#include "core/struct_size.h"

#include <cinttypes>

namespace scatter {
namespace {

}  // namespace

Status normalize_gather_options(const scatter_gather_options* options, OpKind op,
                                scatter_gather_options* normalized) {
    scatter_gather_options defaults = SCATTER_GATHER_OPTIONS_INIT;
    if (options == nullptr) options = &defaults;
    SCATTER_RETURN_IF_ERROR(
        check_struct_size("options", options, options->struct_size, sizeof(scatter_gather_options)));
    *normalized = *options;
    if (normalized->out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT)
        normalized->out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    const scatter_out_of_range policy = normalized->out_of_range;
    if (policy == SCATTER_OUT_OF_RANGE_SKIP)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.out_of_range = SKIP is not a gather policy; use ERROR, CLAMP or FILL");
    if (policy != SCATTER_OUT_OF_RANGE_ERROR && policy != SCATTER_OUT_OF_RANGE_CLAMP &&
        policy != SCATTER_OUT_OF_RANGE_FILL)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.out_of_range = %d is not a scatter_out_of_range", int(options->out_of_range));
    if (options->flags != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.flags = 0x%x must be 0: gather defines no flags", options->flags);
    if (op == OpKind::Nd && options->axis != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.axis = %d must be 0 for nd, whose index depth names the dimensions",
                          int(options->axis));
    if (op != OpKind::Nd && options->batch_dims != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.batch_dims = %u must be 0 for %s: only nd has batch dimensions",
                          options->batch_dims, op_name(op));
    return Status();
}

namespace {

Status check_gather_dtypes(const GatherPlan& p) {
    if (p.out.info != p.data.info)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "out.dtype = %s must equal data.dtype = %s",
                          p.out.info->name, p.data.info->name);
    if (p.out.element_size != p.data.element_size)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "out.element_size = %u must equal data.element_size = %u",
                          p.out.element_size, p.data.element_size);
    const scatter_dtype index_dtype = p.indices.dtype();
    if (index_dtype != SCATTER_DTYPE_I32 && index_dtype != SCATTER_DTYPE_I64)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "indices.dtype = %s must be i32 or i64", p.indices.info->name);
    return Status();
}

Status plan_gather_elements(GatherPlan* p, int32_t axis, const GatherNames& n) {
    const uint32_t r = p->data.rank;
    SCATTER_RETURN_IF_ERROR(normalize_axis(axis, r, &p->axis));
    SCATTER_RETURN_IF_ERROR(check_rank("indices", p->indices, r));
    SCATTER_RETURN_IF_ERROR(check_rank(n.out, p->out, r));
    SCATTER_RETURN_IF_ERROR(check_dims_equal(n.out, p->out, 0, "indices", p->indices, 0, r));
    return check_indices_within_data(p->indices, p->data, p->axis);
}

Status plan_gather_rows(GatherPlan* p, int32_t axis, const GatherNames& n) {
    const uint32_t r = p->data.rank, q = p->indices.rank;
    SCATTER_RETURN_IF_ERROR(normalize_axis(axis, r, &p->axis));
    const uint32_t a = uint32_t(p->axis);
    if (r - 1 + q > SCATTER_MAX_RANK)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s would need rank %u, more than the maximum %d",
                          n.out, r - 1 + q, SCATTER_MAX_RANK);
    SCATTER_RETURN_IF_ERROR(check_rank(n.out, p->out, r - 1 + q));
    SCATTER_RETURN_IF_ERROR(check_dims_equal(n.out, p->out, 0, n.data, p->data, 0, a));
    SCATTER_RETURN_IF_ERROR(check_dims_equal(n.out, p->out, a, "indices", p->indices, 0, q));
    return check_dims_equal(n.out, p->out, a + q, n.data, p->data, a + 1, r - a - 1);
}

Status plan_gather_nd(GatherPlan* p, uint32_t batch_dims, const GatherNames& n) {
    const uint32_t r = p->data.rank, q = p->indices.rank;
    if (q == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "indices is 0-d but nd needs indices of rank >= 1");
    if (batch_dims >= r || batch_dims >= q)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "options.batch_dims = %u must be less than %s.rank = %u and indices.rank = %u",
                          batch_dims, n.data, r, q);
    const int64_t k = p->indices.shape[q - 1];
    if (k < 1 || k > int64_t(r - batch_dims))
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                          "indices.shape[%u] = %" PRId64 " (the index depth) must be in [1, %u] for %s of rank %u "
                          "with %u batch dimension(s)",
                          q - 1, k, r - batch_dims, n.data, r, batch_dims);
    const uint32_t depth = uint32_t(k);
    SCATTER_RETURN_IF_ERROR(check_dims_equal("indices", p->indices, 0, n.data, p->data, 0, batch_dims));
    SCATTER_RETURN_IF_ERROR(check_rank(n.out, p->out, q - 1 + r - batch_dims - depth));
    SCATTER_RETURN_IF_ERROR(check_dims_equal(n.out, p->out, 0, "indices", p->indices, 0, q - 1));
    SCATTER_RETURN_IF_ERROR(
        check_dims_equal(n.out, p->out, q - 1, n.data, p->data, batch_dims + depth, r - batch_dims - depth));
    p->axis = 0;
    p->batch_dims = batch_dims;
    p->index_depth = depth;
    return Status();
}

Status check_gather_overlaps(const GatherPlan& p) {
    if (views_overlap(p.out, p.data))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "out overlaps data; gather has no in-place form, so out needs memory of its own");
    if (views_overlap(p.out, p.indices)) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out overlaps indices");
    return Status();
}

}  // namespace

Status plan_gather_shapes(GatherPlan* plan, const scatter_gather_options& options, const GatherNames& names) {
    switch (plan->op) {
        case OpKind::Elements: return plan_gather_elements(plan, options.axis, names);
        case OpKind::Rows: return plan_gather_rows(plan, options.axis, names);
        case OpKind::Nd: return plan_gather_nd(plan, options.batch_dims, names);
    }
    return make_error(SCATTER_ERROR_INTERNAL, "unknown operation");
}

Status plan_gather(const GatherRequest& request, scatter_context_t* context, GatherPlan* plan) {
    // Built in place: the caller discards the plan when this fails.
    GatherPlan& p = *plan;
    p.op = request.op;
    scatter_gather_options options;
    SCATTER_RETURN_IF_ERROR(normalize_gather_options(request.options, request.op, &options));
    p.policy = options.out_of_range;
    p.fill_value = static_cast<const char*>(options.fill_value);
    p.batch_dims = 0;
    p.index_depth = 1;

    SCATTER_RETURN_IF_ERROR(make_tensor_view("data", request.data, context, Access::Read, &p.data));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("indices", request.indices, context, Access::Read, &p.indices));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("out", request.out, context, Access::Write, &p.out));
    SCATTER_RETURN_IF_ERROR(check_gather_dtypes(p));
    if (p.data.rank == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "data is 0-d but every operation needs rank >= 1");

    SCATTER_RETURN_IF_ERROR(plan_gather_shapes(&p, options, GatherNames()));
    return check_gather_overlaps(p);
}

}  // namespace scatter
