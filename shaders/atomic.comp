#version 450
// The atomic path: one invocation per update element, each applied to its target in out with an
// atomic read-modify-write, after out = data (copy pass) or in place. One pass instead of the
// target path's five, for two kinds of operations only (src/vulkan/vk_operation.cpp chooses):
//   - reductions whose result does not depend on the order of the updates, bit for bit: integer
//     add/sub/mul/max/min (they wrap, so they are associative and commutative), bool add/mul
//     (or/and), and float max/min with NaN updates set aside (FIRST_NAN). These take the atomic
//     path by default: still deterministic.
//   - any other reduction but mean, when the caller allows non-determinism: then updates land in
//     arrival order, and float results may differ from the CPU in rounding (and NaN payloads).
// Modes:
//   RESET  exclude_self: every hit target becomes the reduction's identity first (all writers
//          store the same bits, so the race is harmless; the next dispatch sees them all).
//   APPLY  out[target] = out[target] op update, as a compare-and-swap loop on the word (or the
//          64-bit double word) holding the element; 4- and 8-byte integer add and sub use
//          atomicAdd, 4- and 8-byte integer and float max and min atomicMax and atomicMin.
//   FIRST_NAN  float max/min, after APPLY: each target's first NaN update (see FLOAT_MAX_MIN).
//   CANONICALIZE  after APPLY with native float atomics only: NaN targets take the canonical
//          NaN the CPU stores (hardware atomics leave whatever NaN their arithmetic makes).
//   SLAB   the `_slab` variants: the slab path's order-free reductions in shared memory (below).
// Elements of 1 or 2 bytes share their word with neighbours: the CAS replaces only their bits.
// The `_fa` variant (f32, ATOMIC_FLOAT_ADD) adds with the device's native float atomicAdd
// (VK_EXT_shader_atomic_float) instead of a CAS loop: no retries under contention.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require  // element_math.glsl's [[dont_unroll]]
// out is also declared as 64-bit words below: the two views alias, so out is not `restrict`.
#define SCATTER_OUT_ALIASED 1
#include "common.glsl"
#include "element_math.glsl"

#if SCATTER_DTYPE == SCATTER_DTYPE_F64 || SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64 || SCATTER_DTYPE == SCATTER_DTYPE_C64
#define ATOMIC_WIDE 1
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#if defined(SCATTER_ADDRESSES)
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Word64Ref { uint64_t v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Int64Ref { int64_t v; };
#else
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindow64 { uint64_t w[]; } out64_windows[SCATTER_WINDOWS];
#endif
#endif

// The target and update element offsets of update element `id`, and the target's row-major
// position in out (`key`); false when the update is skipped.
bool locate(int id, out int out_offset, out int update_offset, out int key) {
    out_offset = 0;
    update_offset = 0;
    key = 0;
    if (param(P_OP) == SCATTER_OP_ELEMENTS) {
        // id is a row-major position of indices (updates has the same shape).
        int axis = param(P_AXIS);
        int index_offset = 0, key_stride = 1, axis_key_stride = 1;
        int rest = id;
        for (int d = tensor_rank(T_INDICES) - 1; d >= 0; --d) {
            int size = tensor_shape(T_INDICES, d);
            int c = rest % size;
            rest /= size;
            index_offset += c * tensor_stride(T_INDICES, d);
            update_offset += c * tensor_stride(T_UPDATES, d);
            if (d != axis) {
                out_offset += c * tensor_stride(T_OUT, d);
                key += c * key_stride;
            } else {
                axis_key_stride = key_stride;
            }
            key_stride *= tensor_shape(T_OUT, d);
        }
        int target;
        if (!resolve_index(index_offset, tensor_shape(T_OUT, axis), target)) return false;
        out_offset += target * tensor_stride(T_OUT, axis);
        key += target * axis_key_stride;
        return true;
    }
    // rows/nd: id = (outer o, slice j, inner i), inner fastest so neighbours touch neighbours.
    int inner = param(P_INNER);
    int slices = param(P_SLICES);
    int i = id % inner;
    int j = (id / inner) % slices;
    int o = id / inner / slices;
    int row = int(scratch_word(uint(param(P_SLICE_ROW_BASE) + j)));
    if (row < 0) return false;
    int out_base, update_base;
    slice_bases(o, i, out_base, update_base);
    out_offset = out_base + int(scratch_word(uint(param(P_SLICE_OFFSET_BASE) + j)));
    update_offset = update_base + int(scratch_word(uint(param(P_SLICE_UPDATE_BASE) + j)));
    key = (o * param(P_TARGET_ROWS) + row) * inner + i;
    return true;
}

#if SCATTER_DTYPE >= 1 && SCATTER_DTYPE <= 4
// Float max/min: order-free but for NaN, where the CPU keeps the first NaN in row-major order
// (self first). APPLY sends NaN updates to first_nan[key] = atomicMin(id) instead of out, so out
// folds only the non-NaN updates (a total order with -0 below +0: any arrival order gives the
// same bits); FIRST_NAN then writes each target's first NaN update, unless self was NaN.
#define FLOAT_MAX_MIN 1
bool element_is_nan(uvec4 v) {
#if SCATTER_DTYPE == SCATTER_DTYPE_F64
    return real_is_nan(real_of(v.xy));
#else
    return real_is_nan(widen(v.x));
#endif
}
SCATTER_WINDOW_ATOMIC(scratch_min_word, scratch_windows, A_SCRATCH, USE_ATOMIC_MIN)
#endif

uint out_compare_swap(uint word, uint compare, uint value)
    SCATTER_AT(out_windows, WordRef, A_OUT, word, 1u, USE_RETURN_COMPARE_SWAP)

SCATTER_WINDOW_ATOMIC(out_add_word, out_windows, A_OUT, USE_ATOMIC_ADD)

// Max/min of 4- and 8-byte elements: the device's atomicMax/atomicMin on a signed or unsigned
// view of out, one atomic per update; a compare-and-swap loop retries under contention (on the
// H100, 16M f32 updates into 4096 targets by CAS took 17 ms against 0.49 ms for a native atomic).
// Integers take their own view. Floats (not NaN: FLOAT_MAX_MIN sets NaN updates aside) order as
// sign-magnitude integers: a non-negative update compares right on the signed view (every
// negative value's bits are negative there, -0 below +0), a negative one on the unsigned view
// (every non-negative value lies below 2^31 there, and a larger magnitude is a larger key, so max
// becomes atomicMin). That is takes_update's total order exactly, so any arrival order gives the
// same bits. VK_EXT_shader_atomic_float2's float max/min would need a feature and treat -0 = +0.
#if SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_U32 || SCATTER_DTYPE == SCATTER_DTYPE_F32
#define NATIVE_MAX_MIN 1
#if !defined(SCATTER_ADDRESSES)
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindowI32 { int w[]; } out_i32_windows[SCATTER_WINDOWS];
#endif
#define SIGNED_WINDOWS out_i32_windows
#define SIGNED_REF IntRef
#define UNSIGNED_WINDOWS out_windows
#define UNSIGNED_REF WordRef
#define SIGNED_VALUE int(u.x)
#define UNSIGNED_VALUE u.x
#define SIGN_WORD(u) u.x
#elif SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64 || SCATTER_DTYPE == SCATTER_DTYPE_F64
#define NATIVE_MAX_MIN 1
#if !defined(SCATTER_ADDRESSES)
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindowI64 { int64_t w[]; } out_i64_windows[SCATTER_WINDOWS];
#endif
#define SIGNED_WINDOWS out_i64_windows
#define SIGNED_REF Int64Ref
#define UNSIGNED_WINDOWS out64_windows
#define UNSIGNED_REF Word64Ref
#define SIGNED_VALUE int64_t(packUint2x32(u.xy))
#define UNSIGNED_VALUE packUint2x32(u.xy)
#define SIGN_WORD(u) u.y
#endif
#if defined(NATIVE_MAX_MIN)
#define USE_SIGNED_MAX_MIN(L) if (take_max) atomicMax(L, SIGNED_VALUE); else atomicMin(L, SIGNED_VALUE);
#define USE_UNSIGNED_MAX_MIN(L) if (take_max) atomicMax(L, UNSIGNED_VALUE); else atomicMin(L, UNSIGNED_VALUE);
// `word` holds the element (8-byte elements: an even word, 8-byte aligned in its window).
void out_max_min(uint word, uvec4 u, bool signed_view, bool take_max) {
    if (signed_view) SCATTER_AT(SIGNED_WINDOWS, SIGNED_REF, A_OUT, word, ELEMENT_SIZE / 4u, USE_SIGNED_MAX_MIN)
    else SCATTER_AT(UNSIGNED_WINDOWS, UNSIGNED_REF, A_OUT, word, ELEMENT_SIZE / 4u, USE_UNSIGNED_MAX_MIN)
}

// True when the update went through a native atomic; false leaves it to the CAS loop.
bool native_max_min(uint word, uvec4 u, uint r) {
#if SCATTER_DTYPE == SCATTER_DTYPE_F32 || SCATTER_DTYPE == SCATTER_DTYPE_F64
    // A NaN self must stay (max/min keep a NaN t), and only self can make out NaN here. f32: a
    // NaN word is self's, and nothing is left to do. f64: the high word alone may be read while
    // another update lands in the low one, so an all-ones exponent (NaN or an infinity) goes to
    // the CAS loop, which handles both.
    uint high = out_word(word + ELEMENT_SIZE / 4u - 1u);
#if SCATTER_DTYPE == SCATTER_DTYPE_F32
    if (real_is_nan(uintBitsToFloat(high))) return true;
#else
    if ((high & 0x7ff00000u) == 0x7ff00000u) return false;
#endif
    bool negative = (SIGN_WORD(u) >> 31u) != 0u;
    out_max_min(word, u, !negative, (r == SCATTER_REDUCTION_MAX) != negative);
#else
    out_max_min(word, u, SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_I64,
                r == SCATTER_REDUCTION_MAX);
#endif
    return true;
}
#endif

#if defined(ATOMIC_FLOAT_ADD)
#extension GL_EXT_shader_atomic_float : require
#if !defined(SCATTER_ADDRESSES)
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindowFloat { float w[]; } out_float_windows[SCATTER_WINDOWS];
#endif

void out_add_float(uint word, float value) SCATTER_AT(out_float_windows, FloatRef, A_OUT, word, 1u, USE_ATOMIC_ADD)
#endif

#if defined(ATOMIC_WIDE)
// `word` is even: the element is 8-byte aligned within its window (the host checks).
uint64_t out_compare_swap64(uint word, uint64_t compare, uint64_t value)
    SCATTER_AT(out64_windows, Word64Ref, A_OUT, word, 2u, USE_RETURN_COMPARE_SWAP)

void out_add64(uint word, uint64_t value) SCATTER_AT(out64_windows, Word64Ref, A_OUT, word, 2u, USE_ATOMIC_ADD)

void apply_atomic(uint byte, uvec4 u, uint r) {
    uint word = byte >> 2u;
#if defined(NATIVE_MAX_MIN)
    if ((r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN) && native_max_min(word, u, r)) return;
#endif
#if SCATTER_DTYPE == SCATTER_DTYPE_I64 || SCATTER_DTYPE == SCATTER_DTYPE_U64
    if (r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB) {
        uint64_t v = packUint2x32(u.xy);
        out_add64(word, r == SCATTER_REDUCTION_ADD ? v : uint64_t(0) - v);
        return;
    }
#endif
    // The first guess may be stale: the swap fails and returns the current value to retry with.
    uint64_t seen = packUint2x32(uvec2(out_word(word), out_word(word + 1u)));
    for (;;) {
        uint64_t desired = packUint2x32(step_raw(r, uvec4(unpackUint2x32(seen), 0u, 0u), u).xy);
        uint64_t before = out_compare_swap64(word, seen, desired);
        if (before == seen) return;
        seen = before;
    }
}
#else
void apply_atomic(uint byte, uvec4 u, uint r) {
    uint word = byte >> 2u;
#if defined(NATIVE_MAX_MIN)
    if ((r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN) && native_max_min(word, u, r)) return;
#endif
#if SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_U32
    if (r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB) {
        out_add_word(word, r == SCATTER_REDUCTION_ADD ? u.x : 0u - u.x);
        return;
    }
#endif
#if defined(ATOMIC_FLOAT_ADD)
    if (r == SCATTER_REDUCTION_ADD || r == SCATTER_REDUCTION_SUB) {
        // t - u is t + (-u) exactly (the sign of a NaN is lost to CANONICALIZE anyway).
        float v = uintBitsToFloat(u.x);
        out_add_float(word, r == SCATTER_REDUCTION_ADD ? v : -v);
        return;
    }
#endif
    uint shift = (byte & 3u) * 8u;
    uint mask = piece_mask(ELEMENT_SIZE);
    uint seen = out_word(word);
    for (;;) {
        uint value = step_raw(r, uvec4((seen >> shift) & mask, 0u, 0u, 0u), u).x & mask;
        uint desired = (seen & ~(mask << shift)) | (value << shift);
        uint before = out_compare_swap(word, seen, desired);
        if (before == seen) return;
        seen = before;
    }
}
#endif

#if defined(SCATTER_SLAB_ATOMICS)
// ---- SLAB (the `_slab` variants): the slab path's order-free reductions (vk_path.h) ----
// One workgroup per tile of fibers, as scatter.comp's SLAB (slab_tile.glsl), but each update
// lands in its target's entry with one shared-memory atomic instead of being folded in position
// order: integer add/sub (atomicAdd wraps as the fold does), integer and float max/min
// (atomicMax/atomicMin on order entries, below). A float max/min's NaN updates are set aside as
// on the APPLY path: each entry keeps the tile number of its first NaN update (atomicMin), and
// that update wins unless self was NaN. exclude_self counts the hits: a hit target starts from
// the identity, an untouched one keeps self. Any arrival order gives the same bits.
#include "slab_tile.glsl"
// The table in entries of the element's width (8-byte elements: 64-bit entries, which need
// shaderSharedInt64Atomics): values, then hit counts (exclude_self), then first NaNs (floats).
layout(constant_id = 1) const int SLAB_WORDS = 2;
#if defined(ATOMIC_WIDE)
#define SlabEntry uint64_t
shared uint64_t slab_entries[SLAB_WORDS / 2];
const SlabEntry ENTRY_SIGN = uint64_t(1) << 63;
SlabEntry entry_of(uvec4 v) { return packUint2x32(v.xy); }
uvec4 value_of(SlabEntry e) { return uvec4(unpackUint2x32(e), 0u, 0u); }
#else
#define SlabEntry uint
shared uint slab_entries[SLAB_WORDS];
const SlabEntry ENTRY_SIGN = 0x80000000u;
SlabEntry entry_of(uvec4 v) { return v.x; }
uvec4 value_of(SlabEntry e) { return uvec4(e & piece_mask(ELEMENT_SIZE), 0u, 0u, 0u); }
#endif
const SlabEntry NO_NAN = ~SlabEntry(0);  // first-NaN entry: none yet (0: self is NaN)

#if SCATTER_DTYPE == SCATTER_DTYPE_F32 || SCATTER_DTYPE == SCATTER_DTYPE_F64
#define SLAB_FLOAT 1
#endif
// max/min compare order entries as unsigned integers: a float as element_math's order_key (a
// negative value with every bit flipped, any other with the sign bit set: -0 just below +0), a
// signed integer sign-extended to the entry with the sign bit flipped, an unsigned one as is.
SlabEntry order_entry(uvec4 v) {
    SlabEntry e = entry_of(v);
#if defined(SLAB_FLOAT)
    return (e & ENTRY_SIGN) != SlabEntry(0) ? ~e : e | ENTRY_SIGN;
#elif SCATTER_DTYPE == SCATTER_DTYPE_I8 || SCATTER_DTYPE == SCATTER_DTYPE_I16
    const uint shift = 32u - 8u * ELEMENT_SIZE;
    return uint(int(e << shift) >> shift) ^ ENTRY_SIGN;
#elif SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_I64
    return e ^ ENTRY_SIGN;
#else
    return e;
#endif
}
uvec4 value_of_order_entry(SlabEntry e) {
#if defined(SLAB_FLOAT)
    return value_of((e & ENTRY_SIGN) != SlabEntry(0) ? e & ~ENTRY_SIGN : ~e);
#elif SCATTER_DTYPE == SCATTER_DTYPE_I8 || SCATTER_DTYPE == SCATTER_DTYPE_I16 || SCATTER_DTYPE == SCATTER_DTYPE_I32 || SCATTER_DTYPE == SCATTER_DTYPE_I64
    return value_of(e ^ ENTRY_SIGN);
#else
    return value_of(e);
#endif
}

uvec4 slab_self(Tile tl, int e) {
    int out_offset, data_offset;
    tile_slot(tl, e, out_offset, data_offset);
    return in_place() ? load_out_element(tensor_byte(T_OUT, out_offset)) : load_data_element(tensor_byte(T_DATA, data_offset));
}

// Update j (of the tile's slot `slot`, value u) into the table.
void slab_atomic_apply(int j, int slot, uvec4 u, uint r, bool exclude, int counts_at, int nans_at) {
    if (exclude) atomicAdd(slab_entries[counts_at + slot], SlabEntry(1));
#if defined(SLAB_FLOAT)
    if (element_is_nan(u)) {  // j grows with the position within a slot's updates
        atomicMin(slab_entries[nans_at + slot], SlabEntry(j + 1));
        return;
    }
#endif
    if (r == SCATTER_REDUCTION_ADD) atomicAdd(slab_entries[slot], entry_of(u));
    else if (r == SCATTER_REDUCTION_SUB) atomicAdd(slab_entries[slot], SlabEntry(0) - entry_of(u));
    else if (r == SCATTER_REDUCTION_MAX) atomicMax(slab_entries[slot], order_entry(u));
    else atomicMin(slab_entries[slot], order_entry(u));
}

uvec4 slab_update(Tile tl, int j, int slot) {
    return slot >= 0 ? load_update_element(tensor_byte(T_UPDATES, tile_update_offset(tl, j))) : uvec4(0u);
}

void slab_atomic_fold(int g) {
    const int lane = int(gl_LocalInvocationID.x);
    const Tile tl = tile_of(g);
    const int slots = tl.targets * tl.columns, updates = tl.items * tl.index_columns;
    const uint r = call_reduction();
    const bool max_min = r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN;
    const bool exclude = param(P_EXCLUDE_SELF) != 0;
    const int counts_at = slots, nans_at = exclude ? 2 * slots : slots;
    for (int e = lane; e < slots; e += SCATTER_WORKGROUP_SIZE) {
        uvec4 start = exclude ? identity_raw(r) : slab_self(tl, e);
        slab_entries[e] = max_min ? order_entry(start) : entry_of(start);
        if (exclude) slab_entries[counts_at + e] = SlabEntry(0);
#if defined(SLAB_FLOAT)
        slab_entries[nans_at + e] = !exclude && element_is_nan(start) ? SlabEntry(0) : NO_NAN;
#endif
    }
    memoryBarrierShared();
    barrier();
    // Four updates per lane a round, their loads independent (as scatter.comp's slab_none).
    const int lanes = SCATTER_WORKGROUP_SIZE;
    for (int j = lane; j < updates; j += 4 * lanes) {
        const int s0 = tile_update_slot(tl, j);
        const int s1 = j + lanes < updates ? tile_update_slot(tl, j + lanes) : -1;
        const int s2 = j + 2 * lanes < updates ? tile_update_slot(tl, j + 2 * lanes) : -1;
        const int s3 = j + 3 * lanes < updates ? tile_update_slot(tl, j + 3 * lanes) : -1;
        const uvec4 u0 = slab_update(tl, j, s0), u1 = slab_update(tl, j + lanes, s1);
        const uvec4 u2 = slab_update(tl, j + 2 * lanes, s2), u3 = slab_update(tl, j + 3 * lanes, s3);
        if (s0 >= 0) slab_atomic_apply(j, s0, u0, r, exclude, counts_at, nans_at);
        if (s1 >= 0) slab_atomic_apply(j + lanes, s1, u1, r, exclude, counts_at, nans_at);
        if (s2 >= 0) slab_atomic_apply(j + 2 * lanes, s2, u2, r, exclude, counts_at, nans_at);
        if (s3 >= 0) slab_atomic_apply(j + 3 * lanes, s3, u3, r, exclude, counts_at, nans_at);
    }
    memoryBarrierShared();
    barrier();
    for (int e = lane; e < slots; e += SCATTER_WORKGROUP_SIZE) {
        uvec4 value = max_min ? value_of_order_entry(slab_entries[e]) : value_of(slab_entries[e]);
        if (exclude && slab_entries[counts_at + e] == SlabEntry(0)) value = slab_self(tl, e);
#if defined(SLAB_FLOAT)
        const SlabEntry first_nan = slab_entries[nans_at + e];
        if (first_nan == SlabEntry(0)) value = slab_self(tl, e);
        else if (first_nan != NO_NAN) value = load_update_element(tensor_byte(T_UPDATES, tile_update_offset(tl, int(first_nan) - 1)));
#endif
        int out_offset, data_offset;
        tile_slot(tl, e, out_offset, data_offset);
        store_out_element(tensor_byte(T_OUT, out_offset), value);
    }
}
#endif

void atomic_at(uint id) {
    if (id >= pc.count) return;
    int out_offset, update_offset, key;
    if (!locate(int(id), out_offset, update_offset, key)) return;
    uint to = tensor_byte(T_OUT, out_offset);
    uint r = call_reduction();
    if (pc.mode == SCATTER_MODE_ATOMIC_RESET) {
        store_out_element(to, identity_raw(r));
        return;
    }
#if defined(FLOAT_MAX_MIN)
    if (r == SCATTER_REDUCTION_MAX || r == SCATTER_REDUCTION_MIN) {
        uvec4 u = load_update_element(tensor_byte(T_UPDATES, update_offset));
        uint first_nan = uint(param(P_FIRST_NAN_BASE) + key);
        if (pc.mode == SCATTER_MODE_ATOMIC_FIRST_NAN) {
            // One writer per target: the first NaN update, unless self was NaN (out holds only
            // self and non-NaN updates after APPLY, so a NaN there is self's).
            if (element_is_nan(u) && scratch_word(first_nan) == id && !element_is_nan(load_out_element(to)))
                store_out_element(to, u);
        } else if (element_is_nan(u)) {
            scratch_min_word(first_nan, id);
        } else {
            apply_atomic(to, u, r);
        }
        return;
    }
#endif
#if defined(ATOMIC_FLOAT_ADD)
    if (pc.mode == SCATTER_MODE_ATOMIC_CANONICALIZE) {
        // Every writer of a target stores the same bits; APPLY has finished (a barrier apart).
        uint bits = out_word(to >> 2u);
        if ((bits & 0x7fffffffu) > 0x7f800000u && bits != 0x7fc00000u) out_store_word(to >> 2u, 0x7fc00000u);
        return;
    }
#endif
    apply_atomic(to, load_update_element(tensor_byte(T_UPDATES, update_offset)), r);
}

void main() {
#if defined(SCATTER_SLAB_ATOMICS)
    if (pc.mode == SCATTER_MODE_SLAB) {
        // Whole workgroups, and the status is the earlier passes': a uniform early return.
        uint id = invocation_index();
        if (id >= pc.count || operation_failed()) return;
        slab_atomic_fold(int(id / uint(SCATTER_WORKGROUP_SIZE)));
        return;
    }
#endif
    if (operation_failed()) return;
    uint i = 0u;
    do atomic_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
