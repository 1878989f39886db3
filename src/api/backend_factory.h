// Creates the backend a context asks for and lists devices. The one place that knows every
// backend (core knows none of them).
#pragma once

#include "core/backend.h"
#include "core/context.h"

#include <memory>
#include <vector>

namespace scatter {

Status create_backend(const scatter_context_desc& desc, ContextConfig& config,
                      std::unique_ptr<Backend>* out);

// Appends the CPU device, then every Vulkan device (none when Vulkan is unavailable).
Status list_devices(std::vector<scatter_device_info>* out);

}  // namespace scatter
