#include "vulkan/vk_loop_limit.h"

#include "core/dtype.h"

#include "scatter_shared.h"

#include <cinttypes>
#include <cmath>
#include <cstring>

namespace scatter {
namespace {

// Loop iterations per update folded: an upper bound of what llvmpipe 15 was measured to spend,
// checked at every float dtype, reduction, op and ranks 1 and 16 on both paths by
// tests/vulkan/test_vulkan_loop_limit.cpp. Offsets walk the updates' and out's dimensions (real
// add: 13 per update at rank 1, 27 at rank 16); complex elements add ~45 (c64 add: 59 at rank 1,
// 74 at rank 16); float division adds its data-dependent loops (exact_divide.glsl): f64's
// 54-step long division (f32's is unrolled) and, for a subnormal operand, normalizing up to M
// bits (measured with normal operands: f32 div 26-32, f64 div 66-81, c128 div 207-223 per update).
uint32_t iterations_per_item(const OpPlan& plan) {
    const scatter_dtype t = plan.out.dtype();
    const DtypeInfo* info = find_dtype(t);
    const bool complex = info != nullptr && info->kind == DtypeKind::Complex;
    const bool floating = complex || (info != nullptr && info->kind == DtypeKind::Float);
    uint32_t cost = 16 + plan.updates.rank + plan.out.rank + (complex ? 48 : 0);
    if (plan.reduction == SCATTER_REDUCTION_DIV && floating) {
        const bool wide = t == SCATTER_DTYPE_F64 || t == SCATTER_DTYPE_C128;
        // A fold that stays subnormal normalizes one operand per step; both never persist
        // (two subnormals give a normal quotient, and a subnormal divisor sends it to infinity).
        const uint32_t divide = wide ? 54 + 52 + 8 : 12 + 23 + 8;
        cost += (complex ? 4 : 1) * divide;
    }
    return cost;
}

// buckets.comp's heapsort of n items: at most 1.5 n log2(n) + 1.5 n loop iterations.
double sort_iterations(uint32_t n) { return n < 2 ? 0.0 : 1.5 * n * std::log2(double(n)) + 1.5 * n; }

}  // namespace

uint32_t shader_loop_limit(const scatter_device_info& info) {
    return std::strncmp(info.name, "llvmpipe", 8) == 0 ? 65535u : 0u;
}

uint32_t loop_budget(uint32_t loop_limit) { return loop_limit - loop_limit / 8; }

uint32_t loop_limited_items(const OpPlan& plan, uint32_t loop_limit, bool sorted) {
    const uint32_t budget = loop_budget(loop_limit);
    uint32_t items = budget / iterations_per_item(plan);
    if (sorted)
        while (items > 1 && sort_iterations(items) > budget) items -= items / 16 + 1;
    return items < 1 ? 1 : items;
}

uint64_t slab_loop_iterations(const OpPlan& plan, int64_t length, int64_t items, bool by_subgroups) {
    const uint64_t lanes = SCATTER_WORKGROUP_SIZE;
    // Loading and writing the fiber: one element per round, a byte copy in up to E pieces.
    const uint64_t fiber_rounds = 2 * ((uint64_t(length) + lanes - 1) / lanes) * (plan.out.element_size + 1);
    const uint64_t chunks = (uint64_t(items) + lanes - 1) / lanes;
    if (plan.reduction == SCATTER_REDUCTION_NONE) return fiber_rounds + chunks + 2 * SCATTER_GPU_MAX_RANK;
    // Per chunk: the scan for an earlier lane with the same target, then up to 64 folds. By
    // subgroups (scatter.comp `_sb`), every subgroup walks all the tile's updates in chunks of its
    // width (4 lanes at least on llvmpipe), each lane reading one update a chunk: llvmpipe spent
    // 62-77 iterations per update beyond the folds with 4-lane subgroups (c64 `add`, all into one
    // target: 480 passed, 540 were cut short), 26-35 with 8; 96 is the bound.
    const uint64_t per_item = iterations_per_item(plan);
    const uint64_t folds = by_subgroups ? uint64_t(items) * (96 + per_item) : chunks * (lanes + lanes * per_item);
    return fiber_rounds + 2 * SCATTER_GPU_MAX_RANK + folds;
}

Status loop_limit_error(const scatter_device_info& info, uint64_t items, uint32_t limit, bool column) {
    // The owner-computes path folds a whole column in one invocation, however many targets its
    // updates reach: saying they reach one target would be false there (W16's 500000-long columns).
    return make_error(SCATTER_ERROR_UNSUPPORTED,
                      "%" PRIu64 " updates %s, more than the %u this call can apply on %s, whose "
                      "driver ends any shader loop after 65535 iterations; use the CPU backend",
                      items, column ? "fall in one column, which this call's path folds in one invocation" : "reach one target",
                      limit, info.name);
}

}  // namespace scatter
