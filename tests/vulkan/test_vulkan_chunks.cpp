// Scatter buffers built of several VkBuffers (chunks, src/vulkan/vk_memory.h). This suite runs
// with SCATTER_VULKAN_DISABLE_FEATURES=large_allocations, which makes every chunk one binding
// window (128 MiB on lavapipe) instead of the device's largest allocation (2 GiB there), so that
// buffers of a few hundred MiB have chunk boundaries to cross: reads, writes and copies across
// them, and tensors across them (whose windows then start at a multiple of the window, so each
// window lies in one chunk), each bitwise equal to the CPU. The unswitched run of a 2 GiB + 1 MiB
// buffer is vulkan.Basics.TensorsPlacedPastTwoGiBInOneBuffer.
#include "vulkan_env.h"

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace vulkan_test {
namespace {

using Chunks = VulkanTest;

// The window (and, under the switch, the chunk): the largest power of two within the device's
// maxStorageBufferRange, at most 512 MiB (vk_device.cpp).
uint64_t window_bytes() {
    uint32_t count = 0;
    EXPECT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
    std::vector<scatter_device_info> infos(count);
    for (auto& i : infos) i.struct_size = sizeof i;
    EXPECT_EQ(scatter_devices(infos.data(), &count), SCATTER_OK);
    for (const auto& i : infos) {
        if (i.backend != SCATTER_BACKEND_VULKAN) continue;
        uint64_t w = 1;
        while (w <= uint64_t(i.max_buffer_range) / 2) w *= 2;
        return std::min<uint64_t>(w, uint64_t(1) << 29);
    }
    return 0;
}

void expect_switch() {
    const char* hidden = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    ASSERT_TRUE(hidden != nullptr && std::string(hidden).find("large_allocations") != std::string::npos)
        << "run this suite with SCATTER_VULKAN_DISABLE_FEATURES=large_allocations (tests/vulkan/CMakeLists.txt)";
}

scatter_tensor tensor(scatter_dtype dtype, const std::vector<int64_t>& shape, scatter_buffer buffer, uint64_t at) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.rank = uint32_t(shape.size());
    t.shape = shape.data();
    t.buffer = buffer;
    t.byte_offset = at;
    return t;
}

scatter_tensor host(scatter_dtype dtype, const std::vector<int64_t>& shape, void* data) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.rank = uint32_t(shape.size());
    t.shape = shape.data();
    t.data = data;
    return t;
}

std::vector<uint8_t> pattern(size_t bytes, uint32_t seed) {
    std::vector<uint8_t> v(bytes);
    uint32_t x = seed * 2654435761u + 1;
    for (auto& b : v) {
        x = x * 1664525u + 1013904223u;
        b = uint8_t(x >> 24);
    }
    return v;
}

std::vector<uint8_t> read(scatter_buffer b, uint64_t at, size_t bytes) {
    std::vector<uint8_t> v(bytes);
    EXPECT_EQ(scatter_buffer_read(b, at, v.data(), bytes), SCATTER_OK) << scatter_last_error_message();
    return v;
}

TEST_F(Chunks, BuffersOfSeveralChunksStartZeroedAndRoundTrip) {
    expect_switch();
    const uint64_t w = window_bytes();
    const uint64_t size = 2 * w + 4096 + 3;  // three chunks, the last one odd
    scatter_buffer a = nullptr, b = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, size, &a), SCATTER_OK) << scatter_last_error_message();
    ASSERT_EQ(scatter_buffer_create(vulkan, size, &b), SCATTER_OK) << scatter_last_error_message();
    for (uint64_t at : {uint64_t(0), w - 8, 2 * w - 8, size - 16})
        EXPECT_EQ(read(a, at, 16), std::vector<uint8_t>(16, 0)) << "at " << at;

    // One write across both chunk boundaries, read back whole and in pieces that cross them.
    const uint64_t from = w - 4096, bytes = w + 8192 + 1;
    const std::vector<uint8_t> bytes_written = pattern(size_t(bytes), 1);
    ASSERT_EQ(scatter_buffer_write(a, from, bytes_written.data(), bytes), SCATTER_OK) << scatter_last_error_message();
    EXPECT_TRUE(read(a, from, size_t(bytes)) == bytes_written);
    for (uint64_t at : {w - 3, 2 * w - 1, w + 5}) {
        std::vector<uint8_t> want(bytes_written.begin() + ptrdiff_t(at - from), bytes_written.begin() + ptrdiff_t(at - from + 7));
        EXPECT_EQ(read(a, at, 7), want) << "at " << at;
    }
    EXPECT_EQ(read(a, from - 4, 4), std::vector<uint8_t>(4, 0));
    EXPECT_EQ(read(a, from + bytes, 2), std::vector<uint8_t>(2, 0));  // the buffer's last 2 bytes
    const std::vector<uint8_t> tail = pattern(4096 + 3, 2);
    ASSERT_EQ(scatter_buffer_write(a, size - tail.size(), tail.data(), tail.size()), SCATTER_OK);
    EXPECT_TRUE(read(a, size - tail.size(), tail.size()) == tail);

    // Copies whose source and destination cross chunk boundaries at different places.
    ASSERT_EQ(scatter_buffer_copy(a, w - 100, b, 2 * w - 50, 200), SCATTER_OK) << scatter_last_error_message();
    std::vector<uint8_t> want(bytes_written.begin() + ptrdiff_t(w - 100 - from), bytes_written.begin() + ptrdiff_t(w + 100 - from));
    EXPECT_TRUE(read(b, 2 * w - 50, 200) == want);
    EXPECT_EQ(read(b, 2 * w - 54, 4), std::vector<uint8_t>(4, 0));
    EXPECT_EQ(read(b, 2 * w + 150, 4), std::vector<uint8_t>(4, 0));
    ASSERT_EQ(scatter_buffer_copy(a, 0, b, 0, size), SCATTER_OK) << scatter_last_error_message();
    EXPECT_TRUE(read(b, 0, size_t(size)) == read(a, 0, size_t(size)));
    scatter_buffer_destroy(a);
    scatter_buffer_destroy(b);
}

// Each case runs on the Vulkan buffer at `at` and on a host copy on the CPU context; the touched
// region must match bitwise and nothing around it may change.
class Region {
public:
    Region(scatter_buffer buffer, uint64_t at, size_t bytes, uint32_t seed)
        : buffer_(buffer), at_(at), before_(pattern(bytes + 2 * kGuard, seed)) {
        EXPECT_EQ(scatter_buffer_write(buffer, at - kGuard, before_.data(), before_.size()), SCATTER_OK);
        host_.assign(before_.begin() + kGuard, before_.end() - kGuard);
    }
    uint8_t* host() { return host_.data(); }
    // The buffer's bytes against the host's result, the guards around them unchanged.
    void expect_equal(const char* what) const {
        std::vector<uint8_t> got = read(buffer_, at_ - kGuard, before_.size());
        EXPECT_TRUE(std::equal(got.begin(), got.begin() + kGuard, before_.begin())) << what << ": bytes before changed";
        EXPECT_TRUE(std::equal(got.end() - kGuard, got.end(), before_.end() - kGuard)) << what << ": bytes after changed";
        EXPECT_TRUE(std::equal(got.begin() + kGuard, got.end() - kGuard, host_.begin())) << what << " differs from the CPU";
    }
    static constexpr size_t kGuard = 256;

private:
    scatter_buffer buffer_;
    uint64_t at_;
    std::vector<uint8_t> before_, host_;
};

TEST_F(Chunks, TensorsAcrossChunkBoundariesMatchTheCpu) {
    expect_switch();
    const uint64_t w = window_bytes();
    const uint64_t size = 3 * w;
    scatter_buffer pool = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, size, &pool), SCATTER_OK) << scatter_last_error_message();
    std::mt19937 random(11);

    {  // rows add in place, f32 [512, 1024] across byte w, i64 indices with repeats and negatives
        const std::vector<int64_t> shape = {512, 1024};
        Region region(pool, w - 1024 * 1024 + 256, 512 * 1024 * 4, 3);
        std::vector<int64_t> idx(700);
        for (auto& i : idx) i = int64_t(random() % 1024) - 512;
        std::vector<float> upd(idx.size() * 1024);
        for (auto& u : upd) u = float(int(random() % 2001) - 1000) / 64.0f;
        const std::vector<int64_t> ishape = {int64_t(idx.size())}, ushape = {int64_t(idx.size()), 1024};
        scatter_tensor indices = host(SCATTER_DTYPE_I64, ishape, idx.data()), updates = host(SCATTER_DTYPE_F32, ushape, upd.data());
        scatter_options add = SCATTER_OPTIONS_INIT;
        add.reduction = SCATTER_REDUCTION_ADD;
        scatter_tensor data = tensor(SCATTER_DTYPE_F32, shape, pool, w - 1024 * 1024 + 256);
        ASSERT_EQ(scatter_rows(vulkan, &data, &indices, &updates, &add, &data), SCATTER_OK) << scatter_last_error_message();
        scatter_tensor cpu_data = host(SCATTER_DTYPE_F32, shape, region.host());
        ASSERT_EQ(scatter_rows(cpu, &cpu_data, &indices, &updates, &add, &cpu_data), SCATTER_OK);
        region.expect_equal("rows add across a chunk boundary");
    }
    {  // elements max, i32 [256, 512] read from a view reversed along axis 1, out across byte 2w
        const std::vector<int64_t> shape = {256, 512};
        const uint64_t data_at = w + 4096, out_at = 2 * w - 256 * 1024 + 64;
        Region data_region(pool, data_at, 256 * 512 * 4, 4);
        Region out_region(pool, out_at, 256 * 512 * 4, 5);
        std::vector<int32_t> idx(256 * 300), upd(idx.size());
        for (auto& i : idx) i = int32_t(random() % 512);
        for (auto& u : upd) u = int32_t(random());
        const std::vector<int64_t> ishape = {256, 300};
        const int64_t reversed[2] = {512, -1};
        scatter_tensor data = tensor(SCATTER_DTYPE_I32, shape, pool, data_at + 511 * 4);
        data.strides = reversed;
        scatter_tensor out = tensor(SCATTER_DTYPE_I32, shape, pool, out_at);
        scatter_tensor indices = host(SCATTER_DTYPE_I32, ishape, idx.data()), updates = host(SCATTER_DTYPE_I32, ishape, upd.data());
        scatter_options max = SCATTER_OPTIONS_INIT;
        max.reduction = SCATTER_REDUCTION_MAX;
        max.axis = 1;
        ASSERT_EQ(scatter_elements(vulkan, &data, &indices, &updates, &max, &out), SCATTER_OK) << scatter_last_error_message();
        scatter_tensor cpu_data = host(SCATTER_DTYPE_I32, shape, data_region.host() + 511 * 4);
        cpu_data.strides = reversed;
        scatter_tensor cpu_out = host(SCATTER_DTYPE_I32, shape, out_region.host());
        ASSERT_EQ(scatter_elements(cpu, &cpu_data, &indices, &updates, &max, &cpu_out), SCATTER_OK);
        data_region.expect_equal("elements max: data");
        out_region.expect_equal("elements max across a chunk boundary");
    }
    {  // nd none in place, f32 [128, 128, 16] across byte 2w, i32 index pairs with repeats
        const std::vector<int64_t> shape = {128, 128, 16};
        const uint64_t at = 2 * w - 300 * 1024;
        Region region(pool, at, 128 * 128 * 16 * 4, 6);
        std::vector<int32_t> idx(2 * 5000);
        for (auto& i : idx) i = int32_t(random() % 128);
        std::vector<float> upd(5000 * 16);
        for (auto& u : upd) u = float(random() % 100000) / 7.0f;
        const std::vector<int64_t> ishape = {5000, 2}, ushape = {5000, 16};
        scatter_tensor indices = host(SCATTER_DTYPE_I32, ishape, idx.data()), updates = host(SCATTER_DTYPE_F32, ushape, upd.data());
        scatter_options none = SCATTER_OPTIONS_INIT;
        scatter_tensor data = tensor(SCATTER_DTYPE_F32, shape, pool, at);
        ASSERT_EQ(scatter_nd(vulkan, &data, &indices, &updates, &none, &data), SCATTER_OK) << scatter_last_error_message();
        scatter_tensor cpu_data = host(SCATTER_DTYPE_F32, shape, region.host());
        ASSERT_EQ(scatter_nd(cpu, &cpu_data, &indices, &updates, &none, &cpu_data), SCATTER_OK);
        region.expect_equal("nd none across a chunk boundary");
    }
    {  // rows add in place, i32 [rows, 4096] over 1.25 windows from byte w / 2 (through two chunks)
        const int64_t rows = int64_t(w * 5 / 4 / 4 / 4096);
        const std::vector<int64_t> shape = {rows, 4096};
        int64_t idx[4] = {0, rows / 2, rows - 1, rows - 1};
        std::vector<int32_t> upd(4 * 4096);
        for (size_t e = 0; e < upd.size(); ++e) upd[e] = int32_t(e % 97) - 40;
        const std::vector<int64_t> ishape = {4}, ushape = {4, 4096};
        scatter_tensor indices = host(SCATTER_DTYPE_I64, ishape, idx), updates = host(SCATTER_DTYPE_I32, ushape, upd.data());
        scatter_options add = SCATTER_OPTIONS_INIT;
        add.reduction = SCATTER_REDUCTION_ADD;
        for (int64_t r : {int64_t(0), rows / 2, rows - 1}) {
            const std::vector<uint8_t> row = pattern(4096 * 4, uint32_t(r));
            ASSERT_EQ(scatter_buffer_write(pool, w / 2 + uint64_t(r) * 4096 * 4, row.data(), row.size()), SCATTER_OK);
        }
        std::vector<uint8_t> first = read(pool, w / 2, 4096 * 4), middle = read(pool, w / 2 + uint64_t(rows / 2) * 4096 * 4, 4096 * 4),
                             last = read(pool, w / 2 + uint64_t(rows - 1) * 4096 * 4, 4096 * 4);
        scatter_tensor data = tensor(SCATTER_DTYPE_I32, shape, pool, w / 2);
        ASSERT_EQ(scatter_rows(vulkan, &data, &indices, &updates, &add, &data), SCATTER_OK) << scatter_last_error_message();
        auto expect_row = [&](std::vector<uint8_t> row, int64_t r, std::initializer_list<int> slices) {
            for (int s : slices)
                for (int c = 0; c < 4096; ++c) {
                    int32_t v;
                    std::memcpy(&v, &row[size_t(c) * 4], 4);
                    v = int32_t(uint32_t(v) + uint32_t(upd[size_t(s) * 4096 + size_t(c)]));
                    std::memcpy(&row[size_t(c) * 4], &v, 4);
                }
            EXPECT_TRUE(read(pool, w / 2 + uint64_t(r) * 4096 * 4, 4096 * 4) == row) << "row " << r;
        };
        expect_row(first, 0, {0});
        expect_row(middle, rows / 2, {1});
        expect_row(last, rows - 1, {2, 3});
    }
    scatter_buffer_destroy(pool);
}

// Windows of a tensor that crosses chunks start at a multiple of the window: a tensor that four
// windows hold from an aligned start but not from the window before it is refused, unchanged.
TEST_F(Chunks, ATensorItsWindowsCannotHoldFromTheChunkGridIsRefused) {
    expect_switch();
    const uint64_t w = window_bytes();
    const uint64_t at = w - w / 4, span = 3 * w + w / 2;  // ends at 4w + w / 4
    scatter_buffer pool = nullptr;
    ASSERT_EQ(scatter_buffer_create(vulkan, at + span, &pool), SCATTER_OK) << scatter_last_error_message();
    const std::vector<int64_t> shape = {int64_t(span)}, one = {1};
    int64_t where[1] = {int64_t(span) - 1};
    uint8_t value[1] = {9};
    scatter_tensor data = tensor(SCATTER_DTYPE_U8, shape, pool, at);
    scatter_tensor indices = host(SCATTER_DTYPE_I64, one, where), updates = host(SCATTER_DTYPE_U8, one, value);
    scatter_options none = SCATTER_OPTIONS_INIT;
    EXPECT_EQ(scatter_elements(vulkan, &data, &indices, &updates, &none, &data), SCATTER_ERROR_UNSUPPORTED);
    const std::string message = scatter_last_error_message();
    EXPECT_NE(message.find("first window"), std::string::npos) << message;
    EXPECT_EQ(read(pool, at + span - 4, 4), std::vector<uint8_t>(4, 0));
    scatter_buffer_destroy(pool);
}

}  // namespace
}  // namespace vulkan_test
