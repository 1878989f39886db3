// OperationProfile: what one profiled call measured (SCATTER_CONTEXT_FLAG_PROFILE). The API layer
// creates it, times the host stages it sees, and hands it to the backend through the plan; the
// backend adds its stages and passes. Nothing here runs when profiling is off (plan.profile null).
#pragma once

#include <scatter/scatter.h>

#include <chrono>
#include <cstdint>

namespace scatter {

struct OperationProfile {
    scatter_profile result{};

    OperationProfile() { result.struct_size = sizeof result; }
    // Appends a pass; beyond SCATTER_PROFILE_MAX_PASSES the time is added to the last one.
    void add_pass(const char* name, uint64_t invocations, double time_us);
    void set_route(const char* text);
};

// Microseconds since construction (or the last lap).
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double lap_us() {
        auto now = std::chrono::steady_clock::now();
        double us = std::chrono::duration<double, std::micro>(now - start_).count();
        start_ = now;
        return us;
    }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace scatter
