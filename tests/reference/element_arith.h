// One reduction step `t op u` per element type, exactly as docs/semantics.md defines
// it. Each element type is a small struct with the storage layout of its dtype; the functions
// here are overloaded on it, so the scatter loop in scatter_reference.cpp is written once.
#pragma once

#include <scatter/scatter.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "half_float.h"

namespace scatter_reference {

using scatter_test::bf16_to_f32;
using scatter_test::f16_to_f32;
using scatter_test::f32_to_bf16;
using scatter_test::f32_to_f16;

struct F16 { uint16_t bits; };
struct BF16 { uint16_t bits; };
struct Bool { uint8_t byte; };
template <class F> struct Complex { F re, im; };

// ---- real floats (f32, f64), which f16/bf16 reuse after widening to f32 ----

// max: a NaN t stays, else a NaN u is taken, else the larger; +0 counts as larger than -0.
template <class F> bool max_keeps_t(F t, F u) {
    if (std::isnan(t)) return true;
    if (std::isnan(u)) return false;
    if (t != u) return t > u;
    return !std::signbit(t);
}

// min: a NaN t stays, else a NaN u is taken, else the smaller; -0 counts as smaller than +0.
template <class F> bool min_keeps_t(F t, F u) {
    if (std::isnan(t)) return true;
    if (std::isnan(u)) return false;
    if (t != u) return t < u;
    return std::signbit(t);
}

// A NaN computed by arithmetic is stored as the positive quiet NaN with no payload, so results
// do not depend on which operand's NaN the hardware propagates (x86 and GPUs differ). none,
// max and min copy an operand, NaN payload and all.
template <class F> F canonical_nan(F x) {
    return std::isnan(x) ? std::numeric_limits<F>::quiet_NaN() : x;
}

template <class F> F float_step(scatter_reduction r, F t, F u) {
    switch (r) {
        case SCATTER_REDUCTION_ADD: case SCATTER_REDUCTION_MEAN: return canonical_nan(t + u);
        case SCATTER_REDUCTION_SUB: return canonical_nan(t - u);
        case SCATTER_REDUCTION_MUL: return canonical_nan(t * u);
        case SCATTER_REDUCTION_DIV: return canonical_nan(t / u);
        case SCATTER_REDUCTION_MAX: return max_keeps_t(t, u) ? t : u;
        case SCATTER_REDUCTION_MIN: return min_keeps_t(t, u) ? t : u;
        default: return u;
    }
}

template <class F> F float_identity(scatter_reduction r) {
    switch (r) {
        case SCATTER_REDUCTION_MUL: case SCATTER_REDUCTION_DIV: return F(1);
        case SCATTER_REDUCTION_MAX: return -std::numeric_limits<F>::infinity();
        case SCATTER_REDUCTION_MIN: return std::numeric_limits<F>::infinity();
        default: return F(0);
    }
}

inline float step(scatter_reduction r, float t, float u) { return float_step(r, t, u); }
inline double step(scatter_reduction r, double t, double u) { return float_step(r, t, u); }
inline float identity(scatter_reduction r, float) { return float_identity<float>(r); }
inline double identity(scatter_reduction r, double) { return float_identity<double>(r); }
inline float divide_by_count(float sum, int64_t count) { return canonical_nan(sum / float(count)); }
inline double divide_by_count(double sum, int64_t count) {
    return canonical_nan(sum / double(count));
}

// ---- 16-bit floats: each step in f32, rounded to storage after it. max/min and none pick one
// operand's stored bits unchanged. ----

template <class H, float (*widen)(uint16_t), uint16_t (*narrow)(float)>
H half_step(scatter_reduction r, H t, H u) {
    float a = widen(t.bits), b = widen(u.bits);
    switch (r) {
        case SCATTER_REDUCTION_NONE: return u;
        case SCATTER_REDUCTION_MAX: return max_keeps_t(a, b) ? t : u;
        case SCATTER_REDUCTION_MIN: return min_keeps_t(a, b) ? t : u;
        default: return H{narrow(float_step(r, a, b))};
    }
}

inline F16 step(scatter_reduction r, F16 t, F16 u) {
    return half_step<F16, f16_to_f32, f32_to_f16>(r, t, u);
}
inline BF16 step(scatter_reduction r, BF16 t, BF16 u) {
    return half_step<BF16, bf16_to_f32, f32_to_bf16>(r, t, u);
}
inline F16 identity(scatter_reduction r, F16) { return F16{f32_to_f16(float_identity<float>(r))}; }
inline BF16 identity(scatter_reduction r, BF16) {
    return BF16{f32_to_bf16(float_identity<float>(r))};
}
inline F16 divide_by_count(F16 sum, int64_t count) {
    return F16{f32_to_f16(canonical_nan(f16_to_f32(sum.bits) / float(count)))};
}
inline BF16 divide_by_count(BF16 sum, int64_t count) {
    return BF16{f32_to_bf16(canonical_nan(bf16_to_f32(sum.bits) / float(count)))};
}

// ---- integers: add/sub/mul wrap (computed unsigned, at least 32 bits wide so that no
// promotion to int can overflow); div truncates, MIN / -1 wraps to MIN; mean floors. ----

template <class I> using WideUnsigned =
    std::conditional_t<(sizeof(I) < 4), uint32_t, std::make_unsigned_t<I>>;

template <class I> I integer_step(scatter_reduction r, I t, I u) {
    using W = WideUnsigned<I>;
    switch (r) {
        case SCATTER_REDUCTION_ADD: case SCATTER_REDUCTION_MEAN: return I(W(t) + W(u));
        case SCATTER_REDUCTION_SUB: return I(W(t) - W(u));
        case SCATTER_REDUCTION_MUL: return I(W(t) * W(u));
        case SCATTER_REDUCTION_DIV:
            if (std::is_signed<I>::value && u == I(-1)) return I(W(0) - W(t));
            return I(t / u);
        case SCATTER_REDUCTION_MAX: return t < u ? u : t;
        case SCATTER_REDUCTION_MIN: return u < t ? u : t;
        default: return u;
    }
}

template <class I> I integer_identity(scatter_reduction r) {
    switch (r) {
        case SCATTER_REDUCTION_MUL: case SCATTER_REDUCTION_DIV: return I(1);
        case SCATTER_REDUCTION_MAX: return std::numeric_limits<I>::lowest();
        case SCATTER_REDUCTION_MIN: return std::numeric_limits<I>::max();
        default: return I(0);
    }
}

template <class I> I integer_divide_by_count(I sum, int64_t count) {
    if (!std::is_signed<I>::value) return I(uint64_t(sum) / uint64_t(count));
    int64_t s = int64_t(sum);
    int64_t quotient = s / count;
    if (s % count != 0 && s < 0) quotient -= 1;  // floor, as PyTorch does
    return I(quotient);
}

#define SCATTER_REFERENCE_INTEGER_OVERLOADS(I)                                                 \
    inline I step(scatter_reduction r, I t, I u) { return integer_step<I>(r, t, u); }         \
    inline I identity(scatter_reduction r, I) { return integer_identity<I>(r); }             \
    inline I divide_by_count(I sum, int64_t count) { return integer_divide_by_count(sum, count); }
SCATTER_REFERENCE_INTEGER_OVERLOADS(int8_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(int16_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(int32_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(int64_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(uint8_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(uint16_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(uint32_t)
SCATTER_REFERENCE_INTEGER_OVERLOADS(uint64_t)
#undef SCATTER_REFERENCE_INTEGER_OVERLOADS

template <class T> bool is_integer_zero(T value) { return value == T(0); }

// ---- bool: add is logical or, mul logical and, any nonzero byte is true, and their results
// are 0/1; none is an assignment like for every dtype and copies the update's byte as it is ----

inline Bool step(scatter_reduction r, Bool t, Bool u) {
    bool a = t.byte != 0, b = u.byte != 0;
    switch (r) {
        case SCATTER_REDUCTION_ADD: return Bool{uint8_t(a || b)};
        case SCATTER_REDUCTION_MUL: return Bool{uint8_t(a && b)};
        default: return u;
    }
}
inline Bool identity(scatter_reduction r, Bool) {
    return Bool{uint8_t(r == SCATTER_REDUCTION_MUL ? 1 : 0)};
}
inline Bool divide_by_count(Bool sum, int64_t) { return sum; }  // mean is unsupported for bool

// ---- complex: mul is (ac-bd) + (ad+bc)i in that order; div is Smith's algorithm ----

template <class F> Complex<F> complex_divide(Complex<F> x, Complex<F> y) {
    F a = x.re, b = x.im, c = y.re, d = y.im;
    if (std::fabs(c) >= std::fabs(d)) {
        F ratio = d / c;
        F denominator = c + d * ratio;
        return {(a + b * ratio) / denominator, (b - a * ratio) / denominator};
    }
    F ratio = c / d;
    F denominator = c * ratio + d;
    return {(a * ratio + b) / denominator, (b * ratio - a) / denominator};
}

template <class F> Complex<F> canonical_nan(Complex<F> z) {
    return {canonical_nan(z.re), canonical_nan(z.im)};
}

template <class F> Complex<F> step(scatter_reduction r, Complex<F> t, Complex<F> u) {
    switch (r) {
        case SCATTER_REDUCTION_ADD: case SCATTER_REDUCTION_MEAN:
            return canonical_nan(Complex<F>{t.re + u.re, t.im + u.im});
        case SCATTER_REDUCTION_SUB: return canonical_nan(Complex<F>{t.re - u.re, t.im - u.im});
        case SCATTER_REDUCTION_MUL:
            return canonical_nan(
                Complex<F>{t.re * u.re - t.im * u.im, t.re * u.im + t.im * u.re});
        case SCATTER_REDUCTION_DIV: return canonical_nan(complex_divide(t, u));
        default: return u;
    }
}
template <class F> Complex<F> identity(scatter_reduction r, Complex<F>) {
    bool multiplicative = r == SCATTER_REDUCTION_MUL || r == SCATTER_REDUCTION_DIV;
    return {F(multiplicative ? 1 : 0), F(0)};
}
template <class F> Complex<F> divide_by_count(Complex<F> sum, int64_t count) {
    return canonical_nan(Complex<F>{sum.re / F(count), sum.im / F(count)});
}

}  // namespace scatter_reference
