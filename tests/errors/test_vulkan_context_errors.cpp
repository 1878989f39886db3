// The Vulkan context constructors' errors: scatter_context_create_vulkan checks its descriptor
// as scatter_context_create does, a device index no machine has, and BACKEND_UNAVAILABLE for a
// Vulkan request that cannot be met. ctest runs this binary twice: as it is, and with Vulkan
// hidden from the loader (errors.vulkan_hidden).
#include "scatter_call.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace scatter_test {
namespace {

// scatter_context_create_vulkan checks its descriptor exactly as scatter_context_create does
// (it used to accept unknown flag bits and device_index < -1), before touching any device.
void expect_create_vulkan_fails(const scatter_context_desc& desc, const std::vector<std::string>& parts) {
    scatter_vulkan_device_desc device{};
    device.struct_size = sizeof device;
    scatter_context context = untouched_context();
    const scatter_status status = scatter_context_create_vulkan(&desc, &device, &context);
    const std::string message = scatter_last_error_message();
    EXPECT_STREQ(scatter_status_name(status), scatter_status_name(SCATTER_ERROR_INVALID_ARGUMENT)) << message;
    if (status == SCATTER_OK) scatter_context_destroy(context);
    else EXPECT_EQ(context, untouched_context()) << "out_context written on failure";
    EXPECT_TRUE(is_one_sentence(message));
    for (const std::string& part : parts)
        EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
}

TEST(VulkanContextErrors, ConstructorRefusesUnknownFlags) {
    for (uint32_t flags : {0x8u, 0x100u, 0x80000000u}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_VULKAN;
        desc.flags = flags;
        expect_create_vulkan_fails(desc, {"flags"});
    }
}

TEST(VulkanContextErrors, ConstructorRefusesDeviceIndexBelowMinusOne) {
    for (int32_t index : {-2, INT32_MIN}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.device_index = index;
        expect_create_vulkan_fails(desc, {"device_index"});
    }
}

TEST(VulkanContextErrors, ConstructorRefusesTheCpuBackendAndBadAllocators) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    expect_create_vulkan_fails(desc, {"backend"});
    scatter_allocator allocator = {nullptr, nullptr, nullptr};
    desc = SCATTER_CONTEXT_DESC_INIT;
    desc.allocator = &allocator;
    expect_create_vulkan_fails(desc, {"allocator"});
}

// A Vulkan device index that no machine has.
TEST(VulkanContextErrors, DeviceIndexThatDoesNotExist) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    desc.device_index = 9999;
    expect_create_fails(&desc, SCATTER_ERROR_BACKEND_UNAVAILABLE);
}

// ctest runs this once more with Vulkan hidden (SCATTER_TEST_EXPECT_NO_VULKAN=1 and the loader
// pointed at a driver file that does not exist), and once on RADV's device without hardware
// (errors.vulkan_null_hardware: it compiles, but cannot run a command); otherwise it only runs
// where no Vulkan exists.
TEST(VulkanContextErrors, RequestedWhereUnavailable) {
    const bool hidden = std::getenv("SCATTER_TEST_EXPECT_NO_VULKAN") != nullptr;
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    if (!hidden) {
        scatter_context probe = nullptr;
        if (scatter_context_create(&desc, &probe) == SCATTER_OK) {
            scatter_context_destroy(probe);
            GTEST_SKIP() << "Vulkan is available here; the ctest *_no_vulkan run covers this";
        }
    }
    // SCATTER_TEST_EXPECT_MESSAGE: a part of the refusal's message (errors.vulkan_null_hardware).
    std::vector<std::string> parts;
    if (const char* part = std::getenv("SCATTER_TEST_EXPECT_MESSAGE")) parts.push_back(part);
    expect_create_fails(&desc, SCATTER_ERROR_BACKEND_UNAVAILABLE, parts);
    // AUTO falls back to the CPU instead.
    desc.backend = SCATTER_BACKEND_AUTO;
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK) << scatter_last_error_message();
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    EXPECT_EQ(scatter_context_backend(context, &backend), SCATTER_OK);
    EXPECT_EQ(backend, SCATTER_BACKEND_CPU);
    scatter_context_destroy(context);
}

}  // namespace
}  // namespace scatter_test
