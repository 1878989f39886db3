// The library configurations tests run on. ScatterCase runs every case on the CPU backend with
// 1, 2 and 7 threads and with a host job-system callback, and on the Vulkan backend when present:
// those contexts are created once per process and shared by all cases. Suites that run once per
// backend take make_test_context(), which the environment points at CPU or Vulkan.
#pragma once

#include <scatter/scatter.h>

#include <memory>
#include <string>
#include <vector>

namespace scatter_test {

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

// Destroys every shared context; main calls it after the tests, before the process exits.
void destroy_backends();

// A context that destroys itself.
struct ContextDeleter {
    void operator()(scatter_context context) const { scatter_context_destroy(context); }
};
using ContextPtr = std::unique_ptr<scatter_context_t, ContextDeleter>;

// A new context on the backend named by the environment variable SCATTER_TEST_BACKEND ("cpu",
// the default, or "vulkan"), with thread_count CPU threads (0: one per hardware thread); fails
// the test if it cannot be created.
ContextPtr make_test_context(uint32_t thread_count = 1);

}  // namespace scatter_test
