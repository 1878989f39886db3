// Errors of the context and device functions: null pointers, struct sizes, enums, flags and
// unknown fields (the Vulkan constructor's in test_vulkan_context_errors.cpp). Outputs are
// written only on success.
#include "scatter_call.h"

#include <cstdint>
#include <cstdlib>

namespace scatter_test {
namespace {


TEST(ContextErrors, NullOutContext) {
    EXPECT_EQ(scatter_context_create(nullptr, nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
}

TEST(ContextErrors, StructSizeTooSmall) {
    for (uint32_t size : {0u, 4u, static_cast<uint32_t>(sizeof(scatter_context_desc)) - 1u}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.struct_size = size;
        expect_create_fails(&desc, SCATTER_ERROR_INVALID_ARGUMENT, {"struct_size"});
    }
}

TEST(ContextErrors, NonZeroUnknownTailIsUnsupported) {
    struct Newer {
        scatter_context_desc known;
        uint64_t tail[2];
    } newer = {SCATTER_CONTEXT_DESC_INIT, {0, 0}};
    newer.known.struct_size = sizeof(Newer);
    newer.known.backend = SCATTER_BACKEND_CPU;
    expect_create_fails(&newer.known, SCATTER_OK);
    newer.tail[1] = 1;
    expect_create_fails(&newer.known, SCATTER_ERROR_UNSUPPORTED);
}

TEST(ContextErrors, BadBackendEnum) {
    for (int value : {3, 99, -1}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = static_cast<scatter_backend>(value);
        expect_create_fails(&desc, SCATTER_ERROR_INVALID_ARGUMENT, {"backend"});
    }
}

TEST(ContextErrors, UnknownFlags) {
    for (uint32_t flags : {0x8u, 0x100u, 0x80000000u}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_CPU;
        desc.flags = flags;
        expect_create_fails(&desc, SCATTER_ERROR_INVALID_ARGUMENT, {"flags"});
    }
}

TEST(ContextErrors, DeviceIndexBelowMinusOne) {
    for (int32_t index : {-2, -1000, INT32_MIN}) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_VULKAN;
        desc.device_index = index;
        expect_create_fails(&desc, SCATTER_ERROR_INVALID_ARGUMENT, {"device_index"});
    }
}


TEST(ContextErrors, AllocatorWithoutFunctions) {
    scatter_allocator allocator = {nullptr, nullptr, nullptr};
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    desc.allocator = &allocator;
    expect_create_fails(&desc, SCATTER_ERROR_INVALID_ARGUMENT, {"allocator"});
}


TEST(ContextErrors, ContextBackendNullArguments) {
    ContextPtr context = make_test_context();
    scatter_backend backend = static_cast<scatter_backend>(42);
    EXPECT_EQ(scatter_context_backend(nullptr, &backend), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(backend, static_cast<scatter_backend>(42));
    EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
    EXPECT_EQ(scatter_context_backend(context.get(), nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
}

TEST(DeviceErrors, NullCount) {
    scatter_device_info info = {};
    info.struct_size = sizeof(info);
    EXPECT_EQ(scatter_devices(nullptr, nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(scatter_devices(&info, nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
}

TEST(DeviceErrors, BadInfoStructSize) {
    scatter_device_info infos[2] = {};
    infos[0].struct_size = 8;
    infos[1].struct_size = 8;
    uint32_t count = 2;
    EXPECT_EQ(scatter_devices(infos, &count), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(count, 2u) << "count written on failure";
    EXPECT_EQ(infos[0].name[0], '\0') << "infos written on failure";
    EXPECT_NE(std::string(scatter_last_error_message()).find("struct_size"), std::string::npos);
}

}  // namespace
}  // namespace scatter_test
