// Slices of a rows/nd operation grouped by block of target rows, stably: a counting sort on
// target >> shift. A kernel then applies one block's slices while that block's rows of out sit
// in L2, instead of one random read-modify-write in DRAM per slice.
#pragma once

#include "core/host_allocator.h"
#include "core/status.h"
#include "core/task_runner.h"

#include <cstdint>

namespace scatter {

// counts[task * buckets + (target >> shift)]: how many of each task's slices (a contiguous range
// of `slices`, split_point order) aim at each bucket of 2^shift rows; skipped slices (-1) count
// nowhere. `counts` holds tasks * buckets entries, zeroed here.
Status count_slices_per_bucket(const int64_t* targets, int64_t slices, int shift, int64_t buckets, uint32_t tasks,
                               TaskRunner& runner, int64_t* counts);

class SliceBlocks {
public:
    explicit SliceBlocks(const HostAllocator& allocator) : start_(allocator), order_(allocator), counts_(allocator) {}

    // targets: per slice, its target row in [0, rows) or -1 (skipped; left out of every block).
    // Blocks hold 2^shift rows. OUT_OF_MEMORY when the tables cannot be allocated.
    Status build(const int64_t* targets, int64_t slices, int64_t rows, int shift, TaskRunner& runner);

    int64_t blocks() const { return blocks_; }
    int shift() const { return shift_; }
    // Block b's slices, in increasing order: order()[start(b)] ... order()[start(b + 1) - 1].
    int64_t start(int64_t block) const { return start_[size_t(block)]; }
    const int64_t* order() const { return order_.data(); }

private:
    int64_t blocks_ = 0;
    int shift_ = 0;
    ScratchArray<int64_t> start_, order_, counts_;
};

}  // namespace scatter
