// Drivers that end long shader loops. llvmpipe (lavapipe) counts the loop iterations of each
// shader invocation and, once 65535 are spent in all loops together, leaves every loop: a long
// fold or sort would stop halfway and give a wrong result without any error. On such a device a
// call whose loops could run that long fails with UNSUPPORTED before anything is written: the
// target-parallel path checks each key's update count on the device (buckets.comp, ALLOCATE,
// status word S_LOOP_LIMIT), the owner-computes path its column length here on the host.
#pragma once

#include "core/op_plan.h"
#include "core/status.h"

#include <cstdint>

namespace scatter {

// The loop iterations one invocation may spend on the device `info` names, or 0 for no limit.
uint32_t shader_loop_limit(const scatter_device_info& info);

// The most updates one key (target-parallel: sorted, then folded) or one column (owner path:
// folded in order) may take within `loop_limit` iterations, from a cost model the tests
// check at every dtype, reduction and rank (LoopLimit.* in tests/vulkan; APPLY_QUADS' rows of
// one quad too, in KeySort.KeysPastTheLoopLimitFoldInChunks).
uint32_t loop_limited_items(const OpPlan& plan, uint32_t loop_limit, bool sorted);

// Loop iterations one invocation of the slab path (scatter.comp SLAB) may spend on a fiber of
// `length` targets reached by `items` updates: every update of a chunk of 64 may fall to one lane;
// `by_subgroups`: the ordered fold by subgroups (`_sb`), each walking every update of the tile.
uint64_t slab_loop_iterations(const OpPlan& plan, int64_t length, int64_t items, bool by_subgroups = false);

// The iterations a loop-limited driver leaves to a pass's main loops (the rest: loops outside).
uint32_t loop_budget(uint32_t loop_limit);

// UNSUPPORTED: `items` updates reach one target, more than `limit`; or (`column`, the
// owner-computes path, one invocation per column) fall in one column.
Status loop_limit_error(const scatter_device_info& info, uint64_t items, uint32_t limit, bool column = false);

}  // namespace scatter
