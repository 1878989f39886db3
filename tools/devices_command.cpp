// `scatter devices`: every device scatter_devices() reports, with its features and limits.
#include "cli_error.h"
#include "commands.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct FeatureName {
    uint64_t bit;
    const char* name;
};

constexpr FeatureName kFeatureNames[] = {
    {SCATTER_FEATURE_INT8, "int8"},
    {SCATTER_FEATURE_INT16, "int16"},
    {SCATTER_FEATURE_INT64, "int64"},
    {SCATTER_FEATURE_FLOAT16, "float16"},
    {SCATTER_FEATURE_FLOAT64, "float64"},
    {SCATTER_FEATURE_STORAGE8, "storage8"},
    {SCATTER_FEATURE_STORAGE16, "storage16"},
    {SCATTER_FEATURE_INT64_ATOMICS, "int64_atomics"},
    {SCATTER_FEATURE_FLOAT32_ATOMIC_ADD, "float32_atomic_add"},
    {SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX, "float32_atomic_minmax"},
    {SCATTER_FEATURE_SUBGROUPS, "subgroups"},
    {SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS, "buffer_device_address"},
    {SCATTER_FEATURE_DENORM_PRESERVE32, "denorm_preserve32"},
    {SCATTER_FEATURE_DENORM_PRESERVE64, "denorm_preserve64"},
};

const char* device_type_name(scatter_device_type type) {
    switch (type) {
    case SCATTER_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case SCATTER_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case SCATTER_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case SCATTER_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

std::string feature_list(uint64_t features) {
    std::string names;
    for (const FeatureName& feature : kFeatureNames) {
        if (features & feature.bit) names += std::string(names.empty() ? "" : " ") + feature.name;
        features &= ~feature.bit;
    }
    if (features != 0) {
        char unknown[32];
        std::snprintf(unknown, sizeof unknown, "0x%" PRIx64, features);
        names += std::string(names.empty() ? "" : " ") + unknown;
    }
    return names.empty() ? "(none)" : names;
}

void print_device(const scatter_device_info& info) {
    std::printf("%s %u: %s (%s)\n", scatter_backend_name(info.backend), info.index, info.name,
                device_type_name(info.type));
    if (info.backend == SCATTER_BACKEND_VULKAN) {
        std::printf("  vulkan api: %u.%u.%u, vendor 0x%04x, device 0x%04x\n", (info.api_version >> 22) & 0x7f,
                    (info.api_version >> 12) & 0x3ff, info.api_version & 0xfff, info.vendor_id,
                    info.device_id);
        std::printf("  subgroup size: %u\n", info.thread_count);
    } else {
        std::printf("  hardware threads: %u\n", info.thread_count);
    }
    std::printf("  features: %s\n", feature_list(info.features).c_str());
    if (info.max_buffer_range == UINT64_MAX)
        std::printf("  max buffer range: unlimited\n");
    else
        std::printf("  max buffer range: %" PRIu64 " bytes\n", info.max_buffer_range);
}

}  // namespace

int devices_command() {
    uint32_t count = 0;
    check_status(scatter_devices(nullptr, &count));
    scatter_device_info blank{};
    blank.struct_size = sizeof(scatter_device_info);
    std::vector<scatter_device_info> infos(count, blank);
    check_status(scatter_devices(infos.data(), &count));
    for (uint32_t i = 0; i < count; ++i) print_device(infos[i]);
    return 0;
}
