// The oracle's per-dtype arithmetic: wrapping, truncation, 16-bit rounding per step, bool,
// complex and opaque elements, and the dtype/reduction table.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>

#include "half_float.h"
#include "reference_test_support.h"

namespace scatter_reference {
namespace {

using scatter_test::bf16_to_f32;
using scatter_test::f16_to_f32;
using scatter_test::f32_to_bf16;
using scatter_test::f32_to_f16;

Options with(scatter_reduction reduction, bool exclude_self = false) {
    Options o;
    o.reduction = reduction;
    o.exclude_self = exclude_self;
    return o;
}

TEST(ReferenceDtypes, IntegersWrapAndTruncate) {
    auto add = run_ref<int8_t, int64_t>(Op::elements, SCATTER_DTYPE_I8, {{1}, {100}}, {{1}, {0}},
                                        {{1}, {100}}, with(SCATTER_REDUCTION_ADD));
    EXPECT_EQ(add.out[0], int8_t(-56));
    auto mul = run_ref<uint16_t, int64_t>(Op::elements, SCATTER_DTYPE_U16, {{1}, {65535}},
                                          {{1}, {0}}, {{1}, {65535}}, with(SCATTER_REDUCTION_MUL));
    EXPECT_EQ(mul.out[0], 1);
    auto div = run_ref<int32_t, int64_t>(Op::elements, SCATTER_DTYPE_I32, {{2}, {-7, INT32_MIN}},
                                         {{2}, {0, 1}}, {{2}, {2, -1}}, with(SCATTER_REDUCTION_DIV));
    EXPECT_EQ(div.out, (std::vector<int32_t>{-3, INT32_MIN}));
    auto sub = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_U8, {{1}, {1}}, {{1}, {0}},
                                         {{1}, {2}}, with(SCATTER_REDUCTION_SUB));
    EXPECT_EQ(sub.out[0], 255);
}

TEST(ReferenceDtypes, IntegerDivisionByZeroIsAnErrorUnlessSkipped) {
    auto error = run_ref<int32_t, int64_t>(Op::elements, SCATTER_DTYPE_I32, {{2}, {6, 6}},
                                           {{2}, {0, 1}}, {{2}, {2, 0}}, with(SCATTER_REDUCTION_DIV));
    EXPECT_EQ(error.status, SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(error.out, (std::vector<int32_t>{6, 6}));
    Options skip = with(SCATTER_REDUCTION_DIV);
    skip.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    auto skipped = run_ref<int32_t, int64_t>(Op::elements, SCATTER_DTYPE_I32, {{2}, {6, 6}},
                                             {{2}, {0, 5}}, {{2}, {2, 0}}, skip);
    EXPECT_EQ(skipped.status, SCATTER_OK);
    EXPECT_EQ(skipped.out, (std::vector<int32_t>{3, 6}));
}

TEST(ReferenceDtypes, UnsignedMeanIsPlainDivisionOfTheWrappedSum) {
    auto r = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_U8, {{1}, {200}},
                                       {{2}, {0, 0}}, {{2}, {100, 3}}, with(SCATTER_REDUCTION_MEAN));
    EXPECT_EQ(r.out[0], (200 + 100 + 3 - 256) / 3);
}

TEST(ReferenceDtypes, F16RoundsAfterEveryStep) {
    uint16_t big = f32_to_f16(2048.0f), one = f32_to_f16(1.0f);
    auto r = run_ref<uint16_t, int64_t>(Op::elements, SCATTER_DTYPE_F16, {{1}, {big}},
                                        {{2}, {0, 0}}, {{2}, {one, one}}, with(SCATTER_REDUCTION_ADD));
    EXPECT_EQ(f16_to_f32(r.out[0]), 2048.0f);  // 2049 rounds back to 2048 each time
    auto mean = run_ref<uint16_t, int64_t>(Op::elements, SCATTER_DTYPE_F16, {{1}, {big}},
                                           {{2}, {0, 0}}, {{2}, {one, one}},
                                           with(SCATTER_REDUCTION_MEAN));
    EXPECT_EQ(f16_to_f32(mean.out[0]), 682.5f);  // 2048 / 3 to the nearest half (step 0.5)
}

TEST(ReferenceDtypes, BF16RoundsAfterEveryStep) {
    uint16_t big = f32_to_bf16(256.0f), one = f32_to_bf16(1.0f);
    auto r = run_ref<uint16_t, int64_t>(Op::elements, SCATTER_DTYPE_BF16, {{1}, {big}},
                                        {{2}, {0, 0}}, {{2}, {one, one}}, with(SCATTER_REDUCTION_ADD));
    EXPECT_EQ(bf16_to_f32(r.out[0]), 256.0f);
}

TEST(ReferenceDtypes, HalfMaxKeepsTheStoredBitsOfTheWinner) {
    uint16_t nan_payload = 0x7d01;  // a signaling NaN must be kept as it is, not quieted
    auto r = run_ref<uint16_t, int64_t>(Op::elements, SCATTER_DTYPE_F16, {{1}, {nan_payload}},
                                        {{1}, {0}}, {{1}, {0x3c00}}, with(SCATTER_REDUCTION_MAX));
    EXPECT_EQ(r.out[0], nan_payload);
}

TEST(ReferenceDtypes, BoolOrAndWithResultsZeroOrOne) {
    auto add = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_BOOL, {{3}, {0, 2, 0}},
                                         {{2}, {0, 1}}, {{2}, {3, 0}}, with(SCATTER_REDUCTION_ADD));
    EXPECT_EQ(add.out, (std::vector<uint8_t>{1, 1, 0}));
    auto mul = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_BOOL, {{3}, {0, 2, 5}},
                                         {{2}, {0, 1}}, {{2}, {3, 7}}, with(SCATTER_REDUCTION_MUL));
    EXPECT_EQ(mul.out, (std::vector<uint8_t>{0, 1, 5}));
    auto mul_excluded = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_BOOL, {{1}, {0}},
                                                  {{1}, {0}}, {{1}, {4}},
                                                  with(SCATTER_REDUCTION_MUL, true));
    EXPECT_EQ(mul_excluded.out[0], 1);
    auto none = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_BOOL, {{2}, {0, 0}},
                                          {{1}, {1}}, {{1}, {7}}, with(SCATTER_REDUCTION_NONE));
    EXPECT_EQ(none.out, (std::vector<uint8_t>{0, 7}));  // assignment copies the byte
}

TEST(ReferenceDtypes, ComplexMulDivMean) {
    using C = std::complex<float>;
    auto mul = run_ref<C, int64_t>(Op::elements, SCATTER_DTYPE_C64, {{1}, {C(1, 2)}}, {{1}, {0}},
                                   {{1}, {C(3, 4)}}, with(SCATTER_REDUCTION_MUL));
    EXPECT_EQ(mul.out[0], C(-5, 10));
    auto div = run_ref<C, int64_t>(Op::elements, SCATTER_DTYPE_C64, {{1}, {C(-5, 10)}}, {{1}, {0}},
                                   {{1}, {C(3, 4)}}, with(SCATTER_REDUCTION_DIV));
    EXPECT_EQ(div.out[0], C(1, 2));
    using Z = std::complex<double>;
    auto mean = run_ref<Z, int64_t>(Op::elements, SCATTER_DTYPE_C128, {{1}, {Z(2, 4)}},
                                    {{2}, {0, 0}}, {{2}, {Z(1, 1), Z(3, 1)}},
                                    with(SCATTER_REDUCTION_MEAN));
    EXPECT_EQ(mean.out[0], Z(2, 2));
}

TEST(ReferenceDtypes, OpaqueElementsAreCopiedWhole) {
    char data[] = "aaabbbccc", updates[] = "xyzuvw";
    char out[10];
    std::memcpy(out, data, sizeof out);
    int64_t data_shape[] = {3}, index_shape[] = {2}, index_values[] = {2, 0};
    scatter_tensor d = host_tensor(SCATTER_DTYPE_OPAQUE, {}, data, 3);
    d.rank = 1;
    d.shape = data_shape;
    scatter_tensor o = d;
    o.data = out;
    scatter_tensor u = d;
    u.data = updates;
    u.shape = index_shape;
    scatter_tensor i = u;
    i.dtype = SCATTER_DTYPE_I64;
    i.element_size = 0;
    i.data = index_values;
    ASSERT_EQ(run(Op::elements, &d, &i, &u, nullptr, &o), SCATTER_OK);
    EXPECT_STREQ(out, "uvwbbbxyz");
}

TEST(ReferenceDtypes, UnsupportedPairs) {
    auto bool_max = run_ref<uint8_t, int64_t>(Op::elements, SCATTER_DTYPE_BOOL, {{1}, {0}},
                                              {{1}, {0}}, {{1}, {1}}, with(SCATTER_REDUCTION_MAX));
    EXPECT_EQ(bool_max.status, SCATTER_ERROR_UNSUPPORTED);
    using C = std::complex<double>;
    auto complex_min = run_ref<C, int64_t>(Op::elements, SCATTER_DTYPE_C128, {{1}, {C()}},
                                           {{1}, {0}}, {{1}, {C()}}, with(SCATTER_REDUCTION_MIN));
    EXPECT_EQ(complex_min.status, SCATTER_ERROR_UNSUPPORTED);
}

}  // namespace
}  // namespace scatter_reference
