// The subcommands of the `scatter` program. Each returns the process exit code and throws
// CliError for a runtime error.
#pragma once

#include "context.h"

#include <cstddef>
#include <string>
#include <vector>

enum class ScatterOp { elements, rows, nd };

struct RunOptions {
    ScatterOp op = ScatterOp::elements;
    std::string data_path, indices_path, updates_path, out_path;
    scatter_options options = SCATTER_OPTIONS_INIT;
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
