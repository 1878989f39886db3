// Overflow-checked integer arithmetic for sizes computed from caller-supplied shapes.
#pragma once

#include <cstdint>

namespace scatter {

// Portable versions: the overflow test comes before the operation, which is then defined. Used
// where the compiler has no __builtin_*_overflow (MSVC), and compared with the builtins by
// unit.CheckedMath.*.
inline bool portable_checked_add(int64_t a, int64_t b, int64_t* out) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
    *out = a + b;
    return true;
}
inline bool portable_checked_sub(int64_t a, int64_t b, int64_t* out) {
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return false;
    *out = a - b;
    return true;
}
inline bool portable_checked_mul(int64_t a, int64_t b, int64_t* out) {
    if (a != 0 && b != 0) {
        if (a == -1) {
            if (b == INT64_MIN) return false;
        } else if (b == -1) {
            if (a == INT64_MIN) return false;
        } else if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                         : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)) {
            return false;
        }
    }
    *out = a * b;
    return true;
}

#if defined(__GNUC__) || defined(__clang__)
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
inline bool checked_sub(int64_t a, int64_t b, int64_t* out) { return !__builtin_sub_overflow(a, b, out); }
#else
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return portable_checked_mul(a, b, out); }
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return portable_checked_add(a, b, out); }
inline bool checked_sub(int64_t a, int64_t b, int64_t* out) { return portable_checked_sub(a, b, out); }
#endif

// The start of part `part` when [0, n) is split into `parts` near-equal parts: n * part / parts,
// computed without forming n * part (n may be near INT64_MAX with zero-stride inputs).
inline int64_t split_point(int64_t n, int64_t part, int64_t parts) {
    return n / parts * part + n % parts * part / parts;
}

// The product of shape[begin, end), or 0 when it overflows: callers take it over validated
// tensors, whose full element count fits, so an overflowing part means another dimension is
// zero and the tensor is empty.
inline int64_t shape_product(const int64_t* shape, uint32_t begin, uint32_t end) {
    int64_t n = 1;
    for (uint32_t d = begin; d < end; ++d)
        if (shape[d] == 0) return 0;
    for (uint32_t d = begin; d < end; ++d)
        if (!checked_mul(n, shape[d], &n)) return 0;
    return n;
}

}  // namespace scatter
