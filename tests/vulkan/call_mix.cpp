#include "call_mix.h"

#include <dlfcn.h>

#include <atomic>
#include <vector>

namespace vulkan_test {
namespace {


// ---- the counting device table ----

std::atomic<int64_t> g_object_calls{0};
PFN_vkGetInstanceProcAddr g_real_gipa = nullptr;
PFN_vkGetDeviceProcAddr g_real_gdpa = nullptr;

template <class F>
struct Counted;
template <class R, class... A>
struct Counted<R(VKAPI_PTR*)(A...)> {
    template <R(VKAPI_PTR** real)(A...)>
    static R VKAPI_PTR call(A... a) {
        g_object_calls.fetch_add(1);
        return (*real)(a...);
    }
};

#define SCATTER_TEST_COUNTED(X)                                                                       \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkAllocateMemory) X(vkFreeMemory) X(vkCreateCommandPool)  \
    X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers) X(vkCreateFence)     \
    X(vkDestroyFence) X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) \
    X(vkFreeDescriptorSets) X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkCreateComputePipelines)   \
    X(vkDestroyPipeline) X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreatePipelineLayout)  \
    X(vkDestroyPipelineLayout) X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout)        \
    X(vkCreatePipelineCache) X(vkDestroyPipelineCache) X(vkCreateSemaphore) X(vkDestroySemaphore)    \
    X(vkCreateEvent) X(vkDestroyEvent)

#define SCATTER_TEST_REAL(name) PFN_##name real_##name = nullptr;
SCATTER_TEST_COUNTED(SCATTER_TEST_REAL)

PFN_vkVoidFunction VKAPI_PTR counting_gdpa(VkDevice device, const char* name) {
#define SCATTER_TEST_WRAP(fn)                                                                  \
    if (std::strcmp(name, #fn) == 0) {                                                         \
        real_##fn = reinterpret_cast<PFN_##fn>(g_real_gdpa(device, name));                     \
        if (real_##fn == nullptr) return nullptr;                                              \
        return reinterpret_cast<PFN_vkVoidFunction>(&Counted<PFN_##fn>::call<&real_##fn>);     \
    }
    SCATTER_TEST_COUNTED(SCATTER_TEST_WRAP)
#undef SCATTER_TEST_WRAP
    return g_real_gdpa(device, name);
}

PFN_vkVoidFunction VKAPI_PTR counting_gipa(VkInstance instance, const char* name) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&counting_gdpa);
    return g_real_gipa(instance, name);
}

}  // namespace

int64_t counted_vulkan_object_calls() { return g_object_calls.load(); }

bool Application::start() {
    void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (loader == nullptr) return false;
    g_real_gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
    auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(g_real_gipa(nullptr, "vkCreateInstance"));
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    if (create_instance(&info, nullptr, &instance) != VK_SUCCESS) return false;
    uint32_t count = 1;
    auto enumerate =
        reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(g_real_gipa(instance, "vkEnumeratePhysicalDevices"));
    if (enumerate(instance, &count, &physical) < 0 || count == 0) return false;
    auto families = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        g_real_gipa(instance, "vkGetPhysicalDeviceQueueFamilyProperties"));
    uint32_t n = 0;
    families(physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> props(n);
    families(physical, &n, props.data());
    while (family < n && !(props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    float priority = 1;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkPhysicalDeviceFeatures features{};
    features.shaderInt64 = VK_TRUE;  // lavapipe has it: the 8-byte paths run too
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.pEnabledFeatures = &features;
    auto create_device = reinterpret_cast<PFN_vkCreateDevice>(g_real_gipa(instance, "vkCreateDevice"));
    if (create_device(physical, &device_info, nullptr, &device) != VK_SUCCESS) return false;
    g_real_gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(g_real_gipa(instance, "vkGetDeviceProcAddr"));
    reinterpret_cast<PFN_vkGetDeviceQueue>(g_real_gdpa(device, "vkGetDeviceQueue"))(device, family, 0, &queue);
    return true;
}

Application::~Application() {
    if (device != VK_NULL_HANDLE)
        reinterpret_cast<PFN_vkDestroyDevice>(g_real_gdpa(device, "vkDestroyDevice"))(device, nullptr);
    if (instance != VK_NULL_HANDLE)
        reinterpret_cast<PFN_vkDestroyInstance>(g_real_gipa(instance, "vkDestroyInstance"))(instance, nullptr);
}

scatter_context context_on(const Application& app, uint32_t flags) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.flags = flags;
    scatter_vulkan_device_desc device = SCATTER_VULKAN_DEVICE_DESC_INIT;
    device.instance = app.instance;
    device.physical_device = app.physical;
    device.device = app.device;
    device.queue = app.queue;
    device.queue_family_index = app.family;
    device.get_instance_proc_addr = reinterpret_cast<scatter_vk_get_instance_proc_addr>(&counting_gipa);
    device.enabled_features = SCATTER_FEATURE_INT64;
    scatter_context ctx = nullptr;
    EXPECT_EQ(scatter_context_create_vulkan(&desc, &device, &ctx), SCATTER_OK) << scatter_last_error_message();
    return ctx;
}

scatter_tensor tensor(scatter_dtype dtype, uint32_t rank, const int64_t* shape, void* host) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.rank = rank;
    t.shape = shape;
    t.data = host;
    return t;
}

}  // namespace vulkan_test
