// lavapipe (llvmpipe) ends every shader loop once an invocation has spent 65535 iterations in
// all its loops: before the library knew, a target with ~5000 float updates silently kept only
// the first ones (20000 ones added to 0 gave 6553). src/vulkan/vk_loop_limit.h now refuses such
// calls with UNSUPPORTED before writing anything. These tests find the limit the library states
// for each dtype, reduction, op and rank, then check that a call at the limit gives the CPU's
// bits (so the cost model behind the limit is conservative) and one past it fails cleanly.
// ctest runs them on the target-parallel path's bucket passes and, with it hidden, on the
// owner-computes path.
#include "vulkan_env.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace vulkan_test {
namespace {

// The slab path (elements along the last axis, as these one-target cases are) takes a call only
// while its own bound on loop iterations holds and refuses none, falling back to the target
// path; the key sort folds a key in as many chunk passes as it needs (KeySort.* test that, up
// to kMaxTargetChunks of them, beyond the sizes tests here can afford). These tests state the
// limits of the bucket passes and of the owner path, so both others are hidden from this process
// before any context exists (test_vulkan_slab.cpp checks the slab's bound).
const bool kSlabPathAndKeySortHidden = [] {
    const char* hidden = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    const char* ours = "slab_path,key_sort";
    std::string list = hidden != nullptr && *hidden != '\0' ? std::string(hidden) + "," + ours : ours;
    return setenv("SCATTER_VULKAN_DISABLE_FEATURES", list.c_str(), 1) == 0;
}();

using LoopLimit = VulkanTest;

// Random values whose arithmetic takes the long way and whose fold stays finite, so a fold cut
// short shows in the result. Sums: normal numbers near 1 mixed with subnormals and the odd
// larger one. Products and quotients: magnitudes in [0.5, 2) (complex parts in [0.5, 1)), a
// random walk in the exponent that neither overflows nor underflows within a few thousand steps.
std::vector<uint8_t> float_values(scatter_dtype dtype, scatter_reduction reduction, size_t count, std::mt19937_64& rng) {
    const size_t size = scatter_dtype_size(dtype);
    const bool complex = dtype == SCATTER_DTYPE_C64 || dtype == SCATTER_DTYPE_C128;
    const bool product = reduction == SCATTER_REDUCTION_MUL || reduction == SCATTER_REDUCTION_DIV;
    const size_t part = complex ? size / 2 : size;
    // Per format: fraction bits, exponent bias.
    const int fraction = part == 8 ? 52 : part == 4 ? 23 : dtype == SCATTER_DTYPE_F16 ? 10 : 7;
    const int bias = part == 8 ? 1023 : dtype == SCATTER_DTYPE_F16 ? 15 : 127;
    std::vector<uint8_t> bytes(count * size);
    for (size_t i = 0; i < count * size / part; ++i) {
        const uint64_t r = rng();
        int exponent;
        if (product) exponent = complex ? bias - 1 : bias - 1 + int(r % 2);
        else exponent = r % 3 == 0 ? 0 : r % 3 == 1 ? bias - 1 + int((r >> 8) % 3) : bias + 5;
        uint64_t bits = uint64_t(exponent) << fraction | (rng() & ((uint64_t(1) << fraction) - 1));
        if (exponent == 0) bits |= 1;  // a subnormal, never zero
        bits |= ((r >> 16) & 1) << (8 * part - 1);  // the sign
        std::memcpy(&bytes[i * part], &bits, part);
    }
    return bytes;
}

struct Call {
    scatter_status status;
    std::string message;
    std::vector<uint8_t> out;
};

// `count` updates into target 0 of a one-element tensor of rank `rank`: elements along axis 0,
// rows (count indices), or nd (count index rows of depth 1).
Call scatter_into_one_target(scatter_context context, scatter_op op, scatter_dtype dtype, scatter_reduction reduction,
                             uint32_t rank, size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<int64_t> data_shape(rank, 1), update_shape(rank, 1), index_shape;
    update_shape[0] = int64_t(count);
    if (op == SCATTER_OP_ELEMENTS) index_shape = update_shape;
    else if (op == SCATTER_OP_ROWS) index_shape = {int64_t(count)};
    else index_shape = {int64_t(count), 1};
    const std::vector<uint8_t> data = float_values(dtype, reduction, 1, rng);
    const std::vector<uint8_t> updates = float_values(dtype, reduction, count, rng);
    const std::vector<int64_t> indices(count, 0);
    Call call{SCATTER_OK, "", data};
    scatter_tensor d = SCATTER_TENSOR_INIT, x = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT, o = SCATTER_TENSOR_INIT;
    d.dtype = u.dtype = o.dtype = dtype;
    d.rank = o.rank = rank;
    d.shape = o.shape = data_shape.data();
    d.data = const_cast<uint8_t*>(data.data());
    o.data = call.out.data();
    u.rank = rank;  // every op: [count, 1, ..., 1]
    u.shape = update_shape.data();
    u.data = const_cast<uint8_t*>(updates.data());
    x.dtype = SCATTER_DTYPE_I64;
    x.rank = uint32_t(index_shape.size());
    x.shape = index_shape.data();
    x.data = const_cast<int64_t*>(indices.data());
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = reduction;
    const auto function = op == SCATTER_OP_ELEMENTS ? scatter_elements : op == SCATTER_OP_ROWS ? scatter_rows : scatter_nd;
    call.status = function(context, &d, &x, &u, &options, &o);
    if (call.status != SCATTER_OK) call.message = scatter_last_error_message();
    return call;
}

// The limit a refusal states: "... more than the N this call can apply ...".
size_t stated_limit(const std::string& message) {
    const size_t at = message.find("more than the ");
    return at == std::string::npos ? 0 : size_t(std::stoull(message.substr(at + 14)));
}

TEST_F(LoopLimit, AtTheStatedLimitResultsMatchTheCpuAndOnePastItNothingIsWritten) {
    const scatter_dtype dtypes[] = {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,
                                    SCATTER_DTYPE_F64, SCATTER_DTYPE_C64,  SCATTER_DTYPE_C128};
    const scatter_reduction reductions[] = {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MUL, SCATTER_REDUCTION_DIV,
                                            SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MEAN};
    int checked = 0, refused = 0;
    for (scatter_op op : {SCATTER_OP_ELEMENTS, SCATTER_OP_ROWS, SCATTER_OP_ND}) {
        for (uint32_t rank : {1u, 16u}) {
            if (op == SCATTER_OP_ND && rank == 16u) continue;  // nd's slices: as rows
            for (scatter_dtype dtype : dtypes) {
                for (scatter_reduction reduction : reductions) {
                    const std::string what = std::string(scatter_dtype_name(dtype)) + " " +
                                             scatter_reduction_name(reduction) + " op " + std::to_string(op) +
                                             " rank " + std::to_string(rank);
                    if (scatter_into_one_target(cpu, op, dtype, reduction, rank, 2, 1).status != SCATTER_OK) continue;
                    const Call probe = scatter_into_one_target(vulkan, op, dtype, reduction, rank, 100000, 1);
                    if (probe.status == SCATTER_OK) {  // an order-free reduction: the atomic path, no loop
                        EXPECT_EQ(probe.out, scatter_into_one_target(cpu, op, dtype, reduction, rank, 100000, 1).out) << what;
                        continue;
                    }
                    ASSERT_EQ(probe.status, SCATTER_ERROR_UNSUPPORTED) << what << ": 100000 updates to one target";
                    ++refused;
                    const size_t limit = stated_limit(probe.message);
                    ASSERT_GT(limit, 10u) << what << ": " << probe.message;
                    const Call at_gpu = scatter_into_one_target(vulkan, op, dtype, reduction, rank, limit, 2);
                    const Call at_cpu = scatter_into_one_target(cpu, op, dtype, reduction, rank, limit, 2);
                    EXPECT_EQ(at_gpu.status, SCATTER_OK) << what << " at " << limit << ": " << at_gpu.message;
                    EXPECT_EQ(at_gpu.out, at_cpu.out) << what << " at the stated limit " << limit;
                    const Call past = scatter_into_one_target(vulkan, op, dtype, reduction, rank, limit + 1, 3);
                    const Call before = scatter_into_one_target(cpu, op, dtype, reduction, rank, 0, 3);
                    EXPECT_EQ(past.status, SCATTER_ERROR_UNSUPPORTED) << what << " at " << limit + 1;
                    EXPECT_EQ(stated_limit(past.message), limit) << past.message;
                    EXPECT_EQ(past.out, before.out) << what << ": a refused call wrote out";
                    ++checked;
                }
            }
        }
    }
    // A device without a loop limit (every real GPU so far) takes every probe, each matching the
    // CPU above; llvmpipe refuses most.
    if (refused > 0 || on_lavapipe()) {
        EXPECT_GT(checked, 80);
    }
}

}  // namespace
}  // namespace vulkan_test
