// The error every command reports: a libscatter status and a one-sentence message. main()
// prints it as "error: STATUS_NAME: message" and exits with 1.
#pragma once

#include <scatter/scatter.h>

#include <stdexcept>
#include <string>

class CliError : public std::runtime_error {
public:
    CliError(scatter_status status, const std::string& message)
        : std::runtime_error(message), status_(status) {}
    scatter_status status() const { return status_; }

private:
    scatter_status status_;
};

// Throws CliError for a failed libscatter call, with the library's own message.
inline void check_status(scatter_status status) {
    if (status != SCATTER_OK) throw CliError(status, scatter_last_error_message());
}
