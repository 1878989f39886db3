#version 450
// Stable LSD radix sort of 32-bit keys with a 32-bit payload (src/vulkan/vk_radix_sort.h).
// Reduce-then-scan: each digit pass is
//   HISTOGRAM        a workgroup per tile counts its keys' digits in shared memory;
//   SCAN_REDUCE      a workgroup per scan block sums its histogram entries (when > 1 block);
//   SCAN_SPINE       one workgroup scans those sums (when > 1 block);
//   SCAN_DOWNSWEEP   a workgroup per scan block scans its entries from its sum's prefix: the
//                    histograms, digit-major, become each (digit, tile)'s first place;
//   SCATTER          a workgroup per tile ranks its keys round by round (one key per invocation
//                    per round, in input order) and writes each key and payload to its place;
//                    with ORDERED_WRITES (GPUs) it orders the tile by digit in shared memory
//                    first and writes in that order, a digit's keys side by side.
// No workgroup waits for another (no look-back), so nothing depends on forward progress
// between workgroups, and no subgroup operation is used, so any subgroup size works.
// Every loop is bounded by the tile and block constants, never by the key count: llvmpipe ends
// loops after 65535 iterations per invocation (src/vulkan/vk_loop_limit.h).
// Only the scratch binding of the shared descriptor-set layout is used: keys, payloads (two
// slots each, ping-pong), histograms, sums and the header all live in it.
#extension GL_GOOGLE_include_directive : require
#include "scatter_shared.h"
#include "radix_sort_shared.h"

layout(local_size_x = RADIX_SORT_WORKGROUP_SIZE) in;

layout(push_constant) uniform PushConstants {
    uint mode;   // RADIX_SORT_MODE_* | (digit pass << RADIX_SORT_PASS_SHIFT)
    uint count;  // the header's word
} pc;

layout(std430, binding = SCATTER_BINDING_SCRATCH) restrict buffer ScratchWindow { uint w[]; } scratch[SCATTER_WINDOWS];

// Specialization constant 0 (as in common.glsl): the whole binding lies in its first window.
layout(constant_id = 0) const bool ONE_WINDOW = false;

uint header(uint field) { return scratch[0].w[pc.count + field]; }

uint window_shift;  // set once in main from the header

uint load(uint word) {
    if (ONE_WINDOW) return scratch[0].w[word];
    uint o = word & ((1u << window_shift) - 1u);
    switch (word >> window_shift) {
        case 0u: return scratch[0].w[o];
        case 1u: return scratch[1].w[o];
        case 2u: return scratch[2].w[o];
        default: return scratch[3].w[o];
    }
}

void store(uint word, uint value) {
    if (ONE_WINDOW) {
        scratch[0].w[word] = value;
        return;
    }
    uint o = word & ((1u << window_shift) - 1u);
    switch (word >> window_shift) {
        case 0u: scratch[0].w[o] = value; break;
        case 1u: scratch[1].w[o] = value; break;
        case 2u: scratch[2].w[o] = value; break;
        default: scratch[3].w[o] = value; break;
    }
}

uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// ---- the workgroup's exclusive scan (Hillis-Steele over two shared rows) ----
shared uint scan_rows[2][RADIX_SORT_WORKGROUP_SIZE];

// The exclusive prefix of `value` over the workgroup; `total` gets the sum of all values.
uint workgroup_exclusive_scan(uint value, out uint total) {
    uint lane = gl_LocalInvocationID.x;
    uint row = 0u;
    scan_rows[0][lane] = value;
    barrier();
    for (uint step = 1u; step < RADIX_SORT_WORKGROUP_SIZE; step <<= 1u) {
        uint sum = scan_rows[row][lane] + (lane >= step ? scan_rows[row][lane - step] : 0u);
        scan_rows[row ^ 1u][lane] = sum;
        row ^= 1u;
        barrier();
    }
    uint inclusive = scan_rows[row][lane];
    total = scan_rows[row][RADIX_SORT_WORKGROUP_SIZE - 1u];
    barrier();  // the rows are free again when this returns
    return inclusive - value;
}

// ---- the scan passes over the histograms: entries [0, length) from word `base` ----

// Workgroup `block`'s entries (RADIX_SORT_SCAN_ITEMS consecutive ones per invocation): the sum
// of this invocation's, and the entries themselves in `values`.
uint block_entries(uint base, uint length, uint first, out uint values[RADIX_SORT_SCAN_ITEMS]) {
    uint sum = 0u;
    for (uint i = 0u; i < RADIX_SORT_SCAN_ITEMS; ++i) {
        uint e = first + gl_LocalInvocationID.x * RADIX_SORT_SCAN_ITEMS + i;
        values[i] = e < length ? load(base + e) : 0u;
        sum += values[i];
    }
    return sum;
}

// Scans entries [first, first + RADIX_SORT_SCAN_BLOCK) in place from `carry`; the block's total.
uint scan_block(uint base, uint length, uint first, uint carry) {
    uint values[RADIX_SORT_SCAN_ITEMS];
    uint total;
    uint prefix = carry + workgroup_exclusive_scan(block_entries(base, length, first, values), total);
    for (uint i = 0u; i < RADIX_SORT_SCAN_ITEMS; ++i) {
        uint e = first + gl_LocalInvocationID.x * RADIX_SORT_SCAN_ITEMS + i;
        if (e < length) store(base + e, prefix);
        prefix += values[i];
    }
    return total;
}

void scan_reduce(uint block) {
    uint values[RADIX_SORT_SCAN_ITEMS];
    uint length = header(RADIX_SORT_H_TILES) * RADIX_SORT_RADIX;
    uint total;
    workgroup_exclusive_scan(block_entries(header(RADIX_SORT_H_HISTOGRAMS), length, block * RADIX_SORT_SCAN_BLOCK, values),
                             total);
    if (gl_LocalInvocationID.x == 0u) store(header(RADIX_SORT_H_SUMS) + block, total);
}

void scan_spine() {
    uint blocks = header(RADIX_SORT_H_SCAN_BLOCKS);
    uint carry = 0u;
    // blocks / RADIX_SORT_SCAN_BLOCK iterations: 32 for 2^32 keys.
    for (uint first = 0u; first < blocks; first += RADIX_SORT_SCAN_BLOCK)
        carry += scan_block(header(RADIX_SORT_H_SUMS), blocks, first, carry);
}

void scan_downsweep(uint block) {
    uint length = header(RADIX_SORT_H_TILES) * RADIX_SORT_RADIX;
    uint carry = header(RADIX_SORT_H_SCAN_BLOCKS) > 1u ? load(header(RADIX_SORT_H_SUMS) + block) : 0u;
    scan_block(header(RADIX_SORT_H_HISTOGRAMS), length, block * RADIX_SORT_SCAN_BLOCK, carry);
}

// ---- the tile passes ----
uint digit_of(uint key, uint pass) {
    return (key >> (pass * RADIX_SORT_DIGIT_BITS)) & uint(RADIX_SORT_RADIX - 1);
}

// HISTOGRAM: per digit, its place in the tile's counts; SCATTER: the next place of its keys.
shared uint digit_counts[RADIX_SORT_RADIX];

void histogram(uint tile, uint pass) {
    uint lane = gl_LocalInvocationID.x;
    for (uint d = lane; d < RADIX_SORT_RADIX; d += RADIX_SORT_WORKGROUP_SIZE) digit_counts[d] = 0u;
    barrier();
    uint count = header(RADIX_SORT_H_COUNT);
    uint keys = header(RADIX_SORT_H_KEYS + (pass & 1u));
    // Four rounds' keys loaded before their counts (four loads in flight per invocation, not one
    // load waited for per round).
    for (uint r = 0u; r < RADIX_SORT_ROUNDS; r += 4u) {
        uint item = tile * RADIX_SORT_TILE + r * RADIX_SORT_WORKGROUP_SIZE + lane;
        const uint step = RADIX_SORT_WORKGROUP_SIZE;
        uint k0 = item < count ? load(keys + item) : 0u;
        uint k1 = item + step < count ? load(keys + item + step) : 0u;
        uint k2 = item + 2u * step < count ? load(keys + item + 2u * step) : 0u;
        uint k3 = item + 3u * step < count ? load(keys + item + 3u * step) : 0u;
        if (item < count) atomicAdd(digit_counts[digit_of(k0, pass)], 1u);
        if (item + step < count) atomicAdd(digit_counts[digit_of(k1, pass)], 1u);
        if (item + 2u * step < count) atomicAdd(digit_counts[digit_of(k2, pass)], 1u);
        if (item + 3u * step < count) atomicAdd(digit_counts[digit_of(k3, pass)], 1u);
    }
    barrier();
    uint tiles = header(RADIX_SORT_H_TILES), histograms = header(RADIX_SORT_H_HISTOGRAMS);
    for (uint d = lane; d < RADIX_SORT_RADIX; d += RADIX_SORT_WORKGROUP_SIZE)
        store(histograms + d * tiles + tile, digit_counts[d]);
}

// Per digit, a bit per invocation: which invocations hold a key of that digit in this round.
#define MASK_WORDS (RADIX_SORT_WORKGROUP_SIZE / 32)
shared uint round_masks[RADIX_SORT_RADIX * MASK_WORDS];
// SCATTER: per digit, its first place in the output less its first place in the tile's order.
shared uint digit_shift[RADIX_SORT_RADIX];
// SCATTER: the tile in digit order, stably: place p holds the position of its key in the tile in
// bits 16 (p % 2) and up of word p / 2 (4 KiB, not 8: the module's shared memory stays 11 KiB,
// 16 workgroups of 128 an SM as before; a staged SCATTER at 23 KiB lost on the H200 by
// leaving 9: docs/vulkan.md, "Radix sort").
shared uint tile_order[RADIX_SORT_TILE / 2];
#define DIGITS_PER_LANE ((RADIX_SORT_RADIX + RADIX_SORT_WORKGROUP_SIZE - 1) / RADIX_SORT_WORKGROUP_SIZE)

// Specialization constant 5: the tile's keys are ordered by digit in shared memory first, then
// written out in that order, so a digit's keys of one tile land side by side and consecutive
// invocations write consecutive words. Without it each key goes straight to its place, one
// round of a key per invocation at a time: to 256 places at random, a sector written for each
// key (W2's sort 2.7 ms on an H100 against 1.3 for W10, whose keys repeat a few digits a tile).
// Off on a CPU device (lavapipe): its caches merge those writes, and the ordering costs it ~20 %.
layout(constant_id = 5) const bool ORDERED_WRITES = true;
#if RADIX_SORT_ROUNDS % 4 != 0
#error "HISTOGRAM loads four rounds at a time"
#endif
#if RADIX_SORT_TILE > 65536
#error "tile_order holds 16-bit positions"
#endif

void scatter_tile(uint tile, uint pass) {
    uint lane = gl_LocalInvocationID.x;
    uint count = header(RADIX_SORT_H_COUNT);
    uint tiles = header(RADIX_SORT_H_TILES), histograms = header(RADIX_SORT_H_HISTOGRAMS);
    uint tile_start = tile * RADIX_SORT_TILE;
    uint tile_keys = min(count - tile_start, uint(RADIX_SORT_TILE));
    if (ORDERED_WRITES) {
        // The scanned histograms hold each (digit, tile)'s first place, digit-major: the next
        // entry (the key count after the last) ends it, so their difference is the tile's count.
        uint entries = tiles * uint(RADIX_SORT_RADIX);
        uint firsts[DIGITS_PER_LANE], counts[DIGITS_PER_LANE];
        uint lane_keys = 0u;
        for (uint i = 0u; i < DIGITS_PER_LANE; ++i) {
            uint d = lane * DIGITS_PER_LANE + i;
            firsts[i] = 0u;
            counts[i] = 0u;
            if (d < uint(RADIX_SORT_RADIX)) {
                uint e = d * tiles + tile;
                firsts[i] = load(histograms + e);
                counts[i] = (e + 1u < entries ? load(histograms + e + 1u) : count) - firsts[i];
            }
            lane_keys += counts[i];
        }
        uint total;
        uint local = workgroup_exclusive_scan(lane_keys, total);
        for (uint i = 0u; i < DIGITS_PER_LANE; ++i) {
            uint d = lane * DIGITS_PER_LANE + i;
            if (d < uint(RADIX_SORT_RADIX)) {
                digit_counts[d] = local;  // the next place in the tile's order of a key of digit d
                digit_shift[d] = firsts[i] - local;
            }
            local += counts[i];
        }
    } else {
        for (uint d = lane; d < RADIX_SORT_RADIX; d += RADIX_SORT_WORKGROUP_SIZE)
            digit_counts[d] = load(histograms + d * tiles + tile);  // the next place of digit d
    }
    for (uint m = lane; m < RADIX_SORT_RADIX * MASK_WORDS; m += RADIX_SORT_WORKGROUP_SIZE) round_masks[m] = 0u;
    if (ORDERED_WRITES)
        for (uint m = lane; m < RADIX_SORT_TILE / 2; m += RADIX_SORT_WORKGROUP_SIZE) tile_order[m] = 0u;
    barrier();
    uint source = pass & 1u;
    uint keys_in = header(RADIX_SORT_H_KEYS + source), keys_out = header(RADIX_SORT_H_KEYS + (source ^ 1u));
    uint payloads_in = header(RADIX_SORT_H_PAYLOADS + source);
    uint payloads_out = header(RADIX_SORT_H_PAYLOADS + (source ^ 1u));
    bool implicit_payload = pass == 0u && header(RADIX_SORT_H_IMPLICIT_PAYLOAD) != 0u;
    uint word = lane / 32u, bit = 1u << (lane % 32u);
    // Each round's key is loaded a round ahead, so its load overlaps the round before (three
    // barriers) instead of starting after them.
    uint next_key = tile_start + lane < count ? load(keys_in + tile_start + lane) : 0u;
    for (uint r = 0u; r < RADIX_SORT_ROUNDS; ++r) {
        uint round_start = tile_start + r * RADIX_SORT_WORKGROUP_SIZE;
        if (round_start >= count) break;  // uniform over the workgroup
        uint item = round_start + lane;
        bool live = item < count;
        uint key = next_key, digit = 0u;
        uint ahead = item + RADIX_SORT_WORKGROUP_SIZE;
        next_key = r + 1u < uint(RADIX_SORT_ROUNDS) && ahead < count ? load(keys_in + ahead) : 0u;
        if (live) {
            digit = digit_of(key, pass);
            atomicOr(round_masks[digit * MASK_WORDS + word], bit);
        }
        barrier();
        // Rank among this round's keys of the same digit: the invocations before this one.
        uint rank = 0u;
        bool last = false;
        if (live) {
            uint masks = digit * MASK_WORDS;
            for (uint w = 0u; w < word; ++w) rank += bitCount(round_masks[masks + w]);
            uint mine = round_masks[masks + word];
            rank += bitCount(mine & (bit - 1u));
            last = (mine & ~(bit | (bit - 1u))) == 0u;
            for (uint w = word + 1u; w < MASK_WORDS; ++w) last = last && round_masks[masks + w] == 0u;
            uint place = digit_counts[digit] + rank;
            if (ORDERED_WRITES) {
                atomicOr(tile_order[place / 2u], (item - tile_start) << (16u * (place & 1u)));
            } else {
                store(keys_out + place, key);
                store(payloads_out + place, implicit_payload ? item : load(payloads_in + item));
            }
        }
        barrier();
        // The last key of each digit moves the digit on and clears its masks for the next round.
        if (last) {
            digit_counts[digit] += rank + 1u;
            for (uint w = 0u; w < MASK_WORDS; ++w) round_masks[digit * MASK_WORDS + w] = 0u;
        }
        barrier();
    }
    if (!ORDERED_WRITES) return;
    // Out in the tile's digit order. The keys are read again (the tile's, just read: cached).
    for (uint place = lane; place < tile_keys; place += RADIX_SORT_WORKGROUP_SIZE) {
        uint item = tile_start + ((tile_order[place / 2u] >> (16u * (place & 1u))) & 0xffffu);
        uint key = load(keys_in + item);
        uint to = digit_shift[digit_of(key, pass)] + place;
        store(keys_out + to, key);
        store(payloads_out + to, implicit_payload ? item : load(payloads_in + item));
    }
}

void main() {
    window_shift = header(RADIX_SORT_H_WINDOW_SHIFT);
    uint mode = pc.mode & RADIX_SORT_MODE_MASK;
    uint pass = pc.mode >> RADIX_SORT_PASS_SHIFT;
    uint group = workgroup_index();
    // Whole workgroups only: every invocation of a live workgroup reaches every barrier.
    if (mode == RADIX_SORT_MODE_GRIDS) {
        // Keys known to be in order already (the caller's order word is 0): every pass after
        // this one is dispatched with no workgroups (its x count emptied), not launched to return.
        if (group == 0u && gl_LocalInvocationIndex == 0u && load(header(RADIX_SORT_H_ORDER_WORD)) == 0u) {
            for (uint grid = 0u; grid < uint(RADIX_SORT_GRIDS); ++grid) store(pc.count + RADIX_SORT_H_GRIDS + 3u * grid, 0u);
        }
    } else if (mode == RADIX_SORT_MODE_HISTOGRAM) {
        if (group < header(RADIX_SORT_H_TILES)) histogram(group, pass);
    } else if (mode == RADIX_SORT_MODE_SCAN_REDUCE) {
        if (group < header(RADIX_SORT_H_SCAN_BLOCKS)) scan_reduce(group);
    } else if (mode == RADIX_SORT_MODE_SCAN_SPINE) {
        if (group == 0u) scan_spine();
    } else if (mode == RADIX_SORT_MODE_SCAN_DOWNSWEEP) {
        if (group < header(RADIX_SORT_H_SCAN_BLOCKS)) scan_downsweep(group);
    } else if (mode == RADIX_SORT_MODE_SCATTER) {
        if (group < header(RADIX_SORT_H_TILES)) scatter_tile(group, pass);
    }
}
