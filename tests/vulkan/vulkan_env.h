// What every Vulkan test shares: a Vulkan context on lavapipe with the Khronos validation layer
// and a log callback that counts its warnings and errors, a CPU context to compare with, and the
// rule that a missing Vulkan device fails the test when SCATTER_TEST_REQUIRE_VULKAN=1.
#pragma once

#include <scatter/scatter.h>

#include <gtest/gtest.h>

#include <atomic>
#include <string>

namespace vulkan_test {

// Under AddressSanitizer every allocation and thread start costs several times more, and its
// quarantine holds freed memory: cost ratios and resident-memory bounds are checked elsewhere.
#if defined(__SANITIZE_ADDRESS__)
#define SCATTER_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCATTER_TEST_ASAN 1
#endif
#endif
#ifdef SCATTER_TEST_ASAN
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

// Whether the tests run on lavapipe (the default), not on the machine's own drivers
// (SCATTER_TEST_VULKAN_DRIVER=system, a run on a real GPU).
bool on_lavapipe();

// Counts validation warnings and errors; the first message is kept for the failure report.
struct ValidationLog {
    std::atomic<int> problems{0};
    std::string first;
};

// A Vulkan context (validation on) plus a CPU context. After each test, a validation message
// fails the test.
class VulkanTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    scatter_context vulkan = nullptr;
    scatter_context cpu = nullptr;
    ValidationLog log;
};

// A VulkanTest with a profiling Vulkan context (`profiled`): a test asks which passes its last
// call on it ran, e.g. whether a path was taken.
class ProfiledVulkanTest : public VulkanTest {
protected:
    void SetUp() override;
    void TearDown() override;

public:
    // Whether the last call on `profiled` ran a pass named `pass`.
    bool last_call_ran(const char* pass);

    scatter_context profiled = nullptr;
};

// Creates a Vulkan context with validation whose messages go to `log`; OK or the failure.
scatter_status create_vulkan_context(ValidationLog* log, scatter_context* out);

// True when the environment demands a working Vulkan device.
bool vulkan_required();

// Which cases of an every-dtype-and-reduction sweep this run checks (SCATTER_TEST_SWEEP), for
// the suites' reruns under a switch, whose sweeps are most of their time (CI time):
//   unset        every case
//   order_free   the order-free reductions only (`order_free`): a switch that changes only
//                their code (the slab's shared atomics, the atomic path hidden)
//   ordered      the others but `none`: a switch that changes only the ordered folds
//   share:K/N    the dtypes at positions equal to K modulo N in the sweep (`dtype_position`): a
//                switch that changes every case's code, the other shares in other reruns. By
//                dtype, not by case: on lavapipe a sweep's time is its pipelines' compiles, one
//                set per dtype whichever of its cases run (a quarter of the cases, every dtype:
//                the same 25 s as all of them).
// Terms combine, comma-separated (ordered,share:0/2: both must hold). A malformed value fails
// the test.
bool sweep_selects(int dtype_position, scatter_reduction reduction, bool order_free);

}  // namespace vulkan_test
