#include "gather_call.h"

#include <gtest/gtest.h>

#include "gather_case.h"
#include "scatter_call.h"

namespace scatter_test {

GatherCall::GatherCall(Op op_, HostTensor data_, HostTensor indices_, HostTensor out_)
    : op(op_),
      data(std::move(data_)),
      indices(std::move(indices_)),
      out(std::move(out_)),
      data_desc(data.descriptor()),
      indices_desc(indices.descriptor()),
      out_desc(out.descriptor()),
      data_arg(&data_desc),
      indices_arg(&indices_desc),
      out_arg(&out_desc),
      options_arg(&options) {}

void GatherCall::set_indices(HostTensor t) {
    indices = std::move(t);
    indices_desc = indices.descriptor();
}

void GatherCall::set_out(HostTensor t) {
    out = std::move(t);
    out_desc = out.descriptor();
}

scatter_status GatherCall::run(scatter_context context) const {
    return run_gather_op(op, context, data_arg, indices_arg, options_arg, out_arg);
}

std::unique_ptr<GatherCall> valid_gather(Op op, scatter_dtype dtype, scatter_dtype index_dtype, uint32_t opaque_size) {
    Shape data_shape, index_shape, out_shape;
    std::vector<double> index_values;
    switch (op) {
        case Op::elements:
            data_shape = {3, 4};
            index_shape = out_shape = {2, 4};
            index_values = {0, 1, 2, 0, 2, 1, 0, -1};
            break;
        case Op::rows:
            data_shape = {5, 3};
            index_shape = {4};
            out_shape = {4, 3};
            index_values = {4, 0, -2, 1};
            break;
        case Op::nd:
            data_shape = {4, 3};
            index_shape = {2, 1};
            out_shape = {2, 3};
            index_values = {3, -4};
            break;
    }
    HostTensor data(dtype, data_shape, opaque_size);
    for (int64_t i = 0; i < data.element_count(); ++i) data.set(i, double(i + 1));
    HostTensor indices(index_dtype, index_shape);
    indices.set_all(index_values);
    HostTensor out(dtype, out_shape, opaque_size);
    return std::make_unique<GatherCall>(op, std::move(data), std::move(indices), std::move(out));
}

void expect_gather_rejected(scatter_context context, GatherCall& call, scatter_status expected,
                            const std::vector<std::string>& message_parts) {
    call.out.fill_sentinel(0x3c);
    const std::vector<uint8_t> data_before = call.data.storage();
    const std::vector<uint8_t> indices_before = call.indices.storage();
    const std::vector<uint8_t> out_before = call.out.storage();
    (void)scatter_buffer_write(nullptr, 0, nullptr, 1);  // a known message, so a stale one cannot pass
    const std::string stale = scatter_last_error_message();

    const scatter_status status = call.run(context);
    const std::string message = scatter_last_error_message();
    EXPECT_STREQ(scatter_status_name(status), scatter_status_name(expected))
        << "gather " << op_name(call.op) << ": message was \"" << message << "\"";
    if (status == SCATTER_OK) return;
    EXPECT_TRUE(is_one_sentence(message));
    EXPECT_NE(message, stale) << "the failed call left no message of its own";
    for (const std::string& part : message_parts)
        EXPECT_NE(message.find(part), std::string::npos) << "message \"" << message << "\" does not contain \"" << part << "\"";
    EXPECT_TRUE(call.data.storage() == data_before) << "data changed";
    EXPECT_TRUE(call.indices.storage() == indices_before) << "indices changed";
    EXPECT_TRUE(call.out.storage() == out_before) << "out changed";
}

}  // namespace scatter_test
