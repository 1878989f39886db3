// IEEE binary16 and bfloat16 <-> binary32, written out bit by bit so the oracle depends on no
// compiler or CPU support. Narrowing rounds to nearest, ties to even; a NaN stays a NaN with its
// sign and the top bits of its payload, made quiet.
#pragma once

#include <cstdint>

namespace scatter_test {

float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);
float bf16_to_f32(uint16_t b);
uint16_t f32_to_bf16(float f);

}  // namespace scatter_test
