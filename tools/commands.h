// The subcommands of the `scatter` program. Each returns the process exit code and throws
// CliError for a runtime error.
#pragma once

#include "context.h"

#include <cstddef>
#include <string>
#include <vector>

// The three index forms, each a scatter and a gather (scatter_gather_*).
enum class ScatterOp { elements, rows, nd };

// An --op name: the form, and whether it is the gather of that form or message passing (rows form).
struct OpChoice {
    ScatterOp form = ScatterOp::elements;
    bool gather = false;
    bool message_passing = false;
};

struct RunOptions {
    OpChoice op;
    std::string data_path, indices_path, updates_path, out_path;
    std::string x_path, src_path, dst_path, weights_path;  // message passing
    scatter_options options = SCATTER_OPTIONS_INIT;                // a scatter's
    scatter_gather_options gather_options = SCATTER_GATHER_OPTIONS_INIT;  // a gather's
    scatter_message_passing_options message_options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    bool has_fill_value = false;  // --fill-value given: fill_value converts to data's dtype
    std::string fill_value;
    ContextSettings context;
};

struct BenchOptions {
    std::vector<std::string> workloads;  // ids such as "W1"; empty or "all" means every one
    ContextSettings context;
    int repeat = 7;
    bool json = false;
    bool resident = false;  // tensors in context buffers (device memory on Vulkan), not host memory
    bool profile = false;   // after timing, one profiled call per workload: its stages and passes
    int batch = 0;          // > 0: each sample records this many calls into one batch (Vulkan)
    size_t misalign = 0;    // host tensors start this many bytes past a 64-byte boundary
};

int run_command(const RunOptions& options);
int devices_command(bool json);
int version_command();
int bench_command(const BenchOptions& options);
