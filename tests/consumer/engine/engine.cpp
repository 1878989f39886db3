// The engine's use of libscatter: scatter.hpp on the library built as a subproject.
#include <scatter/scatter.hpp>

#include <cstdio>
#include <span>
#include <vector>

int main() {
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
    std::printf("engine with libscatter %s as a subproject: ok\n", scatter::version().c_str());
    return 0;
}
