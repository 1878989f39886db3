// `scatter devices`: every device scatter_devices() reports, with its features and limits, and
// whether a Vulkan context can be created — with the reason when not (no loader, no driver, no
// Vulkan 1.1 device with a compute queue), the same message `run --backend vulkan` gives.
#include "cli_error.h"
#include "commands.h"

#include <nlohmann/json.hpp>

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
    {SCATTER_FEATURE_SHARED_INT64_ATOMICS, "shared_int64_atomics"},
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

nlohmann::json device_json(const scatter_device_info& info) {
    nlohmann::json features = nlohmann::json::array();
    for (const FeatureName& feature : kFeatureNames)
        if (info.features & feature.bit) features.push_back(feature.name);
    nlohmann::json row = {{"backend", scatter_backend_name(info.backend)},
                          {"index", info.index},
                          {"name", info.name},
                          {"type", device_type_name(info.type)},
                          {"features", features}};
    if (info.backend == SCATTER_BACKEND_VULKAN) {
        row["api_version"] = std::to_string((info.api_version >> 22) & 0x7f) + "." +
                             std::to_string((info.api_version >> 12) & 0x3ff) + "." +
                             std::to_string(info.api_version & 0xfff);
        row["vendor_id"] = info.vendor_id;
        row["device_id"] = info.device_id;
        row["subgroup_size"] = info.thread_count;
        row["max_buffer_range"] = info.max_buffer_range;
    } else {
        row["hardware_threads"] = info.thread_count;
    }
    return row;
}

// Whether a Vulkan context can be created; the reason when not.
bool vulkan_usable(std::string* reason) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    scatter_context context = nullptr;
    scatter_status status = scatter_context_create(&desc, &context);
    if (status == SCATTER_OK) {
        scatter_context_destroy(context);
        return true;
    }
    *reason = std::string(scatter_status_name(status)) + ": " + scatter_last_error_message();
    return false;
}

}  // namespace

int devices_command(bool json) {
    uint32_t count = 0;
    check_status(scatter_devices(nullptr, &count));
    scatter_device_info blank{};
    blank.struct_size = sizeof(scatter_device_info);
    std::vector<scatter_device_info> infos(count, blank);
    check_status(scatter_devices(infos.data(), &count));
    std::string reason;
    const bool vulkan = vulkan_usable(&reason);
    for (uint32_t i = 0; i < count; ++i) {
        if (json) std::printf("%s\n", device_json(infos[i]).dump().c_str());
        else print_device(infos[i]);
    }
    if (json) {
        nlohmann::json row = {{"backend", "vulkan"}, {"available", vulkan}};
        if (!vulkan) row["reason"] = reason;
        std::printf("%s\n", row.dump().c_str());
    } else if (!vulkan) {
        std::printf("vulkan: unavailable: %s\n", reason.c_str());
    }
    return 0;
}
