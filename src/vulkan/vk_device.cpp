#include "vulkan/vk_device.h"

#include "vulkan/vk_loop_limit.h"
#include "vulkan/vk_result.h"

#include "scatter_shared.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace scatter {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

const char* result_name(VkResult r) { return vk_result_name(int32_t(r)); }

VkBool32 VKAPI_PTR forward_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* instance = static_cast<OwnedInstance*>(user);
    scatter_log_level level = SCATTER_LOG_INFO;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) level = SCATTER_LOG_ERROR;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) level = SCATTER_LOG_WARNING;
    std::string line = std::string("vulkan validation: ") + (data && data->pMessage ? data->pMessage : "");
    instance->log_message(level, line.c_str());
    return VK_FALSE;
}

bool has_layer(const char* name) {
    uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(count);
    if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
    for (const VkLayerProperties& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool has_instance_extension(const char* name) {
    uint32_t count = 0;
    if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

bool has_device_extension(const InstanceFunctions& fns, VkPhysicalDevice pd, const char* name) {
    uint32_t count = 0;
    if (fns.vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (fns.vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

scatter_device_type device_type(VkPhysicalDeviceType t) {
    switch (t) {
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return SCATTER_DEVICE_TYPE_INTEGRATED_GPU;
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return SCATTER_DEVICE_TYPE_DISCRETE_GPU;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return SCATTER_DEVICE_TYPE_VIRTUAL_GPU;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return SCATTER_DEVICE_TYPE_CPU;
        default: return SCATTER_DEVICE_TYPE_OTHER;
    }
}

// Automatic choice: discrete > integrated > virtual > CPU type > other.
int type_rank(scatter_device_type t) {
    switch (t) {
        case SCATTER_DEVICE_TYPE_DISCRETE_GPU: return 4;
        case SCATTER_DEVICE_TYPE_INTEGRATED_GPU: return 3;
        case SCATTER_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case SCATTER_DEVICE_TYPE_CPU: return 1;
        default: return 0;
    }
}

// The algorithms a device's operations use: the switches, less what measurement rules out on
// the device type. Discrete GPUs keep storage buffers in device memory the CPU cannot map: on an
// H200 the mappable kind (ReBAR) ran the same passes up to 4x slower and landed on different
// times in different processes (W4 6.4-9.0 ms against 2.4-2.6, W2 once 23 ms against 6.0;
// docs/vulkan.md), and the CPU reads it back at 7 MB/s anyway.
AlgorithmSwitches device_algorithms(const AlgorithmSwitches& switches, scatter_device_type type) {
    AlgorithmSwitches a = switches;
    if (type == SCATTER_DEVICE_TYPE_DISCRETE_GPU) a.host_visible_buffers = false;
    // A CPU device (lavapipe) has no registers to save, and compiling a pipeline per reduction
    // costs it seconds (the all-dtypes sweep: 64 s -> 207 s); it specializes only when told to
    // act as a GPU (the test switch cpu_caches).
    // Nor does it order the radix sort's writes: its caches merge scattered writes, and the
    // ordering made 2^20 keys take ~20 % longer there (~180 -> ~220 ms, noisy).
    if (type == SCATTER_DEVICE_TYPE_CPU && switches.cpu_caches) {
        a.reduction_constants = false;
        a.ordered_sort_writes = false;
    }
    return a;
}

uint64_t query_features(const InstanceFunctions& fns, VkPhysicalDevice pd, uint32_t api, uint32_t* subgroup_size) {
    uint64_t mask = 0;
    VkPhysicalDeviceFeatures core{};
    fns.vkGetPhysicalDeviceFeatures(pd, &core);
    if (core.shaderInt64) mask |= SCATTER_FEATURE_INT64;
    if (core.shaderFloat64) mask |= SCATTER_FEATURE_FLOAT64;
    if (core.shaderInt16) mask |= SCATTER_FEATURE_INT16;

    auto storage16 = vk_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
    auto v12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    auto atomic_float = vk_struct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    auto atomic_float2 = vk_struct<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
    auto features2 = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    features2.pNext = &storage16;
    void** tail = &storage16.pNext;
    if (api >= VK_API_VERSION_1_2) {
        *tail = &v12;
        tail = &v12.pNext;
    }
    bool float_ext = has_device_extension(fns, pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    bool float2_ext = has_device_extension(fns, pd, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
    if (float_ext) {
        *tail = &atomic_float;
        tail = &atomic_float.pNext;
    }
    if (float2_ext) {
        *tail = &atomic_float2;
        tail = &atomic_float2.pNext;
    }
    fns.vkGetPhysicalDeviceFeatures2(pd, &features2);
    if (storage16.storageBuffer16BitAccess) mask |= SCATTER_FEATURE_STORAGE16;
    if (api >= VK_API_VERSION_1_2) {
        if (v12.storageBuffer8BitAccess) mask |= SCATTER_FEATURE_STORAGE8;
        if (v12.shaderInt8) mask |= SCATTER_FEATURE_INT8;
        if (v12.shaderFloat16) mask |= SCATTER_FEATURE_FLOAT16;
        if (v12.shaderBufferInt64Atomics) mask |= SCATTER_FEATURE_INT64_ATOMICS;
        if (v12.shaderSharedInt64Atomics) mask |= SCATTER_FEATURE_SHARED_INT64_ATOMICS;
        if (v12.bufferDeviceAddress) mask |= SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS;
    }
    if (float_ext && atomic_float.shaderBufferFloat32AtomicAdd) mask |= SCATTER_FEATURE_FLOAT32_ATOMIC_ADD;
    if (float2_ext && atomic_float2.shaderBufferFloat32AtomicMinMax) mask |= SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX;

    auto subgroup = vk_struct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto float_controls = vk_struct<VkPhysicalDeviceFloatControlsProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
    auto properties2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    properties2.pNext = &subgroup;
    if (api >= VK_API_VERSION_1_2) subgroup.pNext = &float_controls;  // core in 1.2: no extension to enable
    fns.vkGetPhysicalDeviceProperties2(pd, &properties2);
    if (api >= VK_API_VERSION_1_2) {
        if (float_controls.shaderDenormPreserveFloat32) mask |= SCATTER_FEATURE_DENORM_PRESERVE32;
        if (float_controls.shaderDenormPreserveFloat64) mask |= SCATTER_FEATURE_DENORM_PRESERVE64;
    }
    *subgroup_size = subgroup.subgroupSize;
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (subgroup.supportedOperations & needed) == needed)
        mask |= SCATTER_FEATURE_SUBGROUPS;
    return mask;
}

// Whether compute shaders have subgroup ballots in subgroups that tile a workgroup of
// SCATTER_WORKGROUP_SIZE invocations (a power of two up to it): the slab path's ordered fold by
// subgroups (scatter.comp `_sb`) stages each subgroup's lanes at subgroup id x size + lane.
bool has_subgroup_ballots(const InstanceFunctions& fns, VkPhysicalDevice pd) {
    auto subgroup = vk_struct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto properties2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    properties2.pNext = &subgroup;
    fns.vkGetPhysicalDeviceProperties2(pd, &properties2);
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
    const uint32_t size = subgroup.subgroupSize;
    return (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (subgroup.supportedOperations & needed) == needed &&
           size != 0 && size <= SCATTER_WORKGROUP_SIZE && (size & (size - 1)) == 0;
}

uint64_t largest_power_of_two_at_most(uint64_t v) {
    uint64_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

// The storage-buffer windows (at most window_cap bytes), and the largest piece of memory a
// scatter buffer is built from (after `algorithms` and `memory` are known).
void set_buffer_limits(const InstanceFunctions& fns, uint64_t window_cap, VulkanDevice* self) {
    auto maintenance3 = vk_struct<VkPhysicalDeviceMaintenance3Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
    auto maintenance4 = vk_struct<VkPhysicalDeviceMaintenance4Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES);
    auto properties2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    properties2.pNext = &maintenance3;
    const bool has_maintenance4 = self->info.api_version >= VK_API_VERSION_1_3;  // maxBufferSize is core in 1.3
    if (has_maintenance4) maintenance3.pNext = &maintenance4;
    fns.vkGetPhysicalDeviceProperties2(self->physical, &properties2);
    const VkPhysicalDeviceLimits& limits = properties2.properties.limits;
    self->window_bytes = std::min<uint64_t>(largest_power_of_two_at_most(limits.maxStorageBufferRange), window_cap);
    self->offset_alignment = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 4);
    // One VkBuffer and its memory: at most maxMemoryAllocationSize, maxBufferSize and the largest
    // device-local heap (lavapipe: 2 GiB, 4 GiB, 2 GiB). Larger buffers are several such chunks.
    uint64_t largest = maintenance3.maxMemoryAllocationSize;
    if (has_maintenance4 && maintenance4.maxBufferSize > 0) largest = std::min<uint64_t>(largest, maintenance4.maxBufferSize);
    uint64_t heap = 0;
    for (uint32_t h = 0; h < self->memory.memoryHeapCount; ++h)
        if (self->memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap = std::max<uint64_t>(heap, self->memory.memoryHeaps[h].size);
    if (heap > 0) largest = std::min(largest, heap);
    if (!self->algorithms.large_allocations) largest = self->window_bytes;  // the test switch
    // A multiple of the window: a tensor's windows then never straddle two chunks (vk_memory.h).
    self->chunk_bytes = std::max(self->window_bytes, largest / self->window_bytes * self->window_bytes);
}

}  // namespace

Status vk_error(VkResult result, const char* what) {
    scatter_status code = SCATTER_ERROR_INTERNAL;
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
        result == VK_ERROR_TOO_MANY_OBJECTS)
        code = SCATTER_ERROR_OUT_OF_MEMORY;
    else if (result == VK_ERROR_DEVICE_LOST)
        code = SCATTER_ERROR_DEVICE_LOST;
    return make_error(code, "%s failed with %s (%d)", what, result_name(result), int(result));
}

OwnedInstance::~OwnedInstance() {
    if (messenger != VK_NULL_HANDLE && fns.vkDestroyDebugUtilsMessengerEXT != nullptr)
        fns.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    if (instance != VK_NULL_HANDLE) fns.vkDestroyInstance(instance, nullptr);
}

void OwnedInstance::add_log(const ContextConfig* config) {
    std::lock_guard<std::mutex> lock(logs_mutex_);
    logs_.push_back(config);
}

void OwnedInstance::remove_log(const ContextConfig* config) {
    std::lock_guard<std::mutex> lock(logs_mutex_);
    logs_.erase(std::remove(logs_.begin(), logs_.end(), config), logs_.end());
}

void OwnedInstance::log_message(scatter_log_level level, const char* message) {
    std::lock_guard<std::mutex> lock(logs_mutex_);
    for (const ContextConfig* config : logs_) config->log_message(level, message);
}

Status create_instance(bool validation, const ContextConfig* log_to, std::unique_ptr<OwnedInstance>* out) {
    auto owned = std::make_unique<OwnedInstance>();
    SCATTER_RETURN_IF_ERROR(load_vulkan_loader(&owned->get_instance_proc_addr));
    uint32_t loader_version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion != nullptr) vkEnumerateInstanceVersion(&loader_version);
    if (loader_version < VK_API_VERSION_1_1)
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "the Vulkan loader supports only Vulkan 1.0; 1.1 is needed");

    auto app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "libscatter";
    app.pEngineName = "libscatter";
    app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
    owned->api_version = app.apiVersion;
    std::vector<const char*> layers, extensions;
    bool debug = validation && has_layer(kValidationLayer) && has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (validation && !debug && log_to != nullptr)
        log_to->log_message(SCATTER_LOG_WARNING, "the Vulkan validation layer is not installed; running without it");
    if (debug) {
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    auto info = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    // Portability implementations (MoltenVK on Apple) are listed only when the instance asks.
    if (has_instance_extension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    info.pApplicationInfo = &app;
    info.enabledLayerCount = uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkResult r = vkCreateInstance(&info, nullptr, &owned->instance);
    if (r != VK_SUCCESS) {
        owned->instance = VK_NULL_HANDLE;
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE,
                          "no Vulkan driver is usable: vkCreateInstance failed with %s (%d)", result_name(r), int(r));
    }
    SCATTER_RETURN_IF_ERROR(owned->fns.load(owned->get_instance_proc_addr, owned->instance));
    if (debug && owned->fns.vkCreateDebugUtilsMessengerEXT != nullptr) {
        auto m = vk_struct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
        m.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        m.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        m.pfnUserCallback = forward_debug_message;
        m.pUserData = owned.get();
        SCATTER_VK_CHECK(owned->fns.vkCreateDebugUtilsMessengerEXT(owned->instance, &m, nullptr, &owned->messenger),
                         "vkCreateDebugUtilsMessengerEXT");
    }
    *out = std::move(owned);
    return Status();
}

Status enumerate_devices(const InstanceFunctions& fns, VkInstance instance, std::vector<PhysicalDeviceEntry>* out) {
    uint32_t count = 0;
    SCATTER_VK_CHECK(fns.vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> handles(count);
    SCATTER_VK_CHECK(fns.vkEnumeratePhysicalDevices(instance, &count, handles.data()), "vkEnumeratePhysicalDevices");
    handles.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
        PhysicalDeviceEntry e;
        e.handle = handles[i];
        VkPhysicalDeviceProperties p{};
        fns.vkGetPhysicalDeviceProperties(e.handle, &p);
        scatter_device_info& d = e.info;
        d.struct_size = sizeof d;
        d.backend = SCATTER_BACKEND_VULKAN;
        d.index = i;
        d.type = device_type(p.deviceType);
        std::snprintf(d.name, sizeof d.name, "%s", p.deviceName);
        d.vendor_id = p.vendorID;
        d.device_id = p.deviceID;
        d.api_version = p.apiVersion;
        d.max_buffer_range = p.limits.maxStorageBufferRange;
        if (p.apiVersion < VK_API_VERSION_1_1) {
            e.unusable_reason = "it supports only Vulkan 1.0";
        } else {
            d.features = query_features(fns, e.handle, p.apiVersion, &d.thread_count);
            uint32_t families = 0;
            fns.vkGetPhysicalDeviceQueueFamilyProperties(e.handle, &families, nullptr);
            std::vector<VkQueueFamilyProperties> props(families);
            fns.vkGetPhysicalDeviceQueueFamilyProperties(e.handle, &families, props.data());
            e.unusable_reason = "it has no compute queue";
            for (uint32_t f = 0; f < families; ++f) {
                if (props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                    e.queue_family = f;
                    e.timestamp_bits = props[f].timestampValidBits;
                    e.usable = true;
                    e.unusable_reason = "";
                    break;
                }
            }
        }
        out->push_back(e);
    }
    return Status();
}

Status choose_device_index(const std::vector<PhysicalDeviceEntry>& devices, int32_t requested, int32_t* out) {
    if (devices.empty()) return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "the Vulkan driver reports no device");
    if (requested >= 0) {
        if (uint32_t(requested) >= devices.size())
            return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "desc.device_index = %d but there are %zu Vulkan devices",
                              int(requested), devices.size());
        const PhysicalDeviceEntry& e = devices[size_t(requested)];
        if (!e.usable)
            return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "Vulkan device %d (%s) is unusable: %s",
                              int(requested), e.info.name, e.unusable_reason);
        *out = requested;
        return Status();
    }
    int32_t best = -1;
    for (size_t i = 0; i < devices.size(); ++i)
        if (devices[i].usable && (best < 0 || type_rank(devices[i].info.type) > type_rank(devices[size_t(best)].info.type)))
            best = int32_t(i);
    if (best < 0)
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "no Vulkan device supports Vulkan 1.1 with a compute queue");
    *out = best;
    return Status();
}

Status VulkanDevice::create(int32_t device_index, std::shared_ptr<OwnedInstance> instance, const DeviceSwitches& switches,
                            std::unique_ptr<VulkanDevice>* out) {
    auto self = std::unique_ptr<VulkanDevice>(new VulkanDevice());
    self->instance_ = std::move(instance);
    const InstanceFunctions& fns = self->instance_->fns;
    std::vector<PhysicalDeviceEntry> devices;
    SCATTER_RETURN_IF_ERROR(enumerate_devices(fns, self->instance_->instance, &devices));
    if (devices.empty())
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "the Vulkan driver reports no device");
    int32_t index = 0;
    SCATTER_RETURN_IF_ERROR(choose_device_index(devices, device_index, &index));
    const PhysicalDeviceEntry* chosen = &devices[size_t(index)];

    uint64_t usable = chosen->info.features & ~switches.hidden_features;
    VkPhysicalDeviceFeatures enable{};
    enable.shaderInt64 = (usable & SCATTER_FEATURE_INT64) ? VK_TRUE : VK_FALSE;
    enable.shaderFloat64 = (usable & SCATTER_FEATURE_FLOAT64) ? VK_TRUE : VK_FALSE;
    float priority = 1.0f;
    auto queue_info = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    queue_info.queueFamilyIndex = chosen->queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    auto device_info = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    std::vector<const char*> extensions;
    // A device that exposes VK_KHR_portability_subset (MoltenVK) must have it enabled.
    if (has_device_extension(fns, chosen->handle, "VK_KHR_portability_subset"))
        extensions.push_back("VK_KHR_portability_subset");
    // Optional features the shaders use where present, through the VkPhysicalDeviceFeatures2
    // chain: 16-bit storage (core 1.1); 8-bit storage and 64-bit buffer atomics (Vulkan 1.2
    // features, reported only when the instance and the device both speak 1.2); float atomic add
    // (VK_EXT_shader_atomic_float).
    auto enable2 = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    auto enable16 = vk_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
    auto enable12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    auto enable_float_atomics = vk_struct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    enable2.features = enable;
    enable2.pNext = &enable16;
    enable16.storageBuffer16BitAccess = (usable & SCATTER_FEATURE_STORAGE16) ? VK_TRUE : VK_FALSE;
    void** tail = &enable16.pNext;
    if (self->instance_->api_version >= VK_API_VERSION_1_2) {
        const uint64_t wide_atomics = SCATTER_FEATURE_INT64 | SCATTER_FEATURE_INT64_ATOMICS;
        enable12.shaderBufferInt64Atomics = (usable & wide_atomics) == wide_atomics ? VK_TRUE : VK_FALSE;
        const uint64_t shared_wide_atomics = SCATTER_FEATURE_INT64 | SCATTER_FEATURE_SHARED_INT64_ATOMICS;
        enable12.shaderSharedInt64Atomics = (usable & shared_wide_atomics) == shared_wide_atomics ? VK_TRUE : VK_FALSE;
        enable12.storageBuffer8BitAccess = (usable & SCATTER_FEATURE_STORAGE8) ? VK_TRUE : VK_FALSE;
        // Tensors larger than the binding windows reach the shaders by address (the `_ad` modules).
        enable12.bufferDeviceAddress = (usable & SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS) ? VK_TRUE : VK_FALSE;
        *tail = &enable12;
        tail = &enable12.pNext;
    } else {
        usable &= ~(SCATTER_FEATURE_INT64_ATOMICS | SCATTER_FEATURE_SHARED_INT64_ATOMICS | SCATTER_FEATURE_STORAGE8 |
                    SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS);
    }
    if (usable & SCATTER_FEATURE_FLOAT32_ATOMIC_ADD) {
        extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
        enable_float_atomics.shaderBufferFloat32AtomicAdd = VK_TRUE;
        *tail = &enable_float_atomics;
        tail = &enable_float_atomics.pNext;
    }
    // The diagnostic of GPU sessions (vk_switches.h): compiled pipelines' statistics on stderr.
    auto enable_stats = vk_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    const bool pipeline_stats = switches.pipeline_stats &&
                                has_device_extension(fns, chosen->handle, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (pipeline_stats) {
        extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        enable_stats.pipelineExecutableInfo = VK_TRUE;
        *tail = &enable_stats;
        tail = &enable_stats.pNext;
    } else if (switches.pipeline_stats) {
        std::fprintf(stderr, "scatter: %s has no %s: no pipeline statistics\n", chosen->info.name,
                     VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
    device_info.pNext = &enable2;
    device_info.pEnabledFeatures = nullptr;
    device_info.enabledExtensionCount = uint32_t(extensions.size());
    device_info.ppEnabledExtensionNames = extensions.data();
    SCATTER_VK_CHECK(fns.vkCreateDevice(chosen->handle, &device_info, nullptr, &self->device), "vkCreateDevice");
    self->owns_device_ = true;

    BorrowedDevice handles{self->instance_->get_instance_proc_addr, self->instance_->instance, chosen->handle,
                           self->device, VK_NULL_HANDLE, chosen->queue_family,
                           usable & kEnableableFeatures};
    load_device_table(fns.vkGetDeviceProcAddr, self->device, &self->vk);
    self->vk.vkGetDeviceQueue(self->device, chosen->queue_family, 0, &handles.queue);
    // A device that cannot run commands (RADV_FORCE_FAMILY's "Null hardware": it compiles
    // pipelines, and fails at the first fence) is refused here, so AUTO takes the CPU and a
    // Vulkan request fails clearly, instead of the first call failing as INTERNAL.
    auto fence_info = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    VkFence probe = VK_NULL_HANDLE;
    const VkResult probed = self->vk.vkCreateFence(self->device, &fence_info, nullptr, &probe);
    if (probed == VK_SUCCESS) self->vk.vkDestroyFence(self->device, probe, nullptr);
    else if (probed == VK_ERROR_OUT_OF_HOST_MEMORY || probed == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return vk_error(probed, "vkCreateFence");
    else
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE,
                          "the Vulkan device %s cannot run commands (vkCreateFence returned %s): a device without "
                          "hardware, such as RADV_FORCE_FAMILY's, only compiles",
                          chosen->info.name, vk_result_name(probed));
    self->queue = handles.queue;
    self->physical = chosen->handle;
    self->queue_family = chosen->queue_family;
    self->info = chosen->info;
    fns.vkGetPhysicalDeviceMemoryProperties(self->physical, &self->memory);
    VkPhysicalDeviceProperties p{};
    fns.vkGetPhysicalDeviceProperties(self->physical, &p);
    self->timestamp_bits = chosen->timestamp_bits;
    self->timestamp_period_ns = p.limits.timestampPeriod;
    self->max_allocations = p.limits.maxMemoryAllocationCount;
    self->loop_limit = shader_loop_limit(self->info);
    self->looping_groups = switches.max_groups != 0 ? switches.max_groups : self->loop_limit != 0 ? 0 : kLoopingGroups;
    self->shared_memory_bytes = p.limits.maxComputeSharedMemorySize;
    self->features = handles.enabled_features | (usable & SCATTER_FEATURE_SUBGROUPS);
    // Float controls are core in Vulkan 1.2: usable when the instance asked for 1.2 too.
    if (self->instance_->api_version >= VK_API_VERSION_1_2)
        self->features |= usable & (SCATTER_FEATURE_DENORM_PRESERVE32 | SCATTER_FEATURE_DENORM_PRESERVE64);
    self->algorithms = device_algorithms(switches.algorithms, self->info.type);
    if (!has_subgroup_ballots(fns, self->physical)) self->algorithms.slab_subgroups = false;
    self->pipeline_stats = pipeline_stats;
    set_buffer_limits(fns, switches.window_cap, self.get());
    if (!self->algorithms.large_shared_memory)  // the test switch: a device with Vulkan's minimum
        self->shared_memory_bytes = std::min<uint32_t>(self->shared_memory_bytes, 16384);
    self->slab_min_words = switches.slab_min_words;
    self->refuse_pipelines = switches.refuse_pipelines;
    *out = std::move(self);
    return Status();
}

void VulkanDevice::log_device(const ContextConfig& config) const {
    // The optional features the shaders will use on this device (vk_operation.cpp picks variants).
    static const struct { uint64_t bit; const char* name; } kUsed[] = {
        {SCATTER_FEATURE_INT64, "int64"}, {SCATTER_FEATURE_FLOAT64, "float64"},
        {SCATTER_FEATURE_INT64_ATOMICS, "int64_atomics"}, {SCATTER_FEATURE_SHARED_INT64_ATOMICS, "shared_int64_atomics"},
        {SCATTER_FEATURE_STORAGE8, "storage8"},
        {SCATTER_FEATURE_STORAGE16, "storage16"}, {SCATTER_FEATURE_FLOAT32_ATOMIC_ADD, "float32_atomic_add"},
        {SCATTER_FEATURE_SUBGROUPS, "subgroups"}, {SCATTER_FEATURE_DENORM_PRESERVE32, "denorm_preserve32"},
        {SCATTER_FEATURE_DENORM_PRESERVE64, "denorm_preserve64"},
        {SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS, "buffer_device_address"}};
    std::string used;
    for (const auto& f : kUsed)
        if (features & f.bit) used += std::string(used.empty() ? "" : " ") + f.name;
    char line[600];
    std::snprintf(line, sizeof line, "Vulkan device %u: %s (Vulkan %u.%u; features in use: %s)", info.index,
                  info.name, VK_API_VERSION_MAJOR(info.api_version), VK_API_VERSION_MINOR(info.api_version),
                  used.empty() ? "none" : used.c_str());
    config.log_message(SCATTER_LOG_INFO, line);
}

Status VulkanDevice::borrow(const BorrowedDevice& b, const DeviceSwitches& switches, std::unique_ptr<VulkanDevice>* out) {
    auto self = std::unique_ptr<VulkanDevice>(new VulkanDevice());
    InstanceFunctions fns;
    SCATTER_RETURN_IF_ERROR(fns.load(b.get_instance_proc_addr, b.instance));
    std::vector<PhysicalDeviceEntry> devices;
    SCATTER_RETURN_IF_ERROR(enumerate_devices(fns, b.instance, &devices));
    const PhysicalDeviceEntry* entry = nullptr;
    for (const PhysicalDeviceEntry& e : devices)
        if (e.handle == b.physical_device) entry = &e;
    if (entry == nullptr)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the physical device does not belong to the instance");
    if (!entry->usable)
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "the application's Vulkan device is unusable: %s",
                          entry->unusable_reason);
    self->device = b.device;
    self->physical = b.physical_device;
    self->queue = b.queue;
    self->queue_family = b.queue_family;
    self->info = entry->info;
    load_device_table(fns.vkGetDeviceProcAddr, self->device, &self->vk);
    fns.vkGetPhysicalDeviceMemoryProperties(self->physical, &self->memory);
    VkPhysicalDeviceProperties p{};
    fns.vkGetPhysicalDeviceProperties(self->physical, &p);
    uint32_t families = 0;
    fns.vkGetPhysicalDeviceQueueFamilyProperties(self->physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> family_props(families);
    fns.vkGetPhysicalDeviceQueueFamilyProperties(self->physical, &families, family_props.data());
    self->timestamp_bits = b.queue_family < families ? family_props[b.queue_family].timestampValidBits : 0;
    self->timestamp_period_ns = p.limits.timestampPeriod;
    self->max_allocations = p.limits.maxMemoryAllocationCount;
    self->loop_limit = shader_loop_limit(self->info);
    self->shared_memory_bytes = p.limits.maxComputeSharedMemorySize;
    uint64_t usable = entry->info.features & ~switches.hidden_features;
    self->looping_groups = switches.max_groups != 0 ? switches.max_groups : self->loop_limit != 0 ? 0 : kLoopingGroups;
    self->features = b.enabled_features & usable & kEnableableFeatures;
    self->features |= usable & SCATTER_FEATURE_SUBGROUPS;  // properties: nothing to enable
    // Declared but unreachable (a Vulkan 1.1 device without VK_KHR_buffer_device_address's
    // entry point): tensors keep their windows rather than call a null function.
    if (self->vk.vkGetBufferDeviceAddress == nullptr) self->features &= ~SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS;
    self->algorithms = device_algorithms(switches.algorithms, self->info.type);
    if (!has_subgroup_ballots(fns, self->physical)) self->algorithms.slab_subgroups = false;
    set_buffer_limits(fns, switches.window_cap, self.get());
    if (!self->algorithms.large_shared_memory)  // the test switch: a device with Vulkan's minimum
        self->shared_memory_bytes = std::min<uint32_t>(self->shared_memory_bytes, 16384);
    self->slab_min_words = switches.slab_min_words;
    self->refuse_pipelines = switches.refuse_pipelines;
    *out = std::move(self);
    return Status();
}

VulkanDevice::~VulkanDevice() {
    // (No queue yet: refused at creation, nothing ever submitted; a device without hardware
    // crashes in vkDeviceWaitIdle.)
    if (owns_device_ && device != VK_NULL_HANDLE && queue != VK_NULL_HANDLE) vk.vkDeviceWaitIdle(device);
    if (device != VK_NULL_HANDLE) transient.reset();  // nothing of ours is in flight any more
    if (owns_device_ && device != VK_NULL_HANDLE) vk.vkDestroyDevice(device, nullptr);
}

int VulkanDevice::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred) const {
    int fallback = -1;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if (!(type_bits & (1u << i))) continue;
        VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return int(i);
        if (fallback < 0) fallback = int(i);
    }
    return fallback;
}

Status VulkanDevice::submit(VkCommandBuffer command_buffer, VkFence fence) {
    if (queue == VK_NULL_HANDLE)
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "this context was created on an application device without a queue; only "
                          "scatter_record_vulkan can run operations on it");
    auto submit = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffer;
    std::lock_guard<std::mutex> lock(queue_mutex_);  // VkQueue needs external synchronization
    SCATTER_VK_CHECK(vk.vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    return Status();
}

Status VulkanDevice::wait_for(VkFence fence) {
    // Long enough for a small operation on a GPU (~20 µs), short against a large one.
    constexpr auto kPollFor = std::chrono::microseconds(200);
    const auto until = std::chrono::steady_clock::now() + kPollFor;
    for (;;) {
        VkResult r = vk.vkGetFenceStatus(device, fence);
        if (r == VK_SUCCESS) return Status();
        if (r != VK_NOT_READY) return vk_error(r, "vkGetFenceStatus");
        if (std::chrono::steady_clock::now() >= until) break;
        std::this_thread::yield();  // a software driver (lavapipe) may need this core
    }
    SCATTER_VK_CHECK(vk.vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    return Status();
}

Status VulkanDevice::run_commands(const std::function<void(VkCommandBuffer)>& record) {
    TransientCache::CommandSlot slot;
    SCATTER_RETURN_IF_ERROR(transient->take_command_slot(&slot));
    auto begin = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult r = vk.vkBeginCommandBuffer(slot.cmd, &begin);
    if (r == VK_SUCCESS) {
        record(slot.cmd);
        r = vk.vkEndCommandBuffer(slot.cmd);
    }
    Status status = r == VK_SUCCESS ? submit(slot.cmd, slot.fence) : vk_error(r, "recording a command buffer");
    bool submitted = status.ok();
    if (submitted) status = wait_for(slot.fence);
    // A slot whose fence may still be pending (a failed wait) is not reused.
    transient->give_command_slot(slot, !submitted || status.ok());
    return status;
}

}  // namespace scatter
