#include "vulkan_case.h"

#include "run_case.h"

#include <cstring>
#include <limits>
#include <sstream>

namespace vulkan_test {
namespace {

using scatter_test::CaseTensors;
using scatter_test::HostTensor;

// Writes packed row-major elements into t's elements (as many as both have).
void assign_elements(HostTensor* t, const std::vector<uint8_t>& packed) {
    const size_t size = t->element_size();
    size_t e = 0;
    scatter_test::for_each_coordinate(t->shape(), [&](const int64_t* p) {
        if ((e + 1) * size <= packed.size()) std::memcpy(t->element(p), &packed[e * size], size);
        ++e;
    });
}

CaseTensors to_tensors(const Case& c, bool spaced) {
    CaseTensors t;
    t.op = c.op;
    t.options = c.options;
    t.in_place = c.in_place;
    const uint32_t opaque = c.dtype == SCATTER_DTYPE_OPAQUE ? c.element_size : 0;
    const scatter_test::Layout layout = spaced ? scatter_test::Layout::every_second() : scatter_test::Layout::row_major();
    t.data = HostTensor(c.dtype, c.data_shape, opaque);
    assign_elements(&t.data, c.data);
    t.indices = HostTensor(c.index_i64 ? SCATTER_DTYPE_I64 : SCATTER_DTYPE_I32, c.index_shape);
    assign_elements(&t.indices, c.indices);
    t.updates = HostTensor(c.dtype, c.update_shape, opaque, layout);
    t.updates.fill_sentinel(0x5a);
    assign_elements(&t.updates, c.updates);
    if (!c.in_place) {
        t.out = HostTensor(c.dtype, c.data_shape, opaque, layout);
        t.out.fill_sentinel(0xa5);
        assign_elements(&t.out, c.data);
    }
    return t;
}

Result run(scatter_context context, const Case& c, bool spaced, scatter_test::Placement placement) {
    scatter_test::Outcome o = scatter_test::run_case(context, to_tensors(c, spaced), placement);
    Result r;
    r.status = o.status;
    r.message = o.message;
    r.out = o.tensors.destination().logical_bytes();
    r.canary = o.stray_write;
    return r;
}

template <class T>
void put(std::vector<uint8_t>* out, size_t e, T v) {
    std::memcpy(out->data() + e * sizeof(T), &v, sizeof(T));
}

uint16_t f32_to_bf16_truncate(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint16_t(u >> 16);
}

// f32 -> f16 for exactly representable small values (the generator only uses those).
uint16_t small_f32_to_f16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u, magnitude = u & 0x7fffffffu;
    if (magnitude == 0) return uint16_t(sign);
    uint32_t exponent = (magnitude >> 23) - 112u;
    return uint16_t(sign | (exponent << 10) | ((magnitude >> 13) & 0x3ffu));
}

double interesting_double(std::mt19937_64& rng, bool nonzero) {
    const double inf = std::numeric_limits<double>::infinity();
    const double specials[] = {0.0, -0.0, inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1e30, -1e-30, 65504.0, 3.0e38};
    uint64_t pick = rng() % 16;
    double v;
    if (pick == 0) v = specials[rng() % (sizeof specials / sizeof specials[0])];
    else v = double(int64_t(rng() % 33) - 16) / double(1 << (rng() % 4));  // k/8: exact in every float type
    if (nonzero && v == 0.0) v = 1.5;
    return v;
}

}  // namespace

std::string Case::describe() const {
    std::ostringstream s;
    s << scatter_test::op_name(op) << " " << scatter_dtype_name(dtype) << " " << scatter_reduction_name(options.reduction)
      << " axis=" << options.axis << " policy=" << int(options.out_of_range)
      << (options.flags & SCATTER_OPTION_EXCLUDE_SELF ? " exclude_self" : "") << (in_place ? " in_place" : "")
      << (index_i64 ? " i64" : " i32") << " data=[";
    for (int64_t d : data_shape) s << d << ",";
    s << "] indices=[";
    for (int64_t d : index_shape) s << d << ",";
    s << "]";
    return s.str();
}

void random_values(std::mt19937_64& rng, scatter_dtype dtype, uint32_t size, size_t count, bool nonzero,
                   std::vector<uint8_t>* out) {
    out->assign(count * size, 0);
    for (size_t e = 0; e < count; ++e) {
        bool raw_bits = rng() % 8 == 0;
        switch (dtype) {
            case SCATTER_DTYPE_F16:
            case SCATTER_DTYPE_BF16: {
                uint16_t bits;
                if (raw_bits) bits = uint16_t(rng());
                else {
                    float v = float(int64_t(rng() % 33) - 16) / float(1 << (rng() % 4));
                    bits = dtype == SCATTER_DTYPE_F16 ? small_f32_to_f16(v) : f32_to_bf16_truncate(v);
                }
                if (nonzero && (bits & 0x7fffu) == 0) bits = 0x3c00u;
                put(out, e, bits);
                break;
            }
            case SCATTER_DTYPE_F32: {
                float v = float(interesting_double(rng, nonzero));
                if (raw_bits) {
                    uint32_t bits = uint32_t(rng());
                    std::memcpy(&v, &bits, 4);
                }
                put(out, e, v);
                break;
            }
            case SCATTER_DTYPE_F64: put(out, e, raw_bits ? double(int64_t(rng()) >> 11) * 1e-3 : interesting_double(rng, nonzero)); break;
            case SCATTER_DTYPE_C64:
                put(out, 2 * e, float(interesting_double(rng, nonzero)));
                put(out, 2 * e + 1, float(interesting_double(rng, false)));
                break;
            case SCATTER_DTYPE_C128:
                put(out, 2 * e, interesting_double(rng, nonzero));
                put(out, 2 * e + 1, interesting_double(rng, false));
                break;
            case SCATTER_DTYPE_BOOL: (*out)[e] = uint8_t(rng() % 5 == 0 ? 2 : rng() % 2); break;
            case SCATTER_DTYPE_OPAQUE:
                for (uint32_t b = 0; b < size; ++b) (*out)[e * size + b] = uint8_t(rng());
                break;
            default: {  // integers: small values mostly, extremes and random bits sometimes
                uint64_t v = raw_bits ? rng() : uint64_t(int64_t(rng() % 21) - 10);
                if (rng() % 16 == 0) v = uint64_t(1) << (size * 8 - 1);  // the signed minimum
                if (nonzero && (v & (size == 8 ? ~uint64_t(0) : ((uint64_t(1) << (size * 8)) - 1))) == 0) v = 3;
                std::memcpy(out->data() + e * size, &v, size);  // little-endian low bytes
                break;
            }
        }
    }
}

Case random_case(std::mt19937_64& rng, Op op, scatter_dtype dtype, scatter_reduction reduction) {
    Case c;
    c.op = op;
    c.dtype = dtype;
    c.element_size = dtype == SCATTER_DTYPE_OPAQUE ? uint32_t(1 + rng() % 7) : uint32_t(scatter_dtype_size(dtype));
    c.index_i64 = rng() % 2 == 0;
    c.options.reduction = reduction;
    static const scatter_out_of_range policies[] = {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_SKIP,
                                                    SCATTER_OUT_OF_RANGE_CLAMP};
    c.options.out_of_range = policies[rng() % 3];
    if (rng() % 3 == 0) c.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
    c.in_place = rng() % 4 == 0;

    const size_t rank = 1 + rng() % 3;
    c.data_shape.resize(rank);
    for (auto& s : c.data_shape) s = 1 + int64_t(rng() % 6);
    const bool out_of_range_allowed = c.options.out_of_range != SCATTER_OUT_OF_RANGE_ERROR;
    std::vector<int64_t> index_values;
    std::vector<int64_t> bounds;  // the dimension size each index addresses
    if (op == Op::elements) {
        int axis = int(rng() % rank);
        c.options.axis = rng() % 2 ? axis : axis - int(rank);  // negative axes too
        c.index_shape = c.data_shape;
        for (size_t d = 0; d < rank; ++d)
            c.index_shape[d] = int64_t(d) == axis ? 1 + int64_t(rng() % 7) : 1 + int64_t(rng() % c.data_shape[d]);
        c.update_shape = c.index_shape;
        bounds.assign(size_t(element_count(c.index_shape)), c.data_shape[axis]);
    } else if (op == Op::rows) {
        int axis = int(rng() % rank);
        c.options.axis = axis;
        size_t q = rng() % 3;
        c.index_shape.resize(q);
        for (auto& s : c.index_shape) s = 1 + int64_t(rng() % 4);
        c.update_shape.assign(c.data_shape.begin(), c.data_shape.begin() + axis);
        c.update_shape.insert(c.update_shape.end(), c.index_shape.begin(), c.index_shape.end());
        c.update_shape.insert(c.update_shape.end(), c.data_shape.begin() + axis + 1, c.data_shape.end());
        bounds.assign(size_t(element_count(c.index_shape)), c.data_shape[axis]);
    } else {
        size_t k = 1 + rng() % rank;
        size_t batch = rng() % 3;
        c.index_shape.resize(batch);
        for (auto& s : c.index_shape) s = 1 + int64_t(rng() % 4);
        c.update_shape = c.index_shape;
        c.index_shape.push_back(int64_t(k));
        c.update_shape.insert(c.update_shape.end(), c.data_shape.begin() + k, c.data_shape.end());
        for (int64_t j = 0; j < element_count(c.index_shape) / int64_t(k); ++j)
            for (size_t d = 0; d < k; ++d) bounds.push_back(c.data_shape[d]);
    }
    for (int64_t bound : bounds) {
        int64_t v = int64_t(rng() % uint64_t(2 * bound)) - bound;  // [-s, s)
        if (out_of_range_allowed && rng() % 6 == 0) v = rng() % 2 ? bound + int64_t(rng() % 3) : -bound - 1 - int64_t(rng() % 3);
        if (out_of_range_allowed && c.index_i64 && rng() % 40 == 0) v = rng() % 2 ? INT64_MAX - 1 : INT64_MIN + 1;
        index_values.push_back(v);
    }
    c.indices.resize(index_values.size() * (c.index_i64 ? 8 : 4));
    for (size_t e = 0; e < index_values.size(); ++e) {
        if (c.index_i64) put(&c.indices, e, index_values[e]);
        else put(&c.indices, e, int32_t(index_values[e]));
    }
    const bool integer_div = reduction == SCATTER_REDUCTION_DIV && dtype != SCATTER_DTYPE_F16 &&
                             dtype != SCATTER_DTYPE_BF16 && dtype != SCATTER_DTYPE_F32 && dtype != SCATTER_DTYPE_F64 &&
                             dtype != SCATTER_DTYPE_C64 && dtype != SCATTER_DTYPE_C128;
    random_values(rng, dtype, c.element_size, size_t(element_count(c.data_shape)), false, &c.data);
    random_values(rng, dtype, c.element_size, size_t(element_count(c.update_shape)), integer_div, &c.updates);
    return c;
}

Result run_reference(const Case& c) { return run(nullptr, c, false, scatter_test::Placement::host); }

Result run_case(scatter_context context, const Case& c, Layout layout) {
    switch (layout) {
        case Layout::Host: return run(context, c, false, scatter_test::Placement::host);
        case Layout::HostStrided: return run(context, c, true, scatter_test::Placement::host);
        default: return run(context, c, false, scatter_test::Placement::buffers);
    }
}

}  // namespace vulkan_test
