// Long use: contexts share one instance and device per process (the 500th context costs little,
// contexts from several threads), and 100 000 calls or 1000 contexts leave time per call and
// resident memory flat.
#include "call_mix.h"
#include "vulkan_env.h"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace vulkan_test {
namespace {

// ---- contexts share one instance and device per process ----

int count_entries(const char* directory) {
    int n = 0;
    if (DIR* d = opendir(directory)) {
        while (readdir(d) != nullptr) ++n;
        closedir(d);
    }
    return n;
}

double create_and_destroy_us(scatter_context_desc desc) {
    auto start = std::chrono::steady_clock::now();
    scatter_context ctx = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &ctx), SCATTER_OK) << scatter_last_error_message();
    scatter_context_destroy(ctx);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

using SharedDevice = VulkanTest;  // SetUp puts the process on lavapipe

TEST_F(SharedDevice, FiveHundredContextsCostLittleAfterTheFirst) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    scatter_context first = nullptr;
    auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(scatter_context_create(&desc, &first), SCATTER_OK) << scatter_last_error_message();
    const double first_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    scatter_context_destroy(first);
    create_and_destroy_us(desc);  // the process's threads and descriptors settle
    const int fds = count_entries("/proc/self/fd"), threads = count_entries("/proc/self/task");
    std::vector<double> later;
    for (int i = 0; i < 498; ++i) later.push_back(create_and_destroy_us(desc));
    std::sort(later.begin(), later.end());
    const double median = later[later.size() / 2];
    // 5 % of the first creation, or (when an earlier test in this process created the device
    // already, so the first was cheap too) under a millisecond. Under AddressSanitizer (measured:
    // 60 ms first, 4 ms after) the thread pool's start dominates both; the bound is loose there.
    const double fraction = kUnderAddressSanitizer ? 0.25 : 0.05;
    const double floor_us = kUnderAddressSanitizer ? 10000.0 : 1000.0;
    EXPECT_TRUE(median <= fraction * first_us || median < floor_us)
        << "first context " << first_us << " us, median of the next 498 " << median << " us";
    // A context that left one thread or descriptor behind would add 498; a driver's worker
    // threads come and go on their own schedule.
    EXPECT_LE(count_entries("/proc/self/fd"), fds + 4) << "file descriptors grew";
    EXPECT_LE(count_entries("/proc/self/task"), threads + 4) << "threads grew";
}

TEST_F(SharedDevice, ContextsCreatedAndDestroyedFromSeveralThreads) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                scatter_context ctx = nullptr;
                if (scatter_context_create(&desc, &ctx) != SCATTER_OK) {
                    failures.fetch_add(1);
                    continue;
                }
                int64_t shape[1] = {8};
                float data[8] = {}, update[1] = {float(t)};
                int64_t index[1] = {i % 8}, index_shape[1] = {1};
                scatter_tensor d = tensor(SCATTER_DTYPE_F32, 1, shape, data);
                scatter_tensor x = tensor(SCATTER_DTYPE_I64, 1, index_shape, index);
                scatter_tensor u = tensor(SCATTER_DTYPE_F32, 1, index_shape, update);
                scatter_options o = SCATTER_OPTIONS_INIT;
                if (scatter_elements(ctx, &d, &x, &u, &o, &d) != SCATTER_OK || data[i % 8] != float(t))
                    failures.fetch_add(1);
                scatter_context_destroy(ctx);
            }
        });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace vulkan_test

namespace vulkan_test {
namespace {

// ---- long runs (issue 10): flat time per call and flat memory ----

// AddressSanitizer keeps freed memory in quarantine (256 MiB by default): resident memory grows
// there without any leak, so the memory bounds apply to other builds (LeakSanitizer covers leaks).
constexpr bool kResidentMemoryMeaningful = !kUnderAddressSanitizer;

long resident_kib() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * 4;  // 4 KiB pages
}

// `calls` calls of the mix on `ctx`: the fastest block of 500 calls in the first and last tenth
// must be close, and resident memory must not grow past a little noise.
void expect_flat(scatter_context ctx, int calls) {
    CallMix mix(ctx);
    for (int i = 0; i < 700; ++i) ASSERT_TRUE(mix.call(i)) << scatter_last_error_message();
    const long kib_before = resident_kib();
    auto block_us = [&](int first) {
        auto start = std::chrono::steady_clock::now();
        for (int i = first; i < first + 500; ++i) EXPECT_TRUE(mix.call(i));
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    };
    const int tenth = calls / 10;
    double early = 1e30, late = 1e30;
    for (int first = 0; first < tenth; first += 500) early = std::min(early, block_us(first));
    for (int first = tenth; first < calls - tenth; first += 500) block_us(first);
    for (int first = calls - tenth; first < calls; first += 500) late = std::min(late, block_us(first));
    // A leak only grows with the calls: while the late blocks look slow, time up to 20 more
    // (with pauses), so that a burst of load from a test beside this one passes and a leak stays.
    const double bound = early * 1.5 + 2000.0;
    for (int extra = 0; extra < 20 && late >= bound; ++extra) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        late = std::min(late, block_us(calls + 500 * extra));
    }
    EXPECT_LT(late, bound) << "early block " << early << " us, late block " << late << " us";
    if (kResidentMemoryMeaningful) {
        EXPECT_LT(resident_kib() - kib_before, 16 * 1024) << "resident memory grew by KiB";
    }
}

using LongRun = VulkanTest;

// 10 000 calls in make test; 100 000 in make test-long (vulkan.long_run_hundred_thousand_calls sets
// SCATTER_TEST_LONG_RUN_CALLS). Under AddressSanitizer the memory bound is off and every call is
// ~30x slower (10 000 calls took 6 minutes of CI there), so 3000 calls: the handle counts and the
// time per call still show a leak (CI time).
int long_run_calls() {
    if (const char* text = std::getenv("SCATTER_TEST_LONG_RUN_CALLS")) {
        const int calls = std::atoi(text);
        if (calls >= 5000) return calls;
        ADD_FAILURE() << "SCATTER_TEST_LONG_RUN_CALLS=" << text << " must be a number of at least 5000";
    }
    return kUnderAddressSanitizer ? 3000 : 10000;
}

TEST_F(LongRun, HundredThousandCallsOnTheCpuStayFlat) { expect_flat(cpu, long_run_calls()); }

TEST_F(LongRun, HundredThousandCallsOnVulkanStayFlat) { expect_flat(vulkan, long_run_calls()); }

TEST_F(LongRun, ThousandContextsLeaveNothingBehind) {
    for (scatter_backend backend : {SCATTER_BACKEND_CPU, SCATTER_BACKEND_VULKAN}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = backend;
        for (int i = 0; i < 20; ++i) create_and_destroy_us(desc);  // warm
        const int fds = count_entries("/proc/self/fd"), threads = count_entries("/proc/self/task");
        const long kib = resident_kib();
        for (int i = 0; i < 1000; ++i) create_and_destroy_us(desc);
        EXPECT_LE(count_entries("/proc/self/fd"), fds + 4) << scatter_backend_name(backend);
        EXPECT_LE(count_entries("/proc/self/task"), threads + 4) << scatter_backend_name(backend);
        if (kResidentMemoryMeaningful) {
            EXPECT_LT(resident_kib() - kib, 16 * 1024) << scatter_backend_name(backend) << ": resident KiB grew";
        }
    }
}

}  // namespace
}  // namespace vulkan_test
