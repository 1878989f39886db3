// The documented examples of PyTorch, TensorFlow, Paddle and MindSpore scatter functions,
// written as scatter cases, each checked against the documented output on every backend.
#include <gtest/gtest.h>

#include "scatter_case.h"

namespace scatter_test {
namespace {

// torch.Tensor.scatter_ takes a `src` at least as large as `index`; only the part under the
// index is read, so the updates here are that part of the documented src (arange(1, 11) as 2x5).
TEST(PyTorchScatter, Axis0FromDocs) {
    ScatterCase().op(ELEMENTS).dtype(I64)
        .data({3, 5}, std::vector<double>(15, 0))
        .indices({1, 4}, {0, 1, 2, 0})
        .updates({1, 4}, {1, 2, 3, 4})
        .expect({1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0})
        .run_all_backends();
}

TEST(PyTorchScatter, Axis1FromDocs) {
    ScatterCase().op(ELEMENTS).dtype(I64).axis(1)
        .data({3, 5}, std::vector<double>(15, 0))
        .indices({2, 3}, {0, 1, 2, 0, 1, 4})
        .updates({2, 3}, {1, 2, 3, 6, 7, 8})
        .expect({1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0})
        .run_all_backends();
}

TEST(PyTorchScatter, ReduceMultiplyFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(MUL)
        .data({2, 4}, std::vector<double>(8, 2))
        .indices({2, 1}, {2, 3})
        .updates({2, 1}, {1.23, 1.23})
        .expect({2, 2, 2.46, 2, 2, 2, 2, 2.46})
        .run_all_backends();
}

TEST(PyTorchScatter, ReduceAddFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).reduction(ADD)
        .data({2, 4}, std::vector<double>(8, 2))
        .indices({2, 1}, {2, 3})
        .updates({2, 1}, {1.23, 1.23})
        .expect({2, 2, 3.23, 2, 2, 2, 2, 3.23})
        .run_all_backends();
}

TEST(PyTorchScatterReduce, SumIncludeSelfFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).reduction(ADD)
        .data({4}, {1, 2, 3, 4})
        .indices({6}, {0, 1, 0, 1, 2, 1})
        .updates({6}, {1, 2, 3, 4, 5, 6})
        .expect({5, 14, 8, 4})
        .run_all_backends();
}

TEST(PyTorchScatterReduce, SumExcludeSelfFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).reduction(ADD).exclude_self()
        .data({4}, {1, 2, 3, 4})
        .indices({6}, {0, 1, 0, 1, 2, 1})
        .updates({6}, {1, 2, 3, 4, 5, 6})
        .expect({4, 12, 5, 4})
        .run_all_backends();
}

TEST(PyTorchScatterReduce, AmaxIncludeSelfFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).reduction(MAX)
        .data({4}, {5, 4, 3, 2})
        .indices({6}, {0, 1, 0, 1, 2, 1})
        .updates({6}, {1, 2, 3, 4, 5, 6})
        .expect({5, 6, 5, 2})
        .run_all_backends();
}

TEST(PyTorchScatterReduce, AmaxExcludeSelfFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).reduction(MAX).exclude_self()
        .data({4}, {5, 4, 3, 2})
        .indices({6}, {0, 1, 0, 1, 2, 1})
        .updates({6}, {1, 2, 3, 4, 5, 6})
        .expect({3, 6, 5, 2})
        .run_all_backends();
}

TEST(PyTorchIndexAdd, RowsFromDocs) {
    ScatterCase().op(ROWS).dtype(F32).reduction(ADD)
        .data({5, 3}, std::vector<double>(15, 1))
        .indices({3}, {0, 4, 2})
        .updates({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
        .expect({2, 3, 4, 1, 1, 1, 8, 9, 10, 1, 1, 1, 5, 6, 7})
        .run_all_backends();
}

TEST(TensorFlowTensorScatterNdUpdate, PointsFromDocs) {
    ScatterCase().op(ND).dtype(I32).index_dtype(I32)
        .data({8}, std::vector<double>(8, 1))
        .indices({4, 1}, {4, 3, 1, 7})
        .updates({4}, {9, 10, 11, 12})
        .expect({1, 11, 1, 10, 9, 1, 1, 12})
        .run_all_backends();
}

TEST(TensorFlowTensorScatterNdAdd, PointsFromDocs) {
    ScatterCase().op(ND).dtype(I32).index_dtype(I32).reduction(ADD)
        .data({8}, std::vector<double>(8, 1))
        .indices({4, 1}, {4, 3, 1, 7})
        .updates({4}, {9, 10, 11, 12})
        .expect({1, 12, 1, 11, 10, 1, 1, 13})
        .run_all_backends();
}

const std::vector<double> kTfSlices = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                                       5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8};

// A 4x4x4 tensor whose slices 0 and 2 are `slice` and the others all `rest`.
std::vector<double> tf_cube(const std::vector<double>& slice, double rest) {
    std::vector<double> out;
    for (int s = 0; s < 4; ++s) {
        if (s % 2 == 0) out.insert(out.end(), slice.begin(), slice.end());
        else out.insert(out.end(), 16, rest);
    }
    return out;
}

TEST(TensorFlowTensorScatterNdUpdate, SlicesFromDocs) {
    ScatterCase().op(ND).dtype(I32).index_dtype(I32)
        .data({4, 4, 4}, std::vector<double>(64, 1))
        .indices({2, 1}, {0, 2})
        .updates({2, 4, 4}, kTfSlices)
        .expect(tf_cube({5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8}, 1))
        .run_all_backends();
}

TEST(TensorFlowTensorScatterNdAdd, SlicesFromDocs) {
    ScatterCase().op(ND).dtype(I32).index_dtype(I32).reduction(ADD)
        .data({4, 4, 4}, std::vector<double>(64, 1))
        .indices({2, 1}, {0, 2})
        .updates({2, 4, 4}, kTfSlices)
        .expect(tf_cube({6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9}, 1))
        .run_all_backends();
}

TEST(PaddleScatter, OverwriteTrueLastUpdateWins) {
    ScatterCase().op(ROWS).dtype(F32)
        .data({3, 2}, {1, 1, 2, 2, 3, 3})
        .indices({4}, {2, 1, 0, 1})
        .updates({4, 2}, {1, 1, 2, 2, 3, 3, 4, 4})
        .expect({3, 3, 4, 4, 1, 1})
        .run_all_backends();
}

TEST(PaddleScatter, OverwriteFalseIsAddExcludingSelf) {
    ScatterCase().op(ROWS).dtype(F32).reduction(ADD).exclude_self()
        .data({3, 2}, {1, 1, 2, 2, 3, 3})
        .indices({4}, {2, 1, 0, 1})
        .updates({4, 2}, {1, 1, 2, 2, 3, 3, 4, 4})
        .expect({3, 3, 6, 6, 1, 1})
        .run_all_backends();
}

TEST(MindSporeTensorScatterElements, NoneAxis1FromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).index_dtype(I32).axis(1)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {2, 4})
        .updates({1, 2}, {8, 8})
        .expect({1, 2, 8, 4, 8})
        .run_all_backends();
}

TEST(MindSporeTensorScatterElements, AddAxis0WithNegativeIndexFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).index_dtype(I32).reduction(ADD)
        .data({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
        .indices({2, 3}, {1, -1, 2, 0, 2, 1})
        .updates({2, 3}, {1, 2, 2, 4, 5, 8})
        .expect({5, 2, 3, 5, 5, 14, 7, 15, 11})
        .run_all_backends();
}

TEST(MindSporeTensorScatterElements, OutOfRangeIndicesAreSkipped) {
    // MindSpore's documented behaviour for out-of-range indices is the `skip` policy.
    ScatterCase().op(ELEMENTS).dtype(F32).index_dtype(I32).axis(1).out_of_range(OOR_SKIP)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {2, 9})
        .updates({1, 2}, {8, 8})
        .expect({1, 2, 8, 4, 5})
        .run_all_backends();
}

TEST(MindSporeScatter, Axis1FromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1)
        .data({1, 5}, {1, 2, 3, 4, 5})
        .indices({1, 2}, {2, 4})
        .updates({1, 2}, {8, 8})
        .expect({1, 2, 8, 4, 8})
        .run_all_backends();
}

TEST(MindSporeScatter, Axis0RowsOfZerosFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32)
        .data({5, 5}, std::vector<double>(25, 0))
        .indices({3, 3}, {0, 0, 0, 2, 2, 2, 4, 4, 4})
        .updates({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
        .expect({1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 7, 8, 9, 0, 0})
        .run_all_backends();
}

TEST(MindSporeScatter, Axis1ColumnsOfZerosFromDocs) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1)
        .data({5, 5}, std::vector<double>(25, 0))
        .indices({3, 3}, {0, 2, 4, 0, 2, 4, 0, 2, 4})
        .updates({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
        .expect({1, 0, 2, 0, 3, 4, 0, 5, 0, 6, 7, 0, 8, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
        .run_all_backends();
}

TEST(MindSporeScatterDiv, OneIndexPerRowFromDocs) {
    ScatterCase().op(ROWS).dtype(F32).index_dtype(I32).reduction(DIV)
        .data({2, 3}, {6, 6, 6, 2, 2, 2})
        .indices({2}, {0, 1})
        .updates({2, 3}, {2, 2, 2, 2, 2, 2})
        .expect({3, 3, 3, 1, 1, 1})
        .run_all_backends();
}

TEST(MindSporeScatterDiv, MatrixOfIndicesAppliedInOrderFromDocs) {
    ScatterCase().op(ROWS).dtype(F32).index_dtype(I32).reduction(DIV)
        .data({2, 3}, {105, 105, 105, 315, 315, 315})
        .indices({2, 2}, {0, 1, 1, 1})
        .updates({2, 2, 3}, {1, 1, 1, 3, 3, 3, 5, 5, 5, 7, 7, 7})
        .expect({105, 105, 105, 3, 3, 3})
        .run_all_backends();
}

TEST(MindSporeScatterDiv, SwappedIndicesFromDocs) {
    ScatterCase().op(ROWS).dtype(F32).index_dtype(I32).reduction(DIV)
        .data({2, 3}, {105, 105, 105, 315, 315, 315})
        .indices({2, 2}, {1, 0, 1, 1})
        .updates({2, 2, 3}, {1, 1, 1, 3, 3, 3, 5, 5, 5, 7, 7, 7})
        .expect({35, 35, 35, 9, 9, 9})
        .run_all_backends();
}

}  // namespace
}  // namespace scatter_test
