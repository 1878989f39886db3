// scatter_last_profile: each thread keeps the profile of its last profiled call.
#include "api/api_profile.h"

#include "api/api_guard.h"
#include "core/context.h"
#include "core/struct_size.h"

#include <algorithm>
#include <cstring>

namespace scatter {
namespace {

struct LastProfile {
    uint64_t context_id = 0;  // 0: none yet
    scatter_profile profile{};
};

LastProfile& last_profile() {
    static thread_local LastProfile last;
    return last;
}

}  // namespace

void remember_profile(const scatter_context_t& context, const OperationProfile& profile) {
    LastProfile& last = last_profile();
    last.context_id = context.id;
    last.profile = profile.result;
}

}  // namespace scatter

using namespace scatter;

extern "C" {

SCATTER_API scatter_status scatter_last_profile(scatter_context context, scatter_profile* out) {
    return guard([&]() -> Status {
        if (context == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL");
        if (out == nullptr) return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out is NULL");
        if (out->struct_size < sizeof(scatter_profile))
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "out->struct_size = %u is less than sizeof(scatter_profile) = %zu",
                              out->struct_size, sizeof(scatter_profile));
        if ((context->config.flags & SCATTER_CONTEXT_FLAG_PROFILE) == 0)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "profiling is off: create the context with SCATTER_CONTEXT_FLAG_PROFILE");
        const LastProfile& last = last_profile();
        if (last.context_id != context->id)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "this thread's last profiled operation did not run on this context (or there was none)");
        const uint32_t caller_size = out->struct_size;
        std::memcpy(out, &last.profile, sizeof(scatter_profile));
        out->struct_size = caller_size;  // a newer caller's trailing fields stay as they were
        return Status();
    });
}

}  // extern "C"
