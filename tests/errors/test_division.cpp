// Integer division by zero is INVALID_ARGUMENT, found before anything is written — but only for
// updates that are applied: a zero divisor in an update that the SKIP policy drops is fine.
#include "scatter_call.h"

namespace scatter_test {
namespace {

struct DivisionCase {
    Op op;
    scatter_dtype dtype;
};

std::vector<DivisionCase> all_division_cases() {
    std::vector<DivisionCase> cases;
    for (Op op : all_ops())
        for (scatter_dtype dtype : integer_dtypes()) cases.push_back({op, dtype});
    return cases;
}

// Position in the indices of valid_call(op) that decides where update element p goes.
int64_t index_position_of_update(Op op, int64_t p) {
    return op == Op::elements ? p : p / 3;  // rows and nd move slices of 3 elements
}

class DivisionByZero : public ::testing::TestWithParam<DivisionCase> {
protected:
    ContextPtr context = make_test_context();

    std::unique_ptr<ScatterCall> call_with_zero_at(int64_t p) {
        auto call = valid_call(GetParam().op, GetParam().dtype);
        call->updates.set(p, 0);
        call->reduction(SCATTER_REDUCTION_DIV);
        return call;
    }
};

TEST_P(DivisionByZero, ZeroDivisorIsAnError) {
    const int64_t count = valid_call(GetParam().op)->updates.element_count();
    for (int64_t p : {int64_t{0}, count / 2 + 1, count - 1}) {
        SCOPED_TRACE(p);
        auto call = call_with_zero_at(p);
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"zero"});
        call = call_with_zero_at(p);
        call->flags(SCATTER_OPTION_EXCLUDE_SELF);
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"zero"});
        call = call_with_zero_at(p);
        call->in_place();
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"zero"});
    }
}

TEST_P(DivisionByZero, ZeroDivisorOfAClampedUpdateIsStillAnError) {
    auto call = call_with_zero_at(4);
    call->indices.set(index_position_of_update(GetParam().op, 4), 1000);
    call->policy(SCATTER_OUT_OF_RANGE_CLAMP);
    expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"zero"});
}

TEST_P(DivisionByZero, ZeroDivisorOfASkippedUpdateIsNotAnError) {
    auto call = call_with_zero_at(4);
    call->indices.set(index_position_of_update(GetParam().op, 4), 1000);
    call->policy(SCATTER_OUT_OF_RANGE_SKIP);
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    call->flags(SCATTER_OPTION_EXCLUDE_SELF).in_place();
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(DivisionByZero, ZeroUpdateIsFineForOtherReductions) {
    for (scatter_reduction r : {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD,
                                SCATTER_REDUCTION_MUL, SCATTER_REDUCTION_MEAN}) {
        auto call = call_with_zero_at(0);
        call->reduction(r);
        EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    }
}

INSTANTIATE_TEST_SUITE_P(AllOpsAllIntegers, DivisionByZero,
                         ::testing::ValuesIn(all_division_cases()), [](const auto& info) {
                             return std::string(op_name(info.param.op)) + "_" +
                                    scatter_dtype_name(info.param.dtype);
                         });

TEST(FloatDivision, ZeroDivisorIsNotAnError) {
    ContextPtr context = make_test_context();
    for (scatter_dtype dtype : {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,
                                SCATTER_DTYPE_F64, SCATTER_DTYPE_C64, SCATTER_DTYPE_C128}) {
        SCOPED_TRACE(scatter_dtype_name(dtype));
        auto call = valid_call(Op::rows, dtype);
        call->updates.set(0, 0);
        call->reduction(SCATTER_REDUCTION_DIV);
        EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    }
}

}  // namespace
}  // namespace scatter_test
