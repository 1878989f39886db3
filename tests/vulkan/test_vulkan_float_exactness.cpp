// Float arithmetic bit for bit like the CPU: division (Vulkan allows OpFDiv 2.5 ulp of error, so
// the backend divides exactly in integers) and add/sub/mul/max/min/mean around the subnormal
// range. CMake runs this binary again with the shaders acting as on a device that flushes
// subnormals (vulkan.flush_to_zero) and with f32 mul on its integer path (vulkan.soft_float).
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace vulkan_test {
namespace {

using FloatExactness = VulkanTest;


// Random bit patterns (normals, subnormals, zeros, infinities, NaNs, extreme exponents) divided
// element by element: Vulkan allows OpFDiv 2.5 ulp of error, so the backend divides exactly in
// integers; every quotient (and every mean, and complex division) must carry the CPU's bits.
// int32 indices 0, 1, ..., n - 1: every update reaches its own target.
std::vector<uint8_t> identity_indices(size_t n) {
    std::vector<uint8_t> bytes(n * 4);
    for (size_t e = 0; e < n; ++e) {
        int32_t v = int32_t(e);
        std::memcpy(&bytes[e * 4], &v, 4);
    }
    return bytes;
}

// elements on n elements of `dtype`, update e into target e (data and updates zero-filled).
Case one_to_one_case(scatter_dtype dtype, size_t n) {
    const size_t size = scatter_dtype_size(dtype);
    Case c;
    c.op = Op::elements;
    c.dtype = dtype;
    c.element_size = uint32_t(size);
    c.data_shape = c.index_shape = c.update_shape = {int64_t(n)};
    c.data.resize(n * size);
    c.updates.resize(n * size);
    c.indices = identity_indices(n);
    return c;
}

// Bitwise comparison element by element, naming how many differ and the first.
void expect_same_elements(const Result& got, const Result& want, size_t size, const Case& c) {
    const size_t n = want.out.size() / size;
    size_t differing = 0, first = n;
    for (size_t e = 0; e < n; ++e) {
        if (std::memcmp(&got.out[e * size], &want.out[e * size], size) != 0) {
            if (first == n) first = e;
            ++differing;
        }
    }
    EXPECT_EQ(differing, 0u) << scatter_dtype_name(c.dtype) << " " << scatter_reduction_name(c.options.reduction)
                             << ": first differing element " << first;
}

TEST_F(FloatExactness, DivisionIsCorrectlyRoundedLikeTheCpu) {
    std::mt19937_64 rng(29);
    const size_t n = 20000;
    for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_F64, SCATTER_DTYPE_C64, SCATTER_DTYPE_C128,
                                SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16}) {
        const size_t size = scatter_dtype_size(dtype);
        Case c = one_to_one_case(dtype, n);
        auto random_bits = [&](uint8_t* p) {
            for (size_t b = 0; b < size; ++b) p[b] = uint8_t(rng());
            // Bias a third of the values towards tiny and huge exponents (subnormal results).
            if (rng() % 3 == 0) p[size - 1] = uint8_t((p[size - 1] & 0x80) | (rng() % 2 ? 0x00 : 0x7f));
        };
        for (size_t e = 0; e < n; ++e) {
            random_bits(&c.data[e * size]);
            random_bits(&c.updates[e * size]);
        }
        for (scatter_reduction r : {SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MEAN}) {
            c.options.reduction = r;
            Result want = run_case(cpu, c, Layout::Host);
            ASSERT_EQ(want.status, SCATTER_OK);
            Result got = run_case(vulkan, c, Layout::Buffer);
            ASSERT_EQ(got.status, SCATTER_OK) << got.message;
            expect_same_elements(got, want, size, c);
        }
    }
}

// Complex division (Smith's algorithm, both of its cases in one path in the shaders) over every
// combination of special components: signed zeros (where a sum's sign depends on its operands'
// signs only), equal magnitudes (the case boundary |c| = |d|), infinities, NaN, subnormals and
// values whose products overflow or underflow. Every a + bi / c + di of the set, c64 and c128.
template <class T>
std::vector<T> special_components() {
    const T inf = std::numeric_limits<T>::infinity(), tiny = std::numeric_limits<T>::denorm_min();
    const T huge = std::numeric_limits<T>::max() / T(4), small = std::numeric_limits<T>::min() * T(3);
    return {T(0), -T(0), T(1), T(-1), T(2), T(-3), T(0.75), inf, -inf, std::numeric_limits<T>::quiet_NaN(),
            tiny, -tiny, huge, -huge, small};
}

template <class T>
void expect_complex_division_like_the_cpu(scatter_context vulkan, scatter_context cpu, scatter_dtype dtype) {
    const std::vector<T> v = special_components<T>();
    const size_t k = v.size(), n = k * k * k * k;
    Case c = one_to_one_case(dtype, n);
    size_t e = 0;
    for (T a : v)
        for (T b : v)
            for (T cr : v)
                for (T d : v) {
                    const T t[2] = {a, b}, u[2] = {cr, d};
                    std::memcpy(&c.data[e * sizeof t], t, sizeof t);
                    std::memcpy(&c.updates[e * sizeof u], u, sizeof u);
                    ++e;
                }
    c.options.reduction = SCATTER_REDUCTION_DIV;
    Result want = run_case(cpu, c, Layout::Host);
    ASSERT_EQ(want.status, SCATTER_OK);
    Result got = run_case(vulkan, c, Layout::Buffer);
    ASSERT_EQ(got.status, SCATTER_OK) << got.message;
    expect_same_elements(got, want, 2 * sizeof(T), c);
}

TEST_F(FloatExactness, ComplexDivisionOfSpecialComponentsIsTheCpus) {
    expect_complex_division_like_the_cpu<float>(vulkan, cpu, SCATTER_DTYPE_C64);
    expect_complex_division_like_the_cpu<double>(vulkan, cpu, SCATTER_DTYPE_C128);
}

// f32 division of normals with normal quotients, the case the hardware's estimate serves
// (exact_divide.glsl: an estimate corrected by its exact remainder): random significands, exact
// quotients (remainder 0), significands at the ends of [1, 2) (quotients next to 1 and to 2,
// where the dividend is doubled or not), and each of those with its neighbours one and two ulps
// away. The run under float_fast_path hidden (vulkan.soft_float) checks the long division.
uint32_t f32_bits(uint32_t sign, uint32_t field, uint32_t fraction) { return sign << 31 | field << 23 | fraction; }

TEST_F(FloatExactness, DivisionOfNormalsIsCorrectlyRoundedLikeTheCpu) {
    std::mt19937_64 rng(41);
    const size_t n = 60000;
    Case c = one_to_one_case(SCATTER_DTYPE_F32, n);
    const uint32_t edges[] = {0u, 1u, 2u, 0x7fffffu, 0x7ffffeu, 0x7ffffdu, 0x400000u, 0x3fffffu, 0x555555u, 0x2aaaaau};
    for (size_t e = 0; e < n; ++e) {
        const uint32_t field_a = 64 + uint32_t(rng() % 128), field_b = 64 + uint32_t(rng() % 128);
        uint32_t a = f32_bits(uint32_t(rng() % 2), field_a, uint32_t(rng()) & 0x7fffffu);
        uint32_t b = f32_bits(uint32_t(rng() % 2), field_b, uint32_t(rng()) & 0x7fffffu);
        switch (e % 4) {
            case 0: break;  // random significands
            case 1: {       // a = b * k exactly: k's significand has at most 8 bits, b's 16
                b &= ~0xffu;
                const float k = float(1 + rng() % 255);
                float product;
                std::memcpy(&product, &b, 4);
                product *= k;
                std::memcpy(&a, &product, 4);
                break;
            }
            case 2:  // significands at the ends of [1, 2)
                a = f32_bits(uint32_t(rng() % 2), field_a, edges[rng() % 10]);
                b = f32_bits(uint32_t(rng() % 2), field_b, edges[rng() % 10]);
                break;
            default:  // a neighbour of an end, one or two ulps away
                a = f32_bits(0, field_a, edges[rng() % 10]) + uint32_t(rng() % 5) - 2u;
                b = f32_bits(1, field_b, edges[rng() % 10]) + uint32_t(rng() % 5) - 2u;
                break;
        }
        std::memcpy(&c.data[e * 4], &a, 4);
        std::memcpy(&c.updates[e * 4], &b, 4);
    }
    c.options.reduction = SCATTER_REDUCTION_DIV;
    Result want = run_case(cpu, c, Layout::Host);
    ASSERT_EQ(want.status, SCATTER_OK);
    Result got = run_case(vulkan, c, Layout::Buffer);
    ASSERT_EQ(got.status, SCATTER_OK) << got.message;
    expect_same_elements(got, want, 4, c);
}

// Add, sub, mul, max, min and mean on values crowded around the subnormal range: exponent fields
// 0..3, operands near the threshold below which exact_arith.glsl adds in scaled form, signed
// zeros, pairs x and -x, and products that land near or below the smallest normal. Bitwise
// equal to the CPU. The ctest runs vulkan.flush_to_zero and vulkan.soft_float repeat this with the
// shaders acting as on a device that flushes subnormals (SCATTER_VULKAN_DISABLE_FEATURES).
struct FloatFormat {
    int width, fraction_bits, bias;
};

uint64_t random_tiny_biased(std::mt19937_64& rng, FloatFormat f, uint64_t other) {
    const int exponent_bits = f.width - 1 - f.fraction_bits;
    const uint64_t max_field = (uint64_t(1) << exponent_bits) - 1;
    const uint64_t fraction = rng() & ((uint64_t(1) << f.fraction_bits) - 1);
    const uint64_t sign = uint64_t(rng() % 2) << (f.width - 1);
    auto make = [&](int64_t field) {
        field = std::max<int64_t>(0, std::min<int64_t>(int64_t(max_field), field));
        return sign | (uint64_t(field) << f.fraction_bits) | fraction;
    };
    const int64_t other_field = int64_t((other >> f.fraction_bits) & max_field);
    switch (rng() % 8) {
        case 0: return f.width == 64 ? rng() : rng() & ((uint64_t(1) << f.width) - 1);
        case 1:
        case 2: return make(int64_t(rng() % 4));  // subnormal or barely normal
        case 3: return make(f.fraction_bits + 8 + int64_t(rng() % 7) - 3);  // the scaled-add threshold
        case 4: return sign;  // a signed zero
        case 5: return other ^ (uint64_t(1) << (f.width - 1));  // -other
        case 6: return make(f.bias + 1 - other_field - int64_t(rng() % (f.fraction_bits + 6)) + 3);  // tiny product
        default: return make(int64_t(max_field) - 1 - int64_t(rng() % 3));  // huge (overflow)
    }
}

TEST_F(FloatExactness, AddSubMulMaxMinAreExactForSubnormalsLikeTheCpu) {
    std::mt19937_64 rng(37);
    const size_t n = 20000;
    const FloatFormat f16{16, 10, 15}, bf16{16, 7, 127}, f32{32, 23, 127}, f64{64, 52, 1023};
    const std::pair<scatter_dtype, FloatFormat> dtypes[] = {
        {SCATTER_DTYPE_F32, f32}, {SCATTER_DTYPE_BF16, bf16}, {SCATTER_DTYPE_C64, f32},
        {SCATTER_DTYPE_F64, f64}, {SCATTER_DTYPE_C128, f64}, {SCATTER_DTYPE_F16, f16}};
    for (const auto& [dtype, format] : dtypes) {
        const size_t size = scatter_dtype_size(dtype), part = size_t(format.width / 8);
        Case c = one_to_one_case(dtype, n);
        for (size_t b = 0; b < n * size; b += part) {
            uint64_t t = random_tiny_biased(rng, format, rng());
            uint64_t u = random_tiny_biased(rng, format, t);
            std::memcpy(&c.data[b], &t, part);  // little endian: the low bytes
            std::memcpy(&c.updates[b], &u, part);
        }
        for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MUL,
                                    SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN, SCATTER_REDUCTION_MEAN}) {
            const bool complex = dtype == SCATTER_DTYPE_C64 || dtype == SCATTER_DTYPE_C128;
            if (complex && (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN)) continue;  // unordered
            c.options.reduction = r;
            Result want = run_case(cpu, c, Layout::Host);
            ASSERT_EQ(want.status, SCATTER_OK) << want.message;
            Result got = run_case(vulkan, c, Layout::Buffer);
            ASSERT_EQ(got.status, SCATTER_OK) << got.message;
            expect_same_elements(got, want, size, c);
        }
    }
}

}  // namespace
}  // namespace vulkan_test
