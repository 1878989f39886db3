// Run with VK_DRIVER_FILES naming a file in an empty folder: the library still loads, the CPU
// works, a Vulkan request fails with BACKEND_UNAVAILABLE and a reason, AUTO falls back to the CPU
// and scatter_devices lists the CPU only.
#include <scatter/scatter.h>

#include <gtest/gtest.h>

#include <string>

TEST(NoVulkanDriver, VulkanIsUnavailableAndCpuWorks) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    scatter_context ctx = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &ctx), SCATTER_ERROR_BACKEND_UNAVAILABLE);
    EXPECT_EQ(ctx, nullptr);
    EXPECT_NE(std::string(scatter_last_error_message()), "");

    desc.backend = SCATTER_BACKEND_AUTO;
    ASSERT_EQ(scatter_context_create(&desc, &ctx), SCATTER_OK);
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    ASSERT_EQ(scatter_context_backend(ctx, &backend), SCATTER_OK);
    EXPECT_EQ(backend, SCATTER_BACKEND_CPU);

    float data[4] = {1, 2, 3, 4};
    int32_t indices[2] = {3, 3};
    float updates[2] = {10, 20};
    int64_t data_shape[1] = {4}, index_shape[1] = {2};
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
    d.dtype = u.dtype = SCATTER_DTYPE_F32;
    i.dtype = SCATTER_DTYPE_I32;
    d.rank = i.rank = u.rank = 1;
    d.shape = data_shape;
    i.shape = u.shape = index_shape;
    d.data = data;
    i.data = indices;
    u.data = updates;
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_ADD;
    ASSERT_EQ(scatter_elements(ctx, &d, &i, &u, &options, &d), SCATTER_OK);
    EXPECT_EQ(data[3], 34.0f);
    scatter_context_destroy(ctx);

    uint32_t count = 0;
    ASSERT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
    EXPECT_EQ(count, 1u);
}
