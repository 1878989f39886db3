// The functions that never fail: version, status/dtype/backend/reduction names, dtype sizes.
#include <scatter/scatter.h>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Version, MatchesTheHeader) {
    EXPECT_EQ(scatter_version(), SCATTER_VERSION);
    EXPECT_EQ(scatter_version() >> 22, static_cast<uint32_t>(SCATTER_VERSION_MAJOR));
    EXPECT_EQ((scatter_version() >> 12) & 0x3ffu, static_cast<uint32_t>(SCATTER_VERSION_MINOR));
    EXPECT_EQ(scatter_version() & 0xfffu, static_cast<uint32_t>(SCATTER_VERSION_PATCH));
    const std::string expected = std::to_string(SCATTER_VERSION_MAJOR) + "." +
                                 std::to_string(SCATTER_VERSION_MINOR) + "." +
                                 std::to_string(SCATTER_VERSION_PATCH);
    ASSERT_NE(scatter_version_string(), nullptr);
    EXPECT_EQ(std::string(scatter_version_string()), expected);
    EXPECT_EQ(scatter_version_string(), scatter_version_string()) << "not a static string";
}

TEST(Version, MakeVersionPacksFields) {
    EXPECT_EQ(SCATTER_MAKE_VERSION(1, 2, 3), (1u << 22) | (2u << 12) | 3u);
}

TEST(StatusNames, EveryListedStatusHasItsOwnName) {
#define SCATTER_TEST_CHECK_NAME(name, value, description)                 \
    EXPECT_STREQ(scatter_status_name(name), #name);                       \
    EXPECT_EQ(static_cast<int>(name), value);                             \
    EXPECT_GT(std::string(description).size(), 0u);
    SCATTER_STATUS_LIST(SCATTER_TEST_CHECK_NAME)
#undef SCATTER_TEST_CHECK_NAME
}

TEST(StatusNames, PinnedValues) {
    EXPECT_EQ(SCATTER_OK, 0);
    EXPECT_EQ(SCATTER_ERROR_INVALID_ARGUMENT, 1);
    EXPECT_EQ(SCATTER_ERROR_TYPE_MISMATCH, 2);
    EXPECT_EQ(SCATTER_ERROR_SHAPE_MISMATCH, 3);
    EXPECT_EQ(SCATTER_ERROR_INDEX_OUT_OF_RANGE, 4);
    EXPECT_EQ(SCATTER_ERROR_UNSUPPORTED, 5);
    EXPECT_EQ(SCATTER_ERROR_OUT_OF_MEMORY, 6);
    EXPECT_EQ(SCATTER_ERROR_BACKEND_UNAVAILABLE, 7);
    EXPECT_EQ(SCATTER_ERROR_DEVICE_LOST, 8);
    EXPECT_EQ(SCATTER_ERROR_INTERNAL, 9);
    EXPECT_EQ(sizeof(scatter_status), 4u);
}

TEST(StatusNames, UnknownValues) {
    for (int value : {10, 11, 100, -1, 0x7fffffff, static_cast<int>(0x80000000u)})
        EXPECT_STREQ(scatter_status_name(static_cast<scatter_status>(value)),
                     "SCATTER_STATUS_UNKNOWN")
            << value;
}

TEST(Dtypes, SizesAndNames) {
    struct Row {
        scatter_dtype dtype;
        size_t size;
        const char* name;
    };
    const Row rows[] = {
        {SCATTER_DTYPE_F16, 2, "f16"},   {SCATTER_DTYPE_BF16, 2, "bf16"},
        {SCATTER_DTYPE_F32, 4, "f32"},   {SCATTER_DTYPE_F64, 8, "f64"},
        {SCATTER_DTYPE_I8, 1, "i8"},     {SCATTER_DTYPE_I16, 2, "i16"},
        {SCATTER_DTYPE_I32, 4, "i32"},   {SCATTER_DTYPE_I64, 8, "i64"},
        {SCATTER_DTYPE_U8, 1, "u8"},     {SCATTER_DTYPE_U16, 2, "u16"},
        {SCATTER_DTYPE_U32, 4, "u32"},   {SCATTER_DTYPE_U64, 8, "u64"},
        {SCATTER_DTYPE_BOOL, 1, "bool"}, {SCATTER_DTYPE_C64, 8, "c64"},
        {SCATTER_DTYPE_C128, 16, "c128"}, {SCATTER_DTYPE_OPAQUE, 0, "opaque"},
    };
    for (const Row& row : rows) {
        EXPECT_EQ(scatter_dtype_size(row.dtype), row.size) << row.name;
        EXPECT_STREQ(scatter_dtype_name(row.dtype), row.name);
    }
    EXPECT_EQ(scatter_dtype_size(SCATTER_DTYPE_UNDEFINED), 0u);
    for (int value : {17, 1000, -1}) {
        EXPECT_EQ(scatter_dtype_size(static_cast<scatter_dtype>(value)), 0u);
        EXPECT_STREQ(scatter_dtype_name(static_cast<scatter_dtype>(value)), "unknown");
    }
}

TEST(Backends, Names) {
    EXPECT_STREQ(scatter_backend_name(SCATTER_BACKEND_AUTO), "auto");
    EXPECT_STREQ(scatter_backend_name(SCATTER_BACKEND_CPU), "cpu");
    EXPECT_STREQ(scatter_backend_name(SCATTER_BACKEND_VULKAN), "vulkan");
    EXPECT_STREQ(scatter_backend_name(static_cast<scatter_backend>(3)), "unknown");
    EXPECT_STREQ(scatter_backend_name(static_cast<scatter_backend>(-1)), "unknown");
}

TEST(Reductions, Names) {
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_DEFAULT), "none");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_NONE), "none");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_ADD), "add");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_SUB), "sub");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_MUL), "mul");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_DIV), "div");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_MAX), "max");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_MIN), "min");
    EXPECT_STREQ(scatter_reduction_name(SCATTER_REDUCTION_MEAN), "mean");
    EXPECT_STREQ(scatter_reduction_name(static_cast<scatter_reduction>(9)), "unknown");
    EXPECT_STREQ(scatter_reduction_name(static_cast<scatter_reduction>(-1)), "unknown");
}

TEST(Enums, AreThirtyTwoBits) {
    EXPECT_EQ(sizeof(scatter_dtype), 4u);
    EXPECT_EQ(sizeof(scatter_reduction), 4u);
    EXPECT_EQ(sizeof(scatter_out_of_range), 4u);
    EXPECT_EQ(sizeof(scatter_backend), 4u);
    EXPECT_EQ(sizeof(scatter_device_type), 4u);
    EXPECT_EQ(sizeof(scatter_log_level), 4u);
}

}  // namespace
