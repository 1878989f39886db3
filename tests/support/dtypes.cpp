#include "dtypes.h"

#include <cstring>

#include "half_float.h"

namespace scatter_test {
namespace {

template <class T> void store(T value, uint8_t* dst) { std::memcpy(dst, &value, sizeof(T)); }

}  // namespace

size_t dtype_size(scatter_dtype dtype) {
    switch (dtype) {
        case SCATTER_DTYPE_I8: case SCATTER_DTYPE_U8: case SCATTER_DTYPE_BOOL: return 1;
        case SCATTER_DTYPE_F16: case SCATTER_DTYPE_BF16:
        case SCATTER_DTYPE_I16: case SCATTER_DTYPE_U16: return 2;
        case SCATTER_DTYPE_F32: case SCATTER_DTYPE_I32: case SCATTER_DTYPE_U32: return 4;
        case SCATTER_DTYPE_F64: case SCATTER_DTYPE_I64: case SCATTER_DTYPE_U64:
        case SCATTER_DTYPE_C64: return 8;
        case SCATTER_DTYPE_C128: return 16;
        default: return 0;
    }
}

uint32_t element_bytes(scatter_dtype dtype, uint32_t opaque_size) {
    return dtype == SCATTER_DTYPE_OPAQUE ? opaque_size : uint32_t(dtype_size(dtype));
}

bool is_integer(scatter_dtype dtype) { return dtype >= SCATTER_DTYPE_I8 && dtype <= SCATTER_DTYPE_U64; }

bool is_float(scatter_dtype dtype) { return dtype >= SCATTER_DTYPE_F16 && dtype <= SCATTER_DTYPE_F64; }

bool reduction_legal(scatter_dtype dtype, scatter_reduction reduction) {
    switch (dtype) {
        case SCATTER_DTYPE_OPAQUE: return reduction == SCATTER_REDUCTION_NONE;
        case SCATTER_DTYPE_BOOL:
            return reduction == SCATTER_REDUCTION_NONE || reduction == SCATTER_REDUCTION_ADD ||
                   reduction == SCATTER_REDUCTION_MUL;
        case SCATTER_DTYPE_C64: case SCATTER_DTYPE_C128:
            return reduction != SCATTER_REDUCTION_MAX && reduction != SCATTER_REDUCTION_MIN;
        default: return true;
    }
}

const char* dtype_label(scatter_dtype dtype) {
    static const char* names[] = {"UNDEFINED", "F16", "BF16", "F32", "F64", "I8", "I16", "I32", "I64",
                                  "U8", "U16", "U32", "U64", "BOOL", "C64", "C128", "OPAQUE"};
    return dtype >= 0 && dtype <= SCATTER_DTYPE_OPAQUE ? names[dtype] : "?";
}

const char* reduction_label(scatter_reduction r) {
    static const char* names[] = {"DEFAULT", "NONE", "ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "MEAN"};
    return r >= 0 && r <= SCATTER_REDUCTION_MEAN ? names[r] : "?";
}

const char* policy_label(scatter_out_of_range p) {
    static const char* names[] = {"OOR_DEFAULT", "OOR_ERROR", "OOR_SKIP", "OOR_CLAMP", "OOR_FILL"};
    return p >= 0 && p <= SCATTER_OUT_OF_RANGE_FILL ? names[p] : "?";
}

const std::vector<scatter_dtype>& all_data_dtypes() {
    static const std::vector<scatter_dtype> dtypes = {
        SCATTER_DTYPE_F16,  SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,  SCATTER_DTYPE_F64,
        SCATTER_DTYPE_I8,   SCATTER_DTYPE_I16,  SCATTER_DTYPE_I32,  SCATTER_DTYPE_I64,
        SCATTER_DTYPE_U8,   SCATTER_DTYPE_U16,  SCATTER_DTYPE_U32,  SCATTER_DTYPE_U64,
        SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64,  SCATTER_DTYPE_C128, SCATTER_DTYPE_OPAQUE};
    return dtypes;
}

const std::vector<scatter_dtype>& integer_dtypes() {
    static const std::vector<scatter_dtype> dtypes = {
        SCATTER_DTYPE_I8, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
        SCATTER_DTYPE_U8, SCATTER_DTYPE_U16, SCATTER_DTYPE_U32, SCATTER_DTYPE_U64};
    return dtypes;
}

void encode_value(scatter_dtype dtype, uint32_t opaque_size, double value, uint8_t* dst) {
    switch (dtype) {
        case SCATTER_DTYPE_F16: store(f32_to_f16(float(value)), dst); break;
        case SCATTER_DTYPE_BF16: store(f32_to_bf16(float(value)), dst); break;
        case SCATTER_DTYPE_F32: store(float(value), dst); break;
        case SCATTER_DTYPE_F64: store(value, dst); break;
        case SCATTER_DTYPE_I8: store(int8_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_I16: store(int16_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_I32: store(int32_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_I64: store(int64_t(value), dst); break;
        case SCATTER_DTYPE_U8: store(uint8_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_U16: store(uint16_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_U32: store(uint32_t(int64_t(value)), dst); break;
        case SCATTER_DTYPE_U64:  // values beyond int64 (2^63 and up) keep their magnitude
            store(value >= 9223372036854775808.0 ? uint64_t(value) : uint64_t(int64_t(value)), dst);
            break;
        case SCATTER_DTYPE_BOOL: store(uint8_t(value != 0.0), dst); break;
        case SCATTER_DTYPE_C64:
            store(float(value), dst);
            store(0.0f, dst + 4);
            break;
        case SCATTER_DTYPE_C128:
            store(value, dst);
            store(0.0, dst + 8);
            break;
        case SCATTER_DTYPE_OPAQUE: std::memset(dst, int(int64_t(value) & 0xff), opaque_size); break;
        default: break;
    }
}

}  // namespace scatter_test
