// The context's own thread pool and the adapter for an application's job system.
#include "core/task_runner.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <pthread.h>
#endif

namespace scatter {
namespace {

// Workers sleep until a job is posted; the posting thread works on the job too. One job runs at a
// time; a second thread that posts while a job runs does its tasks itself instead of waiting.
class ThreadPool final : public TaskRunner {
public:
    // Nothing here throws once a worker runs (an exception would unwind past workers waiting on
    // this object's condition variable, and destroying it would then hang): the vector is
    // reserved first, and a refused thread ends the loop instead.
    ThreadPool(uint32_t threads, const ThreadStarter& start, uint32_t hardware_threads) {
        workers_.reserve(threads - 1);
        for (uint32_t i = 1; i < threads; ++i) {
            WorkerThread worker;
            const uint32_t index = uint32_t(workers_.size());
            if (!start(&worker, [this, index] { worker_loop(index); })) {
                retire_workers_beyond(hardware_threads > 1 ? hardware_threads - 1 : 0);
                break;
            }
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
        for (WorkerThread& t : workers_) t.join();
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
    // Ends and joins the workers from index `keep` on (no job runs yet).
    void retire_workers_beyond(uint32_t keep) {
        if (keep >= workers_.size()) return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            keep_ = keep;
        }
        wake_.notify_all();
        for (size_t i = keep; i < workers_.size(); ++i) workers_[i].join();
        workers_.erase(workers_.begin() + keep, workers_.end());
    }

    uint32_t work(scatter_task_fn task, void* data, uint32_t count) {
        uint32_t completed = 0;
        for (;;) {
            uint32_t i = next_.fetch_add(1, std::memory_order_relaxed);
            if (i >= count) return completed;
            task(data, i);
            ++completed;
        }
    }

    void worker_loop(uint32_t index) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || index >= keep_ || (generation_ != seen && task_ != nullptr); });
            if (stopping_ || index >= keep_) return;
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
    std::vector<WorkerThread> workers_;
    uint32_t keep_ = UINT32_MAX;  // workers from this index on end (retire_workers_beyond)
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
    uint32_t concurrency() const override { return hardware_thread_count(); }
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

#if defined(_WIN32)
struct WorkerThread::Native {
    std::thread thread;
};

bool WorkerThread::start(std::function<void()> body) {
    // std::thread reports a refused thread as std::system_error, its own allocation as
    // std::bad_alloc: either way, no thread.
    try {
        auto native = std::make_unique<Native>();
        native->thread = std::thread(std::move(body));
        native_ = std::move(native);
        return true;
    } catch (...) {
        return false;
    }
}

void WorkerThread::join() {
    if (native_ != nullptr && native_->thread.joinable()) native_->thread.join();
    native_.reset();
}
#else
struct WorkerThread::Native {
    pthread_t thread;
    std::function<void()> body;
    static void* run(void* self) {
        static_cast<Native*>(self)->body();
        return nullptr;
    }
};

bool WorkerThread::start(std::function<void()> body) {
    std::unique_ptr<Native> native(new (std::nothrow) Native);
    if (native == nullptr) return false;
    try {
        native->body = std::move(body);
    } catch (...) {
        return false;
    }
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return false;
    size_t stack = kWorkerStackBytes;
#ifdef PTHREAD_STACK_MIN
    if (stack < size_t(PTHREAD_STACK_MIN)) stack = size_t(PTHREAD_STACK_MIN);
#endif
    bool started = pthread_attr_setstacksize(&attr, stack) == 0 &&
                   pthread_create(&native->thread, &attr, &Native::run, native.get()) == 0;
    pthread_attr_destroy(&attr);
    if (started) native_ = std::move(native);
    return started;
}

void WorkerThread::join() {
    if (native_ != nullptr) pthread_join(native_->thread, nullptr);
    native_.reset();
}
#endif

WorkerThread::WorkerThread() = default;
WorkerThread::WorkerThread(WorkerThread&& other) noexcept = default;
WorkerThread& WorkerThread::operator=(WorkerThread&& other) noexcept {
    if (this != &other) {
        join();
        native_ = std::move(other.native_);
    }
    return *this;
}
WorkerThread::~WorkerThread() { join(); }

bool start_worker_thread(WorkerThread* thread, std::function<void()> body) { return thread->start(std::move(body)); }

uint32_t hardware_thread_count() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : uint32_t(n);
}

uint32_t wanted_thread_count(uint32_t threads) {
    if (threads == 0) threads = hardware_thread_count();
    return threads < SCATTER_MAX_THREAD_COUNT ? threads : SCATTER_MAX_THREAD_COUNT;
}

std::unique_ptr<TaskRunner> make_thread_pool(uint32_t threads, const ThreadStarter& start, uint32_t hardware_threads) {
    return std::make_unique<ThreadPool>(wanted_thread_count(threads), start, hardware_threads);
}

std::unique_ptr<TaskRunner> make_job_system_runner(scatter_parallel_for_fn fn, void* user) {
    return std::make_unique<JobSystemRunner>(fn, user);
}

}  // namespace scatter
