// scatter.hpp compiled strictly (C++17, C++20, and C++17 without exceptions) and run: one case per
// operation, the errors, buffers and (C++20) spans. `header_hpp <case>` runs one case on the CPU
// and, where a Vulkan device exists, on Vulkan (required with SCATTER_TEST_REQUIRE_VULKAN=1).
#include <scatter/scatter.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            std::printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);  \
            ++failures;                                                        \
        }                                                                      \
    } while (0)

// The contexts to run on: the CPU, and Vulkan where it can be created.
std::vector<scatter::context> contexts() {
    std::vector<scatter::context> list;
    list.push_back(scatter::context::create(SCATTER_BACKEND_CPU, 2).value());
    scatter::result<scatter::context> vulkan = scatter::context::create(SCATTER_BACKEND_VULKAN);
    if (vulkan) {
        list.push_back(std::move(*vulkan));
    } else {
        const char* require = std::getenv("SCATTER_TEST_REQUIRE_VULKAN");
        std::printf("no Vulkan context (%s)\n", vulkan.error().what().c_str());
        if (require != nullptr && std::strcmp(require, "1") == 0) ++failures;
    }
    return list;
}

const char* name_of(const scatter::context& ctx) {
    return scatter_backend_name(ctx.try_backend().value_or(SCATTER_BACKEND_AUTO));
}

// ONNX ScatterElements, axis 1, add, with a duplicate.
void case_elements(const scatter::context& ctx) {
    std::vector<float> data = {1, 2, 3, 4, 5}, out(5);
    std::vector<int64_t> indices = {1, 3, 1};
    std::vector<float> updates = {1.5f, 2.0f, 0.25f};
    scatter::options add;
    add.axis = 1;
    add.reduction = SCATTER_REDUCTION_ADD;
    scatter::result<void> r = ctx.try_elements(scatter::tensor_view(data.data(), {1, 5}),
                                               scatter::tensor_view(indices.data(), {1, 3}),
                                               scatter::tensor_view(updates.data(), {1, 3}),
                                               scatter::tensor_view(out.data(), {1, 5}), add);
    EXPECT(r.has_value());
    EXPECT((out == std::vector<float>{1, 3.75f, 3, 6, 5}));
    EXPECT((data == std::vector<float>{1, 2, 3, 4, 5}));
}

// torch.index_reduce_ style: rows of a [3, 2] i32 tensor, max, one row hit twice, in place.
void case_rows(const scatter::context& ctx) {
    std::vector<int32_t> data = {0, 0, 5, 5, 9, 9};
    std::vector<int32_t> rows = {1, 1};
    std::vector<int32_t> updates = {7, 1, 2, 8};
    scatter::options max;
    max.reduction = SCATTER_REDUCTION_MAX;
    scatter::tensor_view d(data.data(), {3, 2});
#if SCATTER_HPP_EXCEPTIONS
    ctx.rows(d, scatter::tensor_view(rows.data(), {2}), scatter::tensor_view(updates.data(), {2, 2}), d, max);
#else
    EXPECT(ctx.try_rows(d, scatter::tensor_view(rows.data(), {2}), scatter::tensor_view(updates.data(), {2, 2}), d, max));
#endif
    EXPECT((data == std::vector<int32_t>{0, 0, 7, 8, 9, 9}));
}

// ONNX ScatterND: two slices of a [4, 2] f64 tensor replaced, strided output (every other row of
// an [8, 2] array).
void case_nd(const scatter::context& ctx) {
    std::vector<double> data = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<int64_t> indices = {3, 0};
    std::vector<double> updates = {30, 31, 10, 11};
    std::vector<double> big(16, -1.0);
    scatter::result<void> r = ctx.try_nd(scatter::tensor_view(data.data(), {4, 2}),
                                         scatter::tensor_view(indices.data(), {2, 1}),
                                         scatter::tensor_view(updates.data(), {2, 2}),
                                         scatter::tensor_view(big.data(), {4, 2}, {4, 1}));
    EXPECT(r.has_value());
    EXPECT((big == std::vector<double>{10, 11, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 30, 31, -1, -1}));
}

// Failures come back as results (and as exceptions), name the value, and change nothing.
void case_errors(const scatter::context& ctx) {
    std::vector<float> data(4, 0.0f), updates = {1.0f};
    std::vector<int64_t> bad = {9};
    scatter::tensor_view d(data.data(), {4});
    scatter::result<void> r =
        ctx.try_elements(d, scatter::tensor_view(bad.data(), {1}), scatter::tensor_view(updates.data(), {1}), d);
    EXPECT(!r.has_value());
    EXPECT(r.error().status == SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT(r.error().message.find("indices[0] = 9") != std::string::npos);
    EXPECT(std::string(r.error().name()) == "SCATTER_ERROR_INDEX_OUT_OF_RANGE");
    EXPECT((data == std::vector<float>(4, 0.0f)));
#if SCATTER_HPP_EXCEPTIONS
    bool thrown = false;
    try {
        ctx.elements(d, scatter::tensor_view(bad.data(), {1}), scatter::tensor_view(updates.data(), {1}), d);
    } catch (const scatter::error& e) {
        thrown = e.status() == SCATTER_ERROR_INDEX_OUT_OF_RANGE &&
                 std::string(e.what()).rfind("SCATTER_ERROR_INDEX_OUT_OF_RANGE: indices[0] = 9", 0) == 0;
    }
    EXPECT(thrown);
#endif
    // A rank above SCATTER_MAX_RANK reaches the library, which refuses it.
    std::vector<float> one(1);
    std::vector<int64_t> zero(1);
    scatter::tensor_view deep(one.data(), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    scatter::tensor_view deep_indices(zero.data(), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    r = ctx.try_elements(deep, deep_indices, deep, deep);
    EXPECT(!r && r.error().status == SCATTER_ERROR_SHAPE_MISMATCH);
    scatter::result<scatter::context> bad_backend = scatter::context::create(scatter_backend(77));
    EXPECT(!bad_backend && bad_backend.error().status == SCATTER_ERROR_INVALID_ARGUMENT);
}

// The gathers: torch.gather along axis 1, index_select of rows, gather_nd with a batch
// dimension and FILL, on every backend.
void case_gather(const scatter::context& ctx) {
    std::vector<float> data = {1, 2, 3, 4, 5, 6}, out(4, 0.0f);
    std::vector<int64_t> along = {2, 0, -1, 1};
    scatter::gather_options axis1;
    axis1.axis = 1;
    scatter::result<void> r = ctx.try_gather_elements(scatter::tensor_view(data.data(), {2, 3}),
                                                      scatter::tensor_view(along.data(), {2, 2}),
                                                      scatter::tensor_view(out.data(), {2, 2}), axis1);
    EXPECT(r);
    EXPECT((out == std::vector<float>{3, 1, 6, 5}));
    std::vector<int32_t> rows = {1, 0};
    EXPECT(ctx.try_gather_rows(scatter::tensor_view(data.data(), {2, 3}), scatter::tensor_view(rows.data(), {2}),
                               scatter::tensor_view(out.data(), {2, 2}, {1, 2}), axis1));  // column-major out
    EXPECT((out == std::vector<float>{2, 5, 1, 4}));
    std::vector<int64_t> coordinates = {2, 7};  // batch 0: column 2; batch 1: column 7, out of range
    const float fill = -1.0f;
    scatter::gather_options batched;
    batched.batch_dims = 1;
    batched.out_of_range = SCATTER_OUT_OF_RANGE_FILL;
    batched.fill_value = &fill;
    EXPECT(ctx.try_gather_nd(scatter::tensor_view(data.data(), {2, 3}), scatter::tensor_view(coordinates.data(), {2, 1}),
                             scatter::tensor_view(out.data(), {2}), batched));
    EXPECT(out[0] == 3 && out[1] == -1);
    batched.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    r = ctx.try_gather_nd(scatter::tensor_view(data.data(), {2, 3}), scatter::tensor_view(coordinates.data(), {2, 1}),
                          scatter::tensor_view(out.data(), {2}), batched);
    EXPECT(!r && r.error().message == "indices[1][0] = 7 is outside [-3, 3) on axis 1");
}

// Message passing: a weighted sum and a mean with exclude_self on the CPU; the Vulkan backend
// refuses it (UNSUPPORTED) and leaves out unchanged.
void case_message_passing(const scatter::context& ctx) {
    std::vector<float> data = {1, 2, 3, 4}, x = {10, 20, 30, 40, 50, 60}, w = {1, 0.5f, 2}, out(4, 0.0f);
    std::vector<int64_t> src = {0, 2, 1};
    std::vector<int32_t> dst = {1, 1, -2};
    const scatter::tensor_view weights(w.data(), {3});
    scatter::result<void> r =
        ctx.try_message_passing(scatter::tensor_view(data.data(), {2, 2}), scatter::tensor_view(x.data(), {3, 2}),
                                scatter::tensor_view(src.data(), {3}), scatter::tensor_view(dst.data(), {3}), &weights,
                                scatter::tensor_view(out.data(), {2, 2}));
    if (ctx.try_backend().value_or(SCATTER_BACKEND_AUTO) == SCATTER_BACKEND_VULKAN) {
        EXPECT(!r && r.error().status == SCATTER_ERROR_UNSUPPORTED);
        EXPECT((out == std::vector<float>{0, 0, 0, 0}));
        return;
    }
    EXPECT(r);
    // Row 0: 1 + 30 * 2, 2 + 40 * 2; row 1: 3 + 10 + 25, 4 + 20 + 30.
    EXPECT((out == std::vector<float>{61, 82, 38, 54}));
    scatter::message_passing_options mean;
    mean.reduction = SCATTER_REDUCTION_MEAN;
    mean.exclude_self = true;
    EXPECT(ctx.try_message_passing(scatter::tensor_view(data.data(), {2, 2}), scatter::tensor_view(x.data(), {3, 2}),
                                   scatter::tensor_view(src.data(), {3}), scatter::tensor_view(dst.data(), {3}),
                                   nullptr, scatter::tensor_view(out.data(), {2, 2}), mean));
    EXPECT((out == std::vector<float>{30, 40, 30, 40}));
}

// The backward calls: scatter_add's and gather's gradients on the CPU (optional gradients as
// pointers); a Vulkan context refuses them as UNSUPPORTED.
void case_backward(const scatter::context& ctx) {
    std::vector<float> data = {1, 2, 3, 4, 5, 6}, updates = {10, 20, 30}, grad_out = {1, 2, 3, 4, 5, 6};
    std::vector<float> grad_data(6, -1.0f), grad_updates(3, -1.0f);
    std::vector<int64_t> indices = {5, 5, 0};
    scatter::options add;
    add.reduction = SCATTER_REDUCTION_ADD;
    add.exclude_self = true;
    const scatter::tensor_view gd(grad_data.data(), {6}), gu(grad_updates.data(), {3});
    scatter::result<void> r = ctx.try_elements_backward(
        scatter::tensor_view(data.data(), {6}), scatter::tensor_view(indices.data(), {3}),
        scatter::tensor_view(updates.data(), {3}), nullptr, scatter::tensor_view(grad_out.data(), {6}), &gd, &gu, add);
    if (ctx.try_backend().value() == SCATTER_BACKEND_VULKAN) {
        EXPECT(!r && r.error().status == SCATTER_ERROR_UNSUPPORTED);
        EXPECT((grad_data == std::vector<float>(6, -1.0f)));
        return;
    }
    EXPECT(r);
    EXPECT((grad_data == std::vector<float>{0, 2, 3, 4, 5, 0}));
    EXPECT((grad_updates == std::vector<float>{6, 6, 1}));
    EXPECT(ctx.try_gather_rows_backward(scatter::tensor_view(indices.data(), {3}),
                                        scatter::tensor_view(grad_out.data(), {3}), gd));
    EXPECT((grad_data == std::vector<float>{3, 0, 0, 0, 0, 3}));
}

// Buffers: write, scatter without a host round trip, read back; moved owners destroy once.
void case_buffers(const scatter::context& ctx) {
    std::vector<float> data = {0, 0, 0, 0}, updates = {1, 2};
    std::vector<int32_t> indices = {3, 0};
    scatter::buffer storage = scatter::buffer::create(ctx, 4 * sizeof(float)).value();
    scatter::buffer moved = std::move(storage);
    EXPECT(storage.get() == nullptr && moved.size() == 16);
    EXPECT(moved.try_write(data.data(), data.size()));
    scatter::tensor_view d = scatter::tensor_view::in_buffer<float>(moved, {4});
    EXPECT(ctx.try_elements(d, scatter::tensor_view(indices.data(), {2}), scatter::tensor_view(updates.data(), {2}), d));
    std::vector<float> back(4);
    EXPECT(moved.try_read(back.data(), back.size()));
    EXPECT((back == std::vector<float>{2, 0, 0, 1}));
    std::vector<scatter_device_info> devices = scatter::try_devices().value_or(std::vector<scatter_device_info>());
    EXPECT(!devices.empty() && devices[0].backend == SCATTER_BACKEND_CPU);
    EXPECT(scatter::version() == scatter_version_string());
}

// C++20: views from std::span, checked against the shape.
void case_span(const scatter::context& ctx) {
#if SCATTER_HPP_HAS_SPAN
    std::vector<float> data(6, 0.0f), updates = {1, 2, 3};
    std::vector<int64_t> indices = {2, 0, 1};
    std::span<float> ds(data);
    scatter::tensor_view d(ds, {2, 3});
    scatter::options sum;
    sum.reduction = SCATTER_REDUCTION_ADD;
    sum.axis = 1;
    EXPECT(ctx.try_elements(d, scatter::tensor_view(std::span<int64_t>(indices), {1, 3}),
                            scatter::tensor_view(std::span<float>(updates), {1, 3}), d, sum));
    EXPECT((data == std::vector<float>{2, 3, 1, 0, 0, 0}));
    // A shape that reaches past the span's end is refused before the library reads anything.
    scatter::result<void> r = ctx.try_elements(scatter::tensor_view(ds, {3, 3}),
                                               scatter::tensor_view(std::span<int64_t>(indices), {1, 3}),
                                               scatter::tensor_view(std::span<float>(updates), {1, 3}),
                                               scatter::tensor_view(ds, {3, 3}));
    EXPECT(!r && r.error().status == SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT(!r && r.error().message == "data reaches element 8 of a span of 6 elements");
#else
    (void)ctx;
    std::printf("no std::span in this language mode\n");
#endif
}

}  // namespace

int main(int argc, char** argv) {
    struct Case {
        const char* name;
        void (*run)(const scatter::context&);
    } cases[] = {{"elements", case_elements}, {"rows", case_rows}, {"nd", case_nd},
                 {"errors", case_errors},     {"buffers", case_buffers}, {"span", case_span},
                 {"gather", case_gather},     {"message_passing", case_message_passing},
                 {"backward", case_backward}};
    const std::string wanted = argc > 1 ? argv[1] : "";
    int ran = 0;
    for (const scatter::context& ctx : contexts()) {
        for (const Case& c : cases) {
            if (!wanted.empty() && wanted != c.name) continue;
            const int before = failures;
            c.run(ctx);
            std::printf("%s on %s: %s\n", c.name, name_of(ctx), failures == before ? "ok" : "FAILED");
            ++ran;
        }
    }
    if (ran == 0) {
        std::printf("no case named '%s'\n", wanted.c_str());
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
