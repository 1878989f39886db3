// The atomic path (shaders/atomic.comp): updates applied with atomic read-modify-writes in
// arrival order, for `elements` whose fibers do not fit the slab path's shared memory (the slab
// path is hidden here) and for rows/nd. Taken by default only where the order cannot change a bit (wrapping integer
// add/sub/mul/max/min, bool or/and), so it must still match the CPU bitwise, under heavy
// contention and with 1- and 2-byte elements sharing words; taken for everything else but mean
// under SCATTER_OPTION_ALLOW_NONDETERMINISM, which these tests check where order cannot matter.
#include "vulkan_case.h"
#include "vulkan_env.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace vulkan_test {
namespace {

// `elements` calls whose fibers fit in shared memory take the slab path before the atomic path
// (Slab.* tests them there): hidden here, so these cases test the atomic path itself.
const bool kSlabPathHidden = [] {
    const char* hidden = std::getenv("SCATTER_VULKAN_DISABLE_FEATURES");
    std::string list = hidden != nullptr && *hidden != '\0' ? std::string(hidden) + ",slab_path" : "slab_path";
    return setenv("SCATTER_VULKAN_DISABLE_FEATURES", list.c_str(), 1) == 0;
}();

using Atomics = VulkanTest;

// `updates` updates into `targets` targets (elements: a 1-D out; rows: rows of 3; nd: points of
// a [targets, 2] out with k = 1, i.e. rows again through nd).
Case contended_case(std::mt19937_64& rng, Op op, scatter_dtype dtype, size_t targets, size_t updates,
                    bool distinct_targets) {
    Case c;
    c.op = op;
    c.dtype = dtype;
    c.element_size = uint32_t(scatter_dtype_size(dtype));
    const int64_t inner = op == Op::elements ? 1 : 3;
    c.data_shape = op == Op::elements ? std::vector<int64_t>{int64_t(targets)} : std::vector<int64_t>{int64_t(targets), inner};
    if (op == Op::elements) c.index_shape = c.update_shape = {int64_t(updates)};
    if (op == Op::rows) {
        c.index_shape = {int64_t(updates)};
        c.update_shape = {int64_t(updates), inner};
    }
    if (op == Op::nd) {
        c.index_shape = {int64_t(updates), 1};
        c.update_shape = {int64_t(updates), inner};
    }
    std::vector<int32_t> order(targets);
    for (size_t t = 0; t < targets; ++t) order[t] = int32_t(t);
    std::shuffle(order.begin(), order.end(), rng);
    c.indices.resize(updates * 4);
    for (size_t e = 0; e < updates; ++e) {
        int32_t i = distinct_targets ? order[e] : int32_t(rng() % targets);
        if (rng() % 4 == 0) i -= int32_t(targets);  // negative indices too
        std::memcpy(&c.indices[e * 4], &i, 4);
    }
    // Small values: integer sums and products wrap, float results stay exact where order matters.
    const size_t size = c.element_size;
    auto small = [&](std::vector<uint8_t>* bytes, size_t count) {
        bytes->assign(count * size, 0);
        for (size_t e = 0; e < count; ++e) {
            int v = int(rng() % 9) - 4;
            uint8_t* at = bytes->data() + e * size;
            switch (dtype) {
                case SCATTER_DTYPE_F32: { float f = float(v); std::memcpy(at, &f, 4); break; }
                case SCATTER_DTYPE_F64: { double f = double(v); std::memcpy(at, &f, 8); break; }
                case SCATTER_DTYPE_C64: { float f[2] = {float(v), float(int(rng() % 5) - 2)}; std::memcpy(at, f, 8); break; }
                case SCATTER_DTYPE_F16: { uint16_t h = v == 0 ? 0 : uint16_t((v < 0 ? 0x8000 : 0) | (0x3c00 + 0x400 * (std::abs(v) > 1))); std::memcpy(at, &h, 2); break; }
                case SCATTER_DTYPE_BF16: { float f = float(v); uint32_t b; std::memcpy(&b, &f, 4); uint16_t h = uint16_t(b >> 16); std::memcpy(at, &h, 2); break; }
                case SCATTER_DTYPE_BOOL: *at = uint8_t(rng() % 3 == 0 ? 0 : rng() % 256); break;
                default: {
                    int64_t wide = v;
                    std::memcpy(at, &wide, size);  // little-endian: the low bytes
                }
            }
        }
    };
    small(&c.data, size_t(element_count(c.data_shape)));
    small(&c.updates, size_t(element_count(c.update_shape)));
    return c;
}

void expect_same_as_cpu(scatter_context cpu, scatter_context vulkan, const Case& c, const char* what) {
    Case reference = c;
    reference.options.flags &= ~SCATTER_OPTION_ALLOW_NONDETERMINISM;
    Result want = run_case(cpu, reference, Layout::Host);
    ASSERT_EQ(want.status, SCATTER_OK) << want.message;
    for (Layout layout : {Layout::Buffer, Layout::Host}) {
        Result got = run_case(vulkan, c, layout);
        ASSERT_EQ(got.status, SCATTER_OK) << got.message;
        EXPECT_EQ(got.canary, "");
        EXPECT_EQ(got.out, want.out) << what << ": " << c.describe();
    }
}

// Default flags: thousands of updates into a few targets, every integer width and bool.
TEST_F(Atomics, OrderFreeReductionsMatchTheCpuUnderContention) {
    std::mt19937_64 rng(41);
    for (Op op : {Op::elements, Op::rows, Op::nd}) {
        for (scatter_dtype dtype : {SCATTER_DTYPE_I8, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
                                    SCATTER_DTYPE_U8, SCATTER_DTYPE_U16, SCATTER_DTYPE_U32, SCATTER_DTYPE_U64,
                                    SCATTER_DTYPE_BOOL}) {
            const bool is_bool = dtype == SCATTER_DTYPE_BOOL;
            for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MUL,
                                        SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN}) {
                if (is_bool && r != SCATTER_REDUCTION_ADD && r != SCATTER_REDUCTION_MUL) continue;
                for (bool exclude : {false, true}) {
                    Case c = contended_case(rng, op, dtype, 5, 3000, false);
                    c.options.reduction = r;
                    c.options.flags = exclude ? SCATTER_OPTION_EXCLUDE_SELF : 0;
                    expect_same_as_cpu(cpu, vulkan, c, "default flags");
                }
            }
        }
    }
}

// Float max/min take the atomic path by default with NaN updates set aside: under contention,
// with NaNs of different payloads and signs (the first in row-major order must win, or a NaN self),
// signed zeros, infinities and subnormals, the bits must be the CPU's.
TEST_F(Atomics, FloatMaxMinMatchTheCpuWithNaNPayloadsUnderContention) {
    std::mt19937_64 rng(47);
    // Bit patterns in the top of a 64-bit word, cut down to each width (f16 and bf16 keep the top
    // 16 bits of the f32 pattern's pool entry; NaN payloads stay NaN in every width).
    const uint32_t f32_pool[] = {0x7fc00000u, 0x7fc00001u, 0xffc12345u, 0x7f800001u, 0x7fe00000u, 0x00000000u,
                                 0x80000000u, 0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u, 0x3f800000u,
                                 0xbf800000u, 0x40000000u, 0xc0400000u, 0x00800000u};
    const uint16_t f16_pool[] = {0x7e00u, 0x7e01u, 0xfe55u, 0x7c01u, 0x7d00u, 0x0000u, 0x8000u, 0x7c00u,
                                 0xfc00u, 0x0001u, 0x8001u, 0x3c00u, 0xbc00u, 0x4000u, 0xc200u, 0x0400u};
    const size_t pool = 16;
    for (Op op : {Op::elements, Op::rows, Op::nd}) {
        for (scatter_dtype dtype : {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32, SCATTER_DTYPE_F64}) {
            for (scatter_reduction r : {SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN}) {
                for (bool exclude : {false, true}) {
                    Case c = contended_case(rng, op, dtype, 5, 3000, false);
                    auto fill = [&](std::vector<uint8_t>* bytes) {
                        const size_t size = c.element_size;
                        for (size_t e = 0; e < bytes->size() / size; ++e) {
                            // Mostly ordinary values, NaNs now and then: several per target.
                            const size_t k = rng() % 8 == 0 ? rng() % 5 : 5 + rng() % (pool - 5);
                            uint8_t* at = bytes->data() + e * size;
                            if (dtype == SCATTER_DTYPE_F16) std::memcpy(at, &f16_pool[k], 2);
                            if (dtype == SCATTER_DTYPE_BF16) { uint16_t h = uint16_t(f32_pool[k] >> 16); if (k < 5) h |= 0x40u; std::memcpy(at, &h, 2); }
                            if (dtype == SCATTER_DTYPE_F32) std::memcpy(at, &f32_pool[k], 4);
                            if (dtype == SCATTER_DTYPE_F64) {
                                // Sign, exponent class and payload carried over from the f32 pattern.
                                const uint32_t b = f32_pool[k];
                                const uint64_t sign = uint64_t(b >> 31) << 63;
                                const uint32_t exponent = (b >> 23) & 0xffu;
                                const uint64_t mantissa = uint64_t(b & 0x7fffffu) << 29;
                                uint64_t wide = sign | mantissa;
                                if (exponent == 0xffu) wide |= uint64_t(0x7ff) << 52;
                                else if (exponent != 0) wide |= uint64_t(exponent - 127 + 1023) << 52;
                                else wide = sign | (mantissa >> 29);  // zero or a tiny subnormal
                                std::memcpy(at, &wide, 8);
                            }
                        }
                    };
                    fill(&c.data);
                    fill(&c.updates);
                    c.options.reduction = r;
                    c.options.flags = exclude ? SCATTER_OPTION_EXCLUDE_SELF : 0;
                    expect_same_as_cpu(cpu, vulkan, c, "float max/min with NaN payloads");
                }
            }
        }
    }
}

// f32/f64 max/min land through integer atomicMax/atomicMin on a signed view (non-negative
// updates) or an unsigned view (negative ones): random bit patterns of every sign, exponent and
// mantissa (f64: low words too, so an infinity's high word meets other values' low words), a
// few infinities, into few and into many targets, must give the CPU's bits. NaNs only into many
// targets: a target that gets one keeps its first NaN, whatever the atomics did.
TEST_F(Atomics, FloatMaxMinOfRandomBitPatternsMatchTheCpu) {
    std::mt19937_64 rng(53);
    for (Op op : {Op::elements, Op::rows, Op::nd}) {
        for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_F64}) {
            for (size_t targets : {size_t(3), size_t(300)}) {
                for (scatter_reduction r : {SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN}) {
                    for (bool exclude : {false, true}) {
                        Case c = contended_case(rng, op, dtype, targets, 4000, false);
                        auto fill = [&](std::vector<uint8_t>* bytes) {
                            const size_t size = c.element_size;
                            for (size_t e = 0; e < bytes->size() / size; ++e) {
                                uint64_t bits = rng();
                                const uint64_t sign = bits >> 63 << 63;
                                int kind = int(rng() % 32);
                                if (kind == 1 && targets < 100) kind = 3;  // no NaN
                                if (size == 4) {
                                    bits >>= 32;
                                    if (kind == 0) bits = (sign >> 32) | 0x7f800000u;                // an infinity
                                    if (kind == 1) bits = (sign >> 32) | 0x7f800000u | (bits & 0xffu) | 1u;  // NaN
                                    if (kind == 2) bits = sign >> 32;                                // a zero
                                    if (kind > 2 && (bits & 0x7f800000u) == 0x7f800000u) bits &= ~0x00800000ull;
                                } else {
                                    if (kind == 0) bits = sign | 0x7ff0000000000000ull;
                                    if (kind == 1) bits = sign | 0x7ff0000000000000ull | (bits & 0xffffu) | 1u;
                                    if (kind == 2) bits = sign;
                                    if (kind > 2 && (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull)
                                        bits &= ~0x0010000000000000ull;
                                }
                                std::memcpy(bytes->data() + e * size, &bits, size);
                            }
                        };
                        fill(&c.data);
                        fill(&c.updates);
                        c.options.reduction = r;
                        c.options.flags = exclude ? SCATTER_OPTION_EXCLUDE_SELF : 0;
                        expect_same_as_cpu(cpu, vulkan, c, "float max/min of random bit patterns");
                    }
                }
            }
        }
    }
}

// Allowed non-determinism, every reduction but mean: with one update per target the order
// cannot matter, so the bits must still be the CPU's (floats, complex, and integer div too).
TEST_F(Atomics, AllowedNondeterminismIsExactWhereOrderCannotMatter) {
    std::mt19937_64 rng(43);
    for (Op op : {Op::elements, Op::rows}) {
        for (scatter_dtype dtype : {SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32, SCATTER_DTYPE_F64,
                                    SCATTER_DTYPE_C64, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_U64}) {
            const bool complex = dtype == SCATTER_DTYPE_C64;
            const bool integer = dtype == SCATTER_DTYPE_I16 || dtype == SCATTER_DTYPE_I32 || dtype == SCATTER_DTYPE_U64;
            for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MUL,
                                        SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MAX, SCATTER_REDUCTION_MIN}) {
                if (complex && (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN)) continue;
                for (bool exclude : {false, true}) {
                    Case c = contended_case(rng, op, dtype, 257, 200, true);
                    if (integer && r == SCATTER_REDUCTION_DIV)  // no zero divisor
                        for (size_t b = 0; b < c.updates.size(); b += c.element_size) c.updates[b] |= 1;
                    c.options.reduction = r;
                    c.options.flags = SCATTER_OPTION_ALLOW_NONDETERMINISM | (exclude ? SCATTER_OPTION_EXCLUDE_SELF : 0);
                    expect_same_as_cpu(cpu, vulkan, c, "distinct targets");
                }
            }
        }
    }
    // Duplicates with float values whose sums are exact in any order.
    for (scatter_dtype dtype : {SCATTER_DTYPE_F32, SCATTER_DTYPE_F64, SCATTER_DTYPE_C64}) {
        for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MAX}) {
            if (dtype == SCATTER_DTYPE_C64 && r == SCATTER_REDUCTION_MAX) continue;
            Case c = contended_case(rng, Op::elements, dtype, 3, 2000, false);
            c.options.reduction = r;
            c.options.flags = SCATTER_OPTION_ALLOW_NONDETERMINISM;
            expect_same_as_cpu(cpu, vulkan, c, "exact float sums");
        }
    }
}

// Allowed non-determinism, f32 add/sub (native float atomicAdd where the device has it): NaN
// results are the CPU's canonical NaN whatever NaN the hardware makes (NaN operands with payloads
// and signs, inf - inf), and infinities and signed zeros come out as on the CPU. One update per
// target, so the order cannot matter.
TEST_F(Atomics, AllowedNondeterminismKeepsCanonicalNaNAndSpecialValues) {
    const uint32_t specials[] = {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0xff812345u, 0x7f800000u, 0xff800000u,
                                 0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu};
    const size_t n = sizeof specials / sizeof specials[0];
    for (scatter_reduction r : {SCATTER_REDUCTION_ADD, SCATTER_REDUCTION_SUB}) {
        Case c;
        c.op = Op::elements;
        c.dtype = SCATTER_DTYPE_F32;
        c.element_size = 4;
        c.data_shape = {int64_t(n * n)};
        c.index_shape = c.update_shape = {int64_t(n * n)};
        c.data.resize(n * n * 4);
        c.updates.resize(n * n * 4);
        c.indices.resize(n * n * 4);
        for (size_t a = 0; a < n; ++a) {
            for (size_t b = 0; b < n; ++b) {
                const size_t e = a * n + b;
                const int32_t target = int32_t((e * 37) % (n * n));  // a permutation: distinct targets
                std::memcpy(&c.data[size_t(target) * 4], &specials[a], 4);
                std::memcpy(&c.updates[e * 4], &specials[b], 4);
                std::memcpy(&c.indices[e * 4], &target, 4);
            }
        }
        c.options.reduction = r;
        c.options.flags = SCATTER_OPTION_ALLOW_NONDETERMINISM;
        expect_same_as_cpu(cpu, vulkan, c, "special values");
    }
}

}  // namespace
}  // namespace vulkan_test
