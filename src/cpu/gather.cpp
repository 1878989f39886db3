#include "cpu/gather.h"

#include "core/checked_math.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_bytes.h"
#include "cpu/cpu_switches.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace scatter {
namespace {

// A gather is two nested iterations over out:
//   head: the positions that read indices (elements: every position; rows: data's outer
//         dimensions and the index dimensions; nd: indices.shape[:-1]), each with its offsets in
//         out, in data (the dimensions that pass through: elements' off-axis ones, rows' outer
//         ones, nd's batch ones) and in indices;
//   tail: the elements of one slice (rows: data.shape[axis+1:], nd: data.shape[b+k:]; elements:
//         a single element).
// The index coordinates at a head position name the slice's start in data.
struct Geometry {
    LoopDims<3> head;  // strides of out, data, indices
    LoopDims<2> tail;  // strides of data, out
    uint32_t depth = 1;
    int64_t bound[SCATTER_MAX_RANK];              // the size of each coordinate's data dimension
    int64_t coordinate_stride[SCATTER_MAX_RANK];  // data's stride along it
    int64_t index_step = 0;                       // indices' stride from one coordinate to the next
};

Geometry make_geometry(const GatherPlan& p) {
    const TensorView &d = p.data, &i = p.indices, &o = p.out;
    int64_t shape[SCATTER_MAX_RANK], out_s[SCATTER_MAX_RANK], data_s[SCATTER_MAX_RANK], index_s[SCATTER_MAX_RANK];
    uint32_t n = 0;
    auto add_head = [&](int64_t size, int64_t out_stride, int64_t data_stride, int64_t index_stride) {
        shape[n] = size;
        out_s[n] = out_stride;
        data_s[n] = data_stride;
        index_s[n] = index_stride;
        ++n;
    };
    Geometry g;
    uint32_t tail_in_data = d.rank, tail_in_out = o.rank;  // where the tail's dimensions start
    const uint32_t a = uint32_t(p.axis);
    switch (p.op) {
        case OpKind::Elements:
            for (uint32_t k = 0; k < i.rank; ++k) add_head(i.shape[k], o.strides[k], k == a ? 0 : d.strides[k], i.strides[k]);
            break;
        case OpKind::Rows:
            for (uint32_t k = 0; k < a; ++k) add_head(d.shape[k], o.strides[k], d.strides[k], 0);
            for (uint32_t k = 0; k < i.rank; ++k) add_head(i.shape[k], o.strides[a + k], 0, i.strides[k]);
            tail_in_data = a + 1;
            tail_in_out = a + i.rank;
            break;
        case OpKind::Nd:
            for (uint32_t k = 0; k + 1 < i.rank; ++k)
                add_head(i.shape[k], o.strides[k], k < p.batch_dims ? d.strides[k] : 0, i.strides[k]);
            g.index_step = i.strides[i.rank - 1];
            tail_in_data = p.batch_dims + p.index_depth;
            tail_in_out = i.rank - 1;
            break;
    }
    const int64_t* head_strides[] = {out_s, data_s, index_s};
    g.head = make_loop_dims<3>(n, shape, head_strides);
    const int64_t* tail_strides[] = {d.strides + tail_in_data, o.strides + tail_in_out};
    g.tail = make_loop_dims<2>(d.rank - tail_in_data, d.shape + tail_in_data, tail_strides);
    g.depth = p.index_depth;
    const uint32_t first = p.first_indexed_axis();
    for (uint32_t c = 0; c < g.depth; ++c) {
        g.bound[c] = d.shape[first + c];
        g.coordinate_stride[c] = d.strides[first + c];
    }
    return g;
}

// Fill values: the caller's bytes, or zeros.
inline void fill_element(char* to, const char* value, int64_t size) {
    if (value != nullptr) std::memcpy(to, value, size_t(size));
    else std::memset(to, 0, size_t(size));
}

// How one slice is copied (the tail of Geometry), chosen once per call.
template <int Size>
struct OneElement {  // elements, and rows/nd without trailing dimensions
    void copy(char* to, const char* from) const { std::memcpy(to, from, Size); }
    void fill(char* to, const char* value) const { fill_element(to, value, Size); }
};
struct OneElementOfAnySize {
    int64_t size;
    void copy(char* to, const char* from) const { std::memcpy(to, from, size_t(size)); }
    void fill(char* to, const char* value) const { fill_element(to, value, size); }
};
struct ContiguousSlice {  // the tail contiguous in data and out: one block of bytes
    int64_t bytes, size;
    void copy(char* to, const char* from) const { copy_bytes(to, from, bytes); }
    void fill(char* to, const char* value) const {
        for (int64_t b = 0; b < bytes; b += size) fill_element(to + b, value, size);
    }
};
struct StridedSlice {
    const LoopDims<2>* tail;
    int64_t size;
    void copy(char* to, const char* from) const {
        StridedWalk<2> walk(tail->rank, tail->shape, tail->strides);
        for (int64_t e = 0; e < tail->count; ++e, walk.next())
            std::memcpy(to + walk.offset(1) * size, from + walk.offset(0) * size, size_t(size));
    }
    void fill(char* to, const char* value) const {
        StridedWalk<2> walk(tail->rank, tail->shape, tail->strides);
        for (int64_t e = 0; e < tail->count; ++e, walk.next()) fill_element(to + walk.offset(1) * size, value, size);
    }
};

struct Args {
    const Geometry* g;
    char* out;
    const char* data;
    const char* indices;
    int64_t size;  // bytes per element of data and out
    const char* fill;
};

// The data offset (in elements) of the slice that the `depth` coordinates at `index` name.
// Without Fill every coordinate is clamped: under ERROR they were all checked to be in range,
// which makes the clamp a no-op, and under CLAMP it is the policy (no dimension is empty then).
// With Fill, false when a coordinate is out of range.
template <class Index, bool Fill>
inline bool resolve(const Geometry& g, uint32_t depth, const char* index, int64_t* offset) {
    int64_t from = 0;
    for (uint32_t c = 0; c < depth; ++c) {
        Index raw;
        std::memcpy(&raw, index + c * g.index_step * int64_t(sizeof(Index)), sizeof raw);
        int64_t v = raw;
        const int64_t s = g.bound[c];
        if (v < 0) v += s;  // v >= INT64_MIN and s >= 0: cannot overflow
        if (Fill) {
            if (uint64_t(v) >= uint64_t(s)) return false;
        } else {
            v = v < 0 ? 0 : v >= s ? s - 1 : v;
        }
        from += v * g.coordinate_stride[c];
    }
    *offset = from;
    return true;
}

// Head positions [begin, end) in row-major order: the outer head dimensions are walked, the
// innermost one is a flat loop.
template <class Index, bool Fill, bool OneCoordinate, class Tail>
void gather_heads(const Args& a, const Tail& tail, int64_t begin, int64_t end) {
    const Geometry& g = *a.g;
    const LoopDims<3>& head = g.head;
    const uint32_t depth = OneCoordinate ? 1u : g.depth;
    const uint32_t outer_rank = head.rank == 0 ? 0 : head.rank - 1;
    const int64_t n = head.rank == 0 ? 1 : head.shape[head.rank - 1];
    const int64_t os = head.rank == 0 ? 0 : head.strides[0][head.rank - 1];
    const int64_t ds = head.rank == 0 ? 0 : head.strides[1][head.rank - 1];
    const int64_t is = head.rank == 0 ? 0 : head.strides[2][head.rank - 1];
    const int64_t size = a.size;
    constexpr int64_t index_size = sizeof(Index);
    StridedWalk<3> walk(outer_rank, head.shape, head.strides);
    walk.seek(begin / n);
    int64_t column = begin % n;
    for (int64_t f = begin; f < end; walk.next()) {
        const int64_t count = std::min(n - column, end - f);
        char* out = a.out + (walk.offset(0) + column * os) * size;
        const int64_t data_offset = walk.offset(1) + column * ds;  // data may be empty (FILL): no pointer yet
        const char* index = a.indices + (walk.offset(2) + column * is) * index_size;
        for (int64_t j = 0; j < count; ++j) {
            int64_t from;
            if (resolve<Index, Fill>(g, depth, index + j * is * index_size, &from))
                tail.copy(out + j * os * size, a.data + (data_offset + j * ds + from) * size);
            else
                tail.fill(out + j * os * size, a.fill);
        }
        f += count;
        column = 0;
    }
}

// Elements [first, last) of the slice at head position h (few slices, each long: the threads
// split slices instead of heads).
template <class Index, bool Fill>
void gather_slice_part(const Args& a, int64_t h, int64_t first, int64_t last) {
    const Geometry& g = *a.g;
    StridedWalk<3> head(g.head.rank, g.head.shape, g.head.strides);
    head.seek(h);
    char* out = a.out + head.offset(0) * a.size;
    int64_t from = 0;
    const bool found = resolve<Index, Fill>(g, g.depth, a.indices + head.offset(2) * int64_t(sizeof(Index)), &from);
    const char* data = found ? a.data + (head.offset(1) + from) * a.size : nullptr;
    const LoopDims<2>& t = g.tail;
    if (t.rank == 1 && t.strides[0][0] == 1 && t.strides[1][0] == 1) {
        if (found) {
            std::memcpy(out + first * a.size, data + first * a.size, size_t((last - first) * a.size));
            return;
        }
        for (int64_t e = first; e < last; ++e) fill_element(out + e * a.size, a.fill, a.size);
        return;
    }
    StridedWalk<2> walk(t.rank, t.shape, t.strides);
    walk.seek(first);
    for (int64_t e = first; e < last; ++e, walk.next()) {
        char* to = out + walk.offset(1) * a.size;
        if (found) std::memcpy(to, data + walk.offset(0) * a.size, size_t(a.size));
        else fill_element(to, a.fill, a.size);
    }
}

// Calls fn(tail) with the cheapest way to copy one slice.
template <class Fn>
void with_tail(const Args& a, Fn&& fn) {
    const LoopDims<2>& t = a.g->tail;
    if (t.count == 1) {
        switch (a.size) {
            case 1: return fn(OneElement<1>{});
            case 2: return fn(OneElement<2>{});
            case 4: return fn(OneElement<4>{});
            case 8: return fn(OneElement<8>{});
            case 16: return fn(OneElement<16>{});
            default: return fn(OneElementOfAnySize{a.size});
        }
    }
    if (t.rank == 1 && t.strides[0][0] == 1 && t.strides[1][0] == 1) return fn(ContiguousSlice{t.count * a.size, a.size});
    return fn(StridedSlice{&t, a.size});
}

template <class Index, bool Fill>
Status gather_typed(const Args& a, TaskRunner& runner) {
    const Geometry& g = *a.g;
    const int64_t heads = g.head.count, slice = g.tail.count;
    const int64_t bytes = heads * slice * a.size;  // out's, which fits
    // Below 256 KiB of out (cpu_switches) a gather runs on the calling thread: waking workers costs more.
    const int64_t tasks = bytes < cpu_switches().gather_parallel_bytes ? 1 : int64_t(runner.concurrency());
    if (heads >= tasks) {
        const int64_t chunks = std::min<int64_t>(heads, tasks);
        Status status;
        with_tail(a, [&](const auto& tail) {
            status = parallel_for(runner, uint32_t(chunks), [&](uint32_t c) {
                const int64_t begin = split_point(heads, c, chunks), end = split_point(heads, c + 1, chunks);
                if (g.depth == 1) gather_heads<Index, Fill, true>(a, tail, begin, end);
                else gather_heads<Index, Fill, false>(a, tail, begin, end);
            });
        });
        return status;
    }
    // Fewer slices than threads: each slice in parts.
    const int64_t parts = std::min<int64_t>((tasks + heads - 1) / heads, slice);
    return parallel_for(runner, uint32_t(heads * parts), [&](uint32_t t) {
        const int64_t h = t / parts, part = t % parts;
        gather_slice_part<Index, Fill>(a, h, split_point(slice, part, parts), split_point(slice, part + 1, parts));
    });
}

}  // namespace

Status gather_cpu(const GatherPlan& plan, TaskRunner& runner) {
    if (plan.out.empty()) return Status();
    const Geometry g = make_geometry(plan);
    const Args a{&g, plan.out.host, plan.data.host, plan.indices.host, int64_t(plan.data.element_size),
                 plan.fill_value};
    const bool is_i64 = plan.indices.dtype() == SCATTER_DTYPE_I64;
    if (plan.policy == SCATTER_OUT_OF_RANGE_FILL)
        return is_i64 ? gather_typed<int64_t, true>(a, runner) : gather_typed<int32_t, true>(a, runner);
    return is_i64 ? gather_typed<int64_t, false>(a, runner) : gather_typed<int32_t, false>(a, runner);
}

}  // namespace scatter
