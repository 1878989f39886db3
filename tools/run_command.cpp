// `scatter run`: load the .npy files, scatter (data, indices, updates), gather (data, indices) or
// pass messages (data, x, src, dst, weights), and write the result .npy atomically.
#include "cli_error.h"
#include "commands.h"
#include "fill_value.h"
#include "gather_shape.h"
#include "npy.h"
#include "output_file.h"

#include <limits>

namespace {

npy::NpyArray load_input(const char* option, const std::string& path) {
    try {
        return npy::load(path);
    } catch (const npy::NpyError& error) {
        throw CliError(SCATTER_ERROR_INVALID_ARGUMENT, std::string(option) + " " + error.what());
    }
}

// Fixed-width strings of different kinds can have equal byte sizes ('S8' and 'U2'); the library
// sees only opaque bytes, so the CLI insists on the same descr.
void check_same_opaque_kind(const npy::NpyArray& data, const npy::NpyArray& updates,
                            const char* name = "updates") {
    if (data.dtype.dtype == SCATTER_DTYPE_OPAQUE && updates.dtype.dtype == SCATTER_DTYPE_OPAQUE &&
        data.dtype.descr != updates.dtype.descr) {
        throw CliError(SCATTER_ERROR_TYPE_MISMATCH, std::string(name) + " dtype '" + updates.dtype.descr +
                                                        "' must equal data dtype '" +
                                                        data.dtype.descr + "'");
    }
}

scatter_tensor tensor_of(const npy::NpyArray& array, void* bytes) {
    scatter_tensor tensor = SCATTER_TENSOR_INIT;
    tensor.dtype = array.dtype.dtype;
    tensor.element_size = array.dtype.element_size;
    tensor.rank = static_cast<uint32_t>(array.shape.size());
    tensor.shape = array.shape.data();
    tensor.data = bytes;
    return tensor;
}

using OpFunction = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                      const scatter_tensor*, const scatter_options*,
                                      const scatter_tensor*);

OpFunction op_function(ScatterOp op) {
    switch (op) {
    case ScatterOp::elements: return &scatter_elements;
    case ScatterOp::rows: return &scatter_rows;
    case ScatterOp::nd: return &scatter_nd;
    }
    return nullptr;
}

using GatherFunction = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                          const scatter_gather_options*, const scatter_tensor*);

GatherFunction gather_function(ScatterOp op) {
    switch (op) {
    case ScatterOp::elements: return &scatter_gather_elements;
    case ScatterOp::rows: return &scatter_gather_rows;
    case ScatterOp::nd: return &scatter_gather_nd;
    }
    return nullptr;
}

// The bytes of an array of `shape`; throws where they overflow.
size_t byte_size(const std::vector<int64_t>& shape, uint32_t element_size) {
    uint64_t bytes = element_size;
    for (int64_t extent : shape) {
        if (extent == 0) return 0;
    }
    for (int64_t extent : shape) {
        if (bytes > std::numeric_limits<uint64_t>::max() / uint64_t(extent))
            throw CliError(SCATTER_ERROR_SHAPE_MISMATCH, "the gather's out would hold more than 2^64 bytes");
        bytes *= uint64_t(extent);
    }
    if (bytes > std::numeric_limits<size_t>::max())
        throw CliError(SCATTER_ERROR_OUT_OF_MEMORY, "the gather's out does not fit in memory");
    return size_t(bytes);
}

int gather_command(const RunOptions& options) {
    npy::NpyArray data = load_input("--data", options.data_path);
    npy::NpyArray indices = load_input("--indices", options.indices_path);
    scatter_gather_options gather_options = options.gather_options;
    std::vector<uint8_t> fill;
    if (options.has_fill_value) {
        fill = fill_value_bytes(options.fill_value, data.dtype);
        gather_options.fill_value = fill.data();
    }

    ContextHandle context = make_context(options.context);
    std::vector<int64_t> out_shape;
    // Without a shape from the rules, an empty placeholder: the library names what is wrong.
    if (!gather_shape(options.op.form, data.shape, indices.shape, gather_options, &out_shape)) out_shape = {0};
    std::vector<uint8_t> result(byte_size(out_shape, data.dtype.element_size));
    const scatter_tensor data_tensor = tensor_of(data, data.bytes.data());
    const scatter_tensor indices_tensor = tensor_of(indices, indices.bytes.data());
    scatter_tensor out_tensor = tensor_of(data, result.data());
    out_tensor.rank = static_cast<uint32_t>(out_shape.size());
    out_tensor.shape = out_shape.data();
    check_status(gather_function(options.op.form)(context.get(), &data_tensor, &indices_tensor,
                                                  &gather_options, &out_tensor));

    const std::string header = npy::encode_header(data.dtype, out_shape);
    write_file_atomically(options.out_path,
                          {{header.data(), header.size()}, {result.data(), result.size()}});
    return 0;
}

int message_passing_command(const RunOptions& options) {
    npy::NpyArray data = load_input("--data", options.data_path);
    npy::NpyArray x = load_input("--x", options.x_path);
    npy::NpyArray src = load_input("--src", options.src_path);
    npy::NpyArray dst = load_input("--dst", options.dst_path);
    const bool weighted = !options.weights_path.empty();
    npy::NpyArray weights = weighted ? load_input("--weights", options.weights_path) : npy::NpyArray();
    check_same_opaque_kind(data, x, "x");
    scatter_message_passing_options message_options = options.message_options;
    std::vector<uint8_t> fill;
    if (options.has_fill_value) {
        fill = fill_value_bytes(options.fill_value, data.dtype);
        message_options.fill_value = fill.data();
    }

    ContextHandle context = make_context(options.context);
    std::vector<uint8_t> result(data.bytes.size());
    const scatter_tensor data_tensor = tensor_of(data, data.bytes.data());
    const scatter_tensor x_tensor = tensor_of(x, x.bytes.data());
    const scatter_tensor src_tensor = tensor_of(src, src.bytes.data());
    const scatter_tensor dst_tensor = tensor_of(dst, dst.bytes.data());
    const scatter_tensor weights_tensor = weighted ? tensor_of(weights, weights.bytes.data()) : scatter_tensor();
    const scatter_tensor out_tensor = tensor_of(data, result.data());
    check_status(scatter_message_passing(context.get(), &data_tensor, &x_tensor, &src_tensor, &dst_tensor,
                                         weighted ? &weights_tensor : nullptr, &message_options, &out_tensor));

    const std::string header = npy::encode_header(data.dtype, data.shape);
    write_file_atomically(options.out_path,
                          {{header.data(), header.size()}, {result.data(), result.size()}});
    return 0;
}

}  // namespace

int run_command(const RunOptions& options) {
    if (options.op.gather) return gather_command(options);
    if (options.op.message_passing) return message_passing_command(options);
    npy::NpyArray data = load_input("--data", options.data_path);
    npy::NpyArray indices = load_input("--indices", options.indices_path);
    npy::NpyArray updates = load_input("--updates", options.updates_path);
    check_same_opaque_kind(data, updates);

    ContextHandle context = make_context(options.context);
    std::vector<uint8_t> result(data.bytes.size());
    const scatter_tensor data_tensor = tensor_of(data, data.bytes.data());
    const scatter_tensor indices_tensor = tensor_of(indices, indices.bytes.data());
    const scatter_tensor updates_tensor = tensor_of(updates, updates.bytes.data());
    const scatter_tensor out_tensor = tensor_of(data, result.data());
    check_status(op_function(options.op.form)(context.get(), &data_tensor, &indices_tensor,
                                         &updates_tensor, &options.options, &out_tensor));

    const std::string header = npy::encode_header(data.dtype, data.shape);
    write_file_atomically(options.out_path,
                          {{header.data(), header.size()}, {result.data(), result.size()}});
    return 0;
}
