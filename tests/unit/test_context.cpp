// Contexts and devices: creation with NULL and with each descriptor field, the chosen backend,
// descriptor versioning, and device enumeration.
#include "scatter_call.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>
#include <utility>
#include <thread>
#include <vector>
#ifdef _WIN32
#include <malloc.h>
#endif

namespace scatter_test {
namespace {

// Creates a context from desc, runs a rows/add call on it, checks the result, destroys it.
void expect_context_works(const scatter_context_desc* desc) {
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(desc, &context), SCATTER_OK) << scatter_last_error_message();
    ASSERT_NE(context, nullptr);
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    EXPECT_EQ(scatter_context_backend(context, &backend), SCATTER_OK);
    EXPECT_TRUE(backend == SCATTER_BACKEND_CPU || backend == SCATTER_BACKEND_VULKAN);

    auto call = valid_call(Op::rows);  // data [5,3] = 1..15, indices {4,0,-2,1}, updates 2
    call->reduction(SCATTER_REDUCTION_ADD);
    ASSERT_EQ(call->run(context), SCATTER_OK) << scatter_last_error_message();
    HostTensor expected(SCATTER_DTYPE_F32, {5, 3});
    expected.set_all({3, 4, 5, 6, 7, 8, 7, 8, 9, 12, 13, 14, 15, 16, 17});
    EXPECT_TRUE(call->out.storage() == expected.storage());
    scatter_context_destroy(context);
}

scatter_context_desc cpu_desc() {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    return desc;
}

TEST(Context, NullDescriptorMeansDefaults) { expect_context_works(nullptr); }

TEST(Context, InitMacroMeansDefaults) {
    const scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    EXPECT_EQ(desc.struct_size, sizeof(scatter_context_desc));
    EXPECT_EQ(desc.backend, SCATTER_BACKEND_AUTO);
    EXPECT_EQ(desc.device_index, -1);
    expect_context_works(&desc);
}

TEST(Context, DestroyNullIsIgnored) { scatter_context_destroy(nullptr); }

TEST(Context, CpuBackendIsReported) {
    const scatter_context_desc desc = cpu_desc();
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK);
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    EXPECT_EQ(scatter_context_backend(context, &backend), SCATTER_OK);
    EXPECT_EQ(backend, SCATTER_BACKEND_CPU);
    scatter_context_destroy(context);
}

TEST(Context, ThreadCounts) {
    for (uint32_t threads : {0u, 1u, 2u, 3u, 16u}) {
        SCOPED_TRACE(threads);
        scatter_context_desc desc = cpu_desc();
        desc.thread_count = threads;
        expect_context_works(&desc);
    }
}

TEST(Context, DeviceIndexIsIgnoredByTheCpu) {
    scatter_context_desc desc = cpu_desc();
    desc.device_index = 0;
    expect_context_works(&desc);
}

TEST(Context, Flags) {
    for (uint32_t flags : {SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM, SCATTER_CONTEXT_FLAG_VALIDATION,
                           SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM | SCATTER_CONTEXT_FLAG_VALIDATION}) {
        SCOPED_TRACE(flags);
        scatter_context_desc desc = cpu_desc();
        desc.flags = flags;
        expect_context_works(&desc);
    }
}

// A host job system: runs the tasks on two std::threads and counts how often it is used.
struct JobSystem {
    std::atomic<int> calls{0};
    std::atomic<int> tasks{0};
    static void parallel_for(void* user, uint32_t task_count, scatter_task_fn task, void* data) {
        auto* self = static_cast<JobSystem*>(user);
        ++self->calls;
        self->tasks += static_cast<int>(task_count);
        std::atomic<uint32_t> next{0};
        auto worker = [&] {
            for (uint32_t i = next++; i < task_count; i = next++) task(data, i);
        };
        std::thread helper(worker);
        worker();
        helper.join();
    }
};

TEST(Context, HostJobSystem) {
    JobSystem jobs;
    scatter_context_desc desc = cpu_desc();
    desc.parallel_for = &JobSystem::parallel_for;
    desc.parallel_for_user = &jobs;
    expect_context_works(&desc);

    // A call large enough to be worth splitting; its result must match a one-thread context.
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK);
    ContextPtr single = make_test_context(1);
    HostTensor data(SCATTER_DTYPE_F32, {1024, 256});
    data.fill(1.0);
    HostTensor indices(SCATTER_DTYPE_I64, {4096});
    for (int64_t i = 0; i < 4096; ++i) indices.set(i, static_cast<double>((i * 37) % 1024));
    HostTensor updates(SCATTER_DTYPE_F32, {4096, 256});
    for (int64_t i = 0; i < updates.element_count(); ++i) updates.set(i, 0.25 * (i % 7));
    ScatterCall parallel(Op::rows, data, indices, updates);
    ScatterCall serial(Op::rows, data, indices, updates);
    parallel.reduction(SCATTER_REDUCTION_ADD);
    serial.reduction(SCATTER_REDUCTION_ADD);
    ASSERT_EQ(parallel.run(context), SCATTER_OK) << scatter_last_error_message();
    ASSERT_EQ(serial.run(single.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_TRUE(parallel.out.storage() == serial.out.storage());
    scatter_context_destroy(context);
    RecordProperty("parallel_for_calls", jobs.calls.load());
    std::cout << "host job system: " << jobs.calls << " parallel_for call(s), " << jobs.tasks
              << " task(s)\n";
}

// A broken job system that returns without running its last task. Index validation runs through
// it, so the dropped task must not turn an out-of-range index into SCATTER_OK.
void parallel_for_dropping_last(void*, uint32_t task_count, scatter_task_fn task, void* data) {
    for (uint32_t i = 0; i + 1 < task_count; ++i) task(data, i);
}

TEST(Context, HostJobSystemThatDropsTasksIsAnInternalError) {
    scatter_context_desc desc = cpu_desc();
    desc.parallel_for = &parallel_for_dropping_last;
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK);
    // Enough indices to be checked in several tasks; the bad one is in the last task.
    const int64_t n = 1 << 19;
    HostTensor data(SCATTER_DTYPE_I32, {8, 1});
    data.fill(5);
    HostTensor indices(SCATTER_DTYPE_I64, {n});
    indices.set(n - 1, 8);
    HostTensor updates(SCATTER_DTYPE_I32, {n, 1});
    updates.fill(1);
    ScatterCall call(Op::rows, data, indices, updates);
    call.reduction(SCATTER_REDUCTION_ADD);
    const std::vector<uint8_t> before = call.out.storage();
    const scatter_status status = call.run(context);
    EXPECT_TRUE(call.out.storage() == before);
    if (std::thread::hardware_concurrency() > 1) {
        EXPECT_EQ(status, SCATTER_ERROR_INTERNAL) << scatter_status_name(status);
        EXPECT_NE(std::string(scatter_last_error_message()).find("parallel_for"), std::string::npos)
            << scatter_last_error_message();
    } else {
        // One hardware thread: the check runs on the caller's thread and finds the index itself.
        EXPECT_EQ(status, SCATTER_ERROR_INDEX_OUT_OF_RANGE) << scatter_status_name(status);
    }
    scatter_context_destroy(context);
}

struct CountingAllocator {
    std::atomic<int> allocations{0};
    std::atomic<int> live{0};
    static void* alloc(void* user, size_t size, size_t alignment) {
        auto* self = static_cast<CountingAllocator*>(user);
        if (alignment < sizeof(void*)) alignment = sizeof(void*);
        size_t rounded = (size + alignment - 1) / alignment * alignment;
#ifdef _WIN32
        void* p = _aligned_malloc(rounded, alignment);  // Windows has no aligned_alloc
#else
        void* p = std::aligned_alloc(alignment, rounded);
#endif
        if (p) {
            ++self->allocations;
            ++self->live;
        }
        return p;
    }
    static void release(void* user, void* p) {
        if (p) --static_cast<CountingAllocator*>(user)->live;
#ifdef _WIN32
        _aligned_free(p);
#else
        std::free(p);
#endif
    }
};

TEST(Context, HostAllocatorIsCopiedAndBalanced) {
    CountingAllocator counter;
    {
        // The descriptor's allocator struct only needs to live during create.
        scatter_allocator allocator = {&counter, &CountingAllocator::alloc, &CountingAllocator::release};
        scatter_context_desc desc = cpu_desc();
        desc.allocator = &allocator;
        expect_context_works(&desc);
        std::memset(&allocator, 0, sizeof(allocator));
    }
    EXPECT_EQ(counter.live, 0);
    std::cout << "host allocator: " << counter.allocations << " allocation(s)\n";
}

struct LogSink {
    std::atomic<int> lines{0};
    std::mutex mutex;
    std::vector<std::pair<scatter_log_level, std::string>> messages;
    static void log(void* user, scatter_log_level level, const char* message) {
        EXPECT_NE(message, nullptr);
        auto* sink = static_cast<LogSink*>(user);
        ++sink->lines;
        std::lock_guard<std::mutex> lock(sink->mutex);
        sink->messages.emplace_back(level, message);
    }
};

TEST(Context, LogCallbackIsAccepted) {
    LogSink sink;
    scatter_context_desc desc = cpu_desc();
    desc.log = &LogSink::log;
    desc.log_user = &sink;
    expect_context_works(&desc);
    std::cout << "log callback: " << sink.lines << " line(s)\n";
}

// AUTO says which backend it chose and why, whatever this machine has.
TEST(Context, AutoLogsItsChoice) {
    LogSink sink;
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.log = &LogSink::log;
    desc.log_user = &sink;
    scatter_context context = nullptr;
    ASSERT_EQ(scatter_context_create(&desc, &context), SCATTER_OK);
    scatter_context_destroy(context);
    bool told = false;
    for (const auto& m : sink.messages) {
        std::cout << "log " << int(m.first) << ": " << m.second << "\n";
        told = told || m.second.rfind("backend AUTO ", 0) == 0;
    }
    EXPECT_TRUE(told);
}

TEST(Context, LargerStructSizeWithZeroTailIsAccepted) {
    struct Newer {
        scatter_context_desc known;
        uint8_t tail[24];
    } newer;
    std::memset(&newer, 0, sizeof(newer));
    newer.known = cpu_desc();
    newer.known.struct_size = sizeof(Newer);
    expect_context_works(&newer.known);

    newer.tail[23] = 7;
    scatter_context context = nullptr;
    EXPECT_EQ(scatter_context_create(&newer.known, &context), SCATTER_ERROR_UNSUPPORTED);
    EXPECT_EQ(context, nullptr);
}

TEST(Context, LargerTensorAndOptionsStructSizeWithZeroTail) {
    ContextPtr context = make_test_context();
    auto call = valid_call(Op::elements);
    struct NewerTensor {
        scatter_tensor known;
        uint8_t tail[16];
    } data;
    std::memset(&data, 0, sizeof(data));
    data.known = call->data_desc;
    data.known.struct_size = sizeof(NewerTensor);
    struct NewerOptions {
        scatter_options known;
        uint8_t tail[12];
    } options;
    std::memset(&options, 0, sizeof(options));
    options.known = call->options;
    options.known.struct_size = sizeof(NewerOptions);
    call->data_arg = &data.known;
    call->options_arg = &options.known;
    EXPECT_EQ(call->run(context.get()), SCATTER_OK) << scatter_last_error_message();
    options.tail[0] = 1;
    EXPECT_EQ(call->run(context.get()), SCATTER_ERROR_UNSUPPORTED);
    options.tail[0] = 0;
    data.tail[15] = 1;
    EXPECT_EQ(call->run(context.get()), SCATTER_ERROR_UNSUPPORTED);
}

// --- devices ------------------------------------------------------------------------------------

TEST(Devices, CountThenFill) {
    uint32_t total = 0;
    ASSERT_EQ(scatter_devices(nullptr, &total), SCATTER_OK) << scatter_last_error_message();
    ASSERT_GE(total, 1u);

    std::vector<scatter_device_info> infos(total + 2);
    for (auto& info : infos) {
        std::memset(&info, 0, sizeof(info));
        info.struct_size = sizeof(info);
    }
    uint32_t count = static_cast<uint32_t>(infos.size());
    ASSERT_EQ(scatter_devices(infos.data(), &count), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(count, total);

    const scatter_device_info& cpu = infos[0];
    EXPECT_EQ(cpu.backend, SCATTER_BACKEND_CPU);
    EXPECT_EQ(cpu.type, SCATTER_DEVICE_TYPE_CPU);
    EXPECT_EQ(cpu.api_version, 0u);
    EXPECT_GE(cpu.thread_count, 1u);
    EXPECT_EQ(cpu.max_buffer_range, UINT64_MAX);
    EXPECT_GT(std::strlen(cpu.name), 0u);
    EXPECT_LT(std::strlen(cpu.name), sizeof(cpu.name));
    for (uint32_t i = 1; i < count; ++i) {
        SCOPED_TRACE(infos[i].name);
        EXPECT_EQ(infos[i].backend, SCATTER_BACKEND_VULKAN);
        EXPECT_EQ(infos[i].index, i - 1) << "Vulkan devices in driver order";
        EXPECT_GE(infos[i].api_version, SCATTER_MAKE_VERSION(1, 1, 0));
        EXPECT_GT(std::strlen(infos[i].name), 0u);
    }
    EXPECT_EQ(infos[total].name[0], '\0') << "wrote past the devices that exist";
}

TEST(Devices, CapacityOfOneGetsTheCpu) {
    scatter_device_info info;
    std::memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    uint32_t count = 1;
    ASSERT_EQ(scatter_devices(&info, &count), SCATTER_OK);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(info.backend, SCATTER_BACKEND_CPU);
}

TEST(Devices, ZeroCapacityWritesNothing) {
    scatter_device_info info;
    std::memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    uint32_t count = 0;
    ASSERT_EQ(scatter_devices(&info, &count), SCATTER_OK);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(info.name[0], '\0');
}

// A program built against a future header whose scatter_device_info grew by two fields.
struct GrownDeviceInfo {
    scatter_device_info known;
    uint64_t future_field;
    uint32_t another_future_field;
};

TEST(Devices, GrownStructIsSteppedByItsStructSize) {
    uint32_t total = 0;
    ASSERT_EQ(scatter_devices(nullptr, &total), SCATTER_OK);
    std::vector<scatter_device_info> plain(total);
    for (auto& info : plain) {
        std::memset(&info, 0, sizeof(info));
        info.struct_size = sizeof(info);
    }
    ASSERT_EQ(scatter_devices(plain.data(), &total), SCATTER_OK);

    std::vector<GrownDeviceInfo> grown(total + 1);
    for (auto& info : grown) {
        std::memset(&info, 0xAB, sizeof(info));  // the library must not leave these as they were
        info.known.struct_size = sizeof(GrownDeviceInfo);
    }
    uint32_t count = total;  // the last element is a guard the library must not touch
    ASSERT_EQ(scatter_devices(&grown[0].known, &count), SCATTER_OK) << scatter_last_error_message();
    ASSERT_EQ(count, total);
    for (uint32_t i = 0; i < total; ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(grown[i].known.struct_size, sizeof(GrownDeviceInfo));
        EXPECT_EQ(grown[i].known.backend, plain[i].backend);
        EXPECT_EQ(grown[i].known.index, plain[i].index);
        EXPECT_STREQ(grown[i].known.name, plain[i].name);
        EXPECT_EQ(grown[i].known.features, plain[i].features);
        EXPECT_EQ(grown[i].future_field, 0u) << "unknown fields read as zero";
        EXPECT_EQ(grown[i].another_future_field, 0u);
    }
    EXPECT_EQ(grown[total].future_field, 0xABABABABABABABABull) << "wrote past the capacity";
}

TEST(Devices, MixedOrTooSmallStructSizesWriteNothing) {
    std::vector<scatter_device_info> infos(2);
    for (auto& info : infos) {
        std::memset(&info, 0, sizeof(info));
        info.struct_size = sizeof(info);
    }
    infos[0].struct_size = sizeof(scatter_device_info) - 8;
    uint32_t count = 2;
    EXPECT_EQ(scatter_devices(infos.data(), &count), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(infos[0].name[0], '\0');

    // Mixed sizes matter only where a second entry is written: a machine with a Vulkan device
    // (under qemu there is only the CPU).
    uint32_t total = 0;
    ASSERT_EQ(scatter_devices(nullptr, &total), SCATTER_OK);
    if (total < 2) GTEST_SKIP() << "one device only: no second entry to mismatch";
    infos[0].struct_size = sizeof(scatter_device_info);
    infos[1].struct_size = sizeof(scatter_device_info) + 8;
    count = 2;
    EXPECT_EQ(scatter_devices(infos.data(), &count), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(scatter_last_error_message()).find("infos[1].struct_size"), std::string::npos)
        << scatter_last_error_message();
    EXPECT_EQ(infos[0].name[0], '\0');
}

}  // namespace
}  // namespace scatter_test
