// Buffers on a CPU context: create, write, read, size, and operations whose tensors live in
// buffers give the same bytes as the same operations on host memory.
#include "scatter_call.h"

#include <cstring>

namespace scatter_test {
namespace {

struct BufferDeleter {
    void operator()(scatter_buffer buffer) const { scatter_buffer_destroy(buffer); }
};
using BufferPtr = std::unique_ptr<scatter_buffer_t, BufferDeleter>;

BufferPtr make_buffer(scatter_context context, uint64_t size) {
    scatter_buffer buffer = nullptr;
    EXPECT_EQ(scatter_buffer_create(context, size, &buffer), SCATTER_OK)
        << scatter_last_error_message();
    return BufferPtr(buffer);
}

TEST(Buffers, StartAsZerosAndReportTheirSize) {
    ContextPtr context = make_test_context();
    BufferPtr buffer = make_buffer(context.get(), 100);
    EXPECT_EQ(scatter_buffer_size(buffer.get()), 100u);
    std::vector<uint8_t> bytes(100, 0xee);
    ASSERT_EQ(scatter_buffer_read(buffer.get(), 0, bytes.data(), 100), SCATTER_OK);
    EXPECT_TRUE(bytes == std::vector<uint8_t>(100, 0));
    EXPECT_EQ(scatter_buffer_size(nullptr), 0u);
    scatter_buffer_destroy(nullptr);
}

TEST(Buffers, SizeZeroIsValid) {
    ContextPtr context = make_test_context();
    BufferPtr buffer = make_buffer(context.get(), 0);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(scatter_buffer_size(buffer.get()), 0u);
}

TEST(Buffers, WriteThenReadRanges) {
    ContextPtr context = make_test_context();
    BufferPtr buffer = make_buffer(context.get(), 64);
    std::vector<uint8_t> src(64);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i + 1);
    ASSERT_EQ(scatter_buffer_write(buffer.get(), 0, src.data(), 64), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(buffer.get(), 10, src.data(), 4), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(buffer.get(), 64, src.data(), 0), SCATTER_OK);  // empty, at end

    std::vector<uint8_t> all(64);
    ASSERT_EQ(scatter_buffer_read(buffer.get(), 0, all.data(), 64), SCATTER_OK);
    std::vector<uint8_t> expected = src;
    std::memcpy(expected.data() + 10, src.data(), 4);
    EXPECT_TRUE(all == expected);

    uint8_t tail[3] = {};
    ASSERT_EQ(scatter_buffer_read(buffer.get(), 61, tail, 3), SCATTER_OK);
    EXPECT_EQ(tail[0], 62);
    EXPECT_EQ(tail[2], 64);
}

// Runs `call` once on host memory and once with every tensor copied into a buffer (at an offset,
// to exercise byte_offset) and expects the same bytes.
void expect_buffer_result_equals_host(ScatterCall& call, bool in_place) {
    ContextPtr context = make_test_context();
    if (in_place) call.in_place();
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    const std::vector<uint8_t> host_result = in_place ? call.data.storage() : call.out.storage();

    auto fresh = valid_call(call.op, call.data.dtype());
    const uint64_t offset = 16;
    scatter_tensor* descs[] = {&fresh->data_desc, &fresh->indices_desc, &fresh->updates_desc,
                               &fresh->out_desc};
    const HostTensor* tensors[] = {&fresh->data, &fresh->indices, &fresh->updates, &fresh->out};
    std::vector<BufferPtr> buffers;
    for (int t = 0; t < 4; ++t) {
        const auto& bytes = tensors[t]->storage();
        buffers.push_back(make_buffer(context.get(), offset + bytes.size()));
        ASSERT_EQ(scatter_buffer_write(buffers.back().get(), offset, bytes.data(), bytes.size()),
                  SCATTER_OK);
        descs[t]->data = nullptr;
        descs[t]->buffer = buffers.back().get();
        descs[t]->byte_offset = offset;
    }
    fresh->options = call.options;
    if (in_place) fresh->in_place();
    ASSERT_EQ(fresh->run(context.get()), SCATTER_OK) << scatter_last_error_message();

    std::vector<uint8_t> buffer_result(host_result.size());
    ASSERT_EQ(scatter_buffer_read(buffers[in_place ? 0 : 3].get(), offset, buffer_result.data(),
                                  buffer_result.size()),
              SCATTER_OK);
    EXPECT_TRUE(buffer_result == host_result);
    buffers.clear();  // before the context
}

TEST(Buffers, OperationsOnBufferTensorsMatchHostMemory) {
    for (Op op : all_ops()) {
        for (bool in_place : {false, true}) {
            SCOPED_TRACE(testing::Message() << op_name(op) << (in_place ? " in place" : ""));
            auto call = valid_call(op);
            call->reduction(SCATTER_REDUCTION_ADD);
            expect_buffer_result_equals_host(*call, in_place);
        }
    }
}

TEST(Buffers, MixedHostAndBufferTensors) {
    ContextPtr context = make_test_context();
    auto host = valid_call(Op::rows);
    ASSERT_EQ(host->run(context.get()), SCATTER_OK);

    auto mixed = valid_call(Op::rows);
    BufferPtr indices = make_buffer(context.get(), mixed->indices.storage().size());
    ASSERT_EQ(scatter_buffer_write(indices.get(), 0, mixed->indices.storage().data(),
                                   mixed->indices.storage().size()),
              SCATTER_OK);
    mixed->indices_desc.data = nullptr;
    mixed->indices_desc.buffer = indices.get();
    ASSERT_EQ(mixed->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_TRUE(mixed->out.storage() == host->out.storage());
}

}  // namespace
}  // namespace scatter_test

namespace scatter_test {
namespace {

// Issue 43: a garbage collector destroyed a context before its buffers, and
// scatter_buffer_destroy then read freed memory (valgrind, ASan under make sanitize). The context
// now lives until its last buffer goes; the buffers stay usable meanwhile.
TEST(Buffers, OutliveTheirContextInAnyDestroyOrder) {
    for (int order = 0; order < 2; ++order) {
        SCOPED_TRACE(order);
        scatter_context context = nullptr;
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_CPU;
        desc.thread_count = 2;
        ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK);
        scatter_buffer a = nullptr, b = nullptr;
        ASSERT_EQ(scatter_buffer_create(context, 64, &a), SCATTER_OK);
        ASSERT_EQ(scatter_buffer_create(context, 64, &b), SCATTER_OK);
        scatter_context_destroy(context);  // first, as a collector may
        const uint8_t bytes[4] = {1, 2, 3, 4};
        uint8_t back[4] = {};
        EXPECT_EQ(scatter_buffer_write(a, 8, bytes, 4), SCATTER_OK);
        EXPECT_EQ(scatter_buffer_copy(a, 8, b, 0, 4), SCATTER_OK);
        EXPECT_EQ(scatter_buffer_read(b, 0, back, 4), SCATTER_OK);
        EXPECT_EQ(std::memcmp(back, bytes, 4), 0);
        if (order == 0) {
            scatter_buffer_destroy(a);
            scatter_buffer_destroy(b);  // the last one releases the context
        } else {
            scatter_buffer_destroy(b);
            scatter_buffer_destroy(a);
        }
    }
}

}  // namespace
}  // namespace scatter_test
