// Devices, buffers, errors (status, message and untouched destination), concurrency and a
// tensor larger than one storage-buffer binding, on a Vulkan context.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <thread>
#include <utility>
#include <vector>

namespace vulkan_test {
namespace {

using Basics = VulkanTest;

TEST_F(Basics, ListsVulkanDevicesWithFeatures) {
    uint32_t count = 0;
    ASSERT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
    std::vector<scatter_device_info> infos(count);
    for (auto& i : infos) i.struct_size = sizeof i;
    ASSERT_EQ(scatter_devices(infos.data(), &count), SCATTER_OK);
    int vulkan_devices = 0;
    for (const auto& i : infos) {
        if (i.backend != SCATTER_BACKEND_VULKAN) continue;
        ++vulkan_devices;
        EXPECT_GE(i.api_version, (1u << 22) | (1u << 12));  // Vulkan 1.1
        EXPECT_GT(i.max_buffer_range, 0u);
        EXPECT_NE(i.name[0], '\0');
    }
    EXPECT_GE(vulkan_devices, 1);
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    ASSERT_EQ(scatter_context_backend(vulkan, &backend), SCATTER_OK);
    EXPECT_EQ(backend, SCATTER_BACKEND_VULKAN);
}

TEST_F(Basics, BuffersStartZeroedAndRoundTrip) {
    scatter_buffer b = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, 1000, &b), SCATTER_OK);
    std::vector<uint8_t> bytes(1000, 0xFF);
    ASSERT_EQ(scatter_buffer_read(b, 0, bytes.data(), bytes.size()), SCATTER_OK);
    EXPECT_EQ(bytes, std::vector<uint8_t>(1000, 0));
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7);
    ASSERT_EQ(scatter_buffer_write(b, 0, bytes.data(), bytes.size()), SCATTER_OK);
    std::vector<uint8_t> back(13);
    ASSERT_EQ(scatter_buffer_read(b, 501, back.data(), back.size()), SCATTER_OK);
    EXPECT_EQ(0, std::memcmp(back.data(), bytes.data() + 501, back.size()));
    scatter_buffer empty = nullptr;
    EXPECT_EQ(scatter_buffer_create(vulkan, 0, &empty), SCATTER_OK);
    scatter_buffer_destroy(empty);
    scatter_buffer_destroy(b);
}

// A case whose index or divisor is bad: both backends fail the same way and write nothing.
void expect_same_failure(scatter_context cpu, scatter_context vulkan, Case c, scatter_status expected) {
    Result want = run_case(cpu, c, Layout::Host);
    ASSERT_EQ(want.status, expected) << want.message;
    for (Layout layout : {Layout::Host, Layout::HostStrided, Layout::Buffer}) {
        Result got = run_case(vulkan, c, layout);
        EXPECT_EQ(got.status, expected);
        EXPECT_EQ(got.message, want.message);
        EXPECT_EQ(got.out, c.data) << "out changed although the call failed";
        EXPECT_TRUE(got.canary.empty()) << got.canary;
    }
}

// Every path: winner (none), sort (f32 add), atomic (i32 add, f16 and f32 max with the
// first-NaN table).
TEST_F(Basics, IndexOutOfRangeIsFoundOnTheGpuBeforeAnyWrite) {
    std::mt19937_64 rng(7);
    const std::pair<scatter_dtype, scatter_reduction> paths[] = {
        {SCATTER_DTYPE_F32, SCATTER_REDUCTION_NONE}, {SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD},
        {SCATTER_DTYPE_I32, SCATTER_REDUCTION_ADD}, {SCATTER_DTYPE_F16, SCATTER_REDUCTION_MAX},
        {SCATTER_DTYPE_F32, SCATTER_REDUCTION_MIN}};
    for (const auto& path : paths) {
        for (Op op : {Op::elements, Op::rows, Op::nd}) {
            for (bool i64 : {false, true}) {
                Case c = random_case(rng, op, path.first, path.second);
                c.options.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
                c.index_i64 = i64;
                // Rewrite the indices as all zeros but one huge value in the middle.
                size_t n = size_t(element_count(c.index_shape));
                std::vector<uint8_t> fresh(n * (i64 ? 8 : 4), 0);
                int64_t bad = i64 ? int64_t(1) << 40 : 1000;
                std::memcpy(&fresh[(n / 2) * (i64 ? 8 : 4)], &bad, i64 ? 8 : 4);
                c.indices = fresh;
                SCOPED_TRACE(c.describe());
                expect_same_failure(cpu, vulkan, c, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
            }
        }
    }
}

TEST_F(Basics, IntegerDivisionByZeroIsFoundBeforeAnyWrite) {
    std::mt19937_64 rng(11);
    for (Op op : {Op::elements, Op::rows, Op::nd}) {
        Case c = random_case(rng, op, SCATTER_DTYPE_I16, SCATTER_REDUCTION_DIV);
        c.options.out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;  // every update applies
        std::memset(&c.updates[(c.updates.size() / 2) & ~size_t(1)], 0, 2);
        SCOPED_TRACE(c.describe());
        expect_same_failure(cpu, vulkan, c, SCATTER_ERROR_INVALID_ARGUMENT);
    }
}

// SCATTER_OPTION_ALLOW_NONDETERMINISM skips the sort: order-independent reductions stay exact,
// float sums may differ from the CPU in rounding only.
TEST_F(Basics, AllowedNondeterminismKeepsOrderIndependentResultsExact) {
    std::mt19937_64 rng(31);
    const size_t n = 5000, targets = 7;
    for (scatter_dtype dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_F32}) {
        Case c;
        c.op = Op::elements;
        c.dtype = dtype;
        c.data_shape = {int64_t(targets)};
        c.index_shape = c.update_shape = {int64_t(n)};
        c.data.assign(targets * 4, 0);
        c.updates.resize(n * 4);
        c.indices.resize(n * 4);
        for (size_t e = 0; e < n; ++e) {
            int32_t i = int32_t(rng() % targets), vi = int32_t(rng() % 2001) - 1000;
            float vf = float(vi) * 1e-3f;
            std::memcpy(&c.indices[e * 4], &i, 4);
            if (dtype == SCATTER_DTYPE_I32) std::memcpy(&c.updates[e * 4], &vi, 4);
            else std::memcpy(&c.updates[e * 4], &vf, 4);
        }
        for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MEAN}) {
            c.options.reduction = r;
            c.options.flags = 0;
            Result want = run_case(cpu, c, Layout::Host);
            c.options.flags = SCATTER_OPTION_ALLOW_NONDETERMINISM;
            Result got = run_case(vulkan, c, Layout::Buffer);
            ASSERT_EQ(got.status, SCATTER_OK) << got.message;
            if (dtype == SCATTER_DTYPE_I32 || r == SCATTER_REDUCTION_MAX) {
                EXPECT_EQ(got.out, want.out) << scatter_dtype_name(dtype) << " " << scatter_reduction_name(r);
                continue;
            }
            for (size_t t = 0; t < targets; ++t) {
                float a, b;
                std::memcpy(&a, &got.out[t * 4], 4);
                std::memcpy(&b, &want.out[t * 4], 4);
                EXPECT_NEAR(a, b, 1e-3f) << scatter_reduction_name(r) << " target " << t;
            }
        }
    }
}

TEST_F(Basics, DuplicatesResolveInRowMajorOrder) {
    // 1000 updates into 3 slots: float add is order-dependent, so only the sequential order
    // reproduces the CPU bits.
    std::mt19937_64 rng(3);
    Case c;
    c.op = Op::elements;
    c.dtype = SCATTER_DTYPE_F32;
    c.data_shape = {3};
    c.index_shape = c.update_shape = {1000};
    random_values(rng, SCATTER_DTYPE_F32, 4, 3, false, &c.data);
    c.updates.resize(4000);
    for (size_t e = 0; e < 1000; ++e) {
        float v = float(rng() % 100000) * 1e-3f;
        std::memcpy(&c.updates[e * 4], &v, 4);
    }
    c.indices.resize(4000);
    for (size_t e = 0; e < 1000; ++e) {
        int32_t v = int32_t(rng() % 3);
        std::memcpy(&c.indices[e * 4], &v, 4);
    }
    for (scatter_reduction r : {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MEAN}) {
        c.options.reduction = r;
        Result want = run_case(cpu, c, Layout::Host);
        for (int run = 0; run < 2; ++run) EXPECT_EQ(run_case(vulkan, c, Layout::Buffer).out, want.out);
    }
}

TEST_F(Basics, OneContextFromSeveralThreads) {
    std::vector<Case> cases;
    std::vector<Result> expected;
    std::mt19937_64 rng(5);
    // Every path at once: `none` (winner), f32 add (sort), i32 add (atomic), i64 max (64-bit CAS).
    const scatter_dtype dtypes[4] = {SCATTER_DTYPE_F32, SCATTER_DTYPE_F32, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64};
    const scatter_reduction reductions[4] = {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_ADD,
                                             SCATTER_REDUCTION_MAX};
    for (int i = 0; i < 8; ++i) {
        cases.push_back(random_case(rng, Op(i % 3), dtypes[i % 4], reductions[i % 4]));
        expected.push_back(run_reference(cases.back()));
    }
    std::vector<std::thread> threads;
    std::atomic<int> mismatches{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round)
                for (size_t i = size_t(t); i < cases.size(); i += 2) {
                    Result got = run_case(vulkan, cases[i], round % 2 ? Layout::Buffer : Layout::Host);
                    if (got.out != expected[i].out || got.status != expected[i].status) mismatches.fetch_add(1);
                }
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(Basics, TensorLargerThanOneBindingRange) {
    // 40M elements of 4 bytes = 160 MiB: more than lavapipe's 128 MiB maxStorageBufferRange, in
    // rows of 4096; the last update row lies past the first window. i32 add takes the atomic path
    // (one invocation per update element), f32 add the target path (one per out element: 40M
    // lavapipe invocations, 20 s, and 15 minutes under ASan, so not there: the host code that
    // binds the windows is the same).
    const int64_t n = 40 * 1024 * 1024, inner = 4096, rows = n / inner;
    for (scatter_dtype dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_F32}) {
        if (dtype == SCATTER_DTYPE_F32 && kUnderAddressSanitizer) continue;
        Case c;
        c.op = Op::rows;
        c.dtype = dtype;
        c.data_shape = {rows, inner};
        c.index_shape = {4};
        c.update_shape = {4, inner};
        c.data.assign(size_t(n) * 4, 0);
        for (int64_t e = 0; e < n; e += 4093) {
            const float f = float(e);
            const int32_t i = int32_t(e);
            std::memcpy(&c.data[size_t(e) * 4], dtype == SCATTER_DTYPE_F32 ? static_cast<const void*>(&f) : &i, 4);
        }
        const int32_t idx[4] = {0, int32_t(rows / 2), int32_t(rows - 1), -1};
        c.indices.resize(16);
        std::memcpy(c.indices.data(), idx, 16);
        c.updates.resize(size_t(4 * inner) * 4);
        for (int64_t e = 0; e < 4 * inner; ++e) {
            const float f = 0.5f + float(e % 97);
            const int32_t i = int32_t(e % 97) - 40;
            std::memcpy(&c.updates[size_t(e) * 4], dtype == SCATTER_DTYPE_F32 ? static_cast<const void*>(&f) : &i, 4);
        }
        c.options.reduction = SCATTER_REDUCTION_ADD;
        c.in_place = true;  // no copy pass: the test is about addressing past the first window
        Result want = run_case(cpu, c, Layout::Host);
        ASSERT_EQ(want.status, SCATTER_OK);
        // Buffers only: the host layout's staging adds no windowing of its own (CI time).
        Result got = run_case(vulkan, c, Layout::Buffer);
        ASSERT_EQ(got.status, SCATTER_OK) << got.message;
        EXPECT_TRUE(got.out == want.out) << "large tensor differs, dtype " << dtype;
        EXPECT_TRUE(got.canary.empty()) << got.canary;
    }
}

}  // namespace
}  // namespace vulkan_test
