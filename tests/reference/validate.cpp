#include "validate.h"

namespace scatter_reference {
namespace {

bool dtype_valid(scatter_dtype dtype) {
    return dtype >= SCATTER_DTYPE_F16 && dtype <= SCATTER_DTYPE_OPAQUE;
}

// The element size a tensor declares, or 0 when it is not a valid one for its dtype.
size_t element_size_of(const scatter_tensor& t) {
    if (t.dtype == SCATTER_DTYPE_OPAQUE) return t.element_size;
    size_t size = scatter_test::dtype_size(t.dtype);
    return (t.element_size == 0 || t.element_size == size) ? size : 0;
}

bool shape_valid(const scatter_tensor& t) {
    if (t.rank > SCATTER_MAX_RANK) return false;
    if (t.rank > 0 && !t.shape) return false;
    for (uint32_t d = 0; d < t.rank; ++d)
        if (t.shape[d] < 0) return false;
    return true;
}

bool has_memory_or_is_empty(const StridedTensor& t) {
    return t.base != nullptr || t.element_count() == 0;
}

bool same_shape(const Shape& a, const Shape& b) { return a == b; }

scatter_status check_elements_shapes(const CheckedCall& c) {
    size_t r = c.data.rank();
    if (c.indices.rank() != r || c.updates.rank() != r) return SCATTER_ERROR_SHAPE_MISMATCH;
    if (!same_shape(c.indices.shape, c.updates.shape)) return SCATTER_ERROR_SHAPE_MISMATCH;
    for (size_t d = 0; d < r; ++d)
        if (d != c.axis && c.indices.shape[d] > c.data.shape[d])
            return SCATTER_ERROR_SHAPE_MISMATCH;
    return SCATTER_OK;
}

scatter_status check_rows_shapes(const CheckedCall& c) {
    const Shape& data = c.data.shape;
    Shape expected(data.begin(), data.begin() + long(c.axis));
    expected.insert(expected.end(), c.indices.shape.begin(), c.indices.shape.end());
    expected.insert(expected.end(), data.begin() + long(c.axis) + 1, data.end());
    if (expected.size() > SCATTER_MAX_RANK || !same_shape(expected, c.updates.shape))
        return SCATTER_ERROR_SHAPE_MISMATCH;
    return SCATTER_OK;
}

scatter_status check_nd_shapes(const CheckedCall& c) {
    const Shape& indices = c.indices.shape;
    if (indices.empty()) return SCATTER_ERROR_SHAPE_MISMATCH;
    int64_t k = indices.back();
    if (k < 1 || k > int64_t(c.data.rank())) return SCATTER_ERROR_SHAPE_MISMATCH;
    Shape expected(indices.begin(), indices.end() - 1);
    expected.insert(expected.end(), c.data.shape.begin() + long(k), c.data.shape.end());
    if (!same_shape(expected, c.updates.shape)) return SCATTER_ERROR_SHAPE_MISMATCH;
    return SCATTER_OK;
}

}  // namespace

scatter_status validate_call(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                             const scatter_tensor* updates, const scatter_options* options,
                             const scatter_tensor* out, CheckedCall* call) {
    if (!data || !indices || !updates || !out) return SCATTER_ERROR_INVALID_ARGUMENT;
    scatter_options defaults = SCATTER_OPTIONS_INIT;
    const scatter_options& o = options ? *options : defaults;
    if (o.reduction < SCATTER_REDUCTION_DEFAULT || o.reduction > SCATTER_REDUCTION_MEAN ||
        o.out_of_range < SCATTER_OUT_OF_RANGE_DEFAULT || o.out_of_range > SCATTER_OUT_OF_RANGE_CLAMP ||
        (o.flags & ~(SCATTER_OPTION_EXCLUDE_SELF | SCATTER_OPTION_ALLOW_NONDETERMINISM)) != 0)
        return SCATTER_ERROR_INVALID_ARGUMENT;

    for (const scatter_tensor* t : {data, indices, updates, out})
        if (!dtype_valid(t->dtype)) return SCATTER_ERROR_INVALID_ARGUMENT;
    if (indices->dtype != SCATTER_DTYPE_I32 && indices->dtype != SCATTER_DTYPE_I64)
        return SCATTER_ERROR_TYPE_MISMATCH;
    if (data->dtype != updates->dtype || data->dtype != out->dtype)
        return SCATTER_ERROR_TYPE_MISMATCH;
    size_t element_size = element_size_of(*data);
    if (element_size == 0 || element_size_of(*indices) == 0) return SCATTER_ERROR_INVALID_ARGUMENT;
    if (element_size_of(*updates) != element_size || element_size_of(*out) != element_size)
        return SCATTER_ERROR_TYPE_MISMATCH;

    for (const scatter_tensor* t : {data, indices, updates, out})
        if (!shape_valid(*t)) return SCATTER_ERROR_SHAPE_MISMATCH;

    CheckedCall& c = *call;
    c.op = op;
    c.data = scatter_test::view_of(*data, element_size);
    c.indices = scatter_test::view_of(*indices, element_size_of(*indices));
    c.updates = scatter_test::view_of(*updates, element_size);
    c.out = scatter_test::view_of(*out, element_size);
    c.reduction = o.reduction == SCATTER_REDUCTION_DEFAULT ? SCATTER_REDUCTION_NONE : o.reduction;
    c.out_of_range =
        o.out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT ? SCATTER_OUT_OF_RANGE_ERROR : o.out_of_range;
    c.exclude_self = (o.flags & SCATTER_OPTION_EXCLUDE_SELF) != 0;

    int64_t rank = int64_t(c.data.rank());
    if (rank == 0) return SCATTER_ERROR_SHAPE_MISMATCH;
    if (op == Op::nd) {
        if (o.axis != 0) return SCATTER_ERROR_INVALID_ARGUMENT;
    } else if (o.axis < -rank || o.axis >= rank) {
        return SCATTER_ERROR_INVALID_ARGUMENT;
    }
    c.axis = size_t(o.axis < 0 ? o.axis + rank : o.axis);

    if (!same_shape(c.out.shape, c.data.shape)) return SCATTER_ERROR_SHAPE_MISMATCH;
    scatter_status shapes = op == Op::elements ? check_elements_shapes(c)
                            : op == Op::rows   ? check_rows_shapes(c)
                                               : check_nd_shapes(c);
    if (shapes != SCATTER_OK) return shapes;

    if (!scatter_test::reduction_legal(c.data.dtype, c.reduction)) return SCATTER_ERROR_UNSUPPORTED;
    for (const StridedTensor* t : {&c.data, &c.indices, &c.updates, &c.out})
        if (!has_memory_or_is_empty(*t)) return SCATTER_ERROR_INVALID_ARGUMENT;
    return SCATTER_OK;
}

}  // namespace scatter_reference
