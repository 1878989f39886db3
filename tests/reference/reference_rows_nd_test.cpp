// The oracle's `rows` and `nd` ops, strided views and in-place calls, by hand.
#include <gtest/gtest.h>

#include "reference_test_support.h"

namespace scatter_reference {
namespace {

using V = std::vector<float>;

TEST(ReferenceRows, Axis0Rows) {
    auto r = run_ref<float, int32_t>(Op::rows, SCATTER_DTYPE_F32, {{3, 2}, V(6, 0)},
                                     {{2}, {2, 0}}, {{2, 2}, {1, 2, 3, 4}});
    EXPECT_EQ(r.out, (V{3, 4, 0, 0, 1, 2}));
}

TEST(ReferenceRows, Axis1ColumnsWithDuplicatesAdd) {
    Options o;
    o.axis = 1;
    o.reduction = SCATTER_REDUCTION_ADD;
    // updates.shape = [2] + [3] + [] for data [2, 4] and indices [3].
    auto r = run_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{2, 4}, V(8, 1)},
                                     {{3}, {3, -1, 0}}, {{2, 3}, {1, 2, 3, 4, 5, 6}}, o);
    EXPECT_EQ(r.out, (V{4, 1, 1, 4, 7, 1, 1, 10}));
}

TEST(ReferenceRows, ZeroDimensionalIndexWritesOneSlice) {
    auto r = run_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{3, 2}, V(6, 0)}, {{}, {1}},
                                     {{2}, {7, 8}});
    EXPECT_EQ(r.out, (V{0, 0, 7, 8, 0, 0}));
}

TEST(ReferenceRows, MatrixOfIndices) {
    Options o;
    o.reduction = SCATTER_REDUCTION_MUL;
    auto r = run_ref<int32_t, int64_t>(Op::rows, SCATTER_DTYPE_I32, {{2}, {1, 1}},
                                       {{2, 2}, {0, 1, 1, 1}}, {{2, 2}, {2, 3, 4, 5}}, o);
    EXPECT_EQ(r.out, (std::vector<int32_t>{2, 60}));
}

TEST(ReferenceRows, OutOfRangeSkipsTheWholeSlice) {
    Options o;
    o.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    auto r = run_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{2, 2}, V(4, 0)},
                                     {{2}, {5, 1}}, {{2, 2}, {1, 2, 3, 4}}, o);
    EXPECT_EQ(r.out, (V{0, 0, 3, 4}));
    o.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    r = run_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{2, 2}, V(4, 0)}, {{2}, {5, 1}},
                                {{2, 2}, {1, 2, 3, 4}}, o);
    EXPECT_EQ(r.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
}

TEST(ReferenceRows, IndexIsCheckedEvenWhenItsSliceIsEmpty) {
    auto r = run_ref<float, int64_t>(Op::rows, SCATTER_DTYPE_F32, {{2, 0}, V()}, {{1}, {9}},
                                     {{1, 0}, V()});
    EXPECT_EQ(r.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
}

TEST(ReferenceNd, PointUpdates) {
    auto r = run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, {1, 2, 3, 4}},
                                     {{2, 2}, {0, 1, 1, 0}}, {{2}, {5, 6}});
    EXPECT_EQ(r.out, (V{1, 5, 6, 4}));
}

TEST(ReferenceNd, SliceUpdatesAndBatchDims) {
    Options o;
    o.reduction = SCATTER_REDUCTION_ADD;
    // indices [2, 1, 1]: two batches of one row index; updates [2, 1, 2].
    auto r = run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4, 1)},
                                     {{2, 1, 1}, {1, -1}}, {{2, 1, 2}, {1, 2, 3, 4}}, o);
    EXPECT_EQ(r.out, (V{1, 1, 5, 7}));
}

TEST(ReferenceNd, AnyOutOfRangeCoordinateSkipsOrClampsTheSlice) {
    Options o;
    o.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    auto r = run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4, 0)},
                                     {{2, 2}, {0, 5, 1, 1}}, {{2}, {7, 8}}, o);
    EXPECT_EQ(r.out, (V{0, 0, 0, 8}));
    o.out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;
    r = run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4, 0)},
                                {{2, 2}, {0, 5, -9, 1}}, {{2}, {7, 8}}, o);
    EXPECT_EQ(r.out, (V{0, 8, 0, 0}));  // (0,1) then (0,1): the last wins
}

TEST(ReferenceNd, ShapeRules) {
    EXPECT_EQ((run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4)}, {{1, 3}, {0, 0, 0}},
                                       {{1}, {1}}).status),
              SCATTER_ERROR_SHAPE_MISMATCH);  // k > rank
    EXPECT_EQ((run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4)}, {{}, {0}},
                                       {{}, {1}}).status),
              SCATTER_ERROR_SHAPE_MISMATCH);  // 0-d indices
    Options o;
    o.axis = 1;
    EXPECT_EQ((run_ref<float, int64_t>(Op::nd, SCATTER_DTYPE_F32, {{2, 2}, V(4)}, {{1, 2}, {0, 0}},
                                       {{1}, {1}}, o).status),
              SCATTER_ERROR_INVALID_ARGUMENT);
}

TEST(ReferenceStrides, NegativeStridedInPlaceData) {
    // data is a reversed view of storage [1, 2, 3, 4]: logical [4, 3, 2, 1].
    std::vector<float> storage{1, 2, 3, 4};
    int64_t shape[] = {4}, reversed[] = {-1}, index_shape[] = {2};
    int64_t index_values[] = {0, 1};
    float update_values[] = {10, 20};
    scatter_tensor data = host_tensor(SCATTER_DTYPE_F32, {4}, storage.data() + 3);
    data.shape = shape;
    data.strides = reversed;
    scatter_tensor indices = host_tensor(SCATTER_DTYPE_I64, {}, index_values);
    indices.rank = 1;
    indices.shape = index_shape;
    scatter_tensor updates = indices;
    updates.dtype = SCATTER_DTYPE_F32;
    updates.data = update_values;
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_ADD;
    ASSERT_EQ(run(Op::elements, &data, &indices, &updates, &options, &data), SCATTER_OK);
    EXPECT_EQ(storage, (V{1, 2, 23, 14}));
}

TEST(ReferenceStrides, ZeroStrideUpdatesAndPaddedOut) {
    std::vector<float> out_storage(8, -1);
    float data_values[] = {1, 2, 3, 4};
    float one_update = 5;
    int64_t data_shape[] = {2, 2}, out_strides[] = {4, 2}, zero_strides[] = {0, 0};
    int64_t index_values[] = {1, 1, 0, 0};
    scatter_tensor data = host_tensor(SCATTER_DTYPE_F32, {}, data_values);
    data.rank = 2;
    data.shape = data_shape;
    scatter_tensor out = data;
    out.data = out_storage.data();
    out.strides = out_strides;
    scatter_tensor updates = data;
    updates.data = &one_update;
    updates.strides = zero_strides;
    scatter_tensor indices = data;
    indices.dtype = SCATTER_DTYPE_I64;
    indices.data = index_values;
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_ADD;
    ASSERT_EQ(run(Op::elements, &data, &indices, &updates, &options, &out), SCATTER_OK);
    EXPECT_EQ(out_storage, (V{6, -1, 7, -1, 8, -1, 9, -1}));
}

}  // namespace
}  // namespace scatter_reference
