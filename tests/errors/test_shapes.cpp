// SHAPE_MISMATCH: ranks, every shape rule of each op, out's shape, and sizes that overflow.
#include "scatter_call.h"

#include <cstdint>

namespace scatter_test {
namespace {

// Replaces tensor `t` of call by a zero-filled tensor of `shape` (same dtype) and repoints its
// descriptor. Keeps in-range index values so only the shape is wrong.
void reshape(ScatterCall& call, HostTensor ScatterCall::*member, scatter_tensor ScatterCall::*desc,
             std::vector<int64_t> shape) {
    HostTensor& t = call.*member;
    t = HostTensor(t.dtype(), std::move(shape), t.element_size());
    call.*desc = t.descriptor();
}

void reshape_indices(ScatterCall& call, std::vector<int64_t> shape) {
    reshape(call, &ScatterCall::indices, &ScatterCall::indices_desc, std::move(shape));
}
void reshape_updates(ScatterCall& call, std::vector<int64_t> shape) {
    reshape(call, &ScatterCall::updates, &ScatterCall::updates_desc, std::move(shape));
}
void reshape_data(ScatterCall& call, std::vector<int64_t> shape) {
    reshape(call, &ScatterCall::data, &ScatterCall::data_desc, shape);
    reshape(call, &ScatterCall::out, &ScatterCall::out_desc, shape);
}

void expect_shape_mismatch(scatter_context context, ScatterCall& call,
                           const std::vector<std::string>& parts = {}) {
    expect_rejected(context, call, SCATTER_ERROR_SHAPE_MISMATCH, parts);
}

class RankErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
};

TEST_P(RankErrors, ZeroDimensionalData) {
    auto call = valid_call(GetParam());
    reshape_data(*call, {});
    expect_shape_mismatch(context.get(), *call, {"data"});
}

TEST_P(RankErrors, ZeroDimensionalDataInPlace) {
    auto call = valid_call(GetParam());
    reshape_data(*call, {});
    call->data.fill(5.0);
    call->in_place();
    expect_shape_mismatch(context.get(), *call, {"data"});
}

TEST_P(RankErrors, RankAboveMaximum) {
    const std::vector<int64_t> ones(SCATTER_MAX_RANK + 1, 1);
    for (int which = 0; which < 3; ++which) {
        SCOPED_TRACE(which);
        auto call = valid_call(GetParam());
        scatter_tensor* t[] = {&call->data_desc, &call->indices_desc, &call->updates_desc};
        t[which]->rank = SCATTER_MAX_RANK + 1;
        t[which]->shape = ones.data();
        expect_shape_mismatch(context.get(), *call, {std::to_string(SCATTER_MAX_RANK + 1)});
    }
    auto call = valid_call(GetParam());
    call->data_desc.rank = 0xffffffffu;  // must be rejected before shape is read
    expect_shape_mismatch(context.get(), *call);
}

TEST_P(RankErrors, NegativeDimension) {
    for (int which = 0; which < 4; ++which) {
        SCOPED_TRACE(which);
        auto call = valid_call(GetParam());
        scatter_tensor* t[] = {&call->data_desc, &call->indices_desc, &call->updates_desc,
                               &call->out_desc};
        std::vector<int64_t> shape(t[which]->shape, t[which]->shape + t[which]->rank);
        shape.back() = -3;
        t[which]->shape = shape.data();
        expect_shape_mismatch(context.get(), *call, {"-3"});
    }
}

TEST_P(RankErrors, OutShapeDiffersFromData) {
    auto call = valid_call(GetParam());
    std::vector<int64_t> shape = call->data.shape();
    shape[1] += 1;
    call->out_desc.shape = shape.data();
    expect_shape_mismatch(context.get(), *call, {"out"});
    call = valid_call(GetParam());
    call->out_desc.rank = 1;  // rank differs
    expect_shape_mismatch(context.get(), *call, {"out"});
}

// Byte sizes beyond int64/size_t: the library must refuse them before touching memory (the host
// buffers are small; any access would be far out of bounds).
TEST_P(RankErrors, ByteSizeOverflows) {
    const std::vector<std::vector<int64_t>> huge_leading = {
        {int64_t{1} << 60, 3},  // element count fits, bytes (x element size) do not
        {INT64_MAX, 3},         // element count overflows
        {int64_t{1} << 32, int64_t{1} << 32},
    };
    for (const auto& dims : huge_leading) {
        SCOPED_TRACE(testing::Message() << dims[0] << " x " << dims[1]);
        auto call = valid_call(GetParam());
        std::vector<int64_t> shape = dims;
        // elements also needs indices.shape[1] = 4 <= data.shape[1].
        if (GetParam() == Op::elements && shape[1] < 4) shape[1] = 4;
        call->data_desc.shape = shape.data();
        call->out_desc.shape = shape.data();
        expect_shape_mismatch(context.get(), *call);
    }
}

INSTANTIATE_TEST_SUITE_P(AllOps, RankErrors, ::testing::ValuesIn(all_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

// --- elements -----------------------------------------------------------------------------------

class ElementsShapes : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(Op::elements);  // data [3,4], indices [2,4]
};

TEST_F(ElementsShapes, IndicesRankDiffersFromData) {
    reshape_indices(*call, {8});
    reshape_updates(*call, {8});
    expect_shape_mismatch(context.get(), *call, {"rank"});
}

TEST_F(ElementsShapes, UpdatesRankDiffersFromIndices) {
    reshape_updates(*call, {2, 4, 1});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

TEST_F(ElementsShapes, UpdatesShapeDiffersFromIndices) {
    reshape_updates(*call, {2, 3});
    expect_shape_mismatch(context.get(), *call, {"updates.shape[1] = 3", "indices.shape[1] = 4"});
}

TEST_F(ElementsShapes, IndicesLongerThanDataOffAxis) {
    reshape_indices(*call, {2, 5});
    reshape_updates(*call, {2, 5});
    expect_shape_mismatch(context.get(), *call, {"indices.shape[1] = 5", "4"});
}

TEST_F(ElementsShapes, IndicesLongerThanDataOffAxisWithNegativeAxis) {
    call->axis(-1);  // axis 1: now dimension 0 is off-axis and must be <= 3
    reshape_indices(*call, {4, 4});
    reshape_updates(*call, {4, 4});
    expect_shape_mismatch(context.get(), *call, {"indices.shape[0] = 4"});
}

TEST_F(ElementsShapes, IndicesLongerThanDataOnAxisIsValid) {
    reshape_indices(*call, {7, 4});
    reshape_updates(*call, {7, 4});
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

// --- rows ---------------------------------------------------------------------------------------

class RowsShapes : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(Op::rows);  // data [5,3], indices [4]
};

TEST_F(RowsShapes, UpdatesSliceDimensionWrong) {
    reshape_updates(*call, {4, 2});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

TEST_F(RowsShapes, UpdatesIndexDimensionWrong) {
    reshape_updates(*call, {3, 3});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

TEST_F(RowsShapes, UpdatesRankWrong) {
    reshape_updates(*call, {4, 3, 1});
    expect_shape_mismatch(context.get(), *call, {"updates"});
    reshape_updates(*call, {12});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

TEST_F(RowsShapes, UpdatesShapeWrongOnAxisOne) {
    call->axis(1);  // updates must be [5, 4]
    reshape_updates(*call, {4, 3});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

TEST_F(RowsShapes, ZeroDimensionalIndicesNeedUpdatesWithoutTheAxis) {
    reshape_indices(*call, {});
    call->indices.set(0, 2);
    reshape_updates(*call, {1, 3});  // must be [3]
    expect_shape_mismatch(context.get(), *call, {"updates"});
    reshape_updates(*call, {3});
    call->updates.fill(1.0);
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

// --- nd -----------------------------------------------------------------------------------------

class NdShapes : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(Op::nd);  // data [4,3], indices [2,1]
};

TEST_F(NdShapes, IndexDepthZero) {
    reshape_indices(*call, {2, 0});
    reshape_updates(*call, {2, 4, 3});
    expect_shape_mismatch(context.get(), *call, {"indices"});
}

TEST_F(NdShapes, IndexDepthAboveDataRank) {
    reshape_indices(*call, {2, 3});
    reshape_updates(*call, {2});
    expect_shape_mismatch(context.get(), *call, {"3"});
}

TEST_F(NdShapes, ZeroDimensionalIndices) {
    reshape_indices(*call, {});
    reshape_updates(*call, {3});
    expect_shape_mismatch(context.get(), *call, {"indices"});
}

TEST_F(NdShapes, UpdatesShapeWrong) {
    for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 2}, {3, 3}, {2}, {2, 3, 1}, {6}}) {
        SCOPED_TRACE(shape.size());
        reshape_updates(*call, shape);
        expect_shape_mismatch(context.get(), *call, {"updates"});
    }
}

TEST_F(NdShapes, UpdatesShapeWrongWithFullDepth) {
    reshape_indices(*call, {2, 2});  // k = r: updates must be [2]
    reshape_updates(*call, {2, 3});
    expect_shape_mismatch(context.get(), *call, {"updates"});
}

}  // namespace
}  // namespace scatter_test
