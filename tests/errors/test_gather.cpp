// Every status of the gathers, provoked on purpose, each call checked to leave out (and its
// inputs) byte-for-byte unchanged: null pointers, struct sizes, enums (SKIP is no gather policy),
// axes, batch_dims, flags, dtypes, shapes, overlaps, and indices under ERROR and CLAMP. The same
// on a Vulkan context (errors.vulkan_matrix), whose index checks run on the GPU.
#include "gather_call.h"
#include "scatter_call.h"

#include <cstring>

namespace scatter_test {
namespace {

class GatherErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
    std::unique_ptr<GatherCall> call = valid_gather(GetParam());

    void expect(scatter_status status, const std::vector<std::string>& parts = {}) {
        expect_gather_rejected(context.get(), *call, status, parts);
    }
};

TEST_P(GatherErrors, TheValidCallSucceeds) {
    ASSERT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    call->options_arg = nullptr;  // NULL options are the defaults
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(GatherErrors, NullContextAndTensors) {
    expect_gather_rejected(nullptr, *call, SCATTER_ERROR_INVALID_ARGUMENT, {"context"});
    call->data_arg = nullptr;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"data is NULL"});
    call = valid_gather(GetParam());
    call->indices_arg = nullptr;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"indices is NULL"});
    call = valid_gather(GetParam());
    call->out_arg = nullptr;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out is NULL"});
}

TEST_P(GatherErrors, NullHostPointerOfNonEmptyTensor) {
    for (int which = 0; which < 3; ++which) {
        call = valid_gather(GetParam());
        scatter_tensor* t[] = {&call->data_desc, &call->indices_desc, &call->out_desc};
        const char* names[] = {"data", "indices", "out"};
        t[which]->data = nullptr;
        expect(SCATTER_ERROR_INVALID_ARGUMENT, {std::string(names[which]) + ".data is NULL"});
    }
}

TEST_P(GatherErrors, StructSizes) {
    call->options.struct_size = sizeof(scatter_gather_options) - 1;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.struct_size"});
    call = valid_gather(GetParam());
    call->out_desc.struct_size = 4;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out.struct_size"});
    // A newer header's larger options with a nonzero field this library does not know.
    struct {
        scatter_gather_options known;
        uint64_t future;
    } larger{};
    larger.known = call->options;
    larger.known.struct_size = sizeof larger;
    larger.future = 1;
    call = valid_gather(GetParam());
    call->options_arg = &larger.known;
    expect(SCATTER_ERROR_UNSUPPORTED, {"options"});
}

TEST_P(GatherErrors, PoliciesOtherThanErrorClampFill) {
    call->options.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"SKIP is not a gather policy"});
    for (int bad : {5, 77, -1}) {
        call->options.out_of_range = scatter_out_of_range(bad);
        expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.out_of_range = " + std::to_string(bad)});
    }
}

TEST_P(GatherErrors, FlagsMustBeZero) {
    call->options.flags = SCATTER_OPTION_ALLOW_NONDETERMINISM;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.flags"});
}

TEST_P(GatherErrors, AxisAndBatchDims) {
    if (GetParam() == Op::nd) {
        call->options.axis = 1;
        expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.axis = 1"});
        call->options.axis = 0;
        call->options.batch_dims = 2;  // data and indices have rank 2
        expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.batch_dims = 2"});
        return;
    }
    for (int32_t axis : {2, -3, 1000}) {
        call->options.axis = axis;
        expect(SCATTER_ERROR_INVALID_ARGUMENT, {"axis = " + std::to_string(axis) + " is outside [-2, 2)"});
    }
    call->options.axis = 0;
    call->options.batch_dims = 1;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"options.batch_dims = 1 must be 0"});
}

TEST_P(GatherErrors, Dtypes) {
    call->out_desc.dtype = SCATTER_DTYPE_I32;  // same size, other dtype
    expect(SCATTER_ERROR_TYPE_MISMATCH, {"out.dtype = i32 must equal data.dtype = f32"});
    for (scatter_dtype index_dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_I16, SCATTER_DTYPE_U64}) {
        call = valid_gather(GetParam());
        call->indices_desc.dtype = index_dtype;
        call->indices_desc.element_size = 0;
        expect(SCATTER_ERROR_TYPE_MISMATCH, {"indices.dtype"});
    }
    call = valid_gather(GetParam(), SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I32, 3);
    call->out_desc.element_size = 6;  // shape and storage of 3-byte elements, described as 6
    expect(SCATTER_ERROR_TYPE_MISMATCH, {"out.element_size = 6 must equal data.element_size = 3"});
}

TEST_P(GatherErrors, OutRankAndShape) {
    HostTensor wrong_rank(SCATTER_DTYPE_F32, {2, 3, 1});
    call->set_out(std::move(wrong_rank));
    expect(SCATTER_ERROR_SHAPE_MISMATCH, {"out.rank = 3"});
    call = valid_gather(GetParam());
    Shape shape = call->out.shape();
    shape[1] += 1;
    call->set_out(HostTensor(SCATTER_DTYPE_F32, shape));
    expect(SCATTER_ERROR_SHAPE_MISMATCH, {"out.shape[1]"});
}

TEST_P(GatherErrors, ZeroDimensionalData) {
    call->data_desc.rank = 0;
    expect(SCATTER_ERROR_SHAPE_MISMATCH, {"data is 0-d"});
}

TEST_P(GatherErrors, OutOverlapsDataOrIndices) {
    // out placed over data's bytes (shifted by one element), then over indices'.
    call->out_desc.data = static_cast<char*>(call->data_desc.data) + 4;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out overlaps data"});
    call = valid_gather(GetParam());
    call->out_desc.data = call->data_desc.data;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out overlaps data"});
    call = valid_gather(GetParam());
    call->out_desc.data = call->indices_desc.data;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out overlaps indices"});
}

TEST_P(GatherErrors, OutWithAZeroStride) {
    const int64_t strides[] = {0, 1};
    call->out_desc.strides = strides;
    expect(SCATTER_ERROR_INVALID_ARGUMENT, {"out.strides[0] = 0"});
}

TEST_P(GatherErrors, InputsMayBroadcast) {
    const int64_t data_strides[] = {0, 1}, index_strides[] = {0, 0};
    call->data_desc.strides = data_strides;
    call->indices_desc.strides = index_strides;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(GatherErrors, IndexOutOfRangeUnderError) {
    const int64_t s = GetParam() == Op::elements ? 3 : GetParam() == Op::rows ? 5 : 4;
    for (scatter_dtype index_dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_I64}) {
        const int64_t count = valid_gather(GetParam())->indices.element_count();
        const double extreme = index_dtype == SCATTER_DTYPE_I32 ? double(INT32_MIN) : -9.0e18;
        for (int64_t position : {int64_t{0}, count / 2, count - 1}) {
            for (double value : {double(s), double(-s - 1), extreme}) {
                SCOPED_TRACE(testing::Message() << scatter_dtype_name(index_dtype) << " position " << position
                                                << " value " << value);
                for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_DEFAULT}) {
                    call = valid_gather(GetParam(), SCATTER_DTYPE_F32, index_dtype);
                    call->indices.set(position, value);
                    call->options.out_of_range = policy;
                    expect(SCATTER_ERROR_INDEX_OUT_OF_RANGE, {"is outside [-" + std::to_string(s)});
                }
                for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_CLAMP, SCATTER_OUT_OF_RANGE_FILL}) {
                    call = valid_gather(GetParam(), SCATTER_DTYPE_F32, index_dtype);
                    call->indices.set(position, value);
                    call->options.out_of_range = policy;
                    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
                }
            }
        }
    }
}

TEST_P(GatherErrors, ClampIntoAnEmptyAxis) {
    // data [0, 3]: axis 0 is empty, so no index has an element to clamp to; FILL fills.
    Shape out_shape = GetParam() == Op::elements ? Shape{2, 3} : GetParam() == Op::rows ? Shape{4, 3} : Shape{2, 3};
    Shape index_shape = GetParam() == Op::elements ? Shape{2, 3} : GetParam() == Op::rows ? Shape{4} : Shape{2, 1};
    for (scatter_out_of_range policy : {SCATTER_OUT_OF_RANGE_CLAMP, SCATTER_OUT_OF_RANGE_FILL}) {
        HostTensor indices(SCATTER_DTYPE_I64, index_shape);
        indices.fill(0);
        GatherCall empty(GetParam(), HostTensor(SCATTER_DTYPE_F32, {0, 3}), std::move(indices),
                         HostTensor(SCATTER_DTYPE_F32, out_shape));
        empty.options.out_of_range = policy;
        if (policy == SCATTER_OUT_OF_RANGE_CLAMP)
            expect_gather_rejected(context.get(), empty, SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                                   {"indices[0]", "= 0 cannot be clamped into axis 0 of size 0"});
        else
            EXPECT_EQ(empty.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    }
}

INSTANTIATE_TEST_SUITE_P(AllOps, GatherErrors, ::testing::ValuesIn(all_ops()),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

class GatherShapes : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
};

TEST_F(GatherShapes, ElementsIndicesRankAndSize) {
    auto call = valid_gather(Op::elements);
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {2, 4, 1}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"indices.rank = 3 must equal 2"});
    call = valid_gather(Op::elements);
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {2, 5}));  // 5 > data.shape[1] = 4, off the axis
    call->set_out(HostTensor(SCATTER_DTYPE_F32, {2, 5}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH,
                           {"indices.shape[1] = 5 must not exceed data.shape[1] = 4"});
}

TEST_F(GatherShapes, RowsOutNeedsTheIndexDimensions) {
    auto call = valid_gather(Op::rows);  // data [5, 3], indices [4]: out [4, 3]
    call->options.axis = 1;              // out would be [5, 4]
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"out.shape[0] = 4 must equal data.shape[0] = 5"});
    call = valid_gather(Op::rows);
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {}));  // 0-d: out [3]
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"out.rank = 2 must equal 1"});
}

TEST_F(GatherShapes, NdIndexDepthAndBatchDimensions) {
    auto call = valid_gather(Op::nd);  // data [4, 3]
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {2, 0}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"(the index depth) must be in [1, 2]"});
    call = valid_gather(Op::nd);
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {2, 3}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"indices.shape[1] = 3"});
    call = valid_gather(Op::nd);
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"indices is 0-d"});
    // batch_dims 1: indices.shape[0] must be data.shape[0] = 4, and k <= 1.
    call = valid_gather(Op::nd);  // indices [2, 1]
    call->options.batch_dims = 1;
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"indices.shape[0] = 2 must equal data.shape[0] = 4"});
    call = valid_gather(Op::nd);
    call->options.batch_dims = 1;
    call->set_indices(HostTensor(SCATTER_DTYPE_I64, {4, 2}));
    expect_gather_rejected(context.get(), *call, SCATTER_ERROR_SHAPE_MISMATCH, {"must be in [1, 1]"});
}

TEST_F(GatherShapes, NdMessagesNameTheCoordinateAxisWithBatchDims) {
    // data [2, 4, 3], batch_dims 1, indices [2, 1, 2]: coordinate 1 addresses data axis 2 (s = 3).
    HostTensor indices(SCATTER_DTYPE_I32, {2, 1, 2});
    indices.set_all({0, 0, 3, 3});
    GatherCall call(Op::nd, HostTensor(SCATTER_DTYPE_F32, {2, 4, 3}), std::move(indices), HostTensor(SCATTER_DTYPE_F32, {2, 1}));
    call.options.batch_dims = 1;
    expect_gather_rejected(context.get(), call, SCATTER_ERROR_INDEX_OUT_OF_RANGE, {"indices[1][0][1] = 3 is outside [-3, 3) on axis 2"});
}

// Empty indices and out may have NULL data pointers; the call does nothing.
TEST_F(GatherShapes, EmptyTensorsAreValid) {
    GatherCall call(Op::rows, HostTensor(SCATTER_DTYPE_F32, {5, 3}), HostTensor(SCATTER_DTYPE_I64, {0}),
                    HostTensor(SCATTER_DTYPE_F32, {0, 3}));
    call.data_desc.data = nullptr;  // data itself is not empty
    expect_gather_rejected(context.get(), call, SCATTER_ERROR_INVALID_ARGUMENT, {"data.data is NULL"});
    call.data_desc = call.data.descriptor();
    call.indices_desc.data = nullptr;
    call.out_desc.data = nullptr;
    EXPECT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

}  // namespace
}  // namespace scatter_test
