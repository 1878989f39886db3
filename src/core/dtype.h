// The dtype table: size, name, arithmetic kind and the reductions each dtype allows.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>

namespace scatter {

enum class DtypeKind : uint8_t { Float, Signed, Unsigned, Bool, Complex, Opaque };

struct DtypeInfo {
    scatter_dtype dtype;
    const char* name;
    uint32_t size;  // 0 for opaque: the tensor gives it
    DtypeKind kind;
};

// The entry for `dtype`, or nullptr for UNDEFINED and unknown values.
const DtypeInfo* find_dtype(scatter_dtype dtype);

// True when the dtype/reduction table (scatter.h, docs/semantics.md) allows `reduction` (already normalized, never DEFAULT) on `kind`.
bool reduction_allowed(DtypeKind kind, scatter_reduction reduction);

const char* reduction_name(scatter_reduction reduction);

}  // namespace scatter
