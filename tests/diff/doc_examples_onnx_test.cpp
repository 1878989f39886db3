// The examples of the ONNX operator documentation (Scatter-9/11, ScatterElements, ScatterND and
// their reduction test cases), each checked against the documented output and run on every
// backend.
#include <gtest/gtest.h>

#include "scatter_case.h"

namespace scatter_test {
namespace {

TEST(OnnxScatterElements, Example1Axis0) {
    ScatterCase().op(ELEMENTS).dtype(F32)
        .data({3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0})
        .indices({2, 3}, {1, 0, 2, 0, 2, 1})
        .updates({2, 3}, {1.0, 1.1, 1.2, 2.0, 2.1, 2.2})
        .expect({2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2})
        .run_all_backends();
}

TEST(OnnxScatterElements, Example2Axis1) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, 3})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 1.1, 3.0, 2.1, 5.0})
        .run_all_backends();
}

TEST(OnnxScatterElements, NegativeIndices) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, -3})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 1.1, 2.1, 4.0, 5.0})
        .run_all_backends();
}

TEST(OnnxScatterElements, DuplicateIndicesWithReductionAdd) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(ADD)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, 1})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 5.2, 3.0, 4.0, 5.0})
        .run_all_backends();
}

TEST(OnnxScatterElements, ReductionMul) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(MUL)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, 1})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 4.62, 3.0, 4.0, 5.0})
        .run_all_backends();
}

TEST(OnnxScatterElements, ReductionMax) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(MAX)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, 1})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 2.1, 3.0, 4.0, 5.0})
        .run_all_backends();
}

TEST(OnnxScatterElements, ReductionMin) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(MIN)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {1, 1})
        .updates({1, 2}, {1.1, 2.1})
        .expect({1.0, 1.1, 3.0, 4.0, 5.0})
        .run_all_backends();
}

TEST(OnnxScatter9, DeprecatedScatterIsElementsWithoutAxis) {
    ScatterCase().op(ELEMENTS).dtype(F32).index_dtype(I32)
        .data({3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0})
        .indices({2, 3}, {1, 0, 2, 0, 2, 1})
        .updates({2, 3}, {1.0, 1.1, 1.2, 2.0, 2.1, 2.2})
        .expect({2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2})
        .run_all_backends();
}

TEST(OnnxScatterND, Example1PointUpdates) {
    ScatterCase().op(ND).dtype(F32)
        .data({8}, {1, 2, 3, 4, 5, 6, 7, 8})
        .indices({4, 1}, {4, 3, 1, 7})
        .updates({4}, {9, 10, 11, 12})
        .expect({1, 11, 3, 10, 9, 6, 7, 12})
        .run_all_backends();
}

// The 4x4x4 tensor of ONNX's ScatterND Example 2 and reduction test cases.
const std::vector<double> kOnnxCube = {
    1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,  //
    1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,  //
    8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8,  //
    8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<double> kOnnxSlices = {
    5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,  //
    1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};

// kOnnxCube with its first 4x4 slice replaced.
std::vector<double> cube_with_first_slice(std::vector<double> slice) {
    std::vector<double> out = kOnnxCube;
    std::copy(slice.begin(), slice.end(), out.begin());
    return out;
}

TEST(OnnxScatterND, Example2SliceUpdates) {
    ScatterCase().op(ND).dtype(F32)
        .data({4, 4, 4}, kOnnxCube)
        .indices({2, 1}, {0, 2})
        .updates({2, 4, 4}, kOnnxSlices)
        .expect({5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,  //
                 1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,  //
                 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,  //
                 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8})
        .run_all_backends();
}

TEST(OnnxScatterND, ReductionAdd) {
    ScatterCase().op(ND).dtype(F32).reduction(ADD)
        .data({4, 4, 4}, kOnnxCube)
        .indices({2, 1}, {0, 0})
        .updates({2, 4, 4}, kOnnxSlices)
        .expect(cube_with_first_slice({7, 8, 9, 10, 13, 14, 15, 16, 18, 17, 16, 15, 16, 15, 14, 13}))
        .run_all_backends();
}

TEST(OnnxScatterND, ReductionMul) {
    ScatterCase().op(ND).dtype(F32).reduction(MUL)
        .data({4, 4, 4}, kOnnxCube)
        .indices({2, 1}, {0, 0})
        .updates({2, 4, 4}, kOnnxSlices)
        .expect(cube_with_first_slice(
            {5, 10, 15, 20, 60, 72, 84, 96, 168, 147, 126, 105, 128, 96, 64, 32}))
        .run_all_backends();
}

TEST(OnnxScatterND, ReductionMax) {
    ScatterCase().op(ND).dtype(F32).reduction(MAX)
        .data({4, 4, 4}, kOnnxCube)
        .indices({2, 1}, {0, 0})
        .updates({2, 4, 4}, kOnnxSlices)
        .expect(cube_with_first_slice({5, 5, 5, 5, 6, 6, 7, 8, 8, 7, 7, 7, 8, 8, 8, 8}))
        .run_all_backends();
}

TEST(OnnxScatterND, ReductionMin) {
    ScatterCase().op(ND).dtype(F32).reduction(MIN)
        .data({4, 4, 4}, kOnnxCube)
        .indices({2, 1}, {0, 0})
        .updates({2, 4, 4}, kOnnxSlices)
        .expect(cube_with_first_slice({1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 3, 2, 1}))
        .run_all_backends();
}

}  // namespace
}  // namespace scatter_test
