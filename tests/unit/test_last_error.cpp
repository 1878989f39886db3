// scatter_last_error_message(): "" before any failure, set by a failure, kept by successes, and
// separate for every thread.
#include <scatter/scatter.h>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

namespace {

// Blocks until `count` threads have arrived (C++17 has no std::barrier).
class Rendezvous {
public:
    explicit Rendezvous(int count) : waiting_(count) {}
    void arrive_and_wait() {
        --waiting_;
        while (waiting_ > 0) std::this_thread::yield();
    }

private:
    std::atomic<int> waiting_;
};

TEST(LastError, EmptyOnAThreadThatNeverFailed) {
    std::string message = "not read";
    std::thread([&] { message = scatter_last_error_message(); }).join();
    EXPECT_EQ(message, "");
}

TEST(LastError, SetByAFailureAndKeptBySuccesses) {
    std::string after_failure, after_success;
    std::thread([&] {
        EXPECT_EQ(scatter_context_backend(nullptr, nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
        after_failure = scatter_last_error_message();
        uint32_t count = 0;
        EXPECT_EQ(scatter_devices(nullptr, &count), SCATTER_OK);
        after_success = scatter_last_error_message();
    }).join();
    EXPECT_FALSE(after_failure.empty());
    EXPECT_EQ(after_success, after_failure);
}

TEST(LastError, IsPerThread) {
    // Both threads fail differently, then each reads its own message after the other failed.
    Rendezvous both_failed(2);
    std::string first, second;
    std::thread a([&] {
        scatter_context context = nullptr;
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.struct_size = 3;
        EXPECT_EQ(scatter_context_create(&desc, &context), SCATTER_ERROR_INVALID_ARGUMENT);
        both_failed.arrive_and_wait();
        first = scatter_last_error_message();
    });
    std::thread b([&] {
        EXPECT_EQ(scatter_buffer_write(nullptr, 0, nullptr, 4), SCATTER_ERROR_INVALID_ARGUMENT);
        both_failed.arrive_and_wait();
        second = scatter_last_error_message();
    });
    a.join();
    b.join();
    EXPECT_NE(first.find("struct_size"), std::string::npos) << first;
    EXPECT_FALSE(second.empty());
    EXPECT_NE(first, second);
    EXPECT_EQ(second.find("struct_size"), std::string::npos) << second;
}

}  // namespace
