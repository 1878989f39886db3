#include "api/backend_factory.h"

#include "api/auto_backend.h"

#include "cpu/cpu_backend.h"
#include "cpu/cpu_switches.h"
#include "vulkan/vulkan_entry.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace scatter {
namespace {

// AUTO uses a Vulkan device only when it is a real GPU: a CPU-type device (lavapipe) never beats
// the CPU backend. Test switch: SCATTER_TEST_AUTO_CPU_DEVICES=1 counts CPU-type devices too, so
// that per-call routing is tested on lavapipe.
bool gpu_present() {
    std::vector<scatter_device_info> devices;
    if (!list_vulkan_devices(&devices).ok()) return false;
    const char* test = std::getenv("SCATTER_TEST_AUTO_CPU_DEVICES");
    const bool any_type = test != nullptr && std::string(test) == "1";
    for (const scatter_device_info& d : devices)
        if (any_type || (d.type != SCATTER_DEVICE_TYPE_CPU && d.type != SCATTER_DEVICE_TYPE_OTHER)) return true;
    return false;
}

}  // namespace

Status create_backend(const scatter_context_desc& desc, ContextConfig& config,
                      std::unique_ptr<Backend>* out) {
    SCATTER_RETURN_IF_ERROR(check_cpu_switches());
    switch (desc.backend) {
        case SCATTER_BACKEND_CPU: *out = make_cpu_backend(config); return Status();
        case SCATTER_BACKEND_VULKAN:
            return make_vulkan_backend_on_shared_device(vulkan_device_request(desc), config, out);
        case SCATTER_BACKEND_AUTO: {
            if (gpu_present()) {
                std::unique_ptr<Backend> vulkan_backend;
                Status vulkan = make_vulkan_backend_on_shared_device(vulkan_device_request(desc), config, &vulkan_backend);
                if (vulkan.ok()) {
                    config.log_message(SCATTER_LOG_INFO,
                                       "backend AUTO uses Vulkan and the CPU: a GPU is present; each call on host "
                                       "tensors runs where it is predicted to finish first, calls on buffers on Vulkan");
                    *out = std::make_unique<AutoBackend>(make_cpu_backend(config), std::move(vulkan_backend), config);
                    return Status();
                }
                // The caller asked for whatever works: say why the GPU is not used.
                std::string why = "backend AUTO fell back to the CPU: the Vulkan GPU is unusable: " + vulkan.message();
                config.log_message(SCATTER_LOG_WARNING, why.c_str());
            } else {
                config.log_message(SCATTER_LOG_INFO, "backend AUTO chose the CPU: no Vulkan GPU (CPU-type Vulkan "
                                                     "devices such as lavapipe are never chosen; a build without "
                                                     "Vulkan lists no device)");
            }
            *out = make_cpu_backend(config);
            return Status();
        }
        default: break;
    }
    return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "desc.backend = %d is not a scatter_backend",
                      int(desc.backend));
}

Status list_devices(std::vector<scatter_device_info>* out) {
    scatter_device_info cpu{};
    cpu.struct_size = sizeof cpu;
    cpu.backend = SCATTER_BACKEND_CPU;
    cpu.index = 0;
    cpu.type = SCATTER_DEVICE_TYPE_CPU;
    std::snprintf(cpu.name, sizeof cpu.name, "CPU (libscatter threads)");
    unsigned threads = std::thread::hardware_concurrency();
    cpu.thread_count = threads == 0 ? 1 : threads;
    cpu.features = SCATTER_FEATURE_INT8 | SCATTER_FEATURE_INT16 | SCATTER_FEATURE_INT64 |
                   SCATTER_FEATURE_FLOAT16 | SCATTER_FEATURE_FLOAT64 | SCATTER_FEATURE_STORAGE8 |
                   SCATTER_FEATURE_STORAGE16;
    cpu.max_buffer_range = UINT64_MAX;
    out->push_back(cpu);
    SCATTER_RETURN_IF_ERROR(list_vulkan_devices(out));
    return Status();
}

}  // namespace scatter
