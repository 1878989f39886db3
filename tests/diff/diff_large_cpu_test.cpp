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

TEST(DiffLarge, ElementsLastAxisAddExcludeSelf) {
    ScatterCase().op(ELEMENTS).dtype(F32).axis(1).data({512, 2048}).indices({512, 1024}).reduction(ADD)
        .exclude_self().values(18).run_cpu();
}

}  // namespace
}  // namespace scatter_test
