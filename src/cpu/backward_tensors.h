// The pieces the CPU backward kernels are built from: scratch tensors of a given shape, the
// forward's own scatter and gather kernels run on them, and element-wise passes over several
// views of one shape. Every pass writes each element once, so any split gives the same bytes.
#pragma once

#include "core/derived_views.h"
#include "core/host_allocator.h"
#include "core/loop_dims.h"
#include "core/op_plan.h"
#include "core/strided_walk.h"
#include "core/task_runner.h"
#include "core/tensor_view.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace scatter {

// Scratch tensors of one call, all allocated before anything is written.
class ScratchTensors {
public:
    explicit ScratchTensors(const HostAllocator& allocator) : allocator_(allocator) {}
    ScratchTensors(const ScratchTensors&) = delete;
    ScratchTensors& operator=(const ScratchTensors&) = delete;
    ~ScratchTensors();
    // A new contiguous tensor shaped like `like` (uninitialized); OUT_OF_MEMORY when refused.
    Status make(const TensorView& like, scatter_dtype dtype, TensorView* view);

private:
    static constexpr int kMax = 8;
    const HostAllocator& allocator_;
    void* blocks_[kMax] = {};
    size_t capacities_[kMax] = {};
    int count_ = 0;
};

// Scatters `updates` into `target` in place with the forward's indices, axis and policy and
// reduction `reduction` (exclude_self off). `targets`: the forward's resolved slice targets
// (rows/nd), nullptr for elements. The forward's indices must have passed check_indices.
Status scatter_in_place(const OpPlan& forward, const int64_t* targets, const TensorView& target,
                        const TensorView& updates, scatter_reduction reduction, TaskRunner& runner,
                        const HostAllocator& allocator);

// Gathers `source` (data's shape) into `dest` (updates' shape) at the forward's indices. A
// position the forward's SKIP policy ignored gets the element at `fill` (dest's dtype).
Status gather_at_updates(const OpPlan& forward, const TensorView& source, const TensorView& dest, const void* fill,
                         TaskRunner& runner);

// Calls fn(flat, p) for each element of views[0]'s shape in row-major order, p[k] pointing at
// the element of views[k] (all of that shape), flat its row-major index; in parallel chunks.
// Dimensions every view can merge are merged, and the last one runs as a plain loop.
template <int N, class Fn>
Status for_each_element(TaskRunner& runner, const TensorView* const (&views)[N], Fn&& fn) {
    const TensorView& shape = *views[0];
    const int64_t count = shape.element_count;
    if (count == 0) return Status();
    const int64_t* strides[N];
    char* base[N];
    int64_t size[N];
    for (int k = 0; k < N; ++k) {
        strides[k] = views[k]->strides;
        base[k] = views[k]->host;
        size[k] = views[k]->element_size;
    }
    const LoopDims<N> dims = make_loop_dims<N>(shape.rank, shape.shape, strides);
    const uint32_t outer_rank = dims.rank == 0 ? 0 : dims.rank - 1;
    const int64_t inner = dims.rank == 0 ? 1 : dims.shape[outer_rank];
    int64_t step[N];  // bytes from one element to the next along the inner dimension
    for (int k = 0; k < N; ++k) step[k] = dims.rank == 0 ? 0 : dims.strides[k][outer_rank] * size[k];
    constexpr int64_t kChunk = int64_t(1) << 15;
    const uint32_t tasks =
        uint32_t(std::min<int64_t>((count + kChunk - 1) / kChunk, int64_t(runner.concurrency()) * 4));
    return parallel_for(runner, tasks, [&](uint32_t task) {
        const int64_t begin = count * task / tasks, end = count * (task + 1) / tasks;
        StridedWalk<N> walk(outer_rank, dims.shape, dims.strides);
        walk.seek(begin / inner);
        int64_t column = begin % inner;
        char* p[N];
        for (int64_t i = begin; i < end; walk.next()) {
            for (int k = 0; k < N; ++k) p[k] = base[k] + (walk.offset(k) * size[k] + column * step[k]);
            const int64_t n = std::min(inner - column, end - i);
            for (int64_t c = 0; c < n; ++c, ++i) {
                fn(i, p);
                for (int k = 0; k < N; ++k) p[k] += step[k];
            }
            column = 0;
        }
    });
}

inline int64_t load_i64(const char* p) {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
inline void store_i64(char* p, int64_t v) { std::memcpy(p, &v, 8); }

}  // namespace scatter
