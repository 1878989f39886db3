// Fills a context's shared configuration (allocator, threads or job system, log callback,
// flags) from its description: the one place both context constructors (scatter_context_create
// and scatter_context_create_vulkan) take it from.
#pragma once

#include "core/context.h"

namespace scatter {

void configure_context(const scatter_context_desc& desc, ContextConfig* config);

}  // namespace scatter
