#include "message_passing_case.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "dtypes.h"
#include "gather_reference.h"
#include "scatter_reference.h"
#include "test_backends.h"

namespace scatter_test {
namespace {

uint64_t below(Rng& rng, uint64_t n) { return rng() % n; }

int64_t random_extent(Rng& rng) {
    static const int64_t extents[] = {0, 1, 1, 2, 3, 4, 5, 7, 13, 13, 127, 257};
    return extents[below(rng, sizeof extents / sizeof extents[0])];
}

Layout random_layout(Rng& rng, bool read_only) {
    const uint64_t r = below(rng, 6);
    if (r < 3) return Layout::row_major();
    if (r == 3) return Layout::every_second();
    return Layout::random(uint32_t(rng()), read_only && below(rng, 2));
}

// [E, F...] with the weights' stride on the first dimension and 0 on the others: w[e] at every
// element of message e.
struct BroadcastWeights {
    Shape shape, strides;
    scatter_tensor tensor;
    BroadcastWeights(const scatter_tensor& weights, const Shape& message_shape) : shape(message_shape) {
        strides.assign(shape.size(), 0);
        strides[0] = weights.strides != nullptr ? weights.strides[0] : 1;
        tensor = weights;
        tensor.rank = uint32_t(shape.size());
        tensor.shape = shape.data();
        tensor.strides = strides.data();
    }
};

}  // namespace

scatter_status compose_message_passing(const ComposedCalls& calls, const scatter_tensor* data,
                                       const scatter_tensor* x, const scatter_tensor* src, const scatter_tensor* dst,
                                       const scatter_tensor* weights, const scatter_message_passing_options* options,
                                       const scatter_tensor* out) {
    const int64_t edges = src->shape[0];
    Shape message_shape{edges};
    for (uint32_t d = 1; d < data->rank; ++d) message_shape.push_back(data->shape[d]);
    HostTensor messages(data->dtype, message_shape, data->element_size);
    const scatter_tensor m = messages.descriptor();

    scatter_gather_options gather = SCATTER_GATHER_OPTIONS_INIT;
    gather.out_of_range = options->src_out_of_range;
    gather.fill_value = options->fill_value;
    scatter_status status = calls.gather(calls.user, x, src, &gather, &m);
    if (status != SCATTER_OK) return status;

    if (weights != nullptr) {
        HostTensor positions(SCATTER_DTYPE_I64, Shape{edges});
        for (int64_t e = 0; e < edges; ++e) positions.set(e, double(e));
        const scatter_tensor p = positions.descriptor();
        const BroadcastWeights w(*weights, message_shape);
        scatter_options multiply = SCATTER_OPTIONS_INIT;
        multiply.reduction = SCATTER_REDUCTION_MUL;
        status = calls.rows(calls.user, &m, &p, &w.tensor, &multiply, &m);
        if (status != SCATTER_OK) return status;
    }

    scatter_options scatter = SCATTER_OPTIONS_INIT;
    scatter.reduction = options->reduction == SCATTER_REDUCTION_DEFAULT ? SCATTER_REDUCTION_ADD : options->reduction;
    scatter.out_of_range = options->dst_out_of_range;
    scatter.flags = options->flags & SCATTER_OPTION_EXCLUDE_SELF;
    return calls.rows(calls.user, data, dst, &m, &scatter, out);
}

ComposedCalls reference_calls() {
    ComposedCalls calls;
    calls.gather = [](void*, const scatter_tensor* d, const scatter_tensor* i, const scatter_gather_options* o,
                      const scatter_tensor* out) { return scatter_reference::gather(Op::rows, d, i, o, out); };
    calls.rows = [](void*, const scatter_tensor* d, const scatter_tensor* i, const scatter_tensor* u,
                    const scatter_options* o, const scatter_tensor* out) {
        return scatter_reference::run(Op::rows, d, i, u, o, out);
    };
    calls.user = nullptr;
    return calls;
}

ComposedCalls library_calls(scatter_context context) {
    ComposedCalls calls;
    calls.gather = [](void* c, const scatter_tensor* d, const scatter_tensor* i, const scatter_gather_options* o,
                      const scatter_tensor* out) {
        return scatter_gather_rows(static_cast<scatter_context>(c), d, i, o, out);
    };
    calls.rows = [](void* c, const scatter_tensor* d, const scatter_tensor* i, const scatter_tensor* u,
                    const scatter_options* o, const scatter_tensor* out) {
        return scatter_rows(static_cast<scatter_context>(c), d, i, u, o, out);
    };
    calls.user = context;
    return calls;
}

std::string MessagePassingCase::describe() const {
    std::ostringstream s;
    s << "dtype " << dtype_label(dtype) << "(" << opaque_size << ") src " << dtype_label(src_dtype) << " dst "
      << dtype_label(dst_dtype) << " data " << describe_shape(data_shape) << " N " << sources << " E " << edges
      << " reduction " << reduction_label(reduction) << " src " << policy_label(src_policy) << " dst "
      << policy_label(dst_policy) << (weighted ? " weighted" : "") << (in_place ? " in_place" : "")
      << (exclude_self ? " exclude_self" : "") << (fill_given ? " fill" : "") << " layouts "
      << data_layout.describe() << " " << x_layout.describe() << " " << src_layout.describe() << " "
      << dst_layout.describe() << " " << weights_layout.describe() << " " << out_layout.describe() << " seed "
      << seed;
    return s.str();
}

void MessagePassingCase::run(scatter_status expected) const {
    SCOPED_TRACE(describe());
    Rng rng(seed);
    Shape x_shape = data_shape;
    x_shape[0] = sources;
    HostTensor data(dtype, data_shape, opaque_size, in_place ? out_layout : data_layout);
    HostTensor x(dtype, x_shape, opaque_size, x_layout);
    HostTensor src(src_dtype, Shape{edges}, 0, src_layout), dst(dst_dtype, Shape{edges}, 0, dst_layout);
    HostTensor weights(dtype, Shape{edges}, opaque_size, weights_layout);
    HostTensor out(dtype, data_shape, opaque_size, out_layout);
    fill_random_values(data, values, rng);
    fill_random_values(x, values, rng);
    fill_random_values(weights, values, rng);
    out.fill_sentinel(uint8_t(seed));
    fill_random_indices(src, [&](const int64_t*) { return sources; }, src_indices, rng);
    fill_random_indices(dst, [&](const int64_t*) { return data_shape[0]; }, dst_indices, rng);
    std::vector<uint8_t> fill(element_bytes(dtype, opaque_size));
    for (auto& b : fill) b = uint8_t(rng());
    if (dtype == SCATTER_DTYPE_BOOL) fill[0] &= 1;

    scatter_message_passing_options options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    options.reduction = reduction;
    options.src_out_of_range = src_policy;
    options.dst_out_of_range = dst_policy;
    options.fill_value = fill_given ? fill.data() : nullptr;
    options.flags = exclude_self ? SCATTER_OPTION_EXCLUDE_SELF : 0u;

    const HostTensor& target_start = in_place ? data : out;
    const scatter_tensor xt = x.descriptor(), s = src.descriptor(), t = dst.descriptor(),
                         w = weights.descriptor();
    const scatter_tensor* wp = weighted ? &w : nullptr;
    const HostTensor inputs[] = {data, x, src, dst, weights};

    // The oracle.
    HostTensor expected_out = target_start;
    const scatter_tensor eo = expected_out.descriptor();
    HostTensor oracle_data = data;
    const scatter_tensor od = in_place ? eo : oracle_data.descriptor();
    const scatter_status oracle = compose_message_passing(reference_calls(), &od, &xt, &s, &t, wp, &options, &eo);
    if (expected != SCATTER_ERROR_INTERNAL) {
        ASSERT_EQ(oracle, expected) << "the oracle";
    }
    if (oracle != SCATTER_OK) {
        ASSERT_EQ(expected_out.storage(), target_start.storage()) << "the oracle wrote out";
    }

    std::vector<TestBackend> backends = cpu_backends();
    // The library's composition, on the first CPU context.
    {
        HostTensor composed = target_start;
        const scatter_tensor co = composed.descriptor();
        HostTensor composed_data = data;
        const scatter_tensor cd = in_place ? co : composed_data.descriptor();
        const scatter_status status =
            compose_message_passing(library_calls(backends[0].context), &cd, &xt, &s, &t, wp, &options, &co);
        EXPECT_EQ(status, oracle) << "the library's composition: " << scatter_last_error_message();
        EXPECT_EQ(composed.storage(), expected_out.storage()) << "the library's composition";
    }
    for (const TestBackend& backend : backends) {
        HostTensor fused = target_start;
        const scatter_tensor fo = fused.descriptor();
        HostTensor fused_data = data;
        const scatter_tensor fd = in_place ? fo : fused_data.descriptor();
        const scatter_status status = scatter_message_passing(backend.context, &fd, &xt, &s, &t, wp, &options, &fo);
        EXPECT_EQ(status, oracle) << backend.name << ": " << scatter_last_error_message();
        EXPECT_EQ(fused.storage(), expected_out.storage()) << backend.name;
    }
    const HostTensor* after[] = {&data, &x, &src, &dst, &weights};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(after[i]->storage(), inputs[i].storage()) << "input " << i << " changed";
}

MessagePassingCase random_message_passing_case(uint64_t seed) {
    Rng rng(seed);
    MessagePassingCase c;
    c.seed = seed;
    const auto& dtypes = all_data_dtypes();
    c.dtype = dtypes[below(rng, dtypes.size())];
    c.opaque_size = c.dtype == SCATTER_DTYPE_OPAQUE ? uint32_t(1 + below(rng, 24)) : 0u;
    c.src_dtype = below(rng, 2) ? SCATTER_DTYPE_I64 : SCATTER_DTYPE_I32;
    c.dst_dtype = below(rng, 2) ? SCATTER_DTYPE_I64 : SCATTER_DTYPE_I32;
    std::vector<scatter_reduction> legal;
    for (int r = SCATTER_REDUCTION_NONE; r <= SCATTER_REDUCTION_MEAN; ++r)
        if (reduction_legal(c.dtype, scatter_reduction(r))) legal.push_back(scatter_reduction(r));
    c.reduction = legal[below(rng, legal.size())];
    c.weighted = c.dtype != SCATTER_DTYPE_OPAQUE && below(rng, 2);
    c.exclude_self = below(rng, 3) == 0;

    const size_t rank = 1 + below(rng, 4);
    c.data_shape.assign(rank, 1);
    for (auto& extent : c.data_shape) extent = random_extent(rng);
    c.sources = random_extent(rng);
    static const int64_t edge_counts[] = {0, 1, 2, 5, 13, 40, 127, 300};
    c.edges = edge_counts[below(rng, sizeof edge_counts / sizeof edge_counts[0])];
    // At most ~6000 elements in any tensor.
    auto too_big = [&] {
        int64_t row = 1;
        for (size_t d = 1; d < rank; ++d) row *= c.data_shape[d];
        return row * std::max({c.data_shape[0], c.sources, int64_t(1)}) > 6000;
    };
    while (too_big()) {
        int64_t* largest = &c.data_shape[0];
        for (auto& extent : c.data_shape) largest = extent > *largest ? &extent : largest;
        if (c.sources > *largest) largest = &c.sources;
        *largest = (*largest + 1) / 2;
    }

    static const scatter_out_of_range src_policies[] = {SCATTER_OUT_OF_RANGE_DEFAULT, SCATTER_OUT_OF_RANGE_ERROR,
                                                         SCATTER_OUT_OF_RANGE_CLAMP, SCATTER_OUT_OF_RANGE_FILL};
    static const scatter_out_of_range dst_policies[] = {SCATTER_OUT_OF_RANGE_DEFAULT, SCATTER_OUT_OF_RANGE_ERROR,
                                                         SCATTER_OUT_OF_RANGE_SKIP, SCATTER_OUT_OF_RANGE_CLAMP};
    c.src_policy = src_policies[below(rng, 4)];
    c.dst_policy = dst_policies[below(rng, 4)];
    c.fill_given = below(rng, 2);
    auto index_profile = [&](scatter_out_of_range policy) {
        IndexProfile p;
        p.hot_targets = below(rng, 3) == 0 ? 2 : 0;
        p.negative_rate = 0.3;
        const bool errors = policy == SCATTER_OUT_OF_RANGE_DEFAULT || policy == SCATTER_OUT_OF_RANGE_ERROR;
        p.out_of_range_rate = errors ? (below(rng, 8) == 0 ? 0.01 : 0.0) : 0.2;
        p.extremes = below(rng, 4) == 0;
        return p;
    };
    c.src_indices = index_profile(c.src_policy);
    c.dst_indices = index_profile(c.dst_policy);
    c.values.specials = below(rng, 3) == 0;
    c.values.loose_bools = below(rng, 2);
    c.values.avoid_zero = c.reduction == SCATTER_REDUCTION_DIV && below(rng, 4) != 0;
    c.in_place = below(rng, 4) == 0;
    c.data_layout = random_layout(rng, true);
    c.x_layout = random_layout(rng, true);
    c.src_layout = random_layout(rng, true);
    c.dst_layout = random_layout(rng, true);
    c.weights_layout = random_layout(rng, true);
    c.out_layout = random_layout(rng, false);
    return c;
}

}  // namespace scatter_test
