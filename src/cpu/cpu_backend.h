// The CPU backend: validates indices and divisors on the host, then runs the kernels on the
// context's threads.
#pragma once

#include "core/backend.h"
#include "core/context.h"

#include <memory>

namespace scatter {

std::unique_ptr<Backend> make_cpu_backend(ContextConfig& config);

// Runs a validated plan whose tensors are all in host memory (the CPU backend's execute).
Status execute_on_cpu(const OpPlan& plan, ContextConfig& config);

// Runs a validated gather whose tensors are all in host memory (the CPU backend's execute_gather).
Status execute_gather_on_cpu(const GatherPlan& plan, ContextConfig& config);

// Runs a validated message-passing call whose tensors are all in host memory.
Status execute_message_passing_on_cpu(const MessagePlan& plan, ContextConfig& config);

}  // namespace scatter
