#include "cpu/cpu_switches.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace scatter {
namespace {

// A positive decimal byte count, the whole term after "name=".
bool parse_bytes(const std::string& text, int64_t* out) {
    if (text.empty()) return false;
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (*end != '\0' || errno != 0 || value <= 0) return false;
    *out = value;
    return true;
}

struct ParsedSwitches {
    CpuSwitches switches;
    Status status;
};

ParsedSwitches parse_environment() {
    ParsedSwitches parsed;
    const char* env = std::getenv("SCATTER_CPU_TEST_PATHS");
    if (env == nullptr) return parsed;
    CpuSwitches& s = parsed.switches;
    const std::string list(env);
    size_t begin = 0;
    while (begin <= list.size()) {
        size_t end = list.find(',', begin);
        if (end == std::string::npos) end = list.size();
        const std::string term = list.substr(begin, end - begin);
        begin = end + 1;
        if (term.empty()) continue;
        int64_t bytes = 0;
        if (term.rfind("blocks=", 0) == 0 && parse_bytes(term.substr(7), &bytes)) {
            s.block_bytes = bytes;
            s.force_blocks = true;
        } else if (term.rfind("stage=", 0) == 0 && parse_bytes(term.substr(6), &bytes)) {
            s.stage_bytes = bytes;
        } else if (term.rfind("gather_parallel=", 0) == 0 && parse_bytes(term.substr(16), &bytes)) {
            s.gather_parallel_bytes = bytes;
        } else {
            // A misspelt switch would quietly test the default path.
            parsed.status = make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                                       "SCATTER_CPU_TEST_PATHS has \"%s\", which is not blocks=N, stage=N or gather_parallel=N with N > 0",
                                       term.c_str());
            parsed.switches = CpuSwitches();
            return parsed;
        }
    }
    return parsed;
}

const ParsedSwitches& parsed_switches() {
    static const ParsedSwitches parsed = parse_environment();
    return parsed;
}

}  // namespace

const CpuSwitches& cpu_switches() { return parsed_switches().switches; }

Status check_cpu_switches() { return parsed_switches().status; }

}  // namespace scatter
