// With SCATTER_VULKAN_DISABLE_FEATURES=int64,float64,host_visible (set below): 64-bit arithmetic is
// UNSUPPORTED with a message naming the feature, `none` on 64-bit types still works (a byte
// copy), buffers go through staging copies (device-local, not mapped) and host tensors through a
// device-local mirror of the staged tensors (as on a discrete GPU), yet give the same bits.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <cstdlib>
#include <string>

namespace vulkan_test {
namespace {

// The switch is read when a context is created.
class MaskedFeatures : public VulkanTest {
protected:
    void SetUp() override {
        setenv("SCATTER_VULKAN_DISABLE_FEATURES", "int64,float64,host_visible", 1);
        VulkanTest::SetUp();
    }
};

TEST_F(MaskedFeatures, SixtyFourBitArithmeticIsUnsupported) {
    std::mt19937_64 rng(17);
    for (scatter_dtype dtype : {SCATTER_DTYPE_F64, SCATTER_DTYPE_I64, SCATTER_DTYPE_U64, SCATTER_DTYPE_C128}) {
        Case c = random_case(rng, Op::rows, dtype, SCATTER_REDUCTION_ADD);
        Result got = run_case(vulkan, c, Layout::Host);
        EXPECT_EQ(got.status, SCATTER_ERROR_UNSUPPORTED) << c.describe();
        bool names_feature = got.message.find("shaderInt64") != std::string::npos ||
                             got.message.find("shaderFloat64") != std::string::npos;
        EXPECT_TRUE(names_feature) << got.message;
        EXPECT_EQ(got.out, c.data);
    }
}

TEST_F(MaskedFeatures, FallbackPathsMatchTheCpu) {
    std::mt19937_64 rng(19);
    for (scatter_dtype dtype : {SCATTER_DTYPE_F64, SCATTER_DTYPE_I64, SCATTER_DTYPE_I8, SCATTER_DTYPE_F16,
                                SCATTER_DTYPE_F32, SCATTER_DTYPE_OPAQUE}) {
        for (scatter_reduction r : {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD}) {
            if (r == SCATTER_REDUCTION_ADD && (dtype == SCATTER_DTYPE_F64 || dtype == SCATTER_DTYPE_I64 ||
                                               dtype == SCATTER_DTYPE_OPAQUE))
                continue;
            for (Op op : {Op::elements, Op::rows, Op::nd}) {
                Case c = random_case(rng, op, dtype, r);
                Result want = run_reference(c);
                // Host tensors go through the device-local mirror of the staged tensors.
                for (Layout layout : {Layout::Buffer, Layout::Host, Layout::HostStrided}) {
                    Result got = run_case(vulkan, c, layout);
                    EXPECT_EQ(got.status, want.status) << c.describe() << " " << got.message;
                    EXPECT_TRUE(got.out == want.out) << c.describe();
                    EXPECT_TRUE(got.canary.empty()) << got.canary;
                }
            }
        }
    }
}

}  // namespace
}  // namespace vulkan_test
