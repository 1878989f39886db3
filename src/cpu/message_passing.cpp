#include "cpu/message_passing.h"

#include "core/checked_math.h"
#include "core/index_rules.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_tensor.h"
#include "cpu/dispatch.h"
#include "cpu/kernel_context.h"
#include "cpu/prefetch.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <type_traits>

namespace scatter {
namespace {

enum { kX = 0, kOut = 1 };

// Weighted messages of a contiguous row are built in chunks of this many bytes on the stack.
constexpr int64_t kChunkBytes = 1024;
// The rows of the edge this many edges ahead are prefetched (random reads of x and out).
constexpr int64_t kPrefetchEdges = 8;
// Every task walks all edges (and reads all of dst), so the work splits only from this many
// threads on, as the rows scatter's plain path does (scatter_slices.cpp): on the loaded 2-core VM,
// W19 at 2 threads took 115-175 ms split by rows and 126-151 ms split by row elements, one task
// 85-110 ms.
constexpr uint32_t kSplitMinTasks = 4;

// values[i] = values[i] * weight for i < n, with the MUL reduction's arithmetic (R: its applier).
using ScaleFn = void (*)(char* values, int64_t n, const char* weight);
template <class R>
void scale_values(char* values, int64_t n, const char* weight) {
    const R r{uint32_t(R::kSize)};
    for (int64_t i = 0; i < n; ++i) r.apply(values + i * R::kSize, weight);
}

ScaleFn scale_function(const MessagePlan& p) {
    ScaleFn fn = nullptr;
    if (!p.weighted) return fn;
    dispatch_applier(p.data.dtype(), p.data.element_size, SCATTER_REDUCTION_MUL, [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (R::kReduces) fn = &scale_values<R>;
    });
    return fn;
}

// How edge e names its rows: dst's target row (-1: skipped) and src's source row (-1: FILL).
struct Edges {
    const char *src, *dst, *weights;
    int64_t src_stride, dst_stride, weight_stride;  // in bytes
    bool src_i64, dst_i64;
    int64_t sources, targets;
    scatter_out_of_range src_policy, dst_policy;

    explicit Edges(const MessagePlan& p)
        : src(p.src.host), dst(p.dst.host), weights(p.weighted ? p.weights.host : nullptr),
          src_stride(p.src.strides[0]), dst_stride(p.dst.strides[0]),
          weight_stride(p.weighted ? p.weights.strides[0] * int64_t(p.weights.element_size) : 0),
          src_i64(p.src.dtype() == SCATTER_DTYPE_I64), dst_i64(p.dst.dtype() == SCATTER_DTYPE_I64),
          sources(p.source_rows), targets(p.target_rows), src_policy(p.src_policy), dst_policy(p.dst_policy) {}

    int64_t target(int64_t e) const {
        int64_t row;
        return resolve_index(load_index(dst, dst_i64, e * dst_stride), targets, dst_policy, &row) ? row : -1;
    }
    // ERROR: validated; CLAMP: sources > 0 (validated); FILL: -1 when out of range.
    int64_t source(int64_t e) const {
        int64_t row;
        return resolve_index(load_index(src, src_i64, e * src_stride), sources, src_policy, &row) ? row : -1;
    }
    const char* weight(int64_t e) const { return weights == nullptr ? nullptr : weights + e * weight_stride; }
};

struct Layout {
    LoopDims<2> inner;  // one row's elements, with the strides of x and out
    int64_t x_row = 0, out_row = 0;  // strides along dimension 0, in elements
    bool contiguous = false;         // a row is one run in x and in out
};

Layout make_layout(const MessagePlan& p) {
    Layout g;
    const uint32_t r = p.data.rank;
    const int64_t* strides[] = {p.x.strides + 1, p.out.strides + 1};
    g.inner = make_loop_dims<2>(r - 1, p.data.shape + 1, strides);
    g.x_row = p.x.strides[0];
    g.out_row = p.out.strides[0];
    g.contiguous = g.inner.rank == 0 || (g.inner.rank == 1 && g.inner.strides[kX][0] == 1 && g.inner.strides[kOut][0] == 1);
    return g;
}

// Elements [begin, end) of a row, row-major over its dimensions.
struct Span {
    int64_t begin, end;
};

template <class Visit>
void for_each_inner(const Layout& g, Span span, Visit&& visit) {
    StridedWalk<2> walk(g.inner.rank, g.inner.shape, g.inner.strides);
    walk.seek(span.begin);
    for (int64_t i = span.begin; i < span.end; ++i, walk.next()) visit(walk.offset(kX), walk.offset(kOut));
}

template <class Applier>
class EdgeRunner {
public:
    EdgeRunner(const MessagePlan& p, const Layout& g, const Edges& edges, const Applier& applier, ScaleFn scale,
               const char* fill)
        : p_(p), g_(g), edges_(edges), applier_(applier), scale_(scale), fill_(fill), size_(p.data.element_size) {}

    // Target rows [r0, r1), elements [i0, i1) of each row; counts: hit counts of rows [r0, r1).
    void run(int64_t r0, int64_t r1, int64_t i0, int64_t i1, int64_t* counts) const {
        const Span span{i0, i1};
        const int64_t n = p_.edges;
        for (int64_t e = 0; e < n; ++e) {
            if (g_.contiguous && e + kPrefetchEdges < n) prefetch_edge(e + kPrefetchEdges, r0, r1, span);
            const int64_t t = edges_.target(e);
            if (t < r0 || t >= r1) continue;  // skipped edges (-1) too: r0 >= 0
            char* row = p_.out.host + t * g_.out_row * size_;
            if (counts != nullptr) {
                int64_t& count = counts[t - r0];
                if (p_.exclude_self && count == 0)
                    for_each_inner(g_, span, [&](int64_t, int64_t o) { applier_.start(row + o * size_); });
                ++count;
            }
            apply_message(row, e, span);
        }
        if (counts != nullptr) finish_rows(r0, r1, counts, span);
    }

private:
    void prefetch_edge(int64_t e, int64_t r0, int64_t r1, Span span) const {
        const int64_t t = edges_.target(e);
        if (t < r0 || t >= r1) return;
        const int64_t bytes = (span.end - span.begin) * size_;
        prefetch_lines<PrefetchTo::L1>(p_.out.host + (t * g_.out_row + span.begin) * size_, bytes);
        const int64_t s = edges_.source(e);
        if (s >= 0) prefetch_lines<PrefetchTo::L1>(p_.x.host + (s * g_.x_row + span.begin) * size_, bytes);
    }

    // out row (op)= message of edge e, over the span.
    void apply_message(char* row, int64_t e, Span span) const {
        const int64_t s = edges_.source(e);
        const char* source = s >= 0 ? p_.x.host + s * g_.x_row * size_ : nullptr;
        const char* weight = edges_.weight(e);
        if (g_.contiguous && weight == nullptr && source != nullptr) {
            applier_.apply_run(row + span.begin * size_, source + span.begin * size_, span.end - span.begin);
            return;
        }
        if (g_.contiguous && weight != nullptr) {  // weighted: typed, size <= 16
            alignas(16) char chunk[kChunkBytes];
            const int64_t per = kChunkBytes / size_;
            for (int64_t c = span.begin; c < span.end; c += per) {
                const int64_t k = std::min(per, span.end - c);
                if (source != nullptr) std::memcpy(chunk, source + c * size_, size_t(k * size_));
                else for (int64_t j = 0; j < k; ++j) std::memcpy(chunk + j * size_, fill_, size_t(size_));
                scale_(chunk, k, weight);
                applier_.apply_run(row + c * size_, chunk, k);
            }
            return;
        }
        for_each_inner(g_, span, [&](int64_t xo, int64_t o) {
            const char* message = source != nullptr ? source + xo * size_ : fill_;
            alignas(16) char scaled[16];
            if (weight != nullptr) {
                std::memcpy(scaled, message, size_t(size_));
                scale_(scaled, 1, weight);
                message = scaled;
            }
            applier_.apply(row + o * size_, message);
        });
    }

    void finish_rows(int64_t r0, int64_t r1, int64_t* counts, Span span) const {
        const int64_t self_terms = p_.exclude_self ? 0 : 1;
        for (int64_t t = r0; t < r1; ++t) {
            int64_t& count = counts[t - r0];
            if (count == 0) continue;
            if (p_.reduction == SCATTER_REDUCTION_MEAN) {
                char* row = p_.out.host + t * g_.out_row * size_;
                const int64_t terms = count + self_terms;
                for_each_inner(g_, span, [&](int64_t, int64_t o) { applier_.finish(row + o * size_, terms); });
            }
            count = 0;
        }
    }

    const MessagePlan& p_;
    const Layout& g_;
    const Edges& edges_;
    const Applier& applier_;
    const ScaleFn scale_;
    const char* const fill_;
    const int64_t size_;
};

// Integer DIV: fails naming the first message element, in edge order, that is zero and would be
// applied (its edge's dst is not skipped), before anything is written.
Status check_message_divisors(const MessagePlan& p, const Layout& g, const Edges& edges, ScaleFn scale,
                              const char* fill) {
    const DtypeKind kind = p.data.info->kind;
    if (p.reduction != SCATTER_REDUCTION_DIV || (kind != DtypeKind::Signed && kind != DtypeKind::Unsigned))
        return Status();
    const int64_t size = p.data.element_size;
    for (int64_t e = 0; e < p.edges; ++e) {
        if (edges.target(e) < 0) continue;
        const int64_t s = edges.source(e);
        const char* weight = edges.weight(e);
        int64_t bad = -1, element = 0;
        for_each_inner(g, Span{0, p.inner}, [&](int64_t xo, int64_t) {
            alignas(16) char message[16];
            std::memcpy(message, s >= 0 ? p.x.host + (s * g.x_row + xo) * size : fill, size_t(size));
            if (weight != nullptr) scale(message, 1, weight);
            bool zero = true;
            for (int64_t b = 0; b < size; ++b) zero = zero && message[b] == 0;
            if (zero && bad < 0) bad = element;
            ++element;
        });
        if (bad < 0) continue;
        int64_t position[SCATTER_MAX_RANK];
        position[0] = e;
        for (uint32_t d = p.data.rank - 1; d >= 1; --d) {
            position[d] = bad % p.data.shape[d];
            bad /= p.data.shape[d];
        }
        char where[SCATTER_MAX_RANK * 24];
        format_position(position, p.data.rank, where, sizeof where);
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "messages%s = 0 divides an integer target: integer division by zero", where);
    }
    return Status();
}

}  // namespace

Status message_passing_cpu(const MessagePlan& plan, TaskRunner& runner, const HostAllocator& allocator) {
    const Layout g = make_layout(plan);
    const Edges edges(plan);
    const ScaleFn scale = scale_function(plan);
    const int64_t size = plan.data.element_size;
    ScratchArray<char> zeros(allocator);
    const char* fill = plan.fill_value;
    if (fill == nullptr && plan.src_policy == SCATTER_OUT_OF_RANGE_FILL) {
        if (!zeros.allocate(size_t(size)))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate a fill value of %" PRId64 " bytes", size);
        std::memset(zeros.data(), 0, size_t(size));
        fill = zeros.data();
    }
    if (plan.out.empty()) return Status();
    SCATTER_RETURN_IF_ERROR(check_message_divisors(plan, g, edges, scale, fill));

    // Tasks split the target rows; with fewer rows than threads, every row's elements at whole
    // cache lines (no two tasks share a line of out). Rows first: a task then reads only its own
    // edges' rows of x, whole (W19, 2 threads forced to split on the loaded 2-core VM, best of 3
    // runs of 9: rows 77-122 ms, elements 126-151 ms).
    const int64_t rows = plan.target_rows, inner = plan.inner;
    const int64_t line = std::max<int64_t>(1, 64 / size), lines = (inner + line - 1) / line;
    const uint32_t concurrency = std::min(SCATTER_MAX_THREAD_COUNT, runner.concurrency());
    const bool split_inner = rows < int64_t(concurrency) && g.contiguous && lines >= int64_t(concurrency);
    const uint32_t tasks =
        concurrency < kSplitMinTasks
            ? 1
            : std::min<uint32_t>(concurrency, task_count_for(runner, plan.edges * inner, split_inner ? lines : rows));
    const bool counted = plan.exclude_self || plan.reduction == SCATTER_REDUCTION_MEAN;
    ScratchArray<int64_t> counts(allocator);
    SCATTER_RETURN_IF_ERROR(allocate_target_counts(counts, counted ? rows : 0, split_inner ? tasks : 1, "per-row"));
    if (!plan.in_place) SCATTER_RETURN_IF_ERROR(copy_tensor(plan.data, plan.out, runner));
    if (plan.edges == 0) return Status();
    Status status;
    dispatch_applier(plan.data.dtype(), plan.data.element_size, plan.reduction, [&](const auto& applier) {
        using Applier = std::decay_t<decltype(applier)>;
        const EdgeRunner<Applier> kernel(plan, g, edges, applier, scale, fill);
        status = parallel_for(runner, tasks, [&](uint32_t task) {
            if (tasks > 1 && split_inner) {
                const int64_t i0 = std::min(inner, split_point(lines, task, tasks) * line);
                const int64_t i1 = std::min(inner, split_point(lines, task + 1, tasks) * line);
                kernel.run(0, rows, i0, i1, counted ? counts.data() + rows * task : nullptr);
                return;
            }
            const int64_t r0 = split_point(rows, task, tasks), r1 = split_point(rows, task + 1, tasks);
            kernel.run(r0, r1, 0, inner, counted ? counts.data() + r0 : nullptr);
        });
    });
    return status;
}

}  // namespace scatter
