// INVALID_ARGUMENT for an `out` that overlaps its inputs other than exactly (in place), or whose
// own elements overlap. All tensors live in one arena so overlaps are real and the whole arena can
// be checked for changes.
#include "scatter_call.h"

#include <cstring>

namespace scatter_test {
namespace {

constexpr size_t kArenaBytes = 4096;
constexpr size_t kDataAt = 256, kIndicesAt = 1024, kUpdatesAt = 2048, kOutAt = 3072;

class OverlapErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(GetParam());
    std::vector<uint8_t> arena = std::vector<uint8_t>(kArenaBytes);

    // Copies the call's tensors into the arena and points the descriptors there.
    void SetUp() override {
        for (size_t i = 0; i < arena.size(); ++i) arena[i] = static_cast<uint8_t>(i * 13 + 1);
        place(call->data, call->data_desc, kDataAt);
        place(call->indices, call->indices_desc, kIndicesAt);
        place(call->updates, call->updates_desc, kUpdatesAt);
        call->out_desc.data = arena.data() + kOutAt;
        ASSERT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    }

    void place(const HostTensor& t, scatter_tensor& desc, size_t at) {
        std::memcpy(arena.data() + at, t.storage().data(), t.storage().size());
        desc.data = arena.data() + at;
    }

    void expect_overlap_rejected() {
        const std::vector<uint8_t> before = arena;
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"out"});
        EXPECT_TRUE(arena == before) << "the arena changed";
    }
};

TEST_P(OverlapErrors, OutPartiallyOverlapsData) {
    for (size_t shift : {size_t{4}, size_t{20}}) {
        call->out_desc.data = arena.data() + kDataAt + shift;
        expect_overlap_rejected();
        call->out_desc.data = arena.data() + kDataAt - shift;
        expect_overlap_rejected();
    }
}

TEST_P(OverlapErrors, OutIsDataWithOtherStrides) {
    // data is [r, c] row-major; out covers the same bytes column-major.
    const int64_t column_major[2] = {1, call->data.shape()[0]};
    call->out_desc.data = call->data_desc.data;
    call->out_desc.strides = column_major;
    expect_overlap_rejected();
}

TEST_P(OverlapErrors, OutOverlapsUpdates) {
    call->out_desc.data = arena.data() + kUpdatesAt;
    expect_overlap_rejected();
    call->out_desc.data = arena.data() + kUpdatesAt - 8;
    expect_overlap_rejected();
}

TEST_P(OverlapErrors, OutOverlapsIndices) {
    call->out_desc.data = arena.data() + kIndicesAt + 8;
    expect_overlap_rejected();
}

TEST_P(OverlapErrors, OutWithZeroStrideOnALongDimension) {
    const int64_t broadcast_rows[2] = {0, 1};
    call->out_desc.strides = broadcast_rows;
    expect_overlap_rejected();
    const int64_t broadcast_cols[2] = {call->data.shape()[1], 0};
    call->out_desc.strides = broadcast_cols;
    expect_overlap_rejected();
}

TEST_P(OverlapErrors, InPlaceWithZeroStrideIsRejected) {
    const int64_t broadcast_rows[2] = {0, 1};
    call->data_desc.strides = broadcast_rows;
    call->out_desc = call->data_desc;
    expect_overlap_rejected();
}

TEST_P(OverlapErrors, OutNeighbouringDataWithoutOverlapIsValid) {
    call->out_desc.data = arena.data() + kDataAt + call->data.storage().size();
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(OverlapErrors, InPlaceIsValid) {
    call->out_desc = call->data_desc;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

INSTANTIATE_TEST_SUITE_P(AllOps, OverlapErrors, ::testing::ValuesIn(all_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

// A stride on a dimension of size 1 never matters, so a zero there is no self-overlap.
TEST(OverlapValid, ZeroStrideOnADimensionOfOne) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::elements);  // data [3,4]: viewed here as [1,12]
    const int64_t flat_shape[2] = {1, 12};
    const int64_t strides[2] = {0, 1};
    const int64_t index_shape[2] = {1, 4};  // the first row of indices [2,4]
    call->data_desc.shape = flat_shape;
    call->out_desc.shape = flat_shape;
    call->out_desc.strides = strides;
    call->indices_desc.shape = index_shape;
    call->updates_desc.shape = index_shape;
    call->axis(1);
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

}  // namespace
}  // namespace scatter_test
