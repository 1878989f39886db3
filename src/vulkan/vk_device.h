// VulkanDevice: one Vulkan instance + device + compute queue and its per-device function table.
// Either created and owned by a context, or borrowed from an application (interop).
#pragma once

#include "core/context.h"
#include "vulkan/vk_functions.h"
#include "vulkan/vk_switches.h"
#include "vulkan/vk_transient.h"

#include <scatter/scatter.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace scatter {

// The SCATTER_FEATURE_* bits that take enabling at device creation (a borrowed device declares
// them in scatter_vulkan_device_desc.enabled_features).
constexpr uint64_t kEnableableFeatures = SCATTER_FEATURE_INT64 | SCATTER_FEATURE_FLOAT64 |
                                         SCATTER_FEATURE_INT64_ATOMICS | SCATTER_FEATURE_STORAGE8 |
                                         SCATTER_FEATURE_STORAGE16 | SCATTER_FEATURE_FLOAT32_ATOMIC_ADD |
                                         SCATTER_FEATURE_SHARED_INT64_ATOMICS |
                                         SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS;

// One physical device as scatter_devices reports it.
struct PhysicalDeviceEntry {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    scatter_device_info info{};
    uint32_t queue_family = 0;
    bool usable = false;  // Vulkan 1.1+ with a compute queue
    uint32_t timestamp_bits = 0;  // the compute queue family's timestampValidBits
    const char* unusable_reason = "";
};

// An instance created by libscatter (optionally with the validation layer and a messenger that
// forwards its messages to the logs of every context using it).
struct OwnedInstance {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
    VkInstance instance = VK_NULL_HANDLE;
    InstanceFunctions fns;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    uint32_t api_version = 0;  // the instance's apiVersion
    ~OwnedInstance();

    // The contexts' logs that hear the validation layer (contexts share instances).
    void add_log(const ContextConfig* config);
    void remove_log(const ContextConfig* config);
    void log_message(scatter_log_level level, const char* message);

private:
    std::mutex logs_mutex_;
    std::vector<const ContextConfig*> logs_;
};

// log_to hears a missing validation layer now; later messages go to add_log's listeners.
Status create_instance(bool validation, const ContextConfig* log_to, std::unique_ptr<OwnedInstance>* out);
Status enumerate_devices(const InstanceFunctions& fns, VkInstance instance, std::vector<PhysicalDeviceEntry>* out);
// The index of the device a context asks for: `requested`, or (-1) the best usable device type
// (discrete > integrated > virtual > CPU). BACKEND_UNAVAILABLE with the reason when there is none.
Status choose_device_index(const std::vector<PhysicalDeviceEntry>& devices, int32_t requested, int32_t* out);

// What an application hands over for interop (not owned).
struct BorrowedDevice {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint64_t enabled_features;  // SCATTER_FEATURE_* the application enabled on its device
};

class VulkanDevice {
public:
    // Creates a device on `instance`: device_index (>= 0; choose_device_index resolves -1).
    static Status create(int32_t device_index, std::shared_ptr<OwnedInstance> instance, const DeviceSwitches& switches,
                         std::unique_ptr<VulkanDevice>* out);
    // The instance this device was created on; null for a borrowed device.
    OwnedInstance* owned_instance() const { return instance_.get(); }
    // Logs the device and the optional features its shaders use (once per context).
    void log_device(const ContextConfig& config) const;
    static Status borrow(const BorrowedDevice& borrowed, const DeviceSwitches& switches,
                         std::unique_ptr<VulkanDevice>* out);
    ~VulkanDevice();

    VolkDeviceTable vk{};
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    uint64_t features = 0;            // SCATTER_FEATURE_* the shaders may use
    AlgorithmSwitches algorithms;     // all on unless a test turned some off (vk_switches.h)
    bool pipeline_stats = false;      // print compiled pipelines' statistics (vk_switches.h)
    uint64_t window_bytes = 0;        // bytes per storage-buffer window (a power of two)
    uint64_t chunk_bytes = 0;         // the largest VkBuffer of a scatter buffer (a multiple of window_bytes)
    uint64_t offset_alignment = 256;  // minStorageBufferOffsetAlignment
    uint32_t timestamp_bits = 0;      // the queue's timestampValidBits; 0: no timestamps
    uint32_t max_allocations = 4096;  // maxMemoryAllocationCount
    uint32_t loop_limit = 0;          // loop iterations per shader invocation, 0: none (vk_loop_limit.h)
    uint32_t looping_groups = 0;      // grid cap of the passes that loop over tiles, 0: none (vk_switches.h)
    uint32_t shared_memory_bytes = 16384;  // maxComputeSharedMemorySize (16 KiB: Vulkan's minimum)
    uint32_t slab_min_words = 0;           // the test switch SCATTER_VULKAN_TEST_SLAB_WORDS (vk_switches.h)
    std::string refuse_pipelines;          // the test switch SCATTER_VULKAN_TEST_REFUSE_PIPELINES (vk_switches.h)
    // The paths (1 << VulkanPath) a pipeline of which the driver refused: later calls choose
    // another (vk_path.h), so a refusal costs one failed call, never a retry per call.
    std::atomic<uint32_t> refused_paths{0};
    // Counts VkBuffers destroyed (ours, or application buffers unwrapped): a descriptor set
    // written before a destruction may name a handle value that now means another buffer.
    std::atomic<uint64_t> buffer_generation{0};
    double timestamp_period_ns = 0;   // nanoseconds per timestamp tick
    VkPhysicalDeviceMemoryProperties memory{};
    scatter_device_info info{};
    // Per-operation objects kept between operations (destroyed before the device).
    std::unique_ptr<TransientCache> transient = std::make_unique<TransientCache>(*this);

    // Index of a memory type allowed by type_bits with all `required` flags, preferring one
    // that also has `preferred`; -1 when none.
    int find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;

    // Submits one command buffer (the queue is locked while submitting).
    Status submit(VkCommandBuffer command_buffer, VkFence fence);
    // Waits for `fence`: polls it for a short while first (a blocking wait adds ~30 µs on
    // NVIDIA, more than a small operation takes), then blocks, so an idle wait never burns a core.
    Status wait_for(VkFence fence);

    // Records commands with `record` into a one-time command buffer, submits and waits.
    Status run_commands(const std::function<void(VkCommandBuffer)>& record);

private:
    std::shared_ptr<OwnedInstance> instance_;  // null when borrowed
    bool owns_device_ = false;
    std::mutex queue_mutex_;
};

// Maps a failed VkResult to a status with a message naming what was attempted.
Status vk_error(VkResult result, const char* what);

#define SCATTER_VK_CHECK(call, what)                           \
    do {                                                       \
        VkResult result_ = (call);                             \
        if (result_ != VK_SUCCESS) return ::scatter::vk_error(result_, what); \
    } while (0)

}  // namespace scatter
