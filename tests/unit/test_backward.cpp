// The backward calls against the oracle (tests/reference/backward_reference.h): random cases
// for every operation, reduction, float dtype, index width, policy and exclude_self, ranks 1-4,
// strided and broadcast views, empty tensors, duplicates, ties and zeros, on the CPU at 1, 2 and
// 7 threads and through a job system; results compared bitwise (any NaN equals any NaN).
#include "backward_reference.h"
#include "dtypes.h"
#include "half_float.h"
#include "host_tensor.h"
#include "tensor_values.h"
#include "test_backends.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

namespace scatter_test {
namespace {

const scatter_dtype kFloatDtypes[] = {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32, SCATTER_DTYPE_F64};
const scatter_reduction kReductions[] = {SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB,
                                         SCATTER_REDUCTION_MUL,  SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MAX,
                                         SCATTER_REDUCTION_MIN,  SCATTER_REDUCTION_MEAN};
const scatter_out_of_range kPolicies[] = {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_SKIP,
                                          SCATTER_OUT_OF_RANGE_CLAMP};

double decode(scatter_dtype dtype, const uint8_t* p) {
    uint16_t h;
    float f;
    double d;
    switch (dtype) {
        case SCATTER_DTYPE_F16: std::memcpy(&h, p, 2); return f16_to_f32(h);
        case SCATTER_DTYPE_BF16: std::memcpy(&h, p, 2); return bf16_to_f32(h);
        case SCATTER_DTYPE_F32: std::memcpy(&f, p, 4); return f;
        default: std::memcpy(&d, p, 8); return d;
    }
}

// Bitwise equal, but any NaN equals any NaN. Returns the first differing element or -1.
int64_t first_difference(const HostTensor& a, const HostTensor& b) {
    const std::vector<uint8_t> x = a.logical_bytes(), y = b.logical_bytes();
    const size_t size = a.element_size();
    for (size_t i = 0; i * size < x.size(); ++i) {
        if (std::memcmp(&x[i * size], &y[i * size], size) == 0) continue;
        if (std::isnan(decode(a.dtype(), &x[i * size])) && std::isnan(decode(a.dtype(), &y[i * size]))) continue;
        return int64_t(i);
    }
    return -1;
}

// Values with many ties and zeros: small halves and integers, a few random ones, NaN rarely.
void fill_gradient_values(HostTensor& t, Rng& rng, bool nan) {
    static const double kPicks[] = {0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -2.0, 3.0, 1.5, -0.5};
    std::uniform_real_distribution<double> uniform(-4.0, 4.0);
    for (int64_t i = 0; i < t.element_count(); ++i) {
        const uint64_t r = rng() % 100;
        double v = r < 60 ? kPicks[rng() % 10] : uniform(rng);
        if (nan && r == 99) v = std::nan("");
        t.set(i, v);
    }
}

Layout random_layout(Rng& rng, bool read_only) {
    switch (rng() % 3) {
        case 0: return Layout::row_major();
        case 1: return Layout::every_second();
        default: return Layout::random(uint32_t(rng()), read_only && rng() % 2 == 0);
    }
}

// Empty dimensions in small cases only: large ones are there to be split.
int64_t dim(Rng& rng, int64_t max) { return rng() % 12 == 0 && max < 10 ? 0 : 1 + int64_t(rng() % uint64_t(max)); }

// Shapes of one scatter call: data, indices, updates; axis.
struct Shapes {
    Shape data, indices, updates;
    int32_t axis = 0;
};

Shapes random_shapes(Op op, Rng& rng, int64_t max_dim) {
    Shapes s;
    if (op == Op::elements) {
        const uint32_t r = 1 + uint32_t(rng() % 4);
        s.axis = int32_t(rng() % r);
        for (uint32_t d = 0; d < r; ++d) s.data.push_back(dim(rng, max_dim));
        for (uint32_t d = 0; d < r; ++d)
            s.indices.push_back(int32_t(d) == s.axis ? dim(rng, max_dim + 2) : int64_t(rng() % uint64_t(s.data[d] + 1)));
        s.updates = s.indices;
    } else if (op == Op::rows) {
        const uint32_t r = 1 + uint32_t(rng() % 3), q = uint32_t(rng() % 3);
        s.axis = int32_t(rng() % r);
        for (uint32_t d = 0; d < r; ++d) s.data.push_back(dim(rng, max_dim));
        for (uint32_t d = 0; d < q; ++d) s.indices.push_back(dim(rng, max_dim + 2));
        for (int32_t d = 0; d < s.axis; ++d) s.updates.push_back(s.data[size_t(d)]);
        for (int64_t e : s.indices) s.updates.push_back(e);
        for (uint32_t d = uint32_t(s.axis) + 1; d < r; ++d) s.updates.push_back(s.data[d]);
    } else {
        const uint32_t r = 1 + uint32_t(rng() % 4), k = 1 + uint32_t(rng() % r), heads = 1 + uint32_t(rng() % 2);
        for (uint32_t d = 0; d < r; ++d) s.data.push_back(dim(rng, max_dim));
        for (uint32_t d = 0; d < heads; ++d) s.indices.push_back(dim(rng, max_dim + 2));
        s.indices.push_back(k);
        for (uint32_t d = 0; d < heads; ++d) s.updates.push_back(s.indices[d]);
        for (uint32_t d = k; d < r; ++d) s.updates.push_back(s.data[d]);
    }
    return s;
}

using ForwardFn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                     const scatter_tensor*, const scatter_options*, const scatter_tensor*);
using BackwardFn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                      const scatter_tensor*, const scatter_tensor*, const scatter_tensor*,
                                      const scatter_options*, const scatter_tensor*, const scatter_tensor*);

ForwardFn forward_of(Op op) {
    return op == Op::elements ? scatter_elements : op == Op::rows ? scatter_rows : scatter_nd;
}
BackwardFn backward_of(Op op) {
    return op == Op::elements ? scatter_elements_backward : op == Op::rows ? scatter_rows_backward : scatter_nd_backward;
}

struct ScatterBackwardCase {
    Op op;
    scatter_dtype dtype;
    scatter_dtype index_dtype;
    scatter_reduction reduction;
    scatter_out_of_range policy;
    bool exclude_self;
    uint64_t seed;
    int64_t max_dim = 4;

    std::string describe() const {
        std::ostringstream s;
        s << op_name(op) << " " << dtype_label(dtype) << " " << dtype_label(index_dtype) << " "
          << reduction_label(reduction) << " " << policy_label(policy) << (exclude_self ? " exclude_self" : "")
          << " seed " << seed;
        return s.str();
    }

    // Returns true when the call succeeded with at least one update reaching data.
    bool run() const {
        Rng rng(seed);
        const Shapes s = random_shapes(op, rng, max_dim);
        HostTensor data(dtype, s.data, 0, random_layout(rng, true));
        HostTensor indices(index_dtype, s.indices, 0, random_layout(rng, true));
        HostTensor updates(dtype, s.updates, 0, random_layout(rng, true));
        HostTensor grad_out(dtype, s.data, 0, random_layout(rng, true));
        HostTensor out(dtype, s.data);
        const bool nan = reduction == SCATTER_REDUCTION_MAX || reduction == SCATTER_REDUCTION_MIN;
        fill_gradient_values(data, rng, nan);
        fill_gradient_values(updates, rng, nan);
        fill_gradient_values(grad_out, rng, false);
        IndexProfile profile;
        profile.hot_targets = 2;
        profile.negative_rate = 0.2;
        profile.out_of_range_rate = policy == SCATTER_OUT_OF_RANGE_ERROR ? 0.0 : 0.2;
        const int32_t axis = s.axis;
        fill_random_indices(indices, [&](const int64_t* p) {
            return op == Op::nd ? s.data[size_t(p[s.indices.size() - 1])] : s.data[size_t(axis)];
        }, profile, rng);
        scatter_options options = SCATTER_OPTIONS_INIT;
        options.axis = rng() % 2 == 0 || op == Op::nd ? axis : axis - int32_t(s.data.size());
        options.reduction = reduction;
        options.out_of_range = policy;
        options.flags = exclude_self ? SCATTER_OPTION_EXCLUDE_SELF : 0u;
        const bool want_data = rng() % 4 != 0, want_updates = !want_data || rng() % 3 != 0;

        const scatter_tensor d = data.descriptor(), i = indices.descriptor(), u = updates.descriptor();
        const scatter_tensor g = grad_out.descriptor(), o = out.descriptor();
        const scatter_context cpu = cpu_backends().front().context;
        const scatter_status forward = forward_of(op)(cpu, &d, &i, &u, &options, &o);

        HostTensor expected_data(dtype, s.data), expected_updates(dtype, s.updates);
        const scatter_tensor ed = expected_data.descriptor(), eu = expected_updates.descriptor();
        const scatter_status expected = scatter_reference::scatter_backward(
            op, &d, &i, &u, &o, &g, &options, want_data ? &ed : nullptr, want_updates ? &eu : nullptr);
        EXPECT_EQ(expected, forward) << describe() << ": the oracle and the forward disagree on the indices";
        if (expected != forward) return false;

        for (const TestBackend& backend : cpu_backends()) {
            HostTensor grad_data(dtype, s.data, 0, random_layout(rng, false));
            HostTensor grad_updates(dtype, s.updates, 0, random_layout(rng, false));
            grad_data.fill_sentinel(3);
            grad_updates.fill_sentinel(5);
            const HostTensor data_before = grad_data, updates_before = grad_updates;
            const scatter_tensor gd = grad_data.descriptor(), gu = grad_updates.descriptor();
            const scatter_status status = backward_of(op)(backend.context, &d, &i, &u, &o, &g, &options,
                                                          want_data ? &gd : nullptr, want_updates ? &gu : nullptr);
            EXPECT_EQ(status, expected) << describe() << " on " << backend.name << ": " << scatter_last_error_message();
            if (status != SCATTER_OK || !want_data) {
                EXPECT_EQ(grad_data.storage(), data_before.storage()) << describe();
            }
            if (status != SCATTER_OK || !want_updates) {
                EXPECT_EQ(grad_updates.storage(), updates_before.storage()) << describe();
            }
            if (status != SCATTER_OK) continue;
            if (want_data) {
                EXPECT_EQ(first_difference(grad_data, expected_data), -1) << describe() << " grad_data on " << backend.name;
                EXPECT_FALSE(grad_data.gaps_differ(data_before)) << describe();
            }
            if (want_updates) {
                EXPECT_EQ(first_difference(grad_updates, expected_updates), -1)
                    << describe() << " grad_updates on " << backend.name;
                EXPECT_FALSE(grad_updates.gaps_differ(updates_before)) << describe();
            }
        }
        return expected == SCATTER_OK && data.element_count() > 0 && updates.element_count() > 0;
    }
};

TEST(Backward, EveryRuleAgainstTheOracle) {
    uint64_t seed = 1;
    int cases = 0, useful = 0;
    for (Op op : all_ops())
        for (scatter_reduction reduction : kReductions)
            for (scatter_dtype dtype : kFloatDtypes)
                for (scatter_out_of_range policy : kPolicies)
                    for (int exclude = 0; exclude < 2; ++exclude)
                        for (scatter_dtype index_dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_I64})
                            for (int repeat = 0; repeat < 3; ++repeat) {
                                ++cases;
                                useful += ScatterBackwardCase{op, dtype, index_dtype, reduction, policy, exclude != 0,
                                                              seed++}.run();
                                if (HasFailure()) return;
                            }
    // Most cases must do real work, not fail on an index or be empty.
    EXPECT_GT(useful, cases * 6 / 10) << useful << " of " << cases;
}

// Sizes past the element-wise passes' chunk (2^15 elements) and the kernels' split thresholds,
// so that 2 and 7 threads really split the work.
TEST(Backward, LargeCasesSplitAcrossThreads) {
    uint64_t seed = 100000;
    for (Op op : all_ops())
        for (scatter_reduction reduction : kReductions) {
            ScatterBackwardCase c{op, SCATTER_DTYPE_F32, SCATTER_DTYPE_I64, reduction, SCATTER_OUT_OF_RANGE_SKIP,
                                  seed % 2 == 0, seed};
            c.max_dim = 60;
            ++seed;
            EXPECT_TRUE(c.run()) << c.describe();
            if (HasFailure()) return;
        }
}

using GatherBackwardFn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                            const scatter_gather_options*, const scatter_tensor*);

GatherBackwardFn gather_backward_of(Op op) {
    return op == Op::elements ? scatter_gather_elements_backward
                              : op == Op::rows ? scatter_gather_rows_backward : scatter_gather_nd_backward;
}

// Shapes of a gather: data (grad_data), indices, out (grad_out); axis, batch_dims.
struct GatherShapes {
    Shape data, indices, out;
    int32_t axis = 0;
    uint32_t batch_dims = 0;
};

GatherShapes random_gather_shapes(Op op, Rng& rng, int64_t max_dim) {
    GatherShapes g;
    if (op != Op::nd) {
        const Shapes s = random_shapes(op, rng, max_dim);
        g.data = s.data;
        g.indices = s.indices;
        g.out = s.updates;
        g.axis = s.axis;
        return g;
    }
    const uint32_t r = 1 + uint32_t(rng() % 4), b = uint32_t(rng() % r), k = 1 + uint32_t(rng() % (r - b));
    const uint32_t heads = b + uint32_t(rng() % 2);
    for (uint32_t d = 0; d < r; ++d) g.data.push_back(dim(rng, max_dim));
    for (uint32_t d = 0; d < heads; ++d) g.indices.push_back(d < b ? g.data[d] : dim(rng, max_dim + 2));
    g.indices.push_back(k);
    g.batch_dims = b;
    for (uint32_t d = 0; d < heads; ++d) g.out.push_back(g.indices[d]);
    for (uint32_t d = b + k; d < r; ++d) g.out.push_back(g.data[d]);
    return g;
}

void run_gather_backward_case(Op op, scatter_dtype dtype, scatter_dtype index_dtype, scatter_out_of_range policy,
                              uint64_t seed, int64_t max_dim, const std::vector<TestBackend>& backends = cpu_backends()) {
    Rng rng(seed);
    const GatherShapes s = random_gather_shapes(op, rng, max_dim);
    const std::string what = std::string(op_name(op)) + " " + dtype_label(dtype) + " " + dtype_label(index_dtype) +
                             " " + policy_label(policy) + " seed " + std::to_string(seed);
    HostTensor indices(index_dtype, s.indices, 0, random_layout(rng, true));
    HostTensor grad_out(dtype, s.out, 0, random_layout(rng, true));
    fill_gradient_values(grad_out, rng, false);
    IndexProfile profile;
    profile.hot_targets = 2;
    profile.negative_rate = 0.2;
    profile.out_of_range_rate = policy == SCATTER_OUT_OF_RANGE_ERROR ? 0.0 : 0.2;
    fill_random_indices(indices, [&](const int64_t* p) {
        return op == Op::nd ? s.data[s.batch_dims + size_t(p[s.indices.size() - 1])] : s.data[size_t(s.axis)];
    }, profile, rng);
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
    options.axis = s.axis;
    options.batch_dims = s.batch_dims;
    options.out_of_range = policy;
    const scatter_tensor i = indices.descriptor(), g = grad_out.descriptor();
    HostTensor expected(dtype, s.data);
    const scatter_tensor e = expected.descriptor();
    const scatter_status expected_status = scatter_reference::gather_backward(op, &i, &g, &options, &e);
    for (const TestBackend& backend : backends) {
        HostTensor grad_data(dtype, s.data, 0, random_layout(rng, false));
        grad_data.fill_sentinel(7);
        const HostTensor before = grad_data;
        const scatter_tensor gd = grad_data.descriptor();
        const scatter_status status = gather_backward_of(op)(backend.context, &i, &g, &options, &gd);
        ASSERT_EQ(status, expected_status) << what << " on " << backend.name << ": " << scatter_last_error_message();
        if (status != SCATTER_OK) {
            EXPECT_EQ(grad_data.storage(), before.storage()) << what;
            continue;
        }
        EXPECT_EQ(first_difference(grad_data, expected), -1) << what << " on " << backend.name;
        EXPECT_FALSE(grad_data.gaps_differ(before)) << what;
    }
}

TEST(Backward, GatherBackwardAgainstTheOracle) {
    const scatter_out_of_range policies[] = {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_CLAMP,
                                             SCATTER_OUT_OF_RANGE_FILL};
    uint64_t seed = 500000;
    for (Op op : all_ops())
        for (scatter_dtype dtype : kFloatDtypes)
            for (scatter_out_of_range policy : policies)
                for (scatter_dtype index_dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_I64})
                    for (int repeat = 0; repeat < 4; ++repeat) {
                        run_gather_backward_case(op, dtype, index_dtype, policy, seed++, 4);
                        if (HasFatalFailure()) return;
                    }
    for (Op op : all_ops()) run_gather_backward_case(op, SCATTER_DTYPE_F32, SCATTER_DTYPE_I64, SCATTER_OUT_OF_RANGE_FILL, seed++, 60);
}

// Gather's backward on Vulkan (lavapipe in CI): the forward scatter-add run by the Vulkan
// backend, bitwise equal to the oracle (and so to the CPU).
TEST(Backward, GatherBackwardOnVulkanAgainstTheOracle) {
    std::string why;
    const scatter_context vulkan = vulkan_context(&why);
    if (vulkan == nullptr) {
        if (vulkan_required()) FAIL() << "Vulkan required: " << why;
        GTEST_SKIP() << "no Vulkan: " << why;
    }
    const std::vector<TestBackend> backends = {{"vulkan", vulkan}};
    const scatter_out_of_range policies[] = {SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_CLAMP,
                                             SCATTER_OUT_OF_RANGE_FILL};
    uint64_t seed = 700000;
    for (Op op : all_ops())
        for (scatter_dtype dtype : kFloatDtypes)
            for (scatter_out_of_range policy : policies)
                for (scatter_dtype index_dtype : {SCATTER_DTYPE_I32, SCATTER_DTYPE_I64}) {
                    run_gather_backward_case(op, dtype, index_dtype, policy, seed++, 4, backends);
                    if (HasFatalFailure()) return;
                }
    for (Op op : all_ops())
        run_gather_backward_case(op, SCATTER_DTYPE_F32, SCATTER_DTYPE_I64, SCATTER_OUT_OF_RANGE_FILL, seed++, 60, backends);
}

}  // namespace
}  // namespace scatter_test

namespace scatter_test {
namespace {

ContextPtr backward_context(scatter_backend backend, uint32_t flags) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend;
    desc.flags = flags;
    desc.thread_count = 2;
    scatter_context context = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &context), SCATTER_OK) << scatter_last_error_message();
    return ContextPtr(context);
}

// A small rows max backward: data [4, 3], indices [3] with a duplicate, updates [3, 3].
struct SmallRowsMax {
    HostTensor data{SCATTER_DTYPE_F32, {4, 3}}, indices{SCATTER_DTYPE_I32, {3}}, updates{SCATTER_DTYPE_F32, {3, 3}};
    HostTensor out{SCATTER_DTYPE_F32, {4, 3}}, grad_out{SCATTER_DTYPE_F32, {4, 3}};
    HostTensor grad_data{SCATTER_DTYPE_F32, {4, 3}}, grad_updates{SCATTER_DTYPE_F32, {3, 3}};
    scatter_options options = SCATTER_OPTIONS_INIT;
    SmallRowsMax() {
        fill_values(data, {1, 5, 2, 0, 0, 0, 3, 3, 3, 7, 7, 7});
        fill_values(indices, {2, 0, 2});
        fill_values(updates, {3, 1, 4, 1, 5, 2, 3, 9, 3});
        fill_values(grad_out, {10, 20, 30, 40, 50, 60, 70, 80, 90, 1, 2, 3});
        options.reduction = SCATTER_REDUCTION_MAX;
    }
    scatter_status run(scatter_context context, scatter_tensor* gd, scatter_tensor* gu) {
        const scatter_tensor d = data.descriptor(), i = indices.descriptor(), u = updates.descriptor();
        const scatter_tensor o = out.descriptor(), g = grad_out.descriptor();
        EXPECT_EQ(scatter_rows(context, &d, &i, &u, &options, &o), SCATTER_OK) << scatter_last_error_message();
        return scatter_rows_backward(context, &d, &i, &u, &o, &g, &options, gd, gu);
    }
};

// Worked by hand (docs/semantics.md, "Backward"): row 2 is max(3 3 3; 3 1 4; 3 9 3) = 3 9 4,
// ties: column 0 three ways (data, update 0, update 2) -> 70/3 each; column 1 update 2 alone;
// column 2 update 0 alone. Row 0 is max(1 5 2; 1 5 2) = 1 5 2, every column tied 2 ways.
TEST(Backward, RowsMaxByHand) {
    ContextPtr context = backward_context(SCATTER_BACKEND_CPU, 0);
    SmallRowsMax call;
    scatter_tensor gd = call.grad_data.descriptor(), gu = call.grad_updates.descriptor();
    ASSERT_EQ(call.run(context.get(), &gd, &gu), SCATTER_OK) << scatter_last_error_message();
    const float third = 70.0f / 3.0f;
    const float expected_data[12] = {5, 10, 15, 40, 50, 60, third, 0, 0, 1, 2, 3};
    const float expected_updates[9] = {third, 0, 90, 5, 10, 15, third, 80, 0};
    EXPECT_EQ(std::memcmp(call.grad_data.logical_bytes().data(), expected_data, sizeof expected_data), 0);
    EXPECT_EQ(std::memcmp(call.grad_updates.logical_bytes().data(), expected_updates, sizeof expected_updates), 0);
}

TEST(Backward, ProfiledAndRoutedLikeTheOperations) {
    for (scatter_backend backend : {SCATTER_BACKEND_CPU, SCATTER_BACKEND_AUTO}) {
        ContextPtr context = backward_context(backend, SCATTER_CONTEXT_FLAG_PROFILE);
        SmallRowsMax call;
        scatter_tensor gd = call.grad_data.descriptor();
        ASSERT_EQ(call.run(context.get(), &gd, nullptr), SCATTER_OK) << scatter_last_error_message();
        scatter_profile profile{};
        profile.struct_size = sizeof profile;
        ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK);
        EXPECT_EQ(profile.backend, SCATTER_BACKEND_CPU);
        ASSERT_EQ(profile.pass_count, 1u);
        EXPECT_STREQ(profile.passes[0].name, "cpu_backward");

        const scatter_tensor i = call.indices.descriptor(), g = call.updates.descriptor();
        ASSERT_EQ(scatter_gather_rows_backward(context.get(), &i, &g, nullptr, &gd), SCATTER_OK)
            << scatter_last_error_message();
        ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK);
        EXPECT_EQ(profile.backend, SCATTER_BACKEND_CPU);
        ASSERT_EQ(profile.pass_count, 1u);
        EXPECT_STREQ(profile.passes[0].name, "cpu_gather_backward");
    }
}

// Buffer tensors of a CPU context give the host tensors' result.
TEST(Backward, BufferTensorsOfACpuContext) {
    ContextPtr context = backward_context(SCATTER_BACKEND_CPU, 0);
    SmallRowsMax host, buffered;
    scatter_tensor gd = host.grad_data.descriptor(), gu = host.grad_updates.descriptor();
    ASSERT_EQ(host.run(context.get(), &gd, &gu), SCATTER_OK) << scatter_last_error_message();
    const size_t bytes = host.grad_updates.storage().size();
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(context.get(), bytes + 16, &buffer), SCATTER_OK);
    scatter_tensor bgd = buffered.grad_data.descriptor(), bgu = buffered.grad_updates.descriptor();
    bgu.data = nullptr;
    bgu.buffer = buffer;
    bgu.byte_offset = 16;
    ASSERT_EQ(buffered.run(context.get(), &bgd, &bgu), SCATTER_OK) << scatter_last_error_message();
    std::vector<uint8_t> read(bytes);
    ASSERT_EQ(scatter_buffer_read(buffer, 16, read.data(), bytes), SCATTER_OK);
    EXPECT_EQ(read, host.grad_updates.storage());
    EXPECT_EQ(buffered.grad_data.storage(), host.grad_data.storage());
    scatter_buffer_destroy(buffer);
}

}  // namespace
}  // namespace scatter_test
