/* Constants shared by the GLSL shaders and src/vulkan: workgroup size, descriptor bindings, the
 * layout of the per-operation parameter block and of the status words. Plain #defines only, so
 * that GLSL and C++ both include this one file and cannot drift apart. */
#ifndef SCATTER_SHADERS_SHARED_H
#define SCATTER_SHADERS_SHARED_H

#define SCATTER_WORKGROUP_SIZE 64
/* A 1-D grid is split into x * y workgroups with x <= this (the Vulkan minimum limit). */
#define SCATTER_MAX_GRID_X 65535
#define SCATTER_GPU_MAX_RANK 16

/* Every tensor binding is an array of this many storage-buffer windows over consecutive ranges of
 * one VkBuffer, so a tensor may be larger than maxStorageBufferRange. */
#define SCATTER_WINDOWS 4

/* Descriptor bindings (set 0). */
#define SCATTER_BINDING_PARAMS 0  /* uniform buffer: the int32 parameter block, layout below */
#define SCATTER_BINDING_STATUS 1  /* uint32 status words, layout below */
#define SCATTER_BINDING_OUT 2     /* windows over out (written) */
#define SCATTER_BINDING_DATA 3    /* windows over data (read by the copy pass) */
#define SCATTER_BINDING_INDICES 4 /* windows over indices */
#define SCATTER_BINDING_UPDATES 5 /* windows over updates */
#define SCATTER_BINDING_SCRATCH 6 /* windows over scratch: slice tables and hit counts */
#define SCATTER_BINDING_COUNT 7

/* Shader modes, passed as the first push constant. */
#define SCATTER_MODE_VALIDATE_ELEMENTS 0 /* index pass: elements, policy ERROR */
#define SCATTER_MODE_RESOLVE_SLICES 1    /* index pass: rows/nd slice tables (+ validation) */
#define SCATTER_MODE_CHECK_DIVISORS 2    /* index pass: integer div, zero divisors */
#define SCATTER_MODE_COPY 0              /* copy pass: out = data */
#define SCATTER_MODE_APPLY 0             /* scatter pass: one invocation per column */
#define SCATTER_MODE_FINISH_MEAN 1       /* scatter pass: divide hit targets by their count */
#define SCATTER_MODE_GATHER_WINNER 2     /* scatter pass, `none`: one invocation per out element */
#define SCATTER_MODE_APPLY_TARGETS 3     /* scatter pass, reductions: one invocation per out element */
#define SCATTER_MODE_SMALL_NONE 4        /* scatter pass, elements `none` in one workgroup (raw variant) */
#define SCATTER_MODE_SLAB 5              /* scatter pass, elements: one workgroup per tile of
                                            fibers of out, their targets in shared memory */
#define SCATTER_MODE_APPLY_SEGMENTS 6    /* scatter pass, in-place reductions after the key sort:
                                            APPLY_TARGETS for the targets of each sorted item that
                                            starts its key's run, one invocation per (item, outer,
                                            inner) position; the others are left as they are */
#define SCATTER_MODE_GATHER_SEGMENTS 7   /* scatter pass, in-place `none`: each winning item's
                                            update into its targets, one invocation per (item,
                                            outer, inner) position (raw variant) */
#define SCATTER_MODE_APPLY_QUADS 8      /* scatter pass, rows/nd reductions of 4- and 8-byte
                                            elements, out, data and updates row-major and
                                            16-byte aligned: APPLY_TARGETS for 16 bytes of a
                                            target row per invocation */
/* The slab path's shared table (winners, or values and hit counts of a tile's targets) has
 * SLAB_WORDS words, specialization constant 1 of scatter.comp, sized per call by the host. */
/* The small path's limits: targets in its shared winner table, and indices per call. */
#define SCATTER_SMALL_TARGETS 1024
/* The slab's ordered fold by subgroups (scatter.comp `_sb`) stages a block of the tile's updates
 * (their slots, then their values) in this many words of shared memory beside the table. */
#define SCATTER_SLAB_STAGE_WORDS 2048
/* ... and queues each subgroup's updates in a ring of twice its width (scatter.comp `_sb`). */
#define SCATTER_SLAB_QUEUE_WORDS (2 * SCATTER_WORKGROUP_SIZE)
#define SCATTER_SMALL_ITEMS 4096
#define SCATTER_MODE_ATOMIC_APPLY 0      /* atomic pass: each update into its target */
#define SCATTER_MODE_ATOMIC_RESET 1      /* atomic pass, exclude_self: hit targets = identity */
#define SCATTER_MODE_ATOMIC_CANONICALIZE 2 /* atomic pass, native float atomics: NaN -> canonical */
#define SCATTER_MODE_ATOMIC_FIRST_NAN 3  /* atomic pass, float max/min: first NaN update wins */
#define SCATTER_MODE_WINNER 0            /* buckets pass: the last update of each key */
#define SCATTER_MODE_COUNT 1             /* buckets pass: updates per key, arrival rank per item */
#define SCATTER_MODE_ALLOCATE 2          /* buckets pass: each key's range of the list */
#define SCATTER_MODE_PLACE 3             /* buckets pass: items into their key's range */
#define SCATTER_MODE_SORT 4              /* buckets pass: each range into row-major order */
#define SCATTER_MODE_ITEM_KEYS 5         /* buckets pass: each item's key for the radix sort */
#define SCATTER_MODE_KEY_RANGES 6        /* buckets pass: each key's range of the sorted items */
#define SCATTER_MODE_CHUNK_ARGS 7        /* buckets pass: the chunked APPLY_TARGETS' dispatch sizes */
#define SCATTER_MODE_GATHER_VALIDATE 0   /* gather pass: ERROR, the first out-of-range index; CLAMP,
                                            the first index into an empty dimension */
#define SCATTER_MODE_GATHER 1            /* gather pass: one invocation per out element */
/* APPLY_TARGETS (and APPLY_SEGMENTS) on a loop-limited driver folds a key's updates in chunks,
 * one pass each: the chunk's number sits above the mode's bits. */
#define SCATTER_MODE_BITS 8
#define SCATTER_MODE_MASK 0xffu

/* The parameter block: int32 words. */
#define P_OP 0               /* scatter_op value */
#define P_REDUCTION 1        /* scatter_reduction value */
#define P_POLICY 2           /* scatter_out_of_range value */
#define P_EXCLUDE_SELF 3
#define P_INDEX_IS_I64 4
#define P_AXIS 5             /* elements/rows: the axis; nd: 0 */
#define P_OUTER 6
#define P_TARGET_ROWS 7
#define P_INNER 8
#define P_SLICES 9
#define P_DEPTH 10           /* nd: index depth k */
#define P_WINDOW_SHIFT 11    /* log2 of a window's size in 32-bit words */
#define P_HAS_COUNTS 12      /* mean or exclude_self: hit counts are kept in scratch */
#define P_COUNTS_BASE 13     /* word offset of the hit counts in scratch (per out element, or
                                per key on the target-parallel path) */
#define P_SLICE_OFFSET_BASE 14 /* word offset of slice j's target offset in out (elements) */
#define P_SLICE_ROW_BASE 15  /* word offset of slice j's target row, -1 when skipped */
#define P_SLICE_UPDATE_BASE 16 /* word offset of slice j's element offset in updates */
#define P_INNER_FIRST_DIM 17 /* rows: axis + 1; nd: k (first data dim of the inner part) */
#define P_UPDATE_DIM_SHIFT 18 /* updates dim of inner data dim d is d + this */
#define P_UPDATE_SLICE_DIM 19 /* first updates dim of the slice part (rows: axis; nd: 0) */
#define P_SLICE_DIMS 20      /* rows: rank(indices); nd: rank(indices) - 1 */
/* Target-parallel path (buckets.comp): word offsets in scratch. Keys are out elements (elements)
 * or target rows (rows/nd); items are index positions (elements) or slices (rows/nd). */
#define P_WINNER_BASE 21     /* `none`: per key, 1 + the last item reaching it, 0 if none */
#define P_START_BASE 22      /* reductions: per key, where its range of the list starts */
#define P_RANK_BASE 23       /* reductions: per item, its arrival rank within its key */
#define P_LIST_BASE 24       /* reductions: the items, grouped by key */
#define P_TOTAL_WORD 25      /* reductions: list words handed out so far */
#define P_IN_PLACE 26        /* out is data: the target modes read self from out */
#define P_FLOAT_TEST 27      /* test switch for exact_arith.glsl: SCATTER_FLOAT_TEST_* bits, else 0 */
#define P_FIRST_NAN_BASE 28  /* atomic path, float max/min: per out element, the first NaN
                                update's id (0xffffffff: none) */
#define P_HITS_LIMIT 29      /* target path on a loop-limited driver (src/vulkan/vk_loop_limit.h):
                                the most updates one key may take, 0 = no limit (with the key
                                sort: chunks x P_CHUNK_ITEMS) */
#define P_SLAB_COLUMNS 30    /* slab path: fibers per tile, adjacent along out's last dim (1 when
                                the axis is the last dim) */
#define P_ITEM_KEYS_BASE 31  /* key sort: where ITEM_KEYS writes each item's key (its target,
                                P_KEY_COUNT when skipped) for the radix sort */
#define P_SORTED_KEYS_BASE 32 /* key sort: the keys sorted, beside their items in P_LIST_BASE */
#define P_KEY_ORDER_WORD 33  /* key sort: a scratch word, 0 while ITEM_KEYS finds every item's key
                                at or above its predecessor's along the axis (P_ORDER_STRIDE): the
                                sort is skipped, the keys stay at P_ITEM_KEYS_BASE and a key's
                                items are start, start + stride, ...; -1 otherwise */
#define P_CONTIGUOUS 34      /* bit T_*: that tensor's strides are row-major (its element offset
                                is its flat position: no division per dimension) */
#define P_KEY_COUNT 35       /* target path: keys (out elements, or target rows); the sorted
                                path's key of a skipped item */
#define P_CHUNK_ITEMS 36     /* key sort on a loop-limited driver: the updates of a key one
                                APPLY_TARGETS pass folds (chunk c: [c, c + 1) x this); 0 = all */
#define P_CHUNK_GRID_X 37    /* ... and APPLY_TARGETS' (or APPLY_SEGMENTS') grid, which */
#define P_CHUNK_GRID_Y 38    /* CHUNK_ARGS gives to each chunk pass a key still needs, else 0 workgroups */
#define P_SLAB_RANGE_TARGETS 39 /* slab path: targets per tile along the axis (the axis length
                                unless a tile's fibers are split into target ranges) */
#define P_ORDER_STRIDE 40    /* key sort: items from one item to the next along the axis
                                (elements: the index elements after the axis, so indices sorted
                                along any axis are in order; rows/nd: 1, the slices' order) */
/* Gather (gather.comp) reads P_OP, P_POLICY, P_INDEX_IS_I64, P_DEPTH (nd: k, else 1), P_AXIS (the
 * data dimension of the first index coordinate: elements/rows the axis, nd batch_dims), the tensor
 * blocks of out, data and indices, and as "updates" the fill value (one element, FILL only), and: */
#define P_GATHER_PREFIX 41   /* data dims [0, this) are also out's dims [0, this), but for the
                                indexed ones (elements: rank, rows: axis, nd: batch_dims) */
#define P_GATHER_INDEX_FIRST 42 /* out dims [this, this + P_GATHER_INDEX_DIMS) are indices' dims
                                   [0, P_GATHER_INDEX_DIMS) (rows: axis, else 0) */
#define P_GATHER_INDEX_DIMS 43  /* elements: rank; rows: rank(indices); nd: rank(indices) - 1;
                                   out's dims after them are data's after the indexed ones */
#define P_TENSORS 44         /* first tensor block (a multiple of 4: the block is ivec4s) */

/* One tensor block: rank, element size, byte position of element 0 in the bound windows,
 * then shape and strides (in elements). */
#define P_TENSOR_INTS (4 + 2 * SCATTER_GPU_MAX_RANK)
#define T_RANK 0
#define T_ELEMENT_SIZE 1
#define T_BASE_BYTE 2
#define T_SHAPE 4
#define T_STRIDES (4 + SCATTER_GPU_MAX_RANK)
#define T_OUT 0
#define T_DATA 1
#define T_INDICES 2
#define T_UPDATES 3
/* The `_ad` variants (buffer device addresses): the 64-bit address of the start of each
 * binding's first window (out, data, indices, updates, scratch), low word then high word;
 * 0 where the call binds windows. */
#define P_ADDRESSES (P_TENSORS + 4 * P_TENSOR_INTS)
#define P_ADDRESS_BINDINGS 5
#define P_TOTAL_INTS (P_ADDRESSES + 12) /* a multiple of 4 (ivec4s) */

/* P_FLOAT_TEST bits (SCATTER_VULKAN_DISABLE_FEATURES=subnormals / float_fast_path). */
#define SCATTER_FLOAT_TEST_FLUSH 1 /* hardware float add/mul flush subnormals, as an FTZ device */
#define SCATTER_FLOAT_TEST_SOFT 2  /* f32 mul always takes the integer path, f32 div the long division */
#define SCATTER_FLOAT_TEST_ROUGH_DIVIDE 4 /* f32 div estimates up to 2 ulp off (as Vulkan allows) */

/* Status words: the first failing flat position, or SCATTER_STATUS_NONE. */
#define S_BAD_INDEX 0
#define S_BAD_DIVISOR 1
#define S_LOOP_LIMIT 2 /* ~(the largest update count of a key) when one exceeds P_HITS_LIMIT */
#define S_KEY_HITS 3   /* chunked APPLY_TARGETS: ~(the largest update count of a key) when one
                          exceeds P_CHUNK_ITEMS */
#define S_WORDS 4
/* After the status words: chunk c >= 1's indirect dispatch (x, y, z) at S_WORDS + 3 (c - 1). */
#define SCATTER_STATUS_NONE 0xffffffffu

/* Element types of the scatter shader's variants (the build compiles one per value). */
#define SCATTER_DT_RAW 0 /* `none` of every dtype and opaque: byte copy */

#endif
