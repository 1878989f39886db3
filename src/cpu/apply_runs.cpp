#include "cpu/apply_runs.h"

#include "core/cpu_clones.h"

namespace scatter {

#define SCATTER_DEFINE_RUN_CLONE(S, TR, R, NAME)                                          \
    SCATTER_CLONES_AVX2 void run_clone_##NAME(char* target, const char* update, int64_t n) { \
        apply_run_loop<S, Combine<R, TR, S>>(target, update, n);                          \
    }
SCATTER_RUN_CLONES(SCATTER_DEFINE_RUN_CLONE)
#undef SCATTER_DEFINE_RUN_CLONE

}  // namespace scatter
