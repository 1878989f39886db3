// Errors of the buffer functions and of tensors that live in buffers: null pointers, ranges
// outside a buffer, a buffer of another context. Failed calls change no buffer and no host memory.
#include "scatter_call.h"

#include <cstdint>
#include <cstring>

namespace scatter_test {
namespace {

struct BufferDeleter {
    void operator()(scatter_buffer buffer) const { scatter_buffer_destroy(buffer); }
};
using BufferPtr = std::unique_ptr<scatter_buffer_t, BufferDeleter>;

BufferPtr make_buffer(scatter_context context, const std::vector<uint8_t>& bytes) {
    scatter_buffer buffer = nullptr;
    EXPECT_EQ(scatter_buffer_create(context, bytes.size(), &buffer), SCATTER_OK)
        << scatter_last_error_message();
    if (!bytes.empty()) {
        EXPECT_EQ(scatter_buffer_write(buffer, 0, bytes.data(), bytes.size()), SCATTER_OK);
    }
    return BufferPtr(buffer);
}

std::vector<uint8_t> read_all(scatter_buffer buffer) {
    std::vector<uint8_t> bytes(scatter_buffer_size(buffer));
    EXPECT_EQ(scatter_buffer_read(buffer, 0, bytes.data(), bytes.size()), SCATTER_OK);
    return bytes;
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + seed);
    return bytes;
}

class BufferErrors : public ::testing::Test {
protected:
    ContextPtr context = make_test_context();
    BufferPtr buffer = make_buffer(context.get(), pattern(64, 3));

    void expect_invalid(scatter_status status, const char* part = nullptr) {
        EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_INVALID_ARGUMENT");
        const std::string message = scatter_last_error_message();
        EXPECT_TRUE(is_one_sentence(message));
        if (part != nullptr) {
            EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
        }
        EXPECT_TRUE(read_all(buffer.get()) == pattern(64, 3)) << "the buffer changed";
    }
};

TEST_F(BufferErrors, CreateWithNullArguments) {
    scatter_buffer out = nullptr;
    expect_invalid(scatter_buffer_create(nullptr, 16, &out), "context");
    EXPECT_EQ(out, nullptr);
    expect_invalid(scatter_buffer_create(context.get(), 16, nullptr));
}

TEST_F(BufferErrors, CreateHugeIsOutOfMemory) {
    scatter_buffer out = nullptr;
    EXPECT_EQ(scatter_buffer_create(context.get(), UINT64_MAX, &out), SCATTER_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(out, nullptr);
    EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
}

TEST_F(BufferErrors, WriteNullPointers) {
    const std::vector<uint8_t> src = pattern(8, 200);
    expect_invalid(scatter_buffer_write(nullptr, 0, src.data(), 8), "buffer");
    expect_invalid(scatter_buffer_write(buffer.get(), 0, nullptr, 8));
}

TEST_F(BufferErrors, WriteOutsideTheBuffer) {
    const std::vector<uint8_t> src = pattern(128, 200);
    expect_invalid(scatter_buffer_write(buffer.get(), 0, src.data(), 65), "65");
    expect_invalid(scatter_buffer_write(buffer.get(), 60, src.data(), 8));
    expect_invalid(scatter_buffer_write(buffer.get(), 65, src.data(), 0));
    expect_invalid(scatter_buffer_write(buffer.get(), UINT64_MAX, src.data(), 2));  // wraps
    expect_invalid(scatter_buffer_write(buffer.get(), 8, src.data(), UINT64_MAX));
}

TEST_F(BufferErrors, ReadNullPointersAndOutsideTheBuffer) {
    std::vector<uint8_t> dst = pattern(128, 99);
    const std::vector<uint8_t> before = dst;
    expect_invalid(scatter_buffer_read(nullptr, 0, dst.data(), 8), "buffer");
    expect_invalid(scatter_buffer_read(buffer.get(), 0, nullptr, 8));
    expect_invalid(scatter_buffer_read(buffer.get(), 0, dst.data(), 65));
    expect_invalid(scatter_buffer_read(buffer.get(), 63, dst.data(), 2));
    expect_invalid(scatter_buffer_read(buffer.get(), UINT64_MAX - 1, dst.data(), 4));
    EXPECT_TRUE(dst == before) << "dst written on failure";
}

// --- operations on buffer-backed tensors --------------------------------------------------------

// A valid call whose four tensors live in buffers of `context` (data, indices, updates, out).
class BufferTensorErrors : public ::testing::TestWithParam<Op> {
protected:
    ContextPtr context = make_test_context();
    ContextPtr other_context = make_test_context();
    std::unique_ptr<ScatterCall> call = valid_call(GetParam());
    BufferPtr data, indices, updates, out;

    void SetUp() override {
        data = make_buffer(context.get(), call->data.storage());
        indices = make_buffer(context.get(), call->indices.storage());
        updates = make_buffer(context.get(), call->updates.storage());
        out = make_buffer(context.get(), pattern(call->out.storage().size(), 77));
        to_buffer(call->data_desc, data.get());
        to_buffer(call->indices_desc, indices.get());
        to_buffer(call->updates_desc, updates.get());
        to_buffer(call->out_desc, out.get());
    }

    static void to_buffer(scatter_tensor& desc, scatter_buffer buffer) {
        desc.data = nullptr;
        desc.buffer = buffer;
        desc.byte_offset = 0;
    }

    // Runs the call, expects `expected`, and checks that no buffer changed.
    void expect_buffers_rejected(scatter_status expected, const char* part = nullptr) {
        const auto data_before = read_all(data.get()), out_before = read_all(out.get());
        const scatter_status status = call->run(context.get());
        const std::string message = scatter_last_error_message();
        EXPECT_STREQ(scatter_status_name(status), scatter_status_name(expected)) << message;
        EXPECT_TRUE(is_one_sentence(message));
        if (part != nullptr) {
            EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
        }
        EXPECT_TRUE(read_all(data.get()) == data_before) << "data buffer changed";
        EXPECT_TRUE(read_all(out.get()) == out_before) << "out buffer changed";
    }
};

TEST_P(BufferTensorErrors, AllInBuffersRuns) {
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(BufferTensorErrors, BufferOfAnotherContext) {
    BufferPtr foreign = make_buffer(other_context.get(), call->updates.storage());
    call->updates_desc.buffer = foreign.get();
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "updates");
    call->updates_desc.buffer = updates.get();
    BufferPtr foreign_out = make_buffer(other_context.get(), call->out.storage());
    call->out_desc.buffer = foreign_out.get();
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "out");
}

TEST_P(BufferTensorErrors, RangeBeyondTheBuffer) {
    call->indices_desc.byte_offset = 8;  // the last index would lie past the end
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "indices");
    call->indices_desc.byte_offset = 0;
    call->out_desc.byte_offset = 4;
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "out");
    call->out_desc.byte_offset = UINT64_MAX - 3;  // wraps around
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "out");
}

TEST_P(BufferTensorErrors, StridesReachingBeforeTheBuffer) {
    std::vector<int64_t> strides = {-call->data.shape()[1], 1};  // row 1 would be at offset -16
    call->data_desc.strides = strides.data();
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "data");
}

TEST_P(BufferTensorErrors, HostPointerAndBufferBoth) {
    call->updates_desc.data = call->updates.storage().data();
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "updates");
}

TEST_P(BufferTensorErrors, OutOverlapsDataInTheSameBuffer) {
    // data and out share one buffer, out shifted by one element.
    const uint64_t bytes = call->data.storage().size();
    BufferPtr shared = make_buffer(context.get(), pattern(2 * bytes, 5));
    call->data_desc.buffer = shared.get();
    call->out_desc.buffer = shared.get();
    call->out_desc.byte_offset = 4;
    const auto before = read_all(shared.get());
    expect_buffers_rejected(SCATTER_ERROR_INVALID_ARGUMENT, "out");
    EXPECT_TRUE(read_all(shared.get()) == before);
    call->out_desc.byte_offset = bytes;  // adjacent, no overlap
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
}

TEST_P(BufferTensorErrors, IndexOutOfRangeLeavesBuffersUnchanged) {
    std::vector<uint8_t> bad = call->indices.storage();
    encode_value(SCATTER_DTYPE_I64, 0, 1000, bad.data() + bad.size() - 8);
    ASSERT_EQ(scatter_buffer_write(indices.get(), 0, bad.data(), bad.size()), SCATTER_OK);
    expect_buffers_rejected(SCATTER_ERROR_INDEX_OUT_OF_RANGE, "1000");
    call->out_desc = call->data_desc;  // in place
    expect_buffers_rejected(SCATTER_ERROR_INDEX_OUT_OF_RANGE, "1000");
}

INSTANTIATE_TEST_SUITE_P(AllOps, BufferTensorErrors, ::testing::ValuesIn(all_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

}  // namespace
}  // namespace scatter_test
