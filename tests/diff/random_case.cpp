#include "random_case.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace scatter_test {
namespace {

int64_t product(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

uint64_t below(Rng& rng, uint64_t n) { return rng() % n; }

int64_t random_dim(Rng& rng) {
    uint64_t r = below(rng, 100);
    if (r < 2) return 0;
    if (r < 10) {
        static const int64_t big[] = {127, 255, 256, 257};
        return big[below(rng, 4)];
    }
    static const int64_t small[] = {1, 1, 2, 3, 4, 5, 7, 13};
    return small[below(rng, 8)];
}

Shape random_shape(Rng& rng, size_t rank) {
    Shape s(rank);
    for (auto& d : s) d = random_dim(rng);
    return s;
}

// Shrinks the largest dimensions of the given shapes (all of them counted together, through
// `size_of`) until the size fits.
template <class SizeOf> void shrink_to_fit(std::vector<Shape*> shapes, int64_t limit, SizeOf size_of) {
    while (size_of() > limit) {
        int64_t* largest = nullptr;
        for (Shape* s : shapes)
            for (int64_t& d : *s)
                if (!largest || d > *largest) largest = &d;
        *largest = (*largest + 1) / 2;
    }
}

size_t random_rank(Rng& rng, size_t lowest, size_t highest) {
    // Low ranks are the common case; every rank up to `highest` still shows up.
    size_t span = highest - lowest + 1;
    size_t r = below(rng, 3) ? below(rng, std::min<size_t>(span, 4)) : below(rng, span);
    return lowest + r;
}

scatter_reduction random_reduction(Rng& rng, scatter_dtype dtype) {
    std::vector<scatter_reduction> legal;
    for (int r = SCATTER_REDUCTION_NONE; r <= SCATTER_REDUCTION_MEAN; ++r)
        if (reduction_legal(dtype, scatter_reduction(r))) legal.push_back(scatter_reduction(r));
    return legal[below(rng, legal.size())];
}

Layout random_layout(Rng& rng, bool read_only) {
    if (below(rng, 5) < 3) return Layout::row_major();
    return Layout::random(uint32_t(rng()), read_only && below(rng, 2));
}

}  // namespace

ScatterCase random_case(uint64_t seed, const RandomLimits& limits) {
    Rng rng(seed);
    ScatterCase c;
    Op op = Op(below(rng, 3));
    auto dtype = scatter_dtype(1 + below(rng, SCATTER_DTYPE_OPAQUE));
    c.op(op).dtype(dtype, dtype == SCATTER_DTYPE_OPAQUE ? uint32_t(1 + below(rng, 24)) : 0);
    c.index_dtype(below(rng, 2) ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64);
    scatter_reduction reduction = random_reduction(rng, dtype);
    c.reduction(reduction);

    Shape data, indices;
    int32_t axis = 0;
    if (op == ELEMENTS) {
        data = random_shape(rng, random_rank(rng, 1, 8));
        axis = int32_t(below(rng, data.size()));
        indices = data;
        for (size_t d = 0; d < data.size(); ++d) {
            if (d == size_t(axis)) indices[d] = below(rng, 2) ? random_dim(rng) : data[d];
            else if (below(rng, 2)) indices[d] = int64_t(below(rng, uint64_t(data[d]) + 1));
        }
        shrink_to_fit({&data, &indices}, limits.max_elements,
                      [&] { return std::max(product(data), product(indices)); });
        for (size_t d = 0; d < data.size(); ++d)  // shrinking may break indices <= data
            if (d != size_t(axis)) indices[d] = std::min(indices[d], data[d]);
    } else if (op == ROWS) {
        data = random_shape(rng, random_rank(rng, 1, 6));
        axis = int32_t(below(rng, data.size()));
        size_t q = std::min<size_t>(below(rng, 4), 9 - data.size());
        indices = random_shape(rng, q);
        shrink_to_fit({&data, &indices}, limits.max_elements, [&] {
            Shape slice = data;  // updates: data without the axis, times the indices
            slice.erase(slice.begin() + axis);
            return std::max(product(data), product(slice) * product(indices));
        });
    } else {
        data = random_shape(rng, random_rank(rng, 1, 6));
        size_t k = 1 + below(rng, data.size());
        size_t batch = std::min<size_t>(below(rng, 4), 8 - (data.size() - k));
        indices = random_shape(rng, batch);
        shrink_to_fit({&data, &indices}, limits.max_elements, [&] {
            Shape slice(data.begin() + long(k), data.end());
            return std::max(product(data), product(indices) * product(slice) * int64_t(k));
        });
        indices.push_back(int64_t(k));
    }
    if (op != ND && below(rng, 3) == 0) axis -= int32_t(data.size());  // negative axis
    c.data(data).indices(indices).axis(axis);

    auto policy = scatter_out_of_range(1 + below(rng, 3));
    c.out_of_range(policy);
    IndexProfile ip;
    if (below(rng, 3) == 0) ip.hot_targets = int64_t(1 + below(rng, 3));
    if (below(rng, 2)) ip.negative_rate = 0.3;
    if (policy != SCATTER_OUT_OF_RANGE_ERROR) ip.out_of_range_rate = below(rng, 3) ? 0.2 : 0.0;
    else if (below(rng, 8) == 0) ip.out_of_range_rate = 0.02;
    ip.extremes = below(rng, 3) == 0;
    c.index_profile(ip);

    ValueProfile vp;
    vp.specials = below(rng, 4) == 0;
    vp.plant_zero = reduction == SCATTER_REDUCTION_DIV && below(rng, 10) == 0;
    vp.loose_bools = below(rng, 5) == 0;
    c.values(rng(), vp);

    c.exclude_self(below(rng, 10) < 3);
    bool in_place = below(rng, 4) == 0;
    c.in_place(in_place);
    c.data_layout(random_layout(rng, !in_place))
        .indices_layout(random_layout(rng, true))
        .updates_layout(random_layout(rng, true))
        .out_layout(random_layout(rng, false));
    return c;
}

GatherCase random_gather_case(uint64_t seed, const RandomLimits& limits) {
    Rng rng(seed);
    GatherCase c;
    const Op op = Op(below(rng, 3));
    const auto dtype = scatter_dtype(1 + below(rng, SCATTER_DTYPE_OPAQUE));
    static const uint32_t opaque_sizes[] = {1, 3, 17};
    const uint32_t opaque = below(rng, 2) ? opaque_sizes[below(rng, 3)] : uint32_t(1 + below(rng, 24));
    c.op(op).dtype(dtype, dtype == SCATTER_DTYPE_OPAQUE ? opaque : 0);
    c.index_dtype(below(rng, 2) ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64);

    Shape data = random_shape(rng, random_rank(rng, 1, 6)), indices;
    int32_t axis = 0;
    uint32_t batch = 0;
    auto product_without = [](const Shape& s, size_t begin, size_t end) {  // s without [begin, end)
        int64_t n = 1;
        for (size_t d = 0; d < s.size(); ++d)
            if (d < begin || d >= end) n *= s[d];
        return n;
    };
    if (op == ELEMENTS) {
        axis = int32_t(below(rng, data.size()));
        indices = data;
        for (size_t d = 0; d < data.size(); ++d) {
            if (d == size_t(axis)) indices[d] = below(rng, 2) ? random_dim(rng) : data[d];
            else if (below(rng, 2)) indices[d] = int64_t(below(rng, uint64_t(data[d]) + 1));
        }
        shrink_to_fit({&data, &indices}, limits.max_elements, [&] { return std::max(product(data), product(indices)); });
        for (size_t d = 0; d < data.size(); ++d)
            if (d != size_t(axis)) indices[d] = std::min(indices[d], data[d]);
    } else if (op == ROWS) {
        axis = int32_t(below(rng, data.size()));
        indices = random_shape(rng, below(rng, 4));  // 0-d indices a quarter of the time
        shrink_to_fit({&data, &indices}, limits.max_elements, [&] {
            return std::max(product(data), product_without(data, size_t(axis), size_t(axis) + 1) * product(indices));
        });
    } else {
        batch = uint32_t(below(rng, std::min<size_t>(3, data.size())));
        const size_t k = 1 + below(rng, data.size() - batch);
        Shape middle = random_shape(rng, below(rng, 3));
        shrink_to_fit({&data, &middle}, limits.max_elements, [&] {
            const int64_t slices = product_without(data, batch, data.size()) * product(middle);
            return std::max(product(data), slices * std::max<int64_t>(product_without(data, 0, batch + k), int64_t(k)));
        });
        indices.assign(data.begin(), data.begin() + batch);
        indices.insert(indices.end(), middle.begin(), middle.end());
        indices.push_back(int64_t(k));
    }
    if (op != ND && below(rng, 3) == 0) axis -= int32_t(data.size());
    c.data(data).indices(indices).axis(axis).batch_dims(batch);

    static const scatter_out_of_range policies[] = {OOR_ERROR, OOR_CLAMP, OOR_FILL};
    const scatter_out_of_range policy = policies[below(rng, 3)];
    c.out_of_range(policy);
    if (below(rng, policy == OOR_FILL ? 2 : 5) == 0) c.fill_value();  // other policies must ignore it
    IndexProfile ip;
    if (below(rng, 3) == 0) ip.hot_targets = int64_t(1 + below(rng, 3));
    if (below(rng, 2)) ip.negative_rate = 0.3;
    if (policy != OOR_ERROR) ip.out_of_range_rate = below(rng, 3) ? 0.2 : 0.0;
    else if (below(rng, 8) == 0) ip.out_of_range_rate = 0.02;
    ip.extremes = below(rng, 3) == 0;
    c.index_profile(ip);
    ValueProfile vp;
    vp.specials = below(rng, 4) == 0;
    vp.loose_bools = below(rng, 5) == 0;
    c.values(rng(), vp);
    c.data_layout(random_layout(rng, true)).indices_layout(random_layout(rng, true)).out_layout(random_layout(rng, false));
    return c;
}

namespace {

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

uint64_t case_seed(uint64_t base, uint64_t i) {
    // splitmix64 of (base, i): neighbouring cases get unrelated seeds.
    uint64_t z = base * 0x9e3779b97f4a7c15ull + i + 0x632be59bd9b4e5ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

void run_random_cases(uint64_t count, const RandomLimits& limits,
                      const std::function<void(const ScatterCase&)>& run) {
    run_random_seeds(count, [&](uint64_t seed) { run(random_case(seed, limits)); });
}

void run_random_seeds(uint64_t count, const std::function<void(uint64_t seed)>& run) {
    uint64_t base = env_number("SCATTER_TEST_SEED", 20240601);
    count = env_number("SCATTER_TEST_ITERATIONS", count);
    uint64_t max_failing = env_number("SCATTER_TEST_MAX_FAILING_CASES", 5);
    uint64_t failing = 0;
    for (uint64_t i = 0; i < count && failing < max_failing; ++i) {
        SCOPED_TRACE("SCATTER_TEST_SEED=" + std::to_string(base) + " case " + std::to_string(i));
        const auto* result = ::testing::UnitTest::GetInstance()->current_test_info()->result();
        int parts_before = result->total_part_count();
        run(case_seed(base, i));
        if (result->total_part_count() != parts_before) ++failing;
    }
    std::printf("base seed %llu, %llu cases, %llu failing\n", (unsigned long long)base,
                (unsigned long long)count, (unsigned long long)failing);
}

}  // namespace scatter_test
