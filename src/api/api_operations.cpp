// The three operations, the three gathers, their backward calls and message passing: plan
// (validate) in core, then execute on the context's backend.
#include "api/api_guard.h"
#include "api/api_profile.h"
#include "core/backward_plan.h"
#include "core/context.h"
#include "core/gather_plan.h"
#include "core/message_plan.h"
#include "core/op_plan.h"
#include "core/profile.h"

using namespace scatter;

namespace {

// Plans with plan(plan*) and runs execute(plan), timing both when the context profiles.
template <class Plan, class PlanFn, class ExecuteFn>
Status plan_and_execute(scatter_context context, PlanFn&& plan_fn, ExecuteFn&& execute) {
    if ((context->config.flags & SCATTER_CONTEXT_FLAG_PROFILE) == 0) {
        Plan plan;
        SCATTER_RETURN_IF_ERROR(plan_fn(&plan));
        return execute(plan);
    }
    OperationProfile profile;
    Stopwatch total, stage;
    Plan plan;
    Status status = plan_fn(&plan);
    profile.result.validate_us = stage.lap_us();
    profile.result.backend = context->backend->kind();
    if (status.ok()) {
        plan.profile = &profile;
        status = execute(plan);
    }
    profile.result.status = status.code();
    profile.result.total_us = total.lap_us();
    remember_profile(*context, profile);
    return status;
}

scatter_status run_operation(OpKind op, scatter_context context, const scatter_tensor* data,
                             const scatter_tensor* indices, const scatter_tensor* updates,
                             const scatter_options* options, const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        const OpRequest request{op, data, indices, updates, options, out};
        return plan_and_execute<OpPlan>(
            context, [&](OpPlan* plan) { return plan_operation(request, context, plan); },
            [&](const OpPlan& plan) { return context->backend->execute(plan); });
    });
}

scatter_status run_gather(OpKind op, scatter_context context, const scatter_tensor* data,
                          const scatter_tensor* indices, const scatter_gather_options* options,
                          const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        const GatherRequest request{op, data, indices, options, out};
        return plan_and_execute<GatherPlan>(
            context, [&](GatherPlan* plan) { return plan_gather(request, context, plan); },
            [&](const GatherPlan& plan) { return context->backend->execute_gather(plan); });
    });
}

scatter_status run_backward(const BackwardRequest& request, scatter_context context) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return plan_and_execute<BackwardPlan>(
            context, [&](BackwardPlan* plan) { return plan_backward(request, context, plan); },
            [&](const BackwardPlan& plan) { return context->backend->execute_backward(plan); });
    });
}

scatter_status run_gather_backward(const GatherBackwardRequest& request, scatter_context context) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        return plan_and_execute<GatherPlan>(
            context, [&](GatherPlan* plan) { return plan_gather_backward(request, context, plan); },
            [&](const GatherPlan& plan) { return context->backend->execute_gather_backward(plan); });
    });
}

}  // namespace

extern "C" {

SCATTER_API scatter_status scatter_elements(scatter_context context, const scatter_tensor* data,
                                            const scatter_tensor* indices, const scatter_tensor* updates,
                                            const scatter_options* options, const scatter_tensor* out) {
    return run_operation(OpKind::Elements, context, data, indices, updates, options, out);
}

SCATTER_API scatter_status scatter_rows(scatter_context context, const scatter_tensor* data,
                                        const scatter_tensor* indices, const scatter_tensor* updates,
                                        const scatter_options* options, const scatter_tensor* out) {
    return run_operation(OpKind::Rows, context, data, indices, updates, options, out);
}

SCATTER_API scatter_status scatter_nd(scatter_context context, const scatter_tensor* data,
                                      const scatter_tensor* indices, const scatter_tensor* updates,
                                      const scatter_options* options, const scatter_tensor* out) {
    return run_operation(OpKind::Nd, context, data, indices, updates, options, out);
}

SCATTER_API scatter_status scatter_gather_elements(scatter_context context, const scatter_tensor* data,
                                                   const scatter_tensor* indices,
                                                   const scatter_gather_options* options,
                                                   const scatter_tensor* out) {
    return run_gather(OpKind::Elements, context, data, indices, options, out);
}

SCATTER_API scatter_status scatter_gather_rows(scatter_context context, const scatter_tensor* data,
                                               const scatter_tensor* indices,
                                               const scatter_gather_options* options,
                                               const scatter_tensor* out) {
    return run_gather(OpKind::Rows, context, data, indices, options, out);
}

SCATTER_API scatter_status scatter_message_passing(scatter_context context, const scatter_tensor* data,
                                                   const scatter_tensor* x, const scatter_tensor* src,
                                                   const scatter_tensor* dst, const scatter_tensor* weights,
                                                   const scatter_message_passing_options* options,
                                                   const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        const MessageRequest request{data, x, src, dst, weights, options, out};
        return plan_and_execute<MessagePlan>(
            context, [&](MessagePlan* plan) { return plan_message_passing(request, context, plan); },
            [&](const MessagePlan& plan) { return context->backend->execute_message_passing(plan); });
    });
}

SCATTER_API scatter_status scatter_gather_nd(scatter_context context, const scatter_tensor* data,
                                             const scatter_tensor* indices,
                                             const scatter_gather_options* options,
                                             const scatter_tensor* out) {
    return run_gather(OpKind::Nd, context, data, indices, options, out);
}

SCATTER_API scatter_status scatter_elements_backward(scatter_context context, const scatter_tensor* data,
                                                     const scatter_tensor* indices, const scatter_tensor* updates,
                                                     const scatter_tensor* out, const scatter_tensor* grad_out,
                                                     const scatter_options* options, const scatter_tensor* grad_data,
                                                     const scatter_tensor* grad_updates) {
    return run_backward({OpKind::Elements, data, indices, updates, out, grad_out, options, grad_data, grad_updates},
                        context);
}

SCATTER_API scatter_status scatter_rows_backward(scatter_context context, const scatter_tensor* data,
                                                 const scatter_tensor* indices, const scatter_tensor* updates,
                                                 const scatter_tensor* out, const scatter_tensor* grad_out,
                                                 const scatter_options* options, const scatter_tensor* grad_data,
                                                 const scatter_tensor* grad_updates) {
    return run_backward({OpKind::Rows, data, indices, updates, out, grad_out, options, grad_data, grad_updates},
                        context);
}

SCATTER_API scatter_status scatter_nd_backward(scatter_context context, const scatter_tensor* data,
                                               const scatter_tensor* indices, const scatter_tensor* updates,
                                               const scatter_tensor* out, const scatter_tensor* grad_out,
                                               const scatter_options* options, const scatter_tensor* grad_data,
                                               const scatter_tensor* grad_updates) {
    return run_backward({OpKind::Nd, data, indices, updates, out, grad_out, options, grad_data, grad_updates},
                        context);
}

SCATTER_API scatter_status scatter_gather_elements_backward(scatter_context context, const scatter_tensor* indices,
                                                            const scatter_tensor* grad_out,
                                                            const scatter_gather_options* options,
                                                            const scatter_tensor* grad_data) {
    return run_gather_backward({OpKind::Elements, indices, grad_out, options, grad_data}, context);
}

SCATTER_API scatter_status scatter_gather_rows_backward(scatter_context context, const scatter_tensor* indices,
                                                        const scatter_tensor* grad_out,
                                                        const scatter_gather_options* options,
                                                        const scatter_tensor* grad_data) {
    return run_gather_backward({OpKind::Rows, indices, grad_out, options, grad_data}, context);
}

SCATTER_API scatter_status scatter_gather_nd_backward(scatter_context context, const scatter_tensor* indices,
                                                      const scatter_tensor* grad_out,
                                                      const scatter_gather_options* options,
                                                      const scatter_tensor* grad_data) {
    return run_gather_backward({OpKind::Nd, indices, grad_out, options, grad_data}, context);
}

}  // extern "C"
