#include "core/tensor_view.h"

#include "core/checked_math.h"
#include "core/context.h"
#include "core/struct_size.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdint>
#include <cstring>

namespace scatter {
namespace {

Status check_element_size(const char* name, const scatter_tensor& t, const DtypeInfo& info,
                          uint32_t* element_size) {
    if (info.kind == DtypeKind::Opaque) {
        if (t.element_size == 0)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "%s.element_size is 0 but an opaque element needs at least 1 byte", name);
        *element_size = t.element_size;
        return Status();
    }
    if (t.element_size != 0 && t.element_size != info.size)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "%s.element_size = %u does not match the size %u of dtype %s", name,
                          t.element_size, info.size, info.name);
    *element_size = info.size;
    return Status();
}

Status fill_shape_and_strides(const char* name, const scatter_tensor& t, TensorView* v) {
    if (t.rank > SCATTER_MAX_RANK)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s.rank = %u exceeds the maximum rank %d",
                          name, t.rank, SCATTER_MAX_RANK);
    if (t.rank > 0 && t.shape == nullptr)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s.shape is NULL but rank is %u", name,
                          t.rank);
    v->rank = t.rank;
    int64_t count = 1;
    bool overflow = false;
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (t.shape[d] < 0)
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s.shape[%u] = %" PRId64 " is negative",
                              name, d, t.shape[d]);
        v->shape[d] = t.shape[d];
        overflow = overflow || !checked_mul(count, t.shape[d], &count);
    }
    if (overflow) {
        // A zero-size dimension makes the tensor empty whatever the other dimensions are.
        bool has_zero = std::any_of(v->shape, v->shape + t.rank, [](int64_t s) { return s == 0; });
        if (!has_zero)
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                              "%s has more elements than a 64-bit count can hold", name);
        count = 0;
    }
    v->element_count = count;
    int64_t bytes = 0;
    if (!checked_mul(count, v->element_size, &bytes) || bytes > PTRDIFF_MAX)
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                          "%s has %" PRId64 " elements of %u bytes, a byte size that overflows",
                          name, count, v->element_size);

    int64_t expected = 1;
    v->contiguous = true;
    for (int d = int(t.rank) - 1; d >= 0; --d) {
        v->strides[d] = t.strides != nullptr ? t.strides[d] : expected;
        // Nothing ever moves along a size-1 dimension, but kernels scale strides by the element
        // size and index before they know that: a huge stride there would overflow.
        if (v->shape[d] == 1) v->strides[d] = 0;
        if (v->shape[d] != 1 && v->strides[d] != expected) v->contiguous = false;
        if (count != 0) expected *= v->shape[d];  // cannot overflow: the product fits
    }
    if (count == 0) v->contiguous = true;
    return Status();
}

// The byte extent [min_byte, end_byte) relative to element 0, overflow-checked.
Status compute_extent(const char* name, TensorView* v) {
    v->min_byte = v->end_byte = 0;
    if (v->element_count == 0) return Status();
    int64_t low = 0, high = 0;  // in elements
    for (uint32_t d = 0; d < v->rank; ++d) {
        int64_t reach = 0;
        if (!checked_mul(v->shape[d] - 1, v->strides[d], &reach))
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH,
                              "%s.strides[%u] = %" PRId64 " makes the byte range overflow", name, d,
                              v->strides[d]);
        bool ok = reach < 0 ? checked_add(low, reach, &low) : checked_add(high, reach, &high);
        if (!ok)
            return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s's strides make the byte range overflow",
                              name);
    }
    int64_t low_bytes = 0, high_bytes = 0, span = 0;
    if (!checked_mul(low, v->element_size, &low_bytes) || !checked_add(high, 1, &high) ||
        !checked_mul(high, v->element_size, &high_bytes) || !checked_sub(high_bytes, low_bytes, &span))
        return make_error(SCATTER_ERROR_SHAPE_MISMATCH, "%s's strides make the byte range overflow",
                          name);
    v->min_byte = low_bytes;
    v->end_byte = high_bytes;
    return Status();
}

// Sufficient test that no two elements share memory: sorted by |stride|, each stride must jump
// past everything the smaller ones reach.
Status check_no_self_overlap(const char* name, const TensorView& v) {
    if (v.element_count <= 1 || v.contiguous) return Status();
    uint32_t order[SCATTER_MAX_RANK];
    uint32_t n = 0;
    for (uint32_t d = 0; d < v.rank; ++d)
        if (v.shape[d] > 1) order[n++] = d;
    std::sort(order, order + n, [&](uint32_t a, uint32_t b) {
        return std::llabs(v.strides[a]) < std::llabs(v.strides[b]);
    });
    int64_t reach = 0;  // elements spanned by the dimensions so far, minus one
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t d = order[i];
        int64_t stride = std::llabs(v.strides[d]);
        if (stride <= reach)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "%s.strides[%u] = %" PRId64 " makes distinct elements of %s overlap",
                              name, d, v.strides[d], name);
        reach += stride * (v.shape[d] - 1);
    }
    return Status();
}

Status resolve_memory(const char* name, const scatter_tensor& t, scatter_context_t* context,
                      TensorView* v) {
    if (t.buffer != nullptr) {
        if (t.data != nullptr)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "%s names both a host pointer and a buffer; give one", name);
        if (t.buffer->context != context)
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                              "%s.buffer belongs to another context", name);
        uint64_t size = t.buffer->impl->size();
        if (v->element_count > 0) {
            int64_t end = 0;
            if (t.byte_offset > uint64_t(INT64_MAX) || !checked_add(int64_t(t.byte_offset), v->end_byte, &end))
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                  "%s.byte_offset = %" PRIu64 " puts its end past any buffer, outside its size %" PRIu64,
                                  name, t.byte_offset, size);
            const int64_t begin = int64_t(t.byte_offset) + v->min_byte;  // min_byte <= 0: no overflow
            if (begin < 0 || uint64_t(end) > size)
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                  "%s reaches bytes [%" PRId64 ", %" PRId64 ") of its buffer, outside its size %" PRIu64,
                                  name, begin, end, size);
        }
        v->buffer = t.buffer;
        v->byte_offset = t.byte_offset;
        char* base = t.buffer->impl->host_data();
        v->host = base != nullptr ? base + t.byte_offset : nullptr;
        return Status();
    }
    if (t.data == nullptr && v->element_count > 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "%s.data is NULL but the tensor has %" PRId64 " elements", name,
                          v->element_count);
    // The extent must lie in the address space: strides that reach below address 0 or past its
    // end from the data pointer would have the kernels write at a wrapped, wild address.
    const uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
    if (v->element_count > 0 && uint64_t(-v->min_byte) > base)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "%s's strides reach %" PRId64 " bytes before its data pointer %p, below address 0",
                          name, -v->min_byte, t.data);
    if (v->element_count > 0 && uint64_t(v->end_byte) > UINTPTR_MAX - base)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "%s reaches %" PRId64 " bytes from its data pointer %p, past the end of the address space",
                          name, v->end_byte, t.data);
    v->host = static_cast<char*>(t.data);
    return Status();
}

}  // namespace

Status make_tensor_view(const char* name, const scatter_tensor* tensor, scatter_context_t* context,
                        Access access, TensorView* view) {
    if (tensor == nullptr)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s is NULL", name);
    SCATTER_RETURN_IF_ERROR(check_struct_size(name, tensor, tensor->struct_size, sizeof(scatter_tensor)));
    // Built in place: the caller discards the view when this fails.
    TensorView& v = *view;
    v.buffer = nullptr;
    v.byte_offset = 0;
    v.info = find_dtype(tensor->dtype);
    if (v.info == nullptr)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "%s.dtype = %d is not a scatter_dtype",
                          name, int(tensor->dtype));
    SCATTER_RETURN_IF_ERROR(check_element_size(name, *tensor, *v.info, &v.element_size));
    SCATTER_RETURN_IF_ERROR(fill_shape_and_strides(name, *tensor, &v));
    SCATTER_RETURN_IF_ERROR(compute_extent(name, &v));
    if (access == Access::Write) SCATTER_RETURN_IF_ERROR(check_no_self_overlap(name, v));
    return resolve_memory(name, *tensor, context, &v);
}

bool views_overlap(const TensorView& a, const TensorView& b) {
    if (a.empty() || b.empty()) return false;
    if (a.buffer != nullptr || b.buffer != nullptr) {
        if (a.buffer != b.buffer) return false;
        int64_t a0 = int64_t(a.byte_offset) + a.min_byte, a1 = int64_t(a.byte_offset) + a.end_byte;
        int64_t b0 = int64_t(b.byte_offset) + b.min_byte, b1 = int64_t(b.byte_offset) + b.end_byte;
        return a0 < b1 && b0 < a1;
    }
    uintptr_t a0 = uintptr_t(a.host) + uintptr_t(a.min_byte), a1 = uintptr_t(a.host) + uintptr_t(a.end_byte);
    uintptr_t b0 = uintptr_t(b.host) + uintptr_t(b.min_byte), b1 = uintptr_t(b.host) + uintptr_t(b.end_byte);
    return a0 < b1 && b0 < a1;
}

bool same_view(const TensorView& a, const TensorView& b) {
    if (a.host != b.host || a.buffer != b.buffer || a.byte_offset != b.byte_offset) return false;
    if (a.rank != b.rank || a.element_size != b.element_size) return false;
    for (uint32_t d = 0; d < a.rank; ++d) {
        if (a.shape[d] != b.shape[d]) return false;
        if (a.shape[d] > 1 && a.strides[d] != b.strides[d]) return false;
    }
    return true;
}

void format_position(const int64_t* position, uint32_t rank, char* buffer, size_t size) {
    size_t used = 0;
    buffer[0] = '\0';
    for (uint32_t d = 0; d < rank && used < size; ++d) {
        int n = std::snprintf(buffer + used, size - used, "[%" PRId64 "]", position[d]);
        if (n < 0) break;
        used += size_t(n);
    }
}

}  // namespace scatter
