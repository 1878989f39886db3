#include "half_float.h"

#include <cstring>

namespace scatter_test {
namespace {

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// Shifts `value` right by `shift` bits, rounding to nearest with ties to even.
uint32_t shift_right_round_even(uint32_t value, uint32_t shift) {
    uint32_t kept = value >> shift;
    uint32_t rest = value & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (kept & 1u))) kept += 1u;
    return kept;
}

}  // namespace

float f16_to_f32(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1fu) return float_of(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
        // Subnormal (or zero): mantissa * 2^-24 is exact in binary32.
        float magnitude = float(mantissa) * float_of(0x33800000u);
        return sign ? -magnitude : magnitude;
    }
    return float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t f32_to_f16(float f) {
    uint32_t x = bits_of(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t magnitude = x & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
    // 65520 is halfway between the largest half (65504) and 2^16; ties go to even, i.e. to inf.
    if (magnitude >= 0x477ff000u) return uint16_t(sign | 0x7c00u);
    uint32_t exponent = magnitude >> 23;
    if (exponent >= 113) {
        // Normal half: rebias the exponent and round the 23-bit mantissa to 10 bits; a carry out
        // of the mantissa correctly bumps the exponent.
        uint32_t rebased = magnitude - (112u << 23);
        return uint16_t(sign | shift_right_round_even(rebased, 13));
    }
    if (exponent < 102) return uint16_t(sign);  // below half of the smallest subnormal
    // Subnormal half: the value is m * 2^(exponent-150), in units of 2^-24.
    uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    return uint16_t(sign | shift_right_round_even(mantissa, 126u - exponent));
}

float bf16_to_f32(uint16_t b) { return float_of(uint32_t(b) << 16); }

uint16_t f32_to_bf16(float f) {
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);
    // Rounding may carry into the exponent; past the largest finite value that yields inf.
    // No carry can leave 16 bits: that needs the top bits all ones, which is a NaN.
    return uint16_t(shift_right_round_even(x, 16));
}

}  // namespace scatter_test
