// Add, sub and mul with the CPU's bits (IEEE, subnormals kept) on devices that flush subnormal
// operands and results of OpFAdd/OpFMul to zero (those without shaderDenormPreserveFloat32/64,
// whose scatter variants are the ones without _dp). The hardware is trusted only where flushing
// cannot change the result; elsewhere:
//   add: both operands tiny. Both are scaled up by 2^SCALE exactly (integer exponent arithmetic),
//        added in hardware (normal in, normal or zero out), and scaled back; a result below the
//        smallest normal is then an exactly representable subnormal, built from bits.
//   mul: f32 only: a subnormal operand or a result near the subnormal range take an integer
//        multiply with round to nearest even.
// Covered: f32 add/sub/mul (so f16, bf16 and c64 too), f64 add/sub (so the sums of f64 and
// c128). Not covered: f64 mul, which stays the hardware's (devices seen so far keep f64
// subnormals). The _dp variants run on devices that keep subnormals: plain hardware there.
// Needs exact_divide.glsl (u2_*, fp_*) and the parameter block (P_FLOAT_TEST, a test switch).

#if !defined(SCATTER_DENORM_PRESERVE)
const int SCALE = 64;

// The hardware sum is exact, flushing or not, when an operand is at least 2^(M + 8 - BIAS): a
// subnormal is then below half an ulp of it, and a nonzero sum of two normals with one that
// large is a multiple of 2^(7 - BIAS) at least (Sterbenz), so normal. Also true of inf and NaN.
bool sum_is_safe(uvec2 a, uvec2 b, int M, int BIAS) {
    return fp_exponent_field(a, M, BIAS) >= M + 8 || fp_exponent_field(b, M, BIAS) >= M + 8;
}

// A tiny value (below the threshold above) times 2^SCALE: normal or zero, exact.
uvec2 scaled_up(uvec2 v, int M, int BIAS) {
    if (fp_exponent_field(v, M, BIAS) == 0 && u2_is_zero(fp_fraction(v, M))) return v;
    int exponent;
    uvec2 significand = fp_normalized(v, M, BIAS, exponent);
    return fp_pack(fp_sign(v, M), exponent + BIAS + SCALE, fp_fraction(significand, M), M);
}

// A sum of scaled-up values (a multiple of the smallest subnormal times 2^SCALE) times 2^-SCALE.
uvec2 scaled_down(uvec2 s, int M, int BIAS) {
    int field = fp_exponent_field(s, M, BIAS);
    if (field == 0) return s;  // a signed zero: the scaled sum is never subnormal
    uint sign = fp_sign(s, M);
    if (field > SCALE) return fp_pack(sign, field - SCALE, fp_fraction(s, M), M);
    // Below the smallest normal: exactly a subnormal, so the shift drops only zero bits.
    uvec2 significand = fp_fraction(s, M) | u2_bit(M);
    return fp_pack(sign, 0, u2_shr(significand, SCALE + 1 - field), M);
}

// Test switch (SCATTER_VULKAN_DISABLE_FEATURES=subnormals / float_fast_path): the hardware ops
// below behave as on a flushing device, or f32 mul never trusts the hardware.
bool float_test(int bit) { return (param(P_FLOAT_TEST) & bit) != 0; }
float flushed(float x) {
    uint b = floatBitsToUint(x);
    return (b & 0x7f800000u) == 0u ? uintBitsToFloat(b & 0x80000000u) : x;
}
float hardware_add(float a, float b) {
    precise float s;
    if (float_test(SCATTER_FLOAT_TEST_FLUSH)) s = flushed(flushed(a) + flushed(b));
    else s = a + b;
    return s;
}
float hardware_mul(float a, float b) {
    precise float r;
    if (float_test(SCATTER_FLOAT_TEST_FLUSH)) r = flushed(flushed(a) * flushed(b));
    else r = a * b;
    return r;
}

// IEEE f32 product, round to nearest even, from integers; NaN results are some NaN.
uint soft_multiply_bits(uint x, uint y) {
    uint sign = (x ^ y) & 0x80000000u;
    uint mx = x & 0x7fffffffu, my = y & 0x7fffffffu;
    if (mx > 0x7f800000u || my > 0x7f800000u) return 0x7fc00000u;
    if (mx == 0x7f800000u || my == 0x7f800000u) return mx == 0u || my == 0u ? 0x7fc00000u : sign | 0x7f800000u;
    if (mx == 0u || my == 0u) return sign;
    int ea, eb;
    uint sa = fp_normalized(uvec2(x, 0u), 23, 127, ea).x;
    uint sb = fp_normalized(uvec2(y, 0u), 23, 127, eb).x;
    uvec2 product;  // in [2^46, 2^48)
    umulExtended(sa, sb, product.y, product.x);
    int lead = product.y >= (1u << 15) ? 47 : 46;
    int biased = ea + eb + lead - 46 + 127;
    if (biased >= 255) return sign | 0x7f800000u;
    // Keep 24 bits, fewer for a subnormal result; from 50 on everything rounds to zero.
    int shift = min(lead - 23 + max(1 - biased, 0), 50);
    uvec2 kept = u2_shr(product, shift);
    uvec2 rest = product & u2_sub(u2_bit(shift), uvec2(1u, 0u));
    uvec2 half_point = u2_bit(shift - 1);
    if (u2_ge(rest, half_point) && (rest != half_point || (kept.x & 1u) != 0u)) kept.x += 1u;
    // kept's leading one (bit 23) adds 1 to the exponent field, and so does a rounding carry
    // (up to inf, or from the largest subnormal to the smallest normal).
    return sign | ((uint(max(biased, 1) - 1) << 23) + kept.x);
}
#endif

float negated(float x) { return uintBitsToFloat(floatBitsToUint(x) ^ 0x80000000u); }

float exact_add(float a, float b) {
#if defined(SCATTER_DENORM_PRESERVE)
    precise float s = a + b;
    return s;
#else
    uvec2 x = uvec2(floatBitsToUint(a), 0u), y = uvec2(floatBitsToUint(b), 0u);
    if (sum_is_safe(x, y, 23, 127)) return hardware_add(a, b);
    float s = hardware_add(uintBitsToFloat(scaled_up(x, 23, 127).x), uintBitsToFloat(scaled_up(y, 23, 127).x));
    return uintBitsToFloat(scaled_down(uvec2(floatBitsToUint(s), 0u), 23, 127).x);
#endif
}

float exact_mul(float a, float b) {
#if defined(SCATTER_DENORM_PRESERVE)
    precise float r = a * b;
    return r;
#else
    uint x = floatBitsToUint(a), y = floatBitsToUint(b);
    uint fx = x & 0x7f800000u, fy = y & 0x7f800000u;
    bool subnormal_operand = (fx == 0u && (x << 1u) != 0u) || (fy == 0u && (y << 1u) != 0u);
    if (!subnormal_operand && !float_test(SCATTER_FLOAT_TEST_SOFT)) {
        // Trusted: a result clear of the subnormal range (exponent field >= 2), inf or NaN, or
        // an operand that is zero, inf or NaN (the other one being no subnormal).
        float r = hardware_mul(a, b);
        bool special_operand = fx == 0u || fy == 0u || fx == 0x7f800000u || fy == 0x7f800000u;
        if (special_operand || (floatBitsToUint(r) & 0x7f800000u) >= (2u << 23)) return r;
    }
    return uintBitsToFloat(soft_multiply_bits(x, y));
#endif
}

#if defined(FLOAT_WIDE)
double negated(double x) {
    uvec2 b = unpackDouble2x32(x);
    return packDouble2x32(uvec2(b.x, b.y ^ 0x80000000u));
}

#if !defined(SCATTER_DENORM_PRESERVE)
double flushed(double x) {
    uvec2 b = unpackDouble2x32(x);
    return (b.y & 0x7ff00000u) == 0u ? packDouble2x32(uvec2(0u, b.y & 0x80000000u)) : x;
}
double hardware_add(double a, double b) {
    precise double s;
    if (float_test(SCATTER_FLOAT_TEST_FLUSH)) s = flushed(flushed(a) + flushed(b));
    else s = a + b;
    return s;
}
#endif

double exact_add(double a, double b) {
#if defined(SCATTER_DENORM_PRESERVE)
    precise double s = a + b;
    return s;
#else
    uvec2 x = unpackDouble2x32(a), y = unpackDouble2x32(b);
    if (sum_is_safe(x, y, 52, 1023)) return hardware_add(a, b);
    double s = hardware_add(packDouble2x32(scaled_up(x, 52, 1023)), packDouble2x32(scaled_up(y, 52, 1023)));
    return packDouble2x32(scaled_down(unpackDouble2x32(s), 52, 1023));
#endif
}

// The hardware's: exact where the device keeps f64 subnormals (not emulated by the test switch).
double exact_mul(double a, double b) {
    precise double r = a * b;
    return r;
}
#endif
