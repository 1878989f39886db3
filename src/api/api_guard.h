// The C boundary: every exported function runs its body through guard(), which records a failed
// Status as this thread's last error and turns any escaping exception into a status.
#pragma once

#include "core/status.h"

#include <new>

namespace scatter {

void set_last_error(const Status& status);
const char* last_error_message();

template <class Body>
scatter_status guard(Body&& body) noexcept {
    try {
        Status status = body();
        if (!status.ok()) set_last_error(status);
        return status.code();
    } catch (const std::bad_alloc&) {
        set_last_error(Status(SCATTER_ERROR_OUT_OF_MEMORY, "host memory could not be allocated"));
        return SCATTER_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        set_last_error(Status(SCATTER_ERROR_INTERNAL, "an unexpected C++ exception reached the C API"));
        return SCATTER_ERROR_INTERNAL;
    }
}

}  // namespace scatter
