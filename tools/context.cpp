#include "context.h"

#include "cli_error.h"

ContextHandle make_context(const ContextSettings& settings) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = settings.backend;
    desc.device_index = settings.device_index;
    desc.thread_count = settings.threads;
    desc.flags = settings.flags;
    scatter_context context = nullptr;
    check_status(scatter_context_create(&desc, &context));
    return ContextHandle(context);
}
