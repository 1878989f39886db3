// The process's shared Vulkan device (src/vulkan/vk_shared_device.h), issue 43: device_index -1
// and the explicit index of the same device share one VkDevice; the transient memory of finished
// calls is released when the device's last context goes; a context destroyed before its buffers
// and batches stays until they go. Links the library's objects to see which device a context runs on.
#include "vulkan_env.h"

#include "vulkan/vulkan_backend.h"

#include <cstdio>
#include <vector>

namespace vulkan_test {
namespace {

// With the validation layer, as the fixture's context: the same shared device, whose pipelines
// the fixture's lavapipe run has compiled before.
scatter_context vulkan_context(int32_t device_index) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    desc.flags = SCATTER_CONTEXT_FLAG_VALIDATION;
    desc.device_index = device_index;
    scatter_context ctx = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &ctx), SCATTER_OK) << scatter_last_error_message();
    return ctx;
}

const void* device_of(scatter_context ctx) { return &scatter::vulkan_backend_of(ctx)->device(); }

using SharedDevice = VulkanTest;

TEST_F(SharedDevice, IndexMinusOneAndTheSameExplicitIndexShareOneDevice) {
    scatter_context automatic = vulkan_context(-1);
    ASSERT_NE(automatic, nullptr);
    uint32_t count = 0;
    ASSERT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
    int same = 0;
    for (uint32_t i = 0; i + 1 < count; ++i) {  // entry 0 is the CPU; Vulkan index i is entry i + 1
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_VULKAN;
        desc.flags = SCATTER_CONTEXT_FLAG_VALIDATION;
        desc.device_index = int32_t(i);
        scatter_context explicit_ctx = nullptr;
        if (scatter_context_create(&desc, &explicit_ctx) != SCATTER_OK) continue;  // an unusable device
        if (device_of(explicit_ctx) == device_of(automatic)) ++same;
        scatter_context_destroy(explicit_ctx);
    }
    EXPECT_EQ(same, 1) << "exactly one explicit index names the device -1 chose, and it is the same VkDevice";
    scatter_context_destroy(automatic);
}

long resident_mib() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * 4 / 1024;
}

// elements, axis 0, f32 add of `n` host elements on ctx.
bool add_on(scatter_context ctx, int64_t n) {
    std::vector<float> data(size_t(n), 1.0f), updates(size_t(n), 2.0f);
    std::vector<int32_t> indices(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) indices[size_t(k)] = int32_t((k * 7919) % n);
    const int64_t shape[1] = {n};
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
    d.dtype = u.dtype = SCATTER_DTYPE_F32;
    i.dtype = SCATTER_DTYPE_I32;
    d.rank = i.rank = u.rank = 1;
    d.shape = i.shape = u.shape = shape;
    d.data = data.data();
    i.data = indices.data();
    u.data = updates.data();
    scatter_options opt = SCATTER_OPTIONS_INIT;
    opt.reduction = SCATTER_REDUCTION_ADD;
    return scatter_elements(ctx, &d, &i, &u, &opt, &d) == SCATTER_OK && data[0] == 3.0f;
}

// Issue 43: 1.18 GB stayed resident after every context was destroyed (on a discrete GPU, VRAM):
// the device's cache of transient memory (staging, scratch) outlived its contexts.
TEST_F(SharedDevice, TransientMemoryGoesWithTheLastContext) {
    // The fixture's Vulkan context shares the device: destroy it, so that ours are its only ones.
    scatter_context_destroy(vulkan);
    vulkan = nullptr;
    scatter_context first = vulkan_context(-1), second = vulkan_context(-1);
    scatter::TransientCache& cache = *scatter::vulkan_backend_of(first)->device().transient;
    for (int64_t n : {int64_t(1) << 20, int64_t(3) << 19}) ASSERT_TRUE(add_on(first, n));
    const long during = resident_mib();
    EXPECT_GT(cache.kept_bytes(), uint64_t(8) << 20) << "finished calls' memory is kept for the next call";
    scatter_context_destroy(first);
    EXPECT_GT(cache.kept_bytes(), 0u) << "a context still runs on the device: the cache stays";
    scatter_context_destroy(second);
    EXPECT_EQ(cache.kept_bytes(), 0u) << "the last context went: nothing is kept";
    if (!kUnderAddressSanitizer) {
        EXPECT_LT(resident_mib(), during) << "the memory went back to the system";
    }
}

// Issue 43: a context destroyed before its buffers and batches (a garbage collector's order)
// stays until the last of them goes; they remain usable.
TEST_F(SharedDevice, BuffersAndBatchesOutliveTheirContext) {
    scatter_context ctx = vulkan_context(-1);
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(ctx, 256, &buffer), SCATTER_OK);
    scatter_batch batch = nullptr;
    ASSERT_EQ(scatter_batch_create(ctx, &batch), SCATTER_OK);
    scatter_context_destroy(ctx);
    const float values[4] = {1, 2, 3, 4};
    float back[4] = {};
    EXPECT_EQ(scatter_buffer_write(buffer, 16, values, sizeof values), SCATTER_OK);
    EXPECT_EQ(scatter_buffer_read(buffer, 16, back, sizeof back), SCATTER_OK);
    EXPECT_EQ(back[3], 4.0f);
    scatter_batch_destroy(batch);
    scatter_buffer_destroy(buffer);  // the last: releases the context
}

}  // namespace
}  // namespace vulkan_test
