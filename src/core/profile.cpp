#include "core/profile.h"

#include <cstdio>

namespace scatter {

void OperationProfile::add_pass(const char* name, uint64_t invocations, double time_us) {
    if (result.pass_count == SCATTER_PROFILE_MAX_PASSES) {
        scatter_profile_pass& last = result.passes[SCATTER_PROFILE_MAX_PASSES - 1];
        std::snprintf(last.name, sizeof last.name, "%s", "(later passes)");
        last.invocations += invocations;
        last.time_us += time_us;
        return;
    }
    scatter_profile_pass& pass = result.passes[result.pass_count++];
    std::snprintf(pass.name, sizeof pass.name, "%s", name);
    pass.invocations = invocations;
    pass.time_us = time_us;
}

void OperationProfile::set_route(const char* text) { std::snprintf(result.route, sizeof result.route, "%s", text); }

}  // namespace scatter
