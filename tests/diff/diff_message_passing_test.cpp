// scatter_message_passing on the CPU, bitwise, against the oracle's gather + multiply + rows
// scatter and the library's own three calls (tests/support/message_passing_case.h): random cases
// (SCATTER_TEST_SEED / SCATTER_TEST_ITERATIONS as the other random runs) at threads 1, 2, 7 and
// through a parallel_for callback, and large cases whose edges pass the size from which the
// kernel splits its work over the threads (by row elements, or by target rows).
#include <gtest/gtest.h>

#include "message_passing_case.h"
#include "random_case.h"

namespace scatter_test {
namespace {

TEST(DiffMessagePassing, RandomCasesMatchOracleAndComposition) {
    run_random_seeds(1500, [](uint64_t seed) { random_message_passing_case(seed).run(); });
}

MessagePassingCase large(scatter_dtype dtype, Shape data, int64_t sources, int64_t edges) {
    MessagePassingCase c;
    c.dtype = dtype;
    c.data_shape = data;
    c.sources = sources;
    c.edges = edges;
    return c;
}

// 2^15 edge elements and more, so that 7 threads split the work: the target rows ([700, 64],
// [3000, 3], [5000], [9, 40]) or, with fewer rows than tasks, each row's cache lines ([3, 512]);
// every reduction, weights, exclude_self, duplicates into two rows, all edges into one row.
TEST(DiffMessagePassing, LargeCasesSplitOverThreads) {
    for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MEAN, SCATTER_REDUCTION_MAX,
                                SCATTER_REDUCTION_MIN, SCATTER_REDUCTION_NONE}) {
        for (bool weighted : {false, true}) {
            MessagePassingCase c = large(SCATTER_DTYPE_F32, {700, 64}, 900, 20000);
            c.reduction = r;
            c.weighted = weighted;
            c.exclude_self = r == SCATTER_REDUCTION_MEAN;
            c.values.specials = true;
            c.run(SCATTER_OK);
            MessagePassingCase rows = large(SCATTER_DTYPE_F16, {3000, 3}, 50, 30000);
            rows.reduction = r;
            rows.weighted = weighted;
            rows.dst_indices.hot_targets = r == SCATTER_REDUCTION_ADD ? 2 : 0;
            rows.out_layout = Layout::random(11, false);
            rows.run(SCATTER_OK);
        }
    }
    MessagePassingCase vector = large(SCATTER_DTYPE_I32, {5000}, 5000, 60000);
    vector.src_dtype = SCATTER_DTYPE_I32;
    vector.dst_policy = SCATTER_OUT_OF_RANGE_SKIP;
    vector.dst_indices.out_of_range_rate = 0.1;
    vector.src_policy = SCATTER_OUT_OF_RANGE_FILL;
    vector.src_indices.out_of_range_rate = 0.1;
    vector.weighted = true;
    vector.run(SCATTER_OK);
    for (bool weighted : {false, true}) {
        MessagePassingCase few_rows = large(SCATTER_DTYPE_F32, {3, 512}, 40, 5000);
        few_rows.weighted = weighted;
        few_rows.reduction = weighted ? SCATTER_REDUCTION_MEAN : SCATTER_REDUCTION_MAX;
        few_rows.exclude_self = weighted;
        few_rows.values.specials = true;
        few_rows.run(SCATTER_OK);
    }
    MessagePassingCase one_target = large(SCATTER_DTYPE_F64, {9, 40}, 30, 40000);
    one_target.dst_indices.hot_targets = 1;
    one_target.in_place = true;
    one_target.exclude_self = true;
    one_target.run(SCATTER_OK);
}

}  // namespace
}  // namespace scatter_test
