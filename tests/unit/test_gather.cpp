// The gathers through the C API beyond the differential suite: profiling, the AUTO context,
// opaque fill values, mixed host and buffer tensors, and concurrent calls on one context.
#include "gather_call.h"
#include "scatter_call.h"

#include <cstring>
#include <thread>

namespace scatter_test {
namespace {

ContextPtr make_context(scatter_backend backend, uint32_t flags, uint32_t threads = 2) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend;
    desc.flags = flags;
    desc.thread_count = threads;
    scatter_context context = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &context), SCATTER_OK) << scatter_last_error_message();
    return ContextPtr(context);
}

TEST(Gather, ProfiledLikeTheOperations) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU, SCATTER_CONTEXT_FLAG_PROFILE);
    auto call = valid_gather(Op::rows);
    ASSERT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    scatter_profile profile{};
    profile.struct_size = sizeof profile;
    ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(profile.backend, SCATTER_BACKEND_CPU);
    EXPECT_EQ(profile.status, SCATTER_OK);
    ASSERT_EQ(profile.pass_count, 1u);
    EXPECT_STREQ(profile.passes[0].name, "cpu_gather");
    EXPECT_GE(profile.total_us, profile.validate_us);

    call->indices.set(0, 99);  // out of range under ERROR: the profile records the failure
    EXPECT_EQ(call->run(context.get()), SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK);
    EXPECT_EQ(profile.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    call->options.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;  // fails in validation: no pass
    EXPECT_EQ(call->run(context.get()), SCATTER_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK);
    EXPECT_EQ(profile.status, SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(profile.pass_count, 0u);
}

// AUTO runs gathers of host tensors on its CPU backend, whether or not it found a GPU.
TEST(Gather, AutoContextGathersHostTensors) {
    ContextPtr context = make_context(SCATTER_BACKEND_AUTO, SCATTER_CONTEXT_FLAG_PROFILE);
    for (Op op : all_ops()) {
        auto call = valid_gather(op);
        ASSERT_EQ(call->run(context.get()), SCATTER_OK) << op_name(op) << ": " << scatter_last_error_message();
        scatter_profile profile{};
        profile.struct_size = sizeof profile;
        ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK);
        EXPECT_EQ(profile.backend, SCATTER_BACKEND_CPU);
    }
}

TEST(Gather, OpaqueFillValueIsCopiedAsBytes) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU, 0);
    // data: 2 elements of 5 bytes; indices [1, 2, -3]: the last two are out of range.
    const uint8_t data[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const int32_t indices[3] = {1, 2, -3};
    uint8_t out[15] = {};
    const uint8_t fill[5] = {0xde, 0xad, 0xbe, 0xef, 0x00};
    const int64_t data_shape[] = {2}, index_shape[] = {3};
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, o = SCATTER_TENSOR_INIT;
    d.dtype = o.dtype = SCATTER_DTYPE_OPAQUE;
    d.element_size = o.element_size = 5;
    d.rank = i.rank = o.rank = 1;
    d.shape = data_shape;
    i.shape = o.shape = index_shape;
    i.dtype = SCATTER_DTYPE_I32;
    d.data = const_cast<uint8_t*>(data);
    i.data = const_cast<int32_t*>(indices);
    o.data = out;
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
    options.out_of_range = SCATTER_OUT_OF_RANGE_FILL;
    options.fill_value = fill;
    ASSERT_EQ(scatter_gather_rows(context.get(), &d, &i, &options, &o), SCATTER_OK) << scatter_last_error_message();
    const uint8_t want[15] = {6, 7, 8, 9, 10, 0xde, 0xad, 0xbe, 0xef, 0, 0xde, 0xad, 0xbe, 0xef, 0};
    EXPECT_EQ(std::memcmp(out, want, 15), 0);
    options.fill_value = nullptr;  // zeros
    ASSERT_EQ(scatter_gather_elements(context.get(), &d, &i, &options, &o), SCATTER_OK) << scatter_last_error_message();
    const uint8_t zeros[15] = {6, 7, 8, 9, 10};
    EXPECT_EQ(std::memcmp(out, zeros, 15), 0);
}

TEST(Gather, DataInABufferOutInHostMemory) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU, 0);
    auto call = valid_gather(Op::elements);
    scatter_buffer buffer = nullptr;
    const auto& bytes = call->data.storage();
    ASSERT_EQ(scatter_buffer_create(context.get(), bytes.size() + 8, &buffer), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(buffer, 8, bytes.data(), bytes.size()), SCATTER_OK);
    ASSERT_EQ(call->run(context.get()), SCATTER_OK);
    const std::vector<uint8_t> host_result = call->out.storage();
    call->out.fill_sentinel(1);
    call->data_desc.data = nullptr;
    call->data_desc.buffer = buffer;
    call->data_desc.byte_offset = 8;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_TRUE(call->out.storage() == host_result);
    scatter_buffer_destroy(buffer);
}

TEST(Gather, ConcurrentCallsOnOneContext) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU, 0, 3);
    auto reference = valid_gather(Op::nd);
    ASSERT_EQ(reference->run(context.get()), SCATTER_OK);
    std::vector<std::thread> threads;
    std::vector<int> mismatches(4, 0);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            auto call = valid_gather(Op::nd);
            for (int k = 0; k < 200; ++k) {
                call->out.fill_sentinel(uint8_t(k));
                if (call->run(context.get()) != SCATTER_OK || call->out.storage() != reference->out.storage())
                    ++mismatches[size_t(t)];
            }
        });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace scatter_test
