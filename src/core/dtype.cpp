#include "core/dtype.h"

namespace scatter {
namespace {

constexpr DtypeInfo kDtypes[] = {
    {SCATTER_DTYPE_F16, "f16", 2, DtypeKind::Float},
    {SCATTER_DTYPE_BF16, "bf16", 2, DtypeKind::Float},
    {SCATTER_DTYPE_F32, "f32", 4, DtypeKind::Float},
    {SCATTER_DTYPE_F64, "f64", 8, DtypeKind::Float},
    {SCATTER_DTYPE_I8, "i8", 1, DtypeKind::Signed},
    {SCATTER_DTYPE_I16, "i16", 2, DtypeKind::Signed},
    {SCATTER_DTYPE_I32, "i32", 4, DtypeKind::Signed},
    {SCATTER_DTYPE_I64, "i64", 8, DtypeKind::Signed},
    {SCATTER_DTYPE_U8, "u8", 1, DtypeKind::Unsigned},
    {SCATTER_DTYPE_U16, "u16", 2, DtypeKind::Unsigned},
    {SCATTER_DTYPE_U32, "u32", 4, DtypeKind::Unsigned},
    {SCATTER_DTYPE_U64, "u64", 8, DtypeKind::Unsigned},
    {SCATTER_DTYPE_BOOL, "bool", 1, DtypeKind::Bool},
    {SCATTER_DTYPE_C64, "c64", 8, DtypeKind::Complex},
    {SCATTER_DTYPE_C128, "c128", 16, DtypeKind::Complex},
    {SCATTER_DTYPE_OPAQUE, "opaque", 0, DtypeKind::Opaque},
};

constexpr uint32_t bit(scatter_reduction r) { return 1u << r; }

constexpr uint32_t kAllReductions = bit(SCATTER_REDUCTION_NONE) | bit(SCATTER_REDUCTION_ADD) |
                                    bit(SCATTER_REDUCTION_SUB) | bit(SCATTER_REDUCTION_MUL) |
                                    bit(SCATTER_REDUCTION_DIV) | bit(SCATTER_REDUCTION_MAX) |
                                    bit(SCATTER_REDUCTION_MIN) | bit(SCATTER_REDUCTION_MEAN);

uint32_t allowed_reductions(DtypeKind kind) {
    switch (kind) {
        case DtypeKind::Float:
        case DtypeKind::Signed:
        case DtypeKind::Unsigned: return kAllReductions;
        case DtypeKind::Complex:
            return kAllReductions & ~(bit(SCATTER_REDUCTION_MAX) | bit(SCATTER_REDUCTION_MIN));
        case DtypeKind::Bool:
            return bit(SCATTER_REDUCTION_NONE) | bit(SCATTER_REDUCTION_ADD) | bit(SCATTER_REDUCTION_MUL);
        case DtypeKind::Opaque: return bit(SCATTER_REDUCTION_NONE);
    }
    return 0;
}

}  // namespace

const DtypeInfo* find_dtype(scatter_dtype dtype) {
    for (const DtypeInfo& info : kDtypes)
        if (info.dtype == dtype) return &info;
    return nullptr;
}

bool reduction_allowed(DtypeKind kind, scatter_reduction reduction) {
    if (reduction < SCATTER_REDUCTION_NONE || reduction > SCATTER_REDUCTION_MEAN) return false;
    return (allowed_reductions(kind) & bit(reduction)) != 0;
}

const char* reduction_name(scatter_reduction reduction) {
    switch (reduction) {
        case SCATTER_REDUCTION_DEFAULT:
        case SCATTER_REDUCTION_NONE: return "none";
        case SCATTER_REDUCTION_ADD: return "add";
        case SCATTER_REDUCTION_SUB: return "sub";
        case SCATTER_REDUCTION_MUL: return "mul";
        case SCATTER_REDUCTION_DIV: return "div";
        case SCATTER_REDUCTION_MAX: return "max";
        case SCATTER_REDUCTION_MIN: return "min";
        case SCATTER_REDUCTION_MEAN: return "mean";
        default: return "unknown";
    }
}

}  // namespace scatter
