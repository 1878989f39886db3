// The oracle's gathers by hand: the examples of the ONNX operator documents (GatherElements,
// Gather, GatherND with batch_dims), the policies, 0-d indices and a strided view.
#include <gtest/gtest.h>

#include "gather_reference.h"
#include "reference_test_support.h"

namespace scatter_reference {
namespace {

using V = std::vector<float>;

struct GatherOptions {
    int32_t axis = 0;
    uint32_t batch_dims = 0;
    scatter_out_of_range policy = SCATTER_OUT_OF_RANGE_ERROR;
    const void* fill = nullptr;
};

// Runs a gather into an out of `out_shape` that starts as 99s, so an error shows it unchanged.
template <class T, class I>
RefOutcome<T> gather_ref(Op op, scatter_dtype dtype, Values<T> data, Values<I> indices, std::vector<int64_t> out_shape,
                         GatherOptions o = {}) {
    int64_t count = 1;
    for (int64_t d : out_shape) count *= d;
    RefOutcome<T> result{SCATTER_OK, std::vector<T>(size_t(count), T(99))};
    const scatter_dtype index_dtype = sizeof(I) == 4 ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64;
    scatter_tensor d = host_tensor(dtype, data.shape, data.values.data());
    scatter_tensor i = host_tensor(index_dtype, indices.shape, indices.values.data());
    scatter_tensor out = host_tensor(dtype, out_shape, result.out.data());
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
    options.axis = o.axis;
    options.batch_dims = o.batch_dims;
    options.out_of_range = o.policy;
    options.fill_value = o.fill;
    result.status = gather(op, &d, &i, &options, &out);
    return result;
}

TEST(ReferenceGather, OnnxGatherElementsExamples) {
    GatherOptions axis1;
    axis1.axis = 1;
    auto r = gather_ref<float, int64_t>(Op::elements, SCATTER_DTYPE_F32, {{2, 2}, {1, 2, 3, 4}},
                                        {{2, 2}, {0, 0, 1, 0}}, {2, 2}, axis1);
    EXPECT_EQ(r.out, (V{1, 1, 4, 3}));
    r = gather_ref<float, int32_t>(Op::elements, SCATTER_DTYPE_F32, {{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}},
                                   {{2, 3}, {1, 2, 0, 2, 0, 0}}, {2, 3});
    EXPECT_EQ(r.out, (V{4, 8, 3, 7, 2, 3}));
}

TEST(ReferenceGather, ElementsIndicesSmallerThanDataOffTheAxis) {
    auto r = gather_ref<float, int64_t>(Op::elements, SCATTER_DTYPE_F32, {{2, 3}, {1, 2, 3, 4, 5, 6}},
                                        {{3, 2}, {1, 0, -1, -2, 0, 1}}, {3, 2});
    EXPECT_EQ(r.out, (V{4, 2, 4, 2, 1, 5}));
}

TEST(ReferenceGather, OnnxGatherExamples) {
    auto r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}},
                                        {{2, 2}, {0, 1, 1, 2}}, {2, 2, 2});
    EXPECT_EQ(r.out, (V{1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f}));
    GatherOptions axis1;
    axis1.axis = 1;
    r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32,
                                   {{3, 3}, {1.0f, 1.2f, 1.9f, 2.3f, 3.4f, 3.9f, 4.5f, 5.7f, 5.9f}},
                                   {{1, 2}, {0, 2}}, {3, 1, 2}, axis1);
    EXPECT_EQ(r.out, (V{1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f}));
}

TEST(ReferenceGather, RowsWithAZeroDimensionalIndexDropsTheAxis) {
    GatherOptions last;
    last.axis = -1;
    auto r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{2, 3}, {1, 2, 3, 4, 5, 6}}, {{}, {-1}}, {2},
                                        last);
    EXPECT_EQ(r.out, (V{3, 6}));
}

TEST(ReferenceGather, OnnxGatherNdExamples) {
    const Values<float> cube{{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}};
    auto r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, {0, 1, 2, 3}}, {{2, 2}, {0, 0, 1, 1}},
                                        {2});
    EXPECT_EQ(r.out, (V{0, 3}));
    r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, {0, 1, 2, 3}}, {{2, 1}, {1, 0}}, {2, 2});
    EXPECT_EQ(r.out, (V{2, 3, 0, 1}));
    r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, cube, {{2, 2}, {0, 1, 1, 0}}, {2, 2});
    EXPECT_EQ(r.out, (V{2, 3, 4, 5}));
    r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, cube, {{2, 1, 2}, {0, 1, 1, 0}}, {2, 1, 2});
    EXPECT_EQ(r.out, (V{2, 3, 4, 5}));
    GatherOptions batch;
    batch.batch_dims = 1;
    r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, cube, {{2, 1}, {1, 0}}, {2, 2}, batch);
    EXPECT_EQ(r.out, (V{2, 3, 4, 5}));
}

TEST(ReferenceGather, NdBatchDimsMustMatchAndLeaveRoomForTheCoordinates) {
    GatherOptions batch;
    batch.batch_dims = 1;
    auto r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, {0, 1, 2, 3}}, {{3, 1}, {0, 0, 0}}, {3},
                                        batch);
    EXPECT_EQ(r.status, SCATTER_ERROR_SHAPE_MISMATCH);
    batch.batch_dims = 2;
    r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, {0, 1, 2, 3}}, {{2, 2, 1}, {0, 0, 0, 0}},
                                   {2, 2}, batch);
    EXPECT_EQ(r.status, SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(r.out, (V(4, 99)));
}

TEST(ReferenceGather, ErrorClampAndFill) {
    const Values<float> data{{4}, {10, 20, 30, 40}};
    const Values<int64_t> indices{{5}, {-5, -1, 4, 9, 0}};
    auto r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, data, indices, {5});
    EXPECT_EQ(r.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(r.out, (V(5, 99)));
    GatherOptions clamp;
    clamp.policy = SCATTER_OUT_OF_RANGE_CLAMP;
    r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, data, indices, {5}, clamp);
    EXPECT_EQ(r.out, (V{10, 40, 40, 40, 10}));
    const float minus_one = -1;
    GatherOptions fill;
    fill.policy = SCATTER_OUT_OF_RANGE_FILL;
    fill.fill = &minus_one;
    r = gather_ref<float, int64_t>(Op::elements, SCATTER_DTYPE_F32, data, indices, {5}, fill);
    EXPECT_EQ(r.out, (V{-1, 40, -1, -1, 10}));
    fill.fill = nullptr;
    r = gather_ref<float, int64_t>(Op::elements, SCATTER_DTYPE_F32, data, indices, {5}, fill);
    EXPECT_EQ(r.out, (V{0, 40, 0, 0, 10}));
}

TEST(ReferenceGather, NdFillsTheWholeSliceWhenOneCoordinateIsOut) {
    const float seven = 7;
    GatherOptions fill;
    fill.policy = SCATTER_OUT_OF_RANGE_FILL;
    fill.fill = &seven;
    auto r = gather_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}},
                                        {{2, 2}, {1, 1, 0, 2}}, {2, 2}, fill);
    EXPECT_EQ(r.out, (V{6, 7, 7, 7}));
}

TEST(ReferenceGather, ClampIntoAnEmptyAxisIsAnError) {
    GatherOptions clamp;
    clamp.policy = SCATTER_OUT_OF_RANGE_CLAMP;
    auto r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{0, 2}, V()}, {{1}, {0}}, {1, 2}, clamp);
    EXPECT_EQ(r.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    GatherOptions fill;
    fill.policy = SCATTER_OUT_OF_RANGE_FILL;
    r = gather_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{0, 2}, V()}, {{1}, {0}}, {1, 2}, fill);
    EXPECT_EQ(r.out, (V{0, 0}));
}

TEST(ReferenceGather, StridedDataAndOut) {
    V data = {1, 2, 3, 4, 5, 6};  // read as its transpose [3, 2]
    std::vector<int64_t> indices = {2, 0};
    V out(8, 99);
    const std::vector<int64_t> data_shape = {3, 2}, index_shape = {2}, out_shape = {2, 2};
    const int64_t data_strides[] = {1, 3}, out_strides[] = {-4, 1};  // out rows reversed, 2 apart
    scatter_tensor d = host_tensor(SCATTER_DTYPE_F32, data_shape, data.data());
    d.strides = data_strides;
    scatter_tensor i = host_tensor(SCATTER_DTYPE_I64, index_shape, indices.data());
    scatter_tensor o = host_tensor(SCATTER_DTYPE_F32, out_shape, out.data() + 4);
    o.strides = out_strides;
    ASSERT_EQ(gather(Op::rows, &d, &i, nullptr, &o), SCATTER_OK);
    EXPECT_EQ(out, (V{1, 4, 99, 99, 3, 6, 99, 99}));
}

}  // namespace
}  // namespace scatter_reference
