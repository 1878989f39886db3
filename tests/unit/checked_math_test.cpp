// The portable overflow checks of src/core/checked_math.h (what MSVC builds use) agree with the
// compiler builtins on every pair of a set of edge values.
#include "core/checked_math.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

const std::vector<int64_t>& edge_values() {
    static const std::vector<int64_t> values = {
        INT64_MIN, INT64_MIN + 1, INT64_MIN / 2, -(int64_t(1) << 32) - 1, -(int64_t(1) << 31), -3037000500,
        -3037000499, -65536, -3, -2, -1, 0, 1, 2, 3, 65536, 3037000499, 3037000500, int64_t(1) << 31,
        (int64_t(1) << 32) + 1, INT64_MAX / 2, INT64_MAX - 1, INT64_MAX};
    return values;
}

template <typename Builtin, typename Portable>
void expect_same(Builtin builtin, Portable portable, const char* op) {
    for (int64_t a : edge_values()) {
        for (int64_t b : edge_values()) {
            int64_t want = 7, got = 7;
            const bool want_ok = builtin(a, b, &want), got_ok = portable(a, b, &got);
            ASSERT_EQ(want_ok, got_ok) << a << " " << op << " " << b;
            if (want_ok) ASSERT_EQ(want, got) << a << " " << op << " " << b;
            else ASSERT_EQ(got, 7) << "the portable " << op << " wrote its result on overflow";
        }
    }
}

TEST(CheckedMath, PortableAddMatchesBuiltin) {
    expect_same(scatter::checked_add, scatter::portable_checked_add, "+");
}
TEST(CheckedMath, PortableSubMatchesBuiltin) {
    expect_same(scatter::checked_sub, scatter::portable_checked_sub, "-");
}
TEST(CheckedMath, PortableMulMatchesBuiltin) {
    expect_same(scatter::checked_mul, scatter::portable_checked_mul, "*");
}

}  // namespace
