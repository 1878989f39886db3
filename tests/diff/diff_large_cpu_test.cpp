// Differential cases large enough for the CPU kernels' multi-threaded paths at their default
// thresholds (more than 2^15 updates; rows/nd blocked: out of 8 MiB and more, 4096 slices and more;
// rows/nd plain with slices of 128 bytes per thread and more: split between tasks), reference vs
// the library at 1, 2 and 7 threads and through a parallel_for callback.
#include <gtest/gtest.h>

#include "scatter_case.h"

namespace scatter_test {
namespace {

TEST(DiffLarge, RowsAddUniform) {
    ScatterCase().op(ROWS).dtype(F32).data({32768, 64}).indices({8192}).reduction(ADD).values(11).run_cpu();
}

TEST(DiffLarge, RowsMeanExcludeSelfSkewedWithSkips) {
    ScatterCase().op(ROWS).dtype(F32).data({32768, 64}).indices({9000}).reduction(MEAN).exclude_self()
        .out_of_range(OOR_SKIP).index_profile({.hot_targets = 1500, .negative_rate = 0.2, .out_of_range_rate = 0.1})
        .values(12).run_cpu();
}

TEST(DiffLarge, RowsNoneInt32IndicesHotTargets) {
    ScatterCase().op(ROWS).dtype(F32).index_dtype(I32).data({131072, 16}).indices({20000}).reduction(NONE)
        .index_profile({.hot_targets = 64}).values(13).run_cpu();
}

TEST(DiffLarge, RowsAlongAnAxisAfterUnitDims) {
    ScatterCase().op(ROWS).dtype(I32).axis(1).data({1, 32768, 64}).indices({2, 3000}).reduction(SUB)
        .values(14).run_cpu();
}

TEST(DiffLarge, NdMaxInPlaceF64) {
    ScatterCase().op(ND).dtype(F64).data({256, 256, 16}).indices({6000, 2}).reduction(MAX).in_place()
        .values(15, {.specials = true}).run_cpu();
}

TEST(DiffLarge, NdClampIntoStridedOut) {
    ScatterCase().op(ND).dtype(F32).data({512, 512, 8}).indices({5000, 2}).reduction(MUL)
        .out_of_range(OOR_CLAMP).index_profile({.out_of_range_rate = 0.05}).out_layout(Layout::every_second())
        .updates_layout(Layout::random(3, false)).values(16).run_cpu();
}

// Below the blocked path's size, with long slices: tasks split each slice's elements.
TEST(DiffLarge, RowsMeanLongSlicesSplitBetweenTasks) {
    ScatterCase().op(ROWS).dtype(F32).data({2000, 300}).indices({3000}).reduction(MEAN).exclude_self()
        .index_profile({.hot_targets = 40}).values(19).run_cpu();
}

// Tasks (at 7 threads) split the target rows into ranges of about equal numbers of slices: every
// index among the first 300 rows of 20000.
TEST(DiffLarge, RowsAddHotRowsSplitBySlices) {
    ScatterCase().op(ROWS).dtype(F32).data({20000, 64}).indices({60000}).reduction(ADD)
        .index_profile({.hot_targets = 300}).values(27).run_cpu();
}

// The same split with hit counts (one table, each task's rows at their own place), skipped and
// negative indices, for nd.
TEST(DiffLarge, NdMeanExcludeSelfHotRowsSplitBySlices) {
    ScatterCase().op(ND).dtype(F64).data({200, 100, 4}).indices({40000, 2}).reduction(MEAN).exclude_self()
        .out_of_range(OOR_SKIP).index_profile({.hot_targets = 50, .negative_rate = 0.2, .out_of_range_rate = 0.05})
        .values(28).run_cpu();
}

TEST(DiffLarge, NdStridedInnerDimsSplitBetweenTasks) {
    ScatterCase().op(ND).dtype(F64).data({64, 40, 30}).indices({2000, 1}).reduction(DIV)
        .updates_layout(Layout::random(5, false)).out_layout(Layout::random(6, false)).values(20).run_cpu();
}

// Fewer units than threads along the last axis (1-D: one unit).
TEST(DiffLarge, Elements1DAddSkewedNegative) {
    ScatterCase().op(ELEMENTS).dtype(F32).data({100000}).indices({200000}).reduction(ADD)
        .index_profile({.hot_targets = 5000, .negative_rate = 0.3}).values(21).run_cpu();
}

TEST(DiffLarge, Elements1DMeanExcludeSelfSkipInt32) {
    ScatterCase().op(ELEMENTS).dtype(F64).index_dtype(I32).data({70001}).indices({150000}).reduction(MEAN)
        .exclude_self().out_of_range(OOR_SKIP).index_profile({.negative_rate = 0.2, .out_of_range_rate = 0.1})
        .values(22).run_cpu();
}

TEST(DiffLarge, Elements1DNoneClampStrided) {
    ScatterCase().op(ELEMENTS).dtype(I16).data({90000}).indices({100000}).reduction(NONE).out_of_range(OOR_CLAMP)
        .index_profile({.out_of_range_rate = 0.05}).out_layout(Layout::every_second())
        .updates_layout(Layout::every_second()).values(23).run_cpu();
}

TEST(DiffLarge, ElementsTwoFibersMulInPlace) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).data({2, 60000}).indices({2, 30000}).reduction(MUL).in_place()
        .values(24).run_cpu();
}

TEST(DiffLarge, ElementsAxis0Max) {
    ScatterCase().op(ELEMENTS).dtype(I64).data({1024, 1024}).indices({1024, 1024}).reduction(MAX).values(17).run_cpu();
}

// Staged column tiles at the default stage size (units of whole lines, as many per task: 43 of
// 3 lines -> 44 units at 2 threads, 49 at 7): W1's shape at half its width.
TEST(DiffLarge, ElementsAxis0StagedNone) {
    ScatterCase().op(ELEMENTS).dtype(F32).data({4096, 2048}).indices({4096, 2048}).reduction(NONE).values(25).run_cpu();
}

// The same path staged from out (in place, indices shorter than data along the axis), a width
// that leaves a tail line, and a count of lines (65) that no thread count divides evenly.
TEST(DiffLarge, ElementsAxis0StagedMaxInPlaceTail) {
    ScatterCase().op(ELEMENTS).dtype(I64).data({4096, 520}).indices({3000, 520}).reduction(MAX).in_place()
        .index_profile({.hot_targets = 300, .negative_rate = 0.1}).values(26).run_cpu();
}

TEST(DiffLarge, ElementsLastAxisAddExcludeSelf) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).data({512, 2048}).indices({512, 1024}).reduction(ADD)
        .exclude_self().values(18).run_cpu();
}

// Slices of one element. 1-D rows (torch's index_add_ on a vector) runs the 1-D elements kernel;
// other one-element slices (nd with k = rank, rows of one element after outer dims) take the
// scalar loop, never the blocked path, even into more than 8 MiB of out.
TEST(DiffLarge, Rows1DAddSkewedNegative) {
    ScatterCase().op(ROWS).dtype(F32).data({100000}).indices({200000}).reduction(ADD)
        .index_profile({.hot_targets = 5000, .negative_rate = 0.3}).values(25).run_cpu();
}

TEST(DiffLarge, Rows1DMeanExcludeSelfSkipStridedInt32) {
    ScatterCase().op(ROWS).dtype(F64).index_dtype(I32).data({70001}).indices({150000}).reduction(MEAN)
        .exclude_self().out_of_range(OOR_SKIP).index_profile({.negative_rate = 0.2, .out_of_range_rate = 0.1})
        .updates_layout(Layout::every_second()).out_layout(Layout::every_second()).values(26).run_cpu();
}

TEST(DiffLarge, Rows1DIntegerDivisionWithAZeroDivisorSkipped) {
    ScatterCase().op(ROWS).dtype(I32).data({50000}).indices({60000}).reduction(DIV).out_of_range(OOR_SKIP)
        .index_profile({.out_of_range_rate = 0.3}).values(27, {.avoid_zero = true}).run_cpu();
    ScatterCase().op(ROWS).dtype(I16).data({50000}).indices({60000}).reduction(DIV)
        .values(28, {.plant_zero = true}).run_cpu();
}

TEST(DiffLarge, Rows1DNoneClampInPlace) {
    ScatterCase().op(ROWS).dtype(U8).data({90000}).indices({100000}).reduction(NONE).out_of_range(OOR_CLAMP)
        .index_profile({.out_of_range_rate = 0.05, .extremes = true}).in_place().values(29).run_cpu();
}

TEST(DiffLarge, NdScalarSlicesIntoMoreThanEightMiB) {
    ScatterCase().op(ND).dtype(F32).data({1536, 1536}).indices({300000, 2}).reduction(ADD).out_of_range(OOR_SKIP)
        .index_profile({.negative_rate = 0.2, .out_of_range_rate = 0.05}).values(30, {.specials = true}).run_cpu();
}

TEST(DiffLarge, NdScalarSlicesMaxStridedIndicesAndOut) {
    ScatterCase().op(ND).dtype(I64).data({300, 200, 3}).indices({80000, 3}).reduction(MAX)
        .indices_layout(Layout::random(7, false)).out_layout(Layout::random(8, false)).values(31).run_cpu();
}

TEST(DiffLarge, NdScalarSlicesMeanInPlace) {
    ScatterCase().op(ND).dtype(F32).data({400, 400}).indices({90000, 2}).reduction(MEAN).in_place()
        .index_profile({.hot_targets = 300}).values(32).run_cpu();
}

TEST(DiffLarge, RowsScalarSlicesAfterOuterDims) {
    ScatterCase().op(ROWS).dtype(F32).axis(1).data({8, 5000}).indices({40000}).reduction(SUB).values(33).run_cpu();
    ScatterCase().op(ROWS).dtype(F16).data({20000}).indices({100, 400}).reduction(MIN)
        .updates_layout(Layout::random(9, false)).values(34).run_cpu();
}

}  // namespace
}  // namespace scatter_test
