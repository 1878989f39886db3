// The standard workloads W1-W15 (docs/cli.md): their definitions, read from the table
// benchmarks/workloads.json (embedded at build time), and their inputs, generated from a fixed seed.
#pragma once

#include "commands.h"

#include <cstdint>
#include <string>
#include <vector>

struct Workload {
    std::string id;
    ScatterOp op = ScatterOp::elements;
    std::string op_name, reduction_name, dtype_name;
    int32_t axis = 0;
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;
    scatter_dtype dtype = SCATTER_DTYPE_F32;
    std::vector<int64_t> data_shape, indices_shape, updates_shape;
    double updates_low = 0.0, updates_high = 1.0;  // value range of the updates
    bool latency = false;                            // report microseconds per call
    // Index distribution: uniform over the target axis, unless
    bool indices_sorted = false;  // non-decreasing along the axis (rows: over all; nd: lexicographic)
    int64_t targets_per_row = 0;  // elements, > 0: each fiber's indices over this many targets only
    bool large = false;           // gigabytes of tensors: run only when named, never as part of "all"

    std::string describe() const;
};

// Host tensors of one workload: data, int64 indices (distributed as the workload says), updates.
struct WorkloadInputs {
    std::vector<uint8_t> data, indices, updates;
};

// The text of benchmarks/workloads.json.
const char* standard_workloads_json();

// Every workload of the table, in order.
const std::vector<Workload>& standard_workloads();

// Generates the inputs of `workload` from RNG seed 0.
WorkloadInputs generate_inputs(const Workload& workload);
