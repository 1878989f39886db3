// Command-line spellings of the library's enums, shared by option parsing and the workload table.
#pragma once

#include "commands.h"

#include <map>
#include <string>

inline const std::map<std::string, OpChoice>& op_names() {
    static const std::map<std::string, OpChoice> names = {
        {"elements", {ScatterOp::elements, false}},
        {"rows", {ScatterOp::rows, false}},
        {"nd", {ScatterOp::nd, false}},
        {"gather_elements", {ScatterOp::elements, true}},
        {"gather_rows", {ScatterOp::rows, true}},
        {"gather_nd", {ScatterOp::nd, true}},
        {"message_passing", {ScatterOp::rows, false, true}}};
    return names;
}

inline const std::map<std::string, scatter_reduction>& reduction_names() {
    static const std::map<std::string, scatter_reduction> names = {
        {"none", SCATTER_REDUCTION_NONE}, {"add", SCATTER_REDUCTION_ADD},
        {"sub", SCATTER_REDUCTION_SUB},   {"mul", SCATTER_REDUCTION_MUL},
        {"div", SCATTER_REDUCTION_DIV},   {"max", SCATTER_REDUCTION_MAX},
        {"min", SCATTER_REDUCTION_MIN},   {"mean", SCATTER_REDUCTION_MEAN},
        // The names users bring from PyTorch (scatter_reduce: sum, prod, amax, amin) and ONNX
        // (ScatterElements/ScatterND: multiply).
        {"sum", SCATTER_REDUCTION_ADD},   {"prod", SCATTER_REDUCTION_MUL},
        {"multiply", SCATTER_REDUCTION_MUL}, {"amax", SCATTER_REDUCTION_MAX},
        {"amin", SCATTER_REDUCTION_MIN}};
    return names;
}

// Every policy name; scatter takes error, skip and clamp, gather error, clamp and fill.
inline const std::map<std::string, scatter_out_of_range>& out_of_range_names() {
    static const std::map<std::string, scatter_out_of_range> names = {
        {"error", SCATTER_OUT_OF_RANGE_ERROR},
        {"skip", SCATTER_OUT_OF_RANGE_SKIP},
        {"clamp", SCATTER_OUT_OF_RANGE_CLAMP},
        {"fill", SCATTER_OUT_OF_RANGE_FILL}};
    return names;
}
