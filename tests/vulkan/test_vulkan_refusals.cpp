// A driver that refuses a pipeline (as mobile drivers refuse single compute pipelines): the test
// switch SCATTER_VULKAN_TEST_REFUSE_PIPELINES makes lavapipe's vkCreateComputePipelines answer
// VK_ERROR_UNKNOWN (or VK_SUCCESS with a null handle) for the modules it names. The refusing
// call fails with UNSUPPORTED naming the shader and the VkResult and leaves out unchanged; the
// device remembers the refusal (it is never asked again) and later calls take a path without the
// refused pipeline where one exists, bitwise equal to the CPU.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <cstdlib>
#include <string>

namespace vulkan_test {
namespace {

// A Vulkan context whose device refuses the modules `refuse` names. Each test names its own
// list: contexts with the same switches share a device, and with it its remembered refusals.
scatter_status refusing_context(const char* refuse, ValidationLog* log, scatter_context* out) {
    setenv("SCATTER_VULKAN_TEST_REFUSE_PIPELINES", refuse, 1);
    const scatter_status status = create_vulkan_context(log, out);
    unsetenv("SCATTER_VULKAN_TEST_REFUSE_PIPELINES");
    return status;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

class Refusals : public VulkanTest {
protected:
    scatter_context refusing = nullptr;
    ValidationLog refusing_log;

    void open(const char* refuse) {
        ASSERT_EQ(refusing_context(refuse, &refusing_log, &refusing), SCATTER_OK) << scatter_last_error_message();
    }
    void TearDown() override {
        scatter_context_destroy(refusing);
        EXPECT_EQ(refusing_log.problems.load(), 0) << "validation layer: " << refusing_log.first;
        VulkanTest::TearDown();
    }

public:
    // Runs `c` on the refusing context: OK and the CPU's bits, or a refusal that names a module
    // of `prefix` and left out unchanged. Returns whether it was refused.
    bool run_checked(const Case& c, Layout layout, const char* prefix) {
        const Result want = run_reference(c);
        const Result got = run_case(refusing, c, layout);
        EXPECT_TRUE(got.canary.empty()) << got.canary;
        if (got.status == SCATTER_OK) {
            EXPECT_EQ(want.status, SCATTER_OK) << c.describe();
            EXPECT_TRUE(got.out == want.out) << c.describe();
            return false;
        }
        if (want.status != SCATTER_OK) {  // the case's own error (a bad index): the CPU's status
            EXPECT_EQ(got.status, want.status) << c.describe() << ": " << got.message;
            EXPECT_EQ(got.out, c.data);
            return false;
        }
        EXPECT_EQ(got.status, SCATTER_ERROR_UNSUPPORTED) << c.describe() << ": " << got.message;
        EXPECT_TRUE(contains(got.message, "refused the pipeline of shader")) << got.message;
        EXPECT_TRUE(contains(got.message, (std::string("shader ") + prefix).c_str()) ||
                    std::string(prefix) == "all")
            << got.message;
        EXPECT_TRUE(contains(got.message, "VK_ERROR_UNKNOWN") || contains(got.message, "null handle")) << got.message;
        EXPECT_EQ(got.out, c.data) << c.describe();  // unchanged (Result holds data's bytes then)
        return true;
    }
};

// A family with another path: the first call that needs it fails, and within a few calls (one
// per path whose pipelines the list refuses) the same call succeeds on another path with the
// CPU's bits, as do the calls after it.
void expect_rerouted(Refusals& t, const char* prefix, Op op, scatter_dtype dtype, scatter_reduction reduction,
                     uint64_t seed) {
    std::mt19937_64 rng(seed);
    Case c = random_case(rng, op, dtype, reduction);
    c.options.out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;  // no bad-index failures in the way
    int refused = 0;
    while (refused < 4 && t.run_checked(c, Layout::Buffer, prefix)) ++refused;
    EXPECT_GE(refused, 1) << prefix << ": " << c.describe() << " did not need the refused pipeline";
    EXPECT_LT(refused, 4) << prefix << ": never rerouted, " << c.describe();
    for (int again = 0; again < 2; ++again)
        EXPECT_FALSE(t.run_checked(c, Layout::Buffer, prefix)) << prefix << ": " << c.describe();
}

TEST_F(Refusals, AtomicPathRefusedLaterCallsTakeTheSortedPath) {
    open("atomic");
    expect_rerouted(*this, "atomic", Op::rows, SCATTER_DTYPE_I32, SCATTER_REDUCTION_ADD, 1);
}

TEST_F(Refusals, SlabRefusedLaterCallsTakeAnotherPath) {
    open("scatter_f32_sb,scatter_f32_dp_sb,atomic_f32_slab");
    expect_rerouted(*this, "", Op::elements, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX, 2);
}

TEST_F(Refusals, KeySortRefusedLaterCallsTakeTheOwnerPath) {
    open("radix_sort");
    expect_rerouted(*this, "radix_sort", Op::rows, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, 3);
}

TEST_F(Refusals, BucketsRefusedLaterCallsTakeTheOwnerPath) {
    open("buckets");
    expect_rerouted(*this, "buckets", Op::rows, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MEAN, 4);
}

// The passes every path shares (index validation, the copy of data into out): no other path,
// so every call that needs them is refused, with out unchanged, and the driver is asked once.
TEST_F(Refusals, SharedPassesRefusedEveryCallFailsCleanlyAndTheDriverIsAskedOnce) {
    open("index,copy");
    std::mt19937_64 rng(5);
    int refused = 0, earlier = 0;
    for (int i = 0; i < 12; ++i) {
        Case c = random_case(rng, i % 2 ? Op::rows : Op::nd, SCATTER_DTYPE_I32, SCATTER_REDUCTION_ADD);
        const Result got = run_case(refusing, c, i % 3 ? Layout::Buffer : Layout::Host);
        ASSERT_EQ(got.status, SCATTER_ERROR_UNSUPPORTED) << c.describe() << ": " << got.message;
        EXPECT_EQ(got.out, c.data);
        EXPECT_TRUE(got.canary.empty()) << got.canary;
        refused += contains(got.message, "returned VK_ERROR_UNKNOWN");
        earlier += contains(got.message, "earlier on this device");
    }
    EXPECT_GE(refused, 1);
    EXPECT_LE(refused, 4);  // one per distinct pipeline (index, copy and their `_ad`/`_ss` twins)
    EXPECT_GE(earlier, 8);
    // The context stays usable: buffers, and the CPU's answer on a CPU context.
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(refusing, 64, &buffer), SCATTER_OK);
    scatter_buffer_destroy(buffer);
}

TEST_F(Refusals, EveryPipelineRefusedNothingCrashesAndOutStaysUnchanged) {
    open("all");
    std::mt19937_64 rng(6);
    for (Op op : {Op::elements, Op::rows, Op::nd})
        for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_U8, SCATTER_DTYPE_F64})
            for (scatter_reduction r : {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MIN})
                for (Layout layout : {Layout::Buffer, Layout::Host}) {
                    Case c = random_case(rng, op, dtype, r);
                    run_checked(c, layout, "all");
                }
}

TEST_F(Refusals, ANullHandleIsARefusalToo) {
    open("scatter=null,atomic=null");
    std::mt19937_64 rng(7);
    Case c = random_case(rng, Op::rows, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD);
    c.options.out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;
    const Result got = run_case(refusing, c, Layout::Buffer);
    ASSERT_EQ(got.status, SCATTER_ERROR_UNSUPPORTED) << got.message;
    EXPECT_TRUE(contains(got.message, "VK_SUCCESS and a null handle")) << got.message;
    EXPECT_EQ(got.out, c.data);
}

TEST_F(Refusals, GatherRefusedFailsCleanly) {
    open("gather");
    const float data[4] = {1, 2, 3, 4};
    const int64_t indices[2] = {3, 0};
    float out[2] = {-1, -1};
    int64_t data_shape[1] = {4}, index_shape[1] = {2};
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, o = SCATTER_TENSOR_INIT;
    d.dtype = SCATTER_DTYPE_F32, d.rank = 1, d.shape = data_shape, d.data = const_cast<float*>(data);
    i.dtype = SCATTER_DTYPE_I64, i.rank = 1, i.shape = index_shape, i.data = const_cast<int64_t*>(indices);
    o.dtype = SCATTER_DTYPE_F32, o.rank = 1, o.shape = index_shape, o.data = out;
    for (const char* expected : {"returned VK_ERROR_UNKNOWN", "earlier on this device"}) {
        ASSERT_EQ(scatter_gather_rows(refusing, &d, &i, nullptr, &o), SCATTER_ERROR_UNSUPPORTED);
        EXPECT_TRUE(contains(scatter_last_error_message(), expected)) << scatter_last_error_message();
        EXPECT_EQ(out[0], -1.0f);
        EXPECT_EQ(out[1], -1.0f);
    }
}

TEST(RefusalSwitch, AMalformedListFailsContextCreation) {
    for (const char* bad : {"", "Scatter", "copy=maybe", "index,,copy", "a b"}) {
        ValidationLog log;
        scatter_context context = nullptr;
        EXPECT_EQ(refusing_context(bad, &log, &context), SCATTER_ERROR_INVALID_ARGUMENT) << "\"" << bad << "\"";
        EXPECT_TRUE(contains(scatter_last_error_message(), "SCATTER_VULKAN_TEST_REFUSE_PIPELINES"));
        EXPECT_EQ(context, nullptr);
    }
}

}  // namespace
}  // namespace vulkan_test
