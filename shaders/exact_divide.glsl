// Correctly rounded IEEE division (round to nearest, ties to even) from integer arithmetic.
// Vulkan lets OpFDiv be off by up to 2.5 ulp (and real GPUs are: NVIDIA's f32 division differs
// from x86 in the last bit), so the quotient is never left to the device: it would break the
// promise of bits equal to the CPU backend. Add, sub and mul are correctly rounded by the spec.
//
// Values travel as raw bits in a uvec2 (x: low word, y: high word); f32 uses the low word only.
// The format: M fraction bits, BIAS exponent bias (f32: 23, 127; f64: 52, 1023). NaN results
// are returned as some NaN; callers store the canonical NaN. Subnormal inputs and results are
// exact (no flush to zero).

// ---- 64-bit unsigned arithmetic on uvec2, no shaderInt64 needed ----
uvec2 u2_shl1(uvec2 v) { return uvec2(v.x << 1u, (v.y << 1u) | (v.x >> 31u)); }
uvec2 u2_shr1(uvec2 v) { return uvec2((v.x >> 1u) | (v.y << 31u), v.y >> 1u); }
bool u2_ge(uvec2 a, uvec2 b) { return a.y > b.y || (a.y == b.y && a.x >= b.x); }
bool u2_is_zero(uvec2 v) { return (v.x | v.y) == 0u; }
uvec2 u2_sub(uvec2 a, uvec2 b) {
    uint borrow;
    uint lo = usubBorrow(a.x, b.x, borrow);
    return uvec2(lo, a.y - b.y - borrow);
}
uvec2 u2_add1(uvec2 v) {
    uint carry;
    uint lo = uaddCarry(v.x, 1u, carry);
    return uvec2(lo, v.y + carry);
}
// 1 << s for s in [0, 63].
uvec2 u2_bit(int s) { return s < 32 ? uvec2(1u << uint(s), 0u) : uvec2(0u, 1u << uint(s - 32)); }
uvec2 u2_shr(uvec2 v, int s) {  // s in [0, 63]
    if (s == 0) return v;
    if (s >= 32) return uvec2(v.y >> uint(s - 32), 0u);
    return uvec2((v.x >> uint(s)) | (v.y << uint(32 - s)), v.y >> uint(s));
}
uvec2 u2_shl(uvec2 v, int s) {
    if (s == 0) return v;
    if (s >= 32) return uvec2(0u, v.x << uint(s - 32));
    return uvec2(v.x << uint(s), (v.y << uint(s)) | (v.x >> uint(32 - s)));
}
bool u2_test(uvec2 v, int s) { return s < 32 ? ((v.x >> uint(s)) & 1u) != 0u : ((v.y >> uint(s - 32)) & 1u) != 0u; }

// Fields of a value in format (M, BIAS).
uint fp_sign(uvec2 bits, int M) { return M < 32 ? bits.x >> 31u : bits.y >> 31u; }
int fp_exponent_field(uvec2 bits, int M, int BIAS) {
    uint high_part = M < 32 ? bits.x >> uint(M) : bits.y >> uint(M - 32);
    return int(high_part & uint(2 * BIAS + 1));
}
uvec2 fp_fraction(uvec2 bits, int M) { return u2_sub(u2_bit(M), uvec2(1u, 0u)) & bits; }
uvec2 fp_pack(uint sign, int exponent_field, uvec2 fraction, int M) {
    uvec2 v = u2_shl(uvec2(uint(exponent_field), 0u), M) | fraction;
    if (M < 32) v.x |= sign << 31u;
    else v.y |= sign << 31u;
    return v;
}
uvec2 fp_nan(int M, int BIAS) { return fp_pack(0u, 2 * BIAS + 1, u2_bit(M - 1), M); }
uvec2 fp_infinity(uint sign, int M, int BIAS) { return fp_pack(sign, 2 * BIAS + 1, uvec2(0u), M); }
uvec2 fp_zero(uint sign, int M) { return fp_pack(sign, 0, uvec2(0u), M); }

// The significand with its leading one at bit M, and the unbiased exponent (finite, nonzero).
uvec2 fp_normalized(uvec2 bits, int M, int BIAS, out int exponent) {
    int field = fp_exponent_field(bits, M, BIAS);
    uvec2 significand = fp_fraction(bits, M);
    if (field != 0) {
        exponent = field - BIAS;
        return significand | u2_bit(M);
    }
    exponent = 1 - BIAS;
    while (!u2_test(significand, M)) {
        significand = u2_shl1(significand);
        --exponent;
    }
    return significand;
}

// f32's 25 quotient bits floor(d * 2^24 / m), for m in [2^23, 2^24) and d in [m, 2m) with its
// low bit 0 where it reaches 2^24 (both exact as floats), in a few steps instead of 25 of long
// division (W5, f32 `div`: the division was most of its fold on an H100): the hardware's
// quotient, at most 2.5 ulp off by the spec (5 units of q), gives an estimate; its remainder
// d * 2^24 - q * m, exact in 64 bits, then corrects it (by the remainder's float quotient, then
// one unit). False (the caller divides the long way) where the estimate is more than 8 units
// off, which no conformant device gives, or the test switch float_fast_path is hidden
// (SCATTER_FLOAT_TEST_SOFT). Lavapipe's
// quotient is correctly rounded: the test switch `subnormals` moves it by -2..+2 ulp.
bool quotient_from_estimate(uint d, uint m, out uint q, out bool inexact) {
    q = 0u;
    inexact = false;
    if ((param(P_FLOAT_TEST) & SCATTER_FLOAT_TEST_SOFT) != 0) return false;
    float estimate = float(d) / float(m);
    // Test switch (`subnormals`, a lesser device): the quotient up to 2 ulp off, as the spec allows.
    if ((param(P_FLOAT_TEST) & SCATTER_FLOAT_TEST_ROUGH_DIVIDE) != 0)
        estimate = uintBitsToFloat(floatBitsToUint(estimate) + ((m >> 1u) & 3u) - 1u - ((m >> 3u) & 1u));
    estimate = clamp(estimate, 1.0, 2.0);
    q = min(uint(estimate * 16777216.0), (1u << 25) - 1u);  // scaling by 2^24 is exact
    uint product_high, product_low, borrow;
    umulExtended(q, m, product_high, product_low);
    const uint low = usubBorrow(d << 24u, product_low, borrow);
    const uint high = (d >> 8u) - product_high - borrow;
    int remainder = int(low);  // the whole remainder where high is its sign extension
    const int divisor = int(m);
    if (high != (remainder < 0 ? 0xffffffffu : 0u) || remainder < -8 * divisor || remainder >= 8 * divisor) return false;
    // No loops: llvmpipe counts every loop's iterations against its limit, even where the
    // step's other reductions run masked, so a loop here cut c64 `add` folds short
    // (LoopLimit). The float quotient of the remainder is within one of its floor.
    const int k = int(floor(float(remainder) / float(divisor)));
    q += uint(k);
    remainder -= k * divisor;
    if (remainder < 0) {
        --q;
        remainder += divisor;
    } else if (remainder >= divisor) {
        ++q;
        remainder -= divisor;
    }
    if (remainder < 0 || remainder >= divisor) return false;
    inexact = remainder != 0;
    return true;
}

uvec2 exact_divide_bits(uvec2 a, uvec2 b, int M, int BIAS) {
    uint sign = fp_sign(a, M) ^ fp_sign(b, M);
    int all_ones = 2 * BIAS + 1;
    int ea = fp_exponent_field(a, M, BIAS), eb = fp_exponent_field(b, M, BIAS);
    bool a_zero = ea == 0 && u2_is_zero(fp_fraction(a, M));
    bool b_zero = eb == 0 && u2_is_zero(fp_fraction(b, M));
    bool a_special = ea == all_ones, b_special = eb == all_ones;
    bool a_nan = a_special && !u2_is_zero(fp_fraction(a, M));
    bool b_nan = b_special && !u2_is_zero(fp_fraction(b, M));
    if (a_nan || b_nan || (a_special && b_special) || (a_zero && b_zero)) return fp_nan(M, BIAS);
    if (a_special || b_zero) return fp_infinity(sign, M, BIAS);
    if (b_special || a_zero) return fp_zero(sign, M);

    int exponent_a, exponent_b;
    uvec2 dividend = fp_normalized(a, M, BIAS, exponent_a);
    uvec2 divisor = fp_normalized(b, M, BIAS, exponent_b);
    if (!u2_ge(dividend, divisor)) {  // make the quotient fall in [1, 2)
        dividend = u2_shl1(dividend);
        --exponent_a;
    }
    // M + 2 quotient bits (the leading one, M fraction bits, a guard bit) and whether any
    // remainder is left: f32 from the hardware's estimate, else (and f64) by long division.
    uvec2 quotient = uvec2(0u);
    bool sticky = false;
    uint estimated;
    if (M == 23 && quotient_from_estimate(dividend.x, divisor.x, estimated, sticky)) {
        quotient.x = estimated;
    } else {
        uvec2 remainder = dividend;
        for (int i = 0; i < M + 2; ++i) {
            quotient = u2_shl1(quotient);
            if (u2_ge(remainder, divisor)) {
                remainder = u2_sub(remainder, divisor);
                quotient.x |= 1u;
            }
            remainder = u2_shl1(remainder);
        }
        sticky = !u2_is_zero(remainder);
    }
    int biased = exponent_a - exponent_b + BIAS;
    // Drop the guard bit, and for a subnormal result as many more bits as it lacks.
    int shift = biased >= 1 ? 1 : min(2 - biased, M + 3);
    bool guard = false;
    for (int k = 1; k <= shift; ++k) {
        if (k < shift) sticky = sticky || (quotient.x & 1u) != 0u;
        else guard = (quotient.x & 1u) != 0u;
        quotient = u2_shr1(quotient);
    }
    if (guard && (sticky || (quotient.x & 1u) != 0u)) quotient = u2_add1(quotient);
    if (biased < 1) return fp_pack(sign, 0, uvec2(0u), M) | quotient;  // 1 << M: the smallest normal
    if (u2_test(quotient, M + 1)) {
        quotient = u2_shr1(quotient);
        ++biased;
    }
    if (biased >= all_ones) return fp_infinity(sign, M, BIAS);
    return fp_pack(sign, biased, fp_fraction(quotient, M), M);
}

float exact_divide(float a, float b) {
    return uintBitsToFloat(exact_divide_bits(uvec2(floatBitsToUint(a), 0u), uvec2(floatBitsToUint(b), 0u), 23, 127).x);
}

#if defined(FLOAT_WIDE)
double exact_divide(double a, double b) {
    return packDouble2x32(exact_divide_bits(unpackDouble2x32(a), unpackDouble2x32(b), 52, 1023));
}
#endif
