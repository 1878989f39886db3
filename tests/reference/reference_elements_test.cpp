// The oracle's `elements` op and the reduction rules, on cases worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "reference_test_support.h"

namespace scatter_reference {
namespace {

using V = std::vector<float>;
using I = std::vector<int64_t>;

RefOutcome<float> elements_f32(Values<float> data, Values<int64_t> indices, Values<float> updates,
                               Options o = {}) {
    return run_ref(Op::elements, SCATTER_DTYPE_F32, data, indices, updates, o);
}

TEST(ReferenceElements, OnnxAxis0) {
    auto r = elements_f32({{3, 3}, V(9, 0.0f)}, {{2, 3}, {1, 0, 2, 0, 2, 1}},
                          {{2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}});
    ASSERT_EQ(r.status, SCATTER_OK);
    EXPECT_EQ(r.out, (V{2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f}));
}

TEST(ReferenceElements, Axis1WithNegativeIndex) {
    Options o;
    o.axis = -1;
    auto r = elements_f32({{1, 5}, {1, 2, 3, 4, 5}}, {{1, 2}, {1, -3}}, {{1, 2}, {1.1f, 2.1f}}, o);
    ASSERT_EQ(r.status, SCATTER_OK);
    EXPECT_EQ(r.out, (V{1, 1.1f, 2.1f, 4, 5}));
}

TEST(ReferenceElements, NoneLastUpdateWins) {
    auto r = elements_f32({{3}, {0, 0, 0}}, {{3}, {1, 1, 1}}, {{3}, {5, 6, 7}});
    EXPECT_EQ(r.out, (V{0, 7, 0}));
}

TEST(ReferenceElements, SubAndDivApplyInOrderFromSelfOrIdentity) {
    Options o;
    o.reduction = SCATTER_REDUCTION_SUB;
    EXPECT_EQ(elements_f32({{1}, {100}}, {{2}, {0, 0}}, {{2}, {1, 2}}, o).out, (V{97}));
    o.exclude_self = true;
    EXPECT_EQ(elements_f32({{1}, {100}}, {{2}, {0, 0}}, {{2}, {1, 2}}, o).out, (V{-3}));
    o.reduction = SCATTER_REDUCTION_DIV;
    EXPECT_EQ(elements_f32({{1}, {8}}, {{2}, {0, 0}}, {{2}, {2, 4}}, o).out, (V{0.125f}));
    o.exclude_self = false;
    EXPECT_EQ(elements_f32({{1}, {8}}, {{2}, {0, 0}}, {{2}, {2, 4}}, o).out, (V{1}));
}

TEST(ReferenceElements, FloatDivisionByZeroIsInfNotAnError) {
    Options o;
    o.reduction = SCATTER_REDUCTION_DIV;
    auto r = elements_f32({{2}, {1, -1}}, {{2}, {0, 1}}, {{2}, {0, 0}}, o);
    ASSERT_EQ(r.status, SCATTER_OK);
    EXPECT_EQ(r.out, (V{INFINITY, -INFINITY}));
}

TEST(ReferenceElements, MaxMinStartFromIdentityWithExcludeSelf) {
    Options o;
    o.reduction = SCATTER_REDUCTION_MAX;
    o.exclude_self = true;
    EXPECT_EQ(elements_f32({{2}, {100, 7}}, {{1}, {0}}, {{1}, {3}}, o).out, (V{3, 7}));
    o.exclude_self = false;
    EXPECT_EQ(elements_f32({{2}, {100, 7}}, {{1}, {0}}, {{1}, {3}}, o).out, (V{100, 7}));
    o.reduction = SCATTER_REDUCTION_MIN;
    o.exclude_self = true;
    auto r = run_ref<int32_t, int32_t>(Op::elements, SCATTER_DTYPE_I32, {{1}, {-5}}, {{1}, {0}},
                                       {{1}, {3}}, o);
    EXPECT_EQ(r.out, (std::vector<int32_t>{3}));
}

TEST(ReferenceElements, MaxMinPropagateNaNAndOrderSignedZeros) {
    Options o;
    o.reduction = SCATTER_REDUCTION_MAX;
    auto nan_first = elements_f32({{1}, {NAN}}, {{1}, {0}}, {{1}, {1}}, o);
    auto nan_second = elements_f32({{1}, {1}}, {{1}, {0}}, {{1}, {NAN}}, o);
    EXPECT_TRUE(std::isnan(nan_first.out[0]));
    EXPECT_TRUE(std::isnan(nan_second.out[0]));
    for (float self : {-0.0f, 0.0f}) {
        auto max = elements_f32({{1}, {self}}, {{1}, {0}}, {{1}, {-self}}, o);
        EXPECT_FALSE(std::signbit(max.out[0]));
    }
    o.reduction = SCATTER_REDUCTION_MIN;
    for (float self : {-0.0f, 0.0f}) {
        auto min = elements_f32({{1}, {self}}, {{1}, {0}}, {{1}, {-self}}, o);
        EXPECT_TRUE(std::signbit(min.out[0]));
    }
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

TEST(ReferenceElements, ArithmeticNaNIsCanonicalCopiedNaNIsKept) {
    float payload_nan = from_bits(0xffc01234u);
    Options o;
    for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MUL,
                                SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MEAN}) {
        o.reduction = r;
        auto from_payload = elements_f32({{1}, {payload_nan}}, {{1}, {0}}, {{1}, {1}}, o);
        EXPECT_EQ(bits(from_payload.out[0]), 0x7fc00000u) << r;
        auto from_invalid = elements_f32({{1}, {INFINITY}}, {{1}, {0}}, {{1}, {INFINITY}}, o);
        if (r != SCATTER_REDUCTION_ADD && r != SCATTER_REDUCTION_MUL && r != SCATTER_REDUCTION_MEAN) {
            EXPECT_EQ(bits(from_invalid.out[0]), 0x7fc00000u) << r;  // inf - inf, inf / inf
        }
    }
    for (scatter_reduction r : {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_MAX}) {
        o.reduction = r;
        auto copied = elements_f32({{1}, {1}}, {{1}, {0}}, {{1}, {payload_nan}}, o);
        EXPECT_EQ(bits(copied.out[0]), 0xffc01234u) << r;
    }
}

TEST(ReferenceElements, IntegerMeanFloorsAndCountsSelf) {
    Options o;
    o.reduction = SCATTER_REDUCTION_MEAN;
    auto r = run_ref<int32_t, int64_t>(Op::elements, SCATTER_DTYPE_I32, {{3}, {1, 5, 9}},
                                       {{3}, {0, 0, 1}}, {{3}, {2, 4, -10}}, o);
    EXPECT_EQ(r.out, (std::vector<int32_t>{2, -3, 9}));  // 7/3, floor(-5/2), untouched
    o.exclude_self = true;
    r = run_ref<int32_t, int64_t>(Op::elements, SCATTER_DTYPE_I32, {{3}, {1, 5, 9}},
                                  {{3}, {0, 0, 1}}, {{3}, {2, 4, -10}}, o);
    EXPECT_EQ(r.out, (std::vector<int32_t>{3, -10, 9}));
}

TEST(ReferenceElements, FloatMeanDividesTheStepwiseSum) {
    Options o;
    o.reduction = SCATTER_REDUCTION_MEAN;
    auto r = elements_f32({{2}, {1, 4}}, {{2}, {0, 0}}, {{2}, {2, 3}}, o);
    EXPECT_EQ(r.out, (V{2, 4}));
    o.exclude_self = true;
    r = elements_f32({{2}, {1, 4}}, {{2}, {0, 0}}, {{2}, {2, 3}}, o);
    EXPECT_EQ(r.out, (V{2.5f, 4}));
}

TEST(ReferenceElements, OutOfRangePolicies) {
    Options o;
    o.reduction = SCATTER_REDUCTION_ADD;
    auto error = elements_f32({{3}, {1, 2, 3}}, {{2}, {0, 3}}, {{2}, {10, 20}}, o);
    EXPECT_EQ(error.status, SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(error.out, (V{1, 2, 3}));
    EXPECT_EQ(elements_f32({{3}, {1, 2, 3}}, {{2}, {0, -4}}, {{2}, {10, 20}}, o).status,
              SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    o.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    EXPECT_EQ(elements_f32({{3}, {1, 2, 3}}, {{3}, {0, 3, -4}}, {{3}, {10, 20, 30}}, o).out,
              (V{11, 2, 3}));
    o.out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;
    EXPECT_EQ(elements_f32({{3}, {1, 2, 3}}, {{3}, {0, 3, -4}}, {{3}, {10, 20, 30}}, o).out,
              (V{41, 2, 23}));
}

TEST(ReferenceElements, SkippedUpdatesDoNotCountAsHits) {
    Options o;
    o.reduction = SCATTER_REDUCTION_ADD;
    o.exclude_self = true;
    o.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    EXPECT_EQ(elements_f32({{2}, {5, 5}}, {{2}, {7, 0}}, {{2}, {1, 2}}, o).out, (V{2, 5}));
}

TEST(ReferenceElements, ShapeAndTypeErrors) {
    EXPECT_EQ(elements_f32({{2, 2}, V(4)}, {{2}, {0, 1}}, {{2}, {1, 2}}).status,
              SCATTER_ERROR_SHAPE_MISMATCH);
    EXPECT_EQ(elements_f32({{2, 2}, V(4)}, {{3, 1}, {0, 1, 0}}, {{3, 1}, {1, 2, 3}}).status,
              SCATTER_OK);  // indices.shape[axis] may exceed data.shape[axis]
    EXPECT_EQ(elements_f32({{2, 2}, V(4)}, {{1, 3}, {0, 1, 0}}, {{1, 3}, {1, 2, 3}}).status,
              SCATTER_ERROR_SHAPE_MISMATCH);
    EXPECT_EQ(elements_f32({{2}, V(2)}, {{1}, {0}}, {{2}, {1, 2}}).status,
              SCATTER_ERROR_SHAPE_MISMATCH);
    Options o;
    o.axis = 1;
    EXPECT_EQ(elements_f32({{2}, V(2)}, {{1}, {0}}, {{1}, {1}}, o).status,
              SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(elements_f32({{}, V(1)}, {{}, {0}}, {{}, {1}}).status, SCATTER_ERROR_SHAPE_MISMATCH);
}

}  // namespace
}  // namespace scatter_reference
