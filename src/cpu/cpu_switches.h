// Test switches for the CPU kernels' choice of path, read once from SCATTER_CPU_TEST_PATHS
// (comma-separated; anything else fails context creation), so the differential suite can drive a path that normally needs large inputs:
//   blocks=N   rows/nd take the blocked path (slice_blocks.h) whenever outer == 1, with blocks of
//              about N bytes of out, whatever the sizes
//   stage=N    elements with one inner dimension scatter into stages of about N bytes
//              (scatter_elements.cpp), whatever the sizes, written back with non-temporal stores
//   gather_parallel=N  gathers split their work over the threads from N bytes of out on (by
//              default 256 KiB), so small cases take the threaded paths of gather.cpp
#pragma once

#include "core/status.h"

#include <cstdint>

namespace scatter {

struct CpuSwitches {
    int64_t block_bytes = int64_t(256) << 10;  // out bytes per block of the blocked path
    bool force_blocks = false;
    int64_t stage_bytes = 0;  // forced stage size of the elements path (0: by the sizes)
    int64_t gather_parallel_bytes = int64_t(256) << 10;  // out bytes from which a gather uses the threads
};

const CpuSwitches& cpu_switches();

// INVALID_ARGUMENT naming the term when SCATTER_CPU_TEST_PATHS has one that is not a switch
// (checked where a context is created; cpu_switches() then holds the defaults).
Status check_cpu_switches();

}  // namespace scatter
