// INDEX_OUT_OF_RANGE under the ERROR policy: for every op, both index dtypes, at the first,
// a middle and the last index position, above s and below -s.
#include "scatter_call.h"

#include <cstdint>
#include <limits>

namespace scatter_test {
namespace {

struct IndexCase {
    Op op;
    scatter_dtype index_dtype;
};

std::string case_name(const ::testing::TestParamInfo<IndexCase>& info) {
    return std::string(op_name(info.param.op)) + "_" + scatter_dtype_name(info.param.index_dtype);
}

// The size of the dimension the indices of valid_call(op) address (axis 0 / first coordinate).
int64_t addressed_size(Op op) {
    switch (op) {
    case Op::elements: return 3;
    case Op::rows: return 5;
    case Op::nd: return 4;
    }
    return 0;
}

class IndexErrors : public ::testing::TestWithParam<IndexCase> {
protected:
    ContextPtr context = make_test_context();

    std::unique_ptr<ScatterCall> call_with_index(int64_t position, double value) {
        auto call = valid_call(GetParam().op, SCATTER_DTYPE_F32, GetParam().index_dtype);
        call->indices.set(position, value);
        return call;
    }

    std::vector<double> bad_values() const {
        const int64_t s = addressed_size(GetParam().op);
        const bool is32 = GetParam().index_dtype == SCATTER_DTYPE_I32;
        return {static_cast<double>(s), static_cast<double>(s + 1), static_cast<double>(-s - 1),
                is32 ? static_cast<double>(INT32_MAX) : 9.0e18,
                is32 ? static_cast<double>(INT32_MIN) : -9.0e18};
    }
};

TEST_P(IndexErrors, AtFirstMiddleAndLastPosition) {
    auto probe = valid_call(GetParam().op);
    const int64_t count = probe->indices.element_count();
    for (int64_t position : {int64_t{0}, count / 2, count - 1}) {
        for (double value : bad_values()) {
            SCOPED_TRACE(testing::Message() << "position " << position << " value " << value);
            for (scatter_out_of_range policy :
                 {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_DEFAULT}) {
                auto call = call_with_index(position, value);
                call->policy(policy);
                expect_rejected(context.get(), *call, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                                {"indices"});
            }
            auto in_place = call_with_index(position, value);
            in_place->reduction(SCATTER_REDUCTION_ADD).in_place();
            expect_rejected(context.get(), *in_place, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
        }
    }
}

TEST_P(IndexErrors, SameIndicesAreFineUnderSkipAndClamp) {
    for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_SKIP, SCATTER_OUT_OF_RANGE_CLAMP}) {
        auto call = call_with_index(0, bad_values().front());
        call->policy(policy);
        EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, IndexErrors,
    ::testing::Values(IndexCase{Op::elements, SCATTER_DTYPE_I32},
                      IndexCase{Op::elements, SCATTER_DTYPE_I64},
                      IndexCase{Op::rows, SCATTER_DTYPE_I32}, IndexCase{Op::rows, SCATTER_DTYPE_I64},
                      IndexCase{Op::nd, SCATTER_DTYPE_I32}, IndexCase{Op::nd, SCATTER_DTYPE_I64}),
    case_name);

// The messages name the position, the value and the valid range.
TEST(IndexMessages, ElementsNamesPositionValueAndRange) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::elements);  // data [3,4], indices [2,4], axis 0
    call->indices.set(1 * 4 + 2, 7);
    expect_rejected(context.get(), *call, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                    {"indices[1][2] = 7", "[-3, 3)"});
}

TEST(IndexMessages, ElementsOnAxisOneUsesThatDimension) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::elements);  // axis 1: s = 4
    call->axis(1);
    call->indices.set_all({0, 1, 2, 3, -4, -1, 0, 0});
    ASSERT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    call->indices.set(5, -5);
    expect_rejected(context.get(), *call, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                    {"indices[1][1] = -5", "[-4, 4)"});
}

TEST(IndexMessages, RowsNamesPositionValueAndRange) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::rows);  // data [5,3], indices [4]
    call->indices.set(2, 9);
    expect_rejected(context.get(), *call, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                    {"indices[2] = 9", "[-5, 5)"});
}

TEST(IndexMessages, NdNamesTheCoordinateAndItsDimension) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::nd);  // data [4,3]
    HostTensor indices(SCATTER_DTYPE_I64, {3, 2});
    indices.set_all({0, 0, 1, 3, 2, 1});  // second coordinate addresses dimension 1 (s = 3)
    call->indices = std::move(indices);
    call->indices_desc = call->indices.descriptor();
    call->updates = HostTensor(SCATTER_DTYPE_F32, {3});
    call->updates_desc = call->updates.descriptor();
    expect_rejected(context.get(), *call, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                    {"indices[1][1] = 3", "[-3, 3)"});
}

}  // namespace
}  // namespace scatter_test
