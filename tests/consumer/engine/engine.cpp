// The engine's use of libscatter: scatter.hpp on the library built as a subproject.
#include <scatter/scatter.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

namespace {

// A build without Vulkan (SCATTER_ENABLE_VULKAN=OFF): every function of the header's Vulkan
// section answers BACKEND_UNAVAILABLE, saying why, and creates nothing.
bool vulkan_section_unavailable(scatter_context cpu) {
    int failures = 0;
    auto expect = [&](const char* what, scatter_status status) {
        const char* message = scatter_last_error_message();
        if (status != SCATTER_ERROR_BACKEND_UNAVAILABLE || std::strstr(message, "SCATTER_ENABLE_VULKAN=OFF") == nullptr) {
            std::printf("%s: %s (%s), expected BACKEND_UNAVAILABLE\n", what, scatter_status_name(status), message);
            ++failures;
        }
    };
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    scatter_context vulkan = nullptr;
    expect("scatter_context_create(VULKAN)", scatter_context_create(&desc, &vulkan));
    scatter_vulkan_device_desc device = SCATTER_VULKAN_DEVICE_DESC_INIT;
    expect("scatter_context_create_vulkan", scatter_context_create_vulkan(nullptr, &device, &vulkan));
    scatter_batch batch = nullptr;
    expect("scatter_batch_create", scatter_batch_create(cpu, &batch));
    scatter_buffer buffer = nullptr;
    expect("scatter_buffer_wrap_vulkan", scatter_buffer_wrap_vulkan(cpu, 1, 0, 16, &buffer));
    scatter_recording recording = nullptr;
    int command_buffer = 0;
    expect("scatter_record_vulkan", scatter_record_vulkan(cpu, &command_buffer, SCATTER_OP_ELEMENTS, nullptr, nullptr,
                                                          nullptr, nullptr, nullptr, &recording));
    size_t size = 0;
    expect("scatter_pipeline_cache_data", scatter_pipeline_cache_data(cpu, nullptr, &size));
    if (vulkan != nullptr || batch != nullptr || buffer != nullptr || recording != nullptr) {
        std::printf("a Vulkan call created something\n");
        ++failures;
    }
    return failures == 0;
}

}  // namespace

int main(int argc, char** argv) {
    scatter::result<scatter::context> ctx = scatter::context::create(SCATTER_BACKEND_CPU, 2);
    if (!ctx) {
        std::printf("%s\n", ctx.error().what().c_str());
        return 1;
    }
    std::vector<float> particles(8, 0.0f), impulses = {1.0f, 2.0f, 4.0f};
    std::vector<int32_t> cells = {5, 1, 5};
    scatter::options add;
    add.reduction = SCATTER_REDUCTION_ADD;
    scatter::tensor_view grid(std::span<float>(particles), {8});
    scatter::result<void> r = ctx->try_elements(grid, scatter::tensor_view(std::span<int32_t>(cells), {3}),
                                                scatter::tensor_view(std::span<float>(impulses), {3}), grid, add);
    if (!r || particles[1] != 2.0f || particles[5] != 5.0f) {
        std::printf("scatter failed: %s\n", r ? "wrong values" : r.error().what().c_str());
        return 1;
    }
    if (argc > 1 && std::strcmp(argv[1], "--no-vulkan") == 0 && !vulkan_section_unavailable(ctx->get())) return 1;
    std::printf("engine with libscatter %s as a subproject: ok\n", scatter::version().c_str());
    return 0;
}
