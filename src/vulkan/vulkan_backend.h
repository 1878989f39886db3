// The Vulkan backend: how the API layer creates it and lists Vulkan devices.
#pragma once

#include "core/backend.h"
#include "core/context.h"

#include <scatter/scatter.h>

#include <memory>
#include <vector>

namespace scatter {

// Creates a backend on its own instance and device (desc.device_index, or the best type).
// BACKEND_UNAVAILABLE with the reason when there is no loader, driver or suitable device.
Status make_vulkan_backend(const scatter_context_desc& desc, ContextConfig& config, std::unique_ptr<Backend>* out);

// Appends every Vulkan device; with no Vulkan at all appends nothing and returns OK.
Status list_vulkan_devices(std::vector<scatter_device_info>* out);

}  // namespace scatter
