#include "cpu/copy_tensor.h"

#include "core/checked_math.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_bytes.h"
#include "cpu/kernel_context.h"

#include <algorithm>
#include <cstring>

namespace scatter {

Status copy_tensor(const TensorView& from, const TensorView& to, TaskRunner& runner) {
    if (from.empty()) return Status();
    const int64_t size = from.element_size;
    const int64_t* strides[] = {from.strides, to.strides};
    const LoopDims<2> dims = make_loop_dims<2>(from.rank, from.shape, strides);
    const int64_t n = dims.count;
    const int64_t bytes = n * size;
    // Chunks of a few MiB keep every thread streaming.
    const int64_t chunks = bytes < (int64_t(1) << 20) ? 1 : std::min<int64_t>(runner.concurrency() * 4, bytes >> 20);
    const bool flat = dims.rank <= 1 && dims.flat_stride(0) == 1 && dims.flat_stride(1) == 1;
    return parallel_for(runner, uint32_t(chunks), [&](uint32_t c) {
        const int64_t begin = split_point(n, c, chunks), end = split_point(n, c + 1, chunks);
        if (flat) {
            std::memcpy(to.host + begin * size, from.host + begin * size, size_t((end - begin) * size));
            return;
        }
        StridedWalk<2> walk(dims.rank, dims.shape, dims.strides);
        walk.seek(begin);
        for (int64_t i = begin; i < end; ++i, walk.next())
            std::memcpy(to.host + walk.offset(1) * size, from.host + walk.offset(0) * size, size_t(size));
    });
}

void copy_elements(const TensorView& from, const TensorView& to, int64_t begin, int64_t end) {
    if (begin >= end) return;
    const int64_t size = from.element_size;
    const int64_t* strides[] = {from.strides, to.strides};
    const LoopDims<2> dims = make_loop_dims<2>(from.rank, from.shape, strides);
    if (dims.rank <= 1 && dims.flat_stride(0) == 1 && dims.flat_stride(1) == 1) {
        copy_bytes(to.host + begin * size, from.host + begin * size, (end - begin) * size);
        return;
    }
    StridedWalk<2> walk(dims.rank, dims.shape, dims.strides);
    walk.seek(begin);
    for (int64_t i = begin; i < end; ++i, walk.next())
        std::memcpy(to.host + walk.offset(1) * size, from.host + walk.offset(0) * size, size_t(size));
}

}  // namespace scatter
