// TYPE_MISMATCH and UNSUPPORTED: dtype agreement, index dtypes, and docs/semantics.md's table of which
// reductions each dtype allows (checked both ways: refused pairs fail, allowed pairs run).
#include "scatter_call.h"

#include <cstdlib>
#include <string>

namespace scatter_test {
namespace {

// docs/semantics.md: float and integer dtypes: all; complex: none/add/sub/mul/div/mean;
// bool: none/add/mul; opaque: none.
bool reduction_allowed(scatter_dtype dtype, scatter_reduction r) {
    switch (dtype) {
    case SCATTER_DTYPE_C64:
    case SCATTER_DTYPE_C128: return r != SCATTER_REDUCTION_MAX && r != SCATTER_REDUCTION_MIN;
    case SCATTER_DTYPE_BOOL:
        return r == SCATTER_REDUCTION_NONE || r == SCATTER_REDUCTION_ADD ||
               r == SCATTER_REDUCTION_MUL;
    case SCATTER_DTYPE_OPAQUE: return r == SCATTER_REDUCTION_NONE;
    default: return true;
    }
}

const std::vector<scatter_reduction>& all_reductions() {
    static const std::vector<scatter_reduction> reductions = {
        SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB,
        SCATTER_REDUCTION_MUL,  SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MAX,
        SCATTER_REDUCTION_MIN,  SCATTER_REDUCTION_MEAN};
    return reductions;
}

class TypeErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
};

TEST_P(TypeErrors, UpdatesDtypeDiffersFromData) {
    auto call = valid_call(GetParam());
    call->updates = HostTensor(SCATTER_DTYPE_F64, call->updates.shape());
    call->updates_desc = call->updates.descriptor();
    expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH, {"f64", "f32"});
}

TEST_P(TypeErrors, OutDtypeDiffersFromData) {
    auto call = valid_call(GetParam());
    call->out_desc.dtype = SCATTER_DTYPE_I32;  // same element size, different dtype
    expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH, {"i32", "f32"});
}

TEST_P(TypeErrors, SignednessCountsAsADifferentDtype) {
    auto call = valid_call(GetParam(), SCATTER_DTYPE_I32);
    call->updates_desc.dtype = SCATTER_DTYPE_U32;
    expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH, {"u32"});
}

TEST_P(TypeErrors, IndexDtypeNotI32OrI64) {
    for (scatter_dtype dtype : all_data_dtypes()) {
        if (dtype == SCATTER_DTYPE_I32 || dtype == SCATTER_DTYPE_I64) continue;
        SCOPED_TRACE(scatter_dtype_name(dtype));
        auto call = valid_call(GetParam());
        HostTensor indices(dtype, call->indices.shape(), 4);
        call->indices = std::move(indices);
        call->indices_desc = call->indices.descriptor();
        expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH,
                        {"indices", scatter_dtype_name(dtype)});
    }
}

TEST_P(TypeErrors, OpaqueElementSizeZero) {
    auto call = valid_call(GetParam(), SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I64, 4);
    call->data_desc.element_size = 0;
    expect_rejected(context.get(), *call, SCATTER_ERROR_INVALID_ARGUMENT, {"element_size"});
}

TEST_P(TypeErrors, OpaqueElementSizesDiffer) {
    auto call = valid_call(GetParam(), SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I64, 8);
    call->updates_desc.element_size = 4;
    expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH, {"element_size"});
    call = valid_call(GetParam(), SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I64, 8);
    call->out_desc.element_size = 2;
    expect_rejected(context.get(), *call, SCATTER_ERROR_TYPE_MISMATCH, {"element_size"});
}

// Every refused pair of the table fails with UNSUPPORTED, out of place and in place, also with
// exclude_self; every allowed pair runs.
// SCATTER_ERRORS_REFUSALS_ONLY=1: the refused pairs only (the sanitizer build on lavapipe, where
// each allowed pair's valid call compiles pipelines: 62 s of its stage; the Release runs call them).
bool refusals_only() {
    const char* text = std::getenv("SCATTER_ERRORS_REFUSALS_ONLY");
    return text != nullptr && std::string(text) == "1";
}

TEST_P(TypeErrors, ReductionTable) {
    for (scatter_dtype dtype : all_data_dtypes()) {
        for (scatter_reduction reduction : all_reductions()) {
            for (uint32_t flags : {0u, SCATTER_OPTION_EXCLUDE_SELF}) {
                SCOPED_TRACE(testing::Message() << scatter_dtype_name(dtype) << " "
                                                << scatter_reduction_name(reduction) << " flags "
                                                << flags);
                auto call = valid_call(GetParam(), dtype);
                call->reduction(reduction).flags(flags);
                if (reduction_allowed(dtype, reduction)) {
                    if (refusals_only()) continue;
                    EXPECT_EQ(call->run(context.get()), SCATTER_OK)
                        << scatter_last_error_message();
                    continue;
                }
                expect_rejected(context.get(), *call, SCATTER_ERROR_UNSUPPORTED,
                                {scatter_dtype_name(dtype), scatter_reduction_name(reduction)});
                call = valid_call(GetParam(), dtype);
                call->reduction(reduction).flags(flags).in_place();
                expect_rejected(context.get(), *call, SCATTER_ERROR_UNSUPPORTED);
            }
        }
    }
}

TEST_P(TypeErrors, DefaultReductionIsNoneForOpaque) {
    auto call = valid_call(GetParam(), SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I32, 3);
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

INSTANTIATE_TEST_SUITE_P(AllOps, TypeErrors, ::testing::ValuesIn(all_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

}  // namespace
}  // namespace scatter_test
