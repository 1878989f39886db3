// The objects behind the opaque handles of the C API.
#pragma once

#include "core/backend.h"
#include "core/host_allocator.h"
#include "core/task_runner.h"

#include <scatter/scatter.h>

#include <atomic>
#include <memory>

namespace scatter {

// What every backend of a context shares: allocator, threads, logging, flags.
struct ContextConfig {
    HostAllocator allocator;
    std::unique_ptr<TaskRunner> runner;
    scatter_log_fn log = nullptr;
    void* log_user = nullptr;
    uint32_t flags = 0;

    void log_message(scatter_log_level level, const char* message) const {
        if (log != nullptr) log(log_user, level, message);
    }
};

}  // namespace scatter

struct scatter_context_t {
    scatter_context_t() {
        static std::atomic<uint64_t> next_id{1};
        id = next_id.fetch_add(1);
    }
    uint64_t id;  // never reused: tells this context from a later one at the same address
    scatter::ContextConfig config;
    std::unique_ptr<scatter::Backend> backend;
    // The application's handle plus one per buffer, batch and recording made on the context:
    // scatter_context_destroy drops the handle's, and the context goes with the last reference,
    // so objects destroyed after their context (garbage collectors do not keep an order) never
    // reach freed memory.
    std::atomic<int64_t> references{1};
};

namespace scatter {

inline void retain_context(scatter_context_t* context) { context->references.fetch_add(1); }

// Drops one reference; the last one deletes the context. Never throws.
void release_context(scatter_context_t* context) noexcept;

}  // namespace scatter

struct scatter_buffer_t {
    scatter_context_t* context = nullptr;
    std::unique_ptr<scatter::Buffer> impl;
};
