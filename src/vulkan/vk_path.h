// Which algorithm a Vulkan operation takes, and the scratch and shared memory it needs: a pure
// function of the plan, of what the device offers and of where the tensors are bound, so one
// function answers "which path does my call take, and why", and unit tests check it without a
// device (tests/unit/test_vulkan_path.cpp). vk_operation.cpp records the passes of the choice.
//
// The paths, in the order they are tried:
//   small   elements `none` with at most SCATTER_SMALL_TARGETS targets and SCATTER_SMALL_ITEMS
//           indices: one workgroup, one dispatch (scatter.comp SMALL_NONE)
//   slab    elements whose fibers along the axis (or up to kMaxSlabRanges ranges of their
//           targets) fit in shared memory, every reduction: a workgroup per tile of fibers
//           (scatter.comp SLAB, its ordered fold by subgroups in the `_sb` variants where the
//           device has ballots; order-free reductions atomic.comp SLAB)
//   atomic  order-free reductions, or allowed non-determinism (atomic.comp)
//   target  the target-parallel passes (buckets.comp, then scatter.comp per out element);
//           reductions group their items by key with the radix sort (key_sort)
//   owner   the fallback: one invocation per column folds it in order (scatter.comp APPLY)
#pragma once

#include "core/op_plan.h"
#include "vulkan/vk_radix_sort_layout.h"
#include "vulkan/vk_switches.h"

#include <cstdint>

namespace scatter {

enum class VulkanPath { Small, Slab, Atomic, Target, Owner };
const char* vulkan_path_name(VulkanPath path);

// What the choice needs from the device.
struct PathDevice {
    AlgorithmSwitches algorithms;
    uint64_t features = 0;                 // SCATTER_FEATURE_* the shaders may use
    uint64_t window_bytes = 0;             // bytes per storage-buffer window
    uint32_t shared_memory_bytes = 16384;  // maxComputeSharedMemorySize
    uint32_t slab_min_words = 0;           // the slab table's least size (a test switch, vk_switches.h)
    uint32_t loop_limit = 0;               // loop iterations per invocation, 0: none
    uint32_t sector_bytes = 0;             // a GPU's memory transaction granularity; 0: a CPU device
    uint32_t refused_paths = 0;            // 1 << VulkanPath of paths whose pipelines the driver refused
};

// Whether the driver refused a pipeline of `path` on this device (VulkanDevice::refused_paths).
inline bool path_refused(const PathDevice& d, VulkanPath path) {
    return (d.refused_paths >> static_cast<unsigned>(path)) & 1u;
}

// What the choice needs from the bindings: typed (word) reads of data need its elements
// naturally aligned; 64-bit atomics need out 8-aligned.
struct PathAlignment {
    bool data_typed = true;
    bool out_8 = true;
    // out, data and updates reached through windows, each window and element 0 16-byte aligned
    // (APPLY_QUADS reads and writes them as 16-byte units).
    bool quads = true;
};

// The target-parallel path's tables, as word offsets in scratch. Keys are out elements
// (elements) or target rows (rows/nd); items are index positions or slices. Reductions group
// the items by key into `list` (each key's range from start[key], counts[key] long) with a
// stable radix sort of the items' keys, whose sorted payloads are the list (key_sort), or else
// with the bucket passes (rank, list).
struct TargetLayout {
    int64_t keys = 0, items = 0;
    uint64_t winner = 0, counts = 0, total = 0, start = 0, rank = 0, list = 0;
    bool key_sort = false;         // (`total` is then the order word: 0 while the items' keys
                                   // are in order, which skips the sort; see P_KEY_ORDER_WORD)
    // key_sort: items from one item to the next along the axis, whose keys must not descend for
    // the sort to be skipped (P_ORDER_STRIDE). elements: the index elements after the axis, so
    // indices sorted along an outer axis (a segment sum broadcast over columns) skip it too;
    // rows/nd: 1.
    int64_t order_stride = 1;
    RadixSortLayout sort;          // key_sort: keys 0..keys (keys: a skipped item), in scratch
    uint64_t item_keys = 0;        // key_sort: where ITEM_KEYS writes them (the sort's slot 0)
    uint64_t sorted_keys = 0;      // key_sort: the sorted keys (the result slot)
    // key_sort on a loop-limited driver: APPLY_TARGETS folds at most chunk_items updates of a key
    // per pass, in up to `chunks` passes (kMaxTargetChunks); 0 and 1 where one pass folds all.
    uint32_t chunk_items = 0;
    uint32_t chunks = 1;
    // In place, `none` or the key sort: GATHER_SEGMENTS / APPLY_SEGMENTS, one invocation per
    // (item, outer, inner) position rather than per out element (apply_invocations either way),
    // where that is fewer: targets no update reaches keep their bytes without being visited.
    bool segments = false;
    // Reductions of rows/nd per out element, with 4- or 8-byte elements, out, data and updates
    // row-major and aligned (PathAlignment::quads), rows a whole number of 16 bytes: one
    // invocation folds 16 bytes of a target row (APPLY_QUADS), apply_invocations a quarter (or
    // half) of out's elements.
    bool quads = false;
    int64_t apply_invocations = 0;
};

// The most chunk passes a call records: each is a dispatch and a barrier even when empty, so a
// key with more than kMaxTargetChunks x chunk_items updates still fails on such a driver.
constexpr uint32_t kMaxTargetChunks = 512;

// The most target ranges the slab path splits a tile's fibers into (each range's tile reads all
// the fibers' updates).
constexpr int64_t kMaxSlabRanges = 4;

// The unit in which GPUs (NVIDIA, AMD, Intel, Mali) read and write device memory: 32-byte sectors.
constexpr uint32_t kGpuSectorBytes = 32;

struct PathChoice {
    VulkanPath path = VulkanPath::Owner;
    const char* why = "";             // one line, for logs and tests
    bool has_counts = false;          // P_HAS_COUNTS: hit counts kept (mean, exclude_self)
    uint64_t counts_at = 0;           // owner path: the hit counts' word offset in scratch
    uint64_t first_nan_at = 0;        // atomic path, float max/min: the first-NaN table
    bool slab_atomics = false;        // slab: shared-memory atomics (atomic.comp SLAB; slab_atomics())
    bool slab_subgroups = false;      // slab, ordered fold: by subgroups, each its share of a tile's
                                      // slots (scatter.comp `_sb`), not in workgroup-wide chunks
    int64_t slab_columns = 1;         // slab: fibers per tile (P_SLAB_COLUMNS)
    int64_t slab_range_targets = 0;   // slab: targets per tile along the axis (P_SLAB_RANGE_TARGETS)
    int64_t slab_tiles = 0;           // slab: workgroups
    uint32_t slab_words = 0;          // slab: the shared table (specialization constant 1)
    TargetLayout target;              // target path
    uint64_t scratch_words = 0;       // scratch the path needs (slice tables included)
};

PathChoice choose_path(const OpPlan& plan, const PathDevice& device, const PathAlignment& alignment);

// max/min of a real float dtype (the atomic path sets NaN updates aside for them).
bool float_max_min(const OpPlan& plan);

// Whether the slab path folds with shared-memory atomics (atomic.comp's `_slab` variants) rather
// than in position order (scatter.comp): order-free reductions, i.e. integer add/sub/max/min and
// f32/f64 max/min, whose bits no arrival order can change; 8-byte ones need 64-bit shared atomics.
bool slab_atomics(const OpPlan& plan, const PathDevice& device);

}  // namespace scatter
