// Devices, buffers, errors (status, message and untouched destination), concurrency and a
// tensor larger than one storage-buffer binding, on a Vulkan context.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
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

// One buffer of 2 GiB + 1 MiB as a pool (issue 15): on lavapipe, whose largest allocation and
// one heap are 2 GiB, two VkBuffers (vk_memory.h). Tensors placed past byte 2^31 and straddling
// it take in-place rows add, elements max and nd none bitwise equal to a host loop, read back
// only where they lie. A tensor spanning more than the binding windows address is refused with
// UNSUPPORTED, the buffer unchanged (shaders address a tensor in 32-bit positions from the
// start of its own span).
TEST_F(Basics, TensorsPlacedPastTwoGiBInOneBuffer) {
    const uint64_t two_gib = uint64_t(1) << 31;
    const uint64_t size = two_gib + (uint64_t(1) << 20);
    scatter_buffer pool = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, size, &pool), SCATTER_OK) << scatter_last_error_message();
    const uint64_t data_at = size - (uint64_t(1) << 20);
    const int64_t rows = 1024, inner = 1024;  // u8 [1024, 1024]: the last MiB of the pool
    std::vector<uint8_t> image(size_t(rows * inner));
    for (size_t e = 0; e < image.size(); ++e) image[e] = uint8_t(e * 13 + (e >> 10));
    ASSERT_EQ(scatter_buffer_write(pool, data_at, image.data(), image.size()), SCATTER_OK);

    // rows add in place, i64 indices: the last row twice and a middle one.
    int64_t index_values[3] = {rows - 1, 5, -1};
    std::vector<uint8_t> updates(size_t(3 * inner));
    for (size_t e = 0; e < updates.size(); ++e) updates[e] = uint8_t(e * 7 + 3);
    int64_t data_shape[2] = {rows, inner}, index_shape[1] = {3}, update_shape[2] = {3, inner};
    scatter_tensor data = SCATTER_TENSOR_INIT, indices = SCATTER_TENSOR_INIT, upd = SCATTER_TENSOR_INIT;
    data.dtype = SCATTER_DTYPE_U8;
    data.rank = 2;
    data.shape = data_shape;
    data.buffer = pool;
    data.byte_offset = data_at;
    indices.dtype = SCATTER_DTYPE_I64;
    indices.rank = 1;
    indices.shape = index_shape;
    indices.data = index_values;
    upd.dtype = SCATTER_DTYPE_U8;
    upd.rank = 2;
    upd.shape = update_shape;
    upd.data = updates.data();
    scatter_options add = SCATTER_OPTIONS_INIT;
    add.reduction = SCATTER_REDUCTION_ADD;
    ASSERT_EQ(scatter_rows(vulkan, &data, &indices, &upd, &add, &data), SCATTER_OK) << scatter_last_error_message();
    std::vector<uint8_t> want = image;
    for (int s = 0; s < 3; ++s) {
        const int64_t row = index_values[s] < 0 ? index_values[s] + rows : index_values[s];
        for (int64_t c = 0; c < inner; ++c)
            want[size_t(row * inner + c)] = uint8_t(want[size_t(row * inner + c)] + updates[size_t(s * inner + c)]);
    }
    std::vector<uint8_t> got(want.size());
    ASSERT_EQ(scatter_buffer_read(pool, data_at, got.data(), got.size()), SCATTER_OK);
    EXPECT_TRUE(got == want) << "rows add past 2 GiB differs";

    // elements max in place on an i32 vector of 256 Ki elements straddling byte 2^31.
    const int64_t count = 256 * 1024;
    const uint64_t straddle = two_gib - uint64_t(count / 2) * 4;
    std::vector<int32_t> values(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) values[size_t(e)] = int32_t((e * 2654435761u) % 100000) - 50000;
    ASSERT_EQ(scatter_buffer_write(pool, straddle, values.data(), values.size() * 4), SCATTER_OK);
    std::vector<int32_t> targets(4096), maxima(4096);
    std::mt19937 random(7);
    for (size_t k = 0; k < targets.size(); ++k) {
        // Half on each side of byte 2^31, some targets hit more than once.
        targets[k] = int32_t(k % 2 == 0 ? random() % uint32_t(count / 2) : count / 2 + random() % uint32_t(count / 2));
        maxima[k] = int32_t(random() % 200000) - 100000;
    }
    int64_t vector_shape[1] = {count}, list_shape[1] = {int64_t(targets.size())};
    scatter_tensor vec = SCATTER_TENSOR_INIT, list = SCATTER_TENSOR_INIT, news = SCATTER_TENSOR_INIT;
    vec.dtype = SCATTER_DTYPE_I32;
    vec.rank = 1;
    vec.shape = vector_shape;
    vec.buffer = pool;
    vec.byte_offset = straddle;
    list.dtype = SCATTER_DTYPE_I32;
    list.rank = 1;
    list.shape = list_shape;
    list.data = targets.data();
    news = list;
    news.data = maxima.data();
    scatter_options max = SCATTER_OPTIONS_INIT;
    max.reduction = SCATTER_REDUCTION_MAX;
    ASSERT_EQ(scatter_elements(vulkan, &vec, &list, &news, &max, &vec), SCATTER_OK) << scatter_last_error_message();
    std::vector<int32_t> want_values = values;
    for (size_t k = 0; k < targets.size(); ++k)
        want_values[size_t(targets[k])] = std::max(want_values[size_t(targets[k])], maxima[k]);
    std::vector<int32_t> got_values(values.size());
    ASSERT_EQ(scatter_buffer_read(pool, straddle, got_values.data(), got_values.size() * 4), SCATTER_OK);
    EXPECT_TRUE(got_values == want_values) << "elements max across byte 2^31 differs";

    // nd none in place on a u16 [256, 256, 4] straddling byte 2^31 (k = 2), repeated targets
    // taking their last update.
    const uint64_t nd_at = two_gib - 192 * 1024;
    std::vector<uint16_t> grid(256 * 256 * 4);
    for (size_t e = 0; e < grid.size(); ++e) grid[e] = uint16_t(e * 40503u);
    ASSERT_EQ(scatter_buffer_write(pool, nd_at, grid.data(), grid.size() * 2), SCATTER_OK);
    std::vector<int32_t> pairs(2 * 3000);
    for (auto& p : pairs) p = int32_t(random() % 256);
    std::vector<uint16_t> cells(3000 * 4);
    for (auto& c : cells) c = uint16_t(random());
    int64_t grid_shape[3] = {256, 256, 4}, pair_shape[2] = {3000, 2}, cell_shape[2] = {3000, 4};
    scatter_tensor g = SCATTER_TENSOR_INIT, where = SCATTER_TENSOR_INIT, what = SCATTER_TENSOR_INIT;
    g.dtype = SCATTER_DTYPE_U16;
    g.rank = 3;
    g.shape = grid_shape;
    g.buffer = pool;
    g.byte_offset = nd_at;
    where.dtype = SCATTER_DTYPE_I32;
    where.rank = 2;
    where.shape = pair_shape;
    where.data = pairs.data();
    what.dtype = SCATTER_DTYPE_U16;
    what.rank = 2;
    what.shape = cell_shape;
    what.data = cells.data();
    scatter_options none = SCATTER_OPTIONS_INIT;
    ASSERT_EQ(scatter_nd(vulkan, &g, &where, &what, &none, &g), SCATTER_OK) << scatter_last_error_message();
    std::vector<uint16_t> want_grid = grid;
    for (size_t s = 0; s < 3000; ++s)
        for (size_t c = 0; c < 4; ++c)
            want_grid[(size_t(pairs[2 * s]) * 256 + size_t(pairs[2 * s + 1])) * 4 + c] = cells[s * 4 + c];
    std::vector<uint16_t> got_grid(grid.size());
    ASSERT_EQ(scatter_buffer_read(pool, nd_at, got_grid.data(), got_grid.size() * 2), SCATTER_OK);
    EXPECT_TRUE(got_grid == want_grid) << "nd none across byte 2^31 differs";

    // The whole pool as one u8 tensor: refused, nothing written.
    int64_t whole_shape[1] = {int64_t(size)};
    scatter_tensor whole = SCATTER_TENSOR_INIT;
    whole.dtype = SCATTER_DTYPE_U8;
    whole.rank = 1;
    whole.shape = whole_shape;
    whole.buffer = pool;
    int64_t one_shape[1] = {1};
    int64_t last[1] = {int64_t(size) - 1};
    uint8_t one[1] = {1};
    scatter_tensor at = SCATTER_TENSOR_INIT, value = SCATTER_TENSOR_INIT;
    at.dtype = SCATTER_DTYPE_I64;
    at.rank = 1;
    at.shape = one_shape;
    at.data = last;
    value.dtype = SCATTER_DTYPE_U8;
    value.rank = 1;
    value.shape = one_shape;
    value.data = one;
    EXPECT_EQ(scatter_elements(vulkan, &whole, &at, &value, &add, &whole), SCATTER_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(scatter_last_error_message()).find("Vulkan"), std::string::npos) << scatter_last_error_message();
    uint8_t tail = 0;
    ASSERT_EQ(scatter_buffer_read(pool, size - 1, &tail, 1), SCATTER_OK);
    EXPECT_EQ(tail, want.back());
    scatter_buffer_destroy(pool);
}

// The device's storage-buffer window: the largest power of two within maxStorageBufferRange, at
// most the cap (512 MiB, or SCATTER_VULKAN_TEST_WINDOW_BYTES; src/vulkan/vk_switches.h).
uint64_t window_bytes() {
    uint32_t count = 0;
    EXPECT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
    std::vector<scatter_device_info> infos(count);
    for (auto& i : infos) i.struct_size = sizeof i;
    EXPECT_EQ(scatter_devices(infos.data(), &count), SCATTER_OK);
    const char* cap_text = std::getenv("SCATTER_VULKAN_TEST_WINDOW_BYTES");
    const uint64_t cap = cap_text != nullptr ? std::strtoull(cap_text, nullptr, 10) : uint64_t(1) << 29;
    for (const auto& i : infos) {
        if (i.backend != SCATTER_BACKEND_VULKAN) continue;
        uint64_t w = 1;
        while (w <= uint64_t(i.max_buffer_range) / 2) w *= 2;
        return std::min(w, cap);
    }
    return 0;
}

// An f32 table [rows, 1024] of exactly `windows` windows, in one buffer from its start (4: the
// largest tensor a binding's windows hold; more: reached by buffer device address): in-place
// rows add of `updates` updates (a quarter in the last half, every 64th on the last row), then the table as
// a vector read backwards (byte_offset at its last element, stride -1) taking `none` at both ends
// and across its middle, each equal to a host loop; rows around the middle stay untouched.
void table_of_windows(scatter_context vulkan, uint64_t window, uint64_t windows, size_t update_count = 4096) {
    const int64_t inner = 1024, rows = int64_t(windows * window / (4 * uint64_t(inner)));
    const uint64_t bytes = uint64_t(rows * inner) * 4;
    scatter_buffer table = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, bytes, &table), SCATTER_OK) << scatter_last_error_message();
    auto read_row = [&](int64_t r) {
        std::vector<float> v(static_cast<size_t>(inner));
        EXPECT_EQ(scatter_buffer_read(table, uint64_t(r * inner) * 4, v.data(), v.size() * 4), SCATTER_OK);
        return v;
    };
    std::mt19937 random(15);
    std::vector<int64_t> targets(update_count);
    for (size_t k = 0; k < targets.size(); ++k)
        targets[k] = k % 64 == 0 ? rows - 1 : int64_t(random() % uint32_t(rows));
    std::vector<float> updates(targets.size() * size_t(inner));
    for (auto& u : updates) u = float(int(random() % 1001) - 500);
    const int64_t data_shape[2] = {rows, inner}, index_shape[1] = {int64_t(targets.size())},
                  update_shape[2] = {int64_t(targets.size()), inner};
    scatter_tensor data = SCATTER_TENSOR_INIT, indices = SCATTER_TENSOR_INIT, upd = SCATTER_TENSOR_INIT;
    data.dtype = SCATTER_DTYPE_F32;
    data.rank = 2;
    data.shape = data_shape;
    data.buffer = table;
    indices.dtype = SCATTER_DTYPE_I64;
    indices.rank = 1;
    indices.shape = index_shape;
    indices.data = targets.data();
    upd.dtype = SCATTER_DTYPE_F32;
    upd.rank = 2;
    upd.shape = update_shape;
    upd.data = updates.data();
    scatter_options add = SCATTER_OPTIONS_INIT;
    add.reduction = SCATTER_REDUCTION_ADD;
    ASSERT_EQ(scatter_rows(vulkan, &data, &indices, &upd, &add, &data), SCATTER_OK) << scatter_last_error_message();
    std::map<int64_t, std::vector<float>> want;
    for (size_t k = 0; k < targets.size(); ++k) {
        std::vector<float>& row = want.emplace(targets[k], std::vector<float>(size_t(inner), 0.0f)).first->second;
        for (int64_t c = 0; c < inner; ++c) row[size_t(c)] += updates[k * size_t(inner) + size_t(c)];
    }
    for (const auto& [r, row] : want) ASSERT_TRUE(read_row(r) == row) << "rows add, row " << r;
    for (int64_t r = rows / 2 - 3; r < rows / 2 + 3; ++r) {
        if (want.count(r) != 0) continue;
        EXPECT_TRUE(read_row(r) == std::vector<float>(static_cast<size_t>(inner), 0.0f)) << "row " << r;
    }

    const int64_t count = rows * inner, reversed[1] = {-1}, vector_shape[1] = {count};
    std::vector<int64_t> places = {0, 1, count / 2 - 1, count / 2, count / 2 + 1, count - 2, count - 1};
    std::vector<float> values(places.size());
    for (size_t k = 0; k < values.size(); ++k) values[k] = 1000.0f + float(k);
    const int64_t place_shape[1] = {int64_t(places.size())};
    scatter_tensor vec = SCATTER_TENSOR_INIT, where = SCATTER_TENSOR_INIT, what = SCATTER_TENSOR_INIT;
    vec.dtype = SCATTER_DTYPE_F32;
    vec.rank = 1;
    vec.shape = vector_shape;
    vec.strides = reversed;
    vec.buffer = table;
    vec.byte_offset = bytes - 4;
    where.dtype = SCATTER_DTYPE_I64;
    where.rank = 1;
    where.shape = place_shape;
    where.data = places.data();
    what.dtype = SCATTER_DTYPE_F32;
    what.rank = 1;
    what.shape = place_shape;
    what.data = values.data();
    scatter_options none = SCATTER_OPTIONS_INIT;
    ASSERT_EQ(scatter_elements(vulkan, &vec, &where, &what, &none, &vec), SCATTER_OK) << scatter_last_error_message();
    for (size_t k = 0; k < places.size(); ++k) {
        float got = 0;
        ASSERT_EQ(scatter_buffer_read(table, bytes - 4 - uint64_t(places[k]) * 4, &got, 4), SCATTER_OK);
        EXPECT_EQ(got, values[k]) << "reversed vector, position " << places[k];
    }
    scatter_buffer_destroy(table);
}

// 9 s on lavapipe; not under ASan, where lavapipe's passes over a table this large took minutes
// (Basics.TensorLargerThanOneBindingRange): its host code is the same as the smaller tests'.
TEST_F(Basics, TableOfFourWindowsFromItsStart) {
    if (kUnderAddressSanitizer) GTEST_SKIP() << "a 512 MiB table on lavapipe: Release builds only";
    table_of_windows(vulkan, window_bytes(), 4);
}

// The same table one window larger (640 MiB on lavapipe): beyond what 4 windows hold, so the
// calls reach it by buffer device address (the `_ad` modules). 4 s on lavapipe.
TEST_F(Basics, TableBeyondFourWindowsByAddress) {
    if (kUnderAddressSanitizer) GTEST_SKIP() << "a 640 MiB table on lavapipe: Release builds only";
    table_of_windows(vulkan, window_bytes(), 5);
}

// Issue 15 on a GPU: a 4 GiB table [2^20, 1024] by buffer device address at the device's own
// windows (8 of 512 MiB on an H100), in one allocation. Disabled: lavapipe's largest allocation
// is 2 GiB, so the table would lie in two chunks, which no one address reaches.
// benchmarks/gpu_session.sh large runs it.
TEST_F(Basics, DISABLED_FourGiBTableByAddress) {
    table_of_windows(vulkan, window_bytes(), (uint64_t(4) << 30) / window_bytes());
}

// Windows of 4 KiB (SCATTER_VULKAN_TEST_WINDOW_BYTES, read when a context is created), so that
// 4 of them hold 16 KiB: small tensors take the path of tensors larger than the device's windows.
class SmallWindows : public VulkanTest {
protected:
    void SetUp() override {
        setenv("SCATTER_VULKAN_TEST_WINDOW_BYTES", "4096", 1);
        VulkanTest::SetUp();
    }
    void TearDown() override {
        VulkanTest::TearDown();
        unsetenv("SCATTER_VULKAN_TEST_WINDOW_BYTES");
        unsetenv("SCATTER_VULKAN_DISABLE_FEATURES");
    }
};

// A 256 KiB table, 64 windows of 4 KiB: by address, under ASan too. 512 updates: scratch stays
// within its 4 windows (16 KiB), so the call keeps the target path's key sort.
TEST_F(SmallWindows, TableOfSixtyFourWindowsByAddress) {
    ASSERT_EQ(window_bytes(), 4096u);
    table_of_windows(vulkan, 4096, 64, 512);
}

// Without buffer device addresses (the switch hides the feature), a tensor beyond 4 windows is
// refused with UNSUPPORTED naming the missing feature, and nothing is written.
class SmallWindowsWithoutAddresses : public SmallWindows {
protected:
    void SetUp() override {
        setenv("SCATTER_VULKAN_DISABLE_FEATURES", "buffer_device_address", 1);
        SmallWindows::SetUp();
    }
};

TEST_F(SmallWindowsWithoutAddresses, TableBeyondFourWindowsIsRefusedUntouched) {
    const int64_t rows = 8, inner = 1024;  // 32 KiB: 8 windows of 4 KiB
    std::vector<float> before(size_t(rows * inner));
    for (size_t e = 0; e < before.size(); ++e) before[e] = float(e % 977);
    scatter_buffer table = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, before.size() * 4, &table), SCATTER_OK) << scatter_last_error_message();
    ASSERT_EQ(scatter_buffer_write(table, 0, before.data(), before.size() * 4), SCATTER_OK);
    int64_t targets[2] = {0, rows - 1};
    std::vector<float> updates(size_t(2 * inner), 1.0f);
    const int64_t data_shape[2] = {rows, inner}, index_shape[1] = {2}, update_shape[2] = {2, inner};
    scatter_tensor data = SCATTER_TENSOR_INIT, indices = SCATTER_TENSOR_INIT, upd = SCATTER_TENSOR_INIT;
    data.dtype = SCATTER_DTYPE_F32;
    data.rank = 2;
    data.shape = data_shape;
    data.buffer = table;
    indices.dtype = SCATTER_DTYPE_I64;
    indices.rank = 1;
    indices.shape = index_shape;
    indices.data = targets;
    upd.dtype = SCATTER_DTYPE_F32;
    upd.rank = 2;
    upd.shape = update_shape;
    upd.data = updates.data();
    scatter_options add = SCATTER_OPTIONS_INIT;
    add.reduction = SCATTER_REDUCTION_ADD;
    EXPECT_EQ(scatter_rows(vulkan, &data, &indices, &upd, &add, &data), SCATTER_ERROR_UNSUPPORTED);
    const std::string message = scatter_last_error_message();
    EXPECT_NE(message.find("bufferDeviceAddress"), std::string::npos) << message;
    EXPECT_NE(message.find("16384 bytes"), std::string::npos) << message;
    std::vector<float> after(before.size());
    ASSERT_EQ(scatter_buffer_read(table, 0, after.data(), after.size() * 4), SCATTER_OK);
    EXPECT_TRUE(after == before);
    // Within 4 windows the same call works: the first 4 rows.
    const int64_t small_shape[2] = {4, inner};
    data.shape = small_shape;
    targets[1] = 3;
    ASSERT_EQ(scatter_rows(vulkan, &data, &indices, &upd, &add, &data), SCATTER_OK) << scatter_last_error_message();
    ASSERT_EQ(scatter_buffer_read(table, 0, after.data(), after.size() * 4), SCATTER_OK);
    for (int64_t c = 0; c < inner; ++c) {
        EXPECT_EQ(after[size_t(c)], before[size_t(c)] + 1.0f);
        EXPECT_EQ(after[size_t(3 * inner + c)], before[size_t(3 * inner + c)] + 1.0f);
    }
    scatter_buffer_destroy(table);
}

// Issue 15 on a GPU: the same at 1 GiB windows, a 4 GiB table [2^20, 1024] whose byte addresses
// pass 2^31 in the shaders (right modulo 2^32 by construction; not yet seen on a device).
// Disabled: lavapipe's 128 MiB maxStorageBufferRange cannot bind 1 GiB windows.
// benchmarks/gpu_session.sh runs it on a GPU with SCATTER_VULKAN_TEST_WINDOW_BYTES=1073741824;
// once it passes there, the default window cap can rise to 1 GiB (src/vulkan/vk_switches.h).
TEST_F(Basics, DISABLED_FourGiBTableWithGiBWindows) {
    ASSERT_EQ(window_bytes(), uint64_t(1) << 30)
        << "needs maxStorageBufferRange >= 1 GiB and SCATTER_VULKAN_TEST_WINDOW_BYTES=1073741824";
    table_of_windows(vulkan, window_bytes(), 4);
}

}  // namespace
}  // namespace vulkan_test
