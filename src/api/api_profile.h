// The per-thread last profile behind scatter_last_profile.
#pragma once

#include "core/profile.h"

struct scatter_context_t;

namespace scatter {

// Keeps `profile` as this thread's last profile, taken on `context`.
void remember_profile(const scatter_context_t& context, const OperationProfile& profile);

}  // namespace scatter
