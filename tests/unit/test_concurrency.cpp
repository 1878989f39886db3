// One context used from 4 threads at once: every call gives the same bytes as on one thread.
#include "scatter_call.h"

#include <atomic>
#include <thread>

namespace scatter_test {
namespace {

// A call with duplicates, large enough that the context's own threads split it.
std::unique_ptr<ScatterCall> busy_call(Op op, scatter_reduction reduction, int seed) {
    HostTensor data(SCATTER_DTYPE_F32, {256, 64});
    for (int64_t i = 0; i < data.element_count(); ++i) data.set(i, 0.5 * ((i + seed) % 11));
    HostTensor indices, updates;
    switch (op) {
    case Op::elements:
        indices = HostTensor(SCATTER_DTYPE_I64, {512, 64});
        updates = HostTensor(SCATTER_DTYPE_F32, {512, 64});
        break;
    case Op::rows:
        indices = HostTensor(SCATTER_DTYPE_I64, {1024});
        updates = HostTensor(SCATTER_DTYPE_F32, {1024, 64});
        break;
    case Op::nd:
        indices = HostTensor(SCATTER_DTYPE_I64, {1024, 1});
        updates = HostTensor(SCATTER_DTYPE_F32, {1024, 64});
        break;
    }
    for (int64_t i = 0; i < indices.element_count(); ++i)
        indices.set(i, static_cast<double>((i * 131 + seed) % 256));
    for (int64_t i = 0; i < updates.element_count(); ++i)
        updates.set(i, 0.125 * ((i * 7 + seed) % 17) + 0.25);
    auto call = std::make_unique<ScatterCall>(op, std::move(data), std::move(indices),
                                              std::move(updates));
    call->reduction(reduction);
    return call;
}

TEST(Concurrency, FourThreadsShareOneContext) {
    ContextPtr shared = make_test_context(2);
    const Op ops[] = {Op::elements, Op::rows, Op::nd, Op::rows};
    const scatter_reduction reductions[] = {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_MEAN,
                                            SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MUL};

    // Expected bytes from a one-thread context, one call at a time.
    std::vector<std::vector<uint8_t>> expected(4);
    {
        ContextPtr single = make_test_context(1);
        for (int t = 0; t < 4; ++t) {
            auto call = busy_call(ops[t], reductions[t], t);
            ASSERT_EQ(call->run(single.get()), SCATTER_OK) << scatter_last_error_message();
            expected[t] = call->out.storage();
        }
    }

    constexpr int kRounds = 20;
    std::atomic<int> mismatches{0}, failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < kRounds; ++round) {
                auto call = busy_call(ops[t], reductions[t], t);
                if (round % 2 == 1) {  // also interleave failing calls on the same context
                    call->indices.set(0, 100000);
                    if (call->run(shared.get()) != SCATTER_ERROR_INDEX_OUT_OF_RANGE) ++failures;
                    call = busy_call(ops[t], reductions[t], t);
                }
                if (call->run(shared.get()) != SCATTER_OK) {
                    ++failures;
                    continue;
                }
                if (call->out.storage() != expected[t]) ++mismatches;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(failures, 0);
    EXPECT_EQ(mismatches, 0);
}

TEST(Concurrency, ContextsCreatedAndDestroyedFromManyThreads) {
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10; ++i) {
                scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
                desc.backend = SCATTER_BACKEND_CPU;
                desc.thread_count = 2;
                scatter_context context = nullptr;
                if (scatter_context_create(&desc, &context) != SCATTER_OK) {
                    ++failures;
                    continue;
                }
                auto call = valid_call(Op::elements);
                if (call->run(context) != SCATTER_OK) ++failures;
                scatter_context_destroy(context);
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace scatter_test
