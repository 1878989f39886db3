#include "bench_workloads.h"

#include "gather_shape.h"
#include "option_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace {

// splitmix64: small, fast and identical everywhere, so inputs are the same on every machine.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t bound) {  // uniform in [0, bound)
        return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
    }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

private:
    uint64_t state_;
};

uint64_t element_count(const std::vector<int64_t>& shape) {
    uint64_t count = 1;
    for (int64_t extent : shape) count *= static_cast<uint64_t>(extent);
    return count;
}

template <typename T>
HostBytes random_values(Random& random, uint64_t count, double low, double high, size_t offset) {
    HostBytes bytes(count * sizeof(T), offset);
    T* values = reinterpret_cast<T*>(bytes.data());
    for (uint64_t i = 0; i < count; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            values[i] = static_cast<T>(low + (high - low) * random.unit());
        } else {
            const auto span = static_cast<uint64_t>(static_cast<int64_t>(high) - static_cast<int64_t>(low)) + 1;
            values[i] = static_cast<T>(static_cast<int64_t>(low) + static_cast<int64_t>(random.below(span)));
        }
    }
    return bytes;
}

HostBytes random_tensor(Random& random, scatter_dtype dtype, uint64_t count, double low, double high,
                        size_t offset) {
    switch (dtype) {
    case SCATTER_DTYPE_F32: return random_values<float>(random, count, low, high, offset);
    case SCATTER_DTYPE_F64: return random_values<double>(random, count, low, high, offset);
    case SCATTER_DTYPE_I32: return random_values<int32_t>(random, count, low, high, offset);
    case SCATTER_DTYPE_I64: return random_values<int64_t>(random, count, low, high, offset);
    default: throw std::logic_error("workload dtype has no generator");
    }
}

// The extent each index position ranges over: the target axis, or for nd the k indexed dims.
std::vector<int64_t> index_bounds(const Workload& workload) {
    const auto& data = workload.data_shape;
    if (workload.op == ScatterOp::nd) {
        const size_t depth = static_cast<size_t>(workload.indices_shape.back());
        return std::vector<int64_t>(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(depth));
    }
    const int32_t rank = static_cast<int32_t>(data.size());
    return {data[static_cast<size_t>(workload.axis < 0 ? workload.axis + rank : workload.axis)]};
}

template <typename Map>
auto lookup(const Map& names, const std::string& name, const char* what) {
    const auto found = names.find(name);
    if (found == names.end()) throw std::logic_error(std::string("workload table: unknown ") + what + " " + name);
    return found->second;
}

scatter_dtype dtype_named(const std::string& name) {
    static const std::map<std::string, scatter_dtype> names = {
        {"f32", SCATTER_DTYPE_F32}, {"f64", SCATTER_DTYPE_F64},
        {"i32", SCATTER_DTYPE_I32}, {"i64", SCATTER_DTYPE_I64}};
    return lookup(names, name, "dtype");
}

Workload parse_workload(const nlohmann::json& row) {
    Workload workload;
    workload.id = row.at("id").get<std::string>();
    workload.op_name = row.at("op").get<std::string>();
    const OpChoice op = lookup(op_names(), workload.op_name, "op");
    workload.op = op.form;
    workload.gather = op.gather;
    workload.message_passing = op.message_passing;
    workload.axis = row.at("axis").get<int32_t>();
    workload.dtype_name = row.at("dtype").get<std::string>();
    workload.dtype = dtype_named(workload.dtype_name);
    workload.data_shape = row.at("data").get<std::vector<int64_t>>();
    workload.indices_shape = row.at("indices").get<std::vector<int64_t>>();
    if (workload.gather) {
        if (row.contains("reduction") || row.contains("updates") || row.contains("updates_range"))
            throw std::logic_error("workload table: " + workload.id + " is a gather: no reduction, no updates");
        scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
        options.axis = workload.op == ScatterOp::nd ? 0 : workload.axis;
        if (!gather_shape(workload.op, workload.data_shape, workload.indices_shape, options, &workload.out_shape))
            throw std::logic_error("workload table: " + workload.id + " has shapes no gather takes");
    } else if (workload.message_passing) {
        workload.reduction_name = row.at("reduction").get<std::string>();
        workload.reduction = lookup(reduction_names(), workload.reduction_name, "reduction");
        workload.x_shape = row.at("x").get<std::vector<int64_t>>();
        workload.out_shape = workload.data_shape;
        if (row.contains("updates") || workload.indices_shape.size() != 1 || workload.axis != 0)
            throw std::logic_error("workload table: " + workload.id + " passes messages: x, [E] edges, axis 0");
    } else {
        workload.reduction_name = row.at("reduction").get<std::string>();
        workload.reduction = lookup(reduction_names(), workload.reduction_name, "reduction");
        workload.updates_shape = row.at("updates").get<std::vector<int64_t>>();
        workload.out_shape = workload.data_shape;
    }
    workload.backward = row.value("backward", false);
    if (workload.backward && workload.gather)
        throw std::logic_error("workload table: " + workload.id + ": backward is for scatter workloads");
    workload.ties = row.value("ties", int64_t(0));
    const bool is_integer = workload.dtype == SCATTER_DTYPE_I32 || workload.dtype == SCATTER_DTYPE_I64;
    if (workload.ties < 0 || (workload.ties > 0 && (workload.dtype != SCATTER_DTYPE_F32 || workload.gather)))
        throw std::logic_error("workload table: ties is for f32 scatter workloads, and positive");
    if (is_integer) {
        workload.updates_low = -1000000;
        workload.updates_high = 1000000;
    }
    if (row.contains("updates_range")) {
        workload.updates_low = row["updates_range"].at(0).get<double>();
        workload.updates_high = row["updates_range"].at(1).get<double>();
    }
    workload.latency = row.value("latency", false);
    workload.indices_sorted = row.value("indices_sorted", false);
    workload.large = row.value("large", false);
    workload.targets_per_row = row.value("targets_per_row", int64_t(0));
    if (workload.targets_per_row < 0 || (workload.targets_per_row > 0 && workload.op != ScatterOp::elements))
        throw std::logic_error("workload table: targets_per_row is for elements workloads, and positive");
    workload.indices_broadcast = row.value("indices_broadcast", false);
    if (workload.indices_broadcast && workload.op != ScatterOp::elements)
        throw std::logic_error("workload table: indices_broadcast is for elements workloads");
    return workload;
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string text = "[";
    for (size_t d = 0; d < shape.size(); ++d) text += (d ? "," : "") + std::to_string(shape[d]);
    return text + "]";
}

// elements: the index tensor as [outer, length, inner] around the axis; calls visit(first, step)
// for each fiber (the `length` indices of one outer and inner position).
template <typename Visit>
void for_each_fiber(const Workload& workload, Visit&& visit) {
    const auto& shape = workload.indices_shape;
    const size_t axis = static_cast<size_t>(workload.axis < 0 ? workload.axis + int32_t(shape.size()) : workload.axis);
    uint64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= uint64_t(shape[d]);
    for (size_t d = axis + 1; d < shape.size(); ++d) inner *= uint64_t(shape[d]);
    const uint64_t length = uint64_t(shape[axis]);
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t i = 0; i < inner; ++i) visit(o * length * inner + i, inner, length);
}

// Applies the workload's index distribution to uniform indices.
void shape_indices(const Workload& workload, Random& random, int64_t* indices) {
    const std::vector<int64_t> bounds = index_bounds(workload);
    const uint64_t count = element_count(workload.indices_shape);
    if (workload.targets_per_row > 0) {
        std::vector<int64_t> targets(static_cast<size_t>(workload.targets_per_row));
        for_each_fiber(workload, [&](uint64_t first, uint64_t step, uint64_t length) {
            for (int64_t& target : targets) target = int64_t(random.below(uint64_t(bounds[0])));
            for (uint64_t k = 0; k < length; ++k)
                indices[first + k * step] = targets[random.below(targets.size())];
        });
    }
    if (workload.indices_broadcast) {  // the first fiber's indices in every fiber
        uint64_t first_fiber = 0, first_step = 0;
        bool first = true;
        for_each_fiber(workload, [&](uint64_t start, uint64_t step, uint64_t length) {
            if (first) {
                first_fiber = start;
                first_step = step;
                first = false;
                return;
            }
            for (uint64_t k = 0; k < length; ++k) indices[start + k * step] = indices[first_fiber + k * first_step];
        });
    }
    if (!workload.indices_sorted) return;
    if (workload.op == ScatterOp::elements) {
        std::vector<int64_t> fiber;
        for_each_fiber(workload, [&](uint64_t first, uint64_t step, uint64_t length) {
            fiber.resize(length);
            for (uint64_t k = 0; k < length; ++k) fiber[k] = indices[first + k * step];
            std::sort(fiber.begin(), fiber.end());
            for (uint64_t k = 0; k < length; ++k) indices[first + k * step] = fiber[k];
        });
    } else if (workload.op == ScatterOp::rows) {
        std::sort(indices, indices + count);
    } else {  // nd: tuples of depth k, lexicographically, through their row-major position
        const size_t depth = bounds.size();
        std::vector<int64_t> keys(count / depth);
        for (size_t s = 0; s < keys.size(); ++s) {
            int64_t key = 0;
            for (size_t j = 0; j < depth; ++j) key = key * bounds[j] + indices[s * depth + j];
            keys[s] = key;
        }
        std::sort(keys.begin(), keys.end());
        for (size_t s = 0; s < keys.size(); ++s)
            for (size_t j = depth; j-- > 0;) {
                indices[s * depth + j] = keys[s] % bounds[j];
                keys[s] /= bounds[j];
            }
    }
}

}  // namespace

std::string Workload::describe() const {
    std::string text = op_name;
    if (op != ScatterOp::nd) text += " axis " + std::to_string(axis);
    if (!gather) text += " " + reduction_name;
    if (backward) text += " backward";
    text += " " + dtype_name + " data" + shape_text(data_shape);
    if (message_passing) return text + " x" + shape_text(x_shape) + " edges" + shape_text(indices_shape);
    text += " indices" + shape_text(indices_shape);
    if (indices_sorted) text += " sorted";
    if (targets_per_row > 0) text += " " + std::to_string(targets_per_row) + "/row";
    if (indices_broadcast) text += " broadcast";
    if (ties > 0) text += " " + std::to_string(ties) + " values";
    return text;
}

const std::vector<Workload>& standard_workloads() {
    static const std::vector<Workload> workloads = [] {
        std::vector<Workload> rows;
        for (const nlohmann::json& row : nlohmann::json::parse(standard_workloads_json()))
            rows.push_back(parse_workload(row));
        return rows;
    }();
    return workloads;
}

HostBytes::HostBytes(size_t size, size_t offset)
    : block_(new uint8_t[size + kAlignment + offset]), size_(size) {
    const uintptr_t start = reinterpret_cast<uintptr_t>(block_.get());
    data_ = block_.get() + ((kAlignment - start % kAlignment) % kAlignment) + offset;
}

WorkloadInputs generate_inputs(const Workload& workload, size_t offset) {
    Random random(0);
    WorkloadInputs inputs;
    const bool is_integer = workload.dtype == SCATTER_DTYPE_I32 || workload.dtype == SCATTER_DTYPE_I64;
    inputs.data = random_tensor(random, workload.dtype, element_count(workload.data_shape),
                                is_integer ? -1000000 : 0.0, is_integer ? 1000000 : 1.0, offset);

    const std::vector<int64_t> bounds = index_bounds(workload);
    const uint64_t index_count = element_count(workload.indices_shape);
    inputs.indices = HostBytes(index_count * sizeof(int64_t), offset);
    int64_t* indices = reinterpret_cast<int64_t*>(inputs.indices.data());
    for (uint64_t i = 0; i < index_count; ++i)
        indices[i] = static_cast<int64_t>(random.below(static_cast<uint64_t>(bounds[i % bounds.size()])));

    if (workload.message_passing) {  // indices are src, over x's rows; dst over data's
        for (uint64_t i = 0; i < index_count; ++i)
            indices[i] = static_cast<int64_t>(random.below(static_cast<uint64_t>(workload.x_shape[0])));
        inputs.dst = HostBytes(index_count * sizeof(int64_t), offset);
        int64_t* dst = reinterpret_cast<int64_t*>(inputs.dst.data());
        for (uint64_t i = 0; i < index_count; ++i)
            dst[i] = static_cast<int64_t>(random.below(static_cast<uint64_t>(workload.data_shape[0])));
        inputs.updates = random_tensor(random, workload.dtype, element_count(workload.x_shape), workload.updates_low,
                                       workload.updates_high, offset);
        return inputs;
    }
    shape_indices(workload, random, indices);

    if (!workload.gather)
        inputs.updates = random_tensor(random, workload.dtype, element_count(workload.updates_shape),
                                       workload.updates_low, workload.updates_high, offset);
    if (workload.ties > 0) {  // floats in [0, 1) become the integers 0 .. ties-1: many equal values
        for (HostBytes* tensor : {&inputs.data, &inputs.updates}) {
            float* values = reinterpret_cast<float*>(tensor->data());
            for (size_t i = 0; i < tensor->size() / sizeof(float); ++i)
                values[i] = static_cast<float>(static_cast<int64_t>(values[i] * static_cast<float>(workload.ties)));
        }
    }
    if (workload.backward)
        inputs.grad_out = random_tensor(random, workload.dtype, element_count(workload.data_shape), 0.0, 1.0, offset);
    return inputs;
}
