// plan_backward: the rules of docs/semantics.md ("Backward") that need no index value. The
// forward's own shape rules decide the shapes, so a backward call accepts exactly the tensors
// its forward call accepted.
#include "core/backward_plan.h"
#include "core/context.h"
#include "core/shape_checks.h"

namespace scatter {
namespace {

// Gradients exist for the real floating dtypes only.
Status check_differentiable(const char* name, const TensorView& v) {
    if (v.info->kind == DtypeKind::Float) return Status();
    return make_error(SCATTER_ERROR_TYPE_MISMATCH,
                      "%s.dtype = %s has no gradient: the backward calls take f16, bf16, f32 or f64", name,
                      v.info->name);
}

Status check_same_dtype(const char* name, const TensorView& v, const char* ref_name, const TensorView& ref) {
    if (v.info == ref.info) return Status();
    return make_error(SCATTER_ERROR_TYPE_MISMATCH, "%s.dtype = %s must equal %s.dtype = %s", name, v.info->name,
                      ref_name, ref.info->name);
}

Status check_index_dtype(const TensorView& indices) {
    const scatter_dtype d = indices.dtype();
    if (d == SCATTER_DTYPE_I32 || d == SCATTER_DTYPE_I64) return Status();
    return make_error(SCATTER_ERROR_TYPE_MISMATCH, "indices.dtype = %s must be i32 or i64", indices.info->name);
}

// A view of data's shape and dtype (out, grad_out, grad_data).
Status check_like_data(const char* name, const TensorView& v, const TensorView& data) {
    SCATTER_RETURN_IF_ERROR(check_same_dtype(name, v, "data", data));
    SCATTER_RETURN_IF_ERROR(check_rank(name, v, data.rank));
    return check_dims_equal(name, v, 0, "data", data, 0, data.rank);
}

struct Named {
    const char* name;
    const TensorView* view;
};

// Each written view against every other view of the call.
Status check_written_overlaps(const Named* written, int written_count, const Named* all, int all_count) {
    for (int w = 0; w < written_count; ++w)
        for (int a = 0; a < all_count; ++a)
            if (all[a].view != written[w].view && views_overlap(*written[w].view, *all[a].view))
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s overlaps %s; gradients need memory of their own",
                                  written[w].name, all[a].name);
    return Status();
}

}  // namespace

bool backward_reads_out(scatter_reduction reduction) {
    return reduction == SCATTER_REDUCTION_MUL || reduction == SCATTER_REDUCTION_DIV ||
           reduction == SCATTER_REDUCTION_MAX || reduction == SCATTER_REDUCTION_MIN;
}

Status plan_backward(const BackwardRequest& request, scatter_context_t* context, BackwardPlan* plan) {
    BackwardPlan& p = *plan;
    OpPlan& f = p.forward;
    f.op = request.op;
    scatter_options options;
    SCATTER_RETURN_IF_ERROR(normalize_scatter_options(request.options, request.op, &options));
    f.reduction = options.reduction;
    f.policy = options.out_of_range;
    f.exclude_self = (options.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0 && f.reduction != SCATTER_REDUCTION_NONE;
    p.has_out = backward_reads_out(f.reduction);
    p.wants_grad_data = request.grad_data != nullptr;
    p.wants_grad_updates = request.grad_updates != nullptr;
    if (!p.wants_grad_data && !p.wants_grad_updates)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "grad_data and grad_updates are both NULL: nothing to compute");
    if (p.has_out && request.out == nullptr)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out is NULL but the backward of %s reads the forward's result",
                          reduction_name(f.reduction));

    SCATTER_RETURN_IF_ERROR(make_tensor_view("data", request.data, context, Access::Read, &f.data));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("indices", request.indices, context, Access::Read, &f.indices));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("updates", request.updates, context, Access::Read, &f.updates));
    if (p.has_out) SCATTER_RETURN_IF_ERROR(make_tensor_view("out", request.out, context, Access::Read, &f.out));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("grad_out", request.grad_out, context, Access::Read, &p.grad_out));
    if (p.wants_grad_data)
        SCATTER_RETURN_IF_ERROR(make_tensor_view("grad_data", request.grad_data, context, Access::Write, &p.grad_data));
    if (p.wants_grad_updates)
        SCATTER_RETURN_IF_ERROR(
            make_tensor_view("grad_updates", request.grad_updates, context, Access::Write, &p.grad_updates));

    SCATTER_RETURN_IF_ERROR(check_differentiable("data", f.data));
    SCATTER_RETURN_IF_ERROR(check_same_dtype("updates", f.updates, "data", f.data));
    SCATTER_RETURN_IF_ERROR(check_index_dtype(f.indices));
    if (f.data.rank == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "data is 0-d but every operation needs rank >= 1");
    if (p.has_out) SCATTER_RETURN_IF_ERROR(check_like_data("out", f.out, f.data));
    SCATTER_RETURN_IF_ERROR(check_like_data("grad_out", p.grad_out, f.data));
    if (p.wants_grad_data) SCATTER_RETURN_IF_ERROR(check_like_data("grad_data", p.grad_data, f.data));
    SCATTER_RETURN_IF_ERROR(plan_operation_shapes(&f, options.axis));
    if (p.wants_grad_updates) {
        SCATTER_RETURN_IF_ERROR(check_same_dtype("grad_updates", p.grad_updates, "data", f.data));
        SCATTER_RETURN_IF_ERROR(check_rank("grad_updates", p.grad_updates, f.updates.rank));
        SCATTER_RETURN_IF_ERROR(check_dims_equal("grad_updates", p.grad_updates, 0, "updates", f.updates, 0, f.updates.rank));
    }

    const Named all[] = {{"data", &f.data},         {"indices", &f.indices},        {"updates", &f.updates},
                         {"out", &f.out},           {"grad_out", &p.grad_out},      {"grad_data", &p.grad_data},
                         {"grad_updates", &p.grad_updates}};
    Named written[2];
    int written_count = 0;
    if (p.wants_grad_data) written[written_count++] = {"grad_data", &p.grad_data};
    if (p.wants_grad_updates) written[written_count++] = {"grad_updates", &p.grad_updates};
    return check_written_overlaps(written, written_count, all, 7);
}

Status plan_gather_backward(const GatherBackwardRequest& request, scatter_context_t* context, GatherPlan* plan) {
    GatherPlan& p = *plan;
    p.op = request.op;
    scatter_gather_options options;
    SCATTER_RETURN_IF_ERROR(normalize_gather_options(request.options, request.op, &options));
    p.policy = options.out_of_range;
    p.fill_value = nullptr;
    p.batch_dims = 0;
    p.index_depth = 1;
    SCATTER_RETURN_IF_ERROR(make_tensor_view("indices", request.indices, context, Access::Read, &p.indices));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("grad_out", request.grad_out, context, Access::Read, &p.out));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("grad_data", request.grad_data, context, Access::Write, &p.data));
    SCATTER_RETURN_IF_ERROR(check_differentiable("grad_data", p.data));
    SCATTER_RETURN_IF_ERROR(check_same_dtype("grad_out", p.out, "grad_data", p.data));
    SCATTER_RETURN_IF_ERROR(check_index_dtype(p.indices));
    if (p.data.rank == 0)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "grad_data is 0-d but every gather's data has rank >= 1");
    SCATTER_RETURN_IF_ERROR(plan_gather_shapes(&p, options, GatherNames{"grad_data", "grad_out"}));
    const Named all[] = {{"indices", &p.indices}, {"grad_out", &p.out}, {"grad_data", &p.data}};
    const Named written[] = {{"grad_data", &p.data}};
    return check_written_overlaps(written, 1, all, 3);
}

}  // namespace scatter
