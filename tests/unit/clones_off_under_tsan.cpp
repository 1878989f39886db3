// Compiled (not run) with -fsanitize=thread by clang and by GCC: the AVX2 target_clones must be
// off under ThreadSanitizer whichever compiler announces it, or the library crashes at load.
#include "core/cpu_clones.h"

#if SCATTER_AVX2_CLONES
#error "SCATTER_AVX2_CLONES is on under -fsanitize=thread: the ifunc resolver would crash at load"
#endif
