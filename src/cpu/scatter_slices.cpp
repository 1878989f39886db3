#include "cpu/scatter_slices.h"

#include "core/checked_math.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/dispatch.h"
#include "cpu/kernel_context.h"

#include <algorithm>
#include <cstring>

namespace scatter {
namespace {

enum { kUpd = 0, kOut = 1 };

struct SlicesLayout {
    LoopDims<2> outer;   // data.shape[:axis] (rows only)
    LoopDims<1> slice;   // index positions, with the updates' strides
    LoopDims<1> rows;    // target rows, with out's strides
    LoopDims<2> inner;   // elements of one slice
    // A task owns outer positions [o0, o1) x target rows [r0, r1).
    bool split_outer = false;
};

SlicesLayout make_layout(const OpPlan& p) {
    SlicesLayout g;
    const TensorView &upd = p.updates, &out = p.out;
    if (p.op == OpKind::Rows) {
        const uint32_t a = uint32_t(p.axis), q = p.indices.rank, r = p.data.rank;
        const int64_t* outer_strides[] = {upd.strides, out.strides};
        g.outer = make_loop_dims<2>(a, p.data.shape, outer_strides);
        const int64_t* slice_strides[] = {upd.strides + a};
        g.slice = make_loop_dims<1>(q, p.indices.shape, slice_strides);
        const int64_t* row_strides[] = {out.strides + a};
        g.rows = make_loop_dims<1>(1, p.data.shape + a, row_strides);
        const int64_t* inner_strides[] = {upd.strides + a + q, out.strides + a + 1};
        g.inner = make_loop_dims<2>(r - a - 1, p.data.shape + a + 1, inner_strides);
    } else {
        const uint32_t k = p.index_depth, q = p.indices.rank, r = p.data.rank;
        const int64_t* none[] = {upd.strides, out.strides};
        g.outer = make_loop_dims<2>(0, p.data.shape, none);
        const int64_t* slice_strides[] = {upd.strides};
        g.slice = make_loop_dims<1>(q - 1, p.indices.shape, slice_strides);
        const int64_t* row_strides[] = {out.strides};
        g.rows = make_loop_dims<1>(k, p.data.shape, row_strides);
        const int64_t* inner_strides[] = {upd.strides + q - 1, out.strides + k};
        g.inner = make_loop_dims<2>(r - k, p.data.shape + k, inner_strides);
    }
    return g;
}

// Offset in out of target row `row` (row-major over the row dimensions).
inline int64_t row_offset(const LoopDims<1>& rows, int64_t row) {
    if (rows.rank <= 1) return row * rows.flat_stride(0);
    int64_t offset = 0;
    for (int d = int(rows.rank) - 1; d >= 0; --d) {
        offset += (row % rows.shape[d]) * rows.strides[0][d];
        row /= rows.shape[d];
    }
    return offset;
}

template <class Applier>
class SlicesRunner {
public:
    SlicesRunner(const OpPlan& plan, const SlicesLayout& g, const int64_t* targets, const Applier& applier)
        : p_(plan), g_(g), targets_(targets), applier_(applier), size_(plan.data.element_size) {}

    void run(int64_t o0, int64_t o1, int64_t r0, int64_t r1, int64_t* counts) const {
        StridedWalk<2> outer(g_.outer.rank, g_.outer.shape, g_.outer.strides);
        outer.seek(o0);
        for (int64_t o = o0; o < o1; ++o, outer.next()) {
            const int64_t upd_base = outer.offset(kUpd), out_base = outer.offset(kOut);
            StridedWalk<1> slice(g_.slice.rank, g_.slice.shape, g_.slice.strides);
            const bool flat_slices = g_.slice.rank <= 1;
            for (int64_t j = 0; j < p_.slices; ++j) {
                const int64_t t = targets_[j];
                if (t >= r0 && t < r1) {
                    if (counts != nullptr) {
                        int64_t& count = counts[t - r0];
                        if (p_.exclude_self && count == 0) start_slice(out_base + row_offset(g_.rows, t));
                        ++count;
                    }
                    const int64_t u = upd_base + (flat_slices ? j * g_.slice.flat_stride(0) : slice.offset(0));
                    apply_slice(out_base + row_offset(g_.rows, t), u);
                }
                if (!flat_slices) slice.next();
            }
            if (counts != nullptr) finish_rows(out_base, r0, r1, counts);
        }
    }

private:
    template <class Visit>
    void for_each_inner(int64_t out_at, int64_t upd_at, Visit&& visit) const {
        if (g_.inner.rank <= 1) {
            const int64_t su = g_.inner.flat_stride(kUpd), so = g_.inner.flat_stride(kOut);
            for (int64_t i = 0; i < g_.inner.count; ++i) visit(out_at + i * so, upd_at + i * su);
            return;
        }
        StridedWalk<2> inner(g_.inner.rank, g_.inner.shape, g_.inner.strides);
        for (int64_t i = 0; i < g_.inner.count; ++i, inner.next())
            visit(out_at + inner.offset(kOut), upd_at + inner.offset(kUpd));
    }

    void apply_slice(int64_t out_at, int64_t upd_at) const {
        char* out = p_.out.host;
        const char* upd = p_.updates.host;
        if (g_.inner.rank <= 1 && g_.inner.flat_stride(kUpd) == 1 && g_.inner.flat_stride(kOut) == 1) {
            applier_.apply_run(out + out_at * size_, upd + upd_at * size_, g_.inner.count);
            return;
        }
        for_each_inner(out_at, upd_at, [&](int64_t o, int64_t u) { applier_.apply(out + o * size_, upd + u * size_); });
    }

    void start_slice(int64_t out_at) const {
        char* out = p_.out.host;
        for_each_inner(out_at, 0, [&](int64_t o, int64_t) { applier_.start(out + o * size_); });
    }

    void finish_rows(int64_t out_base, int64_t r0, int64_t r1, int64_t* counts) const {
        const bool mean = p_.reduction == SCATTER_REDUCTION_MEAN;
        const int64_t self_terms = p_.exclude_self ? 0 : 1;
        char* out = p_.out.host;
        for (int64_t t = r0; t < r1; ++t) {
            int64_t& count = counts[t - r0];
            if (count == 0) continue;
            if (mean) {
                const int64_t terms = count + self_terms;
                for_each_inner(out_base + row_offset(g_.rows, t), 0,
                               [&](int64_t o, int64_t) { applier_.finish(out + o * size_, terms); });
            }
            count = 0;
        }
    }

    const OpPlan& p_;
    const SlicesLayout& g_;
    const int64_t* targets_;
    const Applier& applier_;
    const int64_t size_;
};

}  // namespace

Status scatter_slices_cpu(const OpPlan& plan, const int64_t* targets, TaskRunner& runner,
                          const HostAllocator& allocator, const std::function<Status()>& fill_out) {
    if (plan.no_updates() || plan.out.empty()) return fill_out();
    const SlicesLayout g = make_layout(plan);
    const int64_t outer = g.outer.count, rows = plan.target_rows;
    const bool split_outer = outer >= int64_t(runner.concurrency());
    const uint32_t tasks = task_count_for(runner, plan.updates.element_count, split_outer ? outer : rows);
    const int64_t rows_per_task = split_outer || tasks == 1 ? rows : (rows + tasks - 1) / tasks;
    const int64_t counts_per_task = needs_target_counts(plan) ? rows_per_task : 0;
    ScratchArray<int64_t> counts(allocator);
    if (counts_per_task > 0) {
        if (!counts.allocate(size_t(counts_per_task * tasks)))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate %lld bytes of per-row counts",
                              (long long)(counts_per_task * tasks * 8));
        std::memset(counts.data(), 0, size_t(counts_per_task * tasks) * sizeof(int64_t));
    }
    SCATTER_RETURN_IF_ERROR(fill_out());
    Status status;
    dispatch_applier(plan, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        SlicesRunner<Applier> kernel(plan, g, targets, applier);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            int64_t* task_counts = counts_per_task > 0 ? counts.data() + counts_per_task * task : nullptr;
            if (split_outer || tasks == 1) {
                kernel.run(split_point(outer, task, tasks), split_point(outer, task + 1, tasks), 0, rows, task_counts);
            } else {
                int64_t r0 = std::min(rows, rows_per_task * task), r1 = std::min(rows, r0 + rows_per_task);
                kernel.run(0, outer, r0, r1, task_counts);
            }
        });
    });
    return status;
}

}  // namespace scatter
