#include "api/auto_backend.h"

#include "core/backward_plan.h"
#include "core/dtype.h"
#include "core/gather_plan.h"
#include "core/message_plan.h"
#include "core/op_plan.h"
#include "core/profile.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

namespace scatter {
namespace {

double plan_bytes(const OpPlan& p) {
    const TensorView* views[] = {&p.data, &p.out, &p.indices, &p.updates};
    double bytes = 0;
    for (const TensorView* v : views) bytes += double(v->element_count) * double(v->element_size);
    return bytes;
}

bool all_on_host(std::initializer_list<const TensorView*> views) {
    for (const TensorView* v : views)
        if (v->buffer != nullptr) return false;
    return true;
}

bool on_host(const OpPlan& p) { return all_on_host({&p.data, &p.out, &p.indices, &p.updates}); }

// A probe: elements along axis 0 of a square [side, side], add, f32, host tensors, indices
// uniform over the axis — the shape of the standard workload W1, whose columns the CPU backend
// spreads over its threads. (A 1-D probe would be one column: the CPU's worst case.)
struct Probe {
    std::vector<float> data, updates, out;
    std::vector<int64_t> indices;
    int64_t shape[2];
    TensorView d, i, u, o;

    explicit Probe(int64_t side) {
        const size_t n = size_t(side * side);
        data.assign(n, 1.0f);
        updates.assign(n, 0.5f);
        out.assign(n, 0.0f);
        indices.resize(n);
        uint64_t state = 0x9E3779B97F4A7C15ull;
        for (size_t k = 0; k < n; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            indices[k] = int64_t((state >> 33) % uint64_t(side));
        }
        shape[0] = shape[1] = side;
    }
    OpPlan plan() {
        OpPlan p;
        p.op = OpKind::Elements;
        p.reduction = SCATTER_REDUCTION_ADD;
        p.policy = SCATTER_OUT_OF_RANGE_ERROR;
        view(&p.data, SCATTER_DTYPE_F32, data.data());
        view(&p.out, SCATTER_DTYPE_F32, out.data());
        view(&p.updates, SCATTER_DTYPE_F32, updates.data());
        view(&p.indices, SCATTER_DTYPE_I64, indices.data());
        return p;
    }
    void view(TensorView* v, scatter_dtype dtype, void* host) {
        v->info = find_dtype(dtype);
        v->element_size = uint32_t(v->info->size);
        v->rank = 2;
        v->shape[0] = v->shape[1] = shape[0];
        v->strides[0] = shape[0];
        v->strides[1] = 1;
        v->element_count = shape[0] * shape[1];
        v->min_byte = 0;
        v->end_byte = v->element_count * int64_t(v->element_size);
        v->contiguous = true;
        v->host = static_cast<char*>(host);
    }
};

// The best of `runs` runs of `plan` on `backend`, in microseconds (a failed run counts as never).
double best_us(Backend& backend, const OpPlan& plan, int runs) {
    double best = 1e30;
    for (int r = 0; r < runs; ++r) {
        Stopwatch watch;
        if (!backend.execute(plan).ok()) return 1e30;
        best = std::min(best, watch.lap_us());
    }
    return best;
}

CostLine fit(double small_bytes, double small_us, double large_bytes, double large_us) {
    CostLine line;
    line.us_per_byte = std::max(0.0, (large_us - small_us) / (large_bytes - small_bytes));
    line.fixed_us = std::max(0.0, small_us - small_bytes * line.us_per_byte);
    return line;
}

}  // namespace

void AutoBackend::measure_costs() {
    Probe small(8), large(1024);
    const OpPlan small_plan = small.plan(), large_plan = large.plan();
    const double small_bytes = plan_bytes(small_plan), large_bytes = plan_bytes(large_plan);
    cpu_line_ = fit(small_bytes, best_us(*cpu_, small_plan, 5), large_bytes, best_us(*cpu_, large_plan, 2));
    vulkan_line_ = fit(small_bytes, best_us(*vulkan_, small_plan, 5), large_bytes, best_us(*vulkan_, large_plan, 2));
    char line[256];
    std::snprintf(line, sizeof line,
                  "backend AUTO measured its cost model: CPU %.1f us + %.3f ns/byte, Vulkan %.1f us + %.3f ns/byte",
                  cpu_line_.fixed_us, cpu_line_.us_per_byte * 1e3, vulkan_line_.fixed_us,
                  vulkan_line_.us_per_byte * 1e3);
    config_.log_message(SCATTER_LOG_DEBUG, line);
}

Status AutoBackend::execute(const OpPlan& plan) {
    char reason[96];
    Backend* chosen = vulkan_.get();
    if (!on_host(plan)) {
        std::snprintf(reason, sizeof reason, "vulkan: buffer tensors stay where they are");
    } else {
        std::call_once(measured_, [this] { measure_costs(); });
        const double bytes = plan_bytes(plan);
        const double cpu_us = cpu_line_.at(bytes), vulkan_us = vulkan_line_.at(bytes);
        if (cpu_us <= vulkan_us) chosen = cpu_.get();
        std::snprintf(reason, sizeof reason, "%s: predicted CPU %.0f us, Vulkan %.0f us for %.0f bytes",
                      chosen == cpu_.get() ? "cpu" : "vulkan", cpu_us, vulkan_us, bytes);
    }
    Status status = route(plan, chosen, reason);
    // Capability before cost: a host call the device refuses (a feature it lacks, a size it does
    // not address) was refused before anything was staged or written, and the CPU runs every
    // call, so the call's status never depends on its size. Bitwise equal either way.
    if (chosen == vulkan_.get() && on_host(plan) && status.code() == SCATTER_ERROR_UNSUPPORTED) {
        std::snprintf(reason, sizeof reason, "cpu: the Vulkan device refused it: %s", status.message().c_str());
        status = route(plan, cpu_.get(), reason);
    }
    return status;
}

Status AutoBackend::route(const OpPlan& plan, Backend* chosen, const char* reason) {
    config_.log_message(SCATTER_LOG_DEBUG, (std::string("backend AUTO routes a call to ") + reason).c_str());
    if (plan.profile != nullptr) {
        plan.profile->set_route(reason);
        plan.profile->result.backend = chosen->kind();
    }
    return chosen->execute(plan);
}

Backend* AutoBackend::fixed_route(OperationProfile* profile, bool host, const char* what, const char* cpu_reason) {
    Backend* chosen = host ? cpu_.get() : vulkan_.get();
    const char* reason = host ? cpu_reason : "vulkan: buffer tensors stay where they are";
    config_.log_message(SCATTER_LOG_DEBUG, (std::string("backend AUTO routes ") + what + " to " + reason).c_str());
    if (profile != nullptr) {
        profile->set_route(reason);
        profile->result.backend = chosen->kind();
    }
    return chosen;
}

Status AutoBackend::execute_gather(const GatherPlan& plan) {
    return fixed_route(plan.profile, all_on_host({&plan.data, &plan.indices, &plan.out}), "a gather",
                       "cpu: gather runs on the CPU backend")
        ->execute_gather(plan);
}

Status AutoBackend::execute_backward(const BackwardPlan& plan) {
    const OpPlan& f = plan.forward;
    const bool host = all_on_host({&f.data, &f.indices, &f.updates, &f.out, &plan.grad_out, &plan.grad_data,
                                   &plan.grad_updates});
    return fixed_route(plan.profile, host, "a backward call", "cpu: backward calls run on the CPU backend")
        ->execute_backward(plan);
}

Status AutoBackend::execute_gather_backward(const GatherPlan& plan) {
    return fixed_route(plan.profile, all_on_host({&plan.data, &plan.indices, &plan.out}), "a gather backward",
                       "cpu: backward calls run on the CPU backend")
        ->execute_gather_backward(plan);
}

Status AutoBackend::execute_message_passing(const MessagePlan& plan) {
    const TensorView* views[] = {&plan.data, &plan.x, &plan.src, &plan.dst, &plan.weights, &plan.out};
    bool host = true;
    for (const TensorView* v : views) host = host && v->buffer == nullptr;
    Backend* chosen = host ? cpu_.get() : vulkan_.get();
    const char* reason =
        host ? "cpu: message passing runs on the CPU backend" : "vulkan: buffer tensors stay where they are";
    config_.log_message(SCATTER_LOG_DEBUG, (std::string("backend AUTO routes message passing to ") + reason).c_str());
    if (plan.profile != nullptr) {
        plan.profile->set_route(reason);
        plan.profile->result.backend = chosen->kind();
    }
    return chosen->execute_message_passing(plan);
}

}  // namespace scatter
