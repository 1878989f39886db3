// The context's own thread pool when the system refuses threads (a process or pid limit): built
// from src/core directly, with a thread starter that fails from the N-th start on. The pool must
// keep the threads that started, run every task, and be destroyed without hanging.
#include "core/task_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace scatter {
namespace {

// Starts real threads until `allowed` have started, then refuses, as pthread_create does with
// EAGAIN under RLIMIT_NPROC.
struct LimitedStarter {
    uint32_t allowed;
    std::atomic<uint32_t> attempts{0};
    bool operator()(std::thread* thread, std::function<void()> body) {
        if (attempts++ >= allowed) return false;
        return start_std_thread(thread, std::move(body));
    }
};

void expect_runs_every_task(TaskRunner& runner) {
    std::vector<std::atomic<int>> ran(1000);
    Status status = parallel_for(runner, 1000, [&](uint32_t i) { ++ran[i]; });
    ASSERT_TRUE(status.ok()) << status.message();
    for (uint32_t i = 0; i < ran.size(); ++i) ASSERT_EQ(ran[i].load(), 1) << "task " << i;
}

TEST(ThreadPool, KeepsTheThreadsThatStartedWhenTheSystemRefusesMore) {
    for (uint32_t allowed : {0u, 1u, 5u}) {
        SCOPED_TRACE(allowed);
        LimitedStarter limit{allowed};
        std::unique_ptr<TaskRunner> pool = make_thread_pool(64, std::ref(limit));
        EXPECT_EQ(pool->concurrency(), allowed + 1) << "the caller's thread and the workers that started";
        EXPECT_EQ(limit.attempts.load(), allowed + 1) << "stops at the first refusal";
        expect_runs_every_task(*pool);
        pool.reset();  // joins the started workers; used to hang
    }
}

TEST(ThreadPool, AbsurdThreadCountsAreCapped) {
    EXPECT_EQ(wanted_thread_count(SCATTER_MAX_THREAD_COUNT + 1), SCATTER_MAX_THREAD_COUNT);
    EXPECT_EQ(wanted_thread_count(UINT32_MAX), SCATTER_MAX_THREAD_COUNT);
    EXPECT_EQ(wanted_thread_count(3), 3u);
    EXPECT_GE(wanted_thread_count(0), 1u);
    LimitedStarter refuse_all{0};
    std::unique_ptr<TaskRunner> pool = make_thread_pool(UINT32_MAX, std::ref(refuse_all));
    EXPECT_EQ(refuse_all.attempts.load(), 1u);
    EXPECT_EQ(pool->concurrency(), 1u);
}

}  // namespace
}  // namespace scatter
