// The three operations as the tests name them, with their printed names.
#pragma once

#include <vector>

namespace scatter_test {

enum class Op { elements, rows, nd };

const char* op_name(Op op);   // "elements", "rows", "nd"
const char* op_label(Op op);  // "ELEMENTS", "ROWS", "ND": the builder's constants
const std::vector<Op>& all_ops();

}  // namespace scatter_test
