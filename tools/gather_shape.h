// The shape of a gather's out, by the rules of docs/semantics.md ("Gather"), for `scatter run`
// and the gather workloads of `scatter bench`.
#pragma once

#include "commands.h"

#include <cstddef>
#include <cstdint>
#include <vector>

// Sets *out and returns true; false where the rules give no shape (a bad axis, rank or index
// depth), which the library refuses before it looks at out.
inline bool gather_shape(ScatterOp op, const std::vector<int64_t>& data, const std::vector<int64_t>& indices,
                         const scatter_gather_options& options, std::vector<int64_t>* out) {
    const int64_t r = int64_t(data.size()), q = int64_t(indices.size());
    switch (op) {
    case ScatterOp::elements: *out = indices; return true;
    case ScatterOp::rows: {
        if (options.axis < -r || options.axis >= r || r - 1 + q > SCATTER_MAX_RANK) return false;
        const std::ptrdiff_t a = options.axis < 0 ? options.axis + r : options.axis;
        out->assign(data.begin(), data.begin() + a);
        out->insert(out->end(), indices.begin(), indices.end());
        out->insert(out->end(), data.begin() + a + 1, data.end());
        return true;
    }
    case ScatterOp::nd: {
        const int64_t b = options.batch_dims;
        if (q == 0 || b >= r || b >= q) return false;
        const int64_t depth = indices.back();
        if (depth < 1 || depth > r - b) return false;
        out->assign(indices.begin(), indices.end() - 1);
        out->insert(out->end(), data.begin() + std::ptrdiff_t(b + depth), data.end());
        return true;
    }
    }
    return false;
}
