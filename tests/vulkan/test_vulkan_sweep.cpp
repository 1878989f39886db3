// The differential sweep: random cases for every op x dtype x reduction the table allows, run on
// the CPU backend and on Vulkan with host tensors, strided host tensors and guarded buffers; the
// status, message and every byte of out must be identical.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <cstring>

namespace vulkan_test {
namespace {

const scatter_dtype kDtypes[] = {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32, SCATTER_DTYPE_F64,
                                 SCATTER_DTYPE_I8,  SCATTER_DTYPE_I16,  SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
                                 SCATTER_DTYPE_U8,  SCATTER_DTYPE_U16,  SCATTER_DTYPE_U32, SCATTER_DTYPE_U64,
                                 SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64, SCATTER_DTYPE_C128, SCATTER_DTYPE_OPAQUE};

bool allowed(scatter_dtype dtype, scatter_reduction r) {
    if (dtype == SCATTER_DTYPE_OPAQUE) return r == SCATTER_REDUCTION_NONE;
    if (dtype == SCATTER_DTYPE_BOOL)
        return r == SCATTER_REDUCTION_NONE || r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_MUL;
    if (dtype == SCATTER_DTYPE_C64 || dtype == SCATTER_DTYPE_C128)
        return r != SCATTER_REDUCTION_MAX && r != SCATTER_REDUCTION_MIN;
    return true;
}

struct SweepParam {
    Op op;
    scatter_dtype dtype;
};

class Sweep : public VulkanTest, public ::testing::WithParamInterface<SweepParam> {};

void expect_same(const Result& cpu, const Result& gpu, const Case& c, const char* layout) {
    EXPECT_EQ(gpu.status, cpu.status) << layout << " " << c.describe() << " gpu: " << gpu.message << " cpu: " << cpu.message;
    EXPECT_EQ(gpu.message, cpu.message) << layout << " " << c.describe();
    EXPECT_TRUE(gpu.canary.empty()) << layout << " " << gpu.canary << " " << c.describe();
    ASSERT_EQ(gpu.out.size(), cpu.out.size());
    if (gpu.out != cpu.out) {
        size_t e = 0;
        while (gpu.out[e] == cpu.out[e]) ++e;
        Result oracle = run_reference(c);
        const char* verdict = oracle.out == gpu.out ? "the oracle agrees with Vulkan"
                              : oracle.out == cpu.out ? "the oracle agrees with the CPU" : "the oracle agrees with neither";
        ADD_FAILURE() << verdict << "; " << layout << " " << c.describe() << ": first differing byte " << e << " (element "
                      << e / c.element_size << "): gpu " << int(gpu.out[e]) << " cpu " << int(cpu.out[e]);
    }
}

TEST_P(Sweep, BitwiseEqualToCpu) {
    const SweepParam param = GetParam();
    std::mt19937_64 rng(uint64_t(param.op) * 1000 + uint64_t(param.dtype));
    const Layout layouts[] = {Layout::Host, Layout::HostStrided, Layout::Buffer};
    for (int r = SCATTER_REDUCTION_NONE; r <= SCATTER_REDUCTION_MEAN; ++r) {
        scatter_reduction reduction = scatter_reduction(r);
        if (!allowed(param.dtype, reduction)) continue;
        for (int trial = 0; trial < 3; ++trial) {
            Case c = random_case(rng, param.op, param.dtype, reduction);
            Result cpu_result = run_case(cpu, c, Layout::Host);
            Layout layout = layouts[trial % 3];
            Result gpu_result = run_case(vulkan, c, layout);
            const char* names[] = {"host", "strided", "buffer"};
            expect_same(cpu_result, gpu_result, c, names[trial % 3]);
            if (HasFailure()) return;
        }
    }
}

std::vector<SweepParam> all_params() {
    std::vector<SweepParam> params;
    for (Op op : {Op::elements, Op::rows, Op::nd})
        for (scatter_dtype dtype : kDtypes) params.push_back({op, dtype});
    return params;
}

std::string param_name(const ::testing::TestParamInfo<SweepParam>& info) {
    const char* ops[] = {"elements", "rows", "nd"};
    return std::string(ops[int(info.param.op)]) + "_" + scatter_dtype_name(info.param.dtype);
}

INSTANTIATE_TEST_SUITE_P(AllOpsAllDtypes, Sweep, ::testing::ValuesIn(all_params()), param_name);

}  // namespace
}  // namespace vulkan_test
