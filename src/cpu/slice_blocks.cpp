#include "cpu/slice_blocks.h"

#include "core/checked_math.h"
#include "cpu/kernel_context.h"

#include <cinttypes>
#include <cstring>

namespace scatter {

Status count_slices_per_bucket(const int64_t* targets, int64_t slices, int shift, int64_t buckets, uint32_t tasks,
                               TaskRunner& runner, int64_t* counts) {
    std::memset(counts, 0, size_t(buckets) * tasks * sizeof(int64_t));
    return parallel_for(runner, tasks, [&](uint32_t task) {
        int64_t* mine = counts + int64_t(task) * buckets;
        const int64_t end = split_point(slices, task + 1, tasks);
        for (int64_t j = split_point(slices, task, tasks); j < end; ++j)
            if (targets[j] >= 0) ++mine[targets[j] >> shift];
    });
}

Status SliceBlocks::build(const int64_t* targets, int64_t slices, int64_t rows, int shift, TaskRunner& runner) {
    shift_ = shift;
    blocks_ = ((rows - 1) >> shift) + 1;
    // Each task counts, then places, one contiguous range of slices; ranges go out in task order
    // within a block, so every block lists its slices in increasing order.
    const uint32_t tasks = task_count_for(runner, slices, slices);
    const size_t cells = size_t(blocks_) * tasks;
    if (!start_.allocate(size_t(blocks_) + 1) || !order_.allocate(size_t(slices)) || !counts_.allocate(cells))
        return make_error(SCATTER_ERROR_OUT_OF_MEMORY,
                          "could not allocate the block tables of %" PRId64 " slices into %" PRId64 " blocks", slices,
                          blocks_);
    int64_t* const counts = counts_.data();
    const int64_t blocks = blocks_;
    SCATTER_RETURN_IF_ERROR(count_slices_per_bucket(targets, slices, shift, blocks, tasks, runner, counts));
    // counts[task][block] becomes where that task's slices of that block go.
    int64_t next = 0;
    for (int64_t b = 0; b < blocks; ++b) {
        start_[size_t(b)] = next;
        for (uint32_t task = 0; task < tasks; ++task) {
            int64_t& cell = counts[int64_t(task) * blocks + b];
            const int64_t n = cell;
            cell = next;
            next += n;
        }
    }
    start_[size_t(blocks)] = next;
    int64_t* const order = order_.data();
    return parallel_for(runner, tasks, [&](uint32_t task) {
        int64_t* at = counts + int64_t(task) * blocks;
        const int64_t end = split_point(slices, task + 1, tasks);
        for (int64_t j = split_point(slices, task, tasks); j < end; ++j)
            if (targets[j] >= 0) order[at[targets[j] >> shift]++] = j;
    });
}

}  // namespace scatter
