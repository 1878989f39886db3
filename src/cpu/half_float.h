// IEEE binary16 and bfloat16 <-> f32 conversions, round to nearest even. Written out bit by bit so
// that every build and the Vulkan shaders agree exactly.
#pragma once

#include <cstdint>
#include <cstring>

namespace scatter {

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline float half_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    if (exponent != 0) return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
    if (mantissa == 0) return bits_float(sign);
    // Subnormal: value = mantissa * 2^-24, exact in f32.
    float magnitude = float(mantissa) * bits_float(0x33800000u);  // 2^-24
    return bits_float(sign | float_bits(magnitude));
}

inline uint16_t float_to_half(float f) {
    uint32_t u = float_bits(f);
    uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    uint32_t exponent = (u >> 23) & 0xffu;
    uint32_t mantissa = u & 0x7fffffu;
    if (exponent == 0xff) {
        if (mantissa == 0) return uint16_t(sign | 0x7c00u);
        return uint16_t(sign | 0x7e00u | (mantissa >> 13));  // quiet NaN, top payload bits kept
    }
    int32_t e = int32_t(exponent) - 127 + 15;
    if (e >= 0x1f) return uint16_t(sign | 0x7c00u);  // overflow to infinity
    if (e <= 0) {
        if (e < -10) return sign;  // below half the smallest subnormal: rounds to zero
        uint32_t m = mantissa | 0x800000u;
        uint32_t shift = uint32_t(14 - e);
        uint32_t result = m >> shift;
        uint32_t remainder = m & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
        return uint16_t(sign | result);
    }
    uint32_t result = (uint32_t(e) << 10) | (mantissa >> 13);
    uint32_t remainder = mantissa & 0x1fffu;
    if (remainder > 0x1000u || (remainder == 0x1000u && (result & 1u))) ++result;  // may carry into inf
    return uint16_t(sign | result);
}

inline float bfloat_to_float(uint16_t b) { return bits_float(uint32_t(b) << 16); }

inline uint16_t float_to_bfloat(float f) {
    uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);  // quiet NaN
    uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
    return uint16_t((u + rounding) >> 16);
}

}  // namespace scatter
