#include "cpu/scatter_elements.h"

#include "core/checked_math.h"
#include "core/index_rules.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_bytes.h"
#include "cpu/dispatch.h"
#include "cpu/kernel_context.h"

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

// Tensor slots in the loop dimensions.
enum { kIdx = 0, kUpd = 1, kOut = 2, kData = 3 };

struct ElementsLayout {
    LoopDims<4> outer, inner;
    int64_t updates_per_fiber = 0;  // indices.shape[axis]
    int64_t axis_size = 0;          // data.shape[axis]
    int64_t axis_stride[4] = {};
    int64_t chunk = 1;              // inner positions per unit
    int64_t chunks_per_outer = 1;
    int64_t units = 0;
    // Each unit copies its own targets from data just before scattering into them (instead of
    // one copy of the whole tensor first): out is then written once and read back from cache.
    // Possible when the units cover out, i.e. indices span data in every dimension but the axis;
    // worth it when a unit's targets fit in L2 (W2: 16 KiB fibers, 1.3x; W1's 8 MiB tiles: no gain).
    bool unit_copies = false;
};

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
    g.chunks_per_outer = (inner + g.chunk - 1) / g.chunk;
    g.unit_copies = !plan.in_place && g.axis_size * g.chunk * int64_t(plan.data.element_size) <= kUnitCopyBytes;
    for (uint32_t d = 0; d < r; ++d)
        if (d != a && plan.indices.shape[d] != plan.data.shape[d]) g.unit_copies = false;
    g.units = outer * g.chunks_per_outer;
    return g;
}

template <class Applier>
class ElementsRunner {
public:
    ElementsRunner(const OpPlan& plan, const ElementsLayout& g, const Applier& applier)
        : p_(plan), g_(g), applier_(applier), is_i64_(plan.indices.dtype() == SCATTER_DTYPE_I64),
          size_(plan.data.element_size) {}

    void run_units(int64_t first, int64_t end, int64_t* counts) const {
        StridedWalk<4> outer(g_.outer.rank, g_.outer.shape, g_.outer.strides);
        for (int64_t unit = first; unit < end; ++unit) {
            const int64_t o = unit / g_.chunks_per_outer, c = unit % g_.chunks_per_outer;
            outer.seek(o);
            const int64_t begin = c * g_.chunk, stop = std::min(g_.inner.count, begin + g_.chunk);
            const int64_t base[3] = {outer.offset(kIdx), outer.offset(kUpd), outer.offset(kOut)};
            if (g_.unit_copies) copy_unit(outer.offset(kData), base[kOut], begin, stop);
            if (is_i64_) scatter_unit<int64_t>(base, begin, stop, counts);
            else scatter_unit<int32_t>(base, begin, stop, counts);
            if (counts != nullptr) finish_unit(base[kOut], begin, stop, counts);
        }
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

    // The hot loop. Everything it needs is copied into locals first: the stores through char*
    // could alias any member, which would force a reload of each one on every update.
    template <class Index>
    void scatter_unit(const int64_t* base, int64_t begin, int64_t stop, int64_t* counts) const {
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
            const int64_t si = g_.inner.flat_stride(kIdx), su = g_.inner.flat_stride(kUpd),
                          so = g_.inner.flat_stride(kOut) * size;
            for (int64_t a = 0; a < fiber; ++a) {
                const Index* ib = reinterpret_cast<const Index*>(idx) + base[kIdx] + a * ai;
                const char* ub = upd + (base[kUpd] + a * au) * size;
                for (int64_t i = begin; i < stop; ++i) {
                    if (Applier::kReduces && i + kTargetPrefetch < stop) {
                        Index ahead;
                        std::memcpy(&ahead, ib + (i + kTargetPrefetch) * si, sizeof ahead);
                        if (uint64_t(ahead) < uint64_t(axis_size))
                            __builtin_prefetch(out + int64_t(ahead) * ao + (i + kTargetPrefetch) * so, 1);
                    }
                    Index raw;
                    std::memcpy(&raw, ib + i * si, sizeof raw);
                    int64_t t = int64_t(raw);
                    if (uint64_t(t) >= uint64_t(axis_size) && !resolve_index(t, axis_size, policy, &t)) continue;
                    apply(out + t * ao + i * so, ub + i * su * size, t * len + (i - begin));
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
    void finish_unit(int64_t out_base, int64_t begin, int64_t stop, int64_t* counts) const {
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
                    char* target = p_.out.host + (out_base + t * g_.axis_stride[kOut] + inner.offset(kOut)) * size_;
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
    if (!g.unit_copies) SCATTER_RETURN_IF_ERROR(fill_out());
    Status status;
    dispatch_applier(plan, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        ElementsRunner<Applier> kernel(plan, g, applier);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            int64_t first = split_point(g.units, task, tasks), end = split_point(g.units, task + 1, tasks);
            kernel.run_units(first, end, counts_per_task > 0 ? counts.data() + counts_per_task * task : nullptr);
        });
    });
    return status;
}

}  // namespace scatter
