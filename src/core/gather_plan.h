// GatherPlan: one validated gather (scatter_gather_elements / _rows / _nd), with its options
// normalized. The planner checks everything that needs no index value; the backend checks the
// indices before it writes.
#pragma once

#include "core/op_plan.h"
#include "core/tensor_view.h"

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

struct GatherPlan {
    OpKind op = OpKind::Elements;
    TensorView data, indices, out;
    int32_t axis = 0;            // elements/rows: in [0, rank); nd: 0
    uint32_t batch_dims = 0;     // nd: b; elements/rows: 0
    uint32_t index_depth = 1;    // nd: k = indices.shape[-1]; elements/rows: 1
    scatter_out_of_range policy = SCATTER_OUT_OF_RANGE_ERROR;  // ERROR, CLAMP or FILL
    const char* fill_value = nullptr;  // FILL: element_size bytes; nullptr means zero bytes
    OperationProfile* profile = nullptr;  // set when the context profiles: the backend adds to it

    // The data dimensions the index coordinates address: coordinate c (0 for elements/rows)
    // addresses data dimension first_indexed_axis() + c.
    uint32_t first_indexed_axis() const { return op == OpKind::Nd ? batch_dims : uint32_t(axis); }
};

struct GatherRequest {
    OpKind op;
    const scatter_tensor* data;
    const scatter_tensor* indices;
    const scatter_gather_options* options;
    const scatter_tensor* out;
};

// The option rules of plan_gather: DEFAULT resolved, SKIP, unknown values and flags refused.
Status normalize_gather_options(const scatter_gather_options* options, OpKind op,
                                scatter_gather_options* normalized);

// How messages name a gather's data and out (the backward's grad_data and grad_out).
struct GatherNames {
    const char* data = "data";
    const char* out = "out";
};

// The shape rules of plan->op on views already made (data, indices, out): axis, batch_dims,
// ranks and out's shape; fills axis, batch_dims and index_depth.
Status plan_gather_shapes(GatherPlan* plan, const scatter_gather_options& options, const GatherNames& names);

// Checks descriptors, options, dtypes, ranks, shapes and overlaps. Fills `plan`.
Status plan_gather(const GatherRequest& request, scatter_context_t* context, GatherPlan* plan);

}  // namespace scatter
