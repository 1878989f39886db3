#include "api/context_setup.h"

namespace scatter {

void configure_context(const scatter_context_desc& d, ContextConfig* config) {
    if (d.allocator != nullptr) config->allocator = HostAllocator(*d.allocator);
    config->runner = d.parallel_for != nullptr ? make_job_system_runner(d.parallel_for, d.parallel_for_user)
                                               : make_thread_pool(d.thread_count);
    config->log = d.log;
    config->log_user = d.log_user;
    config->flags = d.flags;
}

}  // namespace scatter
