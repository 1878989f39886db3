// Creating a libscatter context from the command line's backend, device and thread options.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <memory>

struct ContextSettings {
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    int32_t device_index = -1;  // -1: the library chooses
    uint32_t threads = 0;       // 0: one per hardware thread
    uint32_t flags = 0;         // SCATTER_CONTEXT_FLAG_*
};

struct ContextDeleter {
    void operator()(scatter_context_t* context) const { scatter_context_destroy(context); }
};
using ContextHandle = std::unique_ptr<scatter_context_t, ContextDeleter>;

// Creates the context or throws CliError with the library's status and message.
ContextHandle make_context(const ContextSettings& settings);
