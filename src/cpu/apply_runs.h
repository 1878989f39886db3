// Contiguous runs of a reduction (a slice of `rows`/`nd` landing on its target row) built once
// more for AVX2 where SCATTER_CLONES_AVX2 allows: the baseline x86-64 build has SSE2 only, which
// has no 32-bit integer max/min and half the vector width (W12, f32 add: 42 -> 34 ms on one
// thread in a plain loop). Vector instructions give the same bits as scalar ones: IEEE add, sub,
// mul and div are exactly rounded either way, and no multiply-add is fused (-ffp-contract=off).
#pragma once

#include "cpu/element_arith.h"

#include <cstdint>
#include <cstring>

namespace scatter {

// The loop every run takes, inlined into each clone (and into Reduce::apply_run for the types
// without one).
template <class S, class C>
inline void apply_run_loop(char* target, const char* update, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        S t, u;
        std::memcpy(&t, target + i * int64_t(sizeof(S)), sizeof(S));
        std::memcpy(&u, update + i * int64_t(sizeof(S)), sizeof(S));
        const S r = C::apply(t, u);
        std::memcpy(target + i * int64_t(sizeof(S)), &r, sizeof(S));
    }
}

using RunFunction = void (*)(char* target, const char* update, int64_t n);

// RunClone<C>::function: the cloned run of Combine C where kCloned. (A flag, not a test of the
// pointer: GCC's -fsanitize=undefined makes `&f != nullptr` no constant expression.)
template <class C>
struct RunClone {
    static constexpr bool kCloned = false;
    static constexpr RunFunction function = nullptr;
};

using F32Traits = FloatTraits<float, float>;  // (a macro argument cannot hold the comma)
using F64Traits = FloatTraits<double, double>;

// The reductions and dtypes with cloned runs: the 4- and 8-byte floats and integers (the
// types whose loops vectorize), every reduction but integer division (no vector form).
#define SCATTER_RUN_CLONES_OF(X, S, TR, SUFFIX, INT)                  \
    X(S, TR, SCATTER_REDUCTION_ADD, add_##SUFFIX)                     \
    X(S, TR, SCATTER_REDUCTION_SUB, sub_##SUFFIX)                     \
    X(S, TR, SCATTER_REDUCTION_MUL, mul_##SUFFIX)                     \
    X(S, TR, SCATTER_REDUCTION_MAX, max_##SUFFIX)                     \
    X(S, TR, SCATTER_REDUCTION_MIN, min_##SUFFIX)                     \
    X(S, TR, SCATTER_REDUCTION_MEAN, mean_##SUFFIX)                   \
    SCATTER_RUN_CLONE_DIV_##INT(X, S, TR, SUFFIX)
#define SCATTER_RUN_CLONE_DIV_0(X, S, TR, SUFFIX) X(S, TR, SCATTER_REDUCTION_DIV, div_##SUFFIX)
#define SCATTER_RUN_CLONE_DIV_1(X, S, TR, SUFFIX)
#define SCATTER_RUN_CLONES(X)                                          \
    SCATTER_RUN_CLONES_OF(X, float, F32Traits, f32, 0)                \
    SCATTER_RUN_CLONES_OF(X, double, F64Traits, f64, 0)               \
    SCATTER_RUN_CLONES_OF(X, int32_t, IntTraits<int32_t>, i32, 1)     \
    SCATTER_RUN_CLONES_OF(X, int64_t, IntTraits<int64_t>, i64, 1)     \
    SCATTER_RUN_CLONES_OF(X, uint32_t, IntTraits<uint32_t>, u32, 1)   \
    SCATTER_RUN_CLONES_OF(X, uint64_t, IntTraits<uint64_t>, u64, 1)

#define SCATTER_DECLARE_RUN_CLONE(S, TR, R, NAME)                      \
    void run_clone_##NAME(char* target, const char* update, int64_t n); \
    template <>                                                        \
    struct RunClone<Combine<R, TR, S>> {                               \
        static constexpr bool kCloned = true;                          \
        static constexpr RunFunction function = &run_clone_##NAME;     \
    };
SCATTER_RUN_CLONES(SCATTER_DECLARE_RUN_CLONE)
#undef SCATTER_DECLARE_RUN_CLONE

}  // namespace scatter
