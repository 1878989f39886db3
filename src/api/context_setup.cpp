#include "api/context_setup.h"

#include <cstdio>

namespace scatter {

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
