#include "vulkan/vk_shared_device.h"

#include <mutex>
#include <vector>

namespace scatter {
namespace {

struct DeviceKey {
    bool validation;
    int32_t device_index;
    DeviceSwitches switches;
    bool operator==(const DeviceKey& o) const {
        return validation == o.validation && device_index == o.device_index && switches == o.switches;
    }
};

// What the process has created. Never destroyed: at exit the driver may already be unloaded
// (destroying a device from a static destructor crashed the NVIDIA driver), and the operating
// system releases everything anyway. Reachable from here, so leak checkers do not report it.
struct Registry {
    std::mutex mutex;
    std::shared_ptr<OwnedInstance> instances[2];  // [validation]
    int32_t best_index[2] = {-1, -1};             // [validation]: the device index -1 chose
    std::vector<std::pair<DeviceKey, std::shared_ptr<DeviceBundle>>> devices;
};

Registry& registry() {
    static Registry* r = new Registry;
    return *r;
}

Status instance_locked(Registry& r, bool validation, const ContextConfig* log_to, std::shared_ptr<OwnedInstance>* out) {
    std::shared_ptr<OwnedInstance>& kept = r.instances[validation ? 1 : 0];
    if (kept == nullptr) {
        std::unique_ptr<OwnedInstance> created;
        SCATTER_RETURN_IF_ERROR(create_instance(validation, log_to, &created));
        kept = std::move(created);
    }
    *out = kept;
    return Status();
}

Status make_bundle(std::unique_ptr<VulkanDevice> device, const void* cache, size_t cache_size,
                   std::shared_ptr<DeviceBundle>* out) {
    auto bundle = std::make_shared<DeviceBundle>();
    bundle->device = std::move(device);
    bundle->pipelines = std::make_unique<PipelineSet>(*bundle->device);
    SCATTER_RETURN_IF_ERROR(bundle->pipelines->init(cache, cache_size));
    *out = std::move(bundle);
    return Status();
}

}  // namespace

Status shared_instance(bool validation, const ContextConfig* log_to, std::shared_ptr<OwnedInstance>* out) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return instance_locked(r, validation, log_to, out);
}

Status shared_device(const VulkanDeviceRequest& request, const ContextConfig& config,
                     std::shared_ptr<DeviceBundle>* out) {
    const bool validation = request.validation;
    Registry& r = registry();
    // Held while creating: two contexts created at once get one device, not two.
    std::lock_guard<std::mutex> lock(r.mutex);
    std::shared_ptr<OwnedInstance> instance;
    SCATTER_RETURN_IF_ERROR(instance_locked(r, validation, &config, &instance));
    // Keyed by the device actually chosen: index -1 and the explicit index of the same GPU share
    // one VkDevice (two would cost twice the memory and threads). The choice for -1 is kept: the
    // devices do not change while the instance lives.
    int32_t& best = r.best_index[validation ? 1 : 0];
    int32_t index = request.device_index >= 0 ? request.device_index : best;
    if (index < 0) {
        std::vector<PhysicalDeviceEntry> devices;
        SCATTER_RETURN_IF_ERROR(enumerate_devices(instance->fns, instance->instance, &devices));
        SCATTER_RETURN_IF_ERROR(choose_device_index(devices, -1, &index));
        best = index;
    }
    DeviceSwitches switches;
    SCATTER_RETURN_IF_ERROR(switches_from_environment(&switches));
    const DeviceKey key{validation, index, switches};
    for (auto& entry : r.devices) {
        if (entry.first == key) {
            *out = entry.second;
            return Status();
        }
    }
    std::unique_ptr<VulkanDevice> device;
    SCATTER_RETURN_IF_ERROR(VulkanDevice::create(index, std::move(instance), switches, &device));
    std::shared_ptr<DeviceBundle> bundle;
    SCATTER_RETURN_IF_ERROR(
        make_bundle(std::move(device), request.pipeline_cache, request.pipeline_cache_size, &bundle));
    r.devices.emplace_back(key, bundle);
    *out = std::move(bundle);
    return Status();
}

Status borrowed_device(const BorrowedDevice& borrowed, const void* cache, size_t cache_size,
                       std::shared_ptr<DeviceBundle>* out) {
    std::unique_ptr<VulkanDevice> device;
    DeviceSwitches switches;
    SCATTER_RETURN_IF_ERROR(switches_from_environment(&switches));
    SCATTER_RETURN_IF_ERROR(VulkanDevice::borrow(borrowed, switches, &device));
    return make_bundle(std::move(device), cache, cache_size, out);
}

}  // namespace scatter
