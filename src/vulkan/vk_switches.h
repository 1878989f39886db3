// Which device features and algorithms a device's operations use. In production everything the
// device offers (less what device_algorithms in vk_device.cpp rules out for its type); the test
// switch SCATTER_VULKAN_DISABLE_FEATURES hides some, so that fallback paths run (and are tested)
// on a device such as lavapipe that has them all:
//   int64, float64, int64_atomics, shared_int64_atomics, storage8, storage16, float_atomics,
//     subgroups, denorm_preserve, buffer_device_address hide those SCATTER_FEATURE_* bits;
//   host_visible, target_path, slab_path, slab_atomics, key_sort, apply_segments, atomic_path,
//     one_window, float_fast_path, reduction_constants, ordered_sort_writes, mode_constants,
//     slab_subgroups turn off the algorithm of that name (AlgorithmSwitches below);
//   windows makes every call reach its tensors by buffer device address (the `_ad` modules), as
//     calls whose tensors the binding windows cannot hold do, where the device has addresses;
//   large_shared_memory limits shared memory to 16 KiB;
//   large_allocations builds scatter buffers of chunks one window in size (128 MiB on lavapipe)
//     instead of the largest the device allows;
//   cpu_caches makes a CPU device (lavapipe) choose paths as a GPU, whose memory moves in sectors,
//     specialize pipelines per reduction and order the radix sort's writes as a GPU does;
//   gpu_slab_limits lets the slab path take on a GPU every call it fits, not only those it
//     measured faster at (vk_path.cpp);
//   subnormals makes the float shaders act as on a device that flushes subnormals (and hides
//     denorm_preserve).
// Unknown names are refused (INVALID_ARGUMENT at context creation). The one place the variables
// are read is switches_from_environment().
#pragma once

#include "core/status.h"

#include <cstdint>
#include <string>

namespace scatter {

struct AlgorithmSwitches {
    bool host_visible_buffers = true;  // buffers the CPU maps directly where memory allows
                                       // (never on a discrete GPU: vk_device.cpp)
    bool target_path = true;           // the target-parallel algorithm (sort by target)
    bool slab_path = true;             // elements, a tile of fibers per workgroup (vk_path.h)
    bool slab_atomics = true;          // slab path: order-free reductions by shared-memory atomics
    bool key_sort = true;              // target path: items radix-sorted by key (else buckets)
    bool apply_segments = true;        // in place: `none` and the key sort's fold per item (vk_path.h)
    bool large_shared_memory = true;   // shared memory beyond Vulkan's minimum of 16 KiB
    bool large_allocations = true;     // buffer chunks beyond one window (vk_memory.h)
    bool atomic_path = true;           // order-free reductions through atomics (atomic.comp)
    bool one_window = true;            // pipelines specialized for tensors within one window
    bool windows = true;               // tensors through binding windows where 4 hold them (else
                                       // by buffer device address, where the device has it)
    bool keep_subnormals = true;       // float shaders trust the hardware to keep subnormals
    bool float_fast_path = true;       // f32 mul may use the hardware multiply where exact, f32 div
                                       // its quotient as an estimate (exact_divide.glsl)
    bool cpu_caches = true;            // a CPU device's paths may rely on its caches (vk_path.h)
    bool gpu_slab_limits = true;       // on a GPU, the slab path only where it measured faster
    bool reduction_constants = true;   // Scatter/Atomic pipelines specialized for the call's reduction
                                       // (never on a CPU device that keeps cpu_caches: vk_device.cpp)
    bool ordered_sort_writes = true;   // radix sort: a tile's keys put in digit order in shared memory
                                       // before they are written (radix_sort.comp; same exception)
    bool mode_constants = true;        // Scatter pipelines specialized for the one pass they run
    bool slab_subgroups = true;        // slab path: the ordered fold by subgroups, not workgroup
                                       // chunks (where the device has ballots: vk_device.cpp)

    bool operator==(const AlgorithmSwitches& o) const {
        return host_visible_buffers == o.host_visible_buffers && target_path == o.target_path &&
               slab_path == o.slab_path && slab_atomics == o.slab_atomics && key_sort == o.key_sort &&
               apply_segments == o.apply_segments && large_shared_memory == o.large_shared_memory &&
               large_allocations == o.large_allocations &&
               atomic_path == o.atomic_path && one_window == o.one_window && windows == o.windows && keep_subnormals == o.keep_subnormals &&
               float_fast_path == o.float_fast_path && cpu_caches == o.cpu_caches &&
               gpu_slab_limits == o.gpu_slab_limits && reduction_constants == o.reduction_constants &&
               ordered_sort_writes == o.ordered_sort_writes && mode_constants == o.mode_constants &&
               slab_subgroups == o.slab_subgroups;
    }
};

// The largest storage-buffer window by default: a tensor spans at most 4 windows, and the
// shaders' byte addresses are 32-bit, exact as ints below 2^31 (vk_operation.cpp).
constexpr uint64_t kDefaultWindowCap = uint64_t(1) << 29;

// The most workgroups a pass that loops over tiles of ids is given on a device without a loop
// limit (common.glsl, tile_count): 2-4 times what an H100/H200 holds resident at 64 invocations
// a workgroup, so a pass of millions of elements launches thousands of workgroups, not millions.
constexpr uint32_t kLoopingGroups = 8192;

struct DeviceSwitches {
    uint64_t hidden_features = 0;  // SCATTER_FEATURE_* the device must not use
    AlgorithmSwitches algorithms;
    // SCATTER_VULKAN_TEST_WINDOW_BYTES (a power of two from 2^12 to 2^30): the window cap instead
    // of kDefaultWindowCap. 2^30 lets a tensor span 4 GiB on a device whose maxStorageBufferRange
    // reaches 1 GiB, its byte addresses then right modulo 2^32 only: not yet verified on such a
    // device, so a test switch (docs/vulkan.md, "Not done").
    uint64_t window_cap = kDefaultWindowCap;
    // SCATTER_VULKAN_PIPELINE_STATS (1, on, yes or true; anything else is off): a diagnostic for GPU sessions. Where the device
    // has VK_KHR_pipeline_executable_properties, every pipeline compiled is described on stderr by
    // the driver's statistics (registers, shared memory, spills, ... as it names them), one line
    // per executable (vk_pipelines.cpp).
    bool pipeline_stats = false;
    // SCATTER_VULKAN_TEST_MAX_GROUPS (1 to 2^20): the grid cap of the passes that loop over tiles
    // of ids (common.glsl), on every device, lavapipe too, instead of kLoopingGroups on
    // devices without a loop limit only; a test switch, so that small calls loop there.
    uint32_t max_groups = 0;
    // SCATTER_VULKAN_TEST_SLAB_WORDS (1 to 2^16): the slab's shared table takes at least this many
    // words (the size class at or above it, up to what the device holds); a diagnostic for GPU
    // sessions, so that the same call runs with more shared memory per workgroup.
    uint32_t slab_min_words = 0;
    // SCATTER_VULKAN_TEST_REFUSE_PIPELINES: module-name prefixes ("scatter_f32,copy") whose
    // pipelines the driver is made to refuse (vkCreateComputePipelines answers VK_ERROR_UNKNOWN,
    // or, with "=null" after a prefix, VK_SUCCESS and a null handle; "all" matches every module),
    // as mobile drivers refuse single pipelines; a test switch (vk_pipelines.h).
    std::string refuse_pipelines;

    bool operator==(const DeviceSwitches& o) const {
        return hidden_features == o.hidden_features && algorithms == o.algorithms && window_cap == o.window_cap &&
               pipeline_stats == o.pipeline_stats && max_groups == o.max_groups && slab_min_words == o.slab_min_words &&
               refuse_pipelines == o.refuse_pipelines;
    }
};

// How the test switch SCATTER_VULKAN_TEST_REFUSE_PIPELINES (`list`) makes the driver answer a
// request for module `name`: not at all (None), an error, or success with a null handle. Pure.
enum class InjectedRefusal { None, Error, NullHandle };
InjectedRefusal injected_refusal(const std::string& list, const char* name);

// The switches in the environment, read where a device is created (once per device). A value
// that is not a switch, or a number out of its range, is INVALID_ARGUMENT naming it: a misspelt
// switch in a test rerun would otherwise quietly test the default path.
Status switches_from_environment(DeviceSwitches* out);

// Applies a SCATTER_VULKAN_DISABLE_FEATURES list ("int64,slab_path") to *out; an unknown name is
// INVALID_ARGUMENT (and *out is then partly changed: the caller discards it).
Status hide_features(const char* list, DeviceSwitches* out);

// A boolean switch's value: "1", "on", "yes", "true" (any case) are on; unset or anything else off.
bool switch_value_on(const char* value);

}  // namespace scatter
