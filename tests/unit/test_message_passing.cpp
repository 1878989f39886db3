// scatter_message_passing through the C API beyond the differential suite: hand-computed results
// (a naive loop), every status it returns with out byte-for-byte unchanged, profiling, the AUTO
// context, and the Vulkan backend's refusal of buffer tensors.
#include "host_tensor.h"
#include "test_backends.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace scatter_test {
namespace {

ContextPtr make_context(scatter_backend backend, uint32_t flags = 0, uint32_t threads = 2) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend;
    desc.flags = flags;
    desc.thread_count = threads;
    scatter_context context = nullptr;
    EXPECT_EQ(scatter_context_create(&desc, &context), SCATTER_OK) << scatter_last_error_message();
    return ContextPtr(context);
}

// data [4, 2] f32, x [3, 2] f32, five edges with i64 src and i32 dst, weights; out separate.
struct Call {
    HostTensor data{SCATTER_DTYPE_F32, {4, 2}}, x{SCATTER_DTYPE_F32, {3, 2}};
    HostTensor src{SCATTER_DTYPE_I64, {5}}, dst{SCATTER_DTYPE_I32, {5}}, weights{SCATTER_DTYPE_F32, {5}};
    HostTensor out{SCATTER_DTYPE_F32, {4, 2}};
    scatter_tensor d, xt, s, t, w, o;
    scatter_message_passing_options options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    bool weighted = true;

    Call() {
        data.set_all({1, 2, 3, 4, 5, 6, 7, 8});
        x.set_all({10, 20, 30, 40, 50, 60});
        src.set_all({0, 2, -1, 1, 0});
        dst.set_all({1, 1, 3, -4, 1});
        weights.set_all({1, 0.5, 2, -1, 0.25});
        out.fill_sentinel(7);
        refresh();
    }
    void refresh() {
        d = data.descriptor();
        xt = x.descriptor();
        s = src.descriptor();
        t = dst.descriptor();
        w = weights.descriptor();
        o = out.descriptor();
    }
    scatter_status run(scatter_context context) {
        return scatter_message_passing(context, &d, &xt, &s, &t, weighted ? &w : nullptr, &options, &o);
    }
    std::vector<float> result() const {
        std::vector<float> v(8);
        std::memcpy(v.data(), out.storage().data(), 32);
        return v;
    }
};

// out[dst[e]] (op)= x[src[e]] * w[e] in edge order, as a plain loop over the example's values.
TEST(MessagePassing, MatchesANaiveLoop) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU);
    Call call;
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    // Row 0 (dst -4): 1 + 30*-1, 2 + 40*-1; row 1: 3 + 10 + 50*0.5 + 10*0.25, 4 + 20 + 30 + 5;
    // row 2 unchanged; row 3: 7 + 100, 8 + 120.
    EXPECT_EQ(call.result(), (std::vector<float>{-29, -38, 40.5f, 59, 5, 6, 107, 128}));

    call.weighted = false;
    call.options.reduction = SCATTER_REDUCTION_MEAN;
    call.options.flags = SCATTER_OPTION_EXCLUDE_SELF;
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(call.result(), (std::vector<float>{30, 40, 70.0f / 3, 100.0f / 3, 5, 6, 50, 60}));

    call.options.reduction = SCATTER_REDUCTION_MAX;
    call.options.flags = 0;
    call.options.dst_out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    call.dst.set(4, 9);  // the last edge is skipped
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(call.result(), (std::vector<float>{30, 40, 50, 60, 5, 6, 50, 60}));

    call.options.reduction = SCATTER_REDUCTION_NONE;  // the last edge into a row wins
    call.options.src_out_of_range = SCATTER_OUT_OF_RANGE_FILL;
    const float fill = -1;
    call.options.fill_value = &fill;
    call.src.set(1, 3);  // edge 1 takes the fill value
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    EXPECT_EQ(call.result(), (std::vector<float>{30, 40, -1, -1, 5, 6, 50, 60}));
}

// In place (out = data) with x = data: every message reads x before the call writes, so x must
// not overlap out: refused.
TEST(MessagePassing, InPlaceAndAliasing) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU);
    Call call;
    call.o = call.d;
    ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
    std::vector<float> in_place(8);
    std::memcpy(in_place.data(), call.data.storage().data(), 32);
    EXPECT_EQ(in_place, (std::vector<float>{-29, -38, 40.5f, 59, 5, 6, 107, 128}));
    call.xt = call.d;
    const std::vector<uint8_t> before = call.data.storage();
    EXPECT_EQ(call.run(context.get()), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(scatter_last_error_message(), "out overlaps x");
    EXPECT_EQ(call.data.storage(), before);
}

struct ErrorCase {
    const char* what;
    scatter_status status;
    const char* message;  // the exact message, or nullptr
    void (*break_call)(Call& call);
};

const ErrorCase kErrors[] = {
    {"null data", SCATTER_ERROR_INVALID_ARGUMENT, "data is NULL", nullptr},
    {"options.struct_size", SCATTER_ERROR_INVALID_ARGUMENT, nullptr, [](Call& c) { c.options.struct_size = 4; }},
    {"reduction 99", SCATTER_ERROR_INVALID_ARGUMENT, "options.reduction = 99 is not a scatter_reduction",
     [](Call& c) { c.options.reduction = scatter_reduction(99); }},
    {"src SKIP", SCATTER_ERROR_INVALID_ARGUMENT,
     "options.src_out_of_range = SKIP is not allowed; use ERROR, CLAMP or FILL",
     [](Call& c) { c.options.src_out_of_range = SCATTER_OUT_OF_RANGE_SKIP; }},
    {"dst FILL", SCATTER_ERROR_INVALID_ARGUMENT,
     "options.dst_out_of_range = FILL is not allowed; use ERROR, SKIP or CLAMP",
     [](Call& c) { c.options.dst_out_of_range = SCATTER_OUT_OF_RANGE_FILL; }},
    {"policy 7", SCATTER_ERROR_INVALID_ARGUMENT, "options.dst_out_of_range = 7 is not a scatter_out_of_range",
     [](Call& c) { c.options.dst_out_of_range = scatter_out_of_range(7); }},
    {"flags", SCATTER_ERROR_INVALID_ARGUMENT, "options.flags = 0x10 has unknown bits 0x10",
     [](Call& c) { c.options.flags = 0x10; }},
    {"out overlaps data", SCATTER_ERROR_INVALID_ARGUMENT, nullptr, [](Call& c) {
         c.d.data = c.out.storage().data() + 4;
         c.d.shape = c.o.shape;
     }},
    {"out overlaps src", SCATTER_ERROR_INVALID_ARGUMENT, "out overlaps src", [](Call& c) {
         c.s.data = c.out.storage().data();
     }},
    {"x dtype", SCATTER_ERROR_TYPE_MISMATCH, "x.dtype = f64 must equal data.dtype = f32",
     [](Call& c) { c.xt.dtype = SCATTER_DTYPE_F64; }},
    {"weights dtype", SCATTER_ERROR_TYPE_MISMATCH, "weights.dtype = i32 must equal data.dtype = f32",
     [](Call& c) { c.w.dtype = SCATTER_DTYPE_I32; }},
    {"dst dtype", SCATTER_ERROR_TYPE_MISMATCH, "dst.dtype = u32 must be i32 or i64",
     [](Call& c) { c.t.dtype = SCATTER_DTYPE_U32; }},
    {"0-d data", SCATTER_ERROR_SHAPE_MISMATCH, "data is 0-d but message passing needs rank >= 1",
     [](Call& c) { c.d.rank = c.o.rank = 0; }},
    {"x.shape[1]", SCATTER_ERROR_SHAPE_MISMATCH, "x.shape[1] = 1 must equal data.shape[1] = 2", [](Call& c) {
         static const int64_t narrow[2] = {3, 1};
         c.xt.shape = narrow;
     }},
    {"src rank", SCATTER_ERROR_SHAPE_MISMATCH, "src.rank = 2 must equal 1", [](Call& c) {
         static const int64_t matrix[2] = {5, 1};
         c.s.rank = 2;
         c.s.shape = matrix;
     }},
    {"weights length", SCATTER_ERROR_SHAPE_MISMATCH, "weights.shape[0] = 4 must equal src.shape[0] = 5", [](Call& c) {
         static const int64_t four[1] = {4};
         c.w.shape = four;
     }},
    {"src out of range", SCATTER_ERROR_INDEX_OUT_OF_RANGE, "src[3] = 3 is outside [-3, 3) on axis 0",
     [](Call& c) { c.src.set(3, 3); }},
    {"dst out of range", SCATTER_ERROR_INDEX_OUT_OF_RANGE, "dst[4] = -5 is outside [-4, 4) on axis 0",
     [](Call& c) { c.dst.set(4, -5); }},
    {"src before dst", SCATTER_ERROR_INDEX_OUT_OF_RANGE, "src[4] = 7 is outside [-3, 3) on axis 0", [](Call& c) {
         c.dst.set(0, 9);
         c.src.set(4, 7);
     }},
    {"src CLAMP into no rows", SCATTER_ERROR_INDEX_OUT_OF_RANGE,
     "src[0] = 0 cannot be clamped into axis 0 of size 0: there is no element to gather", [](Call& c) {
         static const int64_t empty[2] = {0, 2};
         c.xt.shape = empty;
         c.options.src_out_of_range = SCATTER_OUT_OF_RANGE_CLAMP;
     }},
    {"complex max", SCATTER_ERROR_UNSUPPORTED, "reduction max is not defined for dtype c64", [](Call& c) {
         c.d.dtype = c.xt.dtype = c.o.dtype = c.w.dtype = SCATTER_DTYPE_C64;
         static const int64_t half[2] = {4, 1}, half_x[2] = {3, 1};
         c.d.shape = c.o.shape = half;
         c.xt.shape = half_x;
         static const int64_t five[1] = {5};
         c.w.shape = five;
         c.weighted = false;
         c.options.reduction = SCATTER_REDUCTION_MAX;
     }},
    {"weighted opaque", SCATTER_ERROR_UNSUPPORTED, "weights need a multiply, which dtype opaque does not have",
     [](Call& c) {
         c.d.dtype = c.xt.dtype = c.o.dtype = c.w.dtype = SCATTER_DTYPE_OPAQUE;
         c.d.element_size = c.xt.element_size = c.o.element_size = c.w.element_size = 4;
         c.options.reduction = SCATTER_REDUCTION_NONE;
     }},
};

// Every status with its message; out is byte-for-byte unchanged after each.
TEST(MessagePassing, EveryErrorLeavesOutUnchanged) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU);
    for (const ErrorCase& error : kErrors) {
        SCOPED_TRACE(error.what);
        Call call;
        if (error.break_call != nullptr) error.break_call(call);
        const scatter_tensor* data = error.break_call == nullptr ? nullptr : &call.d;
        const std::vector<uint8_t> before = call.out.storage();
        const scatter_status status = scatter_message_passing(context.get(), data, &call.xt, &call.s, &call.t,
                                                              call.weighted ? &call.w : nullptr, &call.options, &call.o);
        EXPECT_EQ(status, error.status) << scatter_last_error_message();
        if (error.message != nullptr) {
            EXPECT_STREQ(scatter_last_error_message(), error.message);
        }
        EXPECT_EQ(call.out.storage(), before);
    }
    Call call;
    EXPECT_EQ(scatter_message_passing(nullptr, &call.d, &call.xt, &call.s, &call.t, nullptr, nullptr, &call.o),
              SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(scatter_last_error_message(), "context is NULL");
}

// Integer DIV by a zero message (x[src] * w) fails before any write; zero messages of skipped
// edges do not count.
TEST(MessagePassing, IntegerDivisionByAZeroMessage) {
    ContextPtr context = make_context(SCATTER_BACKEND_CPU);
    const int64_t rows[2] = {3, 2}, edges[1] = {3};
    int32_t data[6] = {10, 20, 30, 40, 50, 60}, x[6] = {1, 2, 3, 4, 5, 6}, w[3] = {1, 2, 0};
    int64_t src[3] = {0, 1, 2}, dst[3] = {0, 1, 7};
    int32_t out[6] = {};
    scatter_tensor d = SCATTER_TENSOR_INIT, xt, s = SCATTER_TENSOR_INIT, t, wt, o;
    d.dtype = SCATTER_DTYPE_I32;
    d.rank = 2;
    d.shape = rows;
    d.data = data;
    xt = o = d;
    xt.data = x;
    o.data = out;
    s.dtype = SCATTER_DTYPE_I64;
    s.rank = 1;
    s.shape = edges;
    s.data = src;
    t = s;
    t.data = dst;
    wt = s;
    wt.dtype = SCATTER_DTYPE_I32;
    wt.data = w;
    scatter_message_passing_options options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_DIV;
    options.dst_out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    ASSERT_EQ(scatter_message_passing(context.get(), &d, &xt, &s, &t, &wt, &options, &o), SCATTER_OK)
        << scatter_last_error_message();
    EXPECT_EQ(std::vector<int32_t>(out, out + 6), (std::vector<int32_t>{10, 10, 5, 5, 50, 60}));
    dst[2] = 2;  // edge 2's message x[2] * 0 is now applied
    std::memset(out, 0, sizeof out);
    EXPECT_EQ(scatter_message_passing(context.get(), &d, &xt, &s, &t, &wt, &options, &o), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(scatter_last_error_message(), "messages[2][0] = 0 divides an integer target: integer division by zero");
    EXPECT_EQ(std::vector<int32_t>(out, out + 6), std::vector<int32_t>(6, 0));
}

TEST(MessagePassing, ProfiledAndRoutedToTheCpuByAuto) {
    for (scatter_backend backend : {SCATTER_BACKEND_CPU, SCATTER_BACKEND_AUTO}) {
        ContextPtr context = make_context(backend, SCATTER_CONTEXT_FLAG_PROFILE);
        Call call;
        ASSERT_EQ(call.run(context.get()), SCATTER_OK) << scatter_last_error_message();
        scatter_profile profile{};
        profile.struct_size = sizeof profile;
        ASSERT_EQ(scatter_last_profile(context.get(), &profile), SCATTER_OK) << scatter_last_error_message();
        EXPECT_EQ(profile.backend, SCATTER_BACKEND_CPU);
        ASSERT_EQ(profile.pass_count, 1u);
        EXPECT_STREQ(profile.passes[0].name, "cpu_message_passing");
        EXPECT_EQ(call.result(), (std::vector<float>{-29, -38, 40.5f, 59, 5, 6, 107, 128}));
    }
}

// Buffers of a CPU context are host memory: they run. A Vulkan context refuses message passing
// as UNSUPPORTED and leaves out unchanged.
TEST(MessagePassing, BufferTensors) {
    ContextPtr cpu = make_context(SCATTER_BACKEND_CPU);
    std::vector<ContextPtr> contexts;
    contexts.push_back(std::move(cpu));
    std::string why;
    scatter_context vulkan = vulkan_context(&why);
    std::vector<scatter_context> all = {contexts[0].get()};
    if (vulkan != nullptr) all.push_back(vulkan);
    for (scatter_context context : all) {
        Call call;
        scatter_buffer buffer = nullptr;
        ASSERT_EQ(scatter_buffer_create(context, 64, &buffer), SCATTER_OK);
        const std::vector<uint8_t> sentinel(32, 0xab);
        ASSERT_EQ(scatter_buffer_write(buffer, 0, sentinel.data(), 32), SCATTER_OK);
        call.o.data = nullptr;
        call.o.buffer = buffer;
        const scatter_status status = call.run(context);
        std::vector<float> result(8);
        ASSERT_EQ(scatter_buffer_read(buffer, 0, result.data(), 32), SCATTER_OK);
        if (context == all[0]) {
            EXPECT_EQ(status, SCATTER_OK) << scatter_last_error_message();
            EXPECT_EQ(result, (std::vector<float>{-29, -38, 40.5f, 59, 5, 6, 107, 128}));
        } else {
            EXPECT_EQ(status, SCATTER_ERROR_UNSUPPORTED);
            EXPECT_NE(std::string(scatter_last_error_message()).find("does not run scatter_message_passing"),
                      std::string::npos);
            std::vector<uint8_t> bytes(32);
            std::memcpy(bytes.data(), result.data(), 32);
            EXPECT_EQ(bytes, sentinel);
        }
        scatter_buffer_destroy(buffer);
    }
}

}  // namespace
}  // namespace scatter_test
