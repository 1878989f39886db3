#include "vulkan_env.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace vulkan_test {
namespace {

void count_problems(void* user, scatter_log_level level, const char* message) {
    if (level < SCATTER_LOG_WARNING) return;
    auto* log = static_cast<ValidationLog*>(user);
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (log->problems.fetch_add(1) == 0) log->first = message;
}

}  // namespace

bool sweep_selects(int dtype_position, scatter_reduction reduction, bool order_free) {
    const char* value = std::getenv("SCATTER_TEST_SWEEP");
    if (value == nullptr) return true;
    bool selected = true;
    std::string rest = value;
    while (!rest.empty()) {  // every comma-separated term must select the case
        const size_t comma = rest.find(',');
        const std::string term = rest.substr(0, comma);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        int share = -1, shares = 0, end = 0;
        if (term == "order_free") {
            selected = selected && order_free;
        } else if (term == "ordered") {
            selected = selected && !order_free && reduction != SCATTER_REDUCTION_NONE;
        } else if (std::sscanf(term.c_str(), "share:%d/%d%n", &share, &shares, &end) == 2 && term[size_t(end)] == '\0' &&
                   shares > 0 && share >= 0 && share < shares) {
            selected = selected && dtype_position % shares == share;
        } else {
            ADD_FAILURE() << "SCATTER_TEST_SWEEP=" << value << ": expected order_free, ordered or share:K/N (0 <= K < N), "
                          << "comma-separated";
            return true;
        }
    }
    return selected;
}

bool on_lavapipe() {
    const char* driver = std::getenv("SCATTER_TEST_VULKAN_DRIVER");
    return driver == nullptr || std::string(driver) != "system";
}

namespace {

// Runs the tests on lavapipe (whatever GPUs the machine has), with a shader cache in the build
// tree and a missing device counted as a failure. Set once, before any thread exists.
// SCATTER_TEST_VULKAN_DRIVER=system keeps the machine's own drivers (a run on a real GPU).
void configure_environment() {
    if (on_lavapipe()) {
        setenv("VK_DRIVER_FILES", SCATTER_TEST_LAVAPIPE_ICD, 1);
        setenv("VK_ICD_FILENAMES", SCATTER_TEST_LAVAPIPE_ICD, 1);
    }
    setenv("LP_NUM_THREADS", "2", 0);
    setenv("MESA_SHADER_CACHE_DIR", SCATTER_TEST_MESA_CACHE_DIR, 0);
    setenv("SCATTER_TEST_REQUIRE_VULKAN", "1", 0);
}

// lavapipe leaks a little when the loader unloads it at exit, which LeakSanitizer reports; keep
// the driver loaded for the whole process instead (the library itself never does this).
void keep_lavapipe_loaded() {
    static std::once_flag once;
    std::call_once(once, [] {
        configure_environment();
        dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    });
}

}  // namespace

bool vulkan_required() {
    const char* env = std::getenv("SCATTER_TEST_REQUIRE_VULKAN");
    return env != nullptr && env[0] == '1';
}

scatter_status create_vulkan_context(ValidationLog* log, scatter_context* out) {
    keep_lavapipe_loaded();
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    desc.flags = SCATTER_CONTEXT_FLAG_VALIDATION;
    desc.log = count_problems;
    desc.log_user = log;
    return scatter_context_create(&desc, out);
}

void VulkanTest::SetUp() {
    keep_lavapipe_loaded();
    scatter_status s = create_vulkan_context(&log, &vulkan);
    if (s != SCATTER_OK) {
        std::string why = std::string(scatter_status_name(s)) + ": " + scatter_last_error_message();
        if (vulkan_required()) FAIL() << "no Vulkan context although SCATTER_TEST_REQUIRE_VULKAN=1: " << why;
        GTEST_SKIP() << "no Vulkan device: " << why;
    }
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    ASSERT_EQ(scatter_context_create(&desc, &cpu), SCATTER_OK);
}

void VulkanTest::TearDown() {
    scatter_context_destroy(vulkan);
    scatter_context_destroy(cpu);
    EXPECT_EQ(log.problems.load(), 0) << "validation layer: " << log.first;
}

void ProfiledVulkanTest::SetUp() {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    desc.flags = SCATTER_CONTEXT_FLAG_PROFILE;
    ASSERT_EQ(scatter_context_create(&desc, &profiled), SCATTER_OK) << scatter_last_error_message();
}

void ProfiledVulkanTest::TearDown() {
    scatter_context_destroy(profiled);
    VulkanTest::TearDown();
}

bool ProfiledVulkanTest::last_call_ran(const char* pass) {
    scatter_profile p;
    p.struct_size = sizeof p;
    if (scatter_last_profile(profiled, &p) != SCATTER_OK) return false;
    for (uint32_t i = 0; i < p.pass_count; ++i)
        if (std::string(p.passes[i].name) == pass) return true;
    return false;
}

}  // namespace vulkan_test
