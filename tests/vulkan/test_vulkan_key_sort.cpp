// The key sort (src/vulkan/vk_path.h, TargetLayout::key_sort): reductions on the target path
// (`rows`/`nd`, and `elements` whose fibers exceed shared memory) group their items by key with
// the stable radix sort (ITEM_KEYS, the sort, KEY_RANGES in shaders/buckets.comp; the sort is
// skipped when the keys are already in order), then APPLY_TARGETS folds each key's items in
// row-major order. Every case is compared bitwise with the oracle in every layout (buffers,
// host, strided host), and the profile says whether the sort ran. ctest runs the suite again
// with the atomic path hidden (order-free reductions take the sort too) and with the key sort
// hidden (the bucket passes, count/allocate/place/sort, which then must give the same bytes).
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vulkan_test {
namespace {

bool switched_off(const char* name) {
    const char* hidden = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    return hidden != nullptr && std::strstr(hidden, name) != nullptr;
}

enum class Pattern { Random, OneRow, EveryRowOnce, Sorted, Reverse, FourHotRows, OutOfRange };

const char* pattern_name(Pattern p) {
    switch (p) {
        case Pattern::Random: return "random";
        case Pattern::OneRow: return "one row";
        case Pattern::EveryRowOnce: return "every row once";
        case Pattern::Sorted: return "sorted";
        case Pattern::Reverse: return "reverse sorted";
        case Pattern::FourHotRows: return "four hot rows";
        case Pattern::OutOfRange: return "a third out of range";
    }
    return "?";
}

// The target row of slice k of n over `rows` rows, per `pattern` (-1: out of range).
int64_t row_of(std::mt19937_64& rng, Pattern pattern, int64_t k, int64_t n, int64_t rows,
               const std::vector<int64_t>& permutation) {
    switch (pattern) {
        case Pattern::Random: return int64_t(rng() % uint64_t(rows));
        case Pattern::OneRow: return rows / 3;
        case Pattern::EveryRowOnce: return permutation[size_t(k % rows)];
        case Pattern::Sorted: return k * rows / n;
        case Pattern::Reverse: return (n - 1 - k) * rows / n;
        case Pattern::FourHotRows: return int64_t(rng() % std::min<uint64_t>(4, uint64_t(rows)));
        case Pattern::OutOfRange: return rng() % 3 == 0 ? -1 : int64_t(rng() % uint64_t(rows));
    }
    return 0;
}

std::vector<int64_t> shuffled(std::mt19937_64& rng, int64_t n) {
    std::vector<int64_t> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    std::shuffle(v.begin(), v.end(), rng);
    return v;
}

void put_index(std::vector<uint8_t>* bytes, bool i64, size_t at, int64_t v) {
    if (i64) {
        std::memcpy(bytes->data() + at * 8, &v, 8);
    } else {
        const int32_t w = int32_t(v);
        std::memcpy(bytes->data() + at * 4, &w, 4);
    }
}

bool integer_dtype(scatter_dtype t) {
    return !(t == SCATTER_DTYPE_F16 || t == SCATTER_DTYPE_BF16 || t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F64 ||
             t == SCATTER_DTYPE_C64 || t == SCATTER_DTYPE_C128);
}

void fill_values(std::mt19937_64& rng, Case* c) {
    random_values(rng, c->dtype, c->element_size, size_t(element_count(c->data_shape)), false, &c->data);
    random_values(rng, c->dtype, c->element_size, size_t(element_count(c->update_shape)),
                  integer_dtype(c->dtype) && c->options.reduction == SCATTER_REDUCTION_DIV, &c->updates);
}

void set_kind(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction, Pattern pattern, Case* c) {
    c->dtype = dtype;
    c->element_size = dtype == SCATTER_DTYPE_OPAQUE ? 6u : uint32_t(scatter_dtype_size(dtype));
    c->index_i64 = rng() % 2 == 0;
    c->options.reduction = reduction;
    c->options.out_of_range = pattern == Pattern::OutOfRange
                                  ? (rng() % 2 ? SCATTER_OUT_OF_RANGE_SKIP : SCATTER_OUT_OF_RANGE_CLAMP)
                                  : SCATTER_OUT_OF_RANGE_ERROR;
}

// `rows` along `axis` of data_shape, indices of index_shape (any rank, 0-d too).
Case rows_case(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction,
               const std::vector<int64_t>& data_shape, int axis, const std::vector<int64_t>& index_shape,
               Pattern pattern) {
    Case c;
    c.op = Op::rows;
    set_kind(rng, dtype, reduction, pattern, &c);
    c.options.axis = rng() % 2 ? axis : axis - int(data_shape.size());
    c.data_shape = data_shape;
    c.index_shape = index_shape;
    c.update_shape.assign(data_shape.begin(), data_shape.begin() + axis);
    c.update_shape.insert(c.update_shape.end(), index_shape.begin(), index_shape.end());
    c.update_shape.insert(c.update_shape.end(), data_shape.begin() + axis + 1, data_shape.end());
    const int64_t rows = data_shape[size_t(axis)], n = element_count(index_shape);
    const std::vector<int64_t> permutation = shuffled(rng, rows);
    c.indices.resize(size_t(n) * (c.index_i64 ? 8 : 4));
    for (int64_t k = 0; k < n; ++k) {
        int64_t v = row_of(rng, pattern, k, n, rows, permutation);
        if (v < 0) v = rng() % 2 ? rows + int64_t(rng() % 5) : -rows - 1 - int64_t(rng() % 5);
        else if (rng() % 4 == 0) v -= rows;  // the same row, written negative
        put_index(&c.indices, c.index_i64, size_t(k), v);
    }
    fill_values(rng, &c);
    return c;
}

// `nd` with `slices` index tuples of depth k into data_shape.
Case nd_case(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction,
             const std::vector<int64_t>& data_shape, int k, int64_t slices, Pattern pattern) {
    Case c;
    c.op = Op::nd;
    set_kind(rng, dtype, reduction, pattern, &c);
    c.data_shape = data_shape;
    c.index_shape = {slices, k};
    c.update_shape = {slices};
    c.update_shape.insert(c.update_shape.end(), data_shape.begin() + k, data_shape.end());
    const std::vector<int64_t> row_dims(data_shape.begin(), data_shape.begin() + k);
    const int64_t rows = element_count(row_dims);
    const std::vector<int64_t> permutation = shuffled(rng, rows);
    c.indices.resize(size_t(slices * k) * (c.index_i64 ? 8 : 4));
    for (int64_t j = 0; j < slices; ++j) {
        const int64_t row = row_of(rng, pattern, j, slices, rows, permutation);
        const int bad = row < 0 ? int(rng() % uint64_t(k)) : -1;  // the coordinate out of range
        int64_t rest = row < 0 ? int64_t(rng() % uint64_t(rows)) : row;
        for (int d = k - 1; d >= 0; --d) {
            const int64_t s = data_shape[size_t(d)];
            int64_t v = rest % s;
            rest /= s;
            if (d == bad) v = rng() % 2 ? s + int64_t(rng() % 3) : -s - 1;
            else if (rng() % 4 == 0) v -= s;
            put_index(&c.indices, c.index_i64, size_t(j * k + d), v);
        }
    }
    fill_values(rng, &c);
    return c;
}

// `elements` along `axis`; index values along the axis per `pattern` over the dimension.
Case elements_case(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction,
                   const std::vector<int64_t>& data_shape, const std::vector<int64_t>& index_shape, int axis,
                   Pattern pattern) {
    Case c;
    c.op = Op::elements;
    set_kind(rng, dtype, reduction, pattern, &c);
    c.options.axis = rng() % 2 ? axis : axis - int(data_shape.size());
    c.data_shape = data_shape;
    c.index_shape = c.update_shape = index_shape;
    const int64_t s = data_shape[size_t(axis)], n = index_shape[size_t(axis)];
    int64_t after = 1;  // index elements after the axis
    for (size_t d = size_t(axis) + 1; d < index_shape.size(); ++d) after *= index_shape[d];
    const std::vector<int64_t> permutation = shuffled(rng, s);
    const int64_t count = element_count(index_shape);
    c.indices.resize(size_t(count) * (c.index_i64 ? 8 : 4));
    for (int64_t e = 0; e < count; ++e) {
        int64_t v = row_of(rng, pattern, (e / after) % n, n, s, permutation);
        if (v < 0) v = rng() % 2 ? s + int64_t(rng() % 5) : -s - 1 - int64_t(rng() % 5);
        else if (rng() % 4 == 0) v -= s;
        put_index(&c.indices, c.index_i64, size_t(e), v);
    }
    fill_values(rng, &c);
    return c;
}

class KeySort : public ProfiledVulkanTest {
public:
    // Runs `c` in every layout against the oracle. A successful reduction must have taken the
    // row sort unless the atomic path took it (order-free reductions) or the sort is switched off.
    void check(const Case& c, const std::string& what) {
        SCOPED_TRACE(what + ": " + c.describe());
        const Result want = run_reference(c);
        for (Layout layout : {Layout::Buffer, Layout::Host, Layout::HostStrided}) {
            const Result got = run_case(profiled, c, layout);
            EXPECT_EQ(got.status, want.status) << got.message;
            EXPECT_TRUE(got.out == want.out) << "layout " << int(layout);
            EXPECT_TRUE(got.canary.empty()) << got.canary;
            if (want.status != SCATTER_OK || element_count(c.update_shape) == 0) continue;
            const bool atomic = last_call_ran("atomic_apply");
            if (switched_off("atomic_path")) {
                EXPECT_FALSE(atomic);
            }
            // An `elements` fiber that fits the device's shared memory, or 4 ranges of its targets
            // do, takes the slab path (the fibers here, 40000 targets, fit neither on lavapipe's
            // 32 KiB; they do in 48 KiB).
            const bool slab = last_call_ran("slab") || last_call_ran("slab_atomic");
            const bool sorted =
                c.options.reduction != SCATTER_REDUCTION_NONE && !atomic && !slab && !switched_off("key_sort");
            EXPECT_EQ(last_call_ran("key_sort_scatter"), sorted) << "layout " << int(layout);
            if (sorted) {
                EXPECT_FALSE(last_call_ran("count")) << "layout " << int(layout);
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

// The reductions the atomic path takes where it may (vk_path.cpp atomic_refusal): wrapping
// integer add/sub/mul/max/min, bool's, real float max/min.
bool atomic_path_order_free(scatter_dtype t, scatter_reduction r) {
    if (r == SCATTER_REDUCTION_NONE || r == SCATTER_REDUCTION_MEAN) return false;
    if ((t >= SCATTER_DTYPE_I8 && t <= SCATTER_DTYPE_U64) || t == SCATTER_DTYPE_BOOL) return r != SCATTER_REDUCTION_DIV;
    return t >= SCATTER_DTYPE_F16 && t <= SCATTER_DTYPE_F64 && (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN);
}

TEST_F(KeySort, EveryDtypeAndReductionMatchesTheCpu) {
    std::mt19937_64 rng(61);
    int n = 0, position = 0;
    for (scatter_dtype dtype : kDtypes) {
        for (scatter_reduction r : kReductions) {
            for (bool exclude_self : {false, true}) {
                if (exclude_self && r == SCATTER_REDUCTION_NONE) continue;
                // rows along an outer, the middle or the last axis, and nd of depth 1 and 2.
                Case c;
                switch (n++ % 4) {
                    case 0: c = rows_case(rng, dtype, r, {40, 6}, 0, {90}, Pattern::FourHotRows); break;
                    case 1: c = rows_case(rng, dtype, r, {3, 30, 5}, 1, {7, 11}, Pattern::Random); break;
                    case 2: c = rows_case(rng, dtype, r, {5, 33}, 1, {70}, Pattern::FourHotRows); break;
                    default: c = nd_case(rng, dtype, r, {6, 7, 4}, 2, 120, Pattern::FourHotRows); break;
                }
                if (exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                if (!sweep_selects(position, r, atomic_path_order_free(dtype, r))) continue;
                if (run_reference(c).status == SCATTER_ERROR_UNSUPPORTED) continue;  // not this dtype's
                check(c, std::string(scatter_dtype_name(dtype)) + " " + scatter_reduction_name(r) +
                             (exclude_self ? ", exclude_self" : ""));
            }
        }
        ++position;
    }
}

struct Kind {
    scatter_dtype dtype;
    scatter_reduction r;
    bool exclude_self;
};

const std::vector<Kind> kKinds = {{SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, false},
                                  {SCATTER_DTYPE_F16, SCATTER_REDUCTION_MEAN, true},
                                  {SCATTER_DTYPE_F64, SCATTER_REDUCTION_MUL, true},
                                  {SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, false},
                                  {SCATTER_DTYPE_I32, SCATTER_REDUCTION_MAX, false}};

TEST_F(KeySort, AdversarialIndexPatternsMatchTheCpu) {
    std::mt19937_64 rng(67);
    for (const Kind& k : kKinds) {
        for (Pattern pattern : {Pattern::Random, Pattern::OneRow, Pattern::EveryRowOnce, Pattern::Sorted,
                                Pattern::Reverse, Pattern::FourHotRows, Pattern::OutOfRange}) {
            for (bool in_place : {false, true}) {
                const std::string what = std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) +
                                         ", " + pattern_name(pattern) + (in_place ? ", in place" : "");
                Case rows = rows_case(rng, k.dtype, k.r, {300, 3}, 0, {700}, pattern);
                Case nd = nd_case(rng, k.dtype, k.r, {20, 15, 2}, 2, 700, pattern);
                for (Case* c : {&rows, &nd}) {
                    if (k.exclude_self) c->options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                    c->in_place = in_place;
                    check(*c, what);
                }
            }
        }
    }
}

// Slices at the sort's tile (2048) and one scan block of histograms (8 tiles) +- 1, and target
// rows at the digit boundaries. Under `skip` the marker of a skipped item is a key of its own:
// 255 keys and it fit one 8-bit pass (the result in slot 1), 256 take two (slot 0), 65536
// three. Under `error` and `clamp` 256 keys fit one pass and 65536 two; an index out of range
// under `error` takes the marker, beyond the sorted bits, and the call fails with out unchanged.
TEST_F(KeySort, SizesAtTheSortsLimits) {
    std::mt19937_64 rng(71);
    for (int64_t slices : {int64_t(0), int64_t(1), int64_t(2047), int64_t(2048), int64_t(2049), int64_t(16385)}) {
        Case c = rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {300, 2}, 0, {slices}, Pattern::Random);
        check(c, std::to_string(slices) + " slices");
    }
    for (int64_t rows : {int64_t(1), int64_t(254), int64_t(255), int64_t(256), int64_t(257), int64_t(65536)}) {
        for (Pattern pattern : {Pattern::Random, Pattern::OutOfRange}) {
            for (scatter_out_of_range policy :
                 {SCATTER_OUT_OF_RANGE_SKIP, SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_CLAMP}) {
                Case c = rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {rows, 1}, 0, {2500}, pattern);
                c.options.out_of_range = policy;
                check(c, std::to_string(rows) + " rows, " + pattern_name(pattern) + ", policy " +
                             std::to_string(int(policy)));
            }
        }
    }
}

// Many slices into one row: the sort's work per slice is the same however they collide. On
// llvmpipe a row takes at most what its 65535-iteration loop limit lets APPLY_TARGETS fold
// (2867 f32 adds, 2730 f64 means: beyond, the call fails, see LoopLimit.*), so the counts stay
// below that here; a GPU has no such limit.
TEST_F(KeySort, OneRowHitThousandsOfTimes) {
    std::mt19937_64 rng(73);
    Case c = rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {16, 3}, 0, {2800}, Pattern::OneRow);
    check(c, "f32 add, 2800 slices into row 5 of 16");
    c = nd_case(rng, SCATTER_DTYPE_F64, SCATTER_REDUCTION_MEAN, {4, 4, 2}, 2, 8000, Pattern::FourHotRows);
    check(c, "f64 mean, 8000 tuples into 4 rows");
}

// Target rows a whole number of 16 bytes, 4- and 8-byte dtypes, out, data and updates row-major
// and aligned: the fold reads and writes 16 bytes of a row per invocation (APPLY_QUADS; not for
// `div`, whose four exact divisions an invocation ran slower on a GPU than one), with the
// key's items 4 at a time; rows hit 0 to hundreds of times (the 4-item loop and its remainder),
// every reduction, exclude_self, in place, skipped and clamped slices, outer dims and nd. The
// buffer layout must take the quads (the host layouts may not: strided views never do); a row
// of 6 f32 or 3 f64 never does.
TEST_F(KeySort, QuadsFoldSixteenBytesOfARowLikeTheCpu) {
    std::mt19937_64 rng(149);
    const scatter_dtype dtypes[] = {SCATTER_DTYPE_F32, SCATTER_DTYPE_I32, SCATTER_DTYPE_F64,
                                    SCATTER_DTYPE_I64, SCATTER_DTYPE_U64, SCATTER_DTYPE_C64};
    int n = 0;
    for (scatter_dtype dtype : dtypes) {
        const int64_t quad = 16 / int64_t(scatter_dtype_size(dtype));
        for (scatter_reduction r : kReductions) {
            if (r == SCATTER_REDUCTION_NONE) continue;
            const Pattern pattern = std::vector<Pattern>{Pattern::Random, Pattern::OneRow, Pattern::FourHotRows,
                                                         Pattern::Sorted, Pattern::OutOfRange}[size_t(n % 5)];
            Case c;
            switch (n++ % 3) {
                case 0: c = rows_case(rng, dtype, r, {60, 2 * quad}, 0, {5 + n % 7 * 37}, pattern); break;
                case 1: c = rows_case(rng, dtype, r, {3, 20, quad}, 1, {4, 25}, pattern); break;
                default: c = nd_case(rng, dtype, r, {6, 5, 3 * quad}, 2, 150, pattern); break;
            }
            if (run_reference(c).status == SCATTER_ERROR_UNSUPPORTED) continue;
            for (int variant = 0; variant < 3; ++variant) {
                Case v = c;
                if (variant == 1) v.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                if (variant == 2) v.in_place = true;
                const std::string what = std::string(scatter_dtype_name(dtype)) + " " + scatter_reduction_name(r) +
                                         ", " + pattern_name(pattern) +
                                         (variant == 1 ? ", exclude_self" : variant == 2 ? ", in place" : "");
                check(v, what);
                const Result got = run_case(profiled, v, Layout::Buffer);
                ASSERT_EQ(got.status, run_reference(v).status) << what << ": " << got.message;
                if (got.status != SCATTER_OK || last_call_ran("atomic_apply") || last_call_ran("apply_segments")) continue;
                const bool quads = r != SCATTER_REDUCTION_DIV;  // division: one element an invocation
                EXPECT_EQ(last_call_ran("apply_quads"), quads) << what;
                EXPECT_EQ(last_call_ran("apply_targets"), !quads) << what;
            }
        }
    }
    for (const auto& [dtype, width] : {std::pair<scatter_dtype, int64_t>{SCATTER_DTYPE_F32, 6}, {SCATTER_DTYPE_F64, 3}}) {
        const Case c = rows_case(rng, dtype, SCATTER_REDUCTION_ADD, {60, width}, 0, {300}, Pattern::Random);
        check(c, "rows of 24 bytes");
        ASSERT_EQ(run_case(profiled, c, Layout::Buffer).status, SCATTER_OK);
        EXPECT_FALSE(last_call_ran("apply_quads"));
    }
}

// A million slices into one row (issue 13's "1M updates into 16 rows"), and folds past what one
// llvmpipe invocation may loop through: there APPLY_TARGETS folds each key in chunk passes, each
// continuing from out as the last left it, mean and exclude_self applied once; a GPU folds them
// in one pass. With the key sort hidden the bucket passes keep the loop limit (LoopLimit.*).
TEST_F(KeySort, KeysPastTheLoopLimitFoldInChunks) {
    if (switched_off("key_sort")) GTEST_SKIP() << "the bucket passes refuse these on llvmpipe (LoopLimit.*)";
    std::mt19937_64 rng(97);
    check(rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {16, 3}, 0, {1000000}, Pattern::OneRow),
          "f32 add, 10^6 slices into row 5 of 16");
    Case mean = nd_case(rng, SCATTER_DTYPE_F64, SCATTER_REDUCTION_MEAN, {4, 4, 2}, 2, 30000, Pattern::FourHotRows);
    mean.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
    mean.in_place = true;
    check(mean, "f64 mean exclude_self in place, 30000 tuples into 4 rows");
    check(rows_case(rng, SCATTER_DTYPE_F16, SCATTER_REDUCTION_MEAN, {7, 5}, 1, {3, 9000}, Pattern::OneRow),
          "f16 mean, 27000 slices into one row, axis 1");
    // Rows of one and two quads (APPLY_QUADS): a slice costs its 2 or 4 elements' steps in a loop
    // there, within the same chunks (loop_limited_items' cost per update has the room).
    check(rows_case(rng, SCATTER_DTYPE_C64, SCATTER_REDUCTION_ADD, {4, 2}, 0, {20000}, Pattern::OneRow),
          "c64 add, 20000 slices of one quad into one row");
    check(rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MUL, {5, 8}, 0, {30000}, Pattern::FourHotRows),
          "f32 mul, 30000 slices of two quads into 4 rows");
    // f32 division: the longest fold per update (exact, in integer arithmetic on llvmpipe).
    check(elements_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, {40000}, {20000}, 0, Pattern::OneRow),
          "f32 div, 20000 elements into one target");
    check(elements_case(rng, SCATTER_DTYPE_C64, SCATTER_REDUCTION_MUL, {2, 40000}, {2, 12000}, 1, Pattern::FourHotRows),
          "c64 mul, 12000 elements per fiber into 4 targets");
}

// In place, few updates into a large tensor: the fold runs per sorted item (APPLY_SEGMENTS) and
// `none` per item (GATHER_SEGMENTS), not per out element, and every target no update reaches
// keeps its bytes (the canaries and the CPU's out show it): rows with outer and inner dims, nd,
// elements, skipped and clamped indices, keys already in order (no sort), mean with
// exclude_self, chunk passes, and `none` with duplicates (the last update wins).
TEST_F(KeySort, InPlaceFewUpdatesFoldOnlyTheirTargets) {
    if (switched_off("key_sort")) GTEST_SKIP() << "APPLY_SEGMENTS follows the key sort";
    std::mt19937_64 rng(131);
    std::vector<std::pair<Case, std::string>> cases;
    for (Pattern pattern : {Pattern::Random, Pattern::Sorted, Pattern::OutOfRange, Pattern::FourHotRows})
        cases.emplace_back(rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {2, 3000, 5}, 1, {40}, pattern),
                           std::string("f32 add, 40 slices into [2, 3000, 5] along axis 1, ") + pattern_name(pattern));
    Case mean = rows_case(rng, SCATTER_DTYPE_F64, SCATTER_REDUCTION_MEAN, {5000, 3}, 0, {7, 9}, Pattern::FourHotRows);
    mean.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
    cases.emplace_back(mean, "f64 mean exclude_self, 63 slices into 4 of 5000 rows");
    cases.emplace_back(nd_case(rng, SCATTER_DTYPE_F16, SCATTER_REDUCTION_MUL, {50, 60, 4}, 2, 300, Pattern::Random),
                       "f16 mul, 300 tuples into [50, 60, 4]");
    cases.emplace_back(elements_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {40000}, {500}, 0, Pattern::Random),
                       "f32 add, 500 elements into 40000");
    cases.emplace_back(elements_case(rng, SCATTER_DTYPE_C64, SCATTER_REDUCTION_SUB, {2, 40000}, {2, 300}, 1, Pattern::Reverse),
                       "c64 sub, 300 elements per fiber of 40000, reverse sorted");
    // One target takes 20000 divisions: chunk passes on llvmpipe, each per sorted item.
    cases.emplace_back(elements_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, {40000}, {20000}, 0, Pattern::OneRow),
                       "f32 div, 20000 elements into one target of 40000");
    for (Pattern pattern : {Pattern::FourHotRows, Pattern::OutOfRange})
        cases.emplace_back(rows_case(rng, SCATTER_DTYPE_OPAQUE, SCATTER_REDUCTION_NONE, {2, 3000, 5}, 1, {40}, pattern),
                           std::string("opaque none, 40 slices into [2, 3000, 5] along axis 1, ") + pattern_name(pattern));
    cases.emplace_back(nd_case(rng, SCATTER_DTYPE_F64, SCATTER_REDUCTION_NONE, {50, 60, 4}, 2, 300, Pattern::FourHotRows),
                       "f64 none, 300 tuples into 4 rows of [50, 60, 4]");
    cases.emplace_back(elements_case(rng, SCATTER_DTYPE_I16, SCATTER_REDUCTION_NONE, {100000}, {500}, 0, Pattern::Random),
                       "i16 none, 500 elements into 100000");
    for (auto& [c, what] : cases) {
        c.in_place = true;
        check(c, what);
        const Result got = run_case(profiled, c, Layout::Buffer);
        ASSERT_EQ(got.status, SCATTER_OK) << what << ": " << got.message;
        const bool segments = !switched_off("apply_segments");
        const bool none = c.options.reduction == SCATTER_REDUCTION_NONE;
        EXPECT_EQ(last_call_ran(none ? "gather_segments" : "apply_segments"), segments) << what;
        EXPECT_EQ(last_call_ran(none ? "gather_winner" : "apply_targets"), !segments) << what;
    }
}

// Past the last chunk pass (kMaxTargetChunks x chunk) llvmpipe still cannot fold a key: such a
// call fails with UNSUPPORTED, stating the limit, and writes nothing; at the limit every pass
// runs and the bits are the CPU's. f32 division has the smallest chunks (940 at rank 1).
TEST_F(KeySort, KeysPastTheLastChunkAreRefusedUnchanged) {
    if (switched_off("key_sort")) GTEST_SKIP() << "the bucket passes refuse far earlier (LoopLimit.*)";
    std::mt19937_64 rng(101);
    auto one_target = [&](int64_t updates) {
        return elements_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, {40000}, {updates}, 0, Pattern::OneRow);
    };
    const Case probe = one_target(600000);
    const Result refused = run_case(profiled, probe, Layout::Buffer);
    if (refused.status == SCATTER_OK) GTEST_SKIP() << "no loop limit on this device";
    ASSERT_EQ(refused.status, SCATTER_ERROR_UNSUPPORTED) << refused.message;
    const size_t at = refused.message.find("more than the ");
    ASSERT_NE(at, std::string::npos) << refused.message;
    const int64_t limit = std::stoll(refused.message.substr(at + 14));
    EXPECT_EQ(limit, 512 * 940) << refused.message;
    EXPECT_TRUE(refused.out == probe.data) << "a refused call wrote out";
    EXPECT_TRUE(refused.canary.empty()) << refused.canary;
    check(one_target(limit), "f32 div, the most updates one target may take");
    const Case past = one_target(limit + 1);
    const Result one_more = run_case(profiled, past, Layout::Host);
    EXPECT_EQ(one_more.status, SCATTER_ERROR_UNSUPPORTED) << one_more.message;
    EXPECT_TRUE(one_more.out == past.data) << "a refused call wrote out";
}

// 0-d indices (rows), indices of rank 3, nd with k = rank (one element per slice), empty
// updates, and strides through the host-strided layout of check().
TEST_F(KeySort, IndexShapesAtTheEdges) {
    std::mt19937_64 rng(79);
    check(rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MUL, {9, 4}, 0, {}, Pattern::Random), "0-d indices");
    check(rows_case(rng, SCATTER_DTYPE_C64, SCATTER_REDUCTION_SUB, {2, 9, 3}, 1, {3, 4, 5}, Pattern::Random),
          "indices of rank 3");
    check(nd_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, {5, 6, 7}, 3, 900, Pattern::Random), "nd, k = rank");
    check(nd_case(rng, SCATTER_DTYPE_BF16, SCATTER_REDUCTION_ADD, {50, 3}, 1, 400, Pattern::Reverse), "nd, k = 1");
    // No updates at all: out is data, in place or not.
    for (bool in_place : {false, true}) {
        Case rows = rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MEAN, {9, 4}, 0, {0}, Pattern::Random);
        Case nd = nd_case(rng, SCATTER_DTYPE_I16, SCATTER_REDUCTION_ADD, {5, 6, 7}, 2, 0, Pattern::Random);
        Case elements = elements_case(rng, SCATTER_DTYPE_F64, SCATTER_REDUCTION_MUL, {2, 40000}, {2, 0}, 1, Pattern::Random);
        for (Case* c : {&rows, &nd, &elements}) {
            c->in_place = in_place;
            check(*c, in_place ? "no updates, in place" : "no updates");
        }
    }
}

// `elements` whose fibers exceed lavapipe's 32 KiB of shared memory (8128 f32 targets) take the
// target path and so the key sort: keys are out elements. 1-D (W9's shape, smaller), the last
// axis (sorted along it: the keys are in order and the sort is skipped) and an outer axis.
TEST_F(KeySort, LongElementsFibersMatchTheCpu) {
    std::mt19937_64 rng(89);
    for (const Kind& k : kKinds) {
        for (Pattern pattern : {Pattern::Random, Pattern::OneRow, Pattern::EveryRowOnce, Pattern::Sorted,
                                Pattern::Reverse, Pattern::FourHotRows, Pattern::OutOfRange}) {
            const std::string what = std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) +
                                     ", " + pattern_name(pattern);
            // Hot patterns put up to every update on one target (clamp a sixth on each edge): within
            // llvmpipe's loop limit (f32 div: ~900 exact divisions per invocation).
            const bool hot = pattern == Pattern::OneRow || pattern == Pattern::FourHotRows || pattern == Pattern::OutOfRange;
            Case one_d = elements_case(rng, k.dtype, k.r, {40000}, {hot ? 600 : 6000}, 0, pattern);
            Case last = elements_case(rng, k.dtype, k.r, {2, 40000}, {2, hot ? 600 : 4000}, 1, pattern);
            Case outer = elements_case(rng, k.dtype, k.r, {40000, 3}, {hot ? 600 : 3000, 2}, 0, pattern);
            for (Case* c : {&one_d, &last, &outer}) {
                if (k.exclude_self) c->options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
                c->in_place = rng() % 2 == 0;
                check(*c, what);
            }
        }
    }
}

// `elements` along `axis` with every fiber of indices sorted along the axis and runs of about
// `run` equal targets; `ends`: under policy skip the last few positions of each fiber out of
// range (skipped, keys sorted last), under clamp the first few below and the last few above
// the range (clamped to the ends), else none. Some indices are written negative.
Case sorted_fibers_case(std::mt19937_64& rng, scatter_dtype dtype, scatter_reduction reduction,
                        const std::vector<int64_t>& data_shape, const std::vector<int64_t>& index_shape, int axis,
                        int64_t run, scatter_out_of_range ends) {
    Case c;
    c.op = Op::elements;
    set_kind(rng, dtype, reduction, Pattern::Sorted, &c);
    c.options.out_of_range = ends;
    c.options.axis = axis;
    c.data_shape = data_shape;
    c.index_shape = c.update_shape = index_shape;
    const int64_t s = data_shape[size_t(axis)], n = index_shape[size_t(axis)];
    int64_t after = 1;
    for (size_t d = size_t(axis) + 1; d < index_shape.size(); ++d) after *= index_shape[d];
    const int64_t count = element_count(index_shape), fibers = count / n;
    std::vector<std::vector<int64_t>> sorted(static_cast<size_t>(fibers));
    for (auto& fiber : sorted) {
        const int64_t span = std::max<int64_t>(1, n / run), low = int64_t(rng() % uint64_t(s - span + 1));
        for (int64_t k = 0; k < n; ++k) fiber.push_back(low + int64_t(rng() % uint64_t(span)));
        std::sort(fiber.begin(), fiber.end());
        for (int64_t k = 0; k < 3 && ends != SCATTER_OUT_OF_RANGE_ERROR; ++k) {
            fiber[size_t(n - 1 - k)] = s + int64_t(rng() % 4);
            if (ends == SCATTER_OUT_OF_RANGE_CLAMP) fiber[size_t(k)] = -s - 1 - int64_t(rng() % 4);
        }
    }
    c.indices.resize(size_t(count) * (c.index_i64 ? 8 : 4));
    for (int64_t e = 0; e < count; ++e) {
        const int64_t along = (e / after) % n, fiber = e / (after * n) * after + e % after;
        int64_t v = sorted[size_t(fiber)][size_t(along)];
        if (v >= 0 && v < s && rng() % 4 == 0) v -= s;  // the same target, written negative
        put_index(&c.indices, c.index_i64, size_t(e), v);
    }
    fill_values(rng, &c);
    return c;
}

// Indices sorted along an outer or middle axis (a segment sum broadcast over columns, as
// PyTorch's scatter_add along dim 0 with an expanded index): ITEM_KEYS finds every key at or
// above the key one stride back along the axis (P_ORDER_STRIDE) and the sort is skipped, each
// key's items then being every stride-th from its first (KEY_RANGES' search and the folds step
// by the stride). Runs of several updates per target, so an item one off the stride shows;
// chains that cross from one outer position to the next; skipped and clamped ends; in place
// (APPLY_SEGMENTS); index dims shorter than data's.
TEST_F(KeySort, ElementsSortedAlongAnOuterAxisFoldLikeTheCpu) {
    std::mt19937_64 rng(137);
    struct Sorted {
        scatter_dtype dtype;
        scatter_reduction r;
        bool exclude_self, in_place;
        std::vector<int64_t> data, index;
        int axis;
        scatter_out_of_range ends;
    };
    const std::vector<Sorted> cases = {
        {SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, false, false, {40000, 3}, {12000, 2}, 0, SCATTER_OUT_OF_RANGE_ERROR},
        {SCATTER_DTYPE_F16, SCATTER_REDUCTION_MEAN, true, false, {2, 40000, 3}, {2, 9000, 3}, 1, SCATTER_OUT_OF_RANGE_ERROR},
        {SCATTER_DTYPE_F64, SCATTER_REDUCTION_MUL, false, true, {40000, 2}, {8000, 2}, 0, SCATTER_OUT_OF_RANGE_ERROR},
        {SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, false, false, {40000, 3}, {6000, 3}, 0, SCATTER_OUT_OF_RANGE_SKIP},
        {SCATTER_DTYPE_C64, SCATTER_REDUCTION_SUB, true, true, {40000, 2}, {5000, 2}, 0, SCATTER_OUT_OF_RANGE_CLAMP},
        {SCATTER_DTYPE_I16, SCATTER_REDUCTION_MEAN, false, false, {3, 40000, 2}, {2, 7000, 2}, 1, SCATTER_OUT_OF_RANGE_SKIP},
    };
    for (const Sorted& k : cases) {
        Case c = sorted_fibers_case(rng, k.dtype, k.r, k.data, k.index, k.axis, 4, k.ends);
        if (k.exclude_self) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
        c.in_place = k.in_place;
        check(c, std::string(scatter_dtype_name(k.dtype)) + " " + scatter_reduction_name(k.r) + ", sorted along axis " +
                     std::to_string(k.axis));
    }
}

// Failures leave out unchanged: an index error under policy ERROR, an integer division by zero.
TEST_F(KeySort, FailuresWriteNothing) {
    std::mt19937_64 rng(83);
    Case bad = rows_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, {50, 3}, 0, {400}, Pattern::OutOfRange);
    bad.options.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    check(bad, "an index out of range");
    Case zero = rows_case(rng, SCATTER_DTYPE_I32, SCATTER_REDUCTION_DIV, {50, 3}, 0, {400}, Pattern::Random);
    std::memset(zero.updates.data() + 4 * 700, 0, 4);
    check(zero, "a zero divisor");
    Case bad_element = elements_case(rng, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MUL, {40000}, {5000}, 0, Pattern::OutOfRange);
    bad_element.options.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    check(bad_element, "elements, an index out of range");
}

}  // namespace
}  // namespace vulkan_test
