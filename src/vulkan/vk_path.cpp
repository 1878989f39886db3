#include "vulkan/vk_path.h"

#include "vulkan/vk_loop_limit.h"

#include "radix_sort_shared.h"
#include "scatter_shared.h"

#include <algorithm>

namespace scatter {

const char* vulkan_path_name(VulkanPath path) {
    switch (path) {
        case VulkanPath::Small: return "small";
        case VulkanPath::Slab: return "slab";
        case VulkanPath::Atomic: return "atomic";
        case VulkanPath::Target: return "target";
        case VulkanPath::Owner: return "owner";
    }
    return "?";
}

bool float_max_min(const OpPlan& plan) {
    const scatter_dtype t = plan.data.dtype();
    return (plan.reduction == SCATTER_REDUCTION_MAX || plan.reduction == SCATTER_REDUCTION_MIN) &&
           t >= SCATTER_DTYPE_F16 && t <= SCATTER_DTYPE_F64;
}

namespace {

bool has_counts(const OpPlan& p) { return p.reduction == SCATTER_REDUCTION_MEAN || p.exclude_self; }

bool small_none(const OpPlan& p) {
    return p.op == OpKind::Elements && p.reduction == SCATTER_REDUCTION_NONE &&
           p.out.element_count <= SCATTER_SMALL_TARGETS && p.indices.element_count <= SCATTER_SMALL_ITEMS;
}

// ---- slab ----

}  // namespace

bool slab_atomics(const OpPlan& p, const PathDevice& d) {
    if (!d.algorithms.slab_atomics || p.op != OpKind::Elements) return false;
    const scatter_reduction r = p.reduction;
    const scatter_dtype t = p.data.dtype();
    const bool max_min = r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN;
    const bool order_free = t >= SCATTER_DTYPE_I8 && t <= SCATTER_DTYPE_U64
                                ? max_min || r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB
                                : max_min && (t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F64);
    if (!order_free) return false;
    const uint64_t wide = SCATTER_FEATURE_INT64 | SCATTER_FEATURE_SHARED_INT64_ATOMICS;
    return p.out.element_size != 8 || (d.features & wide) == wide;
}

namespace {

// The slab table's words per target: `none`, the winner; reductions, the value's words (at
// least one) and the hit count if kept; with shared-memory atomics (atomic.comp SLAB), entries of
// the value's width (8-byte values: 64-bit hit counts and first NaNs too) for the value, the hit
// count if kept and a float's first NaN.
int64_t slab_words_per_target(const OpPlan& p, bool atomics) {
    if (p.reduction == SCATTER_REDUCTION_NONE) return 1;
    const int64_t value_words = std::max<int64_t>(1, p.out.element_size / 4);
    if (atomics) return value_words * (1 + (has_counts(p) ? 1 : 0) + (float_max_min(p) ? 1 : 0));
    return value_words + (has_counts(p) ? 1 : 0);
}

// What the device's shared memory holds for the table: beside it, the chunk's slots (scatter.comp
// slab_chunk) and, for the ordered fold, the chunk's update values (slab_chunk_values: every lane
// loads its own, so a lane folding several does not wait on one global load after another).
int64_t slab_most_words(const OpPlan& p, const PathDevice& d, bool atomics) {
    int64_t beside = SCATTER_WORKGROUP_SIZE;
    if (!atomics && p.reduction != SCATTER_REDUCTION_NONE)
        beside += SCATTER_WORKGROUP_SIZE * std::max<int64_t>(1, p.out.element_size / 4);
    return int64_t(d.shared_memory_bytes / 4) - beside;
}

// The table (SLAB_WORDS) that holds `needed` words: size classes of powers of two from
// SMALL_NONE's 1024 words (a pipeline each) up to the most the device holds, so a small tile
// does not take a workgroup's whole shared memory (fewer workgroups per multiprocessor); 0 when
// none fits.
uint32_t slab_table_words(const OpPlan& p, const PathDevice& d, bool atomics, int64_t needed) {
    const int64_t most = slab_most_words(p, d, atomics);
    int64_t words = SCATTER_SMALL_TARGETS;
    while (words < needed || words < int64_t(d.slab_min_words)) words *= 2;
    words = std::min(words, most);
    return needed <= words ? uint32_t(words) : 0;
}

// How the slab path tiles out: fibers per tile (`columns`, 0 when no tiling fits) and targets per
// tile along the axis (`range_targets`: the axis length, or a range of it).
struct SlabTiling {
    int64_t columns = 0, range_targets = 0;
};

// The axis last: one fiber per tile, its targets adjacent. Otherwise as many fibers adjacent along
// the last dim as the largest table holds, so every access runs along the last dim; at most a
// workgroup's width (64 adjacent elements are whole memory transactions, and wider tiles would
// only leave fewer workgroups). On a GPU at least a 32-byte sector's width of them (or the whole
// row): narrower, every access would move a sector for one element, at a row's stride (on an
// H200, W1 in 2-column tiles took 3.5 ms, 1.1 ms on the target path); a CPU's caches keep the
// neighbouring tile's bytes. Where whole fibers that wide do not fit, their targets are split
// into up to kMaxSlabRanges ranges, a tile each (each reads all its fibers' updates). On a
// loop-limited driver, narrower until a lane's loops fit (the caller checks the result).
SlabTiling slab_tiling(const OpPlan& p, const PathDevice& d, bool atomics) {
    const int64_t per_target = slab_words_per_target(p, atomics);
    const int64_t most = slab_most_words(p, d, atomics);
    const int64_t length = p.out.shape[p.axis], items = p.indices.shape[p.axis];
    const int64_t row = uint32_t(p.axis) == p.out.rank - 1 ? 1 : p.out.shape[p.out.rank - 1];
    int64_t least = 1;
    if (d.sector_bytes != 0)
        least = std::min<int64_t>(row, (d.sector_bytes + p.out.element_size - 1) / p.out.element_size);
    SlabTiling t;
    t.columns = std::min<int64_t>({row, most / (length * per_target), SCATTER_WORKGROUP_SIZE});
    t.range_targets = length;
    if (t.columns < least) {
        const int64_t range_most = most / (least * per_target);
        const int64_t ranges = range_most == 0 ? 0 : (length + range_most - 1) / range_most;
        if (ranges == 0 || ranges > kMaxSlabRanges) return SlabTiling();
        t.columns = least;
        t.range_targets = (length + ranges - 1) / ranges;
    }
    while (d.loop_limit != 0 && t.columns > least &&
           slab_loop_iterations(p, t.range_targets * t.columns, items * t.columns) > loop_budget(d.loop_limit))
        --t.columns;
    return t;
}

int64_t slab_tiles(const OpPlan& p, const SlabTiling& t) {
    const int64_t fibers = p.out.element_count / p.out.shape[p.axis];
    const int64_t length = p.out.shape[p.axis];
    const int64_t ranges = (length + t.range_targets - 1) / t.range_targets;
    const uint32_t last = p.out.rank - 1;
    if (uint32_t(p.axis) == last) return fibers * ranges;
    const int64_t row = p.out.shape[last];
    return fibers / row * ((row + t.columns - 1) / t.columns) * ranges;
}

// The slab choice, or why not (a null `why` when it fits): the atomic folds where they apply and
// their (larger) table fits, else the ordered fold.
const char* slab_refusal(const OpPlan& p, const PathDevice& d, const PathAlignment& a, bool* atomics_out,
                         SlabTiling* tiling_out, uint32_t* words_out, bool* subgroups_out) {
    if (!d.algorithms.slab_path) return "the slab path is switched off";
    if (path_refused(d, VulkanPath::Slab)) return "the driver refused a pipeline of the slab path";
    if (p.op != OpKind::Elements) return "rows and nd have no slab path";
    if (p.no_updates() || p.out.empty()) return "nothing to scatter";
    // On a GPU, only where it measured faster (an H200, docs/vulkan.md): `none` along the last
    // axis (W3 0.37-0.40 ms against 0.48-0.62 on the target path). Tiles across an outer axis
    // (W1 5.8 ms against 1.1, W8 1.7 against 0.37, W11 16-23 against 1.9-2.2) and the ordered
    // fold in workgroup-wide chunks (W2 6.0 against 4.2, W10 8.6 against 6.3) were slower than
    // the other paths; the ordered fold by subgroups along the last axis is taken (order-free
    // reductions keep the atomic path there).
    const char* gpu_limit = "on a GPU the slab path is taken only along the last axis, for `none` or the fold by subgroups";
    const bool gpu_limits = d.sector_bytes != 0 && d.algorithms.gpu_slab_limits;
    if (gpu_limits && (uint32_t(p.axis) != p.out.rank - 1 || (p.reduction != SCATTER_REDUCTION_NONE && slab_atomics(p, d))))
        return gpu_limit;
    bool atomics = slab_atomics(p, d);
    SlabTiling t = slab_tiling(p, d, atomics);
    if (t.columns == 0 && atomics) {
        atomics = false;
        t = slab_tiling(p, d, false);
    }
    if (t.columns == 0) return "a tile of out does not fit in shared memory";
    const int64_t items = p.indices.shape[p.axis];
    // (The shaders number a tile's updates up to 4 workgroup widths past the last.)
    if (items > (INT32_MAX - 4 * SCATTER_WORKGROUP_SIZE) / t.columns) return "a tile's updates exceed 32-bit numbering";
    if (slab_tiles(p, t) > INT32_MAX / SCATTER_WORKGROUP_SIZE) return "too many tiles for one dispatch";
    if (p.reduction != SCATTER_REDUCTION_NONE && !p.in_place && !a.data_typed) return "data is not aligned for typed reads";
    if (d.loop_limit != 0 &&
        slab_loop_iterations(p, t.range_targets * t.columns, items * t.columns) > loop_budget(d.loop_limit))
        return "its loops exceed the driver's loop limit";
    const uint32_t words = slab_table_words(p, d, atomics, t.range_targets * slab_words_per_target(p, atomics) * t.columns);
    // The ordered fold by subgroups where the device has ballots, the table's size class and the
    // staged block of updates fit in shared memory together and, on a loop-limited driver, its
    // longer loops fit too; else in workgroup-wide chunks, which the tiling was sized by.
    const bool by_subgroups =
        !atomics && p.reduction != SCATTER_REDUCTION_NONE && d.algorithms.slab_subgroups &&
        words + SCATTER_SLAB_STAGE_WORDS + SCATTER_SLAB_QUEUE_WORDS <= d.shared_memory_bytes / 4 &&
        (d.loop_limit == 0 || slab_loop_iterations(p, t.range_targets * t.columns, items * t.columns, true) <=
                                  loop_budget(d.loop_limit));
    if (gpu_limits && p.reduction != SCATTER_REDUCTION_NONE && !by_subgroups) return gpu_limit;
    *atomics_out = atomics;
    *tiling_out = t;
    *words_out = words;
    *subgroups_out = by_subgroups;
    return nullptr;
}

// ---- atomic ----

// Whether the atomic path may run the plan: an order-free reduction (or allowed
// non-determinism) and atomics wide enough for the element (see atomic.comp); else why not.
const char* atomic_refusal(const OpPlan& p, const PathDevice& d, const PathAlignment& a) {
    const scatter_reduction r = p.reduction;
    if (!d.algorithms.atomic_path) return "the atomic path is switched off";
    if (path_refused(d, VulkanPath::Atomic)) return "the driver refused a pipeline of the atomic path";
    if (p.no_updates()) return "nothing to scatter";
    if (r == SCATTER_REDUCTION_NONE || r == SCATTER_REDUCTION_MEAN) return "`none` and mean have no atomic path";
    const scatter_dtype t = p.data.dtype();
    if (t == SCATTER_DTYPE_C128 || t == SCATTER_DTYPE_OPAQUE) return "no 16-byte atomics";
    // Wrapping integer add/sub/mul/max/min, bool or/and and float max/min (NaN updates set
    // aside, see atomic.comp) give the same bits in any order; everything else only when the
    // caller allows non-determinism.
    const bool integer = t >= SCATTER_DTYPE_I8 && t <= SCATTER_DTYPE_U64;
    const bool order_free = (integer && r != SCATTER_REDUCTION_DIV) || t == SCATTER_DTYPE_BOOL || float_max_min(p);
    if (!order_free && p.deterministic) return "the order of the updates would show";
    if (float_max_min(p)) {  // the first-NaN table: one scratch word per out element
        const uint64_t words = (p.op == OpKind::Elements ? 0 : uint64_t(3 * p.slices)) + uint64_t(p.out.element_count);
        if (words > d.window_bytes * SCATTER_WINDOWS / 4 || words > uint64_t(INT32_MAX))
            return "the first-NaN table does not fit in scratch";
    }
    if (p.out.element_size == 8) {
        const uint64_t needed = SCATTER_FEATURE_INT64 | SCATTER_FEATURE_INT64_ATOMICS;
        if ((d.features & needed) != needed) return "the device has no 64-bit atomics";
        if (!a.out_8) return "out is not 8-aligned for 64-bit atomics";
    }
    return nullptr;
}

}  // namespace

PathChoice choose_path(const OpPlan& p, const PathDevice& d, const PathAlignment& a) {
    PathChoice c;
    c.has_counts = has_counts(p);
    const bool slices = p.op != OpKind::Elements;
    const bool none = p.reduction == SCATTER_REDUCTION_NONE;
    // Slice tables first (rows/nd): target offset, target row and updates offset per slice.
    const uint64_t tables = slices ? uint64_t(3 * p.slices) : 0;

    // The target path's tables, needed to know whether it fits (and by the small path's check).
    TargetLayout t;
    t.keys = slices ? p.target_rows : p.out.element_count;
    t.items = slices ? p.slices : p.indices.element_count;
    t.apply_invocations = p.out.element_count;
    uint64_t cursor = tables;
    auto take = [&](int64_t words) {
        const uint64_t at = cursor;
        cursor += uint64_t(words);
        return at;
    };
    // Reductions group the items by key: a stable radix sort of their keys (bounded work per
    // item however many share a key; its header must lie in the first window, so it comes right
    // after the slice tables), else the bucket passes (count, allocate, place, sort per key).
    bool sorted = !none && p.deterministic && d.algorithms.key_sort && t.items <= int64_t(INT32_MAX);
    if (sorted) {
        // Keys 0..keys - 1, and `keys` for an item the out-of-range policy skips (sorted last).
        // Under `error` and `clamp` nothing is skipped: an item whose index fails takes `keys`
        // too, but the call then fails before anything is written (operation_failed), so its
        // place in the order does not matter and the marker needs no bit of its own (W9's
        // 65536 targets: 16 bits, 2 digit passes, not 3; a [4096, 4096] out: 3, not 4).
        const uint64_t top = uint64_t(t.keys) - (p.policy == SCATTER_OUT_OF_RANGE_SKIP ? 0 : 1);
        uint32_t bits = 1;
        while (bits < 32 && (top >> bits) != 0) ++bits;
        t.sort = radix_sort_layout(uint32_t(t.items), bits, cursor);
        sorted = t.sort.header + RADIX_SORT_H_WORDS <= d.window_bytes / 4;
    }
    // In place, `none` and the key sort's fold can visit only the targets updates reach: per
    // item x (outer x inner) positions instead of per out element, where that is fewer (the other
    // targets keep their bytes). `none`: each winning item writes its targets; reductions: the
    // item that starts its key's sorted run folds the key.
    const int64_t per_item = slices ? p.outer * p.inner : 1;
    const bool segments = d.algorithms.apply_segments && p.in_place && per_item > 0 &&
                          t.items <= p.out.element_count / per_item && t.items * per_item < p.out.element_count;
    // APPLY_QUADS (reductions but `div` of rows/nd over row-major, aligned tensors of 4- or 8-byte
    // elements, rows a whole number of 16 bytes, per out element): an invocation folds 16 bytes.
    // Not `div`: four exact divisions an invocation took 124 registers on the H200 and ran W5
    // 2.2x slower than one per element (the fold is arithmetic-bound there, not latency-bound).
    const int64_t per_quad = p.out.element_size == 4 || p.out.element_size == 8 ? 16 / p.out.element_size : 0;
    const bool quads = slices && !none && p.reduction != SCATTER_REDUCTION_DIV && a.quads && per_quad != 0 &&
                       p.inner % per_quad == 0 && p.out.contiguous && p.updates.contiguous &&
                       (p.in_place || p.data.contiguous);
    if (none) {
        t.winner = take(t.keys);
        t.segments = segments;
    } else if (sorted) {
        t.key_sort = true;
        const uint32_t per_pass = d.loop_limit != 0 ? loop_limited_items(p, d.loop_limit, true) : 0;
        if (per_pass != 0) {  // APPLY_TARGETS in chunks a loop-limited invocation can fold
            t.chunk_items = per_pass;
            const int64_t needed = (t.items + per_pass - 1) / per_pass;
            t.chunks = uint32_t(std::clamp<int64_t>(needed, 1, kMaxTargetChunks));
        }
        t.segments = segments;
        if (!slices)
            for (uint32_t dim = uint32_t(p.axis) + 1; dim < p.indices.rank; ++dim) t.order_stride *= p.indices.shape[dim];
        t.item_keys = t.sort.keys[0];
        t.sorted_keys = t.sort.keys[radix_sort_result_slot(t.sort)];
        t.list = t.sort.payloads[radix_sort_result_slot(t.sort)];
        cursor = t.sort.end;
        t.counts = take(t.keys);
        t.total = take(1);
        t.start = take(t.keys);
    } else {
        t.counts = take(t.keys);
        t.total = take(1);
        t.start = take(t.keys);
        t.rank = take(t.items);
        t.list = take(t.items);
    }
    if (t.segments) t.apply_invocations = t.items * per_item;
    t.quads = quads && !t.segments;
    if (t.quads) t.apply_invocations = p.out.element_count / per_quad;
    const uint64_t windows_words = d.window_bytes * SCATTER_WINDOWS / 4;
    const bool data_ok = none || p.in_place || a.data_typed;
    const bool target_fits = d.algorithms.target_path && !p.no_updates() && data_ok && cursor <= windows_words &&
                             cursor <= uint64_t(INT32_MAX);
    const bool target_ok = target_fits && !path_refused(d, VulkanPath::Target);

    // The small path: the tiny `none` calls, in one workgroup (it stands in for the target path).
    if (target_fits && small_none(p) && !path_refused(d, VulkanPath::Small)) {
        c.path = VulkanPath::Small;
        c.why = "elements `none` small enough for one workgroup";
        return c;
    }
    // The slab path: one pass at the floor's traffic, deterministic for every reduction; before
    // the atomic path (a copy, then a read-modify-write per update), which keeps what it refuses.
    SlabTiling tiling;
    bool atomics = false, by_subgroups = false;
    uint32_t words = 0;
    const char* no_slab = slab_refusal(p, d, a, &atomics, &tiling, &words, &by_subgroups);
    if (no_slab == nullptr) {
        c.path = VulkanPath::Slab;
        c.why = tiling.range_targets == p.out.shape[p.axis] ? "the fibers of out fit in shared memory"
                                                            : "ranges of the fibers of out fit in shared memory";
        c.slab_atomics = atomics;
        c.slab_words = words;
        c.slab_subgroups = by_subgroups;
        c.slab_columns = tiling.columns;
        c.slab_range_targets = tiling.range_targets;
        c.slab_tiles = slab_tiles(p, tiling);
        return c;
    }
    const char* no_atomic = atomic_refusal(p, d, a);
    if (no_atomic == nullptr) {  // the slice tables (exclude_self resets targets, no counts), and
                                 // for float max/min the first-NaN table
        c.path = VulkanPath::Atomic;
        c.why = p.deterministic ? "an order-free reduction" : "non-determinism is allowed";
        c.has_counts = false;
        c.counts_at = tables;
        c.first_nan_at = tables;
        c.scratch_words = tables + (float_max_min(p) ? uint64_t(p.out.element_count) : 0);
        return c;
    }
    if (target_ok) {
        c.path = VulkanPath::Target;
        c.why = slices ? "rows and nd sort their slices by target row" : no_slab;
        c.target = t;
        c.scratch_words = cursor;
        return c;
    }
    c.path = VulkanPath::Owner;
    c.why = !d.algorithms.target_path ? "the target path is switched off"
            : p.no_updates()          ? "nothing to scatter: a copy"
            : target_fits             ? "the driver refused a pipeline of the target path"
            : !data_ok                ? "data is not aligned for typed reads"
                                      : "the target path's tables exceed scratch";
    c.counts_at = tables;
    c.scratch_words = tables + (c.has_counts ? uint64_t(p.out.element_count) : 0);
    return c;
}

}  // namespace scatter
