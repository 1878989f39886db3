// --fill-value: the text of one value, converted to one element of the data's dtype.
#pragma once

#include "npy.h"

#include <cstdint>
#include <string>
#include <vector>

// The bytes of one element of `dtype` (little-endian, as npy::NpyArray holds them) for `text`:
//   floats      a decimal or hex float, inf, nan; rounded to nearest, but a finite value that
//               overflows the dtype is refused
//   integers    a decimal integer within the dtype's range
//   bool        true, false, 1 or 0
//   complex     re, imj, re+imj or re-imj, optionally in parentheses (Python's spelling)
//   'S<n>'      the text's bytes, at most n, zero-padded
//   'U<n>'      the text (UTF-8) as at most n code points, zero-padded
//   'V<n>'      0x and exactly 2n hex digits, the bytes in order
// Throws CliError: INVALID_ARGUMENT for text that is not a value of the dtype's kind,
// TYPE_MISMATCH for a value that does not fit the dtype.
std::vector<uint8_t> fill_value_bytes(const std::string& text, const npy::NpyDtype& dtype);
