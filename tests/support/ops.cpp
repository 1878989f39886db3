#include "ops.h"

namespace scatter_test {

const char* op_name(Op op) { return op == Op::elements ? "elements" : op == Op::rows ? "rows" : "nd"; }

const char* op_label(Op op) { return op == Op::elements ? "ELEMENTS" : op == Op::rows ? "ROWS" : "ND"; }

const std::vector<Op>& all_ops() {
    static const std::vector<Op> ops = {Op::elements, Op::rows, Op::nd};
    return ops;
}

}  // namespace scatter_test
