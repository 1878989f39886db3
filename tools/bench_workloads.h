// The standard workloads W1-W20 (docs/cli.md): their definitions, read from the table
// benchmarks/workloads.json (embedded at build time), and their inputs, generated from a fixed seed.
#pragma once

#include "commands.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct Workload {
    std::string id;
    ScatterOp op = ScatterOp::elements;  // the index form
    bool gather = false;                 // a gather of that form: no reduction, no updates
    // message passing: x [N, F...] (x_shape) sent along indices_shape = [E] edges, src uniform
    // over x's rows and dst over data's; no updates
    bool message_passing = false;
    std::vector<int64_t> x_shape;
    // The scatter's backward call (scatter_*_backward: grad_data and grad_updates from a
    // grad_out), timed alone: the forward's result is computed once before.
    bool backward = false;
    std::string op_name, reduction_name, dtype_name;
    int32_t axis = 0;
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;
    scatter_dtype dtype = SCATTER_DTYPE_F32;
    std::vector<int64_t> data_shape, indices_shape, updates_shape;  // updates: scatters only
    std::vector<int64_t> out_shape;  // data's for a scatter; the rule's for a gather
    double updates_low = 0.0, updates_high = 1.0;  // value range of the updates
    int64_t ties = 0;  // > 0: data and updates take only the values 0 .. ties-1 (max/min ties)
    bool latency = false;                            // report microseconds per call
    // Index distribution: uniform over the target axis, unless
    bool indices_sorted = false;  // non-decreasing along the axis (rows: over all; nd: lexicographic)
    int64_t targets_per_row = 0;  // elements, > 0: each fiber's indices over this many targets only
    // elements: every fiber of indices along the axis the same (an index vector expanded over
    // the other dims: PyTorch's scatter_add with index.expand, a GNN's message aggregation)
    bool indices_broadcast = false;
    bool large = false;           // gigabytes of tensors: run only when named, never as part of "all"

    std::string describe() const;
};

// `size` bytes of host memory starting `offset` bytes past a 64-byte boundary, uninitialized.
// Where a tensor starts decides how many cache lines each of its rows spans: PyTorch's and ONNX
// Runtime's allocators start tensors at 64-byte boundaries, glibc's malloc 16 bytes past a page
// for large blocks (a 256-byte row then spans 5 lines, not 4).
class HostBytes {
public:
    static constexpr size_t kAlignment = 64;
    HostBytes() = default;
    HostBytes(size_t size, size_t offset);
    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    std::unique_ptr<uint8_t[]> block_;
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

// Host tensors of one workload: data, int64 indices (distributed as the workload says), updates
// (none for a gather); message passing: indices are src, dst the targets, updates x; grad_out
// (backward workloads: uniform in [0, 1), data's shape).
struct WorkloadInputs {
    HostBytes data, indices, updates, dst, grad_out;
};

// The text of benchmarks/workloads.json.
const char* standard_workloads_json();

// Every workload of the table, in order.
const std::vector<Workload>& standard_workloads();

// Generates the inputs of `workload` from RNG seed 0, each tensor `offset` bytes past a 64-byte
// boundary.
WorkloadInputs generate_inputs(const Workload& workload, size_t offset);
