// The backend of an AUTO context on a machine with a usable GPU: each operation on host tensors
// runs where it is predicted to finish first, on the CPU or on Vulkan (staging copies and the GPU
// round trip included); operations on buffers run on Vulkan, where the buffers live.
//
// The prediction is a line per backend, time = fixed + bytes x per-byte, where bytes counts data,
// out, indices and updates. Its constants are measured on the first routed call: one tiny and
// one 1024x1024 probe operation (W1's shape) on each backend (a few ms on a GPU machine), then kept for the
// context's life. The choice and its reason are logged at DEBUG level and put in the profile.
#pragma once

#include "core/backend.h"
#include "core/context.h"

#include <memory>
#include <mutex>

namespace scatter {

// time_us = fixed_us + bytes * us_per_byte
struct CostLine {
    double fixed_us = 0;
    double us_per_byte = 0;
    double at(double bytes) const { return fixed_us + bytes * us_per_byte; }
};

struct OperationProfile;

class AutoBackend final : public Backend {
public:
    AutoBackend(std::unique_ptr<Backend> cpu, std::unique_ptr<Backend> vulkan, ContextConfig& config)
        : cpu_(std::move(cpu)), vulkan_(std::move(vulkan)), config_(config) {}

    // Buffers are Vulkan buffers: the context reports Vulkan.
    scatter_backend kind() const override { return SCATTER_BACKEND_VULKAN; }
    Status create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) override {
        return vulkan_->create_buffer(size, out);
    }
    Status execute(const OpPlan& plan) override;
    // Gathers of host tensors run on the CPU backend (a byte copy: staging them for the GPU
    // costs more than the copy); on buffers, on Vulkan, where the buffers live.
    Status execute_gather(const GatherPlan& plan) override;
    // Message passing on host tensors runs on the CPU backend; on buffers, on Vulkan (which
    // refuses it as UNSUPPORTED for now).
    Status execute_message_passing(const MessagePlan& plan) override;
    // Backward calls on host tensors run on the CPU backend (Vulkan has no backward kernels);
    // on buffers, on Vulkan, which refuses them as UNSUPPORTED.
    Status execute_backward(const BackwardPlan& plan) override;
    Status execute_gather_backward(const GatherPlan& plan) override;
    Backend* buffer_owner() override { return vulkan_.get(); }

private:
    // Measures both lines once (thread-safe).
    void measure_costs();
    // The backend of a call that is not cost-routed (host tensors: the CPU, buffers: Vulkan),
    // with the route logged and put in the profile.
    Backend* fixed_route(OperationProfile* profile, bool host, const char* what, const char* cpu_reason);
    // Logs the route, puts it in the profile and runs the call on `chosen`.
    Status route(const OpPlan& plan, Backend* chosen, const char* reason);

    std::unique_ptr<Backend> cpu_, vulkan_;
    ContextConfig& config_;
    std::once_flag measured_;
    CostLine cpu_line_, vulkan_line_;
};

}  // namespace scatter
