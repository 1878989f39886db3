// Host-side passes that read indices and updates before anything is written: index validation
// (policy ERROR), target resolution for rows/nd, and integer divisor checks.
#pragma once

#include "core/gather_plan.h"
#include "core/op_plan.h"
#include "core/task_runner.h"

#include <cstdint>

namespace scatter {

// Under policy ERROR, fails with INDEX_OUT_OF_RANGE naming the first offending index in
// row-major order. Needs host-addressable indices. Does nothing under SKIP and CLAMP.
Status check_indices(const OpPlan& plan, TaskRunner& runner);

// Gather: under ERROR, fails with INDEX_OUT_OF_RANGE naming the first offending index in
// row-major order; under CLAMP, naming the first index into a dimension of size 0 (nothing to
// clamp to). Does nothing under FILL. Needs host-addressable indices.
Status check_gather_indices(const GatherPlan& plan, TaskRunner& runner);

// Message passing: one edge vector (rank 1) named `name` into a dimension of size `bound`. ERROR:
// fails naming the first index outside [-bound, bound); CLAMP of a `gathered` vector (src): fails
// when bound is 0 (nothing to clamp to). Does nothing otherwise. Needs host-addressable indices.
Status check_edge_indices(const TensorView& idx, const char* name, int64_t bound, scatter_out_of_range policy,
                          bool gathered, TaskRunner& runner);

// rows/nd: writes for each slice j the target row in [0, plan.target_rows), or -1 when the slice
// is skipped. Expects check_indices to have passed.
Status resolve_slice_targets(const OpPlan& plan, TaskRunner& runner, int64_t* targets);

// Integer `div`: fails with INVALID_ARGUMENT naming the first update in row-major order that is
// zero and would be applied. `targets` is the result of resolve_slice_targets for rows/nd and is
// ignored for elements. Does nothing for other reductions and dtypes.
Status check_divisors(const OpPlan& plan, TaskRunner& runner, const int64_t* targets);

// True when the plan needs check_divisors.
bool needs_divisor_check(const OpPlan& plan);

// The two failures both backends report, worded in one place: indices[position] = value is
// outside [-bound, bound) on data axis `axis`; updates[position] = 0 divides an integer target.
Status index_error(const int64_t* position, uint32_t rank, int64_t value, int64_t bound, uint32_t axis,
                   const char* name = "indices");
// Gather under CLAMP: indices[position] = value addresses data axis `axis`, of size 0.
Status clamp_error(const int64_t* position, uint32_t rank, int64_t value, uint32_t axis,
                   const char* name = "indices");
Status divisor_error(const int64_t* position, uint32_t rank);

}  // namespace scatter
