#include "vulkan/vk_functions.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#endif

#include <mutex>
#include <string>

namespace scatter {
namespace {

struct LoaderState {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
    std::string failure;
};

// Opens the platform's Vulkan loader and finds vkGetInstanceProcAddr ourselves, then hands it to
// volkInitializeCustom: volkInitialize would crash on a libvulkan.so.1 that lacks the symbol.
// The loader stays loaded for the life of the process, like any Vulkan loader.
#if defined(_WIN32)
const char* const kLoaderName = "vulkan-1.dll";
void* open_loader(std::string* why) {
    HMODULE module = LoadLibraryA(kLoaderName);
    if (module == nullptr) *why = "Windows error " + std::to_string(GetLastError());
    return reinterpret_cast<void*>(module);
}
void* find_symbol(void* module, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(module), name));
}
#else
const char* const kLoaderName = "libvulkan.so.1";
void* open_loader(std::string* why) {
    void* module = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) module = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
        const char* error = dlerror();
        *why = error ? error : "unknown";
    }
    return module;
}
void* find_symbol(void* module, const char* name) { return dlsym(module, name); }
#endif

// True in a fully static glibc program (`cc -static`): no dynamic loader ran it (AT_BASE is 0)
// and the main program names none (PT_INTERP; a program started as `ld.so ./program` has one).
// glibc's dlopen there cannot load a library that needs the shared libc, such as the Vulkan
// loader: it crashes instead of failing.
bool statically_linked() {
#if defined(__linux__) && defined(__GLIBC__)
    if (getauxval(AT_BASE) != 0) return false;
    bool has_interpreter = false;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* found) -> int {
            for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i)
                if (info->dlpi_phdr[i].p_type == PT_INTERP) *static_cast<bool*>(found) = true;
            return 1;  // the first entry is the main program
        },
        &has_interpreter);
    return !has_interpreter;
#else
    return false;
#endif
}

LoaderState find_loader() {
    LoaderState state;
    if (statically_linked()) {
        state.failure = std::string("the Vulkan loader ") + kLoaderName +
                        " cannot be loaded into a statically linked program (no dynamic loader); link the "
                        "program dynamically to use Vulkan";
        return state;
    }
    std::string why;
    void* module = open_loader(&why);
    if (module == nullptr) {
        state.failure = std::string("the Vulkan loader ") + kLoaderName + " could not be loaded: " + why;
        return state;
    }
    auto get = reinterpret_cast<PFN_vkGetInstanceProcAddr>(find_symbol(module, "vkGetInstanceProcAddr"));
    if (get == nullptr) {
        state.failure = std::string("the Vulkan loader ") + kLoaderName + " does not export vkGetInstanceProcAddr";
        return state;
    }
    volkInitializeCustom(get);
    if (vkCreateInstance == nullptr) {
        state.failure = "the Vulkan loader does not provide vkCreateInstance";
        return state;
    }
    state.get_instance_proc_addr = get;
    return state;
}

}  // namespace

Status load_vulkan_loader(PFN_vkGetInstanceProcAddr* out) {
    static const LoaderState state = find_loader();
    if (state.get_instance_proc_addr == nullptr)
        return Status(SCATTER_ERROR_BACKEND_UNAVAILABLE, state.failure);
    *out = state.get_instance_proc_addr;
    return Status();
}

Status InstanceFunctions::load(PFN_vkGetInstanceProcAddr get, VkInstance instance) {
#define SCATTER_LOAD_FUNCTION(name)                                                               \
    name = reinterpret_cast<PFN_##name>(get(instance, #name));                                    \
    if (name == nullptr)                                                                          \
        return make_error(SCATTER_ERROR_BACKEND_UNAVAILABLE, "the Vulkan instance lacks %s", #name);
    SCATTER_INSTANCE_FUNCTIONS(SCATTER_LOAD_FUNCTION)
#undef SCATTER_LOAD_FUNCTION
#define SCATTER_LOAD_OPTIONAL(name) name = reinterpret_cast<PFN_##name>(get(instance, #name));
    SCATTER_DEBUG_FUNCTIONS(SCATTER_LOAD_OPTIONAL)
#undef SCATTER_LOAD_OPTIONAL
    return Status();
}

void load_device_table(PFN_vkGetDeviceProcAddr get_device_proc_addr, VkDevice device, VolkDeviceTable* table) {
    // volkLoadDeviceTable reads volk's one vkGetDeviceProcAddr pointer; set it to this device's
    // under a lock so that contexts on different instances (or an application's loader) never
    // see each other's. Nothing else in libscatter reads volk's global pointers.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    vkGetDeviceProcAddr = get_device_proc_addr;
    volkLoadDeviceTable(table, device);
}

}  // namespace scatter
