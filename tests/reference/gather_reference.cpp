#include "gather_reference.h"

#include <cstring>
#include <vector>

#include "dtypes.h"
#include "strided_tensor.h"

namespace scatter_reference {
namespace {

using scatter_test::Op;
using scatter_test::Shape;
using scatter_test::StridedTensor;
using scatter_test::for_each_coordinate;

struct Gather {
    Op op = Op::elements;
    StridedTensor data, indices, out;
    size_t axis = 0;        // elements/rows
    size_t batch_dims = 0;  // nd
    scatter_out_of_range policy = SCATTER_OUT_OF_RANGE_ERROR;
    std::vector<char> fill;  // one element
};

size_t element_size_of(const scatter_tensor& t) {
    if (t.dtype == SCATTER_DTYPE_OPAQUE) return t.element_size;
    size_t size = scatter_test::dtype_size(t.dtype);
    return (t.element_size == 0 || t.element_size == size) ? size : 0;
}

bool shape_valid(const scatter_tensor& t) {
    if (t.rank > SCATTER_MAX_RANK || (t.rank > 0 && !t.shape)) return false;
    for (uint32_t d = 0; d < t.rank; ++d)
        if (t.shape[d] < 0) return false;
    return true;
}

// The shape `out` must have.
Shape out_shape(const Gather& g) {
    const Shape& data = g.data.shape;
    const Shape& indices = g.indices.shape;
    if (g.op == Op::elements) return indices;
    if (g.op == Op::rows) {
        Shape s(data.begin(), data.begin() + long(g.axis));
        s.insert(s.end(), indices.begin(), indices.end());
        s.insert(s.end(), data.begin() + long(g.axis) + 1, data.end());
        return s;
    }
    Shape s(indices.begin(), indices.end() - 1);
    s.insert(s.end(), data.begin() + long(g.batch_dims) + long(indices.back()), data.end());
    return s;
}

scatter_status check_shapes(const Gather& g) {
    const Shape& data = g.data.shape;
    const Shape& indices = g.indices.shape;
    if (g.op == Op::elements) {
        if (indices.size() != data.size()) return SCATTER_ERROR_SHAPE_MISMATCH;
        for (size_t d = 0; d < data.size(); ++d)
            if (d != g.axis && indices[d] > data[d]) return SCATTER_ERROR_SHAPE_MISMATCH;
    } else if (g.op == Op::rows) {
        if (data.size() - 1 + indices.size() > SCATTER_MAX_RANK) return SCATTER_ERROR_SHAPE_MISMATCH;
    } else {
        if (indices.empty()) return SCATTER_ERROR_SHAPE_MISMATCH;
        if (g.batch_dims >= data.size() || g.batch_dims >= indices.size()) return SCATTER_ERROR_INVALID_ARGUMENT;
        const int64_t k = indices.back();
        if (k < 1 || k > int64_t(data.size() - g.batch_dims)) return SCATTER_ERROR_SHAPE_MISMATCH;
        for (size_t d = 0; d < g.batch_dims; ++d)
            if (indices[d] != data[d]) return SCATTER_ERROR_SHAPE_MISMATCH;
    }
    return out_shape(g) == g.out.shape ? SCATTER_OK : SCATTER_ERROR_SHAPE_MISMATCH;
}

scatter_status validate(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                        const scatter_gather_options* options, const scatter_tensor* out, Gather* g) {
    if (!data || !indices || !out) return SCATTER_ERROR_INVALID_ARGUMENT;
    const scatter_gather_options defaults = SCATTER_GATHER_OPTIONS_INIT;
    const scatter_gather_options& o = options ? *options : defaults;
    if (o.struct_size < sizeof(scatter_gather_options)) return SCATTER_ERROR_INVALID_ARGUMENT;
    g->policy = o.out_of_range == SCATTER_OUT_OF_RANGE_DEFAULT ? SCATTER_OUT_OF_RANGE_ERROR : o.out_of_range;
    if (g->policy != SCATTER_OUT_OF_RANGE_ERROR && g->policy != SCATTER_OUT_OF_RANGE_CLAMP &&
        g->policy != SCATTER_OUT_OF_RANGE_FILL)
        return SCATTER_ERROR_INVALID_ARGUMENT;
    if (o.flags != 0 || (op == Op::nd && o.axis != 0) || (op != Op::nd && o.batch_dims != 0))
        return SCATTER_ERROR_INVALID_ARGUMENT;

    for (const scatter_tensor* t : {data, indices, out})
        if (t->dtype < SCATTER_DTYPE_F16 || t->dtype > SCATTER_DTYPE_OPAQUE) return SCATTER_ERROR_INVALID_ARGUMENT;
    const size_t size = element_size_of(*data);
    if (size == 0 || element_size_of(*indices) == 0 || element_size_of(*out) == 0)
        return SCATTER_ERROR_INVALID_ARGUMENT;
    for (const scatter_tensor* t : {data, indices, out})
        if (!shape_valid(*t)) return SCATTER_ERROR_SHAPE_MISMATCH;
    if (out->dtype != data->dtype || element_size_of(*out) != size) return SCATTER_ERROR_TYPE_MISMATCH;
    if (indices->dtype != SCATTER_DTYPE_I32 && indices->dtype != SCATTER_DTYPE_I64) return SCATTER_ERROR_TYPE_MISMATCH;

    g->op = op;
    g->data = scatter_test::view_of(*data, size);
    g->indices = scatter_test::view_of(*indices, element_size_of(*indices));
    g->out = scatter_test::view_of(*out, size);
    const int64_t rank = int64_t(g->data.rank());
    if (rank == 0) return SCATTER_ERROR_SHAPE_MISMATCH;
    if (op != Op::nd && (o.axis < -rank || o.axis >= rank)) return SCATTER_ERROR_INVALID_ARGUMENT;
    g->axis = size_t(o.axis < 0 ? o.axis + rank : o.axis);
    g->batch_dims = o.batch_dims;
    const scatter_status shapes = check_shapes(*g);
    if (shapes != SCATTER_OK) return shapes;
    for (const StridedTensor* t : {&g->data, &g->indices, &g->out})
        if (t->base == nullptr && t->element_count() != 0) return SCATTER_ERROR_INVALID_ARGUMENT;
    g->fill.assign(size, 0);
    if (g->policy == SCATTER_OUT_OF_RANGE_FILL && o.fill_value) std::memcpy(g->fill.data(), o.fill_value, size);
    return SCATTER_OK;
}

// The data dimension the index at `position` of indices addresses.
size_t addressed_dimension(const Gather& g, const int64_t* position) {
    if (g.op == Op::nd) return g.batch_dims + size_t(position[g.indices.rank() - 1]);
    return g.axis;
}

// ERROR: every index in [-s, s); CLAMP: no index into a dimension of size 0.
scatter_status check_indices(const Gather& g) {
    if (g.policy == SCATTER_OUT_OF_RANGE_FILL) return SCATTER_OK;
    scatter_status status = SCATTER_OK;
    for_each_coordinate(g.indices.shape, [&](const int64_t* p) {
        const int64_t s = g.data.shape[addressed_dimension(g, p)];
        const int64_t i = g.indices.index_at(p);
        const bool bad = g.policy == SCATTER_OUT_OF_RANGE_ERROR ? !(i >= -s && i < s) : s == 0;
        if (bad) status = SCATTER_ERROR_INDEX_OUT_OF_RANGE;
    });
    return status;
}

// Index i into a dimension of size s: the coordinate, or false when the element takes the fill.
bool resolve(const Gather& g, int64_t i, int64_t s, int64_t* coordinate) {
    if (i >= -s && i < s) {
        *coordinate = i < 0 ? i + s : i;
        return true;
    }
    if (g.policy == SCATTER_OUT_OF_RANGE_FILL) return false;
    *coordinate = i < 0 ? 0 : s - 1;  // CLAMP, s > 0 (checked)
    return true;
}

// The data coordinates out position p reads, or false for the fill value.
bool source_of(const Gather& g, const int64_t* p, std::vector<int64_t>* from) {
    const size_t r = g.data.rank();
    from->assign(r, 0);
    if (g.op == Op::elements) {
        for (size_t d = 0; d < r; ++d) (*from)[d] = p[d];
        return resolve(g, g.indices.index_at(p), g.data.shape[g.axis], &(*from)[g.axis]);
    }
    if (g.op == Op::rows) {
        const size_t q = g.indices.rank();
        for (size_t d = 0; d < g.axis; ++d) (*from)[d] = p[d];
        for (size_t d = g.axis + 1; d < r; ++d) (*from)[d] = p[d - 1 + q];
        return resolve(g, g.indices.index_at(p + g.axis), g.data.shape[g.axis], &(*from)[g.axis]);
    }
    const size_t q = g.indices.rank(), b = g.batch_dims;
    const size_t k = size_t(g.indices.shape.back());
    std::vector<int64_t> at(p, p + q - 1);  // the index position; its last entry is the coordinate
    at.push_back(0);
    for (size_t d = 0; d < b; ++d) (*from)[d] = p[d];
    bool inside = true;
    for (size_t c = 0; c < k; ++c) {
        at[q - 1] = int64_t(c);
        inside = resolve(g, g.indices.index_at(at.data()), g.data.shape[b + c], &(*from)[b + c]) && inside;
    }
    for (size_t d = b + k; d < r; ++d) (*from)[d] = p[q - 1 + d - b - k];
    return inside;
}

}  // namespace

scatter_status gather(Op op, const scatter_tensor* data, const scatter_tensor* indices,
                      const scatter_gather_options* options, const scatter_tensor* out) {
    Gather g;
    scatter_status status = validate(op, data, indices, options, out, &g);
    if (status != SCATTER_OK) return status;
    status = check_indices(g);
    if (status != SCATTER_OK) return status;

    const size_t size = g.data.element_size;
    std::vector<char> result;  // out's elements in row-major order
    std::vector<int64_t> from;
    for_each_coordinate(g.out.shape, [&](const int64_t* p) {
        const char* bytes = source_of(g, p, &from) ? g.data.at(from.data()) : g.fill.data();
        result.insert(result.end(), bytes, bytes + size);
    });
    size_t next = 0;
    for_each_coordinate(g.out.shape, [&](const int64_t* p) {
        std::memcpy(g.out.at(p), result.data() + next, size);
        next += size;
    });
    return SCATTER_OK;
}

}  // namespace scatter_reference
