// The context's own thread pool and the adapter for an application's job system.
#include "core/task_runner.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace scatter {
namespace {

// Workers sleep until a job is posted; the posting thread works on the job too. One job runs at a
// time; a second thread that posts while a job runs does its tasks itself instead of waiting.
class ThreadPool final : public TaskRunner {
public:
    // Nothing here throws once a worker runs (an exception would unwind past workers waiting on
    // this object's condition variable, and destroying it would then hang): the vector is
    // reserved first, and a refused thread ends the loop instead.
    ThreadPool(uint32_t threads, const ThreadStarter& start) {
        workers_.reserve(threads - 1);
        for (uint32_t i = 1; i < threads; ++i) {
            std::thread worker;
            if (!start(&worker, [this] { worker_loop(); })) break;
            workers_.push_back(std::move(worker));
        }
        threads_ = uint32_t(workers_.size()) + 1;
    }

    ~ThreadPool() override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }

    uint32_t concurrency() const override { return threads_; }

    Status run(uint32_t count, scatter_task_fn task, void* data) override {
        std::unique_lock<std::mutex> job_lock(job_mutex_, std::try_to_lock);
        if (workers_.empty() || !job_lock.owns_lock()) {
            for (uint32_t i = 0; i < count; ++i) task(data, i);
            return Status();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            task_ = task;
            data_ = data;
            count_ = count;
            next_.store(0, std::memory_order_relaxed);
            done_ = 0;
            ++generation_;
        }
        wake_.notify_all();
        uint32_t mine = work(task, data, count);
        std::unique_lock<std::mutex> lock(mutex_);
        done_ += mine;
        // Wait for every task and for every worker to leave work(), so that no late worker
        // touches the next job's state.
        finished_.wait(lock, [&] { return done_ == count_ && active_ == 0; });
        task_ = nullptr;
        return Status();
    }

private:
    uint32_t work(scatter_task_fn task, void* data, uint32_t count) {
        uint32_t completed = 0;
        for (;;) {
            uint32_t i = next_.fetch_add(1, std::memory_order_relaxed);
            if (i >= count) return completed;
            task(data, i);
            ++completed;
        }
    }

    void worker_loop() {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && task_ != nullptr); });
            if (stopping_) return;
            seen = generation_;
            scatter_task_fn task = task_;
            void* data = data_;
            uint32_t count = count_;
            ++active_;
            lock.unlock();
            uint32_t mine = work(task, data, count);
            lock.lock();
            done_ += mine;
            --active_;
            if (done_ == count_ && active_ == 0) finished_.notify_all();
        }
    }

    uint32_t threads_ = 1;
    std::vector<std::thread> workers_;
    std::mutex job_mutex_;  // one job at a time
    std::mutex mutex_;      // guards the fields below
    std::condition_variable wake_, finished_;
    scatter_task_fn task_ = nullptr;
    void* data_ = nullptr;
    uint32_t count_ = 0;
    uint32_t done_ = 0;
    uint32_t active_ = 0;  // workers inside work()
    uint64_t generation_ = 0;
    bool stopping_ = false;
    std::atomic<uint32_t> next_{0};
};

class JobSystemRunner final : public TaskRunner {
public:
    JobSystemRunner(scatter_parallel_for_fn fn, void* user) : fn_(fn), user_(user) {}
    uint32_t concurrency() const override {
        unsigned n = std::thread::hardware_concurrency();
        return n == 0 ? 1 : n;
    }
    // Index validation runs through the job system too: a callback that drops tasks would turn
    // bad input into SCATTER_OK, so the tasks that ran are counted. Indices outside [0, count) are
    // ignored rather than trusted.
    Status run(uint32_t count, scatter_task_fn task, void* data) override {
        Counted counted{task, data, count, {0}};
        fn_(user_, count, &Counted::run_one, &counted);
        const uint32_t done = counted.done.load(std::memory_order_acquire);
        if (done != count)
            return make_error(SCATTER_ERROR_INTERNAL,
                              "the parallel_for callback of scatter_context_desc returned after running %u of %u "
                              "tasks; it must run every task once before it returns",
                              done, count);
        return Status();
    }

private:
    struct Counted {
        scatter_task_fn task;
        void* data;
        uint32_t count;
        std::atomic<uint32_t> done;
        static void run_one(void* self, uint32_t i) {
            Counted* c = static_cast<Counted*>(self);
            if (i >= c->count) return;
            c->task(c->data, i);
            c->done.fetch_add(1, std::memory_order_acq_rel);
        }
    };

    scatter_parallel_for_fn fn_;
    void* user_;
};

}  // namespace

bool start_std_thread(std::thread* thread, std::function<void()> body) {
    // std::thread reports a refused thread (EAGAIN under a process or pid limit) as
    // std::system_error, and its own allocation as std::bad_alloc: either way, no thread.
    try {
        *thread = std::thread(std::move(body));
        return true;
    } catch (...) {
        return false;
    }
}

uint32_t wanted_thread_count(uint32_t threads) {
    if (threads == 0) threads = std::thread::hardware_concurrency();
    if (threads == 0) threads = 1;
    return threads < SCATTER_MAX_THREAD_COUNT ? threads : SCATTER_MAX_THREAD_COUNT;
}

std::unique_ptr<TaskRunner> make_thread_pool(uint32_t threads, const ThreadStarter& start) {
    return std::make_unique<ThreadPool>(wanted_thread_count(threads), start);
}

std::unique_ptr<TaskRunner> make_job_system_runner(scatter_parallel_for_fn fn, void* user) {
    return std::make_unique<JobSystemRunner>(fn, user);
}

}  // namespace scatter
