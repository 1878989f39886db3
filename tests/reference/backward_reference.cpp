#include "backward_reference.h"

#include "dtypes.h"
#include "half_float.h"
#include "strided_tensor.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <vector>

namespace scatter_reference {
namespace {

using scatter_test::Op;
using scatter_test::Shape;
using scatter_test::StridedTensor;

double read(const StridedTensor& t, const int64_t* coords) {
    const char* p = t.at(coords);
    switch (t.dtype) {
        case SCATTER_DTYPE_F16: {
            uint16_t b;
            std::memcpy(&b, p, 2);
            return scatter_test::f16_to_f32(b);
        }
        case SCATTER_DTYPE_BF16: {
            uint16_t b;
            std::memcpy(&b, p, 2);
            return scatter_test::bf16_to_f32(b);
        }
        case SCATTER_DTYPE_F32: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        default: {
            double d;
            std::memcpy(&d, p, 8);
            return d;
        }
    }
}

void write(const StridedTensor& t, const int64_t* coords, double value) {
    scatter_test::encode_value(t.dtype, 0, value, reinterpret_cast<uint8_t*>(t.at(coords)));
}

// One step of arithmetic as the dtype does it: f64 in double; the others in float, rounded to
// the dtype after the step.
struct Arith {
    scatter_dtype dtype;
    double round(float x) const {
        switch (dtype) {
            case SCATTER_DTYPE_F16: return scatter_test::f16_to_f32(scatter_test::f32_to_f16(x));
            case SCATTER_DTYPE_BF16: return scatter_test::bf16_to_f32(scatter_test::f32_to_bf16(x));
            default: return x;
        }
    }
    double add(double a, double b) const { return dtype == SCATTER_DTYPE_F64 ? a + b : round(float(a) + float(b)); }
    double mul(double a, double b) const { return dtype == SCATTER_DTYPE_F64 ? a * b : round(float(a) * float(b)); }
    double div(double a, double b) const { return dtype == SCATTER_DTYPE_F64 ? a / b : round(float(a) / float(b)); }
    double count(int64_t n) const { return dtype == SCATTER_DTYPE_F64 ? double(n) : round(float(n)); }
};

bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// The position an index names in a dimension of size s, or -1 (skipped / filled); *bad is set
// when the policy makes it an error.
int64_t resolve(int64_t i, int64_t s, scatter_out_of_range policy, bool gather, bool* bad) {
    if (i >= -s && i < s) return i < 0 ? i + s : i;
    if (policy == SCATTER_OUT_OF_RANGE_ERROR) *bad = true;
    if (policy != SCATTER_OUT_OF_RANGE_CLAMP) return -1;
    if (s == 0) {
        if (gather) *bad = true;  // gather has nothing to clamp to; scatter skips
        return -1;
    }
    return i < 0 ? 0 : s - 1;
}

// For each position p of `positions` (row-major) the flat row-major target in `data` or -1.
// batch_dims: nd gather only. Returns false when an index is an error under the policy.
bool map_targets(Op op, const StridedTensor& indices, const Shape& data, const Shape& positions, int32_t axis,
                 uint32_t batch_dims, scatter_out_of_range policy, bool gather, std::vector<int64_t>* targets) {
    bool bad = false;
    // Every index is checked, also those whose slice is empty.
    const uint32_t q = uint32_t(indices.rank());
    scatter_test::for_each_coordinate(indices.shape, [&](const int64_t* c) {
        const int64_t s = op == Op::nd ? data[batch_dims + uint32_t(c[q - 1])] : data[uint32_t(axis)];
        resolve(indices.index_at(c), s, policy, gather, &bad);
    });
    if (bad) return false;
    const uint32_t r = uint32_t(data.size());
    targets->clear();
    scatter_test::for_each_coordinate(positions, [&](const int64_t* p) {
        std::vector<int64_t> t(r);
        bool skip = false;
        if (op == Op::elements) {
            for (uint32_t d = 0; d < r; ++d) t[d] = p[d];
            t[uint32_t(axis)] = resolve(indices.index_at(p), data[uint32_t(axis)], policy, gather, &bad);
            skip = t[uint32_t(axis)] < 0;
        } else if (op == Op::rows) {
            const uint32_t a = uint32_t(axis);
            for (uint32_t d = 0; d < a; ++d) t[d] = p[d];
            t[a] = resolve(indices.index_at(p + a), data[a], policy, gather, &bad);
            for (uint32_t d = a + 1; d < r; ++d) t[d] = p[d - 1 + q];
            skip = t[a] < 0;
        } else {
            const uint32_t k = uint32_t(indices.shape[q - 1]), b = batch_dims;
            std::vector<int64_t> ic(q, 0);
            std::copy(p, p + q - 1, ic.begin());
            for (uint32_t d = 0; d < b; ++d) t[d] = p[d];
            for (uint32_t c = 0; c < k; ++c) {
                ic[q - 1] = c;
                t[b + c] = resolve(indices.index_at(ic.data()), data[b + c], policy, gather, &bad);
                skip = skip || t[b + c] < 0;
            }
            for (uint32_t d = b + k; d < r; ++d) t[d] = p[q - 1 + d - b - k];
        }
        targets->push_back(skip ? -1 : scatter_test::linear_position(data, t.data()));
    });
    return true;
}

std::vector<double> read_all(const StridedTensor& t) {
    std::vector<double> values;
    scatter_test::for_each_coordinate(t.shape, [&](const int64_t* c) { values.push_back(read(t, c)); });
    return values;
}

void write_all(const StridedTensor& t, const std::vector<double>& values) {
    size_t i = 0;
    scatter_test::for_each_coordinate(t.shape, [&](const int64_t* c) { write(t, c, values[i++]); });
}

StridedTensor view(const scatter_tensor* t) {
    return scatter_test::view_of(*t, scatter_test::element_bytes(t->dtype, 0));
}

}  // namespace

scatter_status scatter_backward(Op op, const scatter_tensor* data_t, const scatter_tensor* indices_t,
                                const scatter_tensor* updates_t, const scatter_tensor* out_t,
                                const scatter_tensor* grad_out_t, const scatter_options* options,
                                const scatter_tensor* grad_data_t, const scatter_tensor* grad_updates_t) {
    scatter_options o = SCATTER_OPTIONS_INIT;
    if (options != nullptr) o = *options;
    const scatter_reduction red = o.reduction == SCATTER_REDUCTION_DEFAULT ? SCATTER_REDUCTION_NONE : o.reduction;
    const scatter_out_of_range policy =
        o.out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT ? SCATTER_OUT_OF_RANGE_ERROR : o.out_of_range;
    const bool exclude = (o.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0 && red != SCATTER_REDUCTION_NONE;
    const StridedTensor data = view(data_t), indices = view(indices_t), updates = view(updates_t);
    const StridedTensor grad_out = view(grad_out_t);
    const int32_t axis = o.axis < 0 ? o.axis + int32_t(data.rank()) : o.axis;
    std::vector<int64_t> target;
    if (!map_targets(op, indices, data.shape, updates.shape, axis, 0, policy, false, &target))
        return SCATTER_ERROR_INDEX_OUT_OF_RANGE;

    const Arith A{data.dtype};
    const std::vector<double> d = read_all(data), u = read_all(updates), g = read_all(grad_out);
    const std::vector<double> out = out_t != nullptr ? read_all(view(out_t)) : std::vector<double>(d.size());
    std::vector<std::vector<size_t>> hits(d.size());
    for (size_t j = 0; j < target.size(); ++j)
        if (target[j] >= 0) hits[size_t(target[j])].push_back(j);
    std::vector<double> gd(d.size()), gu(u.size(), 0.0);

    for (size_t t = 0; t < d.size(); ++t) {
        const std::vector<size_t>& h = hits[t];
        const bool hit = !h.empty();
        switch (red) {
            case SCATTER_REDUCTION_NONE:
                gd[t] = hit ? 0.0 : g[t];
                if (hit) gu[h.back()] = g[t];
                break;
            case SCATTER_REDUCTION_ADD:
            case SCATTER_REDUCTION_SUB:
                gd[t] = exclude && hit ? 0.0 : g[t];
                for (size_t j : h) gu[j] = red == SCATTER_REDUCTION_ADD ? g[t] : -g[t];
                break;
            case SCATTER_REDUCTION_MEAN: {
                int64_t n = int64_t(h.size()) + (exclude ? 0 : 1);
                if (n == 0) n = 1;
                const double share = A.div(g[t], A.count(n));
                gd[t] = !hit ? g[t] : exclude ? 0.0 : share;
                for (size_t j : h) gu[j] = share;
                break;
            }
            case SCATTER_REDUCTION_MAX:
            case SCATTER_REDUCTION_MIN: {
                const bool self_term = (!exclude || !hit) && same_value(d[t], out[t]);
                int64_t n = self_term ? 1 : 0;
                for (size_t j : h) n += same_value(u[j], out[t]) ? 1 : 0;
                const double share = n > 0 ? A.div(g[t], A.count(n)) : 0.0;
                gd[t] = self_term ? share : 0.0;
                for (size_t j : h) gu[j] = same_value(u[j], out[t]) ? share : 0.0;
                break;
            }
            case SCATTER_REDUCTION_MUL: {
                if (!hit) gd[t] = g[t];
                else if (exclude) gd[t] = 0.0;
                else if (d[t] != 0) gd[t] = A.div(A.mul(g[t], out[t]), d[t]);
                else {
                    double product = 1.0;
                    for (size_t j : h) product = A.mul(product, u[j]);
                    gd[t] = A.mul(g[t], product);
                }
                int zeros = 0;
                for (size_t j : h) zeros += u[j] == 0 ? 1 : 0;
                const double g_out = A.mul(g[t], out[t]);
                for (size_t j : h) {
                    if (u[j] != 0) {
                        gu[j] = A.div(g_out, u[j]);
                    } else if (zeros == 1) {
                        double others = exclude ? 1.0 : d[t];
                        for (size_t i : h) others = A.mul(others, u[i] == 0 ? 1.0 : u[i]);
                        gu[j] = A.mul(g[t], others);
                    } else {
                        gu[j] = A.div(g_out, 1.0);
                    }
                }
                break;
            }
            case SCATTER_REDUCTION_DIV: {
                double quotient = g[t];
                for (size_t j : h) quotient = A.div(quotient, u[j]);
                gd[t] = exclude && hit ? 0.0 : quotient;
                const double g_out = A.mul(g[t], out[t]);
                for (size_t j : h) gu[j] = -A.div(g_out, u[j]);
                break;
            }
            default: return SCATTER_ERROR_INVALID_ARGUMENT;
        }
    }
    if (grad_data_t != nullptr) write_all(view(grad_data_t), gd);
    if (grad_updates_t != nullptr) write_all(view(grad_updates_t), gu);
    return SCATTER_OK;
}

scatter_status gather_backward(Op op, const scatter_tensor* indices_t, const scatter_tensor* grad_out_t,
                               const scatter_gather_options* options, const scatter_tensor* grad_data_t) {
    scatter_gather_options o = SCATTER_GATHER_OPTIONS_INIT;
    if (options != nullptr) o = *options;
    const scatter_out_of_range policy =
        o.out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT ? SCATTER_OUT_OF_RANGE_ERROR : o.out_of_range;
    const StridedTensor indices = view(indices_t), grad_out = view(grad_out_t), grad_data = view(grad_data_t);
    const int32_t axis = o.axis < 0 ? o.axis + int32_t(grad_data.rank()) : o.axis;
    std::vector<int64_t> target;
    if (!map_targets(op, indices, grad_data.shape, grad_out.shape, axis, o.batch_dims, policy, true, &target))
        return SCATTER_ERROR_INDEX_OUT_OF_RANGE;
    const Arith A{grad_data.dtype};
    const std::vector<double> g = read_all(grad_out);
    std::vector<double> gd(size_t(grad_data.element_count()), 0.0);
    for (size_t p = 0; p < target.size(); ++p)
        if (target[p] >= 0) gd[size_t(target[p])] = A.add(gd[size_t(target[p])], g[p]);
    write_all(grad_data, gd);
    return SCATTER_OK;
}

}  // namespace scatter_reference
