#include "cpu/scatter_elements.h"

#include "core/checked_math.h"
#include "core/index_rules.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_bytes.h"
#include "cpu/cpu_switches.h"
#include "cpu/dispatch.h"
#include "cpu/kernel_context.h"
#include "cpu/prefetch.h"

#include <algorithm>
#include <cstring>

namespace scatter {
namespace {

// Target state per task stays under this many entries (so mean on a long axis splits the inner
// dimension into smaller chunks rather than allocating a huge table).
constexpr int64_t kCountBudget = 1 << 18;

// The largest unit (axis_size x chunk elements of out) that copies its own targets.
constexpr int64_t kUnitCopyBytes = 1 << 20;

// A reduction along an outer axis reads a random row of out per update: the load, not the
// arithmetic, is the cost (W8: 15 ns per update on one core). The target this many updates ahead
// is prefetched, so that many misses are in flight instead of the few the reorder window holds
// (W8, this machine: 70-93 -> 38-52 ms on one thread). `none` only stores, and gains nothing.
constexpr int64_t kTargetPrefetch = 32;

// A unit's targets too many for L2 (W1: 4096 rows x 512 columns of f32, 8 MiB: each update a
// store to another line and another page) are gathered into a contiguous stage of at most this
// many bytes (whole 64-byte lines of each row; W1: 48 columns), scattered into there, and written
// back to out once. W1 on this machine, 1 / 2 threads: 97-106 / 53-63 -> 58-61 / 31-34 ms;
// W8 35-39 / 23 -> 19-21 / 11-12 ms (512 KiB stages: W1 70 / 37 ms; 1 MiB: noisier at 2 threads).
constexpr int64_t kStageBytes = 768 << 10;
// The stage's units read a short piece of each data, index and update row, one row after another,
// a stride the hardware prefetchers do not follow: the pieces this many rows ahead are prefetched
// (data's while filling the stage: W1 1 / 2 threads 59-60 / 34 -> 49-52 / 29-30 ms, W8 20 / 11.5
// -> 17-18 / 9.7). Since the prefetches go to L2 (prefetch.h), 16 rows ahead beat 8 (median of
// the minimums of 4 runs of 5, 1 / 2 threads: W1 53.0 / 28.9 -> 48.9 / 27.3 ms, W11 44.4 -> 42.5 /
// same, W8 17.5 / 9.8 -> 17.2 / 9.6; 4 rows was slower, 24 and 32 the same as 16).
constexpr int64_t kStagePrefetchRows = 16;
// A staged out this large is written back with non-temporal stores (W1, 1 / 2 threads: 65-72 /
// 40-41 -> 58-61 / 31-34 ms).
constexpr int64_t kStreamOutBytes = 16 << 20;

// Tensor slots in the loop dimensions.
enum { kIdx = 0, kUpd = 1, kOut = 2, kData = 3 };

struct ElementsLayout {
    LoopDims<4> outer, inner;
    int64_t updates_per_fiber = 0;  // indices.shape[axis]
    int64_t axis_size = 0;          // data.shape[axis]
    int64_t axis_stride[4] = {};
    int64_t chunk = 1;              // the most inner positions a unit covers
    int64_t grain = 1;              // units cover whole grains of inner positions (see lead)
    int64_t grains_per_outer = 1;
    int64_t chunks_per_outer = 1;   // units per outer position
    int64_t units = 0;
    // Each unit copies its own targets from data just before scattering into them (instead of
    // one copy of the whole tensor first): out is then written once and read back from cache.
    // Possible when the units cover out, i.e. indices span data in every dimension but the axis;
    // worth it when a unit's targets fit in L2 (W2: 16 KiB fibers, 1.3x; W1's 8 MiB tiles: no gain).
    bool unit_copies = false;
    // Each unit scatters into a stage (kStageBytes) filled from data (stage_from_data) or from out
    // (in place, or out filled first where the units do not cover it).
    bool staged = false;
    bool stage_from_data = false;
    bool stream_out = false;
    int64_t stage_bytes = 0;  // per task, a multiple of 64
    // Grain k covers inner positions [k * grain - lead, (k + 1) * grain - lead) within the fiber,
    // and unit c of an outer position the grains [split_point(grains_per_outer, c,
    // chunks_per_outer), split_point(grains_per_outer, c + 1, chunks_per_outer)) (unit_span).
    // Staged units take grains of one 64-byte line of out and start where out's rows start a line
    // (malloc's 16-byte offset would otherwise make each 128-byte piece three lines: W1 57 -> 84 ms
    // in a standalone loop); the others take one grain of `chunk` each.
    int64_t lead = 0;
};

// Inner positions [begin, stop) of unit c of an outer position.
void unit_span(const ElementsLayout& g, int64_t c, int64_t* begin, int64_t* stop) {
    const int64_t first = split_point(g.grains_per_outer, c, g.chunks_per_outer);
    const int64_t end = split_point(g.grains_per_outer, c + 1, g.chunks_per_outer);
    *begin = std::max<int64_t>(0, first * g.grain - g.lead);
    *stop = std::min(g.inner.count, end * g.grain - g.lead);
}

// Units per outer position for staged units of at most `most` grains each: the fewest, unless a
// few more (never more than the grains) make the units a multiple of the tasks, so that every
// task gets as many (W1 on 16 threads: 86 units of 3 lines would be 6 for some tasks and 5 for
// others; 96 units of 2-3 lines are 6 for each).
int64_t balanced_units(int64_t grains, int64_t most, int64_t outer, uint32_t tasks) {
    const int64_t fewest = (grains + most - 1) / most;
    for (int64_t units = fewest; units <= grains && units <= 2 * fewest; ++units)
        if ((outer * units) % int64_t(tasks) == 0) return units;
    return fewest;
}

// The lead (ElementsLayout) that starts every grain but the first at a 64-byte line of out,
// where each fiber's row starts at the same place within a line; else 0.
int64_t line_lead(const OpPlan& plan, const ElementsLayout& g) {
    const int64_t size = int64_t(plan.out.element_size);
    const uintptr_t first = reinterpret_cast<uintptr_t>(plan.out.host);
    bool same = first % uintptr_t(size) == 0 && g.inner.flat_stride(kOut) == 1 && (g.axis_stride[kOut] * size) % 64 == 0;
    for (uint32_t d = 0; d < g.outer.rank; ++d) same = same && (g.outer.strides[kOut][d] * size) % 64 == 0;
    if (!same) return 0;
    const int64_t shift = int64_t((64 - first % 64) % 64) / size;  // the first position on a line
    return (g.grain - shift % g.grain) % g.grain;
}

ElementsLayout make_layout(const OpPlan& plan, uint32_t concurrency) {
    ElementsLayout g;
    const uint32_t a = uint32_t(plan.axis), r = plan.indices.rank;
    const int64_t* outer_strides[] = {plan.indices.strides, plan.updates.strides, plan.out.strides,
                                      plan.data.strides};
    const int64_t* inner_strides[] = {plan.indices.strides + a + 1, plan.updates.strides + a + 1,
                                      plan.out.strides + a + 1, plan.data.strides + a + 1};
    g.outer = make_loop_dims<4>(a, plan.indices.shape, outer_strides);
    g.inner = make_loop_dims<4>(r - a - 1, plan.indices.shape + a + 1, inner_strides);
    g.updates_per_fiber = plan.indices.shape[a];
    g.axis_size = plan.data.shape[a];
    g.axis_stride[kIdx] = plan.indices.strides[a];
    g.axis_stride[kUpd] = plan.updates.strides[a];
    g.axis_stride[kOut] = plan.out.strides[a];
    g.axis_stride[kData] = plan.data.strides[a];

    const int64_t outer = g.outer.count, inner = g.inner.count;
    const int64_t wanted_units = int64_t(concurrency) * 4;
    g.chunk = inner;
    if (outer < wanted_units) g.chunk = std::max<int64_t>(64, (inner * outer + wanted_units - 1) / wanted_units);
    if (needs_target_counts(plan)) g.chunk = std::min(g.chunk, std::max<int64_t>(1, kCountBudget / std::max<int64_t>(1, g.axis_size)));
    g.chunk = std::max<int64_t>(1, std::min(g.chunk, inner));
    const int64_t size = int64_t(plan.data.element_size);
    bool covers = true;
    for (uint32_t d = 0; d < r; ++d)
        if (d != a && plan.indices.shape[d] != plan.data.shape[d]) covers = false;
    g.unit_copies = !plan.in_place && covers && g.axis_size * g.chunk * size <= kUnitCopyBytes;
    const int64_t line = std::max<int64_t>(1, 64 / size);
    const int64_t forced_stage = cpu_switches().stage_bytes;
    const int64_t stage_chunk = forced_stage > 0 ? std::max<int64_t>(1, forced_stage / (g.axis_size * size))
                                                 : kStageBytes / (g.axis_size * size) / line * line;
    const bool stage = forced_stage > 0 ? g.inner.rank == 1
                                        : g.inner.rank == 1 && !g.unit_copies && stage_chunk >= line && stage_chunk < g.chunk;
    g.grain = g.chunk;
    if (stage) {
        // The test switch's stages keep grains of their own width (odd leads and tails).
        g.grain = forced_stage > 0 ? std::min(stage_chunk, g.chunk) : line;
        g.chunk = forced_stage > 0 ? g.grain : stage_chunk;
        g.unit_copies = false;
        g.staged = true;
        g.stage_from_data = covers && !plan.in_place;
        g.stream_out = forced_stage > 0 || plan.out.element_count * size >= kStreamOutBytes;
        g.lead = line_lead(plan, g);
    }
    g.grains_per_outer = (inner + g.lead + g.grain - 1) / g.grain;
    g.chunks_per_outer = g.grains_per_outer;
    if (stage && forced_stage <= 0) {
        g.chunks_per_outer = balanced_units(g.grains_per_outer, stage_chunk / line, outer, concurrency);
        g.chunk = (g.grains_per_outer + g.chunks_per_outer - 1) / g.chunks_per_outer * g.grain;
    }
    if (stage) g.stage_bytes = (g.axis_size * g.chunk * size + 63) / 64 * 64;
    g.units = outer * g.chunks_per_outer;
    return g;
}

template <class Applier>
class ElementsRunner {
public:
    ElementsRunner(const OpPlan& plan, const ElementsLayout& g, const Applier& applier)
        : p_(plan), g_(g), applier_(applier), is_i64_(plan.indices.dtype() == SCATTER_DTYPE_I64),
          size_(plan.data.element_size) {}

    // `stage`: this task's stage (g_.stage_bytes) where g_.staged, else null.
    void run_units(int64_t first, int64_t end, int64_t* counts, char* stage) const {
        StridedWalk<4> outer(g_.outer.rank, g_.outer.shape, g_.outer.strides);
        for (int64_t unit = first; unit < end; ++unit) {
            const int64_t o = unit / g_.chunks_per_outer, c = unit % g_.chunks_per_outer;
            outer.seek(o);
            int64_t begin = 0, stop = 0;
            unit_span(g_, c, &begin, &stop);
            const int64_t base[3] = {outer.offset(kIdx), outer.offset(kUpd), outer.offset(kOut)};
            if (g_.unit_copies) copy_unit(outer.offset(kData), base[kOut], begin, stop);
            if (stage != nullptr) {
                if (g_.stage_from_data) load_stage(stage, p_.data.host, outer.offset(kData), kData, begin, stop);
                else load_stage(stage, p_.out.host, base[kOut], kOut, begin, stop);
            }
            if (is_i64_) scatter_unit<int64_t>(base, begin, stop, counts, stage);
            else scatter_unit<int32_t>(base, begin, stop, counts, stage);
            if (counts != nullptr) finish_unit(base[kOut], begin, stop, counts, stage);
            if (stage != nullptr) store_stage(stage, base[kOut], begin, stop);
        }
        if (stage != nullptr && g_.stream_out) stream_fence();
    }

private:
    // out's targets of one unit (every axis position, inner positions [begin, stop)) from data.
    void copy_unit(int64_t data_base, int64_t out_base, int64_t begin, int64_t stop) const {
        const int64_t size = size_;
        const char* const data = p_.data.host;
        char* const out = p_.out.host;
        const int64_t ad = g_.axis_stride[kData], ao = g_.axis_stride[kOut];
        if (g_.inner.rank == 0 && ad == 1 && ao == 1) {  // the fiber is contiguous in both
            copy_bytes(out + out_base * size, data + data_base * size, g_.axis_size * size);
            return;
        }
        const bool rows = g_.inner.rank == 1 && g_.inner.flat_stride(kData) == 1 && g_.inner.flat_stride(kOut) == 1;
        StridedWalk<4> inner(g_.inner.rank, g_.inner.shape, g_.inner.strides);
        for (int64_t t = 0; t < g_.axis_size; ++t) {
            const int64_t from = data_base + t * ad, to = out_base + t * ao;
            if (rows) {  // contiguous inner positions in both
                copy_bytes(out + (to + begin) * size, data + (from + begin) * size, (stop - begin) * size);
                continue;
            }
            inner.seek(begin);
            for (int64_t i = begin; i < stop; ++i, inner.next())
                std::memcpy(out + (to + inner.offset(kOut)) * size, data + (from + inner.offset(kData)) * size,
                            size_t(size));
        }
    }

    // The stage (row t of the unit's targets at t * len elements) from tensor `slot` (data or out),
    // and back to out. Staged units have one inner dimension.
    void load_stage(char* stage, const char* from, int64_t from_base, int slot, int64_t begin, int64_t stop) const {
        const int64_t size = size_, len = stop - begin;
        const int64_t as = g_.axis_stride[slot], is = g_.inner.flat_stride(slot);
        for (int64_t t = 0; t < g_.axis_size; ++t) {
            const char* row = from + (from_base + t * as + begin * is) * size;
            char* s = stage + t * len * size;
            if (is == 1 && t + kStagePrefetchRows < g_.axis_size) prefetch_from(row + kStagePrefetchRows * as * size, len * size);
            if (is == 1) copy_bytes(s, row, len * size);
            else
                for (int64_t j = 0; j < len; ++j) std::memcpy(s + j * size, row + j * is * size, size_t(size));
        }
    }

    void store_stage(const char* stage, int64_t out_base, int64_t begin, int64_t stop) const {
        const int64_t size = size_, len = stop - begin;
        const int64_t as = g_.axis_stride[kOut], is = g_.inner.flat_stride(kOut);
        char* const out = p_.out.host;
        for (int64_t t = 0; t < g_.axis_size; ++t) {
            char* row = out + (out_base + t * as + begin * is) * size;
            const char* s = stage + t * len * size;
            if (is == 1 && g_.stream_out) stream_bytes(row, s, len * size);
            else if (is == 1) copy_bytes(row, s, len * size);
            else
                for (int64_t j = 0; j < len; ++j) std::memcpy(row + j * is * size, s + j * size, size_t(size));
        }
    }

    // The hot loop. Everything it needs is copied into locals first: the stores through char*
    // could alias any member, which would force a reload of each one on every update.
    template <class Index>
    void scatter_unit(const int64_t* base, int64_t begin, int64_t stop, int64_t* counts, char* stage) const {
        const int64_t len = stop - begin;
        const char* const idx = p_.indices.host;
        const char* const upd = p_.updates.host;
        char* const out = p_.out.host + base[kOut] * size_;
        const int64_t size = Applier::kSize != 0 ? Applier::kSize : size_;
        const int64_t fiber = g_.updates_per_fiber, axis_size = g_.axis_size;
        const int64_t ai = g_.axis_stride[kIdx], au = g_.axis_stride[kUpd], ao = g_.axis_stride[kOut] * size;
        const scatter_out_of_range policy = p_.policy;
        const bool exclude_self = p_.exclude_self;
        const Applier applier = applier_;
        auto apply = [&](char* target, const char* update, int64_t k) {
            if (Applier::kReduces && counts != nullptr) {
                if (exclude_self && counts[k] == 0) applier.start(target);
                ++counts[k];
            }
            applier.apply(target, update);
        };
        if (g_.inner.rank == 0) {  // one update per fiber position: walk the axis only
            const Index* ib = reinterpret_cast<const Index*>(idx) + base[kIdx];
            const char* ub = upd + base[kUpd] * size;
            const int64_t step = au * size;
            // Contiguous fibers and no hit counts (W9, W10): nothing in the loop but the update,
            // each address a constant scale of its index (no multiply, no per-update checks).
            if (Applier::kSize != 0 && counts == nullptr && ai == 1 && step == size && ao == size) {
                constexpr int64_t kSize = Applier::kSize;
                for (int64_t a = 0; a < fiber; ++a) {
                    Index raw;
                    std::memcpy(&raw, ib + a, sizeof raw);
                    int64_t t = int64_t(raw);
                    if (uint64_t(t) >= uint64_t(axis_size) && !resolve_index(t, axis_size, policy, &t)) continue;
                    applier.apply(out + t * kSize, ub + a * kSize);
                }
                return;
            }
            for (int64_t a = 0; a < fiber; ++a) {
                Index raw;
                std::memcpy(&raw, ib + a * ai, sizeof raw);
                int64_t t = int64_t(raw);
                if (uint64_t(t) >= uint64_t(axis_size) && !resolve_index(t, axis_size, policy, &t)) continue;
                apply(out + t * ao, ub + a * step, t);
            }
            return;
        }
        if (g_.inner.rank == 1) {
            const int64_t si = g_.inner.flat_stride(kIdx), su = g_.inner.flat_stride(kUpd);
            // The unit's targets: in out, or in the stage (in L2: no target prefetch needed).
            char* const tile = stage != nullptr ? stage : out + begin * g_.inner.flat_stride(kOut) * size;
            const int64_t tile_axis = stage != nullptr ? len * size : ao;
            const int64_t tile_inner = stage != nullptr ? size : g_.inner.flat_stride(kOut) * size;
            const bool prefetch_targets = Applier::kReduces && stage == nullptr;
            const bool prefetch_pieces = stage != nullptr && si == 1 && su == 1;
            for (int64_t a = 0; a < fiber; ++a) {
                const Index* ib = reinterpret_cast<const Index*>(idx) + base[kIdx] + a * ai + begin * si;
                const char* ub = upd + (base[kUpd] + a * au + begin * su) * size;
                if (prefetch_pieces && a + kStagePrefetchRows < fiber) {
                    prefetch_from(ib + kStagePrefetchRows * ai, len * int64_t(sizeof(Index)));
                    prefetch_from(ub + kStagePrefetchRows * au * size, len * size);
                }
                for (int64_t j = 0; j < len; ++j) {
                    if (prefetch_targets && j + kTargetPrefetch < len) {
                        Index ahead;
                        std::memcpy(&ahead, ib + (j + kTargetPrefetch) * si, sizeof ahead);
                        if (uint64_t(ahead) < uint64_t(axis_size))
                            __builtin_prefetch(tile + int64_t(ahead) * tile_axis + (j + kTargetPrefetch) * tile_inner, 1);
                    }
                    Index raw;
                    std::memcpy(&raw, ib + j * si, sizeof raw);
                    int64_t t = int64_t(raw);
                    if (uint64_t(t) >= uint64_t(axis_size) && !resolve_index(t, axis_size, policy, &t)) continue;
                    apply(tile + t * tile_axis + j * tile_inner, ub + j * su * size, t * len + j);
                }
            }
            return;
        }
        for (int64_t a = 0; a < fiber; ++a) {
            const int64_t ib = base[kIdx] + a * ai, ub = base[kUpd] + a * au;
            StridedWalk<4> inner(g_.inner.rank, g_.inner.shape, g_.inner.strides);
            inner.seek(begin);
            for (int64_t i = begin; i < stop; ++i, inner.next()) {
                int64_t t;
                if (!resolve_index(load_index(idx, sizeof(Index) == 8, ib + inner.offset(kIdx)), axis_size, policy, &t))
                    continue;
                apply(out + t * ao + inner.offset(kOut) * size, upd + (ub + inner.offset(kUpd)) * size,
                      t * len + (i - begin));
            }
        }
    }

    // mean divides each hit target by its number of terms; every count goes back to zero.
    void finish_unit(int64_t out_base, int64_t begin, int64_t stop, int64_t* counts, char* stage) const {
        const int64_t len = stop - begin;
        const bool mean = p_.reduction == SCATTER_REDUCTION_MEAN;
        const int64_t self_terms = p_.exclude_self ? 0 : 1;
        StridedWalk<4> inner(g_.inner.rank, g_.inner.shape, g_.inner.strides);
        for (int64_t t = 0; t < g_.axis_size; ++t) {
            int64_t* row = counts + t * len;
            inner.seek(begin);
            for (int64_t i = 0; i < len; ++i, inner.next()) {
                if (row[i] == 0) continue;
                if (mean) {
                    char* target = stage != nullptr ? stage + (t * len + i) * size_
                                                    : p_.out.host + (out_base + t * g_.axis_stride[kOut] + inner.offset(kOut)) * size_;
                    applier_.finish(target, row[i] + self_terms);
                }
                row[i] = 0;
            }
        }
    }

    const OpPlan& p_;
    const ElementsLayout& g_;
    const Applier applier_;
    const bool is_i64_;
    const int64_t size_;
};

}  // namespace

Status scatter_elements_cpu(const OpPlan& plan, TaskRunner& runner, const HostAllocator& allocator,
                            const std::function<Status()>& fill_out) {
    if (plan.no_updates() || plan.out.empty()) return fill_out();
    const ElementsLayout g = make_layout(plan, runner.concurrency());
    const uint32_t tasks = task_count_for(runner, plan.updates.element_count, g.units);
    const int64_t counts_per_task = needs_target_counts(plan) ? g.axis_size * g.chunk : 0;
    ScratchArray<int64_t> counts(allocator);
    SCATTER_RETURN_IF_ERROR(allocate_target_counts(counts, counts_per_task, tasks, "per-target"));
    ScratchArray<char> stages(allocator);
    if (g.staged && !stages.allocate(size_t(g.stage_bytes) * tasks))
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate %lld bytes of target stages",
                          (long long)(g.stage_bytes * tasks));
    if (!g.unit_copies && !g.stage_from_data) SCATTER_RETURN_IF_ERROR(fill_out());
    Status status;
    dispatch_applier(plan, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        ElementsRunner<Applier> kernel(plan, g, applier);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            int64_t first = split_point(g.units, task, tasks), end = split_point(g.units, task + 1, tasks);
            kernel.run_units(first, end, counts_per_task > 0 ? counts.data() + counts_per_task * task : nullptr,
                             g.staged ? stages.data() + g.stage_bytes * task : nullptr);
        });
    });
    return status;
}

}  // namespace scatter
