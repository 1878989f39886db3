#version 450
// Target-parallel passes: they group the updates by the target they reach, so that the scatter
// pass can run one invocation per target (thousands of times more parallel than one per column)
// and still apply each target's updates in row-major order, as the CPU backend does.
//   An item is what one index names: elements, one position of indices (its key is the flat
//   row-major position of its target in out); rows/nd, one slice j (its key is its target row,
//   shared by every outer and inner position). Skipped items have no key.
//   WINNER    `none`: winner[key] = max(item + 1): the last update in row-major order wins.
//             For `elements` under policy ERROR, WINNER and COUNT also validate the indices.
//             atomicMax is order-independent, so the result is the same on every run.
//   COUNT     reductions: rank[item] = atomicAdd(count[key], 1), the item's arrival order.
//   ALLOCATE  each key with updates takes a range of the list (start[key]), one atomic per
//             workgroup; the ranges land in arrival order, which only moves them around, never
//             changes what is in them.
//   PLACE     list[start[key] + rank[item]] = item.
//   SORT      each key sorts its range ascending: row-major order, whatever the arrival order.
// Deterministic reductions group their items with a stable radix sort of the keys instead
// (radix_sort.comp, src/vulkan/vk_radix_sort.h), the same work per item however many share a key:
//   ITEM_KEYS  each item's key (P_KEY_COUNT when skipped, sorted last; elements validate here as
//              in COUNT), and whether any key is below its predecessor's along the axis
//              (P_ORDER_STRIDE items back; the order word, one atomic per workgroup): keys
//              already in order skip the sort (segment sums, embedding updates, indices sorted
//              along any axis). A key's items all lie on one fiber along the axis, so in order
//              they are one run along it: start, start + stride, ...
//   KEY_RANGES at the last item of each key in sorted order (in order: along the axis): the key's
//              range of the sorted items (start, count), found by a galloping search back to the
//              run's first.
//   CHUNK_ARGS on a loop-limited driver (lavapipe), where APPLY_TARGETS folds a key's updates in
//              chunk passes: the indirect grid of each chunk pass, empty where no key reaches it.
// The scatter pass then reads winner or count/start/list (scatter.comp, target modes).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

SCATTER_WINDOW_ATOMIC(scratch_max_word, scratch_windows, A_SCRATCH, USE_ATOMIC_MAX)

uint scratch_add_word(uint word, uint value) SCATTER_AT(scratch_windows, WordRef, A_SCRATCH, word, 1u, USE_RETURN_ATOMIC_ADD)

// The key of `item`, or -1 when its update is skipped (out-of-range policy skip, or an index
// error under policy ERROR, recorded by element_key).
int key_of(int item) {
    if (param(P_OP) != SCATTER_OP_ELEMENTS) return int(scratch_word(uint(param(P_SLICE_ROW_BASE) + item)));
    return element_key(item);
}

uint bucket_word(int base, int key) { return uint(param(base) + key); }

// ALLOCATE, one atomic per workgroup rather than per key (a single counter taking one atomic per
// key serializes millions of them): the workgroup scans its keys' counts, with subgroup scans where
// the device has them (the `buckets_sg` variant), else serially in shared memory.
shared uint group_offsets[SCATTER_WORKGROUP_SIZE];
shared uint group_base;

#if defined(SCATTER_SUBGROUPS)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Exclusive prefix of n over the workgroup, and (in group_base, after the call) the workgroup's
// start in the list. group_offsets holds one total per subgroup.
uint workgroup_prefix(uint n) {
    uint in_subgroup = subgroupExclusiveAdd(n);
    uint subgroup_total = subgroupAdd(n);
    if (subgroupElect()) group_offsets[gl_SubgroupID] = subgroup_total;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint sum = 0u;
        for (uint i = 0u; i < gl_NumSubgroups; ++i) {
            uint c = group_offsets[i];
            group_offsets[i] = sum;
            sum += c;
        }
        group_base = sum == 0u ? 0u : scratch_add_word(uint(param(P_TOTAL_WORD)), sum);
    }
    barrier();
    return group_offsets[gl_SubgroupID] + in_subgroup;
}
#else
uint workgroup_prefix(uint n) {
    uint lane = gl_LocalInvocationID.x;
    group_offsets[lane] = n;
    barrier();
    if (lane == 0u) {
        uint sum = 0u;
        for (uint i = 0u; i < SCATTER_WORKGROUP_SIZE; ++i) {
            uint c = group_offsets[i];
            group_offsets[i] = sum;
            sum += c;
        }
        group_base = sum == 0u ? 0u : scratch_add_word(uint(param(P_TOTAL_WORD)), sum);
    }
    barrier();
    return group_offsets[lane];
}
#endif

void allocate_ranges(uint id) {
    // Every invocation reaches both barriers: no early return before them.
    bool live = id < pc.count && !operation_failed();
    uint n = live ? scratch_word(bucket_word(P_COUNTS_BASE, int(id))) : 0u;
    // A driver that ends long loops would cut SORT's and APPLY_TARGETS' loops over this key
    // short: fail the call instead (the later passes then write nothing).
    uint limit = uint(param(P_HITS_LIMIT));
    if (limit != 0u && n > limit) atomicMin(status_words[S_LOOP_LIMIT], ~n);
    uint prefix = workgroup_prefix(n);
    if (n != 0u) scratch_store_word(bucket_word(P_START_BASE, int(id)), group_base + prefix);
}

void sort_bucket(uint first, uint n) {
    if (n < 2u) return;
    if (n <= 32u) {
        for (uint i = 1u; i < n; ++i) {
            uint v = scratch_word(first + i);
            uint j = i;
            for (; j > 0u && scratch_word(first + j - 1u) > v; --j) scratch_store_word(first + j, scratch_word(first + j - 1u));
            scratch_store_word(first + j, v);
        }
        return;
    }
    // Heapsort: O(n log n) with no extra memory, for the rare heavily duplicated target.
    for (uint s = n / 2u; s-- > 0u;) {
        uint root = s;
        for (uint child = 2u * root + 1u; child < n; child = 2u * root + 1u) {
            if (child + 1u < n && scratch_word(first + child + 1u) > scratch_word(first + child)) ++child;
            uint a = scratch_word(first + root), b = scratch_word(first + child);
            if (a >= b) break;
            scratch_store_word(first + root, b);
            scratch_store_word(first + child, a);
            root = child;
        }
    }
    for (uint end = n - 1u; end > 0u; --end) {
        uint top = scratch_word(first);
        scratch_store_word(first, scratch_word(first + end));
        scratch_store_word(first + end, top);
        uint root = 0u;
        for (uint child = 1u; child < end; child = 2u * root + 1u) {
            if (child + 1u < end && scratch_word(first + child + 1u) > scratch_word(first + child)) ++child;
            uint a = scratch_word(first + root), b = scratch_word(first + child);
            if (a >= b) break;
            scratch_store_word(first + root, b);
            scratch_store_word(first + child, a);
            root = child;
        }
    }
}

// The first of the run of `key` that ends at `last` in the keys at `base`, every `stride`-th
// key from `last` back (the sorted keys: 1; in order along the axis: P_ORDER_STRIDE), as a
// count of strides from the chain's first key: galloping back (1, 2, 4, ... strides), then a
// binary search, O(log run) reads. The chain's keys before the run are below `key`.
uint run_first(uint base, uint last, uint stride, uint key) {
    const uint origin = last % stride;  // the chain's first key
    uint known = last / stride, below = 0u;  // the run starts in [below, known], in strides
    for (uint step = 1u; step <= known; step <<= 1u) {
        uint probe = known - step;
        if (scratch_word(base + origin + probe * stride) != key) {
            below = probe + 1u;
            break;
        }
        known = probe;
    }
    while (below < known) {
        uint mid = (below + known) >> 1u;
        if (scratch_word(base + origin + mid * stride) < key) below = mid + 1u;
        else known = mid;
    }
    return below;
}

// Every invocation reaches both barriers: called before main's early return.
shared uint group_descents;
void item_keys(uint id) {
    if (gl_LocalInvocationID.x == 0u) group_descents = 0u;
    barrier();
    if (id < pc.count) {
        uint skipped = uint(param(P_KEY_COUNT));
        int key = key_of(int(id));
        uint k = key < 0 ? skipped : uint(key);
        scratch_store_word(uint(param(P_ITEM_KEYS_BASE)) + id, k);
        const uint stride = uint(param(P_ORDER_STRIDE));
        if (id >= stride) {
            int previous = key_of(int(id - stride));
            if ((previous < 0 ? skipped : uint(previous)) > k) atomicOr(group_descents, 1u);
        }
    }
    barrier();
    if (gl_LocalInvocationID.x == 0u && group_descents != 0u) scratch_max_word(uint(param(P_KEY_ORDER_WORD)), 1u);
}

// Where KEY_RANGES finds the keys in order: sorted, or as ITEM_KEYS wrote them when the sort
// was skipped (the order word still 0).
bool keys_were_in_order() { return scratch_word(uint(param(P_KEY_ORDER_WORD))) == 0u; }

void key_range(uint id) {
    const bool in_order = keys_were_in_order();
    uint base = uint(param(in_order ? P_ITEM_KEYS_BASE : P_SORTED_KEYS_BASE));
    const uint stride = in_order ? uint(param(P_ORDER_STRIDE)) : 1u;
    uint key = scratch_word(base + id);
    if (key >= uint(param(P_KEY_COUNT))) return;  // skipped items
    if (id + stride < pc.count && scratch_word(base + id + stride) == key) return;  // not its run's last
    // (Items on different fibers have different keys: a run never crosses into the next fiber.)
    const uint first_stride = run_first(base, id, stride, key);
    uint first = id % stride + first_stride * stride;
    uint n = id / stride + 1u - first_stride;
    // As in ALLOCATE: APPLY_TARGETS's loops over this key would be cut short on a loop-limited
    // driver, beyond the chunks it is recorded with; within them, CHUNK_ARGS needs the longest.
    uint limit = uint(param(P_HITS_LIMIT)), chunk = uint(param(P_CHUNK_ITEMS));
    if (limit != 0u && n > limit) atomicMin(status_words[S_LOOP_LIMIT], ~n);
    if (chunk != 0u && n > chunk) atomicMin(status_words[S_KEY_HITS], ~n);
    scratch_store_word(bucket_word(P_START_BASE, int(key)), first);
    scratch_store_word(bucket_word(P_COUNTS_BASE, int(key)), n);
}

// CHUNK_ARGS, invocation c - 1 for chunk pass c >= 1 of APPLY_TARGETS: the whole grid while some
// key has more than c chunks' worth of updates, else none. Written even after a failure (the
// passes then return at once): the words hold SCATTER_STATUS_NONE until here.
void chunk_args(uint id) {
    if (id >= pc.count) return;
    uint longest = ~status_words[S_KEY_HITS];  // 0 when no key exceeds one chunk
    bool needed = longest > (id + 1u) * uint(param(P_CHUNK_ITEMS));
    uint at = S_WORDS + 3u * id;
    status_words[at] = needed ? uint(param(P_CHUNK_GRID_X)) : 0u;
    status_words[at + 1u] = needed ? uint(param(P_CHUNK_GRID_Y)) : 1u;
    status_words[at + 2u] = 1u;
}

// One id of the passes that loop over tiles (every mode but ALLOCATE).
void bucket_pass_at(uint id) {
    if (pc.mode == SCATTER_MODE_CHUNK_ARGS) {
        chunk_args(id);
        return;
    }
    if (pc.mode == SCATTER_MODE_ITEM_KEYS) {
        item_keys(id);
        return;
    }
    // WINNER and COUNT validate every index (see key_of), even after a zero divisor was found:
    // an index error is the one reported when both exist. They write only scratch.
    const bool validates = pc.mode == SCATTER_MODE_WINNER || pc.mode == SCATTER_MODE_COUNT;
    if (id >= pc.count || (!validates && operation_failed())) return;
    int i = int(id);
    if (pc.mode == SCATTER_MODE_WINNER) {
        int key = key_of(i);
        if (key >= 0) scratch_max_word(bucket_word(P_WINNER_BASE, key), id + 1u);
    } else if (pc.mode == SCATTER_MODE_COUNT) {
        int key = key_of(i);
        uint rank = key < 0 ? 0xffffffffu : scratch_add_word(bucket_word(P_COUNTS_BASE, key), 1u);
        scratch_store_word(uint(param(P_RANK_BASE) + i), rank);
    } else if (pc.mode == SCATTER_MODE_PLACE) {
        uint rank = scratch_word(uint(param(P_RANK_BASE) + i));
        if (rank == 0xffffffffu) return;
        int key = key_of(i);
        scratch_store_word(uint(param(P_LIST_BASE)) + scratch_word(bucket_word(P_START_BASE, key)) + rank, id);
    } else if (pc.mode == SCATTER_MODE_KEY_RANGES) {
        key_range(id);
    } else {  // SCATTER_MODE_SORT
        uint n = scratch_word(bucket_word(P_COUNTS_BASE, i));
        if (n != 0u) sort_bucket(uint(param(P_LIST_BASE)) + scratch_word(bucket_word(P_START_BASE, i)), n);
    }
}

void main() {
    if (pc.mode == SCATTER_MODE_ALLOCATE) {  // a scan per workgroup: one tile each, the grid whole
        allocate_ranges(invocation_index());
        return;
    }
    uint i = 0u;
    do bucket_pass_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
