#include "api/context_setup.h"

#include "core/struct_size.h"

#include <cstdio>

namespace scatter {
namespace {

constexpr uint32_t kKnownContextFlags =
    SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM | SCATTER_CONTEXT_FLAG_VALIDATION | SCATTER_CONTEXT_FLAG_PROFILE;

}  // namespace

Status check_context_desc(const scatter_context_desc& desc) {
    SCATTER_RETURN_IF_ERROR(check_struct_size("desc", &desc, desc.struct_size, sizeof(scatter_context_desc)));
    if (desc.backend != SCATTER_BACKEND_AUTO && desc.backend != SCATTER_BACKEND_CPU &&
        desc.backend != SCATTER_BACKEND_VULKAN)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "desc.backend = %d is not a scatter_backend",
                          int(desc.backend));
    if (desc.device_index < -1)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "desc.device_index = %d must be -1 (automatic) or a device index", int(desc.device_index));
    if ((desc.flags & ~kKnownContextFlags) != 0)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "desc.flags = 0x%x has unknown bits 0x%x",
                          desc.flags, desc.flags & ~kKnownContextFlags);
    if (desc.allocator != nullptr && (desc.allocator->alloc == nullptr || desc.allocator->free == nullptr))
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "desc.allocator needs both alloc and free");
    return Status();
}

void configure_context(const scatter_context_desc& d, ContextConfig* config) {
    if (d.allocator != nullptr) config->allocator = HostAllocator(*d.allocator);
    config->log = d.log;
    config->log_user = d.log_user;
    config->flags = d.flags;
    if (d.parallel_for != nullptr) {
        config->runner = make_job_system_runner(d.parallel_for, d.parallel_for_user);
        return;
    }
    config->runner = make_thread_pool(d.thread_count);
    const uint32_t wanted = wanted_thread_count(d.thread_count), got = config->runner->concurrency();
    if (got < wanted) {
        char message[160];
        std::snprintf(message, sizeof message,
                      "started %u of %u CPU threads: the system refused more (process, thread or memory "
                      "limit); running on %u",
                      got, wanted, got);
        config->log_message(SCATTER_LOG_WARNING, message);
    }
}

}  // namespace scatter
