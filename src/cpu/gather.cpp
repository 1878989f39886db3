#include "cpu/gather.h"

#include "core/checked_math.h"
#include "core/loop_dims.h"
#include "core/strided_walk.h"
#include "cpu/copy_bytes.h"
#include "cpu/cpu_switches.h"
#include "cpu/prefetch.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

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
// prefetch(from) asks for the first lines of a slice a few heads ahead.
template <int Size>
struct OneElement {  // elements, and rows/nd without trailing dimensions
    void copy(char* to, const char* from) const { std::memcpy(to, from, Size); }
    void fill(char* to, const char* value) const { fill_element(to, value, Size); }
    void prefetch(const char* from) const { prefetch_lines<PrefetchTo::L2>(from, Size); }
};
struct OneElementOfAnySize {
    int64_t size;
    void copy(char* to, const char* from) const { std::memcpy(to, from, size_t(size)); }
    void fill(char* to, const char* value) const { fill_element(to, value, size); }
    void prefetch(const char* from) const { prefetch_lines<PrefetchTo::L2>(from, std::min<int64_t>(size, 512)); }
};
struct ContiguousSlice {  // the tail contiguous in data and out: one block of bytes
    int64_t bytes, size;
    void copy(char* to, const char* from) const { copy_bytes(to, from, bytes); }
    void fill(char* to, const char* value) const {
        for (int64_t b = 0; b < bytes; b += size) fill_element(to + b, value, size);
    }
    // The hardware prefetcher follows a long slice once it has started.
    void prefetch(const char* from) const { prefetch_lines<PrefetchTo::L2>(from, std::min<int64_t>(bytes, 512)); }
};
struct StridedSlice {
    const LoopDims<2>* tail;
    int64_t size;
    void prefetch(const char* from) const { prefetch_line<PrefetchTo::L2>(from); }
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
    bool prefetch;  // the indexed dimensions span more than the caches keep: slices ahead are fetched
};

// ERROR: every index was checked to be in range, so it is only wrapped; CLAMP: wrapped, then
// clamped (no indexed dimension is empty then); FILL: out-of-range slices take the fill value.
enum class Policy { Error, Clamp, Fill };

// How the index coordinates at a head position name a slice, in locals of the kernel (the
// compiler then keeps them in registers: stores to out, a char*, could alias a Geometry).
struct Coordinates {
    uint32_t depth;
    int64_t bound[SCATTER_MAX_RANK];
    int64_t stride[SCATTER_MAX_RANK];  // in bytes
    int64_t step;                      // indices' stride between coordinates, in bytes

    Coordinates(const Geometry& g, int64_t size, int64_t index_size)
        : depth(g.depth), step(g.index_step * index_size) {
        for (uint32_t c = 0; c < depth; ++c) {
            bound[c] = g.bound[c];
            stride[c] = g.coordinate_stride[c] * size;
        }
    }

    // The byte offset in data of the slice the coordinates at `index` name; false (FILL only)
    // when one is out of range.
    template <class Index, Policy P, bool OneCoordinate>
    bool resolve(const char* index, int64_t* offset) const {
        const uint32_t n = OneCoordinate ? 1u : depth;
        int64_t from = 0;
        for (uint32_t c = 0; c < n; ++c) {
            Index raw;
            std::memcpy(&raw, index + c * step, sizeof raw);
            int64_t v = raw;
            const int64_t s = bound[c];
            v += s & (v >> 63);  // negative: from the back (v >= INT64_MIN, s >= 0: no overflow)
            if (P == Policy::Fill && uint64_t(v) >= uint64_t(s)) return false;
            if (P == Policy::Clamp) v = v < 0 ? 0 : v >= s ? s - 1 : v;
            from += v * stride[c];
        }
        *offset = from;
        return true;
    }
};

// How many head positions ahead the slices are prefetched, and from which span of the indexed
// dimensions on.
constexpr int64_t kPrefetchAhead = 16;
constexpr int64_t kPrefetchSpanBytes = int64_t(1) << 19;

// `count` head positions along the innermost head dimension; strides in bytes. data is an
// address, not a pointer: under FILL an empty data tensor may have none.
template <class Index, Policy P, bool OneCoordinate, class Tail>
inline void gather_run(const Coordinates& coordinates, const Tail& tail, int64_t count, char* out, int64_t os,
                       uintptr_t data, int64_t ds, const char* index, int64_t is, const char* fill, bool prefetch) {
    auto one = [&](int64_t j) {
        int64_t from;
        if (coordinates.resolve<Index, P, OneCoordinate>(index + j * is, &from))
            tail.copy(out + j * os, reinterpret_cast<const char*>(data + uintptr_t(j * ds + from)));
        else
            tail.fill(out + j * os, fill);
    };
    if (!prefetch) {
        for (int64_t j = 0; j < count; ++j) one(j);
        return;
    }
    const int64_t ahead = std::max<int64_t>(count - kPrefetchAhead, 0);
    for (int64_t j = 0; j < ahead; ++j) {
        int64_t from;
        const int64_t k = j + kPrefetchAhead;
        if (coordinates.resolve<Index, P, OneCoordinate>(index + k * is, &from))
            tail.prefetch(reinterpret_cast<const char*>(data + uintptr_t(k * ds + from)));
        one(j);
    }
    for (int64_t j = ahead; j < count; ++j) one(j);
}

// Head positions [begin, end) in row-major order: the outer head dimensions are walked, the
// innermost one is a flat loop.
template <class Index, Policy P, bool OneCoordinate, class Tail>
void gather_heads(const Args& a, const Tail& tail, int64_t begin, int64_t end) {
    const int64_t size = a.size;
    constexpr int64_t index_size = sizeof(Index);
    const Coordinates coordinates(*a.g, size, index_size);
    const LoopDims<3>& head = a.g->head;
    const uint32_t outer_rank = head.rank == 0 ? 0 : head.rank - 1;
    const int64_t n = head.rank == 0 ? 1 : head.shape[head.rank - 1];
    const int64_t os = head.rank == 0 ? 0 : head.strides[0][head.rank - 1];
    const int64_t ds = head.rank == 0 ? 0 : head.strides[1][head.rank - 1];
    const int64_t is = head.rank == 0 ? 0 : head.strides[2][head.rank - 1];
    const uintptr_t data = reinterpret_cast<uintptr_t>(a.data);
    StridedWalk<3> walk(outer_rank, head.shape, head.strides);
    walk.seek(begin / n);
    int64_t column = begin % n;
    for (int64_t f = begin; f < end; walk.next()) {
        const int64_t count = std::min(n - column, end - f);
        gather_run<Index, P, OneCoordinate>(coordinates, tail, count, a.out + (walk.offset(0) + column * os) * size,
                                            os * size, data + uintptr_t((walk.offset(1) + column * ds) * size),
                                            ds * size, a.indices + (walk.offset(2) + column * is) * index_size,
                                            is * index_size, a.fill, a.prefetch);
        f += count;
        column = 0;
    }
}

// Elements [first, last) of the slice at head position h (few slices, each long: the threads
// split slices instead of heads).
template <class Index, Policy P>
void gather_slice_part(const Args& a, int64_t h, int64_t first, int64_t last) {
    const Geometry& g = *a.g;
    StridedWalk<3> head(g.head.rank, g.head.shape, g.head.strides);
    head.seek(h);
    char* out = a.out + head.offset(0) * a.size;
    int64_t from = 0;
    const Coordinates coordinates(g, a.size, sizeof(Index));
    const bool found =
        coordinates.resolve<Index, P, false>(a.indices + head.offset(2) * int64_t(sizeof(Index)), &from);
    const char* data = found ? a.data + head.offset(1) * a.size + from : nullptr;
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

template <class Index, Policy P>
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
                if (g.depth == 1) gather_heads<Index, P, true>(a, tail, begin, end);
                else gather_heads<Index, P, false>(a, tail, begin, end);
            });
        });
        return status;
    }
    // Fewer slices than threads: each slice in parts.
    const int64_t parts = std::min<int64_t>((tasks + heads - 1) / heads, slice);
    return parallel_for(runner, uint32_t(heads * parts), [&](uint32_t t) {
        const int64_t h = t / parts, part = t % parts;
        gather_slice_part<Index, P>(a, h, split_point(slice, part, parts), split_point(slice, part + 1, parts));
    });
}

}  // namespace

Status gather_cpu(const GatherPlan& plan, TaskRunner& runner) {
    if (plan.out.empty()) return Status();
    const Geometry g = make_geometry(plan);
    // The bytes the indexed dimensions span: beyond L2, slices read at random miss the caches.
    int64_t span = 0;
    for (uint32_t c = 0; c < g.depth; ++c) span += std::llabs(g.coordinate_stride[c]) * std::max<int64_t>(g.bound[c] - 1, 0);
    const int64_t size = plan.data.element_size;
    const Args a{&g, plan.out.host, plan.data.host, plan.indices.host, size, plan.fill_value,
                 span > kPrefetchSpanBytes / size};
    const bool is_i64 = plan.indices.dtype() == SCATTER_DTYPE_I64;
    switch (plan.policy) {
        case SCATTER_OUT_OF_RANGE_FILL:
            return is_i64 ? gather_typed<int64_t, Policy::Fill>(a, runner) : gather_typed<int32_t, Policy::Fill>(a, runner);
        case SCATTER_OUT_OF_RANGE_CLAMP:
            return is_i64 ? gather_typed<int64_t, Policy::Clamp>(a, runner)
                          : gather_typed<int32_t, Policy::Clamp>(a, runner);
        default:
            return is_i64 ? gather_typed<int64_t, Policy::Error>(a, runner)
                          : gather_typed<int32_t, Policy::Error>(a, runner);
    }
}

}  // namespace scatter
