// OpPlan: one validated operation, with its options normalized and its geometry derived.
#pragma once

#include "core/tensor_view.h"

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

enum class OpKind { Elements, Rows, Nd };

struct OperationProfile;

const char* op_name(OpKind op);

struct OpPlan {
    OpKind op = OpKind::Elements;
    TensorView data, indices, updates, out;
    int32_t axis = 0;                  // elements/rows: in [0, rank); nd: 0
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;  // never DEFAULT
    scatter_out_of_range policy = SCATTER_OUT_OF_RANGE_ERROR;  // never DEFAULT
    bool exclude_self = false;         // false for `none`, where it means nothing
    bool in_place = false;             // out is the same view as data
    bool deterministic = true;         // false when the context or call allows order freedom
    OperationProfile* profile = nullptr;  // set when the context profiles: the backend adds to it

    // Slice geometry of rows and nd: data seen as [outer, target_rows, inner] and updates as
    // [outer, slices, inner]; slice j of updates goes to the target row its index names.
    //   rows: outer = prod(data.shape[:axis]), target_rows = data.shape[axis],
    //         inner = prod(data.shape[axis+1:]), slices = numel(indices)
    //   nd:   outer = 1, target_rows = prod(data.shape[:k]), inner = prod(data.shape[k:]),
    //         slices = prod(indices.shape[:-1]), k = index_depth
    int64_t outer = 1, target_rows = 0, inner = 1, slices = 0;
    uint32_t index_depth = 0;  // nd: k

    // True when the operation only copies data to out (no updates at all).
    bool no_updates() const { return updates.element_count == 0; }
};

struct OpRequest {
    OpKind op;
    const scatter_tensor* data;
    const scatter_tensor* indices;
    const scatter_tensor* updates;
    const scatter_options* options;
    const scatter_tensor* out;
};

// The option rules of plan_operation: DEFAULT enums resolved, unknown values and flags refused.
Status normalize_scatter_options(const scatter_options* options, OpKind op, scatter_options* normalized);

// The shape rules of plan->op on views already made (data, indices, updates): axis, ranks and
// updates' shape; fills the axis and the slice geometry.
Status plan_operation_shapes(OpPlan* plan, int32_t axis);

// Checks everything that can be checked without reading index or update values: descriptors,
// enums, dtypes and their reductions, ranks, shapes, axis, overlap. Fills `plan`.
Status plan_operation(const OpRequest& request, scatter_context_t* context, OpPlan* plan);

}  // namespace scatter
