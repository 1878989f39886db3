#include "api/api_guard.h"

#include <cstring>

namespace scatter {
namespace {

// A fixed buffer per thread: recording an error never allocates, so it cannot fail.
thread_local char t_last_error[512];

}  // namespace

void set_last_error(const Status& status) {
    const std::string& m = status.message();
    size_t n = m.size() < sizeof t_last_error - 1 ? m.size() : sizeof t_last_error - 1;
    std::memcpy(t_last_error, m.data(), n);
    t_last_error[n] = '\0';
}

const char* last_error_message() { return t_last_error; }

}  // namespace scatter

extern "C" SCATTER_API const char* scatter_last_error_message(void) { return scatter::last_error_message(); }
