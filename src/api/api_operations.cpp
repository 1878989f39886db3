// The three operations: plan (validate) in core, then execute on the context's backend.
#include "api/api_guard.h"
#include "api/api_profile.h"
#include "core/context.h"
#include "core/op_plan.h"
#include "core/profile.h"

using namespace scatter;

namespace {

scatter_status run_operation(OpKind op, scatter_context context, const scatter_tensor* data,
                             const scatter_tensor* indices, const scatter_tensor* updates,
                             const scatter_options* options, const scatter_tensor* out) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        const OpRequest request{op, data, indices, updates, options, out};
        if ((context->config.flags & SCATTER_CONTEXT_FLAG_PROFILE) == 0) {
            OpPlan plan;
            SCATTER_RETURN_IF_ERROR(plan_operation(request, context, &plan));
            return context->backend->execute(plan);
        }
        OperationProfile profile;
        Stopwatch total, stage;
        OpPlan plan;
        Status status = plan_operation(request, context, &plan);
        profile.result.validate_us = stage.lap_us();
        profile.result.backend = context->backend->kind();
        if (status.ok()) {
            plan.profile = &profile;
            status = context->backend->execute(plan);
        }
        profile.result.status = status.code();
        profile.result.total_us = total.lap_us();
        remember_profile(*context, profile);
        return status;
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

}  // extern "C"
