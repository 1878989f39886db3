#include "cpu/cpu_switches.h"

#include <cstdlib>
#include <cstring>

namespace scatter {
namespace {

CpuSwitches switches_from_environment() {
    CpuSwitches s;
    const char* env = std::getenv("SCATTER_CPU_TEST_PATHS");
    if (env == nullptr) return s;
    for (const char* at = env; *at != '\0';) {
        const char* end = std::strchr(at, ',');
        if (end == nullptr) end = at + std::strlen(at);
        if (std::strncmp(at, "blocks=", 7) == 0 && at + 7 < end) {
            const long long bytes = std::strtoll(at + 7, nullptr, 10);
            if (bytes > 0) {
                s.block_bytes = bytes;
                s.force_blocks = true;
            }
        }
        if (std::strncmp(at, "stage=", 6) == 0 && at + 6 < end) {
            const long long bytes = std::strtoll(at + 6, nullptr, 10);
            if (bytes > 0) s.stage_bytes = bytes;
        }
        if (std::strncmp(at, "gather_parallel=", 16) == 0 && at + 16 < end) {
            const long long bytes = std::strtoll(at + 16, nullptr, 10);
            if (bytes > 0) s.gather_parallel_bytes = bytes;
        }
        at = *end == ',' ? end + 1 : end;
    }
    return s;
}

}  // namespace

const CpuSwitches& cpu_switches() {
    static const CpuSwitches switches = switches_from_environment();
    return switches;
}

}  // namespace scatter
