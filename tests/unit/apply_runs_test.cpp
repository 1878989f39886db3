// The cloned runs of src/cpu/apply_runs.h (AVX2 on this machine where it has AVX2) give the bits
// of the element-by-element definition, at every length around the vector widths and on values
// that reach every branch: NaNs with payloads, signed zeros, infinities, subnormals, extremes.
// And ordered_pick (float max/min from integer operations) agrees with docs/semantics.md's
// definition written with float comparisons.
#include "cpu/apply_runs.h"
#include "cpu/element_arith.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace scatter {
namespace {

template <class F>
F from_bits(uint64_t bits) {
    F value;
    std::memcpy(&value, &bits, sizeof(F));
    return value;
}

template <class S>
std::vector<uint64_t> special_bits() {
    if constexpr (std::is_same<S, float>::value)
        return {0x0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345,
                0x1, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff};
    else if constexpr (std::is_same<S, double>::value)
        return {0x0, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
                0xfff8000000000000, 0x7ff0000000000001, 0x1, 0x8000000000000001, 0x000fffffffffffff,
                0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff};
    else
        return {0x0, 0x1, uint64_t(-1), uint64_t(std::numeric_limits<S>::max()),
                uint64_t(std::numeric_limits<S>::min()), 0x7f, 0x80, 0xffff};
}

template <class S>
S random_value(std::mt19937_64& rng) {
    static const std::vector<uint64_t> specials = special_bits<S>();
    const uint64_t bits = rng() % 3 == 0 ? specials[rng() % specials.size()] : rng();
    return from_bits<S>(bits);
}

// The run of Combine C over lengths 0..70 (vector bodies and every tail) against C::apply.
template <class S, class C>
void expect_run_matches_elements() {
    static_assert(RunClone<C>::kCloned, "no cloned run for this reduction");
    std::mt19937_64 rng(20261126);
    for (int trial = 0; trial < 40; ++trial) {
        for (int64_t n = 0; n <= 70; ++n) {
            std::vector<S> target(size_t(n) + 1), update(size_t(n) + 1);
            for (S& v : target) v = random_value<S>(rng);
            for (S& v : update) v = random_value<S>(rng);
            std::vector<S> want(target);
            for (int64_t i = 0; i < n; ++i) want[size_t(i)] = C::apply(want[size_t(i)], update[size_t(i)]);
            RunClone<C>::function(reinterpret_cast<char*>(target.data()), reinterpret_cast<const char*>(update.data()), n);
            ASSERT_EQ(0, std::memcmp(want.data(), target.data(), sizeof(S) * target.size()))
                << "length " << n << ", trial " << trial << " (the element past the run must not change)";
        }
    }
}

template <class S, class Tr>
void expect_every_reduction() {
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_ADD, Tr, S>>();
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_SUB, Tr, S>>();
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_MUL, Tr, S>>();
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_MAX, Tr, S>>();
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_MIN, Tr, S>>();
    expect_run_matches_elements<S, Combine<SCATTER_REDUCTION_MEAN, Tr, S>>();
}

TEST(ApplyRuns, FloatRunsGiveTheElementwiseBits) {
    expect_every_reduction<float, F32Traits>();
    expect_every_reduction<double, F64Traits>();
    expect_run_matches_elements<float, Combine<SCATTER_REDUCTION_DIV, F32Traits, float>>();
    expect_run_matches_elements<double, Combine<SCATTER_REDUCTION_DIV, F64Traits, double>>();
}

TEST(ApplyRuns, IntegerRunsGiveTheElementwiseBits) {
    expect_every_reduction<int32_t, IntTraits<int32_t>>();
    expect_every_reduction<int64_t, IntTraits<int64_t>>();
    expect_every_reduction<uint32_t, IntTraits<uint32_t>>();
    expect_every_reduction<uint64_t, IntTraits<uint64_t>>();
}

// docs/semantics.md's max/min: a NaN target stays, else a NaN update wins; +0 above -0.
template <class F>
F defined_pick(F t, F u, bool max) {
    if (t != t) return t;
    if (u != u) return u;
    if (max ? (u > t || (u == t && std::signbit(t) && !std::signbit(u)))
            : (u < t || (u == t && !std::signbit(t) && std::signbit(u))))
        return u;
    return t;
}

template <class F>
void expect_ordered_pick_is_defined_pick() {
    std::mt19937_64 rng(7);
    const std::vector<uint64_t> specials = special_bits<F>();
    auto check = [](F t, F u) {
        for (bool max : {true, false}) {
            const F got = ordered_pick<F>(t, u, max), want = defined_pick<F>(t, u, max);
            ASSERT_EQ(0, std::memcmp(&got, &want, sizeof(F))) << (max ? "max" : "min") << " of " << t << ", " << u;
        }
    };
    for (uint64_t a : specials)
        for (uint64_t b : specials) check(from_bits<F>(a), from_bits<F>(b));
    for (int i = 0; i < 1000000; ++i) check(random_value<F>(rng), random_value<F>(rng));
}

TEST(ApplyRuns, FloatMaxMinFromIntegersIsTheDefinition) {
    expect_ordered_pick_is_defined_pick<float>();
    expect_ordered_pick_is_defined_pick<double>();
}

}  // namespace
}  // namespace scatter
