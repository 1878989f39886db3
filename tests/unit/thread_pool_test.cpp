// The context's own thread pool when the system refuses threads (a process or pid limit): built
// from src/core directly, with a thread starter that fails from the N-th start on. The pool must
// keep the threads that started, run every task, and be destroyed without hanging.
#include "core/task_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace scatter {
namespace {

// Starts real threads until `allowed` have started, then refuses, as pthread_create does with
// EAGAIN under RLIMIT_NPROC.
struct LimitedStarter {
    uint32_t allowed;
    std::atomic<uint32_t> attempts{0};
    bool operator()(WorkerThread* thread, std::function<void()> body) {
        if (attempts++ >= allowed) return false;
        return start_worker_thread(thread, std::move(body));
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
        std::unique_ptr<TaskRunner> pool = make_thread_pool(64, std::ref(limit), /*hardware_threads=*/64);
        EXPECT_EQ(pool->concurrency(), allowed + 1) << "the caller's thread and the workers that started";
        EXPECT_EQ(limit.attempts.load(), allowed + 1) << "stops at the first refusal";
        expect_runs_every_task(*pool);
        pool.reset();  // joins the started workers; used to hang
    }
}

// Under an address-space limit (ulimit -v) a refused thread means memory ran short: the threads
// beyond the hardware's, which cannot help, are ended so that the process gets that memory back.
TEST(ThreadPool, AfterARefusalKeepsAtMostTheHardwareThreads) {
    for (uint32_t hardware : {1u, 2u, 4u}) {
        SCOPED_TRACE(hardware);
        LimitedStarter limit{40};
        std::unique_ptr<TaskRunner> pool = make_thread_pool(1000, std::ref(limit), hardware);
        EXPECT_EQ(pool->concurrency(), hardware);
        expect_runs_every_task(*pool);
    }
    LimitedStarter few{1};
    EXPECT_EQ(make_thread_pool(1000, std::ref(few), 4)->concurrency(), 2u) << "fewer than the hardware: all kept";
    LimitedStarter unlimited{1000};
    EXPECT_EQ(make_thread_pool(7, std::ref(unlimited), 2)->concurrency(), 7u) << "asked for and granted: kept";
}

#if defined(__linux__)
// Workers run on a small explicit stack, not the 8 MiB default (asked of the thread itself).
TEST(ThreadPool, WorkersRunOnSmallStacks) {
    WorkerThread worker;
    size_t stack = 0;
    ASSERT_TRUE(start_worker_thread(&worker, [&] {
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
        pthread_attr_getstacksize(&attr, &stack);
        pthread_attr_destroy(&attr);
    }));
    worker.join();
    EXPECT_GT(stack, 0u);
    EXPECT_LE(stack, WorkerThread::kWorkerStackBytes + 64 * 1024);
}
#endif

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
