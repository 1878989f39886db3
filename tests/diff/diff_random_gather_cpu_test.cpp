// Gather on the CPU against its oracle, bitwise: random cases (random_gather_case; the same
// SCATTER_TEST_SEED / SCATTER_TEST_ITERATIONS variables as the scatter runs) at threads 1, 2, 7
// and through a parallel_for callback, on host and buffer tensors; and a few large cases whose
// outputs pass the size from which the kernel splits its work over the threads.
#include <gtest/gtest.h>

#include "random_case.h"

namespace scatter_test {
namespace {

TEST(DiffRandomGather, CpuMatchesReference) {
    run_random_seeds(3000, [](uint64_t seed) { random_gather_case(seed, RandomLimits{}).run_cpu(); });
}

// Outputs of 0.5-4 MiB: the threads split the head positions, or (few, long slices) the slices.
TEST(DiffLargeGather, ThreadedPathsMatchReference) {
    for (scatter_out_of_range policy : {OOR_ERROR, OOR_CLAMP, OOR_FILL}) {
        const IndexProfile outside{0, 0.3, policy == OOR_ERROR ? 0.0 : 0.1, false};
        GatherCase().op(ROWS).dtype(F32).data({4096, 64}).indices({3000}).out_of_range(policy).fill_value()
            .index_profile(outside).run_cpu();
        GatherCase().op(ROWS).dtype(OPAQUE, 3).data({300, 700}).indices({2, 300}).axis(1).out_of_range(policy)
            .index_profile(outside).out_layout(Layout::random(5, false)).run_cpu();
        GatherCase().op(ELEMENTS).dtype(F64).data({384, 384}).indices({384, 300}).axis(1).out_of_range(policy)
            .index_profile(outside).run_cpu();
        GatherCase().op(ELEMENTS).dtype(I16).index_dtype(I32).data({257, 600}).indices({700, 600}).out_of_range(policy)
            .index_profile(outside).data_layout(Layout::random(3, true)).run_cpu();
        GatherCase().op(ND).dtype(C64).data({4, 128, 96}).indices({4, 200, 2}).batch_dims(1).out_of_range(policy)
            .fill_value().index_profile(outside).run_cpu();
        // One or two slices, each long: split within the slice.
        GatherCase().op(ROWS).dtype(U8).data({3, 400000}).indices({}).out_of_range(policy).index_profile(outside)
            .run_cpu();
        GatherCase().op(ND).dtype(I32).data({5, 300, 300}).indices({2, 1}).out_of_range(policy)
            .index_profile(outside).out_layout(Layout::random(9, false)).run_cpu();
    }
}

}  // namespace
}  // namespace scatter_test
