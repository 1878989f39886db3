// Views the library makes itself, of shapes the call's tensors give: contiguous scratch and
// broadcast constants. The backward calls build their passes from them.
#pragma once

#include "core/tensor_view.h"

namespace scatter {

// A contiguous host view with the shape of `like`, dtype `dtype`, at `host`.
TensorView contiguous_like(const TensorView& like, scatter_dtype dtype, void* host);

// A read-only view of shape `like` whose every element is the one element at `value` (zero
// strides): a broadcast constant.
TensorView broadcast_like(const TensorView& like, scatter_dtype dtype, const void* value);

}  // namespace scatter
