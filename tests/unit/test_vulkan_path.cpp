// Which algorithm a Vulkan call takes (src/vulkan/vk_path.h): choose_path is a pure function of
// the plan, the device's limits and switches, and the bindings' alignment, so the routing is
// checked here without a device, for the devices the project targets (NVIDIA's 48 KiB of shared
// memory, lavapipe's 32 KiB and loop limit, Vulkan's minimum of 16 KiB).
#include "vulkan/vk_loop_limit.h"
#include "vulkan/vk_path.h"
#include "vulkan/vk_result.h"
#include "vulkan/vk_switches.h"

#include "core/dtype.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace scatter {
namespace {

TensorView view(scatter_dtype dtype, const std::vector<int64_t>& shape) {
    TensorView v;
    v.info = find_dtype(dtype);
    v.element_size = v.info->size;
    v.rank = uint32_t(shape.size());
    int64_t count = 1;
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
        v.shape[d] = shape[size_t(d)];
        v.strides[d] = count;
        count *= shape[size_t(d)];
    }
    v.element_count = count;
    v.end_byte = count * v.element_size;
    return v;
}

OpPlan elements(scatter_dtype dtype, const std::vector<int64_t>& data, const std::vector<int64_t>& indices, int axis,
                scatter_reduction reduction) {
    OpPlan p;
    p.op = OpKind::Elements;
    p.data = p.out = view(dtype, data);
    p.indices = view(SCATTER_DTYPE_I32, indices);
    p.updates = view(dtype, indices);
    p.axis = axis;
    p.reduction = reduction;
    return p;
}

// rows along axis 0: data [rows, inner], `slices` indices.
OpPlan rows(scatter_dtype dtype, int64_t target_rows, int64_t inner, int64_t slices, scatter_reduction reduction) {
    OpPlan p;
    p.op = OpKind::Rows;
    p.data = p.out = view(dtype, {target_rows, inner});
    p.indices = view(SCATTER_DTYPE_I64, {slices});
    p.updates = view(dtype, {slices, inner});
    p.reduction = reduction;
    p.outer = 1;
    p.target_rows = target_rows;
    p.inner = inner;
    p.slices = slices;
    return p;
}

PathDevice nvidia() {  // an H100 as its Vulkan driver reports it
    PathDevice d;
    d.features = ~uint64_t(0);
    d.window_bytes = uint64_t(1) << 31;
    d.shared_memory_bytes = 49152;
    d.sector_bytes = kGpuSectorBytes;
    return d;
}

// The same, with the slab path free to take on a GPU every call it fits (gpu_slab_limits off):
// the slab's tiling and limits, apart from which calls a GPU gives it.
PathDevice nvidia_any_slab() {
    PathDevice d = nvidia();
    d.algorithms.gpu_slab_limits = false;
    return d;
}

PathDevice lavapipe() {
    PathDevice d = nvidia();
    d.window_bytes = uint64_t(1) << 27;
    d.shared_memory_bytes = 32768;
    d.loop_limit = 65535;
    d.sector_bytes = 0;  // a CPU device
    return d;
}

PathChoice choose(const OpPlan& p, const PathDevice& d, PathAlignment a = PathAlignment()) {
    return choose_path(p, d, a);
}

TEST(VulkanPath, StandardWorkloadsOnNvidia) {
    const PathDevice d = nvidia();
    const std::string gpu_slab = "on a GPU the slab path is taken only along the last axis, for `none` or the fold by subgroups";
    // W1 / W11: axis 0 of [4096, 4096], `none`: on a GPU the target path (tiles across an outer
    // axis measured slower), on a CPU device the slab.
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_EQ(std::string(c.why), gpu_slab);
    // W2 / W10: the last axis of [4096, 4096], `add`: the slab's ordered fold by subgroups, a
    // row a workgroup; in workgroup-wide chunks (no ballots, or switched off) it measured slower
    // than the key sort, which takes it then.
    c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_TRUE(c.slab_subgroups);
    EXPECT_FALSE(c.slab_atomics);
    EXPECT_EQ(c.slab_tiles, 4096);
    EXPECT_EQ(c.slab_words, 4096u);
    PathDevice no_ballots = d;
    no_ballots.algorithms.slab_subgroups = false;
    c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), no_ballots);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_TRUE(c.target.key_sort);
    EXPECT_EQ(std::string(c.why), gpu_slab);
    // The last axis, an order-free reduction (i32 add): the atomic path, as before the fold by
    // subgroups (the slab's shared-memory atomics are not measured on a GPU along it).
    c = choose(elements(SCATTER_DTYPE_I32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Atomic) << c.why;
    // W3: the last axis of [64, 512, 512], `none`: the slab.
    c = choose(elements(SCATTER_DTYPE_F32, {64, 512, 512}, {64, 512, 128}, 2, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_tiles, 64 * 512);
    EXPECT_EQ(c.slab_words, 1024u);
    // W8: i64 `max` on axis 0 of [2048, 2048]: order-free, the atomic path.
    c = choose(elements(SCATTER_DTYPE_I64, {2048, 2048}, {2048, 2048}, 0, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.path, VulkanPath::Atomic) << c.why;
    // W9: 1-D add into 65536 targets: more than 4 tables' worth, and the order would show: target.
    c = choose(elements(SCATTER_DTYPE_F32, {65536}, {65536}, 0, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_EQ(std::string(c.why), "a tile of out does not fit in shared memory");
    // W4: rows add f32: the target path, its slices radix-sorted by row (20-bit keys: 3 passes).
    c = choose(rows(SCATTER_DTYPE_F32, 1000000, 64, 1000000, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_TRUE(c.target.key_sort);
    EXPECT_EQ(c.target.sort.bits, 20u);
    EXPECT_EQ(c.target.sort.passes, 3u);
    EXPECT_EQ(c.scratch_words, c.target.start + 1000000);
    // W14: rows max i32, order-free: atomic, whatever the slice width.
    c = choose(rows(SCATTER_DTYPE_I32, 100000, 64, 1000000, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.path, VulkanPath::Atomic) << c.why;
    c = choose(rows(SCATTER_DTYPE_I32, 100000, 7, 1000000, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.path, VulkanPath::Atomic) << c.why;
}

// The slab's tiles on a GPU with its limits switched off (gpu_slab_limits: what the slab would
// take on a GPU, for measuring it there).
TEST(VulkanPath, SlabTilesOnNvidiaWithoutLimits) {
    PathDevice d = nvidia();
    d.algorithms.gpu_slab_limits = false;
    // W1 / W11: whole fibers fit 2 columns (8 bytes of each 32-byte sector), so tiles of 8
    // columns and 3 ranges of 1366 targets.
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_columns, 8);
    EXPECT_EQ(c.slab_range_targets, 1366);
    EXPECT_EQ(c.slab_tiles, 512 * 3);
    EXPECT_EQ(c.slab_words, 12224u);
    EXPECT_EQ(c.scratch_words, 0u);
    // W2: axis 1, `add`: one fiber of 4096 per workgroup.
    c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_columns, 1);
    EXPECT_EQ(c.slab_tiles, 4096);
    EXPECT_EQ(c.slab_words, 4096u);
    EXPECT_FALSE(c.slab_atomics) << "f32 sums fold in position order";
    // W8: i64 `max`: 2 words per target, tiles of 4 columns (a sector) in 2 ranges of 1024
    // targets; the slab before the atomic path.
    c = choose(elements(SCATTER_DTYPE_I64, {2048, 2048}, {2048, 2048}, 0, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_columns, 4);
    EXPECT_EQ(c.slab_range_targets, 1024);
    EXPECT_EQ(c.slab_tiles, 512 * 2);
    EXPECT_TRUE(c.slab_atomics) << "an order-free reduction: 64-bit shared atomics";
    // W9: beyond shared memory (6 ranges).
    c = choose(elements(SCATTER_DTYPE_F32, {65536}, {65536}, 0, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_EQ(std::string(c.why), "a tile of out does not fit in shared memory");
}

// The slab path folds order-free reductions with shared-memory atomics (atomic.comp SLAB):
// integer add/sub/max/min and f32/f64 max/min; 8-byte ones only with 64-bit shared atomics; a
// table too big for the atomic folds' entries (first NaNs, 64-bit counts) takes the ordered fold.
TEST(VulkanPath, SlabAtomicsForOrderFreeReductionsOnly) {
    const PathDevice d = lavapipe();
    auto atomics = [&](scatter_dtype t, scatter_reduction r, const PathDevice& device, int64_t length = 300) {
        const PathChoice c = choose(elements(t, {4, length}, {4, 200}, 1, r), device);
        EXPECT_EQ(c.path, VulkanPath::Slab) << "dtype " << t << ", reduction " << r << ": " << c.why;
        return c.slab_atomics;
    };
    for (scatter_dtype t : {SCATTER_DTYPE_I8, SCATTER_DTYPE_U16, SCATTER_DTYPE_I32, SCATTER_DTYPE_U64}) {
        for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN})
            EXPECT_TRUE(atomics(t, r, d)) << "dtype " << t << ", reduction " << r;
        for (scatter_reduction r : {SCATTER_REDUCTION_MUL, SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MEAN})
            EXPECT_FALSE(atomics(t, r, d)) << "dtype " << t << ", reduction " << r;
    }
    EXPECT_TRUE(atomics(SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX, d));
    EXPECT_TRUE(atomics(SCATTER_DTYPE_F64, SCATTER_REDUCTION_MIN, d));
    EXPECT_FALSE(atomics(SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, d));
    EXPECT_FALSE(atomics(SCATTER_DTYPE_F16, SCATTER_REDUCTION_MAX, d));
    EXPECT_FALSE(atomics(SCATTER_DTYPE_BOOL, SCATTER_REDUCTION_ADD, d));
    EXPECT_FALSE(atomics(SCATTER_DTYPE_C64, SCATTER_REDUCTION_ADD, d));
    PathDevice no_shared_int64 = d;
    no_shared_int64.features &= ~SCATTER_FEATURE_SHARED_INT64_ATOMICS;
    EXPECT_FALSE(atomics(SCATTER_DTYPE_I64, SCATTER_REDUCTION_MAX, no_shared_int64));
    EXPECT_TRUE(atomics(SCATTER_DTYPE_I32, SCATTER_REDUCTION_MAX, no_shared_int64));
    PathDevice switched_off = d;
    switched_off.algorithms.slab_atomics = false;
    EXPECT_FALSE(atomics(SCATTER_DTYPE_I32, SCATTER_REDUCTION_ADD, switched_off));
    // f32 max: 2 words per target (value, first NaN) against the ordered fold's 1. lavapipe holds
    // 8128 words beside the chunk's slots: 4064 targets with the atomics, in up to 4 ranges 16256;
    // past that the ordered fold, which keeps the chunk's values too (8064 targets a range).
    EXPECT_TRUE(atomics(SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX, d, 4064));
    EXPECT_TRUE(atomics(SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX, d, 16256));
    EXPECT_FALSE(atomics(SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX, d, 16257));
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {4, 4064}, {4, 200}, 1, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.slab_range_targets, 4064);
    EXPECT_EQ(c.slab_words, 8128u) << "the largest class is capped at what the device holds";
    c = choose(elements(SCATTER_DTYPE_F32, {4, 4065}, {4, 200}, 1, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.slab_range_targets, 2033) << "two ranges";
    EXPECT_EQ(c.slab_tiles, 4 * 2);
    c = choose(elements(SCATTER_DTYPE_F32, {4, 16257}, {4, 200}, 1, SCATTER_REDUCTION_MAX), d);
    EXPECT_EQ(c.slab_range_targets, 5419) << "the ordered fold in three ranges";
    EXPECT_EQ(c.slab_words, 8064u);
}

TEST(VulkanPath, TinyNoneIsTheSmallPath) {
    const PathDevice d = nvidia_any_slab();
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {8, 8}, {2, 8}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Small);
    EXPECT_EQ(c.scratch_words, 0u);
    // One past either limit: the slab path.
    c = choose(elements(SCATTER_DTYPE_F32, {1025}, {16}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    c = choose(elements(SCATTER_DTYPE_F32, {4, 8}, {4097}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
}

TEST(VulkanPath, FibersAtTheSharedMemoryLimit) {
    for (uint32_t bytes : {16384u, 32768u, 49152u}) {
        PathDevice d = nvidia_any_slab();
        d.shared_memory_bytes = bytes;
        // Beside the chunk's 64 slots and its 64 update values (a word each for f32).
        const int64_t most = int64_t(bytes / 4) - 128;
        // f32 `add`: a word per target; with mean, a hit count too.
        // Whole fibers up to the table's size, then up to 4 target ranges.
        for (int64_t targets : {most, most + 1, 4 * most, 4 * most + 1}) {
            PathChoice c = choose(elements(SCATTER_DTYPE_F32, {3, targets}, {3, 100}, 1, SCATTER_REDUCTION_ADD), d);
            EXPECT_EQ(c.path == VulkanPath::Slab, targets <= 4 * most) << bytes << " bytes, " << targets << " targets";
            if (c.path == VulkanPath::Slab) {
                EXPECT_EQ(c.slab_range_targets, (targets + (targets + most - 1) / most - 1) / ((targets + most - 1) / most));
                if (c.slab_range_targets == most) {
                    EXPECT_EQ(c.slab_words, uint32_t(most)) << "the largest class is capped; " << targets;
                }
                EXPECT_GE(int64_t(c.slab_words), c.slab_range_targets) << "a class that holds the range";
            }
        }
        for (int64_t targets : {most / 2, 4 * (most / 2), 4 * (most / 2) + 1}) {
            PathChoice c = choose(elements(SCATTER_DTYPE_F32, {3, targets}, {3, 100}, 1, SCATTER_REDUCTION_MEAN), d);
            EXPECT_EQ(c.path == VulkanPath::Slab, targets <= 4 * (most / 2)) << bytes << " bytes, mean, " << targets;
            EXPECT_TRUE(c.has_counts);
        }
        // c128: 4 words per target and per chunk value.
        const int64_t most_c128 = (int64_t(bytes / 4) - 64 - 64 * 4) / 4;
        PathChoice c = choose(elements(SCATTER_DTYPE_C128, {2, 4 * most_c128}, {2, 10}, 1, SCATTER_REDUCTION_ADD), d);
        EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
        c = choose(elements(SCATTER_DTYPE_C128, {2, 4 * most_c128 + 1}, {2, 10}, 1, SCATTER_REDUCTION_ADD), d);
        EXPECT_NE(c.path, VulkanPath::Slab);
        // `none` keeps no values: a word per target beside the slots.
        c = choose(elements(SCATTER_DTYPE_F32, {3, int64_t(bytes / 4) - 64}, {3, 100}, 1, SCATTER_REDUCTION_NONE), d);
        EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    }
}

TEST(VulkanPath, OuterAxisTilesAreAsWideAsTheTableAllowsUpToSixtyFour) {
    PathDevice d = nvidia();  // 12160 words for f32 add's table
    d.sector_bytes = 0;       // as a CPU device: narrow tiles too
    struct Case {
        int64_t length, row, columns;
    };
    for (const Case& k : {Case{4096, 4096, 2}, Case{100, 4096, 64}, Case{100, 10, 10}, Case{12160, 7, 1},
                          Case{6080, 7, 2}, Case{6081, 7, 1}, Case{199, 61, 61}}) {
        PathChoice c = choose(elements(SCATTER_DTYPE_F32, {k.length, k.row}, {50, k.row}, 0, SCATTER_REDUCTION_ADD), d);
        ASSERT_EQ(c.path, VulkanPath::Slab) << k.length << " x " << k.row << ": " << c.why;
        EXPECT_EQ(c.slab_columns, k.columns) << k.length << " x " << k.row;
        EXPECT_EQ(c.slab_tiles, (k.row + k.columns - 1) / k.columns) << k.length << " x " << k.row;
        EXPECT_GE(int64_t(c.slab_words), k.length * k.columns);
    }
    // A middle axis: fibers numbered over the other dims, tiles along the last.
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {3, 100, 5, 130}, {3, 10, 5, 130}, 1, SCATTER_REDUCTION_ADD), d);
    ASSERT_EQ(c.path, VulkanPath::Slab);
    EXPECT_EQ(c.slab_columns, 64);
    EXPECT_EQ(c.slab_tiles, 3 * 5 * 3);  // rows of 130: 64 + 64 + 2
}

// On a GPU that gives the slab outer axes (gpu_slab_limits off), a tile of an outer axis spans
// at least a 32-byte sector of out's rows (or the whole row); where whole fibers that wide do
// not fit, up to 4 ranges of their targets a tile each. Along the last axis a fiber is
// contiguous anyway.
TEST(VulkanPath, GpuTilesSpanAMemorySector) {
    const PathDevice d = nvidia_any_slab();  // 12160 words for f32 add's table
    struct Case {
        scatter_dtype dtype;
        int64_t length, row;
        scatter_reduction r;
        int64_t columns, range_targets;  // 0 columns: not the slab path
    };
    for (const Case& k : {Case{SCATTER_DTYPE_F32, 1000, 8, SCATTER_REDUCTION_ADD, 8, 1000},
                          Case{SCATTER_DTYPE_F32, 1000, 7, SCATTER_REDUCTION_ADD, 7, 1000},   // the whole row
                          Case{SCATTER_DTYPE_F32, 1520, 64, SCATTER_REDUCTION_ADD, 8, 1520},  // one range
                          Case{SCATTER_DTYPE_F32, 1521, 64, SCATTER_REDUCTION_ADD, 8, 761},   // two
                          Case{SCATTER_DTYPE_F32, 6080, 64, SCATTER_REDUCTION_ADD, 8, 1520},  // four
                          Case{SCATTER_DTYPE_F32, 6081, 64, SCATTER_REDUCTION_ADD, 0, 0},     // five
                          Case{SCATTER_DTYPE_I64, 1000, 3, SCATTER_REDUCTION_MAX, 3, 1000},
                          Case{SCATTER_DTYPE_I64, 2000, 64, SCATTER_REDUCTION_MAX, 4, 1000},
                          Case{SCATTER_DTYPE_U8, 300, 31, SCATTER_REDUCTION_NONE, 31, 300},
                          Case{SCATTER_DTYPE_U8, 1000, 64, SCATTER_REDUCTION_NONE, 32, 334}}) {
        const std::string what = std::to_string(k.length) + " x " + std::to_string(k.row) + " dtype " + std::to_string(k.dtype);
        PathChoice c = choose(elements(k.dtype, {k.length, k.row}, {50, k.row}, 0, k.r), d);
        ASSERT_EQ(c.path == VulkanPath::Slab, k.columns != 0) << what << ": " << c.why;
        if (k.columns == 0) {
            EXPECT_EQ(std::string(c.why), "a tile of out does not fit in shared memory") << what;
            continue;
        }
        EXPECT_EQ(c.slab_columns, k.columns) << what;
        EXPECT_EQ(c.slab_range_targets, k.range_targets) << what;
        const int64_t ranges = (k.length + k.range_targets - 1) / k.range_targets;
        EXPECT_EQ(c.slab_tiles, (k.row + k.columns - 1) / k.columns * ranges) << what;
    }
    // A CPU device keeps narrower tiles of whole fibers: 1521 targets, 7 columns.
    PathDevice cpu_device = d;
    cpu_device.sector_bytes = 0;
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {1521, 64}, {50, 64}, 0, SCATTER_REDUCTION_ADD), cpu_device);
    EXPECT_EQ(c.slab_columns, 7);
    EXPECT_EQ(c.slab_range_targets, 1521);
    // The last axis: one fiber per tile, contiguous, whatever its width.
    c = choose(elements(SCATTER_DTYPE_F32, {7, 1000}, {7, 50}, 1, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_columns, 1);
    EXPECT_EQ(c.slab_range_targets, 1000);
}

TEST(VulkanPath, LoopLimitedDriverNarrowsTilesThenRefuses) {
    const PathDevice d = lavapipe();
    // f32 add with 320 updates per fiber: a tile of c columns folds 320 c updates; the widest
    // tile whose worst case fits the budget is taken.
    OpPlan p = elements(SCATTER_DTYPE_F32, {150, 40}, {320, 40}, 0, SCATTER_REDUCTION_ADD);
    PathChoice c = choose(p, d);
    ASSERT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_GT(c.slab_columns, 1);
    EXPECT_LE(slab_loop_iterations(p, 150 * c.slab_columns, 320 * c.slab_columns), loop_budget(d.loop_limit));
    EXPECT_GT(slab_loop_iterations(p, 150 * (c.slab_columns + 1), 320 * (c.slab_columns + 1)), loop_budget(d.loop_limit));
    // Its fold by subgroups walks every update of the tile in each subgroup: too long for this
    // tile, so the workgroup-wide chunks fold it; one fiber of 320 updates fits either way.
    EXPECT_FALSE(c.slab_subgroups);
    EXPECT_GT(slab_loop_iterations(p, 150 * c.slab_columns, 320 * c.slab_columns, true), loop_budget(d.loop_limit));
    c = choose(elements(SCATTER_DTYPE_F32, {40, 150}, {40, 320}, 1, SCATTER_REDUCTION_ADD), d);
    ASSERT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_TRUE(c.slab_subgroups);
    // W2 on lavapipe: 4096 updates per fiber exceed the budget even for one column: target path.
    c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), d);
    EXPECT_EQ(c.path, VulkanPath::Target);
    EXPECT_EQ(std::string(c.why), "its loops exceed the driver's loop limit");
    // `none` has no fold loop: W1 fits with one column (32 KiB: 8128 winners).
    c = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 0, SCATTER_REDUCTION_NONE), d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    EXPECT_EQ(c.slab_columns, 1);
}

TEST(VulkanPath, SwitchesAndAlignmentFallBackInOrder) {
    const OpPlan i32_add = elements(SCATTER_DTYPE_I32, {4, 300}, {4, 300}, 1, SCATTER_REDUCTION_ADD);
    PathDevice d = nvidia_any_slab();
    EXPECT_EQ(choose(i32_add, d).path, VulkanPath::Slab);
    d.algorithms.slab_path = false;
    PathChoice c = choose(i32_add, d);
    EXPECT_EQ(c.path, VulkanPath::Atomic);
    EXPECT_EQ(std::string(c.why), "an order-free reduction");
    EXPECT_FALSE(c.has_counts);
    d.algorithms.atomic_path = false;
    EXPECT_EQ(choose(i32_add, d).path, VulkanPath::Target);
    d.algorithms.target_path = false;
    c = choose(i32_add, d);
    EXPECT_EQ(c.path, VulkanPath::Owner);
    EXPECT_EQ(std::string(c.why), "the target path is switched off");

    // f32 add with data misaligned for typed reads: neither slab nor target (owner reads bytes).
    const OpPlan f32_add = elements(SCATTER_DTYPE_F32, {4, 300}, {4, 300}, 1, SCATTER_REDUCTION_ADD);
    PathAlignment misaligned;
    misaligned.data_typed = false;
    c = choose(f32_add, nvidia_any_slab(), misaligned);
    EXPECT_EQ(c.path, VulkanPath::Owner);
    EXPECT_EQ(std::string(c.why), "data is not aligned for typed reads");
    OpPlan in_place = f32_add;
    in_place.in_place = true;  // reads out, not data
    EXPECT_EQ(choose(in_place, nvidia_any_slab(), misaligned).path, VulkanPath::Slab);

    // 64-bit atomics need the feature and an 8-aligned out.
    const OpPlan i64_rows = rows(SCATTER_DTYPE_I64, 100, 2, 1000, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(i64_rows, nvidia()).path, VulkanPath::Atomic);
    PathAlignment unaligned_out;
    unaligned_out.out_8 = false;
    EXPECT_EQ(choose(i64_rows, nvidia(), unaligned_out).path, VulkanPath::Target);
    d = nvidia();
    d.features &= ~SCATTER_FEATURE_INT64_ATOMICS;
    EXPECT_EQ(choose(i64_rows, d).path, VulkanPath::Target);
}

TEST(VulkanPath, DeterminismDecidesTheAtomicPathForFloats) {
    OpPlan p = rows(SCATTER_DTYPE_F32, 100, 8, 1000, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(p, nvidia()).path, VulkanPath::Target);
    p.deterministic = false;
    PathChoice c = choose(p, nvidia());
    EXPECT_EQ(c.path, VulkanPath::Atomic);
    EXPECT_EQ(std::string(c.why), "non-determinism is allowed");
    // Float max/min are order-free (NaN updates set aside): atomic, with
    // the first-NaN table after the slice tables.
    p = rows(SCATTER_DTYPE_F32, 100, 4, 1000, SCATTER_REDUCTION_MAX);
    c = choose(p, nvidia());
    EXPECT_EQ(c.path, VulkanPath::Atomic);
    EXPECT_EQ(c.first_nan_at, 3000u);
    EXPECT_EQ(c.scratch_words, 3000u + 400u);
    // Mean never takes atomics (it needs counts).
    p = rows(SCATTER_DTYPE_I32, 100, 8, 1000, SCATTER_REDUCTION_MEAN);
    EXPECT_EQ(choose(p, nvidia()).path, VulkanPath::Target);
}

// Reductions on the target path: the items' keys (target row or element, or `keys` for a
// skipped item) radix-sorted right after the slice tables (the sort's header in the first
// window), then the counts and starts; the list is the sort's result slot of payloads.
// In place, `none` and the fold after the key sort visit the targets the updates reach (per item)
// where that is fewer invocations than out has elements; the others keep their bytes.
TEST(VulkanPath, InPlaceCallsVisitOnlyTheTargetsUpdatesReach) {
    // An embedding update: 1000 slices of 64 into 10^6 rows.
    OpPlan p = rows(SCATTER_DTYPE_F32, 1000000, 64, 1000, SCATTER_REDUCTION_ADD);
    PathChoice c = choose(p, nvidia());
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_FALSE(c.target.segments) << "not in place: every target is written";
    EXPECT_EQ(c.target.apply_invocations, 64000000 / 4) << "16 bytes of a row each (APPLY_QUADS)";
    p.in_place = true;
    c = choose(p, nvidia());
    EXPECT_TRUE(c.target.segments);
    EXPECT_EQ(c.target.apply_invocations, 64000);
    p.outer = 3;  // rows along axis 1 of [3, 10^6, 64]: each slice reaches every outer position
    p.out.element_count = p.data.element_count = 3 * 64000000;
    c = choose(p, nvidia());
    EXPECT_TRUE(c.target.segments);
    EXPECT_EQ(c.target.apply_invocations, 3 * 64000);
    // As many slices as rows (W4 in place): per out element (per 16 bytes: APPLY_QUADS).
    p = rows(SCATTER_DTYPE_F32, 1000, 64, 1000, SCATTER_REDUCTION_ADD);
    p.in_place = true;
    c = choose(p, nvidia());
    EXPECT_FALSE(c.target.segments);
    EXPECT_EQ(c.target.apply_invocations, 64000 / 4);
    p = rows(SCATTER_DTYPE_F32, 1000, 64, 999, SCATTER_REDUCTION_MEAN);
    p.in_place = true;
    EXPECT_TRUE(choose(p, nvidia()).target.segments);
    // Empty slices (inner 0): nothing to divide by, no segments.
    p = rows(SCATTER_DTYPE_F32, 1000, 0, 10, SCATTER_REDUCTION_ADD);
    p.in_place = true;
    EXPECT_FALSE(choose(p, nvidia()).target.segments);
    // elements: a key is a target (a GPU gives the slab no add).
    OpPlan e = elements(SCATTER_DTYPE_F32, {65536}, {100}, 0, SCATTER_REDUCTION_ADD);
    e.in_place = true;
    c = choose(e, nvidia());
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_TRUE(c.target.segments);
    EXPECT_EQ(c.target.apply_invocations, 100);
    // `none`: each winning item writes its targets.
    e.reduction = SCATTER_REDUCTION_NONE;
    c = choose(e, nvidia());
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    EXPECT_TRUE(c.target.segments);
    EXPECT_EQ(c.target.apply_invocations, 100);
    // The bucket passes keep the per-element fold.
    e.reduction = SCATTER_REDUCTION_ADD;
    PathDevice d = nvidia();
    d.algorithms.key_sort = false;
    EXPECT_FALSE(choose(e, d).target.segments);
}

TEST(VulkanPath, TargetPathReductionsSortTheirItemsByKey) {
    OpPlan p = rows(SCATTER_DTYPE_F32, 255, 8, 5000, SCATTER_REDUCTION_ADD);  // keys 0..254: 8 bits
    PathChoice c = choose(p, nvidia());
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    const TargetLayout& t = c.target;
    EXPECT_TRUE(t.key_sort);
    EXPECT_EQ(t.sort.header, 15040u);  // 3 x 5000 words of slice tables, 256-byte aligned
    EXPECT_EQ(t.sort.count, 5000u);
    EXPECT_EQ(t.sort.bits, 8u);
    EXPECT_EQ(t.sort.passes, 1u);  // the result in slot 1
    EXPECT_EQ(t.item_keys, t.sort.keys[0]);
    EXPECT_EQ(t.sorted_keys, t.sort.keys[1]);
    EXPECT_EQ(t.list, t.sort.payloads[1]);
    EXPECT_EQ(t.counts, t.sort.end);
    EXPECT_EQ(t.total, t.counts + 255u);
    EXPECT_EQ(t.start, t.total + 1u);
    EXPECT_EQ(c.scratch_words, t.start + 255u);
    // Under `skip` the marker of a skipped item is a key of its own: 256 keys and it take 9
    // bits, 2 passes (the result in slot 0).
    p = rows(SCATTER_DTYPE_F32, 256, 8, 5000, SCATTER_REDUCTION_ADD);
    p.policy = SCATTER_OUT_OF_RANGE_SKIP;
    c = choose(p, nvidia());
    EXPECT_EQ(c.target.sort.bits, 9u);
    EXPECT_EQ(c.target.sort.passes, 2u);
    EXPECT_EQ(c.target.list, c.target.sort.payloads[0]);
    // Under `error` (and `clamp`) no item is skipped: 256 keys fit 8 bits (an item whose index
    // fails sorts anywhere: the call fails before anything is written).
    for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_CLAMP}) {
        p.policy = policy;
        c = choose(p, nvidia());
        EXPECT_EQ(c.target.sort.bits, 8u);
        EXPECT_EQ(c.target.sort.passes, 1u);
        EXPECT_EQ(c.target.list, c.target.sort.payloads[1]);
    }
    // One key: one bit all the same (a pass, or none when ITEM_KEYS finds them in order).
    c = choose(rows(SCATTER_DTYPE_F32, 1, 8, 5000, SCATTER_REDUCTION_ADD), nvidia());
    EXPECT_EQ(c.target.sort.bits, 1u);
    // elements: keys are out elements (W9: 65536 of them, 16 bits; 17 with the skip marker).
    OpPlan w9 = elements(SCATTER_DTYPE_F32, {65536}, {65536}, 0, SCATTER_REDUCTION_ADD);
    c = choose(w9, nvidia());
    EXPECT_EQ(c.path, VulkanPath::Target);
    EXPECT_TRUE(c.target.key_sort);
    EXPECT_EQ(c.target.sort.header, 0u);
    EXPECT_EQ(c.target.sort.bits, 16u);
    EXPECT_EQ(c.target.sort.passes, 2u);
    w9.policy = SCATTER_OUT_OF_RANGE_SKIP;
    c = choose(w9, nvidia());
    EXPECT_EQ(c.target.sort.bits, 17u);
    EXPECT_EQ(c.target.sort.passes, 3u);
    // `none` keeps its winner per key; allowed non-determinism and the switch keep the buckets.
    p.reduction = SCATTER_REDUCTION_NONE;
    EXPECT_FALSE(choose(p, nvidia()).target.key_sort);
    p = rows(SCATTER_DTYPE_F32, 256, 8, 5000, SCATTER_REDUCTION_MEAN);
    p.deterministic = false;
    c = choose(p, nvidia());
    EXPECT_EQ(c.path, VulkanPath::Target);
    EXPECT_FALSE(c.target.key_sort);
    EXPECT_EQ(c.scratch_words, uint64_t(15000 + 256 + 1 + 256 + 2 * 5000));
    p.deterministic = true;
    PathDevice d = nvidia();
    d.algorithms.key_sort = false;
    EXPECT_FALSE(choose(p, d).target.key_sort);
    // The sort's header must lie in the first window: beyond it, the buckets.
    d = nvidia();
    d.window_bytes = 1 << 16;  // 16 Ki words: 3 x 6000 words of slice tables push the header out
    p = rows(SCATTER_DTYPE_F32, 256, 8, 5000, SCATTER_REDUCTION_ADD);
    c = choose(p, d);
    EXPECT_EQ(c.path, VulkanPath::Target);
    EXPECT_TRUE(c.target.key_sort);
    p = rows(SCATTER_DTYPE_F32, 256, 8, 6000, SCATTER_REDUCTION_ADD);
    c = choose(p, d);
    EXPECT_EQ(c.path, VulkanPath::Target);
    EXPECT_FALSE(c.target.key_sort);
}

// The key sort is skipped when every item's key is at or above the key one order stride back:
// along the axis, so that indices sorted along any axis of `elements` count as in order.
TEST(VulkanPath, KeysAreInOrderAlongTheAxis) {
    // elements along an outer axis (GPUs: the key sort, not the slab): the index elements after
    // it. W16 (one sorted index vector expanded over 64 columns, 32 M items).
    PathChoice c = choose(elements(SCATTER_DTYPE_F32, {50000, 64}, {500000, 64}, 0, SCATTER_REDUCTION_ADD), nvidia());
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    ASSERT_TRUE(c.target.key_sort) << c.why;
    EXPECT_EQ(c.target.order_stride, 64);
    c = choose(elements(SCATTER_DTYPE_F32, {3, 40000, 5, 2}, {2, 9000, 4, 2}, 1, SCATTER_REDUCTION_MUL), nvidia());
    ASSERT_TRUE(c.target.key_sort) << c.why;
    EXPECT_EQ(c.target.order_stride, 8);  // 4 x 2: index dims, not data's
    // Along the last axis, and rows/nd: the next item.
    c = choose(elements(SCATTER_DTYPE_F32, {65536}, {65536}, 0, SCATTER_REDUCTION_ADD), nvidia());
    ASSERT_TRUE(c.target.key_sort) << c.why;
    EXPECT_EQ(c.target.order_stride, 1);
    c = choose(elements(SCATTER_DTYPE_F32, {2, 40000}, {2, 6000}, 1, SCATTER_REDUCTION_ADD), lavapipe());
    ASSERT_TRUE(c.target.key_sort) << c.why;
    EXPECT_EQ(c.target.order_stride, 1);
    c = choose(rows(SCATTER_DTYPE_F32, 255, 8, 5000, SCATTER_REDUCTION_ADD), nvidia());
    ASSERT_TRUE(c.target.key_sort) << c.why;
    EXPECT_EQ(c.target.order_stride, 1);
}

// On a loop-limited driver the key sort's APPLY_TARGETS folds a key's updates in chunks of what
// one invocation can fold: as many passes as the items could need, up to kMaxTargetChunks.
// APPLY_QUADS: 16 bytes of a target row per invocation where rows are a whole number of 16
// bytes of 4- or 8-byte elements and out, data and updates row-major and aligned.
TEST(VulkanPath, RowMajorRowsOfWholeQuadsFoldSixteenBytesAtATime) {
    const PathChoice w4 = choose(rows(SCATTER_DTYPE_F32, 1000000, 64, 1000000, SCATTER_REDUCTION_ADD), nvidia());
    ASSERT_EQ(w4.path, VulkanPath::Target) << w4.why;
    EXPECT_TRUE(w4.target.quads);
    EXPECT_EQ(w4.target.apply_invocations, 16000000);
    const PathChoice f64 = choose(rows(SCATTER_DTYPE_F64, 1000, 2, 5000, SCATTER_REDUCTION_MEAN), lavapipe());
    EXPECT_TRUE(f64.target.quads);
    EXPECT_EQ(f64.target.apply_invocations, 1000);
    // The buckets (key sort hidden) fold by quads as well.
    PathDevice buckets = nvidia();
    buckets.algorithms.key_sort = false;
    const PathChoice b = choose(rows(SCATTER_DTYPE_F32, 1000, 8, 5000, SCATTER_REDUCTION_ADD), buckets);
    ASSERT_EQ(b.path, VulkanPath::Target) << b.why;
    EXPECT_FALSE(b.target.key_sort);
    EXPECT_TRUE(b.target.quads);
    // Not: rows of 24 bytes, 2-byte and 16-byte elements, an unaligned binding, a strided view,
    // `none`, `div`, elements.
    EXPECT_FALSE(choose(rows(SCATTER_DTYPE_F32, 1000, 8, 5000, SCATTER_REDUCTION_DIV), nvidia()).target.quads);
    EXPECT_FALSE(choose(rows(SCATTER_DTYPE_F32, 1000, 6, 5000, SCATTER_REDUCTION_ADD), nvidia()).target.quads);
    EXPECT_FALSE(choose(rows(SCATTER_DTYPE_F16, 1000, 8, 5000, SCATTER_REDUCTION_ADD), nvidia()).target.quads);
    EXPECT_FALSE(choose(rows(SCATTER_DTYPE_C128, 1000, 4, 5000, SCATTER_REDUCTION_ADD), nvidia()).target.quads);
    PathAlignment unaligned;
    unaligned.quads = false;
    EXPECT_FALSE(choose(rows(SCATTER_DTYPE_F32, 1000, 8, 5000, SCATTER_REDUCTION_ADD), nvidia(), unaligned).target.quads);
    OpPlan strided = rows(SCATTER_DTYPE_F32, 1000, 8, 5000, SCATTER_REDUCTION_ADD);
    strided.updates.contiguous = false;
    EXPECT_FALSE(choose(strided, nvidia()).target.quads);
    const PathChoice none = choose(rows(SCATTER_DTYPE_F32, 1000, 8, 5000, SCATTER_REDUCTION_NONE), nvidia());
    EXPECT_FALSE(none.target.quads);
    EXPECT_EQ(none.target.apply_invocations, 8000);
    PathDevice no_atomics = nvidia();
    no_atomics.algorithms.atomic_path = false;
    no_atomics.algorithms.slab_path = false;
    const PathChoice e = choose(elements(SCATTER_DTYPE_F32, {4096, 4096}, {4096, 4096}, 1, SCATTER_REDUCTION_ADD), no_atomics);
    ASSERT_EQ(e.path, VulkanPath::Target) << e.why;
    EXPECT_FALSE(e.target.quads);
}

TEST(VulkanPath, KeySortOnALoopLimitedDriverFoldsInChunks) {
    OpPlan p = rows(SCATTER_DTYPE_F32, 16, 3, 1000000, SCATTER_REDUCTION_ADD);
    PathChoice c = choose(p, nvidia());
    ASSERT_TRUE(c.target.key_sort);
    EXPECT_EQ(c.target.chunk_items, 0u);  // no loop limit: one pass folds every update
    EXPECT_EQ(c.target.chunks, 1u);
    const PathDevice d = lavapipe();
    c = choose(p, d);
    ASSERT_EQ(c.path, VulkanPath::Target) << c.why;
    ASSERT_TRUE(c.target.key_sort);
    const uint32_t per_pass = loop_limited_items(p, d.loop_limit, true);
    EXPECT_EQ(c.target.chunk_items, per_pass);
    EXPECT_EQ(c.target.chunks, (1000000 + per_pass - 1) / per_pass);
    // Items that one pass folds however they collide: one chunk; one more: two.
    p = rows(SCATTER_DTYPE_F32, 16, 3, per_pass, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(p, d).target.chunks, 1u);
    p = rows(SCATTER_DTYPE_F32, 16, 3, per_pass + 1, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(p, d).target.chunks, 2u);
    // Capped: 4M items would need over a thousand passes; kMaxTargetChunks are recorded.
    p = rows(SCATTER_DTYPE_F32, 16, 3, 4 << 20, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(p, d).target.chunks, kMaxTargetChunks);
    // Slower folds take smaller chunks (f32 division is exact and long on llvmpipe).
    p = rows(SCATTER_DTYPE_F32, 16, 3, 1000000, SCATTER_REDUCTION_DIV);
    EXPECT_LT(choose(p, d).target.chunk_items, per_pass);
    // The bucket passes sort each key's range in one invocation: no chunks there.
    PathDevice no_sort = d;
    no_sort.algorithms.key_sort = false;
    p = rows(SCATTER_DTYPE_F32, 16, 3, 1000000, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(p, no_sort).target.chunks, 1u);
    EXPECT_EQ(choose(p, no_sort).target.chunk_items, 0u);
}

TEST(VulkanPath, TargetTablesBeyondScratchTakeTheOwnerPath) {
    PathDevice d = nvidia();
    d.window_bytes = 1 << 16;  // 4 windows of 16 Ki words
    OpPlan p = rows(SCATTER_DTYPE_F32, 100, 8, 20000, SCATTER_REDUCTION_ADD);  // 3 + 2 words per slice
    PathChoice c = choose(p, d);
    EXPECT_EQ(c.path, VulkanPath::Owner);
    EXPECT_EQ(std::string(c.why), "the target path's tables exceed scratch");
    EXPECT_EQ(c.scratch_words, 60000u);  // the slice tables; no counts without mean/exclude_self
    p.exclude_self = true;
    EXPECT_EQ(choose(p, d).scratch_words, 60000u + 800u);
}

}  // namespace
}  // namespace scatter

namespace scatter {
namespace {

// Issue 43: a VkResult this library did not name (-13) was printed as a bare number.
TEST(VulkanMessages, EveryVkResultHasItsName) {
    EXPECT_STREQ(vk_result_name(-13), "VK_ERROR_UNKNOWN");
    EXPECT_STREQ(vk_result_name(-1000069000), "VK_ERROR_OUT_OF_POOL_MEMORY");
    EXPECT_STREQ(vk_result_name(-4), "VK_ERROR_DEVICE_LOST");
    EXPECT_STREQ(vk_result_name(1000297000), "VK_PIPELINE_COMPILE_REQUIRED");
    for (int32_t r = -13; r <= 5; ++r) EXPECT_EQ(std::string(vk_result_name(r)).rfind("VK_", 0), 0u) << r;
    EXPECT_STREQ(vk_result_name(-424242), "an unnamed VkResult");
}

// Issue 43: SCATTER_VULKAN_PIPELINE_STATS=no turned the diagnostic on (any value did).
TEST(VulkanSwitches, BooleanValuesMeanWhatTheySay) {
    for (const char* on : {"1", "on", "yes", "true", "TRUE", "Yes"}) EXPECT_TRUE(switch_value_on(on)) << on;
    for (const char* off : {"0", "no", "off", "false", "", "NO", "2", "enabled"}) EXPECT_FALSE(switch_value_on(off)) << off;
    EXPECT_FALSE(switch_value_on(nullptr));
}

}  // namespace
}  // namespace scatter

namespace scatter {
namespace {

// Issue 46/49: a misspelt switch name was ignored, so a rerun quietly tested the default path.
TEST(VulkanSwitches, UnknownNamesAreRefused) {
    DeviceSwitches s;
    EXPECT_TRUE(hide_features("storage8,slab_path,", &s).ok());
    EXPECT_FALSE(s.algorithms.slab_path);
    Status status = hide_features("storage8,stroage16", &s);
    EXPECT_EQ(status.code(), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(status.message().find("\"stroage16\""), std::string::npos) << status.message();
    EXPECT_TRUE(hide_features("", &s).ok());
}

// Issue 45: a path whose pipeline the driver refused is skipped, each in the order of the paths.
TEST(VulkanPath, RefusedPathsAreSkippedInOrder) {
    PathDevice d = nvidia_any_slab();
    auto refuse = [&](VulkanPath path) { d.refused_paths |= 1u << static_cast<unsigned>(path); };
    const OpPlan tiny = elements(SCATTER_DTYPE_F32, {8, 8}, {2, 8}, 0, SCATTER_REDUCTION_NONE);
    EXPECT_EQ(choose(tiny, d).path, VulkanPath::Small);
    refuse(VulkanPath::Small);
    PathChoice c = choose(tiny, d);
    EXPECT_EQ(c.path, VulkanPath::Slab) << c.why;
    refuse(VulkanPath::Slab);
    c = choose(tiny, d);
    EXPECT_EQ(c.path, VulkanPath::Target) << c.why;
    const OpPlan add = rows(SCATTER_DTYPE_I32, 1000, 16, 5000, SCATTER_REDUCTION_ADD);
    EXPECT_EQ(choose(add, d).path, VulkanPath::Atomic);
    refuse(VulkanPath::Atomic);
    EXPECT_EQ(choose(add, d).path, VulkanPath::Target);
    refuse(VulkanPath::Target);
    c = choose(add, d);
    EXPECT_EQ(c.path, VulkanPath::Owner);
    EXPECT_NE(std::string(c.why).find("refused"), std::string::npos) << c.why;
}

TEST(VulkanSwitches, RefusalsAreInjectedByModulePrefix) {
    EXPECT_EQ(injected_refusal("", "scatter_f32"), InjectedRefusal::None);
    EXPECT_EQ(injected_refusal("copy,scatter_f3", "scatter_f32_sb"), InjectedRefusal::Error);
    EXPECT_EQ(injected_refusal("copy,scatter_f3", "scatter_f64"), InjectedRefusal::None);
    EXPECT_EQ(injected_refusal("index=null", "index_ad"), InjectedRefusal::NullHandle);
    EXPECT_EQ(injected_refusal("all", "radix_sort_d4"), InjectedRefusal::Error);
    EXPECT_EQ(injected_refusal("gather_ss", "gather"), InjectedRefusal::None);
}

}  // namespace
}  // namespace scatter
