// Helpers for the oracle's own tests: run one operation on small contiguous vectors.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "scatter_reference.h"

namespace scatter_reference {

template <class T> struct RefOutcome {
    scatter_status status;
    std::vector<T> out;
};

template <class T> struct Values {
    std::vector<int64_t> shape;
    std::vector<T> values;
};

struct Options {
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;
    int32_t axis = 0;
    scatter_out_of_range out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    bool exclude_self = false;
};

inline scatter_tensor host_tensor(scatter_dtype dtype, const std::vector<int64_t>& shape, void* p,
                                  uint32_t element_size = 0) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.element_size = element_size;
    t.rank = uint32_t(shape.size());
    t.shape = shape.data();
    t.data = p;
    return t;
}

// Runs `op` out of place; out starts as a copy of data so an error shows it unchanged.
template <class T, class I>
RefOutcome<T> run_ref(Op op, scatter_dtype dtype, Values<T> data, Values<I> indices,
                      Values<T> updates, Options o = {}) {
    RefOutcome<T> result{SCATTER_OK, data.values};
    scatter_dtype index_dtype = sizeof(I) == 4 ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64;
    scatter_tensor d = host_tensor(dtype, data.shape, data.values.data());
    scatter_tensor i = host_tensor(index_dtype, indices.shape, indices.values.data());
    scatter_tensor u = host_tensor(dtype, updates.shape, updates.values.data());
    scatter_tensor out = host_tensor(dtype, data.shape, result.out.data());
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = o.reduction;
    options.axis = o.axis;
    options.out_of_range = o.out_of_range;
    options.flags = o.exclude_self ? SCATTER_OPTION_EXCLUDE_SELF : 0u;
    result.status = run(op, &d, &i, &u, &options, &out);
    return result;
}

}  // namespace scatter_reference
