// Every status of the backward calls, provoked on purpose, each call checked to leave grad_data
// and grad_updates byte-for-byte unchanged: null pointers, options, dtypes (no gradient for
// integers, bool, complex), shapes, overlaps and indices. On a Vulkan context
// (errors.vulkan_matrix) a valid scatter backward is UNSUPPORTED (no Vulkan kernels yet); gather's
// backward runs there with the CPU's statuses.
#include "host_tensor.h"
#include "scatter_call.h"

#include <cstring>

namespace scatter_test {
namespace {

bool on_vulkan(scatter_context context) {
    scatter_backend backend = SCATTER_BACKEND_CPU;
    return scatter_context_backend(context, &backend) == SCATTER_OK && backend == SCATTER_BACKEND_VULKAN;
}

// A valid elements backward (max, axis 1): data [3, 4], indices/updates [3, 2].
struct BackwardCall {
    HostTensor data, indices, updates, out, grad_out, grad_data, grad_updates;
    scatter_tensor data_desc, indices_desc, updates_desc, out_desc, grad_out_desc, grad_data_desc, grad_updates_desc;
    const scatter_tensor *data_arg, *indices_arg, *updates_arg, *out_arg, *grad_out_arg, *grad_data_arg,
        *grad_updates_arg;
    scatter_options options = SCATTER_OPTIONS_INIT;

    explicit BackwardCall(scatter_dtype dtype = SCATTER_DTYPE_F32)
        : data(dtype, {3, 4}), indices(SCATTER_DTYPE_I64, {3, 2}), updates(dtype, {3, 2}), out(dtype, {3, 4}),
          grad_out(dtype, {3, 4}), grad_data(dtype, {3, 4}), grad_updates(dtype, {3, 2}) {
        data.fill(1.0);
        updates.fill(2.0);
        out.fill(2.0);
        grad_out.fill(1.0);
        for (int64_t i = 0; i < 6; ++i) indices.set(i, double(i % 4));
        grad_data.fill_sentinel(1);
        grad_updates.fill_sentinel(2);
        options.axis = 1;
        options.reduction = SCATTER_REDUCTION_MAX;
        describe();
    }
    // Refreshes the descriptors after a tensor was replaced.
    void describe() {
        data_desc = data.descriptor();
        indices_desc = indices.descriptor();
        updates_desc = updates.descriptor();
        out_desc = out.descriptor();
        grad_out_desc = grad_out.descriptor();
        grad_data_desc = grad_data.descriptor();
        grad_updates_desc = grad_updates.descriptor();
        data_arg = &data_desc;
        indices_arg = &indices_desc;
        updates_arg = &updates_desc;
        out_arg = &out_desc;
        grad_out_arg = &grad_out_desc;
        grad_data_arg = &grad_data_desc;
        grad_updates_arg = &grad_updates_desc;
    }
    scatter_status run(scatter_context context) const {
        return scatter_elements_backward(context, data_arg, indices_arg, updates_arg, out_arg, grad_out_arg,
                                         &options, grad_data_arg, grad_updates_arg);
    }
};

class BackwardErrors : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
    BackwardCall call;

    void expect(scatter_status status, const std::string& part, scatter_context ctx) {
        const std::vector<uint8_t> data_before = call.grad_data.storage(), updates_before = call.grad_updates.storage();
        EXPECT_EQ(call.run(ctx), status) << scatter_last_error_message();
        const std::string message = scatter_last_error_message();
        EXPECT_NE(message.find(part), std::string::npos) << "message: " << message;
        EXPECT_TRUE(is_one_sentence(message.c_str())) << message;
        EXPECT_EQ(call.grad_data.storage(), data_before);
        EXPECT_EQ(call.grad_updates.storage(), updates_before);
    }
    void expect(scatter_status status, const std::string& part) { expect(status, part, context.get()); }
    // A status the planner gives on every backend.
    void refuse(scatter_status status, const std::string& part) {
        expect(status, part);
        reset();
    }
    // A fresh valid call (its descriptors point into this fixture's tensors).
    void reset(scatter_dtype dtype = SCATTER_DTYPE_F32) {
        call = BackwardCall(dtype);
        call.describe();
    }
};

TEST_F(BackwardErrors, TheValidCallSucceedsOnTheCpuAndIsUnsupportedOnVulkan) {
    if (on_vulkan(context.get())) return expect(SCATTER_ERROR_UNSUPPORTED, "Vulkan backend has no backward");
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    call.out_arg = nullptr;
    call.options.reduction = SCATTER_REDUCTION_ADD;  // add does not read out
    EXPECT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_F(BackwardErrors, NullArguments) {
    expect(SCATTER_ERROR_INVALID_ARGUMENT, "context is NULL", nullptr);
    const char* names[] = {"data", "indices", "updates", "grad_out"};
    for (int which = 0; which < 4; ++which) {
        const scatter_tensor** args[] = {&call.data_arg, &call.indices_arg, &call.updates_arg, &call.grad_out_arg};
        *args[which] = nullptr;
        refuse(SCATTER_ERROR_INVALID_ARGUMENT, std::string(names[which]) + " is NULL");
    }
    call.grad_data_arg = call.grad_updates_arg = nullptr;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "both NULL");
    call.out_arg = nullptr;  // max reads the forward's result
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "out is NULL");
    call.data_desc.data = nullptr;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "data.data is NULL");
}

TEST_F(BackwardErrors, Options) {
    call.options.reduction = scatter_reduction(99);
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "options.reduction = 99");
    call.options.axis = 2;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "axis");
    call.options.flags = 0x80;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "options.flags");
    call.options.out_of_range = SCATTER_OUT_OF_RANGE_FILL;  // a gather policy
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "options.out_of_range");
    call.options.struct_size = 3;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "options.struct_size");
}

TEST_F(BackwardErrors, OnlyFloatDtypesHaveGradients) {
    for (scatter_dtype dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_U8, SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64}) {
        reset(dtype);
        refuse(SCATTER_ERROR_TYPE_MISMATCH, "has no gradient");
    }
    call.updates = HostTensor(SCATTER_DTYPE_F64, {3, 2});
    call.describe();
    refuse(SCATTER_ERROR_TYPE_MISMATCH, "updates.dtype = f64 must equal data.dtype = f32");
    call.grad_out = HostTensor(SCATTER_DTYPE_F16, {3, 4});
    call.describe();
    refuse(SCATTER_ERROR_TYPE_MISMATCH, "grad_out.dtype");
    call.grad_updates = HostTensor(SCATTER_DTYPE_F64, {3, 2});
    call.describe();
    refuse(SCATTER_ERROR_TYPE_MISMATCH, "grad_updates.dtype");
    call.indices = HostTensor(SCATTER_DTYPE_F32, {3, 2});
    call.describe();
    refuse(SCATTER_ERROR_TYPE_MISMATCH, "indices.dtype");
}

TEST_F(BackwardErrors, ShapesAreTheForwardsShapes) {
    call.grad_out = HostTensor(SCATTER_DTYPE_F32, {3, 5});
    call.describe();
    refuse(SCATTER_ERROR_SHAPE_MISMATCH, "grad_out.shape[1] = 5 must equal data.shape[1] = 4");
    call.grad_data = HostTensor(SCATTER_DTYPE_F32, {4, 4});
    call.describe();
    refuse(SCATTER_ERROR_SHAPE_MISMATCH, "grad_data.shape[0]");
    call.out = HostTensor(SCATTER_DTYPE_F32, {3});
    call.describe();
    refuse(SCATTER_ERROR_SHAPE_MISMATCH, "out");
    call.grad_updates = HostTensor(SCATTER_DTYPE_F32, {3, 3});
    call.describe();
    refuse(SCATTER_ERROR_SHAPE_MISMATCH, "grad_updates.shape[1] = 3 must equal updates.shape[1] = 2");
    call.updates = HostTensor(SCATTER_DTYPE_F32, {3, 3});
    call.describe();
    refuse(SCATTER_ERROR_SHAPE_MISMATCH, "updates");
}

TEST_F(BackwardErrors, GradientsNeedMemoryOfTheirOwn) {
    call.grad_data_desc = call.grad_out_desc;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "grad_data overlaps grad_out");
    call.grad_updates_desc.data = call.updates_desc.data;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "grad_updates overlaps updates");
    call.grad_updates_desc.data = call.grad_data_desc.data;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "overlaps");
    const int64_t zero_strides[2] = {0, 1};
    call.grad_data_desc.strides = zero_strides;
    refuse(SCATTER_ERROR_INVALID_ARGUMENT, "grad_data");
}

TEST_F(BackwardErrors, IndicesAreCheckedBeforeAnythingIsWritten) {
    call.indices.set(5, 4);
    call.describe();
    if (on_vulkan(context.get())) return expect(SCATTER_ERROR_UNSUPPORTED, "Vulkan");
    expect(SCATTER_ERROR_INDEX_OUT_OF_RANGE, "indices[2][1] = 4 is outside [-4, 4) on axis 1");
    call.indices.set(5, 1);
    call.indices.set(0, -9);
    call.describe();
    call.options.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    EXPECT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

// Gather's backward: the forward gather's rules, with grad_data for data and grad_out for out.
TEST_F(BackwardErrors, GatherBackward) {
    HostTensor indices(SCATTER_DTYPE_I64, {2, 1}), grad_out(SCATTER_DTYPE_F32, {2, 3}),
        grad_data(SCATTER_DTYPE_F32, {4, 3});
    indices.set(0, 3).set(1, 0);
    grad_data.fill_sentinel(9);
    const std::vector<uint8_t> before = grad_data.storage();
    scatter_tensor i = indices.descriptor(), g = grad_out.descriptor(), d = grad_data.descriptor();
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
    auto expect_gather = [&](scatter_status status, const char* part) {
        EXPECT_EQ(scatter_gather_nd_backward(context.get(), &i, &g, &options, &d), status) << scatter_last_error_message();
        EXPECT_NE(std::string(scatter_last_error_message()).find(part), std::string::npos) << scatter_last_error_message();
        EXPECT_EQ(grad_data.storage(), before);
    };
    options.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    expect_gather(SCATTER_ERROR_INVALID_ARGUMENT, "SKIP is not a gather policy");
    options = SCATTER_GATHER_OPTIONS_INIT;
    options.batch_dims = 2;
    expect_gather(SCATTER_ERROR_INVALID_ARGUMENT, "batch_dims");
    options = SCATTER_GATHER_OPTIONS_INIT;
    scatter_tensor wrong = d;
    const int64_t shape[2] = {4, 2};
    wrong.shape = shape;
    std::swap(wrong, d);
    expect_gather(SCATTER_ERROR_SHAPE_MISMATCH, "grad_out.shape[1] = 3 must equal grad_data.shape[1] = 2");
    std::swap(wrong, d);
    d.dtype = SCATTER_DTYPE_I32;
    expect_gather(SCATTER_ERROR_TYPE_MISMATCH, "has no gradient");
    d.dtype = SCATTER_DTYPE_F32;
    g.dtype = SCATTER_DTYPE_BF16;
    expect_gather(SCATTER_ERROR_TYPE_MISMATCH, "grad_out.dtype");
    g = grad_out.descriptor();
    scatter_tensor overlapping = d;
    overlapping.shape = g.shape;
    std::swap(overlapping, g);
    expect_gather(SCATTER_ERROR_INVALID_ARGUMENT, "grad_data overlaps grad_out");
    std::swap(overlapping, g);
    indices.set(0, 4);  // the same status and message on Vulkan, which runs gather's backward
    expect_gather(SCATTER_ERROR_INDEX_OUT_OF_RANGE, "indices[0][0] = 4 is outside [-4, 4)");
    options.out_of_range = SCATTER_OUT_OF_RANGE_FILL;
    EXPECT_EQ(scatter_gather_nd_backward(context.get(), &i, &g, &options, &d), SCATTER_OK) << scatter_last_error_message();
}

}  // namespace
}  // namespace scatter_test
