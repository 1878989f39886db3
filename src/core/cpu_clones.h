// SCATTER_CLONES_AVX2: an AVX2 clone of a hot function, picked at load time through an ifunc.
#pragma once

// ThreadSanitizer, as GCC (__SANITIZE_THREAD__) and clang (__has_feature) each announce it.
#if defined(__SANITIZE_THREAD__)
#define SCATTER_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SCATTER_THREAD_SANITIZER 1
#endif
#endif

// On x86-64 ELF only: target_clones needs ifunc, which Windows lacks, and "avx2" means nothing to
// other CPUs. Not under ThreadSanitizer: the compiler instruments the ifunc resolver, which then
// runs before TSan is initialized and crashes the process while the library loads.
#if defined(__x86_64__) && defined(__ELF__) && !defined(SCATTER_THREAD_SANITIZER)
#define SCATTER_AVX2_CLONES 1
#define SCATTER_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define SCATTER_AVX2_CLONES 0
#define SCATTER_CLONES_AVX2
#endif
