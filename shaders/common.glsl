// Bindings, windowed buffer access, tensor geometry and index resolution shared by every pass.
// Memory is addressed in bytes relative to the start of a tensor's bound windows; each window is
// a power-of-two number of 32-bit words, so word w lives in window w >> shift. The `_ad` variants
// (SCATTER_ADDRESSES) reach the same bytes from the binding's buffer device address instead.
#extension GL_GOOGLE_include_directive : require
#include "scatter_shared.h"
// The public header's enumerators (dtype, reduction, out-of-range policy, op), generated from it.
#include "scatter_enums.glsl"

#if SCATTER_WINDOWS != 4
#error "the window accessors below are written for four windows"
#endif

layout(local_size_x = SCATTER_WORKGROUP_SIZE) in;

layout(push_constant) uniform PushConstants {
    uint mode;
    uint count;  // invocations that do work; the grid is rounded up to whole workgroups
} pc;

#if defined(SCATTER_SMALL_STORES) && !defined(SCATTER_OUT_ALIASED)
#define SCATTER_OUT_ALIASED 1  // out is also viewed as bytes and halves (out_store_piece)
#endif
#if defined(SCATTER_OUT_ALIASED)
#define SCATTER_OUT_QUALIFIER
#else
#define SCATTER_OUT_QUALIFIER restrict
#endif
// The parameter block is a uniform buffer: every invocation reads the same words, which GPUs
// serve from their constant caches (and lavapipe as scalars, not per-lane gathers). std140 pads
// an int array to 16 bytes per element, so it is declared as ivec4s.
layout(std140, binding = SCATTER_BINDING_PARAMS) uniform Params { ivec4 param_words[P_TOTAL_INTS / 4]; };
// Specialization constant 2, set on llvmpipe only: the block is read at an offset the compiler
// cannot see. llvmpipe (Mesa 22.3) inlines the uniform values a shader's loops depend on into a
// new variant at every bind of such a pipeline, compiled and never freed: a `rows` call took
// 5.8 ms and grew the process by ~0.5 MB (the long-run test grew 15 GB). GPUs fold it away.
layout(constant_id = 2) const bool OPAQUE_PARAM_OFFSETS = false;
int param(int i) { return param_words[(i >> 2) + (OPAQUE_PARAM_OFFSETS ? int(gl_NumWorkGroups.z) - 1 : 0)][i & 3]; }
// No two bindings share memory (core rejects overlapping tensors; in place, data is never read):
// `restrict` lets the compiler keep tensor words in registers across stores.
layout(std430, binding = SCATTER_BINDING_STATUS) buffer Status { uint status_words[]; };
#if !defined(SCATTER_ADDRESSES)
layout(std430, binding = SCATTER_BINDING_OUT) SCATTER_OUT_QUALIFIER buffer OutWindow { uint w[]; } out_windows[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_DATA) restrict readonly buffer DataWindow { uint w[]; } data_windows[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_INDICES) restrict readonly buffer IndexWindow { uint w[]; } index_windows[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_UPDATES) restrict readonly buffer UpdateWindow { uint w[]; } update_windows[SCATTER_WINDOWS];
layout(std430, binding = SCATTER_BINDING_SCRATCH) restrict buffer ScratchWindow { uint w[]; } scratch_windows[SCATTER_WINDOWS];
#endif

uint invocation_index() {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * SCATTER_WORKGROUP_SIZE +
           gl_LocalInvocationID.x;
}

// The passes of one id per invocation (all but SLAB, SMALL_NONE and ALLOCATE) loop: on a GPU the
// host caps their grid (vk_operation.cpp, grid_of), so each workgroup takes tiles of
// SCATTER_WORKGROUP_SIZE ids in turn, the same number of tiles for all its invocations (barriers
// and subgroup operations inside a tile stay uniform). Each pass's main is
//     uint i = 0u;
//     do pass_at(tile_id(i));  // pass_at returns at once for an id past pc.count
//     while (LOOPING_TILES && ++i < workgroup_tiles());
// Specialization constant 4 is false on a driver that limits an invocation's loop iterations
// (lavapipe): its grid is not capped, each workgroup runs its one tile, and no loop is left.
// Measured on lavapipe, W8's validate_elements and W12's item_keys (ms): 207 and 208 without a
// loop, 425 and 502 as a `for` over the tiles, 297 and 510 as a `for` of the constant trip count
// 1 (llvmpipe keeps it a loop), 208 and 209 as this do-while. An `if (!LOOPING_TILES)` branch
// was as fast but inlines every pass twice: lavapipe's compiles took 20 % longer.
layout(constant_id = 4) const bool LOOPING_TILES = true;
uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint workgroup_count() { return gl_NumWorkGroups.x * gl_NumWorkGroups.y; }
uint workgroup_tiles() {
    const uint tiles = pc.count / uint(SCATTER_WORKGROUP_SIZE) + (pc.count % uint(SCATTER_WORKGROUP_SIZE) != 0u ? 1u : 0u);
    const uint first = workgroup_index(), stride = workgroup_count();
    return first < tiles ? (tiles - first + stride - 1u) / stride : 0u;
}
// The id of this invocation in the workgroup's i-th tile (may be past pc.count: callers check).
uint tile_id(uint i) {
    return (workgroup_index() + i * workgroup_count()) * uint(SCATTER_WORKGROUP_SIZE) + gl_LocalInvocationID.x;
}

// Specialization constant 0: every binding lies within its first window (the host checks), so
// the window of every word is 0; drivers then fold the accessors' window switches away.
layout(constant_id = 0) const bool ONE_WINDOW = false;
uint window_of(uint word) { return ONE_WINDOW ? 0u : word >> uint(param(P_WINDOW_SHIFT)); }
uint offset_in_window(uint word) { return ONE_WINDOW ? word : word & ((1u << uint(param(P_WINDOW_SHIFT))) - 1u); }

// Specialization constant 3: the call's reduction (a scatter_reduction value), or -1 to read it
// from the parameter block. Set, it lets the driver drop every other reduction's arithmetic
// (exact division, soft multiply, complex and f16 steps) from the pipeline: fewer registers a
// lane, so more lanes resident to hide the latency of the folds' gathers.
layout(constant_id = 3) const int REDUCTION_CONSTANT = -1;
uint call_reduction() { return REDUCTION_CONSTANT >= 0 ? uint(REDUCTION_CONSTANT) : uint(param(P_REDUCTION)); }

#if defined(SCATTER_ADDRESSES)
// The `_ad` variants (SCATTER_ADDRESSES): every tensor and scratch through its buffer device
// address (64-bit, as two words of the parameter block: no 64-bit shader integers needed),
// for tensors that 4 windows cannot hold. A byte position is still a uint from the binding's
// start, so a binding may span 4 GiB; each access builds the pointer to its own element, so no
// array index (signed in SPIR-V) ever exceeds 2^31.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer IntRef { int v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer FloatRef { float v; };
// Byte `byte` of binding A_* (the address of the start of its first window, P_ADDRESSES).
uvec2 binding_address(int binding, uint byte) {
    uvec2 base = uvec2(uint(param(P_ADDRESSES + 2 * binding)), uint(param(P_ADDRESSES + 2 * binding + 1)));
    uint carry;
    uint low = uaddCarry(base.x, byte, carry);
    return uvec2(low, base.y + carry);
}
// USE(lvalue) on the element whose first 32-bit word is `WORD` of binding `BINDING`, seen as
// REF (one element, WordRef/IntRef/...); the windowed variant's arguments are ignored.
#define SCATTER_AT(WINDOWS, REF, BINDING, WORD, UNIT_WORDS, USE) \
    { USE(REF(binding_address(BINDING, (WORD) * 4u)).v) }
#else
// USE(lvalue) on the element whose first 32-bit word is `WORD`, in its window of WINDOWS (an
// array of blocks of elements of UNIT_WORDS words each). Windows are indexed by constants only,
// so no descriptor-indexing feature is needed.
#define SCATTER_AT(WINDOWS, REF, BINDING, WORD, UNIT_WORDS, USE)       \
    {                                                                  \
        uint o_ = offset_in_window(WORD) / (UNIT_WORDS);               \
        switch (window_of(WORD)) {                                     \
            case 0u: USE(WINDOWS[0].w[o_]) break;                      \
            case 1u: USE(WINDOWS[1].w[o_]) break;                      \
            case 2u: USE(WINDOWS[2].w[o_]) break;                      \
            default: USE(WINDOWS[3].w[o_]) break;                      \
        }                                                              \
    }
#endif
// The bindings' numbers in P_ADDRESSES.
const int A_OUT = 0;
const int A_DATA = 1;
const int A_INDICES = 2;
const int A_UPDATES = 3;
const int A_SCRATCH = 4;

// What an accessor does to its element: USE arguments of SCATTER_AT (`value`, `compare`: the
// accessor's parameters).
#define USE_LOAD(L) return L;
#define USE_STORE(L) L = value;
#define USE_ATOMIC_AND(L) atomicAnd(L, value);
#define USE_ATOMIC_OR(L) atomicOr(L, value);
#define USE_ATOMIC_ADD(L) atomicAdd(L, value);
#define USE_ATOMIC_MIN(L) atomicMin(L, value);
#define USE_ATOMIC_MAX(L) atomicMax(L, value);
#define USE_RETURN_ATOMIC_ADD(L) return atomicAdd(L, value);
#define USE_RETURN_COMPARE_SWAP(L) return atomicCompSwap(L, compare, value);

#define SCATTER_WINDOW_LOAD(NAME, BLOCK, BINDING) \
    uint NAME(uint word) SCATTER_AT(BLOCK, WordRef, BINDING, word, 1u, USE_LOAD)
#define SCATTER_WINDOW_STORE(NAME, BLOCK, BINDING) \
    void NAME(uint word, uint value) SCATTER_AT(BLOCK, WordRef, BINDING, word, 1u, USE_STORE)
#define SCATTER_WINDOW_ATOMIC(NAME, BLOCK, BINDING, USE) \
    void NAME(uint word, uint value) SCATTER_AT(BLOCK, WordRef, BINDING, word, 1u, USE)

SCATTER_WINDOW_LOAD(out_word, out_windows, A_OUT)
SCATTER_WINDOW_STORE(out_store_word, out_windows, A_OUT)
SCATTER_WINDOW_ATOMIC(out_and_word, out_windows, A_OUT, USE_ATOMIC_AND)
SCATTER_WINDOW_ATOMIC(out_or_word, out_windows, A_OUT, USE_ATOMIC_OR)
SCATTER_WINDOW_LOAD(data_word, data_windows, A_DATA)
SCATTER_WINDOW_LOAD(index_word, index_windows, A_INDICES)
SCATTER_WINDOW_LOAD(update_word, update_windows, A_UPDATES)
SCATTER_WINDOW_LOAD(scratch_word, scratch_windows, A_SCRATCH)
SCATTER_WINDOW_STORE(scratch_store_word, scratch_windows, A_SCRATCH)

// 1-, 2- or 4-byte pieces at naturally aligned byte addresses, zero-extended.
uint piece_mask(uint size) { return size >= 4u ? 0xffffffffu : (1u << (size * 8u)) - 1u; }
uint out_piece(uint byte, uint size) { return (out_word(byte >> 2u) >> ((byte & 3u) * 8u)) & piece_mask(size); }
uint data_piece(uint byte, uint size) { return (data_word(byte >> 2u) >> ((byte & 3u) * 8u)) & piece_mask(size); }
uint update_piece(uint byte, uint size) { return (update_word(byte >> 2u) >> ((byte & 3u) * 8u)) & piece_mask(size); }

#if defined(SCATTER_SMALL_STORES)
// SCATTER_SMALL_STORES = 1 (bytes), 2 (16-bit halves) or 3 (both): on devices with
// storageBuffer8BitAccess / storageBuffer16BitAccess, out is also bound as bytes and halves so that
// a 1- or 2-byte piece is one plain store (the host picks these variants).
#if (SCATTER_SMALL_STORES & 1) != 0
#extension GL_EXT_shader_8bit_storage : require
#if defined(SCATTER_ADDRESSES)
layout(buffer_reference, std430, buffer_reference_align = 1) buffer ByteRef { uint8_t v; };
#else
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindow8 { uint8_t w[]; } out8_windows[SCATTER_WINDOWS];
#endif
#endif
#if (SCATTER_SMALL_STORES & 2) != 0
#extension GL_EXT_shader_16bit_storage : require
#if defined(SCATTER_ADDRESSES)
layout(buffer_reference, std430, buffer_reference_align = 2) buffer HalfRef { uint16_t v; };
#else
layout(std430, binding = SCATTER_BINDING_OUT) buffer OutWindow16 { uint16_t w[]; } out16_windows[SCATTER_WINDOWS];
#endif
#endif

// Stores a 1- or 2-byte piece directly; false when this variant has no view of its size.
bool out_store_small(uint byte, uint size, uint value) {
#if defined(SCATTER_ADDRESSES)
#if (SCATTER_SMALL_STORES & 1) != 0
    if (size == 1u) {
        ByteRef(binding_address(A_OUT, byte)).v = uint8_t(value);
        return true;
    }
#endif
#if (SCATTER_SMALL_STORES & 2) != 0
    if (size == 2u) {
        HalfRef(binding_address(A_OUT, byte)).v = uint16_t(value);
        return true;
    }
#endif
#else
    uint word = byte >> 2u;
    uint o = offset_in_window(word) * 4u + (byte & 3u);  // byte offset within the window
#if (SCATTER_SMALL_STORES & 1) != 0
    if (size == 1u) {
        switch (window_of(word)) {
            case 0u: out8_windows[0].w[o] = uint8_t(value); break;
            case 1u: out8_windows[1].w[o] = uint8_t(value); break;
            case 2u: out8_windows[2].w[o] = uint8_t(value); break;
            default: out8_windows[3].w[o] = uint8_t(value); break;
        }
        return true;
    }
#endif
#if (SCATTER_SMALL_STORES & 2) != 0
    if (size == 2u) {
        o >>= 1u;
        switch (window_of(word)) {
            case 0u: out16_windows[0].w[o] = uint16_t(value); break;
            case 1u: out16_windows[1].w[o] = uint16_t(value); break;
            case 2u: out16_windows[2].w[o] = uint16_t(value); break;
            default: out16_windows[3].w[o] = uint16_t(value); break;
        }
        return true;
    }
#endif
#endif
    return false;
}
#endif

// Pieces smaller than a word share it with elements other invocations own: they are written
// with a byte or 16-bit store where the device has them, else with two atomics that touch only
// this piece's bits.
void out_store_piece(uint byte, uint size, uint value) {
    uint word = byte >> 2u;
    if (size >= 4u) {
        out_store_word(word, value);
        return;
    }
#if defined(SCATTER_SMALL_STORES)
    if (out_store_small(byte, size, value)) return;
#endif
    uint shift = (byte & 3u) * 8u;
    uint mask = piece_mask(size) << shift;
    out_and_word(word, ~mask);
    out_or_word(word, (value << shift) & mask);
}

// The largest piece size (4, 2 or 1) that divides the element size and both byte addresses.
uint piece_size_for(uint a, uint b, uint size) {
    uint bits = a | b | size;
    return (bits & 3u) == 0u ? 4u : ((bits & 1u) == 0u ? 2u : 1u);
}

// ---- tensor geometry from the parameter block ----
int tensor_int(int t, int field) { return param(P_TENSORS + t * P_TENSOR_INTS + field); }
int tensor_rank(int t) { return tensor_int(t, T_RANK); }
int tensor_element_size(int t) { return tensor_int(t, T_ELEMENT_SIZE); }
int tensor_shape(int t, int d) { return tensor_int(t, T_SHAPE + d); }
int tensor_stride(int t, int d) { return tensor_int(t, T_STRIDES + d); }
uint tensor_byte(int t, int element_offset) {
    return uint(tensor_int(t, T_BASE_BYTE) + element_offset * tensor_element_size(t));
}

bool in_place() { return param(P_IN_PLACE) != 0; }

bool tensor_contiguous(int t) { return (param(P_CONTIGUOUS) & (1 << t)) != 0; }

// Element offset of row-major position `position` in tensor t.
int offset_of_flat(int t, int position) {
    if (tensor_contiguous(t)) return position;
    int offset = 0;
    for (int d = tensor_rank(t) - 1; d >= 0; --d) {
        int size = tensor_shape(t, d);
        offset += (position % size) * tensor_stride(t, d);
        position /= size;
    }
    return offset;
}

bool operation_failed() {
    return status_words[S_BAD_INDEX] != SCATTER_STATUS_NONE || status_words[S_BAD_DIVISOR] != SCATTER_STATUS_NONE ||
           status_words[S_LOOP_LIMIT] != SCATTER_STATUS_NONE;
}

// ---- indices: i32 or i64 (read as two words, so no 64-bit shader integers are needed) ----
const int INDEX_IN_RANGE = 0;
const int INDEX_BELOW = 1;  // below -size (also every i64 value below -2^31)
const int INDEX_ABOVE = 2;  // at or above size (also every i64 value at or above 2^31)

// Classifies the index at element offset `offset` against a dimension of `size`; in range,
// `resolved` is the non-negative coordinate.
int classify_index(int offset, int size, out int resolved) {
    resolved = 0;
    int value;
    if (param(P_INDEX_IS_I64) != 0) {
        uint word = uint(tensor_int(T_INDICES, T_BASE_BYTE) + offset * 8) >> 2u;
        uint lo = index_word(word);
        int hi = int(index_word(word + 1u));
        value = int(lo);
        // Representable as int32 exactly when hi is the sign extension of lo.
        if (hi != (value < 0 ? -1 : 0)) return hi < 0 ? INDEX_BELOW : INDEX_ABOVE;
    } else {
        value = int(index_word(uint(tensor_int(T_INDICES, T_BASE_BYTE) + offset * 4) >> 2u));
    }
    if (value < -size) return INDEX_BELOW;
    if (value >= size) return INDEX_ABOVE;
    resolved = value < 0 ? value + size : value;
    return INDEX_IN_RANGE;
}

// Applies the out-of-range policy: false when the update is skipped.
bool resolve_index(int offset, int size, out int resolved) {
    int kind = classify_index(offset, size, resolved);
    if (kind == INDEX_IN_RANGE) return true;
    if (param(P_POLICY) != 3 /* SCATTER_OUT_OF_RANGE_CLAMP */ || size == 0) return false;
    resolved = kind == INDEX_BELOW ? 0 : size - 1;
    return true;
}

// `elements`: the flat row-major position in out of the target of `item` (a flat position of
// indices), or -1 when its update is skipped. Under policy ERROR an out-of-range index is
// recorded (the smallest bad position wins) and also gives -1: the passes that call this are the
// validation of `elements` on the target and small paths, and no later pass writes out.
int element_key(int item) {
    int axis = param(P_AXIS);
    int index_offset = 0, key = 0, key_stride = 1, axis_key_stride = 1;
    int rest = item;
    for (int d = tensor_rank(T_INDICES) - 1; d >= 0; --d) {
        int size = tensor_shape(T_INDICES, d);
        int c = rest % size;
        rest /= size;
        index_offset += c * tensor_stride(T_INDICES, d);
        if (d == axis) axis_key_stride = key_stride;
        else key += c * key_stride;
        key_stride *= tensor_shape(T_OUT, d);
    }
    int target;
    if (!resolve_index(index_offset, tensor_shape(T_OUT, axis), target)) {
        if (param(P_POLICY) == SCATTER_OUT_OF_RANGE_ERROR) atomicMin(status_words[S_BAD_INDEX], uint(item));
        return -1;
    }
    return key + target * axis_key_stride;
}

// Element offsets of slice position (outer o, inner i): in out, of target row 0; in updates, of
// slice 0. A slice's own row/slice offsets from the index pass are added to them.
void slice_bases(int o, int i, out int out_offset, out int update_offset) {
    if (tensor_contiguous(T_OUT) && tensor_contiguous(T_UPDATES)) {
        // out [outer, rows, inner] and updates [outer, slices, inner] (nd: outer 1), row-major.
        int inner = param(P_INNER);
        out_offset = (o * param(P_TARGET_ROWS)) * inner + i;
        update_offset = (o * param(P_SLICES)) * inner + i;
        return;
    }
    out_offset = 0;
    update_offset = 0;
    // The inner part: data dims from P_INNER_FIRST_DIM on.
    int rest = i;
    for (int d = tensor_rank(T_OUT) - 1; d >= param(P_INNER_FIRST_DIM); --d) {
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        out_offset += c * tensor_stride(T_OUT, d);
        update_offset += c * tensor_stride(T_UPDATES, d + param(P_UPDATE_DIM_SHIFT));
    }
    // The outer part (rows only): data dims before the axis, the same dims in updates.
    rest = o;
    for (int d = param(P_OP) == SCATTER_OP_ROWS ? param(P_AXIS) - 1 : -1; d >= 0; --d) {
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        out_offset += c * tensor_stride(T_OUT, d);
        update_offset += c * tensor_stride(T_UPDATES, d);
    }
}
