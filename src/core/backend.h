// The Backend interface: what the CPU and Vulkan backends implement. Core validates and plans;
// a backend only executes plans that passed validation.
#pragma once

#include "core/status.h"

#include <scatter/scatter.h>

#include <cstdint>
#include <memory>

namespace scatter {

struct OpPlan;
struct GatherPlan;
struct MessagePlan;
struct BackwardPlan;

// Memory owned by a backend.
class Buffer {
public:
    virtual ~Buffer() = default;
    virtual uint64_t size() const = 0;
    // The buffer's bytes in host memory when the CPU may address them directly, else nullptr.
    virtual char* host_data() = 0;
    // Range checks are done by the caller.
    virtual Status write(uint64_t offset, const void* src, uint64_t size) = 0;
    virtual Status read(uint64_t offset, void* dst, uint64_t size) = 0;
    // Copies from `src`, a buffer of the same backend; ranges are checked and do not overlap.
    virtual Status copy_from(Buffer& src, uint64_t src_offset, uint64_t dst_offset, uint64_t size) = 0;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual scatter_backend kind() const = 0;
    virtual Status create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) = 0;
    // Runs a validated plan. Must check indices (policy ERROR) and integer divisors before the
    // first write, so that a failure leaves the destination unchanged.
    virtual Status execute(const OpPlan& plan) = 0;
    // Runs a validated gather. Must check its indices (policies ERROR and CLAMP) before the first
    // write, so that a failure leaves `out` unchanged.
    virtual Status execute_gather(const GatherPlan& plan) = 0;
    // Runs a validated message-passing call. Must check src, then dst, then integer divisors
    // before the first write, so that a failure leaves `out` unchanged.
    virtual Status execute_message_passing(const MessagePlan& plan) = 0;
    // Runs a validated scatter backward: checks the indices as the forward does, then writes
    // grad_data and grad_updates (nothing on failure).
    virtual Status execute_backward(const BackwardPlan& plan) = 0;
    // Runs a validated gather backward (plan.data is grad_data, plan.out is grad_out): checks the
    // indices as the forward gather does, then scatter-adds grad_out into a zeroed grad_data.
    virtual Status execute_gather_backward(const GatherPlan& plan) = 0;
    // The backend that owns the context's buffers (this one, except for AUTO's router, which
    // returns its Vulkan backend): batches, interop and buffer wrapping go straight to it.
    virtual Backend* buffer_owner() { return this; }
};

}  // namespace scatter
