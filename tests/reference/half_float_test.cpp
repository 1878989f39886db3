// The 16-bit conversions against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "half_float.h"

namespace scatter_test {
namespace {

float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

TEST(HalfFloat, F16ExactValuesRoundTrip) {
    EXPECT_EQ(f32_to_f16(1.0f), 0x3c00);
    EXPECT_EQ(f32_to_f16(-2.0f), 0xc000);
    EXPECT_EQ(f32_to_f16(65504.0f), 0x7bff);
    EXPECT_EQ(f32_to_f16(0.0f), 0x0000);
    EXPECT_EQ(f32_to_f16(-0.0f), 0x8000);
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
    for (uint32_t h = 0; h < 0x10000; ++h) {
        bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
        if (!nan) {
            EXPECT_EQ(f32_to_f16(f16_to_f32(uint16_t(h))), h) << std::hex << h;
        }
    }
}

TEST(HalfFloat, F16RoundsToNearestEven) {
    EXPECT_EQ(f32_to_f16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie, even stays
    EXPECT_EQ(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie, odd rounds up
    EXPECT_EQ(f32_to_f16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
    EXPECT_EQ(f32_to_f16(65519.0f), 0x7bff);
    EXPECT_EQ(f32_to_f16(65520.0f), 0x7c00);  // tie between 65504 and 2^16 goes to inf
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -25)), 0x0000);  // tie with 0 goes to 0
    EXPECT_EQ(f32_to_f16(std::ldexp(1.5f, -25)), 0x0001);
    EXPECT_EQ(f32_to_f16(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units, tie to even 2
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)), 0x0400);  // carry to normal
    EXPECT_EQ(f32_to_f16(std::numeric_limits<float>::denorm_min()), 0x0000);
    EXPECT_EQ(f32_to_f16(-std::numeric_limits<float>::infinity()), 0xfc00);
}

TEST(HalfFloat, F16NaNKeepsSignAndPayloadTopBitsAndIsQuiet) {
    EXPECT_EQ(f32_to_f16(float_of(0x7fc00000u)), 0x7e00);
    EXPECT_EQ(f32_to_f16(float_of(0xffc00000u)), 0xfe00);
    EXPECT_EQ(f32_to_f16(float_of(0x7f802000u)), 0x7e01);  // signaling becomes quiet
    EXPECT_TRUE(std::isnan(f16_to_f32(0x7c01)));
}

TEST(HalfFloat, BF16RoundsToNearestEven) {
    EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
    EXPECT_EQ(f32_to_bf16(float_of(0x3f808000u)), 0x3f80);  // tie, even stays
    EXPECT_EQ(f32_to_bf16(float_of(0x3f818000u)), 0x3f82);  // tie, odd rounds up
    EXPECT_EQ(f32_to_bf16(float_of(0x3f808001u)), 0x3f81);
    EXPECT_EQ(f32_to_bf16(float_of(0x7f7fffffu)), 0x7f80);  // largest float rounds to inf
    EXPECT_EQ(f32_to_bf16(float_of(0xff800000u)), 0xff80);
    EXPECT_EQ(f32_to_bf16(float_of(0x7f800001u)), 0x7fc0);  // NaN made quiet
    EXPECT_EQ(bf16_to_f32(0x4049), float_of(0x40490000u));
}

}  // namespace
}  // namespace scatter_test
