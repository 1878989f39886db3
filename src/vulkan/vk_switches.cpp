#include "vulkan/vk_switches.h"

#include <scatter/scatter.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace scatter {

bool switch_value_on(const char* value) {
    if (value == nullptr) return false;
    std::string v(value);
    for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
    return v == "1" || v == "on" || v == "yes" || v == "true";
}

namespace {

// A numeric switch: absent, or a decimal number in [low, high] (and a power of two where asked);
// anything else is INVALID_ARGUMENT naming the variable, so a typo cannot test the default.
Status read_number(const char* variable, unsigned long long low, unsigned long long high, bool power_of_two,
                   unsigned long long* out) {
    const char* text = std::getenv(variable);
    if (text == nullptr) return Status();
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || value < low || value > high ||
        (power_of_two && (value & (value - 1)) != 0))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s = \"%s\" must be a%s number in [%llu, %llu]", variable,
                          text, power_of_two ? " power-of-two" : "", low, high);
    *out = value;
    return Status();
}

}  // namespace

Status switches_from_environment(DeviceSwitches* out) {
    DeviceSwitches s;
    unsigned long long n = 0;
    SCATTER_RETURN_IF_ERROR(read_number("SCATTER_VULKAN_TEST_WINDOW_BYTES", 1ull << 12, 1ull << 30, true, &n));
    if (n != 0) s.window_cap = n;
    n = 0;
    SCATTER_RETURN_IF_ERROR(read_number("SCATTER_VULKAN_TEST_MAX_GROUPS", 1, 1ull << 20, false, &n));
    s.max_groups = uint32_t(n);
    n = 0;
    SCATTER_RETURN_IF_ERROR(read_number("SCATTER_VULKAN_TEST_SLAB_WORDS", 1, 1ull << 16, false, &n));
    s.slab_min_words = uint32_t(n);
    s.pipeline_stats = switch_value_on(std::getenv("SCATTER_VULKAN_PIPELINE_STATS"));
    if (const char* refuse = std::getenv("SCATTER_VULKAN_TEST_REFUSE_PIPELINES")) {
        // Each entry a module-name prefix ([a-z0-9_]+, or "all"), optionally "=null".
        const std::string list(refuse);
        size_t begin = 0;
        while (begin <= list.size()) {
            size_t end = list.find(',', begin);
            if (end == std::string::npos) end = list.size();
            std::string entry = list.substr(begin, end - begin);
            const size_t equals = entry.find('=');
            const bool bad_suffix = equals != std::string::npos && entry.substr(equals) != "=null";
            const std::string prefix = entry.substr(0, equals);
            bool bad_name = prefix.empty();
            for (char c : prefix) bad_name |= !(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_');
            if (bad_suffix || bad_name)
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                  "SCATTER_VULKAN_TEST_REFUSE_PIPELINES = \"%s\" must list module-name prefixes, "
                                  "each optionally followed by =null",
                                  refuse);
            begin = end + 1;
        }
        s.refuse_pipelines = list;
    }
    const char* env = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    if (env != nullptr) SCATTER_RETURN_IF_ERROR(hide_features(env, &s));
    *out = s;
    return Status();
}

Status hide_features(const char* list_text, DeviceSwitches* out) {
    DeviceSwitches& s = *out;
    const std::string list(list_text);
    uint64_t& hide = s.hidden_features;
    AlgorithmSwitches& a = s.algorithms;
    size_t begin = 0;
    while (begin <= list.size()) {
        size_t end = list.find(',', begin);
        if (end == std::string::npos) end = list.size();
        const std::string name = list.substr(begin, end - begin);
        if (name == "int64") hide |= SCATTER_FEATURE_INT64 | SCATTER_FEATURE_INT64_ATOMICS | SCATTER_FEATURE_SHARED_INT64_ATOMICS;
        else if (name == "float64") hide |= SCATTER_FEATURE_FLOAT64;
        else if (name == "int64_atomics") hide |= SCATTER_FEATURE_INT64_ATOMICS;
        else if (name == "shared_int64_atomics") hide |= SCATTER_FEATURE_SHARED_INT64_ATOMICS;
        else if (name == "storage8") hide |= SCATTER_FEATURE_STORAGE8;
        else if (name == "storage16") hide |= SCATTER_FEATURE_STORAGE16;
        else if (name == "float_atomics") hide |= SCATTER_FEATURE_FLOAT32_ATOMIC_ADD | SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX;
        else if (name == "subgroups") {
            hide |= SCATTER_FEATURE_SUBGROUPS;
            a.slab_subgroups = false;  // ballots are subgroup operations too
        }
        else if (name == "buffer_device_address") hide |= SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS;
        else if (name == "windows") a.windows = false;
        else if (name == "denorm_preserve") hide |= SCATTER_FEATURE_DENORM_PRESERVE32 | SCATTER_FEATURE_DENORM_PRESERVE64;
        else if (name == "host_visible") a.host_visible_buffers = false;
        else if (name == "target_path") a.target_path = false;
        else if (name == "slab_path") a.slab_path = false;
        else if (name == "slab_atomics") a.slab_atomics = false;
        else if (name == "cpu_caches") a.cpu_caches = false;
        else if (name == "gpu_slab_limits") a.gpu_slab_limits = false;
        else if (name == "key_sort") a.key_sort = false;
        else if (name == "apply_segments") a.apply_segments = false;
        else if (name == "large_shared_memory") a.large_shared_memory = false;
        else if (name == "large_allocations") a.large_allocations = false;
        else if (name == "atomic_path") a.atomic_path = false;
        else if (name == "one_window") a.one_window = false;
        else if (name == "float_fast_path") a.float_fast_path = false;
        else if (name == "reduction_constants") a.reduction_constants = false;
        else if (name == "ordered_sort_writes") a.ordered_sort_writes = false;
        else if (name == "mode_constants") a.mode_constants = false;
        else if (name == "slab_subgroups") a.slab_subgroups = false;
        else if (name == "subnormals") {
            a.keep_subnormals = false;
            hide |= SCATTER_FEATURE_DENORM_PRESERVE32 | SCATTER_FEATURE_DENORM_PRESERVE64;
        }
        else if (!name.empty())
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "SCATTER_VULKAN_DISABLE_FEATURES names \"%s\", which is not a switch (vk_switches.h lists them)",
                              name.c_str());
        begin = end + 1;
    }
    return Status();
}

InjectedRefusal injected_refusal(const std::string& list, const char* name) {
    const std::string module(name);
    size_t begin = 0;
    while (!list.empty() && begin <= list.size()) {
        size_t end = list.find(',', begin);
        if (end == std::string::npos) end = list.size();
        const std::string entry = list.substr(begin, end - begin);
        const size_t equals = entry.find('=');
        const std::string prefix = entry.substr(0, equals);
        if (prefix == "all" || module.compare(0, prefix.size(), prefix) == 0)
            return equals == std::string::npos ? InjectedRefusal::Error : InjectedRefusal::NullHandle;
        begin = end + 1;
    }
    return InjectedRefusal::None;
}

}  // namespace scatter
