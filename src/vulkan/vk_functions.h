// Vulkan entry points without global state: the process's loader (found once by dlopen), and a
// per-instance table of the instance-level functions libscatter calls. Device-level functions
// live in a per-device VolkDeviceTable (see vk_device.h).
#pragma once

#include "core/status.h"

#include <volk.h>

namespace scatter {

// A zeroed Vulkan structure with its sType set.
template <class T>
T vk_struct(VkStructureType type) {
    T value{};
    value.sType = type;
    return value;
}

// Finds the Vulkan loader (libvulkan.so.1) and its vkGetInstanceProcAddr on first use. Fails with
// BACKEND_UNAVAILABLE and the reason when there is none. Thread-safe.
Status load_vulkan_loader(PFN_vkGetInstanceProcAddr* out);

#define SCATTER_INSTANCE_FUNCTIONS(X)          \
    X(vkDestroyInstance)                       \
    X(vkEnumeratePhysicalDevices)              \
    X(vkGetPhysicalDeviceProperties)           \
    X(vkGetPhysicalDeviceProperties2)          \
    X(vkGetPhysicalDeviceFeatures)             \
    X(vkGetPhysicalDeviceFeatures2)            \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties)     \
    X(vkEnumerateDeviceExtensionProperties)    \
    X(vkCreateDevice)                          \
    X(vkGetDeviceProcAddr)

#define SCATTER_DEBUG_FUNCTIONS(X)             \
    X(vkCreateDebugUtilsMessengerEXT)          \
    X(vkDestroyDebugUtilsMessengerEXT)

struct InstanceFunctions {
#define SCATTER_DECLARE_FUNCTION(name) PFN_##name name = nullptr;
    SCATTER_INSTANCE_FUNCTIONS(SCATTER_DECLARE_FUNCTION)
    SCATTER_DEBUG_FUNCTIONS(SCATTER_DECLARE_FUNCTION)
#undef SCATTER_DECLARE_FUNCTION

    // Loads every function through `get` for `instance`; fails when a core one is missing.
    Status load(PFN_vkGetInstanceProcAddr get, VkInstance instance);
};

// Fills `table` with the device-level functions of `device`, obtained through
// `get_device_proc_addr`. Thread-safe.
void load_device_table(PFN_vkGetDeviceProcAddr get_device_proc_addr, VkDevice device, VolkDeviceTable* table);

}  // namespace scatter
