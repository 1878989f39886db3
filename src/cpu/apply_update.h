// How one update lands on its target, as three policies the kernels are templated on:
// Assign (`none`, any element size), Reduce (every other reduction, typed).
#pragma once

#include "cpu/apply_runs.h"
#include "cpu/element_arith.h"

#include <cstdint>
#include <cstring>

namespace scatter {

// `none`: the bytes of the update replace the target. N = element size, or 0 for any size.
template <size_t N>
struct Assign {
    static constexpr bool kReduces = false;
    static constexpr int64_t kSize = int64_t(N);  // 0: given at run time
    uint32_t size;
    void apply(char* target, const char* update) const {
        if (N != 0) std::memcpy(target, update, N);
        else std::memcpy(target, update, size);
    }
    void apply_run(char* target, const char* update, int64_t n) const {
        std::memcpy(target, update, size_t(n) * size);
    }
    void start(char*) const {}
    void finish(char*, int64_t) const {}
};

// Every other reduction: C is Combine<R, Traits, S>.
template <class S, class C>
struct Reduce {
    static constexpr bool kReduces = true;
    static constexpr int64_t kSize = int64_t(sizeof(S));
    uint32_t size;
    static S load(const char* p) {
        S v;
        std::memcpy(&v, p, sizeof(S));
        return v;
    }
    static void store(char* p, S v) { std::memcpy(p, &v, sizeof(S)); }
    void apply(char* target, const char* update) const { store(target, C::apply(load(target), load(update))); }
    // A contiguous run of n targets and updates: a plain loop the compiler vectorizes, built for
    // AVX2 too where apply_runs.h has a clone of it.
    void apply_run(char* target, const char* update, int64_t n) const {
        if constexpr (RunClone<C>::kCloned) RunClone<C>::function(target, update, n);
        else apply_run_loop<S, C>(target, update, n);
    }
    // exclude_self: a target's first update starts from the identity.
    void start(char* target) const { store(target, C::identity()); }
    // mean: divides the accumulated sum by the number of terms.
    void finish(char* target, int64_t terms) const { store(target, C::finish_mean(load(target), terms)); }
};

}  // namespace scatter
