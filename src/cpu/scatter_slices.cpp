#include "cpu/scatter_slices.h"

#include "core/checked_math.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_tensor.h"
#include "cpu/cpu_switches.h"
#include "cpu/dispatch.h"
#include "cpu/kernel_context.h"
#include "cpu/prefetch.h"
#include "cpu/slice_blocks.h"

#include <algorithm>
#include <cstring>

namespace scatter {
namespace {

enum { kUpd = 0, kOut = 1 };

// Blocked path (slice_blocks.h): taken when out is larger than the caches would hold anyway, with
// enough slices to pay for grouping them; a block of target rows takes about
// cpu_switches().block_bytes of out (256 KiB), so it stays in L2 (1 MiB per core on the EPYC test
// machine) beside the update slices streaming in.
constexpr int64_t kBlockedMinOutBytes = int64_t(8) << 20;
constexpr int64_t kBlockedMinSlices = 4096;
// The plain path splits slices between tasks when each task's part is at least this long.
constexpr int64_t kSpanSplitBytes = 128;
// With few outer positions, the plain path splits the target rows or the slices' elements between
// tasks only with at least this many: every task then streams through all of updates (or skips
// through it), and on the 2-core CI VM two such tasks were slower than one on every shape tried
// (2 threads, f32 add, one task / split: W12 [10000,128] <- 1M 48-72 / 90-146 ms, [1000,64] <- 1M
// 28-38 / 49-63, [1000,1024] <- 100K 29-31 / 61-63, [1000,2048] <- 50K 33-40 / 39-44,
// [100000,32] <- 1M and [10000,256] <- 300K equal). Where more cores share the stream the split
// is kept (not measured yet: the 16-core GPU host).
constexpr uint32_t kPlainSplitMinTasks = 4;
// Update slices are prefetched this many slices ahead of the one being applied.
constexpr int64_t kPrefetchSlices = 16;
// The plain path prefetches the target row of the slice this many slices ahead into L1: the rows
// are random reads from L3 or DRAM while updates stream in order (W12, 512-byte rows of a 5 MB
// out, median of the minimums of 4 runs of 5, 1 / 2 threads: 40.4 / 39.4 -> 36.5 / 36.9 ms; 4
// ahead about the same, 16 less; into L2 instead: no gain).
constexpr int64_t kRowPrefetchSlices = 8;
// Where the plain path's tasks split the target rows, the rows go out in ranges of about equal
// numbers of slices, counted over at most this many buckets of rows a task.
constexpr int64_t kRowBucketsPerTask = 64;

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

// Offset of row-major position `position` over one tensor's dims (target rows in out, slices in
// updates).
inline int64_t flat_offset(const LoopDims<1>& dims, int64_t position) {
    if (dims.rank <= 1) return position * dims.flat_stride(0);
    int64_t offset = 0;
    for (int d = int(dims.rank) - 1; d >= 0; --d) {
        offset += (position % dims.shape[d]) * dims.strides[0][d];
        position /= dims.shape[d];
    }
    return offset;
}

// log2 of the rows per block for the blocked path, or -1 when the plain path is better: several
// outer positions, rows too long to share a block, out small enough for the caches, few slices,
// or slices of one element (applying a block would read a cache line of targets and one of
// updates for each element: 4M f32 `nd` into [2048, 2048] took 0.87-1.04 s blocked, 0.25 s plain).
int block_shift(const OpPlan& p) {
    const CpuSwitches& switches = cpu_switches();
    const int64_t row_bytes = p.inner * int64_t(p.data.element_size);
    if (p.outer != 1 || row_bytes == 0) return -1;
    if (!switches.force_blocks && (p.inner == 1 || row_bytes * 4 > switches.block_bytes ||
                                   p.slices < kBlockedMinSlices || p.target_rows * row_bytes < kBlockedMinOutBytes))
        return -1;
    int shift = 0;
    while (shift < 62 && (row_bytes << (shift + 1)) <= switches.block_bytes && (int64_t(1) << shift) < p.target_rows)
        ++shift;
    return shift;
}

template <class Applier>
class SlicesRunner {
public:
    SlicesRunner(const OpPlan& plan, const SlicesLayout& g, const int64_t* targets, const Applier& applier)
        : p_(plan), g_(g), targets_(targets), applier_(applier), size_(plan.data.element_size) {}

    // Outer positions [o0, o1) x target rows [r0, r1) x inner elements [i0, i1) of each slice.
    void run(int64_t o0, int64_t o1, int64_t r0, int64_t r1, int64_t i0, int64_t i1, int64_t* counts) const {
        const Span span{i0, i1};
        StridedWalk<2> outer(g_.outer.rank, g_.outer.shape, g_.outer.strides);
        outer.seek(o0);
        for (int64_t o = o0; o < o1; ++o, outer.next()) {
            const int64_t upd_base = outer.offset(kUpd), out_base = outer.offset(kOut);
            StridedWalk<1> slice(g_.slice.rank, g_.slice.shape, g_.slice.strides);
            const bool flat_slices = g_.slice.rank <= 1;
            const bool prefetch_rows = contiguous_slices();
            for (int64_t j = 0; j < p_.slices; ++j) {
                if (prefetch_rows && j + kRowPrefetchSlices < p_.slices) {
                    const int64_t ahead = targets_[j + kRowPrefetchSlices];
                    if (ahead >= r0 && ahead < r1)
                        prefetch_lines<PrefetchTo::L1>(p_.out.host + (out_base + flat_offset(g_.rows, ahead) + span.begin) * size_,
                                                       (span.end - span.begin) * size_);
                }
                const int64_t t = targets_[j];
                if (t >= r0 && t < r1) {
                    if (counts != nullptr) {
                        int64_t& count = counts[t - r0];
                        if (p_.exclude_self && count == 0) start_slice(out_base + flat_offset(g_.rows, t), span);
                        ++count;
                    }
                    const int64_t u = upd_base + (flat_slices ? j * g_.slice.flat_stride(0) : slice.offset(0));
                    apply_slice(out_base + flat_offset(g_.rows, t), u, span);
                }
                if (!flat_slices) slice.next();
            }
            if (counts != nullptr) finish_rows(out_base, r0, r1, counts, span);
        }
    }

    // Blocked path: blocks [b0, b1), each copied from data (out of place) and then given its slices.
    void run_blocks(int64_t b0, int64_t b1, const SliceBlocks& blocks, int64_t* counts) const {
        const int64_t* order = blocks.order();
        const char* upd = p_.updates.host;
        const int64_t slice_bytes = g_.inner.count * size_;
        const bool flat_slices = g_.slice.rank <= 1, contiguous = contiguous_slices();
        const Span span{0, g_.inner.count};
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t r0 = b << blocks.shift(), r1 = std::min(p_.target_rows, r0 + (int64_t(1) << blocks.shift()));
            if (!p_.in_place) copy_elements(p_.data, p_.out, r0 * p_.inner, r1 * p_.inner);
            const int64_t k1 = blocks.start(b + 1);
            for (int64_t k = blocks.start(b); k < k1; ++k) {
                if (k + kPrefetchSlices < k1) prefetch_line<PrefetchTo::L2>(targets_ + order[k + kPrefetchSlices]);
                if (contiguous && k + kPrefetchSlices < k1) {
                    const int64_t next = order[k + kPrefetchSlices];
                    const char* ahead = upd + slice_offset(next, flat_slices) * size_;
                    if (next == order[k + kPrefetchSlices - 1] + 1) prefetch_lines<PrefetchTo::L1>(ahead, slice_bytes);
                    else prefetch_lines<PrefetchTo::L2>(ahead, slice_bytes);
                }
                const int64_t j = order[k], t = targets_[j], out_at = flat_offset(g_.rows, t);
                if (counts != nullptr) {
                    int64_t& count = counts[t - r0];
                    if (p_.exclude_self && count == 0) start_slice(out_at, span);
                    ++count;
                }
                apply_slice(out_at, slice_offset(j, flat_slices), span);
            }
            if (counts != nullptr) finish_rows(0, r0, r1, counts, span);
        }
    }

    // Slices of one element, no hit counts, outer positions [o0, o1) and every target row: one
    // load of the target and one update per slice (the general loop costs ~5x as much per slice).
    void run_scalar(int64_t o0, int64_t o1) const {
        char* const out = p_.out.host;
        const char* const upd = p_.updates.host;
        const int64_t size = Applier::kSize != 0 ? Applier::kSize : size_;
        const int64_t slice_stride = g_.slice.flat_stride(0) * size, slices = p_.slices;
        const int64_t* const targets = targets_;
        const Applier applier = applier_;
        const LoopDims<1>& rows = g_.rows;
        const int64_t row_stride = rows.flat_stride(0) * size;
        StridedWalk<2> outer(g_.outer.rank, g_.outer.shape, g_.outer.strides);
        outer.seek(o0);
        for (int64_t o = o0; o < o1; ++o, outer.next()) {
            char* const out_base = out + outer.offset(kOut) * size;
            const char* const upd_base = upd + outer.offset(kUpd) * size;
            for (int64_t j = 0; j < slices; ++j) {
                const int64_t t = targets[j];
                if (t < 0) continue;
                char* target = out_base + (rows.rank <= 1 ? t * row_stride : flat_offset(rows, t) * size);
                applier.apply(target, upd_base + j * slice_stride);
            }
        }
    }

private:
    int64_t slice_offset(int64_t j, bool flat_slices) const {
        return flat_slices ? j * g_.slice.flat_stride(0) : flat_offset(g_.slice, j);
    }

    bool contiguous_slices() const {
        return g_.inner.rank <= 1 && g_.inner.flat_stride(kUpd) == 1 && g_.inner.flat_stride(kOut) == 1;
    }

    // The elements [begin, end) of a slice (row-major over the inner dims) a task owns.
    struct Span {
        int64_t begin, end;
    };

    template <class Visit>
    void for_each_inner(int64_t out_at, int64_t upd_at, Span span, Visit&& visit) const {
        if (g_.inner.rank <= 1) {
            const int64_t su = g_.inner.flat_stride(kUpd), so = g_.inner.flat_stride(kOut);
            for (int64_t i = span.begin; i < span.end; ++i) visit(out_at + i * so, upd_at + i * su);
            return;
        }
        StridedWalk<2> inner(g_.inner.rank, g_.inner.shape, g_.inner.strides);
        inner.seek(span.begin);
        for (int64_t i = span.begin; i < span.end; ++i, inner.next())
            visit(out_at + inner.offset(kOut), upd_at + inner.offset(kUpd));
    }

    void apply_slice(int64_t out_at, int64_t upd_at, Span span) const {
        char* out = p_.out.host;
        const char* upd = p_.updates.host;
        if (contiguous_slices()) {
            applier_.apply_run(out + (out_at + span.begin) * size_, upd + (upd_at + span.begin) * size_,
                               span.end - span.begin);
            return;
        }
        for_each_inner(out_at, upd_at, span,
                       [&](int64_t o, int64_t u) { applier_.apply(out + o * size_, upd + u * size_); });
    }

    void start_slice(int64_t out_at, Span span) const {
        char* out = p_.out.host;
        for_each_inner(out_at, 0, span, [&](int64_t o, int64_t) { applier_.start(out + o * size_); });
    }

    void finish_rows(int64_t out_base, int64_t r0, int64_t r1, int64_t* counts, Span span) const {
        const bool mean = p_.reduction == SCATTER_REDUCTION_MEAN;
        const int64_t self_terms = p_.exclude_self ? 0 : 1;
        char* out = p_.out.host;
        for (int64_t t = r0; t < r1; ++t) {
            int64_t& count = counts[t - r0];
            if (count == 0) continue;
            if (mean) {
                const int64_t terms = count + self_terms;
                for_each_inner(out_base + flat_offset(g_.rows, t), 0, span,
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

// Slices of one element each, at positions with one stride in updates (`nd` with k = rank, `rows`
// of a vector): the scalar loop takes them when no hit counts are needed.
bool scalar_slices(const SlicesLayout& g) {
    return g.inner.count == 1 && g.slice.rank <= 1;
}

// Tasks take contiguous ranges of blocks of about equal cost: the block's copy plus its slices.
// first[task] is the task's first block; first[tasks] = blocks.
void split_blocks(const OpPlan& plan, const SliceBlocks& blocks, uint32_t tasks, int64_t* first) {
    const int64_t copy_cost = plan.in_place ? 0 : int64_t(1) << blocks.shift();
    const int64_t total = copy_cost * blocks.blocks() + 2 * blocks.start(blocks.blocks());
    for (uint32_t task = 0; task <= tasks; ++task) first[task] = blocks.blocks();
    first[0] = 0;
    int64_t cost = 0;
    uint32_t task = 1;
    for (int64_t b = 0; b < blocks.blocks() && task < tasks; ++b) {
        while (task < tasks && cost >= split_point(total, task, tasks)) first[task++] = b;
        cost += copy_cost + 2 * (blocks.start(b + 1) - blocks.start(b));
    }
}

// Target rows [first[task], first[task + 1]) for each task where the plain path's tasks split the
// target rows: ranges with about as many slices each (a parallel histogram of the targets over
// buckets of 2^s rows), so that skewed indices do not leave most of the work to one task, as
// equal ranges of rows would (all slices into a few hot rows: one task for everything). A range
// holds whole buckets: a single hot row still goes to one task.
Status split_rows_by_slices(const OpPlan& plan, const int64_t* targets, uint32_t tasks, TaskRunner& runner,
                            const HostAllocator& allocator, int64_t* first) {
    const int64_t rows = plan.target_rows, slices = plan.slices;
    int shift = 0;
    while (((rows - 1) >> shift) + 1 > int64_t(tasks) * kRowBucketsPerTask) ++shift;
    const int64_t buckets = ((rows - 1) >> shift) + 1;
    ScratchArray<int64_t> histogram(allocator);
    if (!histogram.allocate(size_t(buckets) * tasks))
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate the row histogram of %u tasks", tasks);
    int64_t* const counts = histogram.data();
    SCATTER_RETURN_IF_ERROR(count_slices_per_bucket(targets, slices, shift, buckets, tasks, runner, counts));
    int64_t total = 0;
    for (int64_t b = 0; b < buckets; ++b) {
        for (uint32_t task = 1; task < tasks; ++task) counts[b] += counts[int64_t(task) * buckets + b];
        total += counts[b];
    }
    for (uint32_t task = 1; task <= tasks; ++task) first[task] = rows;
    first[0] = 0;
    int64_t seen = 0;
    uint32_t task = 1;
    for (int64_t b = 0; b < buckets && task < tasks; ++b) {
        while (task < tasks && seen >= split_point(total, task, tasks)) first[task++] = b << shift;
        seen += counts[b];
    }
    return Status();
}

Status scatter_blocks(const OpPlan& plan, const SlicesLayout& g, int shift, const int64_t* targets,
                      TaskRunner& runner, const HostAllocator& allocator) {
    SliceBlocks blocks(allocator);
    SCATTER_RETURN_IF_ERROR(blocks.build(targets, plan.slices, plan.target_rows, shift, runner));
    const uint32_t tasks = std::min(SCATTER_MAX_THREAD_COUNT,
                                    task_count_for(runner, plan.updates.element_count + plan.out.element_count, blocks.blocks()));
    const int64_t counts_per_task = needs_target_counts(plan) ? int64_t(1) << shift : 0;
    ScratchArray<int64_t> counts(allocator);
    SCATTER_RETURN_IF_ERROR(allocate_target_counts(counts, counts_per_task, tasks, "per-row"));
    int64_t first[SCATTER_MAX_THREAD_COUNT + 1];
    split_blocks(plan, blocks, tasks, first);
    Status status;
    dispatch_applier(plan, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        SlicesRunner<Applier> kernel(plan, g, targets, applier);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            int64_t* task_counts = counts_per_task > 0 ? counts.data() + counts_per_task * task : nullptr;
            kernel.run_blocks(first[task], first[task + 1], blocks, task_counts);
        });
    });
    return status;
}

}  // namespace

Status scatter_slices_cpu(const OpPlan& plan, const int64_t* targets, TaskRunner& runner,
                          const HostAllocator& allocator, const std::function<Status()>& fill_out) {
    if (plan.no_updates() || plan.out.empty()) return fill_out();
    const SlicesLayout g = make_layout(plan);
    const int shift = block_shift(plan);
    if (shift >= 0) return scatter_blocks(plan, g, shift, targets, runner, allocator);
    const int64_t outer = g.outer.count, rows = plan.target_rows, inner = plan.inner;
    const bool split_outer = outer >= int64_t(runner.concurrency());
    const bool split_slices = !split_outer && runner.concurrency() >= kPlainSplitMinTasks;
    // One element per slice and no hit counts: tasks split outer positions, or one task runs them
    // all (split target rows, every task would test every slice's row, a branch it mispredicts).
    const bool scalar = scalar_slices(g) && !needs_target_counts(plan);
    // With few outer positions, tasks split the slices' elements when each task's share is at
    // least kSpanSplitBytes: every task then streams through all of updates in order (W12: 512-byte
    // slices into 10000 rows). Otherwise they split the target rows, and each skips the slices
    // that reach other tasks' rows.
    const bool split_inner = !scalar && split_slices &&
                             inner * int64_t(plan.data.element_size) >= kSpanSplitBytes * int64_t(runner.concurrency());
    const uint32_t tasks = std::min(
        SCATTER_MAX_THREAD_COUNT,
        (scalar || !split_slices) && !split_outer
            ? 1
            : task_count_for(runner, plan.updates.element_count, split_outer ? outer : split_inner ? inner : rows));
    // Otherwise tasks split the target rows: task k owns rows [first_row[k], first_row[k + 1]) and
    // the hit counts of its rows in one table of `rows` counts.
    const bool split_rows = tasks > 1 && !scalar && !split_outer && !split_inner;
    int64_t first_row[SCATTER_MAX_THREAD_COUNT + 1];
    if (split_rows) SCATTER_RETURN_IF_ERROR(split_rows_by_slices(plan, targets, tasks, runner, allocator, first_row));
    const bool counted = needs_target_counts(plan);
    ScratchArray<int64_t> counts(allocator);
    SCATTER_RETURN_IF_ERROR(allocate_target_counts(counts, counted ? rows : 0, split_rows ? 1 : tasks, "per-row"));
    SCATTER_RETURN_IF_ERROR(fill_out());
    Status status;
    dispatch_applier(plan, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        SlicesRunner<Applier> kernel(plan, g, targets, applier);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            int64_t* task_counts = !counted ? nullptr : counts.data() + (split_rows ? first_row[task] : rows * task);
            if (scalar) {
                kernel.run_scalar(split_point(outer, task, tasks), split_point(outer, task + 1, tasks));
            } else if (split_outer || tasks == 1) {
                kernel.run(split_point(outer, task, tasks), split_point(outer, task + 1, tasks), 0, rows, 0, inner,
                           task_counts);
            } else if (split_inner) {  // at whole cache lines, so tasks share none of out's lines
                const int64_t line = std::max<int64_t>(1, 64 / int64_t(plan.data.element_size));
                const int64_t lines = (inner + line - 1) / line;
                kernel.run(0, outer, 0, rows, std::min(inner, split_point(lines, task, tasks) * line),
                           std::min(inner, split_point(lines, task + 1, tasks) * line), task_counts);
            } else {
                kernel.run(0, outer, first_row[task], first_row[task + 1], 0, inner, task_counts);
            }
        });
    });
    return status;
}

}  // namespace scatter
