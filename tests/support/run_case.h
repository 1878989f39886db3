// Running one scatter call given as tensors: through the oracle (tests/reference) or through
// the library on a context, with the tensors in host memory as laid out or copied into scatter
// buffers between guard regions. Every harness runs calls through here.
#pragma once

#include <scatter/scatter.h>

#include <string>

#include "host_tensor.h"
#include "ops.h"

namespace scatter_test {

// The tensors and options of one call. `out` is unused when in_place (out is data then).
struct CaseTensors {
    Op op = Op::elements;
    scatter_options options = SCATTER_OPTIONS_INIT;
    HostTensor data, indices, updates, out;
    bool in_place = false;

    const HostTensor& destination() const { return in_place ? data : out; }
};

enum class Placement {
    host,     // the HostTensors themselves
    buffers,  // each tensor's backing store copied into its own scatter buffer, between guards
};

struct Outcome {
    scatter_status status = SCATTER_OK;
    std::string message;  // the last-error message when status is not OK
    CaseTensors tensors;  // after the call (read back from the buffers)
    // Non-empty when the call wrote where it must not: a guard region, an input (data when out
    // is another tensor, indices, updates) or a gap between out's strided elements.
    std::string stray_write;
};

// The library's entry point for op.
scatter_status run_op(Op op, scatter_context context, const scatter_tensor* data,
                      const scatter_tensor* indices, const scatter_tensor* updates,
                      const scatter_options* options, const scatter_tensor* out);

// Runs one call on a private copy of `tensors`: the oracle when context is NULL (host placement
// only), else the library.
Outcome run_case(scatter_context context, const CaseTensors& tensors,
                 Placement placement = Placement::host);

}  // namespace scatter_test
