#include "scatter_call.h"

#include <cctype>
#include <cstdlib>

namespace scatter_test {

const char* op_name(Op op) {
    switch (op) {
    case Op::Elements: return "elements";
    case Op::Rows: return "rows";
    case Op::Nd: return "nd";
    }
    return "?";
}

const std::vector<Op>& all_ops() {
    static const std::vector<Op> ops = {Op::Elements, Op::Rows, Op::Nd};
    return ops;
}

scatter_status run_op(Op op, scatter_context context, const scatter_tensor* data,
                      const scatter_tensor* indices, const scatter_tensor* updates,
                      const scatter_options* options, const scatter_tensor* out) {
    switch (op) {
    case Op::Elements: return scatter_elements(context, data, indices, updates, options, out);
    case Op::Rows: return scatter_rows(context, data, indices, updates, options, out);
    case Op::Nd: return scatter_nd(context, data, indices, updates, options, out);
    }
    return SCATTER_ERROR_INTERNAL;
}

ContextPtr make_test_context(uint32_t thread_count) {
    const char* backend = std::getenv("SCATTER_TEST_BACKEND");
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend != nullptr && std::string(backend) == "vulkan" ? SCATTER_BACKEND_VULKAN
                                                                          : SCATTER_BACKEND_CPU;
    desc.thread_count = thread_count;
    scatter_context context = nullptr;
    const scatter_status status = scatter_context_create(&desc, &context);
    EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
    return ContextPtr(context);
}

ScatterCall::ScatterCall(Op op_, HostTensor data_, HostTensor indices_, HostTensor updates_)
    : op(op_),
      data(std::move(data_)),
      indices(std::move(indices_)),
      updates(std::move(updates_)),
      out(data.dtype(), data.shape(), data.element_size()),
      data_desc(data.desc()),
      indices_desc(indices.desc()),
      updates_desc(updates.desc()),
      out_desc(out.desc()),
      data_arg(&data_desc),
      indices_arg(&indices_desc),
      updates_arg(&updates_desc),
      out_arg(&out_desc),
      options_arg(&options) {}

ScatterCall& ScatterCall::in_place() {
    in_place_ = true;
    out_desc = data_desc;
    return *this;
}

scatter_status ScatterCall::run(scatter_context context) const {
    return run_op(op, context, data_arg, indices_arg, updates_arg, options_arg, out_arg);
}

std::unique_ptr<ScatterCall> valid_call(Op op, scatter_dtype dtype, scatter_dtype index_dtype,
                                        uint32_t opaque_size) {
    std::vector<int64_t> data_shape, index_shape, update_shape;
    std::vector<double> index_values;
    switch (op) {
    case Op::Elements:
        data_shape = {3, 4};
        index_shape = {2, 4};
        update_shape = {2, 4};
        index_values = {0, 1, 2, 0, 2, 1, 0, -1};
        break;
    case Op::Rows:
        data_shape = {5, 3};
        index_shape = {4};
        update_shape = {4, 3};
        index_values = {4, 0, -2, 1};
        break;
    case Op::Nd:
        data_shape = {4, 3};
        index_shape = {2, 1};
        update_shape = {2, 3};
        index_values = {3, -4};
        break;
    }
    HostTensor data(dtype, data_shape, opaque_size);
    for (int64_t i = 0; i < data.element_count(); ++i) data.set(i, static_cast<double>(i + 1));
    HostTensor indices(index_dtype, index_shape);
    indices.set_all(index_values);
    HostTensor updates(dtype, update_shape, opaque_size);
    updates.fill(2.0);
    return std::make_unique<ScatterCall>(op, std::move(data), std::move(indices),
                                         std::move(updates));
}

::testing::AssertionResult is_one_sentence(const std::string& message) {
    if (message.empty()) return ::testing::AssertionFailure() << "the message is empty";
    if (message.find('\n') != std::string::npos)
        return ::testing::AssertionFailure() << "the message has a line break: " << message;
    // A second sentence starts after ". " with a capital letter.
    for (size_t i = 0; i + 2 < message.size(); ++i)
        if (message[i] == '.' && message[i + 1] == ' ' &&
            std::isupper(static_cast<unsigned char>(message[i + 2])))
            return ::testing::AssertionFailure() << "more than one sentence: " << message;
    return ::testing::AssertionSuccess();
}

void expect_rejected(scatter_context context, ScatterCall& call, scatter_status expected,
                     const std::vector<std::string>& message_parts) {
    call.out.fill_sentinel(0x3c);
    const std::vector<uint8_t> data_before = call.data.bytes();
    const std::vector<uint8_t> indices_before = call.indices.bytes();
    const std::vector<uint8_t> updates_before = call.updates.bytes();
    const std::vector<uint8_t> out_before = call.out.bytes();

    // Leave a known message behind first, so a stale message cannot pass for the new one.
    (void)scatter_buffer_write(nullptr, 0, nullptr, 1);
    const std::string stale = scatter_last_error_message();

    const scatter_status status = call.run(context);
    const std::string message = scatter_last_error_message();
    EXPECT_STREQ(scatter_status_name(status), scatter_status_name(expected))
        << op_name(call.op) << ": message was \"" << message << "\"";
    if (status == SCATTER_OK) return;
    EXPECT_TRUE(is_one_sentence(message));
    EXPECT_NE(message, stale) << "the failed call left no message of its own";
    for (const std::string& part : message_parts)
        EXPECT_NE(message.find(part), std::string::npos)
            << "message \"" << message << "\" does not contain \"" << part << "\"";
    EXPECT_TRUE(call.data.bytes() == data_before) << "data changed";
    EXPECT_TRUE(call.indices.bytes() == indices_before) << "indices changed";
    EXPECT_TRUE(call.updates.bytes() == updates_before) << "updates changed";
    EXPECT_TRUE(call.out.bytes() == out_before) << "out changed";
}

}  // namespace scatter_test
