// The descr string of a .npy header: byte order, kind letter and size, and how each NumPy type
// maps to a libscatter dtype.
#include "npy.h"

#include <cctype>

namespace npy {
namespace {

// Every numeric NumPy type libscatter has, in one table.
struct NumericType {
    scatter_dtype dtype;
    char kind;
    uint32_t size;
};

constexpr NumericType kNumericTypes[] = {
    {SCATTER_DTYPE_F16, 'f', 2},  {SCATTER_DTYPE_F32, 'f', 4},  {SCATTER_DTYPE_F64, 'f', 8},
    {SCATTER_DTYPE_I8, 'i', 1},   {SCATTER_DTYPE_I16, 'i', 2},  {SCATTER_DTYPE_I32, 'i', 4},
    {SCATTER_DTYPE_I64, 'i', 8},  {SCATTER_DTYPE_U8, 'u', 1},   {SCATTER_DTYPE_U16, 'u', 2},
    {SCATTER_DTYPE_U32, 'u', 4},  {SCATTER_DTYPE_U64, 'u', 8},  {SCATTER_DTYPE_BOOL, 'b', 1},
    {SCATTER_DTYPE_C64, 'c', 8},  {SCATTER_DTYPE_C128, 'c', 16},
};

bool is_opaque_kind(char kind) { return kind == 'S' || kind == 'U' || kind == 'V'; }

// Bytes that are swapped as one unit when the byte order changes.
uint32_t swap_unit(char kind, uint32_t element_size) {
    switch (kind) {
    case 'S': case 'V': case 'b': return 1;
    case 'U': return 4;
    case 'c': return element_size / 2;
    default: return element_size;
    }
}

std::string canonical_descr(char kind, uint32_t element_size, uint32_t count) {
    char order = swap_unit(kind, element_size) == 1 ? '|' : '<';
    return std::string(1, order) + kind + std::to_string(count);
}

NpyDtype make_dtype(scatter_dtype dtype, char kind, uint32_t element_size, uint32_t count) {
    NpyDtype result;
    result.dtype = dtype;
    result.kind = kind;
    result.element_size = element_size;
    result.descr = canonical_descr(kind, element_size, count);
    return result;
}

}  // namespace

uint32_t byte_swap_unit(const NpyDtype& dtype) { return swap_unit(dtype.kind, dtype.element_size); }

NpyDtype parse_descr(const std::string& descr, bool* big_endian) {
    const std::string quoted = "'" + descr + "'";
    size_t pos = 0;
    char order = '=';
    if (pos < descr.size() && (descr[pos] == '<' || descr[pos] == '>' || descr[pos] == '|' ||
                               descr[pos] == '=')) {
        order = descr[pos++];
    }
    if (pos >= descr.size()) throw NpyError("dtype " + quoted + " has no type letter");
    const char kind = descr[pos++];
    if (pos >= descr.size()) throw NpyError("dtype " + quoted + " has no size");
    uint64_t count = 0;
    for (; pos < descr.size(); ++pos) {
        if (!std::isdigit(static_cast<unsigned char>(descr[pos])))
            throw NpyError("dtype " + quoted + " is not a plain NumPy type");
        count = count * 10 + static_cast<uint64_t>(descr[pos] - '0');
        if (count > UINT32_MAX) throw NpyError("dtype " + quoted + " has a size beyond 2^32");
    }
    *big_endian = order == '>';

    if (is_opaque_kind(kind)) {
        const uint64_t size = kind == 'U' ? count * 4 : count;
        if (count == 0) throw NpyError("dtype " + quoted + " has zero-size elements");
        if (size > UINT32_MAX) throw NpyError("dtype " + quoted + " has a size beyond 2^32");
        return make_dtype(SCATTER_DTYPE_OPAQUE, kind, static_cast<uint32_t>(size),
                          static_cast<uint32_t>(count));
    }
    for (const NumericType& type : kNumericTypes) {
        if (type.kind == kind && type.size == count)
            return make_dtype(type.dtype, kind, type.size, type.size);
    }
    throw NpyError("dtype " + quoted + " is not supported (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 "
                   "u4 u8 b1 c8 c16 S<n> U<n> V<n>)");
}

NpyDtype dtype_for(scatter_dtype dtype, uint32_t opaque_size) {
    if (dtype == SCATTER_DTYPE_OPAQUE) {
        if (opaque_size == 0) throw NpyError("opaque elements need a size of at least 1 byte");
        return make_dtype(dtype, 'V', opaque_size, opaque_size);
    }
    for (const NumericType& type : kNumericTypes) {
        if (type.dtype == dtype) return make_dtype(dtype, type.kind, type.size, type.size);
    }
    if (dtype == SCATTER_DTYPE_BF16) throw NpyError("bfloat16 has no .npy spelling");
    throw NpyError("dtype " + std::to_string(static_cast<int>(dtype)) + " has no .npy spelling");
}

}  // namespace npy
