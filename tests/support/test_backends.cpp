#include "test_backends.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

namespace scatter_test {
namespace {

// A host job system in miniature: the caller and two helper threads take task indices from a
// shared counter, so tasks run concurrently and in no fixed order.
void three_thread_parallel_for(void*, uint32_t task_count, scatter_task_fn task, void* task_data) {
    std::atomic<uint32_t> next{0};
    auto worker = [&] {
        for (uint32_t i = next++; i < task_count; i = next++) task(task_data, i);
    };
    std::thread a(worker), b(worker);
    worker();
    a.join();
    b.join();
}

using OwnedContext = ContextPtr;

OwnedContext make_context(const scatter_context_desc& desc, scatter_status* status) {
    scatter_context context = nullptr;
    *status = scatter_context_create(&desc, &context);
    return OwnedContext(*status == SCATTER_OK ? context : nullptr);
}

struct Pool {
    std::vector<std::pair<std::string, OwnedContext>> cpu;
    OwnedContext vulkan;
    std::string vulkan_error;

    Pool() {
        for (uint32_t threads : {1u, 2u, 7u}) {
            scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
            desc.backend = SCATTER_BACKEND_CPU;
            desc.thread_count = threads;
            add_cpu("cpu/" + std::to_string(threads) + " thread(s)", desc);
        }
        scatter_context_desc jobs = SCATTER_CONTEXT_DESC_INIT;
        jobs.backend = SCATTER_BACKEND_CPU;
        jobs.parallel_for = three_thread_parallel_for;
        add_cpu("cpu/parallel_for callback", jobs);
    }

    void add_cpu(const std::string& name, const scatter_context_desc& desc) {
        scatter_status status;
        OwnedContext c = make_context(desc, &status);
        if (c) cpu.emplace_back(name, std::move(c));
        else cpu.emplace_back(name + " (create failed: " + scatter_status_name(status) + ")", nullptr);
    }

    void open_vulkan() {
        if (vulkan || !vulkan_error.empty()) return;
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_VULKAN;
        scatter_status status;
        vulkan = make_context(desc, &status);
        if (!vulkan)
            vulkan_error = std::string(scatter_status_name(status)) + ": " + scatter_last_error_message();
    }
};

// Destroyed by destroy_backends() from main, never by a static destructor: that runs after the
// driver's own exit handlers (NVIDIA's driver crashed the process there).
Pool* the_pool = nullptr;

Pool& pool() {
    if (the_pool == nullptr) the_pool = new Pool;
    return *the_pool;
}

}  // namespace

std::vector<TestBackend> cpu_backends() {
    std::vector<TestBackend> list;
    for (auto& entry : pool().cpu) list.push_back({entry.first, entry.second.get()});
    return list;
}

scatter_context vulkan_context(std::string* why) {
    pool().open_vulkan();
    if (why) *why = pool().vulkan_error;
    return pool().vulkan.get();
}

bool vulkan_required() {
    const char* v = std::getenv("SCATTER_TEST_REQUIRE_VULKAN");
    return v && std::strcmp(v, "1") == 0;
}

void destroy_backends() {
    delete the_pool;
    the_pool = nullptr;
}

bool vulkan_allowed_by_environment() {
    const char* v = std::getenv("SCATTER_TEST_BACKENDS");
    return !(v && std::strcmp(v, "cpu") == 0);
}

ContextPtr make_test_context(uint32_t thread_count) {
    const char* backend = std::getenv("SCATTER_TEST_BACKEND");
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend != nullptr && std::string(backend) == "vulkan" ? SCATTER_BACKEND_VULKAN
                                                                          : SCATTER_BACKEND_CPU;
    desc.thread_count = thread_count;
    scatter_context context = nullptr;
    const scatter_status status = scatter_context_create(&desc, &context);
    EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
    return ContextPtr(context);
}

}  // namespace scatter_test
