#include "core/index_check.h"

#include "core/checked_math.h"
#include "core/cpu_clones.h"
#include "core/gather_plan.h"
#include "core/index_rules.h"
#include "core/strided_walk.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>

namespace scatter {
namespace {

constexpr int64_t kMinChunk = 1 << 16;

// Splits [0, n) into chunks, runs find(begin, end) -> first failing flat index or -1 on each, and
// stores the smallest failure (or -1) in *failure. Chunks past a known failure are skipped.
template <class Find>
Status first_failure(TaskRunner& runner, int64_t n, Find&& find, int64_t* failure) {
    if (n <= kMinChunk || runner.concurrency() == 1) {
        *failure = find(int64_t(0), n);
        return Status();
    }
    int64_t chunks = std::min<int64_t>((n - 1) / kMinChunk + 1, int64_t(runner.concurrency()) * 4);
    std::atomic<int64_t> best{INT64_MAX};
    Status status = parallel_for(runner, uint32_t(chunks), [&](uint32_t c) {
        int64_t begin = split_point(n, c, chunks), end = split_point(n, c + 1, chunks);
        if (best.load(std::memory_order_relaxed) < begin) return;
        int64_t found = find(begin, end);
        if (found < 0) return;
        int64_t seen = best.load(std::memory_order_relaxed);
        while (found < seen && !best.compare_exchange_weak(seen, found)) {
        }
    });
    int64_t result = best.load();
    *failure = result == INT64_MAX ? -1 : result;
    return status;
}

// Whether any v[f], f in [begin, end), lies outside [-bound, bound). Branch-free so that it
// vectorizes (a min/max reduction in the index's own width: AVX2 has 32-bit min/max but no
// 64-bit ones); built for AVX2 too where SCATTER_CLONES_AVX2 allows.
template <class Index>
bool any_out_of_range_impl(const Index* v, int64_t begin, int64_t end, int64_t bound) {
    Index low = 0, high = 0;
    for (int64_t f = begin; f < end; ++f) {
        const Index x = v[f];
        low = x < low ? x : low;
        high = x > high ? x : high;
    }
    return int64_t(low) < -bound || int64_t(high) >= bound;
}
// 64-bit indices: x is in [-bound, bound) exactly when x + bound, as an unsigned number, is below
// 2 bound: an add, a compare and an OR per index, where a 64-bit min/max on AVX2 costs a compare
// and a blend each (W9, 65536 indices: the check 13 -> 8 us, the call 79 -> 72 us).
SCATTER_CLONES_AVX2 bool any_out_of_range(const int64_t* v, int64_t begin, int64_t end, int64_t bound) {
    const uint64_t shift = uint64_t(bound), span = 2 * uint64_t(bound);
    uint64_t outside = 0;
    for (int64_t f = begin; f < end; ++f) outside |= uint64_t(uint64_t(v[f]) + shift >= span);
    return outside != 0;
}
SCATTER_CLONES_AVX2 bool any_out_of_range(const int32_t* v, int64_t begin, int64_t end, int64_t bound) {
    return any_out_of_range_impl(v, begin, end, bound);
}

// First f in [begin, end) with v[f] outside [-bound, bound), or -1. Blocks are tested without
// branches and searched one by one only when they hold a bad index.
template <class Index>
int64_t first_out_of_range(const Index* v, int64_t begin, int64_t end, int64_t bound) {
    constexpr int64_t kBlock = 4096;
    for (int64_t b = begin; b < end; b += kBlock) {
        const int64_t stop = std::min(end, b + kBlock);
        if (!any_out_of_range(v, b, stop, bound)) continue;
        for (int64_t f = b; f < stop; ++f)
            if (!index_in_range(v[f], bound)) return f;
    }
    return -1;
}

// Which data dimension each index of a tensor addresses: dims[0] for every index, or, per
// coordinate (nd), dims[c] for the index whose last position is c. first_axis is the data axis
// of dims[0] (for messages).
struct IndexedDims {
    const TensorView* indices;
    const int64_t* dims;
    uint32_t first_axis;
    bool per_coordinate;
    const char* name = "indices";  // the tensor's name in messages

    int64_t bound_at(const int64_t* position) const {
        return per_coordinate ? dims[position[indices->rank - 1]] : dims[0];
    }
    uint32_t axis_at(const int64_t* position) const {
        return first_axis + (per_coordinate ? uint32_t(position[indices->rank - 1]) : 0u);
    }
};

// Fails with INDEX_OUT_OF_RANGE naming the first index in row-major order outside [-s, s) of the
// dimension it addresses.
Status check_index_range(const IndexedDims& target, TaskRunner& runner) {
    const TensorView& idx = *target.indices;
    if (idx.empty()) return Status();
    const bool is_i64 = idx.dtype() == SCATTER_DTYPE_I64;
    const int64_t* strides[] = {idx.strides};
    const int64_t axis_bound = target.dims[0];
    const int64_t depth = target.per_coordinate ? idx.shape[idx.rank - 1] : 1;

    int64_t bad = -1;
    auto find = [&](int64_t begin, int64_t end) -> int64_t {
        const bool aligned = reinterpret_cast<uintptr_t>(idx.host) % (is_i64 ? 8 : 4) == 0;
        if (idx.contiguous && aligned && !target.per_coordinate)
            return is_i64 ? first_out_of_range(reinterpret_cast<const int64_t*>(idx.host), begin, end, axis_bound)
                          : first_out_of_range(reinterpret_cast<const int32_t*>(idx.host), begin, end, axis_bound);
        if (idx.contiguous && !target.per_coordinate) {
            for (int64_t f = begin; f < end; ++f)
                if (!index_in_range(load_index(idx.host, is_i64, f), axis_bound)) return f;
            return -1;
        }
        if (idx.contiguous) {
            for (int64_t f = begin; f < end; ++f)
                if (!index_in_range(load_index(idx.host, is_i64, f), target.dims[f % depth])) return f;
            return -1;
        }
        StridedWalk<1> walk(idx.rank, idx.shape, strides);
        walk.seek(begin);
        for (int64_t f = begin; f < end; ++f, walk.next())
            if (!index_in_range(load_index(idx.host, is_i64, walk.offset(0)), target.bound_at(walk.position())))
                return f;
        return -1;
    };
    SCATTER_RETURN_IF_ERROR(first_failure(runner, idx.element_count, find, &bad));
    if (bad < 0) return Status();

    StridedWalk<1> walk(idx.rank, idx.shape, strides);
    walk.seek(bad);
    return index_error(walk.position(), idx.rank, load_index(idx.host, is_i64, walk.offset(0)),
                       target.bound_at(walk.position()), target.axis_at(walk.position()), target.name);
}

}  // namespace

Status check_indices(const OpPlan& plan, TaskRunner& runner) {
    if (plan.policy != SCATTER_OUT_OF_RANGE_ERROR) return Status();
    const bool nd = plan.op == OpKind::Nd;
    const IndexedDims target{&plan.indices, nd ? plan.data.shape : &plan.data.shape[plan.axis],
                             nd ? 0u : uint32_t(plan.axis), nd};
    return check_index_range(target, runner);
}

Status check_gather_indices(const GatherPlan& plan, TaskRunner& runner) {
    const TensorView& idx = plan.indices;
    if (plan.policy == SCATTER_OUT_OF_RANGE_FILL || idx.empty()) return Status();
    const bool nd = plan.op == OpKind::Nd;
    const uint32_t first = plan.first_indexed_axis();
    if (plan.policy == SCATTER_OUT_OF_RANGE_ERROR)
        return check_index_range(IndexedDims{&idx, &plan.data.shape[first], first, nd}, runner);
    // CLAMP: only an empty dimension has nothing to clamp to; the first index into one is at
    // position 0 of every dimension but the coordinate's.
    for (uint32_t c = 0; c < plan.index_depth; ++c) {
        if (plan.data.shape[first + c] != 0) continue;
        int64_t position[SCATTER_MAX_RANK] = {};
        if (nd) position[idx.rank - 1] = c;
        int64_t offset = 0;
        for (uint32_t d = 0; d < idx.rank; ++d) offset += position[d] * idx.strides[d];
        return clamp_error(position, idx.rank, load_index(idx.host, idx.dtype() == SCATTER_DTYPE_I64, offset), first + c);
    }
    return Status();
}

Status check_edge_indices(const TensorView& idx, const char* name, int64_t bound, scatter_out_of_range policy,
                          bool gathered, TaskRunner& runner) {
    if (idx.empty()) return Status();
    if (policy == SCATTER_OUT_OF_RANGE_ERROR)
        return check_index_range(IndexedDims{&idx, &bound, 0, false, name}, runner);
    // A gathered row cannot be clamped into an empty dimension (a scattered one is skipped).
    if (policy == SCATTER_OUT_OF_RANGE_CLAMP && gathered && bound == 0) {
        const int64_t position[1] = {0};
        return clamp_error(position, 1, load_index(idx.host, idx.dtype() == SCATTER_DTYPE_I64, 0), 0, name);
    }
    return Status();
}

Status resolve_slice_targets(const OpPlan& plan, TaskRunner& runner, int64_t* targets) {
    const TensorView& idx = plan.indices;
    const bool is_i64 = idx.dtype() == SCATTER_DTYPE_I64;
    const int64_t* strides[] = {idx.strides};
    const int64_t n = plan.slices;
    const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(n / kMinChunk, runner.concurrency()));
    return parallel_for(runner, uint32_t(chunks), [&](uint32_t c) {
        int64_t begin = split_point(n, c, chunks), end = split_point(n, c + 1, chunks);
        if (begin == end) return;
        StridedWalk<1> walk(idx.rank, idx.shape, strides);
        if (plan.op == OpKind::Rows) {
            const int64_t size = plan.target_rows;
            walk.seek(begin);
            for (int64_t j = begin; j < end; ++j) {
                int64_t i = load_index(idx.host, is_i64, idx.contiguous ? j : walk.offset(0));
                int64_t row;
                targets[j] = resolve_index(i, size, plan.policy, &row) ? row : -1;
                if (!idx.contiguous) walk.next();
            }
            return;
        }
        const int64_t depth = plan.index_depth;
        walk.seek(begin * depth);
        for (int64_t j = begin; j < end; ++j) {
            // Unsigned: only an applied slice's row is sure to fit in int64_t; a skipped one may
            // multiply leading dimensions of an empty data tensor past it (2^62 x 2^62 x 0).
            uint64_t row = 0;
            bool applied = true;
            for (int64_t c2 = 0; c2 < depth; ++c2) {
                int64_t i = load_index(idx.host, is_i64, idx.contiguous ? j * depth + c2 : walk.offset(0));
                int64_t coordinate = 0;
                applied = resolve_index(i, plan.data.shape[c2], plan.policy, &coordinate) && applied;
                row = row * uint64_t(plan.data.shape[c2]) + uint64_t(coordinate);
                if (!idx.contiguous) walk.next();
            }
            targets[j] = applied ? int64_t(row) : -1;
        }
    });
}

bool needs_divisor_check(const OpPlan& plan) {
    DtypeKind kind = plan.data.info->kind;
    return plan.reduction == SCATTER_REDUCTION_DIV &&
           (kind == DtypeKind::Signed || kind == DtypeKind::Unsigned) && !plan.updates.empty();
}

Status check_divisors(const OpPlan& plan, TaskRunner& runner, const int64_t* targets) {
    if (!needs_divisor_check(plan)) return Status();
    const TensorView& upd = plan.updates;
    const TensorView& idx = plan.indices;
    const uint32_t size = upd.element_size;
    const bool is_i64 = idx.dtype() == SCATTER_DTYPE_I64;
    auto is_zero = [&](int64_t offset) {
        const char* p = upd.host + offset * size;
        for (uint32_t b = 0; b < size; ++b)
            if (p[b] != 0) return false;
        return true;
    };
    const int64_t axis_size = plan.data.shape[plan.axis];

    int64_t bad = -1;
    auto find = [&](int64_t begin, int64_t end) -> int64_t {
        // Only elements reads indices at the update's position (same shape); rows/nd walk the
        // updates alone (indices have another shape there).
        const int64_t* strides[] = {upd.strides, plan.op == OpKind::Elements ? idx.strides : upd.strides};
        StridedWalk<2> walk(upd.rank, upd.shape, strides);
        walk.seek(begin);
        for (int64_t f = begin; f < end; ++f, walk.next()) {
            if (!is_zero(walk.offset(0))) continue;
            bool applied;
            if (plan.op == OpKind::Elements) {
                int64_t target;
                applied = resolve_index(load_index(idx.host, is_i64, walk.offset(1)), axis_size, plan.policy, &target);
            } else {
                applied = targets[(f / plan.inner) % plan.slices] >= 0;
            }
            if (applied) return f;
        }
        return -1;
    };
    SCATTER_RETURN_IF_ERROR(first_failure(runner, upd.element_count, find, &bad));
    if (bad < 0) return Status();
    const int64_t* strides[] = {upd.strides};
    StridedWalk<1> walk(upd.rank, upd.shape, strides);
    walk.seek(bad);
    return divisor_error(walk.position(), upd.rank);
}

Status index_error(const int64_t* position, uint32_t rank, int64_t value, int64_t bound, uint32_t axis,
                   const char* name) {
    char where[SCATTER_MAX_RANK * 24];
    format_position(position, rank, where, sizeof where);
    return make_error(SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                      "%s%s = %" PRId64 " is outside [-%" PRId64 ", %" PRId64 ") on axis %u", name, where, value,
                      bound, bound, axis);
}

Status clamp_error(const int64_t* position, uint32_t rank, int64_t value, uint32_t axis, const char* name) {
    char where[SCATTER_MAX_RANK * 24];
    format_position(position, rank, where, sizeof where);
    return make_error(SCATTER_ERROR_INDEX_OUT_OF_RANGE,
                      "%s%s = %" PRId64 " cannot be clamped into axis %u of size 0: there is no element to gather",
                      name, where, value, axis);
}

Status divisor_error(const int64_t* position, uint32_t rank) {
    char where[SCATTER_MAX_RANK * 24];
    format_position(position, rank, where, sizeof where);
    return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                      "updates%s = 0 divides an integer target: integer division by zero", where);
}

}  // namespace scatter
