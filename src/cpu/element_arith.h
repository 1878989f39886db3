// The arithmetic of every reduction on every dtype, one traits struct per storage type. These are
// the semantics of docs/semantics.md; the Vulkan shaders implement the same formulas.
#pragma once

#include "cpu/half_float.h"

#include <scatter/scatter.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace scatter {

struct Half { uint16_t bits; };
struct BFloat { uint16_t bits; };
struct Bool8 { uint8_t value; };
template <class T> struct ComplexOf { T re, im; };

// Arithmetic NaN results are stored as the canonical quiet NaN, so that every backend produces
// the same bits whatever NaN its hardware generates. max/min return an operand unchanged.
inline float canonical(float x) { return x != x ? bits_float(0x7fc00000u) : x; }
inline double canonical(double x) {
    if (x == x) return x;
    uint64_t bits = 0x7ff8000000000000ull;
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

// max (or min) of f32/f64 t and u as FloatTraits defines them below (NaN propagates, t's first;
// +0 > -0), from integer operations only, so that runs of it vectorize. For a value that is not
// NaN, flipping the magnitude bits of a negative one makes its bits, read as a signed integer,
// order like the value, with -0 just below +0; a NaN's magnitude is above infinity's.
template <class F>
inline F ordered_pick(F t, F u, bool max) {
    using I = std::conditional_t<sizeof(F) == 4, int32_t, int64_t>;
    using U = std::make_unsigned_t<I>;
    constexpr I kMagnitude = std::numeric_limits<I>::max();
    constexpr U kInfinity = sizeof(F) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
    I it, iu;
    std::memcpy(&it, &t, sizeof(F));
    std::memcpy(&iu, &u, sizeof(F));
    const bool t_nan = (U(it) & U(kMagnitude)) > kInfinity, u_nan = (U(iu) & U(kMagnitude)) > kInfinity;
    const I kt = it ^ ((it >> (sizeof(I) * 8 - 1)) & kMagnitude), ku = iu ^ ((iu >> (sizeof(I) * 8 - 1)) & kMagnitude);
    const bool u_wins = !t_nan && (u_nan || (max ? ku > kt : ku < kt));
    return u_wins ? u : t;
}

// Floats: F is the storage type, C the type each step is computed in.
template <class F, class C>
struct FloatArith {
    static C load(F v);
    static F store(C v);
};
template <> inline float FloatArith<Half, float>::load(Half v) { return half_to_float(v.bits); }
template <> inline Half FloatArith<Half, float>::store(float v) { return Half{float_to_half(canonical(v))}; }
template <> inline float FloatArith<BFloat, float>::load(BFloat v) { return bfloat_to_float(v.bits); }
template <> inline BFloat FloatArith<BFloat, float>::store(float v) { return BFloat{float_to_bfloat(canonical(v))}; }
template <> inline float FloatArith<float, float>::load(float v) { return v; }
template <> inline float FloatArith<float, float>::store(float v) { return canonical(v); }
template <> inline double FloatArith<double, double>::load(double v) { return v; }
template <> inline double FloatArith<double, double>::store(double v) { return canonical(v); }

template <class F, class C>
struct FloatTraits {
    using A = FloatArith<F, C>;
    static F add(F t, F u) { return A::store(A::load(t) + A::load(u)); }
    static F sub(F t, F u) { return A::store(A::load(t) - A::load(u)); }
    static F mul(F t, F u) { return A::store(A::load(t) * A::load(u)); }
    static F div(F t, F u) { return A::store(A::load(t) / A::load(u)); }
    // NaN propagates (t's first); +0 counts as greater than -0, so the result is order-free.
    static F max(F t, F u) {
        if constexpr (std::is_same<F, C>::value) return ordered_pick<F>(t, u, true);
        C a = A::load(t), b = A::load(u);
        if (a != a) return t;
        if (b != b) return u;
        if (b > a || (b == a && std::signbit(a) && !std::signbit(b))) return u;
        return t;
    }
    static F min(F t, F u) {
        if constexpr (std::is_same<F, C>::value) return ordered_pick<F>(t, u, false);
        C a = A::load(t), b = A::load(u);
        if (a != a) return t;
        if (b != b) return u;
        if (b < a || (b == a && !std::signbit(a) && std::signbit(b))) return u;
        return t;
    }
    static F mean(F sum, int64_t count) { return A::store(A::load(sum) / C(count)); }
    static F zero() { return A::store(C(0)); }
    static F one() { return A::store(C(1)); }
    static F lowest() { return A::store(-std::numeric_limits<C>::infinity()); }
    static F highest() { return A::store(std::numeric_limits<C>::infinity()); }
};

template <class T>
struct IntTraits {
    using U = std::make_unsigned_t<T>;
    static T add(T t, T u) { return T(U(U(t) + U(u))); }
    static T sub(T t, T u) { return T(U(U(t) - U(u))); }
    // 8- and 16-bit operands promote to (signed) int, where 65535 * 65535 overflows: multiply
    // in at least unsigned int.
    static T mul(T t, T u) {
        using P = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
        return T(U(P(U(t)) * P(U(u))));
    }
    // Divisors are never zero here (checked before any write). MIN / -1 wraps to MIN.
    static T div(T t, T u) {
        if (std::is_signed<T>::value && u == T(-1)) return T(U(U(0) - U(t)));
        return T(t / u);
    }
    static T max(T t, T u) { return u > t ? u : t; }
    static T min(T t, T u) { return u < t ? u : t; }
    // Floor division, as PyTorch's integer mean: -3 / 2 = -2.
    static T mean(T sum, int64_t count) {
        if (!std::is_signed<T>::value) return T(uint64_t(sum) / uint64_t(count));
        int64_t s = int64_t(sum);
        int64_t q = s / count;
        if (s % count != 0 && s < 0) --q;
        return T(q);
    }
    static T zero() { return T(0); }
    static T one() { return T(1); }
    static T lowest() { return std::numeric_limits<T>::lowest(); }
    static T highest() { return std::numeric_limits<T>::max(); }
};

// bool: add is logical or, mul logical and; results are 0 or 1.
struct BoolTraits {
    static Bool8 add(Bool8 t, Bool8 u) { return Bool8{uint8_t(t.value != 0 || u.value != 0)}; }
    static Bool8 mul(Bool8 t, Bool8 u) { return Bool8{uint8_t(t.value != 0 && u.value != 0)}; }
    static Bool8 sub(Bool8 t, Bool8) { return t; }
    static Bool8 div(Bool8 t, Bool8) { return t; }
    static Bool8 max(Bool8 t, Bool8) { return t; }
    static Bool8 min(Bool8 t, Bool8) { return t; }
    static Bool8 mean(Bool8 t, int64_t) { return t; }
    static Bool8 zero() { return Bool8{0}; }
    static Bool8 one() { return Bool8{1}; }
    static Bool8 lowest() { return Bool8{0}; }
    static Bool8 highest() { return Bool8{1}; }
};

template <class T>
struct ComplexTraits {
    using Z = ComplexOf<T>;
    static Z make(T re, T im) { return Z{canonical(re), canonical(im)}; }
    static Z add(Z t, Z u) { return make(t.re + u.re, t.im + u.im); }
    static Z sub(Z t, Z u) { return make(t.re - u.re, t.im - u.im); }
    static Z mul(Z t, Z u) {
        T re = t.re * u.re - t.im * u.im;
        T im = t.re * u.im + t.im * u.re;
        return make(re, im);
    }
    // Smith's algorithm: scales by the larger divisor component to avoid needless overflow.
    static Z div(Z t, Z u) {
        T a = t.re, b = t.im, c = u.re, d = u.im;
        if (std::fabs(c) >= std::fabs(d)) {
            T r = d / c, den = c + d * r;
            return make((a + b * r) / den, (b - a * r) / den);
        }
        T r = c / d, den = c * r + d;
        return make((a * r + b) / den, (b * r - a) / den);
    }
    static Z max(Z t, Z) { return t; }
    static Z min(Z t, Z) { return t; }
    static Z mean(Z sum, int64_t count) { return make(sum.re / T(count), sum.im / T(count)); }
    static Z zero() { return Z{T(0), T(0)}; }
    static Z one() { return Z{T(1), T(0)}; }
    static Z lowest() { return zero(); }
    static Z highest() { return zero(); }
};

// Reduction R as a functor over traits Tr with storage S.
template <scatter_reduction R, class Tr, class S>
struct Combine {
    static S apply(S t, S u) {
        switch (R) {
            case SCATTER_REDUCTION_ADD:
            case SCATTER_REDUCTION_MEAN: return Tr::add(t, u);
            case SCATTER_REDUCTION_SUB: return Tr::sub(t, u);
            case SCATTER_REDUCTION_MUL: return Tr::mul(t, u);
            case SCATTER_REDUCTION_DIV: return Tr::div(t, u);
            case SCATTER_REDUCTION_MAX: return Tr::max(t, u);
            case SCATTER_REDUCTION_MIN: return Tr::min(t, u);
            default: return u;
        }
    }
    // The value a hit target starts from under exclude_self.
    static S identity() {
        switch (R) {
            case SCATTER_REDUCTION_MUL:
            case SCATTER_REDUCTION_DIV: return Tr::one();
            case SCATTER_REDUCTION_MAX: return Tr::lowest();
            case SCATTER_REDUCTION_MIN: return Tr::highest();
            default: return Tr::zero();
        }
    }
    static S finish_mean(S sum, int64_t count) { return Tr::mean(sum, count); }
};

}  // namespace scatter
