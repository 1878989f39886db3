// Failure injection: an allocator that fails the i-th allocation. For i = 0, 1, 2, ... each
// scenario must fail with OUT_OF_MEMORY and `out` unchanged, leak nothing, and leave the context
// usable — until i passes the number of allocations the call makes and it succeeds.
#include "scatter_call.h"

#include <atomic>
#include <cstdlib>
#include <functional>
#include <iostream>

namespace scatter_test {
namespace {

class FailingAllocator {
public:
    scatter_allocator table() { return {this, &allocate, &release}; }

    // Counts allocations from 0 again and fails number fail_at (-1: none).
    void arm(int64_t fail_at) {
        count_ = 0;
        failed_ = false;
        fail_at_ = fail_at;
    }
    // Stops failing; count() and failed() keep describing the armed run.
    void disarm() { fail_at_ = -1; }
    int64_t count() const { return count_; }
    bool failed() const { return failed_; }
    int64_t live() const { return live_; }

private:
    static void* allocate(void* user, size_t size, size_t alignment) {
        auto* self = static_cast<FailingAllocator*>(user);
        if (self->count_++ == self->fail_at_) {
            self->failed_ = true;
            return nullptr;
        }
        if (alignment < sizeof(void*)) alignment = sizeof(void*);
        const size_t rounded = (size + alignment - 1) / alignment * alignment;
        void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
        if (p != nullptr) ++self->live_;
        return p;
    }
    static void release(void* user, void* p) {
        if (p == nullptr) return;
        --static_cast<FailingAllocator*>(user)->live_;
        std::free(p);
    }

    std::atomic<int64_t> count_{0};
    std::atomic<int64_t> fail_at_{-1};
    std::atomic<bool> failed_{false};
    std::atomic<int64_t> live_{0};
};

constexpr int64_t kMaxSweep = 10000;

// A representative call: name, context threads, and the call itself.
struct Scenario {
    const char* name;
    uint32_t thread_count;
    std::function<std::unique_ptr<ScatterCall>()> make;
};

// Many updates aimed at few targets (duplicates), big enough to be split across threads.
std::unique_ptr<ScatterCall> large_rows_call() {
    HostTensor data(SCATTER_DTYPE_F32, {512, 64});
    data.fill(1.0);
    HostTensor indices(SCATTER_DTYPE_I64, {8192});
    for (int64_t i = 0; i < 8192; ++i) indices.set(i, static_cast<double>((i * 7919) % 512));
    HostTensor updates(SCATTER_DTYPE_F32, {8192, 64});
    for (int64_t i = 0; i < updates.element_count(); ++i) updates.set(i, static_cast<double>(i % 13));
    auto call = std::make_unique<ScatterCall>(Op::rows, std::move(data), std::move(indices),
                                              std::move(updates));
    call->reduction(SCATTER_REDUCTION_ADD);
    return call;
}

std::unique_ptr<ScatterCall> large_elements_call() {
    HostTensor data(SCATTER_DTYPE_F32, {256, 256});
    data.fill(2.0);
    HostTensor indices(SCATTER_DTYPE_I32, {256, 256});
    for (int64_t i = 0; i < indices.element_count(); ++i)
        indices.set(i, static_cast<double>((i * 31) % 256));
    HostTensor updates(SCATTER_DTYPE_F32, {256, 256});
    updates.fill(0.5);
    auto call = std::make_unique<ScatterCall>(Op::elements, std::move(data), std::move(indices),
                                              std::move(updates));
    call->reduction(SCATTER_REDUCTION_MEAN).flags(SCATTER_OPTION_EXCLUDE_SELF);
    return call;
}

const std::vector<Scenario>& scenarios() {
    static const std::vector<Scenario> all = {
        {"elements_mean_exclude_self", 1,
         [] {
             auto c = valid_call(Op::elements);
             c->reduction(SCATTER_REDUCTION_MEAN).flags(SCATTER_OPTION_EXCLUDE_SELF);
             return c;
         }},
        {"elements_add_f16", 1,
         [] {
             auto c = valid_call(Op::elements, SCATTER_DTYPE_F16);
             c->reduction(SCATTER_REDUCTION_ADD);
             return c;
         }},
        {"elements_max_in_place", 1,
         [] {
             auto c = valid_call(Op::elements, SCATTER_DTYPE_I64);
             c->reduction(SCATTER_REDUCTION_MAX).in_place();
             return c;
         }},
        {"rows_div_skip", 1,
         [] {
             auto c = valid_call(Op::rows, SCATTER_DTYPE_I32);
             c->indices.set(1, 99);
             c->reduction(SCATTER_REDUCTION_DIV).policy(SCATTER_OUT_OF_RANGE_SKIP);
             return c;
         }},
        {"nd_add", 1,
         [] {
             auto c = valid_call(Op::nd, SCATTER_DTYPE_F64);
             c->reduction(SCATTER_REDUCTION_ADD);
             return c;
         }},
        {"nd_opaque_none", 1, [] { return valid_call(Op::nd, SCATTER_DTYPE_OPAQUE, SCATTER_DTYPE_I32, 5); }},
        {"rows_add_2_threads", 2, large_rows_call},
        {"elements_mean_exclude_self_2_threads", 2, large_elements_call},
        // Tasks split the target rows by a histogram of the targets (its own allocation).
        {"rows_mean_exclude_self_4_threads", 4,
         [] {
             auto c = large_rows_call();
             c->reduction(SCATTER_REDUCTION_MEAN).flags(SCATTER_OPTION_EXCLUDE_SELF);
             return c;
         }},
    };
    return all;
}

scatter_status create_context(FailingAllocator& allocator, uint32_t thread_count,
                              scatter_context* context) {
    const scatter_allocator table = allocator.table();
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    desc.thread_count = thread_count;
    desc.allocator = &table;  // copied at creation
    return scatter_context_create(&desc, context);
}

// The bytes the call's destination holds after a successful run from the call's initial state.
std::vector<uint8_t>& destination(ScatterCall& call) {
    return call.out_desc.data == call.data_desc.data ? call.data.storage() : call.out.storage();
}

class AllocationFailure : public ::testing::TestWithParam<Scenario> {};

TEST_P(AllocationFailure, EveryFailedAllocationIsOutOfMemoryAndChangesNothing) {
    const Scenario& scenario = GetParam();
    FailingAllocator allocator;
    scatter_context context = nullptr;
    ASSERT_EQ(create_context(allocator, scenario.thread_count, &context), SCATTER_OK);

    auto reference = scenario.make();
    allocator.arm(-1);
    ASSERT_EQ(reference->run(context), SCATTER_OK) << scatter_last_error_message();
    const int64_t allocations_per_run = allocator.count();
    const std::vector<uint8_t> expected = destination(*reference);

    int64_t failures = 0;
    for (int64_t i = 0; i < kMaxSweep; ++i) {
        auto call = scenario.make();
        call->out.fill_sentinel(0x11);
        const std::vector<uint8_t> before = destination(*call);
        allocator.arm(i);
        const scatter_status status = call->run(context);
        allocator.disarm();
        if (!allocator.failed()) {
            EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
            EXPECT_TRUE(destination(*call) == expected) << "wrong result with no failure";
            break;
        }
        ++failures;
        SCOPED_TRACE(testing::Message() << "allocation " << i << " failed");
        EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_OUT_OF_MEMORY")
            << scatter_last_error_message();
        EXPECT_TRUE(is_one_sentence(scatter_last_error_message()));
        EXPECT_TRUE(destination(*call) == before) << "out changed by a failed call";
        // The context is still usable.
        ASSERT_EQ(call->run(context), SCATTER_OK) << scatter_last_error_message();
        EXPECT_TRUE(destination(*call) == expected) << "wrong result after a failed call";
    }
    scatter_context_destroy(context);
    EXPECT_EQ(allocator.live(), 0) << "allocations leaked";
    std::cout << scenario.name << ": " << allocations_per_run
              << " allocation(s) through the allocator per call, " << failures
              << " injected failure(s)\n";
    RecordProperty("allocations_per_call", static_cast<int>(allocations_per_run));
}

INSTANTIATE_TEST_SUITE_P(Scenarios, AllocationFailure, ::testing::ValuesIn(scenarios()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(AllocationFailureContext, CreateFailsCleanlyAtEveryAllocation) {
    for (uint32_t threads : {1u, 2u}) {
        FailingAllocator allocator;
        int64_t i = 0;
        for (; i < kMaxSweep; ++i) {
            scatter_context context = reinterpret_cast<scatter_context>(uintptr_t{0x77});
            allocator.arm(i);
            const scatter_status status = create_context(allocator, threads, &context);
            allocator.disarm();
            if (!allocator.failed()) {
                ASSERT_EQ(status, SCATTER_OK) << scatter_last_error_message();
                scatter_context_destroy(context);
                EXPECT_EQ(allocator.live(), 0) << "allocations leaked";
                break;
            }
            EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_OUT_OF_MEMORY");
            EXPECT_EQ(context, reinterpret_cast<scatter_context>(uintptr_t{0x77}));
            EXPECT_EQ(allocator.live(), 0) << "allocations leaked by a failed create";
        }
        std::cout << "context_create(" << threads << " threads): " << i
                  << " allocation(s) through the allocator\n";
    }
}

TEST(AllocationFailureContext, BufferCreateFailsCleanly) {
    FailingAllocator allocator;
    scatter_context context = nullptr;
    ASSERT_EQ(create_context(allocator, 1, &context), SCATTER_OK);
    int64_t i = 0;
    for (; i < kMaxSweep; ++i) {
        scatter_buffer buffer = nullptr;
        allocator.arm(i);
        const scatter_status status = scatter_buffer_create(context, 256, &buffer);
        allocator.disarm();
        if (!allocator.failed()) {
            ASSERT_EQ(status, SCATTER_OK);
            scatter_buffer_destroy(buffer);
            break;
        }
        EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_OUT_OF_MEMORY");
        EXPECT_EQ(buffer, nullptr);
    }
    scatter_context_destroy(context);
    EXPECT_EQ(allocator.live(), 0);
    std::cout << "buffer_create: " << i << " allocation(s) through the allocator\n";
}

}  // namespace
}  // namespace scatter_test

namespace scatter_test {
namespace {

// Message passing allocates hit counts (mean: one table per task when threads split the rows'
// elements) and a zero fill value (src FILL without one): every failure is OUT_OF_MEMORY before
// anything is written.
TEST(AllocationFailureMessagePassing, EveryFailedAllocationIsOutOfMemoryAndChangesNothing) {
    FailingAllocator allocator;
    scatter_context context = nullptr;
    ASSERT_EQ(create_context(allocator, 2, &context), SCATTER_OK);
    HostTensor data(SCATTER_DTYPE_F32, {300, 64}), x(SCATTER_DTYPE_F32, {200, 64});
    HostTensor src(SCATTER_DTYPE_I64, {4000}), dst(SCATTER_DTYPE_I32, {4000});
    data.fill(1.0);
    for (int64_t i = 0; i < x.element_count(); ++i) x.set(i, double(i % 17));
    for (int64_t e = 0; e < 4000; ++e) {
        src.set(e, double((e * 7919) % 250));  // 50 of 250 out of range: the fill value
        dst.set(e, double((e * 104729) % 300));
    }
    scatter_message_passing_options options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_MEAN;
    options.src_out_of_range = SCATTER_OUT_OF_RANGE_FILL;
    const scatter_tensor d = data.descriptor(), xt = x.descriptor(), s = src.descriptor(), t = dst.descriptor();
    auto run = [&](HostTensor& out) {
        const scatter_tensor o = out.descriptor();
        return scatter_message_passing(context, &d, &xt, &s, &t, nullptr, &options, &o);
    };
    HostTensor expected(SCATTER_DTYPE_F32, {300, 64});
    allocator.arm(-1);
    ASSERT_EQ(run(expected), SCATTER_OK) << scatter_last_error_message();
    int64_t failures = 0;
    for (int64_t i = 0; i < kMaxSweep; ++i) {
        HostTensor out(SCATTER_DTYPE_F32, {300, 64});
        out.fill_sentinel(0x11);
        const std::vector<uint8_t> before = out.storage();
        allocator.arm(i);
        const scatter_status status = run(out);
        allocator.disarm();
        if (!allocator.failed()) {
            EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
            EXPECT_TRUE(out.storage() == expected.storage()) << "wrong result with no failure";
            break;
        }
        ++failures;
        SCOPED_TRACE(testing::Message() << "allocation " << i << " failed");
        EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_OUT_OF_MEMORY") << scatter_last_error_message();
        EXPECT_TRUE(out.storage() == before) << "out changed by a failed call";
        ASSERT_EQ(run(out), SCATTER_OK) << scatter_last_error_message();
        EXPECT_TRUE(out.storage() == expected.storage()) << "wrong result after a failed call";
    }
    EXPECT_GE(failures, 1);
    scatter_context_destroy(context);
    EXPECT_EQ(allocator.live(), 0) << "allocations leaked";
}

// The backward calls allocate scratch tensors: every failure among them is OUT_OF_MEMORY with
// the gradients unchanged, and the context stays usable.
TEST(AllocationFailure, BackwardCallsFailCleanly) {
    FailingAllocator allocator;
    scatter_context context = nullptr;
    ASSERT_EQ(create_context(allocator, 2, &context), SCATTER_OK);
    HostTensor data(SCATTER_DTYPE_F32, {64, 33}), indices(SCATTER_DTYPE_I64, {20, 33}), updates(SCATTER_DTYPE_F32, {20, 33});
    HostTensor out(SCATTER_DTYPE_F32, {64, 33}), grad_out(SCATTER_DTYPE_F32, {64, 33});
    for (int64_t i = 0; i < data.element_count(); ++i) data.set(i, double(i % 3));
    for (int64_t i = 0; i < updates.element_count(); ++i) updates.set(i, double(i % 4));
    for (int64_t i = 0; i < indices.element_count(); ++i) indices.set(i, double((i * 7) % 64));
    grad_out.fill(1.5);
    const scatter_tensor d = data.descriptor(), x = indices.descriptor(), u = updates.descriptor();
    const scatter_tensor o = out.descriptor(), g = grad_out.descriptor();
    for (scatter_reduction reduction : {SCATTER_REDUCTION_MUL, SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_NONE}) {
        scatter_options options = SCATTER_OPTIONS_INIT;
        options.reduction = reduction;
        allocator.arm(-1);
        ASSERT_EQ(scatter_rows_backward(context, &d, &x, &u, &o, &g, &options, nullptr, nullptr),
                  SCATTER_ERROR_INVALID_ARGUMENT);
        ASSERT_EQ(scatter_elements(context, &d, &x, &u, &options, &o), SCATTER_OK) << scatter_last_error_message();
        int64_t failures = 0;
        for (int64_t i = 0; i < kMaxSweep; ++i) {
            HostTensor grad_data(SCATTER_DTYPE_F32, {64, 33}), grad_updates(SCATTER_DTYPE_F32, {20, 33});
            grad_data.fill_sentinel(1);
            grad_updates.fill_sentinel(2);
            const std::vector<uint8_t> data_before = grad_data.storage(), updates_before = grad_updates.storage();
            const scatter_tensor gd = grad_data.descriptor(), gu = grad_updates.descriptor();
            allocator.arm(i);
            const scatter_status status = scatter_elements_backward(context, &d, &x, &u, &o, &g, &options, &gd, &gu);
            allocator.disarm();
            if (!allocator.failed()) {
                EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
                break;
            }
            ++failures;
            SCOPED_TRACE(testing::Message() << "allocation " << i << " failed, reduction " << reduction);
            EXPECT_STREQ(scatter_status_name(status), "SCATTER_ERROR_OUT_OF_MEMORY") << scatter_last_error_message();
            EXPECT_TRUE(grad_data.storage() == data_before);
            EXPECT_TRUE(grad_updates.storage() == updates_before);
        }
        EXPECT_GT(failures, 0) << "no allocation to fail";
    }
    scatter_context_destroy(context);
    EXPECT_EQ(allocator.live(), 0) << "allocations leaked";
}

}  // namespace
}  // namespace scatter_test
