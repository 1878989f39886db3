// Valid but extreme inputs whose arithmetic once overflowed a signed integer (undefined behaviour
// that `make sanitize`'s UBSan reports): 16-bit products, byte offsets near INT64_MAX, huge strides
// on size-1 dimensions, empty shapes whose other dimensions multiply past 2^63, and zero-stride
// tensors with about 2^60 elements.
#include "scatter_call.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace scatter_test {
namespace {

scatter_tensor tensor(scatter_dtype dtype, const std::vector<int64_t>& shape, void* data,
                      const int64_t* strides = nullptr) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.rank = uint32_t(shape.size());
    t.shape = shape.data();
    t.strides = strides;
    t.data = data;
    return t;
}

scatter_options options(scatter_reduction reduction, int32_t axis = 0,
                        scatter_out_of_range policy = SCATTER_OUT_OF_RANGE_ERROR) {
    scatter_options o = SCATTER_OPTIONS_INIT;
    o.reduction = reduction;
    o.axis = axis;
    o.out_of_range = policy;
    return o;
}

template <class T>
T mul_one(scatter_context context, scatter_dtype dtype, T target, T update) {
    const std::vector<int64_t> shape = {1};
    int64_t index = 0;
    T data = target, out = 0;
    scatter_tensor d = tensor(dtype, shape, &data), i = tensor(SCATTER_DTYPE_I64, shape, &index),
                   u = tensor(dtype, shape, &update), o = tensor(dtype, shape, &out);
    const scatter_options opts = options(SCATTER_REDUCTION_MUL);
    EXPECT_EQ(scatter_elements(context, &d, &i, &u, &opts, &o), SCATTER_OK) << scatter_last_error_message();
    return out;
}

TEST(ExtremeInputs, SixteenBitProductsWrap) {
    ContextPtr context = make_test_context();
    EXPECT_EQ(mul_one<uint16_t>(context.get(), SCATTER_DTYPE_U16, 65535, 65535), 1);
    EXPECT_EQ(mul_one<int16_t>(context.get(), SCATTER_DTYPE_I16, -32768, -1), -32768);
    EXPECT_EQ(mul_one<int16_t>(context.get(), SCATTER_DTYPE_I16, 32767, 32767), 1);
    EXPECT_EQ(mul_one<uint8_t>(context.get(), SCATTER_DTYPE_U8, 255, 255), 1);
}

TEST(ExtremeInputs, ByteOffsetNearInt64MaxIsRejected) {
    ContextPtr context = make_test_context();
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(context.get(), 64, &buffer), SCATTER_OK);
    const std::vector<int64_t> shape = {4};
    float updates[4] = {1, 2, 3, 4}, out[4] = {5, 6, 7, 8};
    int64_t indices[4] = {0, 1, 2, 3};
    scatter_tensor d = tensor(SCATTER_DTYPE_F32, shape, nullptr), i = tensor(SCATTER_DTYPE_I64, shape, indices),
                   u = tensor(SCATTER_DTYPE_F32, shape, updates), o = tensor(SCATTER_DTYPE_F32, shape, out);
    d.buffer = buffer;
    const scatter_options opts = options(SCATTER_REDUCTION_ADD);
    for (uint64_t offset : {uint64_t(INT64_MAX), uint64_t(INT64_MAX) - 8, uint64_t(INT64_MAX) - 15}) {
        SCOPED_TRACE(offset);
        d.byte_offset = offset;
        EXPECT_EQ(scatter_elements(context.get(), &d, &i, &u, &opts, &o), SCATTER_ERROR_INVALID_ARGUMENT);
        EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
    }
    EXPECT_EQ(out[0], 5.0f);
    EXPECT_EQ(out[3], 8.0f);
    scatter_buffer_destroy(buffer);
}

TEST(ExtremeInputs, HugeStridesOnSizeOneDimensions) {
    ContextPtr context = make_test_context();
    const std::vector<int64_t> shape = {1, 4};
    const int64_t huge[2] = {INT64_MAX, 1};
    const int64_t huge_negative[2] = {INT64_MIN, 1};
    float data[4] = {1, 2, 3, 4}, updates[4] = {10, 20, 30, 40}, out[4] = {};
    int64_t indices[4] = {0, 0, 0, 0};
    scatter_tensor d = tensor(SCATTER_DTYPE_F32, shape, data, huge),
                   i = tensor(SCATTER_DTYPE_I64, shape, indices, huge_negative),
                   u = tensor(SCATTER_DTYPE_F32, shape, updates, huge),
                   o = tensor(SCATTER_DTYPE_F32, shape, out, huge_negative);
    for (int32_t axis : {0, 1}) {
        SCOPED_TRACE(axis);
        const scatter_options opts = options(SCATTER_REDUCTION_ADD, axis);
        ASSERT_EQ(scatter_elements(context.get(), &d, &i, &u, &opts, &o), SCATTER_OK) << scatter_last_error_message();
        const std::vector<float> expected = axis == 0 ? std::vector<float>{11, 22, 33, 44}
                                                      : std::vector<float>{101, 2, 3, 4};
        EXPECT_EQ(std::vector<float>(out, out + 4), expected);
    }
    // rows: data [1, 4] on axis 0 with one index, updates [1, 4].
    const std::vector<int64_t> one = {1};
    scatter_tensor i1 = tensor(SCATTER_DTYPE_I64, one, indices, huge);
    const scatter_options opts = options(SCATTER_REDUCTION_ADD);
    ASSERT_EQ(scatter_rows(context.get(), &d, &i1, &u, &opts, &o), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{11, 22, 33, 44}));
}

TEST(ExtremeInputs, EmptyShapesWithHugeDimensions) {
    ContextPtr context = make_test_context();
    const int64_t big = int64_t(1) << 62;
    char scratch[16] = {};
    int64_t index = 0;
    // rows on axis 2 of data [2^62, 2^62, 2, 0]: the rows before the axis multiply past 2^63.
    const std::vector<int64_t> data_shape = {big, big, 2, 0}, index_shape = {1}, updates_shape = {big, big, 1, 0};
    scatter_tensor d = tensor(SCATTER_DTYPE_F32, data_shape, scratch), i = tensor(SCATTER_DTYPE_I64, index_shape, &index),
                   u = tensor(SCATTER_DTYPE_F32, updates_shape, scratch), o = tensor(SCATTER_DTYPE_F32, data_shape, scratch);
    const scatter_options add_on_2 = options(SCATTER_REDUCTION_ADD, 2);
    EXPECT_EQ(scatter_rows(context.get(), &d, &i, &u, &add_on_2, &o), SCATTER_OK) << scatter_last_error_message();

    // nd with depth 3 into data [2^62, 2^62, 0, 1]: the target rows multiply past 2^63, and the
    // one update slice (skipped: its last coordinate has no valid target) is not empty.
    const std::vector<int64_t> nd_data = {big, big, 0, 1}, nd_indices = {1, 3}, nd_updates = {1, 1};
    int64_t coordinates[3] = {5, 7, 0};
    float update = 3, out_guard = 9;
    scatter_tensor nd_d = tensor(SCATTER_DTYPE_F32, nd_data, scratch),
                   nd_i = tensor(SCATTER_DTYPE_I64, nd_indices, coordinates),
                   nd_u = tensor(SCATTER_DTYPE_F32, nd_updates, &update),
                   nd_o = tensor(SCATTER_DTYPE_F32, nd_data, &out_guard);
    for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_SKIP, SCATTER_OUT_OF_RANGE_CLAMP}) {
        const scatter_options opts = options(SCATTER_REDUCTION_ADD, 0, policy);
        EXPECT_EQ(scatter_nd(context.get(), &nd_d, &nd_i, &nd_u, &opts, &nd_o), SCATTER_OK)
            << scatter_last_error_message();
    }
    const scatter_options strict = options(SCATTER_REDUCTION_ADD);
    EXPECT_EQ(scatter_nd(context.get(), &nd_d, &nd_i, &nd_u, &strict, &nd_o), SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(out_guard, 9.0f);
}

// Indices and updates with 2^60 elements in a few bytes (stride 0): the index check splits them
// over threads (16 parts: 2^60 * 15 passes INT64_MAX), and every part finds the bad index at once.
TEST(ExtremeInputs, ZeroStrideIndicesWithTwoToThe60Elements) {
    ContextPtr context = make_test_context(4);
    const int64_t zero_stride[1] = {0};
    const std::vector<int64_t> data_shape = {3}, many = {int64_t(1) << 60};
    float data[3] = {1, 2, 3}, out[3] = {7, 8, 9}, update = 1;
    int32_t index = 3;
    scatter_tensor d = tensor(SCATTER_DTYPE_F32, data_shape, data),
                   i = tensor(SCATTER_DTYPE_I32, many, &index, zero_stride),
                   u = tensor(SCATTER_DTYPE_F32, many, &update, zero_stride),
                   o = tensor(SCATTER_DTYPE_F32, data_shape, out);
    const scatter_options opts = options(SCATTER_REDUCTION_ADD);
    EXPECT_EQ(scatter_elements(context.get(), &d, &i, &u, &opts, &o), SCATTER_ERROR_INDEX_OUT_OF_RANGE)
        << scatter_last_error_message();
    EXPECT_EQ(std::vector<float>(out, out + 3), (std::vector<float>{7, 8, 9}));
}

// The contiguous index check (blocks of 4096 scanned branch-free: a min/max for int32, an
// unsigned range test for int64) against every edge of [-bound, bound) and the extreme values of
// both widths, alone in a call long enough for several blocks, at the first, a middle and the last
// position: the call fails exactly when the value is outside, and out stays untouched.
TEST(ExtremeInputs, IndexCheckAtTheEdgesOfTheRangeAndOfTheType) {
    ContextPtr context = make_test_context(2);
    const int64_t bound = 1000, n = 3 * 4096 + 5;
    const std::vector<int64_t> data_shape = {bound}, index_shape = {n};
    std::vector<float> data(size_t(bound), 1.0f), updates(size_t(n), 0.5f);
    const int64_t values[] = {-bound - 1, -bound, -1, 0, bound - 1, bound, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX,
                              INT64_MIN + 1, INT64_MAX - bound + 1, int64_t(uint64_t(1) << 63 >> 1)};
    for (bool wide : {false, true}) {
        for (int64_t value : values) {
            if (!wide && (value < INT32_MIN || value > INT32_MAX)) continue;
            for (int64_t at : {int64_t(0), int64_t(4096 + 17), n - 1}) {
                std::vector<int64_t> i64(size_t(n), 3);
                std::vector<int32_t> i32(size_t(n), 3);
                i64[size_t(at)] = value;
                i32[size_t(at)] = int32_t(value);
                std::vector<float> out(size_t(bound), 7.0f);
                scatter_tensor d = tensor(SCATTER_DTYPE_F32, data_shape, data.data()),
                               i = wide ? tensor(SCATTER_DTYPE_I64, index_shape, i64.data())
                                        : tensor(SCATTER_DTYPE_I32, index_shape, i32.data()),
                               u = tensor(SCATTER_DTYPE_F32, index_shape, updates.data()),
                               o = tensor(SCATTER_DTYPE_F32, data_shape, out.data());
                const scatter_options opts = options(SCATTER_REDUCTION_ADD);
                const bool inside = value >= -bound && value < bound;
                EXPECT_EQ(scatter_elements(context.get(), &d, &i, &u, &opts, &o),
                          inside ? SCATTER_OK : SCATTER_ERROR_INDEX_OUT_OF_RANGE)
                    << (wide ? "int64 " : "int32 ") << value << " at " << at << ": " << scatter_last_error_message();
                if (!inside) {
                    EXPECT_EQ(out, std::vector<float>(size_t(bound), 7.0f)) << value << " at " << at;
                }
            }
        }
    }
}

}  // namespace
}  // namespace scatter_test

namespace scatter_test {
namespace {

// Issue 43: 2^62 bool elements with stride -2 have a byte extent that passes every overflow check
// but reaches below address 0 from the data pointer; an in-place call wrote to a wild address.
TEST(ExtremeInputs, ExtentsBelowAddressZeroOrPastTheAddressSpaceAreRefused) {
    ContextPtr context = make_test_context();
    uint8_t memory[16] = {};
    const uint8_t before[16] = {};
    int64_t index = 0;
    uint8_t update = 1;
    const std::vector<int64_t> huge = {int64_t(1) << 62}, one = {1};
    const int64_t backwards[1] = {-2};
    scatter_tensor d = tensor(SCATTER_DTYPE_BOOL, huge, memory + 8, backwards);
    scatter_tensor i = tensor(SCATTER_DTYPE_I64, one, &index), u = tensor(SCATTER_DTYPE_BOOL, one, &update);
    const scatter_options opts = options(SCATTER_REDUCTION_ADD);
    EXPECT_EQ(scatter_elements(context.get(), &d, &i, &u, &opts, &d), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(scatter_last_error_message()).find("below address 0"), std::string::npos)
        << scatter_last_error_message();
    // Forwards from a pointer near the top of the address space.
    const int64_t forwards[1] = {2};
    scatter_tensor high = tensor(SCATTER_DTYPE_BOOL, huge, reinterpret_cast<void*>(~uintptr_t(0) - 4096), forwards);
    EXPECT_EQ(scatter_elements(context.get(), &high, &i, &u, &opts, &high), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(scatter_last_error_message()).find("past the end of the address space"), std::string::npos)
        << scatter_last_error_message();
    EXPECT_EQ(std::memcmp(memory, before, sizeof memory), 0);
}

}  // namespace
}  // namespace scatter_test
