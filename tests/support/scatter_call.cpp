#include "scatter_call.h"

#include <cctype>
#include <cstdlib>

namespace scatter_test {

ScatterCall::ScatterCall(Op op_, HostTensor data_, HostTensor indices_, HostTensor updates_)
    : op(op_),
      data(std::move(data_)),
      indices(std::move(indices_)),
      updates(std::move(updates_)),
      out(data.dtype(), data.shape(), data.element_size()),
      data_desc(data.descriptor()),
      indices_desc(indices.descriptor()),
      updates_desc(updates.descriptor()),
      out_desc(out.descriptor()),
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
    case Op::elements:
        data_shape = {3, 4};
        index_shape = {2, 4};
        update_shape = {2, 4};
        index_values = {0, 1, 2, 0, 2, 1, 0, -1};
        break;
    case Op::rows:
        data_shape = {5, 3};
        index_shape = {4};
        update_shape = {4, 3};
        index_values = {4, 0, -2, 1};
        break;
    case Op::nd:
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
    const std::vector<uint8_t> data_before = call.data.storage();
    const std::vector<uint8_t> indices_before = call.indices.storage();
    const std::vector<uint8_t> updates_before = call.updates.storage();
    const std::vector<uint8_t> out_before = call.out.storage();

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
    EXPECT_TRUE(call.data.storage() == data_before) << "data changed";
    EXPECT_TRUE(call.indices.storage() == indices_before) << "indices changed";
    EXPECT_TRUE(call.updates.storage() == updates_before) << "updates changed";
    EXPECT_TRUE(call.out.storage() == out_before) << "out changed";
}

scatter_context untouched_context() { return reinterpret_cast<scatter_context>(uintptr_t{0x5a5a}); }

void expect_create_fails(const scatter_context_desc* desc, scatter_status expected,
                         const std::vector<std::string>& parts) {
    scatter_context context = untouched_context();
    const scatter_status status = scatter_context_create(desc, &context);
    const std::string message = scatter_last_error_message();
    EXPECT_STREQ(scatter_status_name(status), scatter_status_name(expected)) << message;
    if (status == SCATTER_OK) {
        scatter_context_destroy(context);
        return;
    }
    EXPECT_EQ(context, untouched_context()) << "out_context written on failure";
    EXPECT_TRUE(is_one_sentence(message));
    for (const std::string& part : parts)
        EXPECT_NE(message.find(part), std::string::npos) << message << " lacks " << part;
}

}  // namespace scatter_test
