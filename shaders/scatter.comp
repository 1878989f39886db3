#version 450
// The scatter pass. Two algorithms, both applying each target's updates in exactly the row-major
// order the CPU backend uses, with no atomics on values: bitwise-identical results on every run.
//
// Target-parallel (the default; buckets.comp prepares it): one invocation per out element.
//   GATHER_WINNER  `none`: copies the winning update, or data where no update lands.
//   APPLY_TARGETS  reductions: folds the target's sorted updates in a register, then applies
//                  exclude_self and mean, and writes out once (data where no update lands);
//                  on a loop-limited driver, in chunk passes of a bounded number of updates.
//   APPLY_SEGMENTS the same in place, for the targets of each key that updates reach only
//                  (per sorted item, not per out element: few updates into a large tensor).
//   GATHER_SEGMENTS `none` in place, the same way: each winning item writes its targets.
//   APPLY_QUADS    APPLY_TARGETS for 16 bytes of a row-major target row per invocation.
// Both also do the copy out = data, so no separate copy pass runs.
//
// Slab (elements, when a fiber's targets fit in shared memory; a fiber is out along the axis,
// the only targets its fiber of updates reaches): one workgroup per tile of fibers, adjacent
// along out's last dim when the axis is not the last. SLAB loads the tile's targets into
// shared memory, applies the tile's updates there, chunk by chunk in position order, and writes
// the tile once, coalesced (untouched targets too: no copy pass, no scratch, no sort).
// `none` keeps the last position per target (shared atomicMax); reductions fold each target's
// updates of a chunk in lane order by one lane, the lowest lane of the chunk naming the target:
// chunks of the workgroup, or (the `_sb` variants, SCATTER_SUBGROUP_BALLOT) of each subgroup
// over its share of the targets, from a block of updates staged in shared memory.
//
// Owner-computes (the fallback when the bucket tables would not fit in scratch's windows):
// one invocation per column, a column being every update that
// can reach a fixed set of targets no other column reaches. It applies its updates in row-major
// order, so duplicates are reduced in exactly the order the CPU backend uses, with no atomics on
// values and bitwise-identical results from run to run.
//   elements: a column is a position of indices with the axis coordinate left free; the loop
//             runs along the axis.
//   rows/nd:  a column is an (outer, inner) position of the target slice; the loop runs over the
//             slices, whose targets the index pass resolved into scratch tables.
// Mode FINISH_MEAN divides every hit target by its count (+1 unless exclude_self).
// SCATTER_DTYPE selects the arithmetic; 0 is `none` for every dtype (a byte copy, opaque too).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#if defined(SCATTER_SUBGROUP_BALLOT)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#include "scatter_enums.glsl"
#if defined(SCATTER_DENORM_PRESERVE)
// Keep subnormal results and operands, as the CPU does (SPIR-V DenormPreserve execution mode,
// SPV_KHR_float_controls): picked only on devices with shaderDenormPreserveFloat32/64.
#extension GL_EXT_spirv_intrinsics : require
#if SCATTER_DTYPE == SCATTER_DTYPE_F64 || SCATTER_DTYPE == SCATTER_DTYPE_C128
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 64);
#else
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif
#endif
#include "common.glsl"
#if SCATTER_DTYPE != SCATTER_DT_RAW
#include "element_math.glsl"
#endif
#include "slab_tile.glsl"

void apply_update(int out_offset, int update_offset, int count_index) {
    uint to = tensor_byte(T_OUT, out_offset);
    uint from = tensor_byte(T_UPDATES, update_offset);
#if SCATTER_DTYPE == SCATTER_DT_RAW
    uint size = uint(tensor_element_size(T_OUT));
    uint piece = piece_size_for(from, to, size);
    for (uint b = 0u; b < size; b += piece) out_store_piece(to + b, piece, update_piece(from + b, piece));
#else
    uint reduction = call_reduction();
    uvec4 target;
    bool fresh = false;
    if (param(P_HAS_COUNTS) != 0) {
        // Only this invocation touches this target, so the count needs no atomics.
        uint word = uint(param(P_COUNTS_BASE) + count_index);
        uint hits = scratch_word(word);
        scratch_store_word(word, hits + 1u);
        fresh = hits == 0u && param(P_EXCLUDE_SELF) != 0;
    }
    target = fresh ? identity_raw(reduction) : load_out_element(to);
    store_out_element(to, step_raw(reduction, target, load_update_element(from)));
#endif
}

void apply_elements_column(int column) {
    int axis = param(P_AXIS);
    int rank = tensor_rank(T_INDICES);
    int index_offset = 0, update_offset = 0, out_offset = 0, count_offset = 0;
    int count_stride = 1;  // row-major strides of the data shape index the hit counts
    int axis_count_stride = 1;
    int rest = column;
    for (int d = rank - 1; d >= 0; --d) {
        if (d == axis) {
            axis_count_stride = count_stride;
        } else {
            int size = tensor_shape(T_INDICES, d);
            int c = rest % size;
            rest /= size;
            index_offset += c * tensor_stride(T_INDICES, d);
            update_offset += c * tensor_stride(T_UPDATES, d);
            out_offset += c * tensor_stride(T_OUT, d);
            count_offset += c * count_stride;
        }
        count_stride *= tensor_shape(T_OUT, d);
    }
    int axis_size = tensor_shape(T_OUT, axis);
    int length = tensor_shape(T_INDICES, axis);
    for (int k = 0; k < length; ++k) {
        int target;
        if (!resolve_index(index_offset + k * tensor_stride(T_INDICES, axis), axis_size, target)) continue;
        apply_update(out_offset + target * tensor_stride(T_OUT, axis),
                     update_offset + k * tensor_stride(T_UPDATES, axis),
                     count_offset + target * axis_count_stride);
    }
}

void apply_slices_column(int column) {
    int inner = param(P_INNER);
    int i = column % inner;
    int o = column / inner;
    int out_offset, update_offset;
    slice_bases(o, i, out_offset, update_offset);
    int slices = param(P_SLICES);
    int target_rows = param(P_TARGET_ROWS);
    for (int j = 0; j < slices; ++j) {
        int row = int(scratch_word(uint(param(P_SLICE_ROW_BASE) + j)));
        if (row < 0) continue;
        apply_update(out_offset + int(scratch_word(uint(param(P_SLICE_OFFSET_BASE) + j))),
                     update_offset + int(scratch_word(uint(param(P_SLICE_UPDATE_BASE) + j))),
                     (o * target_rows + row) * inner + i);
    }
}

#if SCATTER_DTYPE != SCATTER_DT_RAW
void finish_mean(int position) {
    uint hits = scratch_word(uint(param(P_COUNTS_BASE) + position));
    if (hits == 0u) return;
    uint terms = hits + (param(P_EXCLUDE_SELF) != 0 ? 0u : 1u);
    uint byte = tensor_byte(T_OUT, offset_of_flat(T_OUT, position));
    store_out_element(byte, mean_raw(load_out_element(byte), terms));
}
#endif

// ---- SLAB: one workgroup per tile of fibers of out ----
// The table's size in words: the host picks a size class per call; the default is SMALL_NONE's.
layout(constant_id = 1) const int SLAB_WORDS = SCATTER_SMALL_TARGETS;
shared uint slab_words[SLAB_WORDS];  // also SMALL_NONE's winner table

// ---- target-parallel modes: one invocation per out element (position t, row-major) ----
// The key of t (elements: t itself; rows/nd: its target row) and, for rows/nd, the updates offset
// of slice 0 at t's outer and inner position.
int target_key(int t, out int update_base) {
    update_base = 0;
    if (param(P_OP) == SCATTER_OP_ELEMENTS) return t;
    int inner = param(P_INNER);
    int rows = param(P_TARGET_ROWS);
    // t = (outer * rows + row) * inner + i: two divisions.
    int outer_row = t / inner;
    int outer = outer_row / rows;
    int out_base;
    slice_bases(outer, t - outer_row * inner, out_base, update_base);
    return outer_row - outer * rows;
}

// Element offset in updates of `item` reaching a target whose slice-0 offset is update_base.
int item_update_offset(int item, int update_base) {
    if (param(P_OP) == SCATTER_OP_ELEMENTS) return offset_of_flat(T_UPDATES, item);
    return update_base + int(scratch_word(uint(param(P_SLICE_UPDATE_BASE) + item)));
}

// The segment passes (in place, only the targets some update reaches): invocation id is position
// (item, rest) of [items, per item]; rows/nd: rest = outer x inner + i, elements: one per item.
int segment_item(int id, out int rest) {
    rest = 0;
    if (param(P_OP) == SCATTER_OP_ELEMENTS) return id;
    const int per_item = param(P_OUTER) * param(P_INNER);  // > 0: the host's choice (vk_path.cpp)
    const int item = id / per_item;
    rest = id - item * per_item;
    return item;
}

// The out element of key `key` (a target row, or for elements the target) at position `rest`.
int segment_target(int key, int rest) {
    if (param(P_OP) == SCATTER_OP_ELEMENTS) return key;
    const int inner = param(P_INNER), outer = rest / inner;
    return (outer * param(P_TARGET_ROWS) + key) * inner + (rest - outer * inner);
}

#if SCATTER_DTYPE == SCATTER_DT_RAW
// `none`: out[t] = the winning update, or data[t] when no update reaches t.
// winner: 1 + the winning item, or 0 when no update reaches t.
// Copies one element to byte `to` of out from byte `from` of updates or of data.
void copy_element(uint to, uint from, bool from_update) {
    uint size = uint(tensor_element_size(T_OUT));
    uint piece = piece_size_for(from, to, size);
    for (uint b = 0u; b < size; b += piece)
        out_store_piece(to + b, piece, from_update ? update_piece(from + b, piece) : data_piece(from + b, piece));
}

void gather_from(int t, uint winner, int update_base) {
    if (winner == 0u && in_place()) return;
    bool from_update = winner != 0u;
    copy_element(tensor_byte(T_OUT, offset_of_flat(T_OUT, t)),
                 from_update ? tensor_byte(T_UPDATES, item_update_offset(int(winner - 1u), update_base))
                             : tensor_byte(T_DATA, offset_of_flat(T_DATA, t)),
                 from_update);
}

void gather_winner(int t) {
    int update_base;
    int key = target_key(t, update_base);
    gather_from(t, scratch_word(uint(param(P_WINNER_BASE) + key)), update_base);
}

// GATHER_SEGMENTS: item s writes its update into its key's target at `rest` where it is the
// key's winner, so each target an update reaches is written once, by the last such update.
void gather_segment(int id) {
    int rest;
    const int s = segment_item(id, rest);
    // (WINNER validated every index: an `error` index failed the call before this pass.)
    const int key = param(P_OP) == SCATTER_OP_ELEMENTS ? element_key(s)
                                                       : int(scratch_word(uint(param(P_SLICE_ROW_BASE) + s)));
    if (key < 0 || scratch_word(uint(param(P_WINNER_BASE) + key)) != uint(s + 1)) return;
    const int t = segment_target(key, rest);
    int update_base;
    target_key(t, update_base);
    gather_from(t, uint(s + 1), update_base);
}

// SMALL_NONE: `elements` `none` small enough for one workgroup, in one dispatch: the status
// words reset, every index validated and each target's winner found in shared memory, then, if
// nothing failed, out written. (WINNER and GATHER_WINNER as two passes, plus the fills, cost a
// small call ~15 us more on a real GPU.)

int element_count_of(int t) {
    int n = 1;
    for (int d = 0; d < tensor_rank(t); ++d) n *= tensor_shape(t, d);
    return n;
}

void small_none() {
    const int lane = int(gl_LocalInvocationID.x);
    const int targets = element_count_of(T_OUT), items = element_count_of(T_INDICES);
    if (lane == 0) {
        for (int w = 0; w < S_WORDS; ++w) status_words[w] = SCATTER_STATUS_NONE;
    }
    for (int t = lane; t < targets; t += SCATTER_WORKGROUP_SIZE) slab_words[t] = 0u;
    memoryBarrierBuffer();
    memoryBarrierShared();
    barrier();
    for (int i = lane; i < items; i += SCATTER_WORKGROUP_SIZE) {
        int key = element_key(i);
        if (key >= 0) atomicMax(slab_words[key], uint(i + 1));
    }
    memoryBarrierBuffer();
    memoryBarrierShared();
    barrier();
    if (atomicOr(status_words[S_BAD_INDEX], 0u) != SCATTER_STATUS_NONE) return;  // nothing written
    for (int t = lane; t < targets; t += SCATTER_WORKGROUP_SIZE) gather_from(t, slab_words[t], 0);
}

// SLAB `none`'s write of table slot e: out's byte, its source's byte (the winning update, or
// data), and whether anything is written (not past the slots, not an untouched target in place).
struct SlabCopy {
    uint to, from;
    bool from_update, writes;
};

SlabCopy slab_copy_of(Tile tl, int e, int slots) {
    SlabCopy c = SlabCopy(0u, 0u, false, false);
    if (e >= slots) return c;
    const uint winner = slab_words[e];
    if (winner == 0u && in_place()) return c;
    int out_offset, data_offset;
    tile_slot(tl, e, out_offset, data_offset);
    c.to = tensor_byte(T_OUT, out_offset);
    c.from_update = winner != 0u;
    c.from = c.from_update ? tensor_byte(T_UPDATES, tile_update_offset(tl, int(winner - 1u))) : tensor_byte(T_DATA, data_offset);
    c.writes = true;
    return c;
}

uint slab_copy_read(SlabCopy c, uint size) {
    if (!c.writes) return 0u;
    return c.from_update ? update_piece(c.from, size) : data_piece(c.from, size);
}

// SLAB `none`: the winner of each target is its last update in the tile.
void slab_none(int g) {
    const int lane = int(gl_LocalInvocationID.x);
    const Tile tl = tile_of(g);
    const int slots = tl.targets * tl.columns, updates = tl.items * tl.index_columns;
    for (int e = lane; e < slots; e += SCATTER_WORKGROUP_SIZE) slab_words[e] = 0u;
    memoryBarrierShared();
    barrier();
    // The winner is 1 + j, the tile's update number: for one slot, j grows with the position.
    // Four updates per lane a round, their index loads independent: a GPU keeps four in flight
    // per lane (a large table leaves few workgroups per multiprocessor to hide the latency).
    const int lanes = SCATTER_WORKGROUP_SIZE;
    for (int j = lane; j < updates; j += 4 * lanes) {
        const int s0 = tile_update_slot(tl, j);
        const int s1 = j + lanes < updates ? tile_update_slot(tl, j + lanes) : -1;
        const int s2 = j + 2 * lanes < updates ? tile_update_slot(tl, j + 2 * lanes) : -1;
        const int s3 = j + 3 * lanes < updates ? tile_update_slot(tl, j + 3 * lanes) : -1;
        if (s0 >= 0) atomicMax(slab_words[s0], uint(j + 1));
        if (s1 >= 0) atomicMax(slab_words[s1], uint(j + lanes + 1));
        if (s2 >= 0) atomicMax(slab_words[s2], uint(j + 2 * lanes + 1));
        if (s3 >= 0) atomicMax(slab_words[s3], uint(j + 3 * lanes + 1));
    }
    memoryBarrierShared();
    barrier();
    // Elements of at most a word, naturally aligned (every dtype but 8- and 16-byte ones and
    // odd opaque sizes): four slots a round, every source read before any store, for the same
    // reason as above; otherwise a slot at a time, piece by piece.
    const uint size = uint(tensor_element_size(T_OUT));
    const bool one_piece = size <= 4u && piece_size_for(tensor_byte(T_OUT, 0), tensor_byte(T_UPDATES, 0), size) == size &&
                           piece_size_for(tensor_byte(T_DATA, 0), 0u, size) == size;
    if (one_piece) {
        for (int e = lane; e < slots; e += 4 * lanes) {
            const SlabCopy c0 = slab_copy_of(tl, e, slots), c1 = slab_copy_of(tl, e + lanes, slots);
            const SlabCopy c2 = slab_copy_of(tl, e + 2 * lanes, slots), c3 = slab_copy_of(tl, e + 3 * lanes, slots);
            const uint v0 = slab_copy_read(c0, size), v1 = slab_copy_read(c1, size);
            const uint v2 = slab_copy_read(c2, size), v3 = slab_copy_read(c3, size);
            if (c0.writes) out_store_piece(c0.to, size, v0);
            if (c1.writes) out_store_piece(c1.to, size, v1);
            if (c2.writes) out_store_piece(c2.to, size, v2);
            if (c3.writes) out_store_piece(c3.to, size, v3);
        }
        return;
    }
    for (int e = lane; e < slots; e += SCATTER_WORKGROUP_SIZE) {
        const SlabCopy c = slab_copy_of(tl, e, slots);
        if (c.writes) copy_element(c.to, c.from, c.from_update);
    }
}
#else
// Entry k of a key's list: the item (its position), from the sorted list at `first`, or
// start + k strides along the axis when the key sort was skipped because the keys were in order
// (P_KEY_ORDER_WORD).
int list_item(bool identity_list, uint start, uint first, uint k) {
    return identity_list ? int(start + k * uint(param(P_ORDER_STRIDE))) : int(scratch_word(first + k));
}

// Reductions: folds t's updates, sorted into row-major order by the buckets passes, into a
// register and writes out[t] once (data[t] when no update reaches it: no separate copy pass).
// On a loop-limited driver with the key sort, pass `chunk` folds the key's updates
// [chunk, chunk + 1) x P_CHUNK_ITEMS, from out as the previous chunk pass left it (the value is
// the out dtype's own bits between steps, so nothing is lost); the last one applies mean.
void apply_target(int t, uint chunk) {
    int update_base;
    int key = target_key(t, update_base);
    uint hits = scratch_word(uint(param(P_COUNTS_BASE) + key));
    uint per_chunk = uint(param(P_CHUNK_ITEMS));
    uint begin = chunk * per_chunk;
    if (chunk > 0u && hits <= begin) return;  // this key was done in an earlier pass
    uint to = tensor_byte(T_OUT, offset_of_flat(T_OUT, t));
    if (hits == 0u && in_place()) return;
    uint reduction = call_reduction();
    bool exclude = param(P_EXCLUDE_SELF) != 0;
    uvec4 value;
    if (chunk > 0u) {
        value = load_out_element(to);
    } else {
        uvec4 self = in_place() ? load_out_element(to) : load_data_element(tensor_byte(T_DATA, offset_of_flat(T_DATA, t)));
        if (hits == 0u) {
            store_out_element(to, self);
            return;
        }
        value = exclude ? identity_raw(reduction) : self;
    }
    uint end = per_chunk == 0u ? hits : min(hits, begin + per_chunk);
    uint start = scratch_word(uint(param(P_START_BASE) + key));
    uint first = uint(param(P_LIST_BASE)) + start;
    // The key sort skipped for items already in order: the list is the identity.
    int order_word = param(P_KEY_ORDER_WORD);
    bool identity_list = order_word >= 0 && scratch_word(uint(order_word)) == 0u;
    for (uint k = begin; k < end; k += 4u) {
        // Four items' loads in flight (a long fold is latency-bound); a batch short of four loads
        // its last item again in their place and steps only its own. Four named values, not
        // arrays: an array indexed in a loop lands in local memory.
        const uint n = min(4u, end - k), last = k + n - 1u;
        const int i0 = list_item(identity_list, start, first, k), i1 = list_item(identity_list, start, first, min(k + 1u, last));
        const int i2 = list_item(identity_list, start, first, min(k + 2u, last));
        const int i3 = list_item(identity_list, start, first, last);
        const uvec4 u0 = load_update_element(tensor_byte(T_UPDATES, item_update_offset(i0, update_base)));
        const uvec4 u1 = load_update_element(tensor_byte(T_UPDATES, item_update_offset(i1, update_base)));
        const uvec4 u2 = load_update_element(tensor_byte(T_UPDATES, item_update_offset(i2, update_base)));
        const uvec4 u3 = load_update_element(tensor_byte(T_UPDATES, item_update_offset(i3, update_base)));
        // One step in a loop, the only one in the fold: a step of a reduction chosen at run
        // time is every reduction's arithmetic, and each copy grows the pipeline (lavapipe's
        // compiles: a separate loop for the batch's tail took 1.5x as long).
        [[dont_unroll]] for (uint j = 0u; j < n; ++j)
            value = step_raw(reduction, value, j == 0u ? u0 : j == 1u ? u1 : j == 2u ? u2 : u3);
    }
    if (reduction == SCATTER_REDUCTION_MEAN && end == hits) value = mean_raw(value, hits + (exclude ? 0u : 1u));
    store_out_element(to, value);
}

#if !defined(SCATTER_ADDRESSES) && (SCATTER_DTYPE == SCATTER_DTYPE_F32 || SCATTER_DTYPE == SCATTER_DTYPE_I32 || \
    SCATTER_DTYPE == SCATTER_DTYPE_U32 || SCATTER_DTYPE == SCATTER_DTYPE_F64 || SCATTER_DTYPE == SCATTER_DTYPE_I64 || \
    SCATTER_DTYPE == SCATTER_DTYPE_U64 || SCATTER_DTYPE == SCATTER_DTYPE_C64)
// APPLY_QUADS: APPLY_TARGETS for 16 bytes of a target row at once (rows/nd with out, data and
// updates row-major, 16-byte aligned in their windows, rows a whole number of quads: the host's
// choice, vk_path.cpp). The key's range and its list are read once per 4 (or 2) elements instead
// of once per element, every access is one 16-byte load or store, and the list is read 4 items
// at a time so that their updates' loads are in flight together: the fold of a target row is
// bound by memory latency, not by arithmetic.
#define SCATTER_QUADS 1
const uint QUAD_ELEMENTS = 16u / ELEMENT_SIZE;
const uint ELEMENT_WORDS = ELEMENT_SIZE / 4u;
// Views of the same windows as 16-byte units (a window starts 16-byte aligned: the host checks).
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutQuads { uvec4 w[]; } out_quads[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_DATA) restrict readonly buffer DataQuads { uvec4 w[]; } data_quads[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_UPDATES) restrict readonly buffer UpdateQuads { uvec4 w[]; } update_quads[SCATTER_WINDOWS];
uvec4 out_quad(uint word) SCATTER_AT(out_quads, WordRef, A_OUT, word, 4u, USE_LOAD)
uvec4 data_quad(uint word) SCATTER_AT(data_quads, WordRef, A_DATA, word, 4u, USE_LOAD)
uvec4 update_quad(uint word) SCATTER_AT(update_quads, WordRef, A_UPDATES, word, 4u, USE_LOAD)
void out_store_quad(uint word, uvec4 value) SCATTER_AT(out_quads, WordRef, A_OUT, word, 4u, USE_STORE)

// One step (or identity, or mean) for each element of a quad, in a loop over the elements (one
// copy of the step's arithmetic; the components picked by selects, never a dynamic index).
uvec4 quad_step(uint r, uvec4 t, uvec4 u) {
    if (ELEMENT_SIZE == 4u) {
        [[dont_unroll]] for (uint e = 0u; e < 4u; ++e) {
            const uint a = e == 0u ? t.x : e == 1u ? t.y : e == 2u ? t.z : t.w;
            const uint b = e == 0u ? u.x : e == 1u ? u.y : e == 2u ? u.z : u.w;
            const uint v = step_raw(r, uvec4(a, 0u, 0u, 0u), uvec4(b, 0u, 0u, 0u)).x;
            t = uvec4(e == 0u ? v : t.x, e == 1u ? v : t.y, e == 2u ? v : t.z, e == 3u ? v : t.w);
        }
        return t;
    }
    [[dont_unroll]] for (uint e = 0u; e < 2u; ++e) {
        const uvec2 v = step_raw(r, uvec4(e == 0u ? t.xy : t.zw, 0u, 0u), uvec4(e == 0u ? u.xy : u.zw, 0u, 0u)).xy;
        t = e == 0u ? uvec4(v, t.zw) : uvec4(t.xy, v);
    }
    return t;
}
uvec4 quad_identity(uint r) {
    uvec4 e = identity_raw(r);
    return ELEMENT_SIZE == 4u ? e.xxxx : e.xyxy;
}
uvec4 quad_mean(uvec4 sum, uint count) {
    if (ELEMENT_SIZE == 4u) {
        [[dont_unroll]] for (uint e = 0u; e < 4u; ++e) {
            const uint a = e == 0u ? sum.x : e == 1u ? sum.y : e == 2u ? sum.z : sum.w;
            const uint v = mean_raw(uvec4(a, 0u, 0u, 0u), count).x;
            sum = uvec4(e == 0u ? v : sum.x, e == 1u ? v : sum.y, e == 2u ? v : sum.z, e == 3u ? v : sum.w);
        }
        return sum;
    }
    [[dont_unroll]] for (uint e = 0u; e < 2u; ++e) {
        const uvec2 v = mean_raw(uvec4(e == 0u ? sum.xy : sum.zw, 0u, 0u), count).xy;
        sum = e == 0u ? uvec4(v, sum.zw) : uvec4(sum.xy, v);
    }
    return sum;
}

// The first word in updates of the quad at element offset update_base of `item`'s slice.
uint quad_update_word(int item, int update_base) {
    return uint(tensor_int(T_UPDATES, T_BASE_BYTE)) / 4u + uint(item_update_offset(item, update_base)) * ELEMENT_WORDS;
}

// Quad q: out elements [q, q + 1) x QUAD_ELEMENTS, of one target row; `chunk` as in apply_target.
void apply_quad(int q, uint chunk) {
    const int t = q * int(QUAD_ELEMENTS);
    int update_base;
    const int key = target_key(t, update_base);
    const uint hits = scratch_word(uint(param(P_COUNTS_BASE) + key));
    const uint per_chunk = uint(param(P_CHUNK_ITEMS));
    const uint begin = chunk * per_chunk;
    if (chunk > 0u && hits <= begin) return;
    if (hits == 0u && in_place()) return;
    const uint to = uint(tensor_int(T_OUT, T_BASE_BYTE)) / 4u + uint(t) * ELEMENT_WORDS;
    const uint reduction = call_reduction();
    const bool exclude = param(P_EXCLUDE_SELF) != 0;
    uvec4 value;
    if (chunk > 0u) {
        value = out_quad(to);
    } else {
        const uvec4 self = in_place() ? out_quad(to) : data_quad(uint(tensor_int(T_DATA, T_BASE_BYTE)) / 4u + uint(t) * ELEMENT_WORDS);
        if (hits == 0u) {
            out_store_quad(to, self);
            return;
        }
        value = exclude ? quad_identity(reduction) : self;
    }
    const uint end = per_chunk == 0u ? hits : min(hits, begin + per_chunk);
    const uint start = scratch_word(uint(param(P_START_BASE) + key));
    const uint first = uint(param(P_LIST_BASE)) + start;
    const int order_word = param(P_KEY_ORDER_WORD);
    const bool identity_list = order_word >= 0 && scratch_word(uint(order_word)) == 0u;
    for (uint k = begin; k < end; k += 4u) {  // as in apply_target: up to four items' loads in flight
        const uint n = min(4u, end - k), last = k + n - 1u;
        const int i0 = list_item(identity_list, start, first, k), i1 = list_item(identity_list, start, first, min(k + 1u, last));
        const int i2 = list_item(identity_list, start, first, min(k + 2u, last));
        const int i3 = list_item(identity_list, start, first, last);
        const uvec4 u0 = update_quad(quad_update_word(i0, update_base)), u1 = update_quad(quad_update_word(i1, update_base));
        const uvec4 u2 = update_quad(quad_update_word(i2, update_base)), u3 = update_quad(quad_update_word(i3, update_base));
        [[dont_unroll]] for (uint j = 0u; j < n; ++j)
            value = quad_step(reduction, value, j == 0u ? u0 : j == 1u ? u1 : j == 2u ? u2 : u3);
    }
    if (reduction == SCATTER_REDUCTION_MEAN && end == hits) value = quad_mean(value, hits + (exclude ? 0u : 1u));
    out_store_quad(to, value);
}
#endif

// APPLY_SEGMENTS: the sorted item s that starts its key's run folds the key's target at `rest`.
void apply_segment(int id, uint chunk) {
    int rest;
    const int s = segment_item(id, rest);
    const int order_word = param(P_KEY_ORDER_WORD);
    const bool in_order = order_word >= 0 && scratch_word(uint(order_word)) == 0u;
    const uint keys = uint(param(in_order ? P_ITEM_KEYS_BASE : P_SORTED_KEYS_BASE));
    const uint key = scratch_word(keys + uint(s));
    if (key >= uint(param(P_KEY_COUNT))) return;  // skipped items, sorted last
    // Not the first of its run (in order: the run is along the axis).
    const int stride = in_order ? param(P_ORDER_STRIDE) : 1;
    if (s >= stride && scratch_word(keys + uint(s - stride)) == key) return;
    apply_target(segment_target(int(key), rest), chunk);
}

// SLAB reductions: a slot's value (ELEMENT_SIZE bytes, at least a word) and, with hit counts,
// its count after all slots' values.
#define SLAB_WORDS_PER_TARGET (ELEMENT_SIZE < 4u ? 1u : ELEMENT_SIZE / 4u)
#if !defined(SCATTER_SUBGROUP_BALLOT)
// The slots of the chunk's lanes (-1: skipped), then each lane's next lane with its slot (-1: none).
shared int slab_chunk[SCATTER_WORKGROUP_SIZE];
// The chunk's update values, each loaded by its own lane (vk_path.cpp reserves the room): the lane
// that folds a slot's updates reads them here, not one global load after another.
shared uint slab_chunk_values[SCATTER_WORKGROUP_SIZE * SLAB_WORDS_PER_TARGET];

void slab_set_chunk_value(int lane, uvec4 v) {
    uint w = uint(lane) * SLAB_WORDS_PER_TARGET;
    slab_chunk_values[w] = v.x;
    if (SLAB_WORDS_PER_TARGET >= 2u) slab_chunk_values[w + 1u] = v.y;
    if (SLAB_WORDS_PER_TARGET >= 4u) { slab_chunk_values[w + 2u] = v.z; slab_chunk_values[w + 3u] = v.w; }
}

uvec4 slab_chunk_value(int lane) {
    uint w = uint(lane) * SLAB_WORDS_PER_TARGET;
    uvec4 v = uvec4(slab_chunk_values[w], 0u, 0u, 0u);
    if (SLAB_WORDS_PER_TARGET >= 2u) v.y = slab_chunk_values[w + 1u];
    if (SLAB_WORDS_PER_TARGET >= 4u) { v.z = slab_chunk_values[w + 2u]; v.w = slab_chunk_values[w + 3u]; }
    return v;
}
#endif

uvec4 slab_value(int slot) {
    uint w = uint(slot) * SLAB_WORDS_PER_TARGET;
    uvec4 v = uvec4(slab_words[w], 0u, 0u, 0u);
    if (SLAB_WORDS_PER_TARGET >= 2u) v.y = slab_words[w + 1u];
    if (SLAB_WORDS_PER_TARGET >= 4u) { v.z = slab_words[w + 2u]; v.w = slab_words[w + 3u]; }
    return v;
}

void slab_set_value(int slot, uvec4 v) {
    uint w = uint(slot) * SLAB_WORDS_PER_TARGET;
    slab_words[w] = v.x;
    if (SLAB_WORDS_PER_TARGET >= 2u) slab_words[w + 1u] = v.y;
    if (SLAB_WORDS_PER_TARGET >= 4u) { slab_words[w + 2u] = v.z; slab_words[w + 3u] = v.w; }
}

#if defined(SCATTER_SUBGROUP_BALLOT)
// The ordered fold by subgroups (the `_sb` variants, on devices with subgroup ballots and
// subgroups of at most a workgroup). The workgroup stages a block of the tile's updates in
// shared memory, every lane loading several at once (a GPU then waits on global memory once per
// block, not once per chunk of a subgroup's width: W2 3.9 ms on an H200 before). Subgroup s owns
// the s-th share of the tile's slots. It walks the block in chunks of its own width and queues
// the updates whose slot is its own (one ballot a chunk, in position order); each full chunk of
// its queue then folds: lanes with equal slots find each other with one ballot per bit of the
// slot (within the share), and the lowest of them folds their updates in lane order, i.e.
// position order, every earlier queued chunk already folded by this subgroup. So the ballots per
// bit run once per update, not once per update and subgroup (twice over on NVIDIA's 32-lane
// subgroups, 16 times over on llvmpipe's 4-lane ones; W2's slab pass was 3.6 ms on an H200 with
// 128 such chunks per subgroup and row). Only the block's loads are waited for by the whole
// workgroup.
// (A multiple of 4 workgroup widths: the loads go four a lane a round.)
const int SLAB_STAGE_ITEMS = (SCATTER_SLAB_STAGE_WORDS / (1 + int(SLAB_WORDS_PER_TARGET))) / (4 * SCATTER_WORKGROUP_SIZE) *
                             (4 * SCATTER_WORKGROUP_SIZE);
shared uint slab_stage[SCATTER_SLAB_STAGE_WORDS];  // a block's slots (-1: none), then its values
// Each subgroup's queue: a ring of twice its width of staged items (SCATTER_SLAB_QUEUE_WORDS).
shared int slab_queue[SCATTER_SLAB_QUEUE_WORDS];

void slab_stage_value(int i, uvec4 v) {
    uint w = uint(SLAB_STAGE_ITEMS + i * int(SLAB_WORDS_PER_TARGET));
    slab_stage[w] = v.x;
    if (SLAB_WORDS_PER_TARGET >= 2u) slab_stage[w + 1u] = v.y;
    if (SLAB_WORDS_PER_TARGET >= 4u) { slab_stage[w + 2u] = v.z; slab_stage[w + 3u] = v.w; }
}

uvec4 slab_staged_value(int i) {
    uint w = uint(SLAB_STAGE_ITEMS + i * int(SLAB_WORDS_PER_TARGET));
    uvec4 v = uvec4(slab_stage[w], 0u, 0u, 0u);
    if (SLAB_WORDS_PER_TARGET >= 2u) v.y = slab_stage[w + 1u];
    if (SLAB_WORDS_PER_TARGET >= 4u) { v.z = slab_stage[w + 2u]; v.w = slab_stage[w + 3u]; }
    return v;
}

// Update `first + i` of the tile, staged at i (a slot of -1 where there is none or it is skipped).
void slab_stage_update(Tile tl, int first, int i, int updates) {
    const int j = first + i;
    const int slot = j < updates ? tile_update_slot(tl, j) : -1;
    slab_stage[i] = uint(slot);
    if (slot >= 0) slab_stage_value(i, load_update_element(tensor_byte(T_UPDATES, tile_update_offset(tl, j))));
}

// The subgroup's queue and its place in slab_queue: `head` its oldest entry, `queued` entries.
struct SlabQueue {
    int base, head, queued;
};

int slab_queue_at(SlabQueue q, int k) { return q.base + ((q.head + k) & (2 * int(gl_SubgroupSize) - 1)); }

// Folds the queue's first `count` (at most the subgroup's width) staged items, all of this
// subgroup's share from `first` on (slots of up to `bits` bits past it), and removes them.
void slab_fold_queued(inout SlabQueue q, int count, int first, int bits, uint reduction, bool exclude, bool counts,
                      uint counts_at) {
    const int lane = int(gl_SubgroupInvocationID);
    const bool mine = lane < count;
    const int slot = mine ? int(slab_stage[slab_queue[slab_queue_at(q, lane)]]) : -1;
    const int rel = slot - first;
    uvec4 same = subgroupBallot(mine);
    for (int b = 0; b < bits; ++b) {
        const bool one = ((rel >> b) & 1) != 0;
        const uvec4 ones = subgroupBallot(one);
        same &= one ? ones : ~ones;
    }
    if (mine && int(subgroupBallotFindLSB(same)) == lane) {
        uvec4 value = slab_value(slot);
        uint hits = counts ? slab_words[counts_at + uint(slot)] : 0u;
        [[unroll]] for (int w = 0; w < 4; ++w) {
            for (uint m = same[w]; m != 0u; m &= m - 1u) {
                if (hits == 0u && exclude) value = identity_raw(reduction);
                value = step_raw(reduction, value, slab_staged_value(slab_queue[slab_queue_at(q, 32 * w + findLSB(m))]));
                ++hits;
            }
        }
        slab_set_value(slot, value);
        if (counts) slab_words[counts_at + uint(slot)] = hits;
    }
    // The next chunk's leader of this slot may be another lane, and these queue entries are
    // written again: this chunk's reads and writes first.
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    q.head = (q.head + count) & (2 * int(gl_SubgroupSize) - 1);
    q.queued -= count;
}

void slab_fold_subgroups(Tile tl, int slots, int updates, uint reduction, bool exclude, bool counts, uint counts_at) {
    const int width = int(gl_SubgroupSize), lane = int(gl_SubgroupInvocationID);
    const int share = (slots + int(gl_NumSubgroups) - 1) / int(gl_NumSubgroups);
    const int first = int(gl_SubgroupID) * share, end = min(slots, first + share);
    int bits = 0;
    while ((1 << bits) < share) ++bits;
    const int index = int(gl_LocalInvocationIndex);
    const uvec4 earlier_lanes = gl_SubgroupLtMask;
    SlabQueue q = SlabQueue(int(gl_SubgroupID) * 2 * width, 0, 0);
    for (int block = 0; block < updates; block += SLAB_STAGE_ITEMS) {
        // Four updates a lane a round, their loads independent (several in flight per lane).
        for (int i = index; i < SLAB_STAGE_ITEMS; i += 4 * SCATTER_WORKGROUP_SIZE) {
            slab_stage_update(tl, block, i, updates);
            slab_stage_update(tl, block, i + SCATTER_WORKGROUP_SIZE, updates);
            slab_stage_update(tl, block, i + 2 * SCATTER_WORKGROUP_SIZE, updates);
            slab_stage_update(tl, block, i + 3 * SCATTER_WORKGROUP_SIZE, updates);
        }
        memoryBarrierShared();
        barrier();
        const int staged = min(SLAB_STAGE_ITEMS, updates - block);
        for (int chunk = 0; chunk < staged; chunk += width) {
            const int i = chunk + lane;
            const int slot = i < staged ? int(slab_stage[i]) : -1;
            const bool mine = slot >= first && slot < end;
            const uvec4 queued = subgroupBallot(mine);
            if (mine) slab_queue[slab_queue_at(q, q.queued + int(subgroupBallotBitCount(queued & earlier_lanes)))] = i;
            q.queued += int(subgroupBallotBitCount(queued));
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            if (q.queued >= width) slab_fold_queued(q, width, first, bits, reduction, exclude, counts, counts_at);
        }
        // The next block is staged over this one: fold what is left of it first.
        if (q.queued > 0) slab_fold_queued(q, q.queued, first, bits, reduction, exclude, counts, counts_at);
        memoryBarrierShared();
        barrier();
    }
}
#endif

// Slot e's value before any update: out's element in place, else data's (0 past the table).
uvec4 slab_source(Tile tl, int e, int slots) {
    if (e >= slots) return uvec4(0u);
    int out_offset, data_offset;
    tile_slot(tl, e, out_offset, data_offset);
    return in_place() ? load_out_element(tensor_byte(T_OUT, out_offset)) : load_data_element(tensor_byte(T_DATA, data_offset));
}

void slab_fold(int g) {
    const int lane = int(gl_LocalInvocationID.x);
    const Tile tl = tile_of(g);
    const int slots = tl.targets * tl.columns, updates = tl.items * tl.index_columns;
    const bool counts = param(P_HAS_COUNTS) != 0;
    const uint counts_at = uint(slots) * SLAB_WORDS_PER_TARGET;
    // Four slots a lane a round, their loads independent: a GPU has four in flight per lane, not
    // one global load after another (64 of them a lane for a table of 4096).
    const int lanes = SCATTER_WORKGROUP_SIZE;
    for (int e = lane; e < slots; e += 4 * lanes) {
        const uvec4 v0 = slab_source(tl, e, slots), v1 = slab_source(tl, e + lanes, slots);
        const uvec4 v2 = slab_source(tl, e + 2 * lanes, slots), v3 = slab_source(tl, e + 3 * lanes, slots);
        slab_set_value(e, v0);
        if (e + lanes < slots) slab_set_value(e + lanes, v1);
        if (e + 2 * lanes < slots) slab_set_value(e + 2 * lanes, v2);
        if (e + 3 * lanes < slots) slab_set_value(e + 3 * lanes, v3);
        if (counts) {
            for (int k = 0; k < 4 && e + k * lanes < slots; ++k) slab_words[counts_at + uint(e + k * lanes)] = 0u;
        }
    }
    memoryBarrierShared();
    barrier();
    const uint reduction = call_reduction();
    const bool exclude = param(P_EXCLUDE_SELF) != 0;
#if defined(SCATTER_SUBGROUP_BALLOT)
    slab_fold_subgroups(tl, slots, updates, reduction, exclude, counts, counts_at);
#else
    // Each lane reads its update of the next chunk while the current one folds (a GPU then waits
    // on global memory once per chunk, overlapped with the fold, not once per update folded).
    int next_slot = lane < updates ? tile_update_slot(tl, lane) : -1;
    uvec4 next_value = next_slot >= 0 ? load_update_element(tensor_byte(T_UPDATES, tile_update_offset(tl, lane))) : uvec4(0u);
    for (int chunk = 0; chunk < updates; chunk += SCATTER_WORKGROUP_SIZE) {
        const int slot = next_slot;
        slab_chunk[lane] = slot;
        slab_set_chunk_value(lane, next_value);
        memoryBarrierShared();
        barrier();
        const int j = chunk + SCATTER_WORKGROUP_SIZE + lane;
        next_slot = j < updates ? tile_update_slot(tl, j) : -1;
        if (next_slot >= 0) next_value = load_update_element(tensor_byte(T_UPDATES, tile_update_offset(tl, j)));
        // The lowest lane with a slot folds that slot's updates of this chunk in lane order:
        // position order, as every earlier chunk was folded before this one. Each lane finds
        // whether an earlier lane has its slot and which later lane has it next; the folding
        // lanes then walk their chains together, so a subgroup runs as many fold steps as its
        // longest chain, not one per lane of the chunk (a float step is long where it must
        // keep subnormals in software).
        const int end = min(SCATTER_WORKGROUP_SIZE, updates - chunk);
        bool first = slot >= 0;
        int after = -1;
        if (slot >= 0) {
            for (int i = 0; i < end; ++i) {
                if (slab_chunk[i] != slot) continue;
                if (i < lane) first = false;
                else if (i > lane && after < 0) after = i;
            }
        }
        memoryBarrierShared();
        barrier();
        slab_chunk[lane] = after;  // from here the chunk's links
        memoryBarrierShared();
        barrier();
        if (first) {
            uvec4 value = slab_value(slot);
            uint hits = counts ? slab_words[counts_at + uint(slot)] : 0u;
            for (int i = lane; i >= 0; i = slab_chunk[i]) {
                if (hits == 0u && exclude) value = identity_raw(reduction);
                value = step_raw(reduction, value, slab_chunk_value(i));
                ++hits;
            }
            slab_set_value(slot, value);
            if (counts) slab_words[counts_at + uint(slot)] = hits;
        }
        memoryBarrierShared();
        barrier();
    }
#endif
    memoryBarrierShared();
    barrier();
    for (int e = lane; e < slots; e += SCATTER_WORKGROUP_SIZE) {
        uvec4 value = slab_value(e);
        if (reduction == SCATTER_REDUCTION_MEAN) {
            uint hits = slab_words[counts_at + uint(e)];
            if (hits != 0u) value = mean_raw(value, hits + (exclude ? 0u : 1u));
        }
        int out_offset, data_offset;
        tile_slot(tl, e, out_offset, data_offset);
        store_out_element(tensor_byte(T_OUT, out_offset), value);
    }
}
#endif

// Specialization constant 6: the one pass mode this pipeline runs, so that it holds only that
// pass's code (-1: the push constant's mode, every pass in one pipeline). Every pass in one
// pipeline made scatter_f32 a 220-274 KB binary on the NVIDIA driver, each taking it long to
// compile, and each pass got the registers of the largest.
layout(constant_id = 6) const int MODE_CONSTANT = -1;

uint pass_mode() { return MODE_CONSTANT >= 0 ? uint(MODE_CONSTANT) : pc.mode & SCATTER_MODE_MASK; }

// One id of the passes that loop over tiles (every mode but SLAB and SMALL_NONE).
void scatter_pass_at(uint id) {
    if (id >= pc.count) return;
#if SCATTER_DTYPE != SCATTER_DT_RAW
    if (pass_mode() == SCATTER_MODE_FINISH_MEAN) {
        finish_mean(int(id));
        return;
    }
#endif
#if SCATTER_DTYPE == SCATTER_DT_RAW
    if (pass_mode() == SCATTER_MODE_GATHER_WINNER) {
        gather_winner(int(id));
        return;
    }
    if (pass_mode() == SCATTER_MODE_GATHER_SEGMENTS) {
        gather_segment(int(id));
        return;
    }
#else
    if (pass_mode() == SCATTER_MODE_APPLY_TARGETS) {
        apply_target(int(id), pc.mode >> SCATTER_MODE_BITS);
        return;
    }
#if defined(SCATTER_QUADS)
    if (pass_mode() == SCATTER_MODE_APPLY_QUADS) {
        apply_quad(int(id), pc.mode >> SCATTER_MODE_BITS);
        return;
    }
#endif
    if (pass_mode() == SCATTER_MODE_APPLY_SEGMENTS) {
        apply_segment(int(id), pc.mode >> SCATTER_MODE_BITS);
        return;
    }
#endif
    if (param(P_OP) == SCATTER_OP_ELEMENTS) apply_elements_column(int(id));
    else apply_slices_column(int(id));
}

void main() {
#if SCATTER_DTYPE == SCATTER_DT_RAW
    if (pass_mode() == SCATTER_MODE_SMALL_NONE) {  // before the status check: it resets the status
        small_none();
        return;
    }
#endif
    if (pass_mode() == SCATTER_MODE_SLAB) {
        // Whole workgroups (count is a multiple of the size), and the status is the earlier
        // passes': the early return is uniform in each workgroup, as its barriers need.
        uint id = invocation_index();
        if (id >= pc.count || operation_failed()) return;
#if SCATTER_DTYPE == SCATTER_DT_RAW
        slab_none(int(id / uint(SCATTER_WORKGROUP_SIZE)));
#else
        slab_fold(int(id / uint(SCATTER_WORKGROUP_SIZE)));
#endif
        return;
    }
    if (operation_failed()) return;
    uint i = 0u;
    do scatter_pass_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
