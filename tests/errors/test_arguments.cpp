// INVALID_ARGUMENT from the operations: null pointers, struct sizes, enums, flags and axes.
#include "scatter_call.h"

#include <climits>

namespace scatter_test {
namespace {

class ArgumentErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(GetParam());

    void expect_invalid(const std::vector<std::string>& parts = {}) {
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, parts);
    }
};

TEST_P(ArgumentErrors, TheValidCallSucceeds) {
    ASSERT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(ArgumentErrors, NullContext) {
    expect_rejected(nullptr, *call, SCATTER_ERROR_INVALID_ARGUMENT, {"context"});
}

TEST_P(ArgumentErrors, NullDataTensor) {
    call->data_arg = nullptr;
    expect_invalid({"data"});
}

TEST_P(ArgumentErrors, NullIndicesTensor) {
    call->indices_arg = nullptr;
    expect_invalid({"indices"});
}

TEST_P(ArgumentErrors, NullUpdatesTensor) {
    call->updates_arg = nullptr;
    expect_invalid({"updates"});
}

TEST_P(ArgumentErrors, NullOutTensor) {
    call->out_arg = nullptr;
    expect_invalid({"out"});
}

TEST_P(ArgumentErrors, NullOptionsMeanDefaults) {
    call->options_arg = nullptr;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(ArgumentErrors, NullHostPointerOfNonEmptyTensor) {
    for (const char* name : {"data", "indices", "updates", "out"}) {
        SCOPED_TRACE(name);
        call = valid_call(GetParam());
        scatter_tensor* broken = std::string(name) == "data"      ? &call->data_desc
                                 : std::string(name) == "indices" ? &call->indices_desc
                                 : std::string(name) == "updates" ? &call->updates_desc
                                                                  : &call->out_desc;
        broken->data = nullptr;
        expect_invalid({name});
    }
}

TEST_P(ArgumentErrors, NullShapeWithNonZeroRank) {
    call->updates_desc.shape = nullptr;
    expect_invalid({"updates"});
}

TEST_P(ArgumentErrors, TensorStructSizeTooSmall) {
    for (uint32_t size : {0u, 4u, static_cast<uint32_t>(sizeof(scatter_tensor)) - 1u}) {
        for (int which = 0; which < 4; ++which) {
            SCOPED_TRACE(testing::Message() << "tensor " << which << " struct_size " << size);
            call = valid_call(GetParam());
            scatter_tensor* t[] = {&call->data_desc, &call->indices_desc, &call->updates_desc,
                                   &call->out_desc};
            t[which]->struct_size = size;
            expect_invalid({"struct_size"});
        }
    }
}

TEST_P(ArgumentErrors, OptionsStructSizeTooSmall) {
    for (uint32_t size : {0u, 1u, static_cast<uint32_t>(sizeof(scatter_options)) - 1u}) {
        SCOPED_TRACE(size);
        call->options.struct_size = size;
        expect_invalid({"struct_size"});
    }
}

// A descriptor from a newer header: larger struct_size, zero tail accepted, nonzero tail refused.
TEST_P(ArgumentErrors, LargerStructSizeNeedsZeroTail) {
    struct NewerOptions {
        scatter_options known;
        uint32_t tail[4];
    } newer = {call->options, {0, 0, 0, 0}};
    newer.known.struct_size = sizeof(NewerOptions);
    call->options_arg = &newer.known;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    newer.tail[2] = 1;
    expect_rejected(context.get(), *call, SCATTER_ERROR_UNSUPPORTED);

    call = valid_call(GetParam());
    struct NewerTensor {
        scatter_tensor known;
        uint64_t tail[2];
    } tensor = {call->updates_desc, {0, 0}};
    tensor.known.struct_size = sizeof(NewerTensor);
    call->updates_arg = &tensor.known;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    tensor.tail[1] = 0x100;
    expect_rejected(context.get(), *call, SCATTER_ERROR_UNSUPPORTED);
}

TEST_P(ArgumentErrors, BadDataDtypeEnum) {
    for (int value : {0, 17, 1000, -1}) {
        SCOPED_TRACE(value);
        call = valid_call(GetParam());
        call->data_desc.dtype = static_cast<scatter_dtype>(value);
        expect_invalid({"data"});
    }
}

TEST_P(ArgumentErrors, BadUpdatesAndOutDtypeEnum) {
    call->updates_desc.dtype = static_cast<scatter_dtype>(77);
    expect_invalid({"updates"});
    call = valid_call(GetParam());
    call->out_desc.dtype = SCATTER_DTYPE_UNDEFINED;
    expect_invalid({"out"});
}

TEST_P(ArgumentErrors, BadIndexDtypeEnum) {
    call->indices_desc.dtype = static_cast<scatter_dtype>(99);
    expect_invalid({"indices"});
}

TEST_P(ArgumentErrors, BadReductionEnum) {
    for (int value : {9, 100, -1}) {
        SCOPED_TRACE(value);
        call->reduction(static_cast<scatter_reduction>(value));
        expect_invalid({"reduction"});
    }
}

TEST_P(ArgumentErrors, BadOutOfRangePolicyEnum) {
    for (int value : {4, 12345, -2}) {
        SCOPED_TRACE(value);
        call->policy(static_cast<scatter_out_of_range>(value));
        expect_invalid({"out_of_range"});
    }
}

TEST_P(ArgumentErrors, UnknownOptionFlags) {
    for (uint32_t flags : {0x4u, 0x80000000u, 0xffffffffu}) {
        SCOPED_TRACE(flags);
        call->flags(flags);
        expect_invalid({"flags"});
    }
}

TEST_P(ArgumentErrors, WrongElementSizeForSizedDtype) {
    call->data_desc.element_size = 8;  // f32 is 4 bytes
    expect_invalid({"element_size"});
}

INSTANTIATE_TEST_SUITE_P(AllOps, ArgumentErrors, ::testing::ValuesIn(all_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

// --- axis ---------------------------------------------------------------------------------------

class AxisErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
};

TEST_P(AxisErrors, AxisOutsideMinusRankToRank) {
    // elements and rows on rank-2 data: valid axes are -2..1.
    for (int32_t axis : {2, 3, 100, INT_MAX, -3, -100, INT_MIN}) {
        SCOPED_TRACE(axis);
        auto call = valid_call(GetParam());
        call->axis(axis);
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT,
                        {"axis", std::to_string(axis)});
    }
}

TEST_P(AxisErrors, NegativeAxisInsideRangeIsValid) {
    auto call = valid_call(GetParam());
    call->axis(-2);  // the same as 0 on rank-2 data
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

INSTANTIATE_TEST_SUITE_P(ElementsAndRows, AxisErrors,
                         ::testing::Values(Op::elements, Op::rows),
                         [](const auto& info) { return std::string(op_name(info.param)); });

TEST(AxisErrorsNd, AxisMustBeZero) {
    ContextPtr context = make_test_context();
    for (int32_t axis : {1, -1, -2, 5}) {
        SCOPED_TRACE(axis);
        auto call = valid_call(Op::nd);
        call->axis(axis);
        expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"axis"});
    }
}

}  // namespace
}  // namespace scatter_test
