// The no-crash property: random descriptors (random enums, ranks, shapes, strides, struct sizes,
// null and non-null pointers into one arena) never crash the library, a failed call leaves the
// arena and the buffer untouched, and a successful call writes nothing outside `out`.
//
// Every pointer lands in the middle of a large arena and every dimension/stride is small, so any
// descriptor the library accepts addresses only arena memory; huge dimensions come only in
// combinations whose element count overflows, which the library must refuse.
#include "scatter_call.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <random>

namespace scatter_test {
namespace {

constexpr size_t kArenaBytes = 65536;
constexpr size_t kPointerLow = 16384, kPointerHigh = 49152;
constexpr uint64_t kBufferBytes = 4096;
constexpr size_t kMaxShapeEntries = 32;  // more than any rank the library may read
constexpr uint32_t kTailBytes = 64;

// A descriptor followed by a tail, so a struct_size up to sizeof + kTailBytes stays in bounds.
template <class T>
struct Padded {
    T value;
    uint8_t tail[kTailBytes];
};

class Garbage {
public:
    explicit Garbage(uint64_t seed) : rng_(seed) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <class T>
    T pick(std::initializer_list<T> values) {
        return *(values.begin() + uniform(0, static_cast<int>(values.size()) - 1));
    }

    template <class T>
    void struct_size(Padded<T>& padded) {
        std::memset(padded.tail, 0, sizeof(padded.tail));
        if (chance(0.9)) return;
        switch (uniform(0, 3)) {
        case 0: padded.value.struct_size = pick<uint32_t>({0, 4, sizeof(T) - 4}); break;
        case 1: padded.value.struct_size = sizeof(T) + 8; break;
        case 2:
            padded.value.struct_size = sizeof(T) + 16;
            padded.tail[uniform(0, 15)] = 1;
            break;
        default: padded.value.struct_size = sizeof(T) + kTailBytes; break;
        }
    }

private:
    std::mt19937_64 rng_;
};

// One call's worth of descriptors and the arrays they point at.
struct Descriptors {
    Padded<scatter_tensor> tensor[4];  // data, indices, updates, out
    Padded<scatter_options> options;
    int64_t shape[4][kMaxShapeEntries];
    int64_t strides[4][kMaxShapeEntries];
};

// Shapes that fit the op's rules (so many calls succeed and reach the kernels).
void coherent_shapes(Garbage& g, int op, std::vector<int64_t> dims[4], int32_t* axis) {
    const int r = g.uniform(1, 3);
    std::vector<int64_t> data(r);
    for (auto& d : data) d = g.uniform(1, 4);
    *axis = g.uniform(-r, r - 1);
    const int a = *axis < 0 ? *axis + r : *axis;
    std::vector<int64_t> indices, updates;
    if (op == 0) {  // elements
        indices = data;
        for (int d = 0; d < r; ++d) indices[d] = d == a ? g.uniform(0, 5) : g.uniform(0, data[d]);
        updates = indices;
    } else if (op == 1) {  // rows
        const int q = g.uniform(0, 2);
        for (int d = 0; d < q; ++d) indices.push_back(g.uniform(0, 3));
        updates.assign(data.begin(), data.begin() + a);
        updates.insert(updates.end(), indices.begin(), indices.end());
        updates.insert(updates.end(), data.begin() + a + 1, data.end());
    } else {  // nd
        *axis = 0;
        const int k = g.uniform(1, r);
        const int batch = g.uniform(0, 2);
        for (int d = 0; d < batch; ++d) indices.push_back(g.uniform(0, 3));
        updates = indices;
        indices.push_back(k);
        updates.insert(updates.end(), data.begin() + k, data.end());
    }
    dims[0] = data;
    dims[1] = indices;
    dims[2] = updates;
    dims[3] = data;
}

scatter_dtype random_dtype(Garbage& g) {
    if (g.chance(0.9)) return static_cast<scatter_dtype>(g.uniform(1, 16));
    return static_cast<scatter_dtype>(g.pick<int>({0, 17, 99, -1}));
}

// Fills one tensor descriptor (of shape `dims`, mostly `dtype`) with garbage of various degrees;
// shape and strides are its arrays.
void garbage_tensor(Garbage& g, const std::vector<int64_t>& dims, scatter_dtype dtype, uint32_t opaque_size,
                    uint8_t* arena, scatter_buffer buffer, Padded<scatter_tensor>& padded, int64_t* shape,
                    int64_t* strides) {
    scatter_tensor& desc = padded.value;
    desc = SCATTER_TENSOR_INIT;
    g.struct_size(padded);
    desc.dtype = dtype;
    desc.element_size = desc.dtype == SCATTER_DTYPE_OPAQUE ? opaque_size : 0;
    if (g.chance(0.05)) desc.element_size = static_cast<uint32_t>(g.uniform(0, 20));

    for (size_t i = 0; i < kMaxShapeEntries; ++i) shape[i] = g.uniform(0, 3);
    std::copy(dims.begin(), dims.end(), shape);
    desc.rank = static_cast<uint32_t>(dims.size());
    if (g.chance(0.05)) desc.rank = static_cast<uint32_t>(g.uniform(0, 4));
    if (g.chance(0.05) && desc.rank > 0) shape[g.uniform(0, desc.rank - 1)] = -g.uniform(1, 3);
    if (g.chance(0.02) && desc.rank >= 2) {  // the element count overflows int64
        shape[0] = int64_t{1} << 40;
        shape[1] = g.chance(0.5) ? int64_t{1} << 40 : INT64_MAX;
    }
    if (g.chance(0.01)) desc.rank = g.pick<uint32_t>({SCATTER_MAX_RANK + 1, 1000, 0xffffffffu});
    desc.shape = g.chance(0.01) ? nullptr : shape;

    if (g.chance(0.3)) {
        for (size_t i = 0; i < kMaxShapeEntries; ++i) strides[i] = g.uniform(-3, 3);
        desc.strides = strides;
    }
    if (g.chance(0.05)) {
        desc.buffer = buffer;
        desc.byte_offset = g.chance(0.8) ? static_cast<uint64_t>(g.uniform(0, 2048)) * 8
                                         : UINT64_MAX - static_cast<uint64_t>(g.uniform(0, 64));
        if (g.chance(0.8)) return;  // else: a host pointer as well
    }
    desc.data = g.chance(0.03) ? nullptr
                               : arena + static_cast<size_t>(g.uniform(kPointerLow / 16, kPointerHigh / 16)) * 16;
}

// Fills every descriptor of one call with garbage of various degrees.
void make_garbage(Garbage& g, int op, uint8_t* arena, scatter_buffer buffer, Descriptors& d) {
    std::vector<int64_t> dims[4];
    int32_t axis = 0;
    coherent_shapes(g, op, dims, &axis);
    const scatter_dtype dtype = random_dtype(g);
    const uint32_t opaque_size = static_cast<uint32_t>(g.uniform(1, 16));
    const scatter_dtype index_dtype = g.chance(0.9) ? g.pick({SCATTER_DTYPE_I32, SCATTER_DTYPE_I64})
                                                    : random_dtype(g);
    for (int t = 0; t < 4; ++t)
        garbage_tensor(g, dims[t], t == 1 ? index_dtype : (g.chance(0.95) ? dtype : random_dtype(g)), opaque_size,
                       arena, buffer, d.tensor[t], d.shape[t], d.strides[t]);
    if (g.chance(0.3)) d.tensor[3].value = d.tensor[0].value;  // in place

    scatter_options& o = d.options.value;
    o = SCATTER_OPTIONS_INIT;
    g.struct_size(d.options);
    o.axis = g.chance(0.9) ? axis : g.pick<int32_t>({-5, 4, INT32_MIN, INT32_MAX});
    o.reduction = static_cast<scatter_reduction>(g.chance(0.9) ? g.uniform(0, 8) : g.pick({-1, 9, 1000}));
    o.out_of_range = static_cast<scatter_out_of_range>(g.chance(0.9) ? g.uniform(0, 3) : g.pick({-1, 4}));
    o.flags = g.chance(0.9) ? static_cast<uint32_t>(g.uniform(0, 3)) : g.pick<uint32_t>({4, 0x80000000u});
}

// Marks in `written` every arena byte an element of a valid host tensor occupies.
void mark_footprint(const scatter_tensor& t, uint32_t element_size, const uint8_t* arena,
                    std::vector<bool>& written) {
    std::vector<int64_t> strides(t.rank);
    int64_t contiguous = 1;
    for (int d = static_cast<int>(t.rank) - 1; d >= 0; --d) {
        strides[d] = t.strides ? t.strides[d] : contiguous;
        contiguous *= t.shape[d];
    }
    std::vector<int64_t> position(t.rank, 0);
    for (uint32_t d = 0; d < t.rank; ++d)
        if (t.shape[d] == 0) return;
    const auto base = static_cast<const uint8_t*>(t.data) - arena;
    while (true) {
        int64_t offset = 0;
        for (uint32_t d = 0; d < t.rank; ++d) offset += position[d] * strides[d];
        for (uint32_t b = 0; b < element_size; ++b) written.at(base + offset * element_size + b) = true;
        int d = static_cast<int>(t.rank) - 1;
        while (d >= 0 && ++position[d] == t.shape[d]) position[d--] = 0;
        if (d < 0) return;
    }
}

// The property after one call: a failure left the arena and the buffer unchanged and says why in
// one sentence; a success wrote nothing but out's elements.
void expect_only_out_written(uint64_t iteration, scatter_status status, const scatter_tensor& out,
                             const std::vector<uint8_t>& arena, const std::vector<uint8_t>& before,
                             const std::vector<uint8_t>& buffer_before, const std::vector<uint8_t>& buffer_after) {
    if (status != SCATTER_OK) {
        ASSERT_TRUE(arena == before) << "iteration " << iteration << ": a failed call ("
                                     << scatter_status_name(status) << ": " << scatter_last_error_message()
                                     << ") changed the arena";
        ASSERT_TRUE(buffer_after == buffer_before) << "iteration " << iteration << ": a failed call changed the buffer";
        ASSERT_TRUE(is_one_sentence(scatter_last_error_message()));
        return;
    }
    if (out.data == nullptr) {
        ASSERT_TRUE(arena == before) << "iteration " << iteration << ": out is in the buffer";
        return;
    }
    ASSERT_TRUE(buffer_after == buffer_before) << "iteration " << iteration;
    std::vector<bool> written(kArenaBytes, false);
    const uint32_t size =
        out.dtype == SCATTER_DTYPE_OPAQUE ? out.element_size : static_cast<uint32_t>(scatter_dtype_size(out.dtype));
    mark_footprint(out, size, arena.data(), written);
    for (size_t i = 0; i < kArenaBytes; ++i)
        ASSERT_TRUE(written[i] || arena[i] == before[i])
            << "iteration " << iteration << ": byte " << i << " outside out changed";
}

uint64_t iterations() {
    const char* env = std::getenv("SCATTER_GARBAGE_ITERATIONS");
    return env ? std::strtoull(env, nullptr, 10) : 20000;
}

// SCATTER_GARBAGE_SEED: another seed draws other descriptors (the long tier's run).
uint64_t seed() {
    const char* env = std::getenv("SCATTER_GARBAGE_SEED");
    return env ? std::strtoull(env, nullptr, 10) : 12345;
}

TEST(GarbageDescriptors, NeverCrashAndFailuresChangeNothing) {
    ContextPtr context = make_test_context(2);
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(context.get(), kBufferBytes, &buffer), SCATTER_OK);
    std::vector<uint8_t> arena(kArenaBytes);
    std::vector<uint8_t> buffer_bytes(kBufferBytes), buffer_after(kBufferBytes);
    std::map<std::string, int> histogram;
    Garbage g(seed());
    auto descriptors = std::make_unique<Descriptors>();
    // Small values (in every index dtype's range) in every 8-byte word of the arena; a few
    // variants, copied in before each call.
    std::vector<std::vector<uint8_t>> fillings(4, std::vector<uint8_t>(kArenaBytes));
    for (auto& filling : fillings)
        for (size_t i = 0; i < kArenaBytes; i += 8) {
            const int64_t value = g.uniform(-5, 5);
            std::memcpy(&filling[i], &value, 8);
        }

    for (uint64_t iteration = 0; iteration < iterations(); ++iteration) {
        arena = fillings[iteration % fillings.size()];
        const int op = g.uniform(0, 2);
        Descriptors& d = *descriptors;
        make_garbage(g, op, arena.data(), buffer, d);
        ASSERT_EQ(scatter_buffer_read(buffer, 0, buffer_bytes.data(), kBufferBytes), SCATTER_OK);
        const std::vector<uint8_t> before = arena;

        const scatter_tensor* args[4];
        for (int t = 0; t < 4; ++t) args[t] = g.chance(0.01) ? nullptr : &d.tensor[t].value;
        const scatter_options* options = g.chance(0.1) ? nullptr : &d.options.value;
        scatter_context ctx = g.chance(0.01) ? nullptr : context.get();
        const scatter_status status =
            run_op(all_ops()[op], ctx, args[0], args[1], args[2], options, args[3]);
        histogram[scatter_status_name(status)]++;

        ASSERT_EQ(scatter_buffer_read(buffer, 0, buffer_after.data(), kBufferBytes), SCATTER_OK);
        expect_only_out_written(iteration, status, d.tensor[3].value, arena, before, buffer_bytes, buffer_after);
        if (HasFatalFailure()) return;
    }
    scatter_buffer_destroy(buffer);

    std::cout << "statuses over " << iterations() << " random calls:";
    for (const auto& [name, count] : histogram) std::cout << " " << name << "=" << count;
    std::cout << "\n";
    // The generator must reach the kernels often and the validator often.
    EXPECT_GT(histogram["SCATTER_OK"], static_cast<int>(iterations() / 50));
    EXPECT_LT(histogram["SCATTER_OK"], static_cast<int>(iterations()));
    EXPECT_EQ(histogram["SCATTER_ERROR_INTERNAL"], 0);
}

// scatter_message_passing under the same property: data [M, F...], x [N, F...], src, dst and
// (half of the time) weights [E], out data's or data itself; garbage options, fill values in the
// arena. A Vulkan context (errors.vulkan_matrix) refuses every call that passes validation as
// UNSUPPORTED, also before writing anything.
TEST(GarbageDescriptors, MessagePassingNeverCrashesAndFailuresChangeNothing) {
    ContextPtr context = make_test_context(2);
    scatter_buffer buffer = nullptr;
    ASSERT_EQ(scatter_buffer_create(context.get(), kBufferBytes, &buffer), SCATTER_OK);
    std::vector<uint8_t> arena(kArenaBytes), filling(kArenaBytes);
    std::vector<uint8_t> buffer_bytes(kBufferBytes), buffer_after(kBufferBytes);
    std::map<std::string, int> histogram;
    Garbage g(seed() + 1);
    for (size_t i = 0; i < kArenaBytes; i += 8) {
        const int64_t value = g.uniform(-5, 5);
        std::memcpy(&filling[i], &value, 8);
    }
    struct Call {
        Padded<scatter_tensor> tensor[6];  // data, x, src, dst, weights, out
        Padded<scatter_message_passing_options> options;
        int64_t shape[6][kMaxShapeEntries], strides[6][kMaxShapeEntries];
    };
    auto call = std::make_unique<Call>();
    for (uint64_t iteration = 0; iteration < iterations() / 4; ++iteration) {
        arena = filling;
        const int r = g.uniform(1, 3);
        std::vector<int64_t> data(r), edges{g.uniform(0, 6)};
        for (auto& extent : data) extent = g.uniform(1, 4);
        std::vector<int64_t> x = data;
        x[0] = g.uniform(0, 4);
        const std::vector<int64_t>* dims[6] = {&data, &x, &edges, &edges, &edges, &data};
        const scatter_dtype dtype = random_dtype(g);
        const uint32_t opaque_size = static_cast<uint32_t>(g.uniform(1, 16));
        for (int t = 0; t < 6; ++t) {
            const bool index = t == 2 || t == 3;
            const scatter_dtype type = index ? (g.chance(0.9) ? g.pick({SCATTER_DTYPE_I32, SCATTER_DTYPE_I64})
                                                              : random_dtype(g))
                                             : (g.chance(0.95) ? dtype : random_dtype(g));
            garbage_tensor(g, *dims[t], type, opaque_size, arena.data(), buffer, call->tensor[t], call->shape[t],
                           call->strides[t]);
        }
        if (g.chance(0.3)) call->tensor[5].value = call->tensor[0].value;  // in place
        scatter_message_passing_options& o = call->options.value;
        o = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
        g.struct_size(call->options);
        o.reduction = static_cast<scatter_reduction>(g.chance(0.9) ? g.uniform(0, 8) : g.pick({-1, 9}));
        // Mostly a policy the vector takes (src: no SKIP, dst: no FILL), sometimes any value.
        o.src_out_of_range = static_cast<scatter_out_of_range>(g.chance(0.9) ? g.pick({0, 1, 3, 4}) : g.pick({-1, 2, 5}));
        o.dst_out_of_range = static_cast<scatter_out_of_range>(g.chance(0.9) ? g.pick({0, 1, 2, 3}) : g.pick({-1, 4, 5}));
        o.fill_value = g.chance(0.5) ? nullptr : arena.data() + kPointerLow;
        o.flags = g.chance(0.9) ? static_cast<uint32_t>(g.uniform(0, 3)) : 0x80000000u;

        ASSERT_EQ(scatter_buffer_read(buffer, 0, buffer_bytes.data(), kBufferBytes), SCATTER_OK);
        const std::vector<uint8_t> before = arena;
        const scatter_tensor* args[6];
        for (int t = 0; t < 6; ++t) args[t] = g.chance(0.01) ? nullptr : &call->tensor[t].value;
        if (g.chance(0.5)) args[4] = nullptr;  // no weights
        const scatter_status status = scatter_message_passing(g.chance(0.01) ? nullptr : context.get(), args[0],
                                                              args[1], args[2], args[3], args[4],
                                                              g.chance(0.1) ? nullptr : &o, args[5]);
        histogram[scatter_status_name(status)]++;
        ASSERT_EQ(scatter_buffer_read(buffer, 0, buffer_after.data(), kBufferBytes), SCATTER_OK);
        expect_only_out_written(iteration, status, call->tensor[5].value, arena, before, buffer_bytes, buffer_after);
        if (HasFatalFailure()) return;
    }
    scatter_buffer_destroy(buffer);
    std::cout << "statuses over " << iterations() / 4 << " random message-passing calls:";
    for (const auto& [name, count] : histogram) std::cout << " " << name << "=" << count;
    std::cout << "\n";
    scatter_backend backend = SCATTER_BACKEND_CPU;
    ASSERT_EQ(scatter_context_backend(context.get(), &backend), SCATTER_OK);
    const char* reached = backend == SCATTER_BACKEND_VULKAN ? "SCATTER_ERROR_UNSUPPORTED" : "SCATTER_OK";
    // Calls that pass validation are a few percent: counted only over enough of them.
    if (iterations() / 4 >= 250) {
        EXPECT_GT(histogram[reached], static_cast<int>(iterations() / 4 / 50));
    }
    EXPECT_EQ(histogram["SCATTER_ERROR_INTERNAL"], 0);
}

}  // namespace
}  // namespace scatter_test
