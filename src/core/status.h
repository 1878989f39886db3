// Status: a scatter_status plus a one-sentence message, returned by every fallible core function.
#pragma once

#include <scatter/scatter.h>

#include <string>

namespace scatter {

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(scatter_status code, std::string message) : code_(code), message_(std::move(message)) {}

    bool ok() const { return code_ == SCATTER_OK; }
    scatter_status code() const { return code_; }
    const std::string& message() const { return message_; }

private:
    scatter_status code_ = SCATTER_OK;
    std::string message_;
};

// Builds a failed Status with a printf-style message.
Status make_error(scatter_status code, const char* format, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3)))  // mingw's C++ runtime formats like glibc (%zu)
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#define SCATTER_RETURN_IF_ERROR(expr)              \
    do {                                           \
        ::scatter::Status status_ = (expr);        \
        if (!status_.ok()) return status_;         \
    } while (0)

}  // namespace scatter
