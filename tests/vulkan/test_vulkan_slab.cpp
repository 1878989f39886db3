// The slab path (shaders/scatter.comp SLAB, and atomic.comp SLAB for order-free reductions):
// `elements`, one workgroup per tile of fibers of out (one fiber along the last axis; fibers
// adjacent along the last dim for an outer axis) with the tile's targets in shared memory. Every
// case runs on a profiling context, is compared bitwise with the oracle in every layout (buffers,
// host, strided host), and checks from the profile that the slab pass ran (or, past the
// shared-memory limit, did not), and which of the two. Run again by ctest with
// SCATTER_VULKAN_DISABLE_FEATURES=large_shared_memory (16 KiB of shared memory, Vulkan's
// minimum) and =slab_atomics (order-free reductions folded in position order too).
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace vulkan_test {
namespace {

enum class Pattern { Random, OneTarget, Sorted, Reverse, Distinct, Hot, OutOfRange };

const char* pattern_name(Pattern p) {
    switch (p) {
        case Pattern::Random: return "random";
        case Pattern::OneTarget: return "one target";
        case Pattern::Sorted: return "sorted";
        case Pattern::Reverse: return "reverse sorted";
        case Pattern::Distinct: return "distinct";
        case Pattern::Hot: return "four hot targets";
        case Pattern::OutOfRange: return "a third out of range";
    }
    return "?";
}

struct FiberShape {
    std::vector<int64_t> data, indices;
    int axis = -1;  // -1: the last one
};

// A case along shape.axis: index values per `pattern` over each index fiber (negative ones
// too), data and updates random (NaN payloads, infinities, signed zeros among them).
Case fiber_case(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction, const FiberShape& shape,
                Pattern pattern) {
    Case c;
    c.op = Op::elements;
    c.dtype = dtype;
    c.element_size = dtype == SCATTER_DTYPE_OPAQUE ? 6u : uint32_t(scatter_dtype_size(dtype));
    c.index_i64 = rng() % 2 == 0;
    c.options.reduction = reduction;
    const int rank = int(shape.data.size());
    const int axis = shape.axis < 0 ? rank - 1 : shape.axis;
    c.options.axis = rng() % 2 ? axis : axis - rank;
    c.options.out_of_range = pattern == Pattern::OutOfRange
                                 ? (rng() % 2 ? SCATTER_OUT_OF_RANGE_SKIP : SCATTER_OUT_OF_RANGE_CLAMP)
                                 : SCATTER_OUT_OF_RANGE_ERROR;
    c.data_shape = shape.data;
    c.index_shape = shape.indices;
    c.update_shape = shape.indices;
    const int64_t s = shape.data[size_t(axis)], n = shape.indices[size_t(axis)];
    const int64_t count = element_count(shape.indices);
    int64_t after = 1;  // index elements after the axis: flat e is at position (e / after) % n
    for (int d = axis + 1; d < rank; ++d) after *= shape.indices[size_t(d)];
    std::vector<int64_t> permutation(static_cast<size_t>(s));
    std::iota(permutation.begin(), permutation.end(), 0);
    std::shuffle(permutation.begin(), permutation.end(), rng);
    std::vector<int64_t> values(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) {
        const int64_t k = (e / after) % n;  // position along the axis
        int64_t v = 0;
        switch (pattern) {
            case Pattern::Random: v = int64_t(rng() % uint64_t(s)); break;
            case Pattern::OneTarget: v = s / 3; break;
            case Pattern::Sorted: v = k * s / n; break;
            case Pattern::Reverse: v = (n - 1 - k) * s / n; break;
            case Pattern::Distinct: v = permutation[size_t(k % s)]; break;
            case Pattern::Hot: v = int64_t(rng() % 4); break;
            case Pattern::OutOfRange:
                v = rng() % 3 == 0 ? (rng() % 2 ? s + int64_t(rng() % 5) : -s - 1 - int64_t(rng() % 5))
                                   : int64_t(rng() % uint64_t(s));
                break;
        }
        if (v >= 0 && v < s && rng() % 4 == 0) v -= s;  // the same target, written negative
        values[size_t(e)] = v;
    }
    c.indices.resize(values.size() * (c.index_i64 ? 8 : 4));
    for (size_t e = 0; e < values.size(); ++e) {
        if (c.index_i64) {
            std::memcpy(c.indices.data() + e * 8, &values[e], 8);
        } else {
            const int32_t v = int32_t(values[e]);
            std::memcpy(c.indices.data() + e * 4, &v, 4);
        }
    }
    const bool integer = !(dtype == SCATTER_DTYPE_F16 || dtype == SCATTER_DTYPE_BF16 || dtype == SCATTER_DTYPE_F32 ||
                           dtype == SCATTER_DTYPE_F64 || dtype == SCATTER_DTYPE_C64 || dtype == SCATTER_DTYPE_C128);
    random_values(rng, dtype, c.element_size, size_t(element_count(c.data_shape)), false, &c.data);
    random_values(rng, dtype, c.element_size, size_t(count), integer && reduction == SCATTER_REDUCTION_DIV,
                  &c.updates);
    return c;
}

bool switched_off(const char* name) {
    const char* hidden = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    return hidden != nullptr && std::strstr(hidden, name) != nullptr;
}

// Shared memory the slab path may use on this device: lavapipe's 32 KiB, or Vulkan's minimum of
// 16 KiB under the test switch.
uint32_t shared_memory_bytes() { return switched_off("large_shared_memory") ? 16384u : 32768u; }

// The slab table's capacity in targets for an element of `element_size` bytes (`none`: a
// winner, one word per target).
int64_t slab_capacity(uint32_t element_size, bool counts, bool none = false) {
    const int64_t value_words = std::max<int64_t>(1, element_size / 4);
    // Beside it: the chunk's 64 slots and, for the ordered fold, its 64 update values.
    const int64_t words = int64_t(shared_memory_bytes() / 4) - 64 - (none ? 0 : 64 * value_words);
    return words / ((none ? 1 : value_words) + (counts ? 1 : 0));
}

// The same for the atomic folds: entries of the element's width for the value, the hit count
// (exclude_self) and the first NaN (floats).
int64_t slab_atomic_capacity(uint32_t element_size, bool counts, bool first_nan) {
    const int64_t words = int64_t(shared_memory_bytes() / 4) - 64;
    return words / (std::max<int64_t>(1, element_size / 4) * (1 + (counts ? 1 : 0) + (first_nan ? 1 : 0)));
}

// Whether fibers of `length` targets fit a table of `capacity` targets in at most 4 target ranges
// (vk_path.h kMaxSlabRanges), a tile each.
bool fits_in_ranges(int64_t length, int64_t capacity) {
    return capacity > 0 && (length + capacity - 1) / capacity <= 4;
}

// The reductions the slab folds with shared-memory atomics (vk_path.h slab_atomics): integer
// add/sub/max/min and f32/f64 max/min (lavapipe has 64-bit shared atomics).
bool slab_atomics_order_free(scatter_dtype t, scatter_reduction r) {
    const bool max_min = r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN;
    if (t >= SCATTER_DTYPE_I8 && t <= SCATTER_DTYPE_U64)
        return max_min || r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB;
    return max_min && (t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F64);
}

// Whether a slab call of this kind folds with shared-memory atomics: unless switched off.
bool slab_atomics_expected(scatter_dtype t, scatter_reduction r) {
    return !switched_off("slab_atomics") && slab_atomics_order_free(t, r);
}

class Slab : public ProfiledVulkanTest {
public:
    // Runs `c` in every layout against the oracle; `slab`: whether the slab pass must run (the
    // atomic folds where slab_atomics_expected and their table holds a fiber, else the ordered).
    void check(const Case& c, bool slab, const std::string& what) {
        const int rank = int(c.data_shape.size());
        const int64_t length = c.data_shape[size_t((c.options.axis + rank) % rank)];
        const bool is_float = c.dtype == SCATTER_DTYPE_F32 || c.dtype == SCATTER_DTYPE_F64;
        const bool exclude_self = (c.options.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0;
        const bool atomics = slab && slab_atomics_expected(c.dtype, c.options.reduction) &&
                             fits_in_ranges(length, slab_atomic_capacity(c.element_size, exclude_self, is_float));
        check_pass(c, !slab ? "" : atomics ? "slab_atomic" : "slab", what);
    }

    // The same with the slab pass named: "slab", "slab_atomic" or "" (neither).
    void check_pass(const Case& c, const std::string& pass, const std::string& what) {
        SCOPED_TRACE(what + ": " + c.describe());
        const Result want = run_reference(c);
        for (Layout layout : {Layout::Buffer, Layout::Host, Layout::HostStrided}) {
            const Result got = run_case(profiled, c, layout);
            EXPECT_EQ(got.status, want.status) << got.message;
            EXPECT_TRUE(got.out == want.out) << "layout " << int(layout);
            EXPECT_TRUE(got.canary.empty()) << got.canary;
            // Which pass runs is lavapipe's geometry here (32 KiB, a loop limit, a CPU's
            // caches); on a real GPU, or lavapipe choosing as one, these check the bits only.
            if (want.status == SCATTER_OK && on_lavapipe() && !switched_off("cpu_caches")) {
                EXPECT_EQ(last_call_ran("slab"), pass == "slab") << "layout " << int(layout);
                EXPECT_EQ(last_call_ran("slab_atomic"), pass == "slab_atomic") << "layout " << int(layout);
            }
        }
    }
};

const scatter_dtype kDtypes[] = {SCATTER_DTYPE_F32, SCATTER_DTYPE_F16,  SCATTER_DTYPE_BF16, SCATTER_DTYPE_F64,
                                 SCATTER_DTYPE_I8,  SCATTER_DTYPE_I16,  SCATTER_DTYPE_I32,  SCATTER_DTYPE_I64,
                                 SCATTER_DTYPE_U8,  SCATTER_DTYPE_U64,  SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64,
                                 SCATTER_DTYPE_C128};
const scatter_reduction kReductions[] = {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB,
                                         SCATTER_REDUCTION_MUL,  SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MAX,
                                         SCATTER_REDUCTION_MIN,  SCATTER_REDUCTION_MEAN};

// Every reduction takes the slab path where a fiber fits, order-free ones too (before the atomic
// path), except complex division, whose folds exceed what llvmpipe's loop limit lets one lane do
// for 5 chunks of 64.
bool slab_expected(scatter_dtype dtype, scatter_reduction r) {
    return !(r == SCATTER_REDUCTION_DIV && (dtype == SCATTER_DTYPE_C64 || dtype == SCATTER_DTYPE_C128));
}

// Every dtype and reduction, with and without exclude_self, `Hot` indices, each case on the shape
// `shape_of(case number, exclude_self)` names; then opaque `none` on `opaque_shape`.
template <class ShapeOf>
void check_every_dtype_and_reduction(Slab& test, std::mt19937_64& rng, ShapeOf shape_of, const FiberShape& opaque_shape) {
    int n = 0, position = 0;
    for (scatter_dtype dtype : kDtypes) {
        for (scatter_reduction r : kReductions) {
            for (bool exclude_self : {false, true}) {
                if (exclude_self && r == SCATTER_REDUCTION_NONE) continue;
                Case c = fiber_case(rng, dtype, r, shape_of(n++, exclude_self), Pattern::Hot);
                if (!sweep_selects(position, r, slab_atomics_order_free(dtype, r))) continue;
                if (exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                const Result want = run_reference(c);
                if (want.status != SCATTER_OK) continue;  // a reduction the dtype does not have
                test.check(c, slab_expected(dtype, r), std::string(scatter_dtype_name(dtype)) + " " + scatter_reduction_name(r));
            }
        }
        ++position;
    }
    // Opaque elements (6 bytes): `none` only, a byte copy.
    if (!sweep_selects(position, SCATTER_REDUCTION_NONE, false)) return;
    test.check(fiber_case(rng, SCATTER_DTYPE_OPAQUE, SCATTER_REDUCTION_NONE, opaque_shape, Pattern::Random), true,
               "opaque none");
}

TEST_F(Slab, EveryDtypeAndReductionMatchesTheCpu) {
    std::mt19937_64 rng(41);
    // 6 fibers of 300 targets; indices reach the first 5 (the 6th is only copied), 317 per fiber
    // (no multiple of a subgroup's width: the fold by subgroups has a part-filled chunk to fold
    // at the end of its block, even where every update goes to one subgroup's share).
    const FiberShape shape{{2, 3, 300}, {2, 3, 317}};
    const FiberShape shorter{{2, 3, 300}, {2, 2, 317}};
    check_every_dtype_and_reduction(
        *this, rng, [&](int, bool exclude_self) -> const FiberShape& { return exclude_self ? shorter : shape; }, shape);
}

struct Kind {
    scatter_dtype dtype;
    scatter_reduction r;
    bool exclude_self;
};

// Each kind under every index pattern, on the shape `shape_of(kind)` names, out of place and in
// place as `in_place_rounds(pattern)` lists.
template <class ShapeOf, class InPlaceRounds>
void check_patterns(Slab& test, std::mt19937_64& rng, const std::vector<Kind>& kinds, ShapeOf shape_of,
                    InPlaceRounds in_place_rounds) {
    for (const Kind& k : kinds) {
        for (Pattern pattern : {Pattern::Random, Pattern::OneTarget, Pattern::Sorted, Pattern::Reverse,
                                Pattern::Distinct, Pattern::Hot, Pattern::OutOfRange}) {
            for (bool in_place : in_place_rounds(pattern)) {
                Case c = fiber_case(rng, k.dtype, k.r, shape_of(k), pattern);
                if (k.exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                c.in_place = in_place;
                test.check(c, true,
                           std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) + ", " +
                               pattern_name(pattern) + (in_place ? ", in place" : ""));
            }
        }
    }
}

TEST_F(Slab, AdversarialIndexPatternsMatchTheCpu) {
    std::mt19937_64 rng(43);
    const FiberShape shape{{4, 1100}, {3, 1300}};
    // f32 division's folds cost more loop iterations: a shorter index fiber keeps it within what
    // llvmpipe lets the slab path take (and the target path would refuse 1300 into one target).
    const FiberShape shape_for_div{{4, 1100}, {3, 600}};
    check_patterns(*this, rng,
                   {{SCATTER_DTYPE_F32, SCATTER_REDUCTION_NONE, false},
                    {SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, false},
                    {SCATTER_DTYPE_F16, SCATTER_REDUCTION_MEAN, true},
                    {SCATTER_DTYPE_F64, SCATTER_REDUCTION_MUL, true},
                    {SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, false}},
                   [&](const Kind& k) -> const FiberShape& { return k.r == SCATTER_REDUCTION_DIV ? shape_for_div : shape; },
                   [](Pattern) { return std::vector<bool>{false, true}; });
}

// A trailing dimension of size 1 after the axis keeps the fiber contiguous: still the slab.
TEST_F(Slab, TrailingDimensionsOfSizeOne) {
    std::mt19937_64 rng(47);
    Case c = fiber_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {{3, 1200}, {3, 1500}}, Pattern::Random);
    c.data_shape = {3, 1200, 1};
    c.index_shape = c.update_shape = {3, 1500, 1};
    c.options.axis = 1;
    check(c, true, "f32 add over [3, 1200, 1], axis 1");
    c.options.axis = -2;
    check(c, true, "axis -2");
}

// An outer axis: tiles of fibers adjacent along the last dim share a table, interleaved. Rows
// of out end in a narrower tile, indices reach only part of a row (and only some rows), and an
// axis in the middle walks three other dims.
TEST_F(Slab, OuterAxisTilesEveryDtypeAndReductionMatchTheCpu) {
    std::mt19937_64 rng(67);
    const FiberShape axis0{{150, 40}, {320, 37}, 0};
    const FiberShape axis0_shorter{{150, 2, 40}, {320, 1, 37}, 0};
    const FiberShape middle{{2, 90, 3, 11}, {2, 320, 2, 10}, 1};
    check_every_dtype_and_reduction(
        *this, rng,
        [&](int n, bool) -> const FiberShape& { return n % 3 == 0 ? axis0 : n % 3 == 1 ? axis0_shorter : middle; },
        axis0);
}

TEST_F(Slab, OuterAxisAdversarialIndexPatternsMatchTheCpu) {
    std::mt19937_64 rng(71);
    // 700 targets per fiber: lavapipe's table holds 11 of them for f32 (or fewer tiles, as its
    // loop limit allows); 150 columns per row, 100 reached.
    const FiberShape shape{{700, 150}, {800, 100}, 0};
    check_patterns(*this, rng,
                   {{SCATTER_DTYPE_F32, SCATTER_REDUCTION_NONE, false},
                    {SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, false},
                    {SCATTER_DTYPE_F16, SCATTER_REDUCTION_MEAN, true}},
                   [&](const Kind&) -> const FiberShape& { return shape; },
                   [](Pattern p) { return std::vector<bool>{p == Pattern::Sorted || p == Pattern::Hot}; });
}

// Tile widths at the table's limit: fibers of `length` targets with the last dim one short of,
// at, and one past a multiple of the width the table holds; a fiber at the limit (one column)
// and one past it (the target-parallel path).
TEST_F(Slab, OuterAxisTileWidthsAtTheLimit) {
    std::mt19937_64 rng(73);
    const int64_t capacity = slab_capacity(4, false);  // f32 `add`: one word per target
    const int64_t length = 1100, width = std::min<int64_t>(64, capacity / length);
    for (int64_t row : {width - 1, width, width + 1, 2 * width + 1}) {
        Case c = fiber_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {{length, row}, {60, row}, 0}, Pattern::Random);
        check(c, true, "f32 add, fibers of " + std::to_string(length) + ", rows of " + std::to_string(row));
    }
    // Past one table: target ranges, up to 4.
    for (int64_t targets : {capacity, capacity + 1, 4 * capacity, 4 * capacity + 1}) {
        Case c = fiber_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {{targets, 3}, {40, 3}, 0}, Pattern::Random);
        check(c, targets <= 4 * capacity, "f32 add, axis 0, " + std::to_string(targets) + " targets per fiber");
    }
}

// Fibers at the table's size classes and at the device's limit, and one target past it (the
// target-parallel path then).
TEST_F(Slab, FibersAtTheSharedMemoryLimitAndOnePast) {
    std::mt19937_64 rng(53);
    for (Kind k : {Kind{SCATTER_DTYPE_F32, SCATTER_REDUCTION_NONE, false},
                   Kind{SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, false},
                   Kind{SCATTER_DTYPE_F32, SCATTER_REDUCTION_MEAN, false},
                   Kind{SCATTER_DTYPE_C128, SCATTER_REDUCTION_ADD, false},
                   Kind{SCATTER_DTYPE_F16, SCATTER_REDUCTION_SUB, false}}) {
        const uint32_t size = uint32_t(scatter_dtype_size(k.dtype));
        const int64_t limit = k.r == SCATTER_REDUCTION_NONE ? slab_capacity(4, false, true)
                                                            : slab_capacity(size, k.r == SCATTER_REDUCTION_MEAN);
        // Past one table, the fibers split into target ranges, up to 4.
        for (int64_t targets : {int64_t(1024), int64_t(1025), limit - 1, limit, limit + 1, 4 * limit, 4 * limit + 1}) {
            // `none` below 1025 targets with few items is the small path's.
            if (k.r == SCATTER_REDUCTION_NONE && targets <= 1024) continue;
            Case c = fiber_case(rng, k.dtype, k.r, {{2, targets}, {2, 128}}, Pattern::Random);
            check(c, targets <= 4 * limit,
                  std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) + ", " +
                      std::to_string(targets) + " targets (limit " + std::to_string(limit) + ")");
        }
    }
}

// On llvmpipe the slab path is taken only while its loops fit the driver's limit even with every
// update of a chunk on one lane (src/vulkan/vk_loop_limit.h slab_loop_iterations). At the largest
// count it takes, ones added into one zero target must give the count exactly: a loop cut short
// would show. (Above that count the target-parallel path takes the call, or refuses it.)
TEST_F(Slab, AtTheLargestCountItTakesIntoOneTargetTheSumIsExact) {
    std::mt19937_64 rng(61);
    for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_F64, SCATTER_DTYPE_C64, SCATTER_DTYPE_C128}) {
        auto ones_into_one_target = [&](int64_t n) {
            Case c = fiber_case(rng, dtype, SCATTER_REDUCTION_ADD, {{1, 64}, {1, n}}, Pattern::OneTarget);
            std::fill(c.data.begin(), c.data.end(), 0);
            const size_t part = dtype == SCATTER_DTYPE_F32 || dtype == SCATTER_DTYPE_C64 ? 4 : 8;
            const size_t size = scatter_dtype_size(dtype);
            for (size_t e = 0; e < size_t(n); ++e) {
                std::fill(c.updates.begin() + e * size, c.updates.begin() + (e + 1) * size, 0);
                const float one32 = 1.0f;
                const double one64 = 1.0;
                std::memcpy(&c.updates[e * size], part == 4 ? static_cast<const void*>(&one32) : &one64, part);
            }
            return c;
        };
        auto takes_slab = [&](int64_t n) {  // (add of floats: the ordered fold)
            const Result r = run_case(profiled, ones_into_one_target(n), Layout::Buffer);
            return r.status == SCATTER_OK && last_call_ran("slab");
        };
        int64_t taken = 1, refused = int64_t(1) << 16;
        if (!on_lavapipe()) {  // a real GPU has no loop limit: 2^16 ones, exactly
            check(ones_into_one_target(refused), true, std::string(scatter_dtype_name(dtype)) + ", 65536 ones into one target");
            continue;
        }
        ASSERT_TRUE(takes_slab(taken)) << scatter_dtype_name(dtype);
        ASSERT_FALSE(takes_slab(refused)) << scatter_dtype_name(dtype) << ": no bound on llvmpipe?";
        while (refused - taken > 1) {
            const int64_t mid = (taken + refused) / 2;
            (takes_slab(mid) ? taken : refused) = mid;
        }
        Case c = ones_into_one_target(taken);
        const Result want = run_reference(c);
        ASSERT_EQ(want.status, SCATTER_OK);
        check(c, true, std::string(scatter_dtype_name(dtype)) + ", " + std::to_string(taken) + " ones into one target");
    }
}

// The order-free reductions fold with shared-memory atomics (atomic.comp SLAB): every dtype of
// theirs, add/sub/max/min, under every index pattern (one target: all 64 lanes on one entry),
// with and without exclude_self, out of place and in place, along the last and an outer axis.
TEST_F(Slab, OrderFreeReductionsFoldWithSharedAtomicsUnderEveryPattern) {
    std::mt19937_64 rng(79);
    const FiberShape last{{3, 700}, {2, 900}};
    const FiberShape outer{{300, 7}, {500, 5}, 0};
    int n = 0;
    for (scatter_dtype dtype : {SCATTER_DTYPE_I8, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
                                SCATTER_DTYPE_U8, SCATTER_DTYPE_U16, SCATTER_DTYPE_U32, SCATTER_DTYPE_U64,
                                SCATTER_DTYPE_F32, SCATTER_DTYPE_F64}) {
        for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MAX,
                                    SCATTER_REDUCTION_MIN}) {
            const bool is_float = dtype == SCATTER_DTYPE_F32 || dtype == SCATTER_DTYPE_F64;
            if (is_float && (r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB)) continue;
            for (Pattern pattern : {Pattern::Random, Pattern::OneTarget, Pattern::Sorted, Pattern::Reverse,
                                    Pattern::Distinct, Pattern::OutOfRange}) {
                Case c = fiber_case(rng, dtype, r, ++n % 2 ? last : outer, pattern);
                if (rng() % 2) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                c.in_place = rng() % 3 == 0;
                check(c, true, std::string(scatter_dtype_name(dtype)) + " " + scatter_reduction_name(r) + ", " +
                                   pattern_name(pattern) + (c.in_place ? ", in place" : ""));
            }
        }
    }
}

// Float max/min on the atomic folds: order entries for every sign, exponent and mantissa (f64:
// full low words), -0 and +0 racing for one target, infinities, and NaNs: a NaN self stays, else
// a target's first NaN update in position order wins (a few targets get several).
TEST_F(Slab, FloatMaxMinOfRandomBitPatternsWithNaNsMatchTheCpu) {
    std::mt19937_64 rng(83);
    for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_F64}) {
        for (scatter_reduction r : {SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN}) {
            for (Pattern pattern : {Pattern::Random, Pattern::OneTarget, Pattern::Hot}) {
                for (bool exclude_self : {false, true}) {
                    Case c = fiber_case(rng, dtype, r, {{2, 900}, {2, 1000}}, pattern);
                    const size_t size = scatter_dtype_size(dtype);
                    const bool nans = pattern == Pattern::Random;  // else every target would end NaN
                    auto fill = [&](std::vector<uint8_t>* bytes) {
                        for (size_t e = 0; e < bytes->size() / size; ++e) {
                            uint64_t bits = rng();
                            const uint64_t sign = bits >> 63 << 63;
                            const uint64_t all_ones = size == 4 ? 0x7f800000ull << 32 : 0x7ff0000000000000ull;
                            switch (rng() % 64) {
                                case 0: bits = sign | all_ones; break;                     // an infinity
                                case 1: if (nans) bits = sign | all_ones | (bits & 0xfffff) | 1; break;
                                case 2: case 3: bits = sign; break;                        // a zero
                                default:
                                    if ((bits & all_ones) == all_ones) bits ^= size == 4 ? 1ull << 55 : 1ull << 52;
                            }
                            if (size == 4) bits >>= 32;
                            std::memcpy(bytes->data() + e * size, &bits, size);
                        }
                    };
                    fill(&c.data);
                    fill(&c.updates);
                    if (exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                    check(c, true, std::string(scatter_dtype_name(dtype)) + " " + scatter_reduction_name(r) + ", " +
                                       pattern_name(pattern));
                }
            }
        }
    }
}

// The atomic folds' tables at the device's limit and one past (two target ranges), at 4 ranges
// and one past, where the ordered fold (whose table is smaller) takes over until its own 4
// ranges: i64 max with hit counts (64-bit entries: 4 words per target against 3), f32 min with
// first NaNs (2 words against 1), u16 add (1 word each).
TEST_F(Slab, AtomicFoldsAtTheSharedMemoryLimitAndOnePast) {
    std::mt19937_64 rng(89);
    for (Kind k : {Kind{SCATTER_DTYPE_I64, SCATTER_REDUCTION_MAX, true}, Kind{SCATTER_DTYPE_F32, SCATTER_REDUCTION_MIN, false},
                   Kind{SCATTER_DTYPE_U16, SCATTER_REDUCTION_ADD, false}}) {
        const uint32_t size = uint32_t(scatter_dtype_size(k.dtype));
        const bool atomics = slab_atomics_expected(k.dtype, k.r);
        const int64_t atomic_limit = atomics ? slab_atomic_capacity(size, k.exclude_self, k.dtype == SCATTER_DTYPE_F32) : 0;
        const int64_t ordered_limit = slab_capacity(size, k.exclude_self);
        for (int64_t targets : {atomic_limit, atomic_limit + 1, 4 * atomic_limit, 4 * atomic_limit + 1, 4 * ordered_limit,
                                4 * ordered_limit + 1}) {
            if (targets < 2) continue;
            Case c = fiber_case(rng, k.dtype, k.r, {{2, targets}, {2, 200}}, Pattern::Random);
            if (k.exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
            const std::string pass = fits_in_ranges(targets, atomic_limit)    ? "slab_atomic"
                                     : fits_in_ranges(targets, ordered_limit) ? "slab"
                                                                              : "";
            check_pass(c, pass,
                       std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) + ", " +
                           std::to_string(targets) + " targets (atomic limit " + std::to_string(atomic_limit) +
                           ", ordered " + std::to_string(ordered_limit) + ")");
        }
    }
}

// A bad index anywhere, or a zero integer divisor, leaves out untouched (the validation passes
// run before the slab pass, which then writes nothing).
TEST_F(Slab, FailuresWriteNothing) {
    std::mt19937_64 rng(59);
    Case c = fiber_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {{4, 1100}, {4, 1100}}, Pattern::Random);
    const int64_t bad = 2 * 1100 + 777, huge = 5000;
    if (c.index_i64) {
        std::memcpy(c.indices.data() + bad * 8, &huge, 8);
    } else {
        const int32_t v = int32_t(huge);
        std::memcpy(c.indices.data() + bad * 4, &v, 4);
    }
    EXPECT_EQ(run_reference(c).status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    check(c, false, "a bad index in the third fiber");

    Case d = fiber_case(rng, SCATTER_DTYPE_I32, SCATTER_REDUCTION_DIV, {{4, 1100}, {4, 1100}}, Pattern::Random);
    std::memset(d.updates.data() + 3 * 1100 * 4 + 40, 0, 4);
    EXPECT_EQ(run_reference(d).status, SCATTER_ERROR_INVALID_ARGUMENT);
    check(d, false, "a zero divisor in the last fiber");
}

}  // namespace
}  // namespace vulkan_test
