// Version, status, dtype, backend and reduction names: functions that never fail.
#include "core/dtype.h"

#include <scatter/scatter.h>

#define SCATTER_STRINGIFY_(x) #x
#define SCATTER_STRINGIFY(x) SCATTER_STRINGIFY_(x)

extern "C" {

SCATTER_API uint32_t scatter_version(void) { return SCATTER_VERSION; }

SCATTER_API const char* scatter_version_string(void) {
    return SCATTER_STRINGIFY(SCATTER_VERSION_MAJOR) "." SCATTER_STRINGIFY(SCATTER_VERSION_MINOR) "." SCATTER_STRINGIFY(
        SCATTER_VERSION_PATCH);
}

SCATTER_API const char* scatter_status_name(scatter_status status) {
    switch (status) {
#define SCATTER_STATUS_CASE_(name, value, description) \
    case name: return #name;
        SCATTER_STATUS_LIST(SCATTER_STATUS_CASE_)
#undef SCATTER_STATUS_CASE_
        default: return "SCATTER_STATUS_UNKNOWN";
    }
}

SCATTER_API size_t scatter_dtype_size(scatter_dtype dtype) {
    const scatter::DtypeInfo* info = scatter::find_dtype(dtype);
    return info != nullptr ? info->size : 0;
}

SCATTER_API const char* scatter_dtype_name(scatter_dtype dtype) {
    const scatter::DtypeInfo* info = scatter::find_dtype(dtype);
    return info != nullptr ? info->name : "unknown";
}

SCATTER_API const char* scatter_backend_name(scatter_backend backend) {
    switch (backend) {
        case SCATTER_BACKEND_AUTO: return "auto";
        case SCATTER_BACKEND_CPU: return "cpu";
        case SCATTER_BACKEND_VULKAN: return "vulkan";
        default: return "unknown";
    }
}

SCATTER_API const char* scatter_reduction_name(scatter_reduction reduction) {
    return scatter::reduction_name(reduction);
}

}  // extern "C"
