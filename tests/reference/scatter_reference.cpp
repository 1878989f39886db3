// The oracle's scatter loop. Three phases, each as plain as possible:
//   1. list every update that takes effect, in row-major order of its position, with the
//      row-major position of its target (checking every index under the out-of-range policy);
//   2. apply the list to a contiguous copy of `data`: t = t op u, tracking per target whether it
//      was hit and how often (for exclude_self and mean);
//   3. only then write the copy to `out`, so a failure leaves `out` untouched and in-place
//      calls read `data` before anything is written.
#include "scatter_reference.h"

#include <cstring>
#include <vector>

#include "element_arith.h"
#include "validate.h"

namespace scatter_reference {
namespace {

struct Update {
    int64_t target;      // row-major position in data
    const char* source;  // the update element
};

enum class Resolution { in_range, skip, error };

// Maps index i of a dimension of extent s to [0, s) under the policy.
Resolution resolve_index(int64_t i, int64_t s, scatter_out_of_range policy, int64_t* resolved) {
    if (i >= -s && i < s) {
        *resolved = i < 0 ? i + s : i;
        return Resolution::in_range;
    }
    if (policy == SCATTER_OUT_OF_RANGE_ERROR) return Resolution::error;
    if (policy == SCATTER_OUT_OF_RANGE_SKIP || s == 0) return Resolution::skip;
    *resolved = i < 0 ? 0 : s - 1;
    return Resolution::in_range;
}

// Under ERROR every index is checked, even one whose slice holds no element.
scatter_status check_indices(const CheckedCall& c) {
    if (c.out_of_range != SCATTER_OUT_OF_RANGE_ERROR) return SCATTER_OK;
    const StridedTensor& ix = c.indices;
    scatter_status status = SCATTER_OK;
    for_each_coordinate(ix.shape, [&](const int64_t* p) {
        int64_t extent = c.op == Op::nd ? c.data.shape[size_t(p[ix.rank() - 1])]
                                        : c.data.shape[c.axis];
        int64_t i = ix.index_at(p);
        if (!(i >= -extent && i < extent)) status = SCATTER_ERROR_INDEX_OUT_OF_RANGE;
    });
    return status;
}

void list_elements_updates(const CheckedCall& c, std::vector<Update>* list) {
    std::vector<int64_t> target(c.data.rank());
    for_each_coordinate(c.indices.shape, [&](const int64_t* p) {
        int64_t resolved;
        auto r = resolve_index(c.indices.index_at(p), c.data.shape[c.axis], c.out_of_range,
                               &resolved);
        if (r != Resolution::in_range) return;
        target.assign(p, p + c.data.rank());
        target[c.axis] = resolved;
        list->push_back({linear_position(c.data.shape, target.data()), c.updates.at(p)});
    });
}

// updates coordinates = outer (axis dims) + index position (q dims) + inner.
void list_rows_updates(const CheckedCall& c, std::vector<Update>* list) {
    size_t q = c.indices.rank();
    std::vector<int64_t> target(c.data.rank());
    for_each_coordinate(c.updates.shape, [&](const int64_t* u) {
        int64_t resolved;
        auto r = resolve_index(c.indices.index_at(u + c.axis), c.data.shape[c.axis],
                               c.out_of_range, &resolved);
        if (r != Resolution::in_range) return;
        for (size_t d = 0; d < c.axis; ++d) target[d] = u[d];
        target[c.axis] = resolved;
        for (size_t d = c.axis + 1; d < c.data.rank(); ++d) target[d] = u[d - 1 + q];
        list->push_back({linear_position(c.data.shape, target.data()), c.updates.at(u)});
    });
}

// updates coordinates = index position (q-1 dims) + slice position (r-k dims); the slice is
// skipped whole when any of its k coordinates is out of range.
void list_nd_updates(const CheckedCall& c, std::vector<Update>* list) {
    size_t k = size_t(c.indices.shape.back());
    size_t batch = c.indices.rank() - 1;
    std::vector<int64_t> index_coords(c.indices.rank());
    std::vector<int64_t> target(c.data.rank());
    for_each_coordinate(c.updates.shape, [&](const int64_t* u) {
        for (size_t d = 0; d < batch; ++d) index_coords[d] = u[d];
        for (size_t j = 0; j < k; ++j) {
            index_coords[batch] = int64_t(j);
            auto r = resolve_index(c.indices.index_at(index_coords.data()), c.data.shape[j],
                                   c.out_of_range, &target[j]);
            if (r != Resolution::in_range) return;
        }
        for (size_t d = k; d < c.data.rank(); ++d) target[d] = u[batch + d - k];
        list->push_back({linear_position(c.data.shape, target.data()), c.updates.at(u)});
    });
}

template <class T> T load(const char* p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

template <class T> bool has_zero_divisor(const std::vector<Update>& list) {
    for (const Update& u : list)
        if (load<T>(u.source) == T(0)) return true;
    return false;
}

scatter_status check_integer_divisors(const CheckedCall& c, const std::vector<Update>& list) {
    if (c.reduction != SCATTER_REDUCTION_DIV) return SCATTER_OK;
    bool zero = false;
    switch (c.data.dtype) {
        case SCATTER_DTYPE_I8: case SCATTER_DTYPE_U8: zero = has_zero_divisor<uint8_t>(list); break;
        case SCATTER_DTYPE_I16: case SCATTER_DTYPE_U16: zero = has_zero_divisor<uint16_t>(list); break;
        case SCATTER_DTYPE_I32: case SCATTER_DTYPE_U32: zero = has_zero_divisor<uint32_t>(list); break;
        case SCATTER_DTYPE_I64: case SCATTER_DTYPE_U64: zero = has_zero_divisor<uint64_t>(list); break;
        default: break;
    }
    return zero ? SCATTER_ERROR_INVALID_ARGUMENT : SCATTER_OK;
}

template <class T>
void apply_updates(const CheckedCall& c, const std::vector<Update>& list, std::vector<char>* work) {
    T* t = reinterpret_cast<T*>(work->data());
    std::vector<int64_t> count(size_t(c.data.element_count()), 0);
    bool from_identity = c.exclude_self && c.reduction != SCATTER_REDUCTION_NONE;
    for (const Update& u : list) {
        T& target = t[u.target];
        if (count[size_t(u.target)] == 0 && from_identity) target = identity(c.reduction, T{});
        target = step(c.reduction, target, load<T>(u.source));
        count[size_t(u.target)] += 1;
    }
    if (c.reduction != SCATTER_REDUCTION_MEAN) return;
    for (size_t i = 0; i < count.size(); ++i)
        if (count[i] > 0) t[i] = divide_by_count(t[i], c.exclude_self ? count[i] : count[i] + 1);
}

void apply_opaque(const CheckedCall& c, const std::vector<Update>& list, std::vector<char>* work) {
    for (const Update& u : list)
        std::memcpy(work->data() + u.target * int64_t(c.data.element_size), u.source,
                    c.data.element_size);
}

void apply_by_dtype(const CheckedCall& c, const std::vector<Update>& list, std::vector<char>* work) {
    switch (c.data.dtype) {
        case SCATTER_DTYPE_F16: return apply_updates<F16>(c, list, work);
        case SCATTER_DTYPE_BF16: return apply_updates<BF16>(c, list, work);
        case SCATTER_DTYPE_F32: return apply_updates<float>(c, list, work);
        case SCATTER_DTYPE_F64: return apply_updates<double>(c, list, work);
        case SCATTER_DTYPE_I8: return apply_updates<int8_t>(c, list, work);
        case SCATTER_DTYPE_I16: return apply_updates<int16_t>(c, list, work);
        case SCATTER_DTYPE_I32: return apply_updates<int32_t>(c, list, work);
        case SCATTER_DTYPE_I64: return apply_updates<int64_t>(c, list, work);
        case SCATTER_DTYPE_U8: return apply_updates<uint8_t>(c, list, work);
        case SCATTER_DTYPE_U16: return apply_updates<uint16_t>(c, list, work);
        case SCATTER_DTYPE_U32: return apply_updates<uint32_t>(c, list, work);
        case SCATTER_DTYPE_U64: return apply_updates<uint64_t>(c, list, work);
        case SCATTER_DTYPE_BOOL: return apply_updates<Bool>(c, list, work);
        case SCATTER_DTYPE_C64: return apply_updates<Complex<float>>(c, list, work);
        case SCATTER_DTYPE_C128: return apply_updates<Complex<double>>(c, list, work);
        default: return apply_opaque(c, list, work);
    }
}

}  // namespace

scatter_status run(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                   const scatter_tensor* updates, const scatter_options* options,
                   const scatter_tensor* out) {
    CheckedCall c;
    scatter_status status = validate_call(op, data, indices, updates, options, out, &c);
    if (status != SCATTER_OK) return status;
    status = check_indices(c);
    if (status != SCATTER_OK) return status;

    std::vector<Update> list;
    if (op == Op::elements) list_elements_updates(c, &list);
    else if (op == Op::rows) list_rows_updates(c, &list);
    else list_nd_updates(c, &list);
    status = check_integer_divisors(c, list);
    if (status != SCATTER_OK) return status;

    size_t size = c.data.element_size;
    std::vector<char> work(size_t(c.data.element_count()) * size);
    for_each_coordinate(c.data.shape, [&](const int64_t* p) {
        std::memcpy(work.data() + linear_position(c.data.shape, p) * int64_t(size), c.data.at(p), size);
    });
    apply_by_dtype(c, list, &work);
    for_each_coordinate(c.out.shape, [&](const int64_t* p) {
        std::memcpy(c.out.at(p), work.data() + linear_position(c.out.shape, p) * int64_t(size), size);
    });
    return SCATTER_OK;
}

}  // namespace scatter_reference
