// TaskRunner: how host work is spread over threads — the context's own pool or the
// application's job system (scatter_parallel_for_fn).
#pragma once

#include "core/status.h"

#include <scatter/scatter.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <utility>

namespace scatter {

class TaskRunner {
public:
    virtual ~TaskRunner() = default;
    // How many tasks can usefully run at once.
    virtual uint32_t concurrency() const = 0;
    // Runs task(data, i) for i in [0, count) and returns when all have finished; fails when the
    // application's job system returned without running every task.
    virtual Status run(uint32_t count, scatter_task_fn task, void* data) = 0;
};

// A pool's worker thread, started with a small explicit stack (kWorkerStackBytes on POSIX
// systems; Windows' default is already 1 MiB): the kernels need a few KiB, and the usual 8 MiB
// default of each of a thousand threads would take a process's whole address-space limit.
class WorkerThread {
public:
    static constexpr size_t kWorkerStackBytes = size_t(1) << 20;
    WorkerThread();
    WorkerThread(WorkerThread&& other) noexcept;
    WorkerThread& operator=(WorkerThread&& other) noexcept;
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;
    ~WorkerThread();  // joins

    // Starts the thread running body; false when the system refuses it.
    bool start(std::function<void()> body);
    void join();

private:
    struct Native;
    std::unique_ptr<Native> native_;
};

// Starts *thread running body; false when the system refuses a thread (a process, thread or
// memory limit). Tests pass their own to make the N-th start fail.
using ThreadStarter = std::function<bool(WorkerThread* thread, std::function<void()> body)>;
bool start_worker_thread(WorkerThread* thread, std::function<void()> body);

// The number of hardware threads (at least 1).
uint32_t hardware_thread_count();

// The number of threads a pool asked for `threads` wants: 0 means one per hardware thread, and
// more than SCATTER_MAX_THREAD_COUNT means SCATTER_MAX_THREAD_COUNT.
uint32_t wanted_thread_count(uint32_t threads);

// A runner with wanted_thread_count(threads) threads in all (the caller's included). When the
// system refuses a thread, the pool keeps those that started, but at most `hardware_threads`
// (the refusal says memory or threads ran short, and threads beyond the hardware's cannot
// help): concurrency() says how many. It never fails, and results do not depend on the count.
std::unique_ptr<TaskRunner> make_thread_pool(uint32_t threads, const ThreadStarter& start = start_worker_thread,
                                             uint32_t hardware_threads = hardware_thread_count());

// A runner that hands the tasks to the application's job system.
std::unique_ptr<TaskRunner> make_job_system_runner(scatter_parallel_for_fn fn, void* user);

// Runs fn(i) for i in [0, count) on the runner; fn must not throw.
template <class Fn>
Status parallel_for(TaskRunner& runner, uint32_t count, Fn&& fn) {
    if (count == 0) return Status();
    if (count == 1) {
        fn(0u);
        return Status();
    }
    using F = std::remove_reference_t<Fn>;
    return runner.run(count, [](void* data, uint32_t i) { (*static_cast<F*>(data))(i); },
                      const_cast<void*>(static_cast<const void*>(&fn)));
}

}  // namespace scatter
