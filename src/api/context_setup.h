// A context's description, checked and turned into the context's shared configuration
// (allocator, threads or job system, log callback, flags): the one place both context
// constructors (scatter_context_create and scatter_context_create_vulkan) take it from.
#pragma once

#include "core/context.h"

namespace scatter {

// INVALID_ARGUMENT for a bad struct_size, backend, device_index (< -1), flag bit or allocator;
// UNSUPPORTED for a nonzero field unknown to this version.
Status check_context_desc(const scatter_context_desc& desc);

void configure_context(const scatter_context_desc& desc, ContextConfig* config);

}  // namespace scatter
