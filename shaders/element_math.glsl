// One reduction step `t op u` on raw element bits, for the dtype the build selects with
// -DSCATTER_DTYPE=<scatter_dtype value>. Elements travel as uvec4 of raw bits (unused words 0).
// The formulas are those of docs/semantics.md and src/cpu/element_arith.h: 16-bit floats step in
// f32 and round to nearest-even after each step; arithmetic NaN results are stored as the
// canonical quiet NaN; max/min return an operand's bits unchanged; integers wrap; nothing is
// fused (precise); division is computed exactly in integers (exact_divide.glsl), add, sub and
// mul exactly on devices that flush subnormals (exact_arith.glsl), and max/min compare bits.

// SCATTER_DTYPE_*, SCATTER_REDUCTION_*: the public header's values (scatter_enums.glsl).

#if SCATTER_DTYPE == SCATTER_DTYPE_F16 || SCATTER_DTYPE == SCATTER_DTYPE_BF16 || SCATTER_DTYPE == SCATTER_DTYPE_I8 || SCATTER_DTYPE == SCATTER_DTYPE_U8
#if SCATTER_DTYPE == SCATTER_DTYPE_I8 || SCATTER_DTYPE == SCATTER_DTYPE_U8
#define ELEMENT_SIZE 1u
#else
#define ELEMENT_SIZE 2u
#endif
#elif SCATTER_DTYPE == SCATTER_DTYPE_I16 || SCATTER_DTYPE == SCATTER_DTYPE_U16
#define ELEMENT_SIZE 2u
#elif SCATTER_DTYPE == SCATTER_DTYPE_BOOL
#define ELEMENT_SIZE 1u
#elif SCATTER_DTYPE == SCATTER_DTYPE_F32 || SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_U32
#define ELEMENT_SIZE 4u
#elif SCATTER_DTYPE == SCATTER_DTYPE_F64 || SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64 || SCATTER_DTYPE == SCATTER_DTYPE_C64
#define ELEMENT_SIZE 8u
#elif SCATTER_DTYPE == SCATTER_DTYPE_C128
#define ELEMENT_SIZE 16u
#else
#error "unknown SCATTER_DTYPE"
#endif

#if SCATTER_DTYPE == SCATTER_DTYPE_F64 || SCATTER_DTYPE == SCATTER_DTYPE_C128
#define FLOAT_WIDE 1
#endif
#if SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

uvec4 load_out_element(uint byte) {
    if (ELEMENT_SIZE < 4u) return uvec4(out_piece(byte, ELEMENT_SIZE), 0u, 0u, 0u);
    uint w = byte >> 2u;
    uvec4 r = uvec4(out_word(w), 0u, 0u, 0u);
    if (ELEMENT_SIZE >= 8u) r.y = out_word(w + 1u);
    if (ELEMENT_SIZE >= 16u) { r.z = out_word(w + 2u); r.w = out_word(w + 3u); }
    return r;
}

uvec4 load_update_element(uint byte) {
    if (ELEMENT_SIZE < 4u) return uvec4(update_piece(byte, ELEMENT_SIZE), 0u, 0u, 0u);
    uint w = byte >> 2u;
    uvec4 r = uvec4(update_word(w), 0u, 0u, 0u);
    if (ELEMENT_SIZE >= 8u) r.y = update_word(w + 1u);
    if (ELEMENT_SIZE >= 16u) { r.z = update_word(w + 2u); r.w = update_word(w + 3u); }
    return r;
}

uvec4 load_data_element(uint byte) {
    if (ELEMENT_SIZE < 4u) return uvec4(data_piece(byte, ELEMENT_SIZE), 0u, 0u, 0u);
    uint w = byte >> 2u;
    uvec4 r = uvec4(data_word(w), 0u, 0u, 0u);
    if (ELEMENT_SIZE >= 8u) r.y = data_word(w + 1u);
    if (ELEMENT_SIZE >= 16u) { r.z = data_word(w + 2u); r.w = data_word(w + 3u); }
    return r;
}

void store_out_element(uint byte, uvec4 v) {
    if (ELEMENT_SIZE < 4u) {
        out_store_piece(byte, ELEMENT_SIZE, v.x);
        return;
    }
    uint w = byte >> 2u;
    out_store_word(w, v.x);
    if (ELEMENT_SIZE >= 8u) out_store_word(w + 1u, v.y);
    if (ELEMENT_SIZE >= 16u) { out_store_word(w + 2u, v.z); out_store_word(w + 3u, v.w); }
}

// ---------------------------------------------------------------- 16-bit float conversions
uint round_shift_even(uint value, uint shift) {
    uint kept = value >> shift;
    uint rest = value & ((1u << shift) - 1u);
    uint half_point = 1u << (shift - 1u);
    if (rest > half_point || (rest == half_point && (kept & 1u) != 0u)) kept += 1u;
    return kept;
}

float f16_bits_to_float(uint h) {
    uint sign = (h & 0x8000u) << 16;
    uint exponent = (h >> 10) & 0x1fu;
    uint mantissa = h & 0x3ffu;
    if (exponent == 0x1fu) return uintBitsToFloat(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0u) {
        // Subnormal or zero: built from bits (exact), not by a multiply a device might flush.
        if (mantissa == 0u) return uintBitsToFloat(sign);
        int e = findMSB(mantissa);  // the value is mantissa * 2^-24
        uint bits = (uint(e + 103) << 23) | ((mantissa << (23 - e)) & 0x7fffffu);
        return uintBitsToFloat(sign | bits);
    }
    return uintBitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint float_to_f16_bits(float f) {
    uint x = floatBitsToUint(f);
    uint sign = (x >> 16) & 0x8000u;
    uint magnitude = x & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu);
    if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
    uint exponent = magnitude >> 23;
    if (exponent >= 113u) return sign | round_shift_even(magnitude - (112u << 23), 13u);
    if (exponent < 102u) return sign;
    uint mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    return sign | round_shift_even(mantissa, 126u - exponent);
}

float bf16_bits_to_float(uint b) { return uintBitsToFloat(b << 16); }

uint float_to_bf16_bits(float f) {
    uint x = floatBitsToUint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40u;
    return round_shift_even(x, 16u);
}

// ---------------------------------------------------------------- real floats
#if SCATTER_DTYPE <= 4 || SCATTER_DTYPE >= 14
#if defined(FLOAT_WIDE)
#define REAL double
REAL real_of(uvec2 bits) { return packDouble2x32(bits); }
uvec2 real_bits(REAL v) { return unpackDouble2x32(v); }
bool real_is_nan(REAL v) {
    uvec2 b = unpackDouble2x32(v);
    uint hi = b.y & 0x7fffffffu;
    return hi > 0x7ff00000u || (hi == 0x7ff00000u && b.x != 0u);
}
const uvec2 REAL_CANONICAL_NAN = uvec2(0u, 0x7ff80000u);
uvec2 real_order_bits(REAL v) { return unpackDouble2x32(v); }
#else
#define REAL float
bool real_is_nan(REAL v) { return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u; }
uvec2 real_order_bits(REAL v) { return uvec2(0u, floatBitsToUint(v)); }
#endif
#include "exact_divide.glsl"
#include "exact_arith.glsl"

// Comparisons are made on bits: a flushing device's float compare would see subnormals as 0.
// A non-NaN value's bits (x: low word, y: high word) as an unsigned order key, -0 just below +0.
uvec2 order_key(uvec2 bits) { return (bits.y >> 31u) != 0u ? ~bits : uvec2(bits.x, bits.y | 0x80000000u); }
bool key_above(uvec2 a, uvec2 b) { return a.y > b.y || (a.y == b.y && a.x > b.x); }

// max keeps t when t is NaN, takes a NaN u, else the larger (+0 above -0); min mirrors it.
bool takes_update(uint r, REAL a, REAL b) {
    if (real_is_nan(a)) return false;
    if (real_is_nan(b)) return true;
    uvec2 ka = order_key(real_order_bits(a)), kb = order_key(real_order_bits(b));
    return r == SCATTER_REDUCTION_MAX ? key_above(kb, ka) : key_above(ka, kb);
}

// |a| >= |b|, false when either is NaN (as the CPU's fabs compare).
bool magnitude_at_least(REAL a, REAL b) {
    if (real_is_nan(a) || real_is_nan(b)) return false;
    uvec2 magnitude = uvec2(0xffffffffu, 0x7fffffffu);
    return !key_above(real_order_bits(b) & magnitude, real_order_bits(a) & magnitude);
}

// a - b is a + (-b) bitwise in IEEE (signed zeros included); the sign flips in integers.
REAL real_step(uint r, REAL a, REAL b) {
    if (r == SCATTER_REDUCTION_SUB) return exact_add(a, negated(b));
    if (r == SCATTER_REDUCTION_MUL) return exact_mul(a, b);
    if (r == SCATTER_REDUCTION_DIV) return exact_divide(a, b);
    return exact_add(a, b);
}
#endif

#if SCATTER_DTYPE >= 1 && SCATTER_DTYPE <= 3
// f16, bf16, f32: one word, computed in f32.
float widen(uint bits) {
#if SCATTER_DTYPE == SCATTER_DTYPE_F16
    return f16_bits_to_float(bits);
#elif SCATTER_DTYPE == SCATTER_DTYPE_BF16
    return bf16_bits_to_float(bits);
#else
    return uintBitsToFloat(bits);
#endif
}
uint narrow(float v) {
    if (real_is_nan(v)) v = uintBitsToFloat(0x7fc00000u);
#if SCATTER_DTYPE == SCATTER_DTYPE_F16
    return float_to_f16_bits(v);
#elif SCATTER_DTYPE == SCATTER_DTYPE_BF16
    return float_to_bf16_bits(v);
#else
    return floatBitsToUint(v);
#endif
}
uvec4 step_raw(uint r, uvec4 t, uvec4 u) {
    if (r == SCATTER_REDUCTION_NONE) return u;
    float a = widen(t.x), b = widen(u.x);
    if (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN) return takes_update(r, a, b) ? u : t;
    return uvec4(narrow(real_step(r, a, b)), 0u, 0u, 0u);
}
uvec4 identity_raw(uint r) {
    float v = 0.0;
    if (r == SCATTER_REDUCTION_MUL || r == SCATTER_REDUCTION_DIV) v = 1.0;
    else if (r == SCATTER_REDUCTION_MAX) v = uintBitsToFloat(0xff800000u);
    else if (r == SCATTER_REDUCTION_MIN) v = uintBitsToFloat(0x7f800000u);
    return uvec4(narrow(v), 0u, 0u, 0u);
}
uvec4 mean_raw(uvec4 sum, uint count) {
    float v = exact_divide(widen(sum.x), float(count));
    return uvec4(narrow(v), 0u, 0u, 0u);
}
#endif

#if SCATTER_DTYPE == SCATTER_DTYPE_F64
uvec2 narrow_wide(double v) { return real_is_nan(v) ? REAL_CANONICAL_NAN : real_bits(v); }
uvec4 step_raw(uint r, uvec4 t, uvec4 u) {
    if (r == SCATTER_REDUCTION_NONE) return u;
    double a = real_of(t.xy), b = real_of(u.xy);
    if (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN) return takes_update(r, a, b) ? u : t;
    return uvec4(narrow_wide(real_step(r, a, b)), 0u, 0u);
}
uvec4 identity_raw(uint r) {
    uvec2 bits = uvec2(0u, 0u);
    if (r == SCATTER_REDUCTION_MUL || r == SCATTER_REDUCTION_DIV) bits = uvec2(0u, 0x3ff00000u);
    else if (r == SCATTER_REDUCTION_MAX) bits = uvec2(0u, 0xfff00000u);
    else if (r == SCATTER_REDUCTION_MIN) bits = uvec2(0u, 0x7ff00000u);
    return uvec4(bits, 0u, 0u);
}
uvec4 mean_raw(uvec4 sum, uint count) {
    double v = exact_divide(real_of(sum.xy), double(count));
    return uvec4(narrow_wide(v), 0u, 0u);
}
#endif

// ---------------------------------------------------------------- complex (c64, c128)
#if SCATTER_DTYPE == SCATTER_DTYPE_C64 || SCATTER_DTYPE == SCATTER_DTYPE_C128
#if SCATTER_DTYPE == SCATTER_DTYPE_C64
#define COMPLEX vec2
COMPLEX complex_of(uvec4 raw) { return uintBitsToFloat(raw.xy); }
uvec4 complex_bits(COMPLEX z) {
    uint re = real_is_nan(z.x) ? 0x7fc00000u : floatBitsToUint(z.x);
    uint im = real_is_nan(z.y) ? 0x7fc00000u : floatBitsToUint(z.y);
    return uvec4(re, im, 0u, 0u);
}
#else
#define COMPLEX dvec2
COMPLEX complex_of(uvec4 raw) { return COMPLEX(packDouble2x32(raw.xy), packDouble2x32(raw.zw)); }
uvec4 complex_bits(COMPLEX z) {
    uvec2 re = real_is_nan(z.x) ? REAL_CANONICAL_NAN : unpackDouble2x32(z.x);
    uvec2 im = real_is_nan(z.y) ? REAL_CANONICAL_NAN : unpackDouble2x32(z.y);
    return uvec4(re, im);
}
#endif

// Smith's algorithm, with the CPU's operations (src/cpu/element_arith.h). Its two cases are one
// here: with |c| >= |d| ("wide") ratio = d / c, denominator c + d * ratio, numerators
// a + b * ratio and b + -(a * ratio); else ratio = c / d and the CPU's c * ratio + d, a * ratio + b
// and b * ratio + -a, summed here with their operands swapped (an IEEE sum does not depend on
// the order of its operands, signed zeros included). Its three divisions are one call in a loop:
// each copy of the exact division is hundreds of instructions, which drivers compile at every
// call site (four copies before, and two in mean: the sweep's c64 and c128 cases took lavapipe
// 49 s from an empty shader cache, 24 s with one copy each).
COMPLEX complex_divide(COMPLEX x, COMPLEX y) {
    const REAL a = x.x, b = x.y, c = y.x, d = y.y;
    const bool wide = magnitude_at_least(c, d);
    const REAL p = wide ? a : b, q = wide ? b : a;  // numerators p + q * ratio, and with a and b's roles swapped
    REAL dividend = wide ? d : c, divisor = wide ? c : d;
    REAL im_numerator = REAL(0), re = REAL(0), im = REAL(0);
    [[dont_unroll]] for (int k = 0; k < 3; ++k) {
        const REAL quotient = exact_divide(dividend, divisor);
        if (k == 0) {  // the ratio: the denominator and the numerators follow
            const REAL pr = exact_mul(p, quotient);
            im_numerator = wide ? exact_add(q, negated(pr)) : exact_add(negated(q), pr);
            divisor = exact_add(divisor, exact_mul(dividend, quotient));
            dividend = exact_add(p, exact_mul(q, quotient));
        } else if (k == 1) {
            re = quotient;
            dividend = im_numerator;
        } else {
            im = quotient;
        }
    }
    return COMPLEX(re, im);
}

uvec4 step_raw(uint r, uvec4 t, uvec4 u) {
    if (r == SCATTER_REDUCTION_NONE) return u;
    COMPLEX a = complex_of(t), b = complex_of(u);
    REAL re, im;
    if (r == SCATTER_REDUCTION_SUB) {
        re = exact_add(a.x, negated(b.x));
        im = exact_add(a.y, negated(b.y));
    } else if (r == SCATTER_REDUCTION_MUL) {
        re = exact_add(exact_mul(a.x, b.x), negated(exact_mul(a.y, b.y)));
        im = exact_add(exact_mul(a.x, b.y), exact_mul(a.y, b.x));
    } else if (r == SCATTER_REDUCTION_DIV) {
        COMPLEX q = complex_divide(a, b);
        re = q.x;
        im = q.y;
    } else {
        re = exact_add(a.x, b.x);
        im = exact_add(a.y, b.y);
    }
    return complex_bits(COMPLEX(re, im));
}
uvec4 identity_raw(uint r) {
    return complex_bits(COMPLEX(r == SCATTER_REDUCTION_MUL || r == SCATTER_REDUCTION_DIV ? 1.0 : 0.0, 0.0));
}
uvec4 mean_raw(uvec4 sum, uint count) {
    COMPLEX z = complex_of(sum);
    [[dont_unroll]] for (int k = 0; k < 2; ++k) z[k] = exact_divide(z[k], REAL(count));  // one copy (complex_divide)
    return complex_bits(z);
}
#endif

// ---------------------------------------------------------------- integers up to 32 bits
#if (SCATTER_DTYPE >= 5 && SCATTER_DTYPE <= 7) || (SCATTER_DTYPE >= 9 && SCATTER_DTYPE <= 11)
#if SCATTER_DTYPE <= 7
#define INTEGER int
INTEGER integer_of(uint raw) { return bitfieldExtract(int(raw), 0, int(ELEMENT_SIZE * 8u)); }
const INTEGER INTEGER_LOWEST = ELEMENT_SIZE == 1u ? -128 : (ELEMENT_SIZE == 2u ? -32768 : int(0x80000000u));
const INTEGER INTEGER_HIGHEST = ELEMENT_SIZE == 1u ? 127 : (ELEMENT_SIZE == 2u ? 32767 : 0x7fffffff);
#define INTEGER_SIGNED 1
#else
#define INTEGER uint
INTEGER integer_of(uint raw) { return raw & piece_mask(ELEMENT_SIZE); }
const INTEGER INTEGER_LOWEST = 0u;
const INTEGER INTEGER_HIGHEST = ELEMENT_SIZE == 1u ? 0xffu : (ELEMENT_SIZE == 2u ? 0xffffu : 0xffffffffu);
#endif
uint integer_bits(INTEGER v) { return uint(v) & piece_mask(ELEMENT_SIZE); }
#endif

// ---------------------------------------------------------------- 64-bit integers
#if SCATTER_DTYPE == SCATTER_DTYPE_I64
#define INTEGER int64_t
INTEGER integer_of(uvec4 raw) { return int64_t(packUint2x32(raw.xy)); }
uvec4 integer_bits(INTEGER v) { return uvec4(unpackUint2x32(uint64_t(v)), 0u, 0u); }
const INTEGER INTEGER_LOWEST = int64_t(0x8000000000000000ul);
const INTEGER INTEGER_HIGHEST = 0x7fffffffffffffffl;
#define INTEGER_SIGNED 1
#elif SCATTER_DTYPE == SCATTER_DTYPE_U64
#define INTEGER uint64_t
INTEGER integer_of(uvec4 raw) { return packUint2x32(raw.xy); }
uvec4 integer_bits(INTEGER v) { return uvec4(unpackUint2x32(v), 0u, 0u); }
const INTEGER INTEGER_LOWEST = 0ul;
const INTEGER INTEGER_HIGHEST = 0xfffffffffffffffful;
#endif

#if defined(INTEGER)
#if SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64
#define INTEGER_OF(raw) integer_of(raw)
#define RAW_OF(v) integer_bits(v)
#else
#define INTEGER_OF(raw) integer_of((raw).x)
#define RAW_OF(v) uvec4(integer_bits(v), 0u, 0u, 0u)
#endif

INTEGER integer_step(uint r, INTEGER t, INTEGER u) {
    if (r == SCATTER_REDUCTION_SUB) return t - u;
    if (r == SCATTER_REDUCTION_MUL) return t * u;
    if (r == SCATTER_REDUCTION_DIV) {
#if defined(INTEGER_SIGNED)
        if (u == INTEGER(-1)) return INTEGER(0) - t;  // MIN / -1 wraps to MIN
#endif
        return t / u;
    }
    if (r == SCATTER_REDUCTION_MAX) return u > t ? u : t;
    if (r == SCATTER_REDUCTION_MIN) return u < t ? u : t;
    return t + u;
}
uvec4 step_raw(uint r, uvec4 t, uvec4 u) {
    if (r == SCATTER_REDUCTION_NONE) return u;
    return RAW_OF(integer_step(r, INTEGER_OF(t), INTEGER_OF(u)));
}
uvec4 identity_raw(uint r) {
    INTEGER v = INTEGER(0);
    if (r == SCATTER_REDUCTION_MUL || r == SCATTER_REDUCTION_DIV) v = INTEGER(1);
    else if (r == SCATTER_REDUCTION_MAX) v = INTEGER_LOWEST;
    else if (r == SCATTER_REDUCTION_MIN) v = INTEGER_HIGHEST;
    return RAW_OF(v);
}
// Floor division by the count, as PyTorch's integer mean.
uvec4 mean_raw(uvec4 sum, uint count) {
    INTEGER s = INTEGER_OF(sum);
    INTEGER c = INTEGER(count);
    INTEGER q = s / c;
#if defined(INTEGER_SIGNED)
    if (q * c != s && s < INTEGER(0)) q -= INTEGER(1);
#endif
    return RAW_OF(q);
}
#endif

// ---------------------------------------------------------------- bool
#if SCATTER_DTYPE == SCATTER_DTYPE_BOOL
uvec4 step_raw(uint r, uvec4 t, uvec4 u) {
    if (r == SCATTER_REDUCTION_ADD) return uvec4((t.x != 0u || u.x != 0u) ? 1u : 0u, 0u, 0u, 0u);
    if (r == SCATTER_REDUCTION_MUL) return uvec4((t.x != 0u && u.x != 0u) ? 1u : 0u, 0u, 0u, 0u);
    return u;
}
uvec4 identity_raw(uint r) { return uvec4(r == SCATTER_REDUCTION_MUL ? 1u : 0u, 0u, 0u, 0u); }
uvec4 mean_raw(uvec4 sum, uint count) { return sum; }
#endif
