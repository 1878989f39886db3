// plan_message_passing: the rules of docs/semantics.md ("Message passing") that need no index or
// element value. They are those of the gather and the rows scatter the call fuses.
#include "core/checked_math.h"
#include "core/context.h"
#include "core/message_plan.h"
#include "core/shape_checks.h"
#include "core/struct_size.h"

#include <cinttypes>

namespace scatter {
namespace {

constexpr uint32_t kKnownFlags = SCATTER_OPTION_EXCLUDE_SELF | SCATTER_OPTION_ALLOW_NONDETERMINISM;

Status check_policy(const char* field, scatter_out_of_range policy, scatter_out_of_range refused,
                    const char* allowed) {
    if (policy < SCATTER_OUT_OF_RANGE_ERROR || policy > SCATTER_OUT_OF_RANGE_FILL)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.%s = %d is not a scatter_out_of_range", field,
                          int(policy));
    if (policy == refused)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.%s = %s is not allowed; use %s", field,
                          policy == SCATTER_OUT_OF_RANGE_SKIP ? "SKIP" : "FILL", allowed);
    return Status();
}

Status normalize_message_options(const scatter_message_passing_options* options,
                                 scatter_message_passing_options* normalized) {
    scatter_message_passing_options defaults = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    if (options == nullptr) options = &defaults;
    SCATTER_RETURN_IF_ERROR(check_struct_size("options", options, options->struct_size,
                                              sizeof(scatter_message_passing_options)));
    *normalized = *options;
    scatter_message_passing_options& n = *normalized;
    if (n.reduction == SCATTER_REDUCTION_DEFAULT) n.reduction = SCATTER_REDUCTION_ADD;
    if (n.reduction < SCATTER_REDUCTION_NONE || n.reduction > SCATTER_REDUCTION_MEAN)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.reduction = %d is not a scatter_reduction",
                          int(options->reduction));
    if (n.src_out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT) n.src_out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    if (n.dst_out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT) n.dst_out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    // src is gathered (no skip: every edge has a message), dst is scattered into (no fill).
    SCATTER_RETURN_IF_ERROR(
        check_policy("src_out_of_range", n.src_out_of_range, SCATTER_OUT_OF_RANGE_SKIP, "ERROR, CLAMP or FILL"));
    SCATTER_RETURN_IF_ERROR(
        check_policy("dst_out_of_range", n.dst_out_of_range, SCATTER_OUT_OF_RANGE_FILL, "ERROR, SKIP or CLAMP"));
    if ((n.flags & ~kKnownFlags) != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "options.flags = 0x%x has unknown bits 0x%x", n.flags,
                          n.flags & ~kKnownFlags);
    return Status();
}

Status check_same_dtype(const char* name, const TensorView& v, const TensorView& data) {
    if (v.info != data.info)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "%s.dtype = %s must equal data.dtype = %s", name, v.info->name,
                          data.info->name);
    if (v.element_size != data.element_size)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "%s.element_size = %u must equal data.element_size = %u", name,
                          v.element_size, data.element_size);
    return Status();
}

Status check_index_dtype(const char* name, const TensorView& v) {
    if (v.dtype() != SCATTER_DTYPE_I32 && v.dtype() != SCATTER_DTYPE_I64)
        return make_error(SCATTER_ERROR_TYPE_MISMATCH, "%s.dtype = %s must be i32 or i64", name, v.info->name);
    return Status();
}

Status check_message_dtypes(const MessagePlan& p) {
    SCATTER_RETURN_IF_ERROR(check_same_dtype("x", p.x, p.data));
    SCATTER_RETURN_IF_ERROR(check_same_dtype("out", p.out, p.data));
    if (p.weighted) SCATTER_RETURN_IF_ERROR(check_same_dtype("weights", p.weights, p.data));
    SCATTER_RETURN_IF_ERROR(check_index_dtype("src", p.src));
    SCATTER_RETURN_IF_ERROR(check_index_dtype("dst", p.dst));
    if (!reduction_allowed(p.data.info->kind, p.reduction))
        return make_error(SCATTER_ERROR_UNSUPPORTED, "reduction %s is not defined for dtype %s",
                          reduction_name(p.reduction), p.data.info->name);
    if (p.weighted && !reduction_allowed(p.data.info->kind, SCATTER_REDUCTION_MUL))
        return make_error(SCATTER_ERROR_UNSUPPORTED, "weights need a multiply, which dtype %s does not have",
                          p.data.info->name);
    return Status();
}

Status check_edge_vector(const char* name, const TensorView& v, const TensorView& src) {
    SCATTER_RETURN_IF_ERROR(check_rank(name, v, 1));
    return check_dims_equal(name, v, 0, "src", src, 0, 1);
}

Status check_message_shapes(MessagePlan* p) {
    const uint32_t r = p->data.rank;
    if (r == 0) return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "data is 0-d but message passing needs rank >= 1");
    SCATTER_RETURN_IF_ERROR(check_rank("out", p->out, r));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("out", p->out, 0, "data", p->data, 0, r));
    SCATTER_RETURN_IF_ERROR(check_rank("x", p->x, r));
    SCATTER_RETURN_IF_ERROR(check_dims_equal("x", p->x, 1, "data", p->data, 1, r - 1));
    SCATTER_RETURN_IF_ERROR(check_rank("src", p->src, 1));
    SCATTER_RETURN_IF_ERROR(check_edge_vector("dst", p->dst, p->src));
    if (p->weighted) SCATTER_RETURN_IF_ERROR(check_edge_vector("weights", p->weights, p->src));
    p->target_rows = p->data.shape[0];
    p->source_rows = p->x.shape[0];
    p->inner = shape_product(p->data.shape, 1, r);
    p->edges = p->src.shape[0];
    return Status();
}

Status check_message_overlaps(MessagePlan* p) {
    p->in_place = same_view(p->out, p->data);
    if (!p->in_place && views_overlap(p->out, p->data))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "out overlaps data without being the same view; pass identical views to work in place");
    const TensorView* inputs[] = {&p->x, &p->src, &p->dst, &p->weights};
    const char* names[] = {"x", "src", "dst", "weights"};
    for (int i = 0; i < 4; ++i)
        if (views_overlap(p->out, *inputs[i]))
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out overlaps %s", names[i]);
    return Status();
}

}  // namespace

Status plan_message_passing(const MessageRequest& request, scatter_context_t* context, MessagePlan* plan) {
    // Built in place: the caller discards the plan when this fails.
    MessagePlan& p = *plan;
    scatter_message_passing_options options;
    SCATTER_RETURN_IF_ERROR(normalize_message_options(request.options, &options));
    p.reduction = options.reduction;
    p.src_policy = options.src_out_of_range;
    p.dst_policy = options.dst_out_of_range;
    p.fill_value = static_cast<const char*>(options.fill_value);
    p.exclude_self = (options.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0 && p.reduction != SCATTER_REDUCTION_NONE;
    p.weighted = request.weights != nullptr;

    SCATTER_RETURN_IF_ERROR(make_tensor_view("data", request.data, context, Access::Read, &p.data));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("x", request.x, context, Access::Read, &p.x));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("src", request.src, context, Access::Read, &p.src));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("dst", request.dst, context, Access::Read, &p.dst));
    if (p.weighted)
        SCATTER_RETURN_IF_ERROR(make_tensor_view("weights", request.weights, context, Access::Read, &p.weights));
    SCATTER_RETURN_IF_ERROR(make_tensor_view("out", request.out, context, Access::Write, &p.out));
    SCATTER_RETURN_IF_ERROR(check_message_dtypes(p));
    SCATTER_RETURN_IF_ERROR(check_message_shapes(&p));
    return check_message_overlaps(&p);
}

}  // namespace scatter
