// MessagePlan: one validated scatter_message_passing call, with its options normalized. The
// planner checks everything that needs no index or element value; the backend checks the indices
// (src, then dst) and integer divisors before it writes.
#pragma once

#include "core/tensor_view.h"

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

struct OperationProfile;

struct MessagePlan {
    TensorView data, x, src, dst, weights, out;  // weights: empty and unused when !weighted
    bool weighted = false;
    scatter_reduction reduction = SCATTER_REDUCTION_ADD;         // never DEFAULT
    scatter_out_of_range src_policy = SCATTER_OUT_OF_RANGE_ERROR;  // ERROR, CLAMP or FILL
    scatter_out_of_range dst_policy = SCATTER_OUT_OF_RANGE_ERROR;  // ERROR, SKIP or CLAMP
    const char* fill_value = nullptr;  // src FILL: element_size bytes; nullptr means zero bytes
    bool exclude_self = false;         // false for `none`, where it means nothing
    bool in_place = false;             // out is the same view as data
    // data and out seen as [target_rows, inner], x as [source_rows, inner]; one message per edge.
    int64_t target_rows = 0, source_rows = 0, inner = 1, edges = 0;
    OperationProfile* profile = nullptr;  // set when the context profiles: the backend adds to it
};

struct MessageRequest {
    const scatter_tensor* data;
    const scatter_tensor* x;
    const scatter_tensor* src;
    const scatter_tensor* dst;
    const scatter_tensor* weights;  // may be NULL
    const scatter_message_passing_options* options;
    const scatter_tensor* out;
};

// Checks descriptors, options, dtypes and their reduction, ranks, shapes and overlaps. Fills `plan`.
Status plan_message_passing(const MessageRequest& request, scatter_context_t* context, MessagePlan* plan);

}  // namespace scatter
