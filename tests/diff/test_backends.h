// The library configurations every case runs on: the CPU backend with 1, 2 and 7 threads and
// with a host job-system callback, and the Vulkan backend when present. Contexts are created
// once per process and shared by all cases.
#pragma once

#include <scatter/scatter.h>

#include <string>
#include <vector>

namespace scatter_diff {

struct TestBackend {
    std::string name;        // "cpu/1 thread", "vulkan", ...
    scatter_context context;
};

std::vector<TestBackend> cpu_backends();

// The Vulkan context, or nullptr when Vulkan is unavailable (the reason in *why). With the
// environment variable SCATTER_TEST_REQUIRE_VULKAN=1, unavailability is reported as a test
// failure by the callers.
scatter_context vulkan_context(std::string* why);
bool vulkan_required();

// SCATTER_TEST_BACKENDS=cpu limits run_all_backends() to the CPU (for the CPU-only ctest entry).
bool vulkan_allowed_by_environment();

// Destroys every context; main calls it after the tests, before the process exits.
void destroy_backends();

}  // namespace scatter_diff
